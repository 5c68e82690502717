//! Move generation: capture enumeration by table size, and `State::legal_moves` on positions
//! reached by random play.
//!
//! Inputs are fixed and seeded (`capturefast_core::Rng`), so every run measures the same work.
//! One iteration is one call, cycling through a set of inputs, and the throughput is reported in
//! calls per second. Each capture case also prints (to stderr) its mean options per call, which
//! turns its time per call into time per option produced.
//!
//! Run with `cargo bench -p capturefast-bench --bench legal_actions`.

use std::hint::black_box;

use capturefast_bench::random_moves;
use capturefast_core::{Card, CardSet, Game, Rng, Rules, State};
use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};

/// Table sizes measured. Real tables rarely pass 8 cards; 10 and 12 show the growth.
const TABLE_SIZES: [usize; 7] = [0, 2, 4, 6, 8, 10, 12];
/// (table, card) pairs per capture benchmark, and positions per `legal_moves` benchmark: enough
/// that the branch predictor cannot learn the sequence (replaying a few hundred inputs measured
/// up to ~15% faster at 8-10 Escoba cards). Powers of two: the index wraps with a mask.
const INPUTS: usize = 4096;
const POSITIONS: usize = 1024;
const SEED: u64 = 0xBE7C_4A11;

/// `INPUTS` (table, played card) pairs: `size` cards and one more off a shuffled deck each.
fn capture_inputs(size: usize, seed: u64) -> Vec<(CardSet, Card)> {
    (0..INPUTS as u64)
        .map(|i| {
            let deck = Rng::new(Rng::derive(seed ^ size as u64, i)).shuffled_deck();
            let table: CardSet = deck[..size].iter().copied().collect();
            (table, deck[size])
        })
        .collect()
}

/// Checks the inputs and the engine's answers before timing: options are non-empty subsets of
/// the table, sorted and distinct; returns the mean number of options per call.
fn check_capture_inputs(rules: &Rules, inputs: &[(CardSet, Card)], size: usize) -> f64 {
    let mut out = Vec::new();
    let mut total = 0usize;
    for &(table, card) in inputs {
        assert_eq!(table.len() as usize, size);
        assert!(!table.contains(card));
        rules.capture_options(table, card, &mut out);
        assert!(out.iter().all(|s| !s.is_empty() && table.is_superset(*s)));
        assert!(out.windows(2).all(|w| w[0] < w[1]));
        total += out.len();
    }
    total as f64 / inputs.len() as f64
}

/// Table sizes measured on tables met in play, and the most hands played to find them.
const PLAY_SIZES: [usize; 5] = [2, 4, 6, 8, 10];
const PLAY_HANDS: u64 = 4_000_000;

/// `INPUTS` (table, card) pairs of each size in `sizes` as met in random play: the table before
/// a move and each card in the mover's hand, in order of play (hand `h` dealt from
/// `Rng::derive(seed, h)`), for the sizes that occur that often within `PLAY_HANDS` hands.
/// Crowded tables arise in play only when nothing could take from them, so they may offer fewer
/// captures than random ones.
fn capture_inputs_in_play(rules: &Rules, seed: u64) -> Vec<(usize, Vec<(CardSet, Card)>)> {
    let mut found: Vec<Vec<(CardSet, Card)>> = vec![Vec::new(); NUM_CARDS_ON_TABLE];
    let mut moves = Vec::with_capacity(64);
    let full = |f: &Vec<Vec<(CardSet, Card)>>| PLAY_SIZES.iter().all(|&n| f[n].len() == INPUTS);
    for h in 0..PLAY_HANDS {
        if full(&found) {
            break;
        }
        let s = Rng::derive(seed, h);
        let mut state = State::new(rules, s);
        let mut rng = Rng::new(s ^ 0x5EED);
        while let Some(seat) = state.to_move() {
            let table = state.table();
            let bucket = &mut found[table.len() as usize];
            for card in state.hand(seat) {
                if bucket.len() < INPUTS {
                    bucket.push((table, card));
                }
            }
            state.legal_moves(rules, &mut moves);
            state.apply_unchecked(rules, moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    let mut out = Vec::new();
    for n in PLAY_SIZES {
        if found[n].len() == INPUTS {
            out.push((n, std::mem::take(&mut found[n])));
        }
    }
    out
}

/// Table sizes a bucket can hold: a table never holds more than the 40 cards.
const NUM_CARDS_ON_TABLE: usize = 41;

/// One capture query per iteration, cycling through `inputs`.
fn bench_calls(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    rules: &Rules,
    inputs: &[(CardSet, Card)],
) {
    let mut out = Vec::with_capacity(64);
    group.bench_with_input(id, inputs, |b, inputs| {
        let mut i = 0usize;
        b.iter(|| {
            let (table, card) = inputs[i & (INPUTS - 1)];
            i = i.wrapping_add(1);
            rules.capture_options(black_box(table), black_box(card), &mut out);
            out.len()
        });
    });
}

fn bench_capture_options(c: &mut Criterion) {
    let mut group = c.benchmark_group("capture_options");
    group.throughput(Throughput::Elements(1));
    for (name, game) in [("scopa", Game::Scopa), ("escoba", Game::Escoba)] {
        let rules = Rules::profile(game, 2).expect("standard profile");
        for size in TABLE_SIZES {
            let inputs = capture_inputs(size, SEED);
            let mean = check_capture_inputs(&rules, &inputs, size);
            if size == 0 {
                assert!(mean == 0.0, "an empty table offers no capture");
            }
            // The time per option produced is the time per call over this.
            eprintln!("capture_options/{name}/{size}: {mean:.2} options per call");
            bench_calls(&mut group, BenchmarkId::new(name, size), &rules, &inputs);
        }
        // The same on tables met in play, where crowded tables are those nothing could take.
        for (size, inputs) in capture_inputs_in_play(&rules, SEED) {
            let mean = check_capture_inputs(&rules, &inputs, size);
            eprintln!("capture_options/{name}_in_play/{size}: {mean:.2} options per call");
            let id = BenchmarkId::new(format!("{name}_in_play"), size);
            bench_calls(&mut group, id, &rules, &inputs);
        }
    }
    group.finish();
}

fn bench_legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(1));
    for (name, game) in [
        ("scopa", Game::Scopa),
        ("escoba", Game::Escoba),
        ("chkobba", Game::Chkobba),
    ] {
        let rules = Rules::profile(game, 2).expect("standard profile");
        let states: Vec<State> = random_moves(&rules, SEED, POSITIONS)
            .into_iter()
            .map(|(state, _)| state)
            .collect();
        let mut out = Vec::with_capacity(64);
        group.bench_with_input(BenchmarkId::new(name, "2p"), &states, |b, states| {
            let mut i = 0usize;
            b.iter(|| {
                let state = &states[i & (POSITIONS - 1)];
                i = i.wrapping_add(1);
                black_box(state).legal_moves(&rules, &mut out);
                out.len()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_capture_options, bench_legal_moves);
criterion_main!(benches);
