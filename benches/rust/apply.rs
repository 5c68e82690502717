//! Making moves: `State::apply_unchecked` (what simulation and search loops call) and
//! `State::play` (the checked call behind Python's `state.play`), on positions reached by random
//! play with a random legal move each; and perft, which lists and makes every move of a tree.
//!
//! Inputs are fixed and seeded, and enough of them (`POSITIONS`) that the branch predictor
//! cannot learn the sequence. One iteration copies a state and makes one move on it; throughput
//! is in moves per second. `perft/<game>` counts the paths of depth 4 from a few deals;
//! its throughput is in paths per second (one `legal_moves` per node above the last level, one
//! move made per node above that).
//!
//! Run with `cargo bench -p capturefast-bench --bench apply`.

use std::hint::black_box;

use capturefast_bench::random_moves;
use capturefast_core::{Game, Rng, Rules, State, perft};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// (position, move) pairs per game; a power of two, as the index wraps with a mask.
const POSITIONS: usize = 1024;
const SEED: u64 = 0xA9_91_7E;
/// Perft depth and deals counted per iteration.
const PERFT_DEPTH: u32 = 4;
const PERFT_DEALS: u64 = 8;

const GAMES: [(&str, Game); 3] = [
    ("scopa", Game::Scopa),
    ("escoba", Game::Escoba),
    ("chkobba", Game::Chkobba),
];

fn bench_apply(c: &mut Criterion) {
    let mut group = c.benchmark_group("apply");
    group.throughput(Throughput::Elements(1));
    for (name, game) in GAMES {
        let rules = Rules::profile(game, 2).expect("standard profile");
        let inputs = random_moves(&rules, SEED, POSITIONS);
        group.bench_with_input(BenchmarkId::new("unchecked", name), &inputs, |b, inputs| {
            let mut i = 0usize;
            b.iter(|| {
                let (mut state, mv) = inputs[i & (POSITIONS - 1)];
                i = i.wrapping_add(1);
                black_box(&mut state).apply_unchecked(&rules, black_box(mv));
                state
            });
        });
        group.bench_with_input(BenchmarkId::new("play", name), &inputs, |b, inputs| {
            let mut i = 0usize;
            b.iter(|| {
                let (mut state, mv) = inputs[i & (POSITIONS - 1)];
                i = i.wrapping_add(1);
                let ok = black_box(&mut state).play(&rules, black_box(mv));
                (state, ok.is_ok())
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("perft");
    for (name, game) in GAMES {
        let rules = Rules::profile(game, 2).expect("standard profile");
        let deals: Vec<State> = (0..PERFT_DEALS)
            .map(|k| State::new(&rules, Rng::derive(SEED, k)))
            .collect();
        let paths: u64 = deals
            .iter()
            .map(|s| perft(&rules, s, PERFT_DEPTH).expect("the deal's own rules"))
            .sum();
        group.throughput(Throughput::Elements(paths));
        group.bench_with_input(BenchmarkId::new(name, PERFT_DEPTH), &deals, |b, deals| {
            b.iter(|| {
                deals
                    .iter()
                    .map(|s| {
                        perft(&rules, black_box(s), PERFT_DEPTH).expect("the deal's own rules")
                    })
                    .sum::<u64>()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_apply);
criterion_main!(benches);
