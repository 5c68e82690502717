//! Complete hands per second, two ways (one criterion group):
//!
//! * `random_hands/<game>/<n>p`: `sim::random_hands`, the bare uniform-random loop: deal,
//!   random legal moves to the end of the hand, full scoring;
//! * `run/<bots>/<t>t`: `sim::run`, the batch simulation behind `cf.simulate`, with bots in the
//!   seats (the fast built-in bots held by value, a `View` per move for the bots that read it,
//!   results written to the per-hand columns),
//!   on `t` threads. `cf.simulate` from Python is measured against this figure
//!   (`benches/python/test_bench_simulate.py`).
//!
//! One iteration plays a batch of hands; each iteration takes the next seed, so the measurement
//! averages over many deals rather than replaying one batch (a replayed batch of a few dozen
//! hands is learned by the branch predictor and ran ~30% faster). Throughput is in hands per
//! second.
//!
//! Run with `cargo bench -p capturefast-bench --bench simulate`.

use std::hint::black_box;
use std::time::Instant;

use capturefast_core::play::sim::{self, Control, Mode, Plan, Player};
use capturefast_core::{BotKind, Game, Rules};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Hands per iteration of `random_hands`.
const HANDS: u64 = 64;
/// Hands per iteration of `run`: enough for the threads to share the work.
const RUN_HANDS: u64 = 8192;
const SEED: u64 = 0x51_3D_0A_7E;

fn bench_random_hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate");
    group.throughput(Throughput::Elements(HANDS));
    let cases = [
        ("scopa", Game::Scopa, 2u8),
        ("escoba", Game::Escoba, 2),
        ("chkobba", Game::Chkobba, 2),
        ("scopa", Game::Scopa, 4),
    ];
    for (name, game, players) in cases {
        let rules = Rules::profile(game, players).expect("standard profile");
        // Sanity check before timing: every hand is played and scored, and the seven of coins
        // (category 2) always ends in somebody's pile, so it is never tied.
        let t = sim::random_hands(&rules, HANDS, SEED);
        assert_eq!(t.hands, HANDS);
        assert_eq!(t.ties[2], 0);
        assert_eq!(t.awards[2][0] + t.awards[2][1], HANDS);
        let id = BenchmarkId::new(format!("random_hands/{name}"), format!("{players}p"));
        group.bench_function(id, |b| {
            let mut seed = SEED;
            b.iter(|| {
                seed = seed.wrapping_add(1);
                let t = sim::random_hands(&rules, HANDS, black_box(seed));
                debug_assert_eq!(t.hands, HANDS);
                t.points
            });
        });
    }

    // `sim::run` on 2-player Scopa: random v random on 1 and 2 threads, then every other
    // built-in bot against itself on 1 thread (so the list follows the bots that exist).
    let rules = Rules::profile(Game::Scopa, 2).expect("standard profile");
    let mut cases = vec![(BotKind::Random, 1usize), (BotKind::Random, 2)];
    cases.extend(
        BotKind::FAST
            .into_iter()
            .filter(|&k| k != BotKind::Random)
            .map(|k| (k, 1)),
    );
    for (kind, threads) in cases {
        let players = vec![Player::builtin(kind), Player::builtin(kind)];
        let plan = |seed, hands| {
            Plan::new(&rules, players.clone(), Mode::Hands, hands, seed, false).expect("plan")
        };
        let run = |plan: &Plan| {
            sim::run(&rules, plan, threads, &Control::new(), &mut |_| {}).expect("run")
        };
        // Slow bots play fewer hands an iteration, so that one takes about 50 ms at most.
        let t0 = Instant::now();
        run(&plan(SEED, 256));
        let per_hand = t0.elapsed().as_secs_f64() / 256.0;
        let hands = ((0.05 / per_hand) as u64 / 64 * 64).clamp(64, RUN_HANDS);
        let out = run(&plan(SEED, hands));
        assert_eq!(out.completed, hands);
        assert_eq!(out.hands.len() as u64, hands);
        group.throughput(Throughput::Elements(hands));
        let id = BenchmarkId::new(format!("run/{0}-{0}", kind.name()), format!("{threads}t"));
        group.bench_function(id, |b| {
            let mut seed = SEED;
            b.iter(|| {
                seed = seed.wrapping_add(1);
                run(&plan(black_box(seed), hands)).completed
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_random_hands);
criterion_main!(benches);
