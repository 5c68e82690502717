//! Complete random hands per second: deal, uniformly random legal moves to the end of the hand,
//! full scoring (`sim::random_hands`, the simulation workload).
//!
//! One iteration plays `HANDS` hands; each iteration takes the next seed, so the measurement
//! averages over many deals rather than replaying one batch (a replayed batch of a few dozen
//! hands is learned by the branch predictor and ran ~30% faster). Throughput is in hands per
//! second.
//!
//! Run with `cargo bench -p capturefast-bench --bench simulate`.

use std::hint::black_box;

use capturefast_core::{Game, Rules, sim};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Hands per iteration.
const HANDS: u64 = 64;
const SEED: u64 = 0x51_3D_0A_7E;

fn bench_simulate(c: &mut Criterion) {
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
        group.bench_function(BenchmarkId::new(name, format!("{players}p")), |b| {
            let mut seed = SEED;
            b.iter(|| {
                seed = seed.wrapping_add(1);
                let t = sim::random_hands(&rules, HANDS, black_box(seed));
                debug_assert_eq!(t.hands, HANDS);
                t.points
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_simulate);
criterion_main!(benches);
