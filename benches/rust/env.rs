//! The learning interfaces, one criterion group `env`:
//!
//! * `step/<t>t`: `VecEnv::step` on 1024 games of 2-player Scopa against the `random` bot, on
//!   `t` threads, a uniformly random legal action per game drawn from the mask (in Rust, so
//!   that the figure is the env's own); throughput in learner steps per second;
//! * `observe`: `ObsLayout::write` alone, one seat's observation of a mid-hand state; the cost
//!   per step of writing observations;
//! * `random_moves`: the core's own random play (`sim::random_hands`), in moves per second,
//!   the figure the env's steps are compared with.
//!
//! Run with `cargo bench -p capturefast-bench --bench env`.

use std::hint::black_box;

use capturefast_core::learn::actions::{Decision, NUM_ACTIONS};
use capturefast_core::learn::env::{EnvConfig, Outputs, Reward, VecEnv};
use capturefast_core::learn::obs::ObsLayout;
use capturefast_core::play::sim;
use capturefast_core::{BotKind, Game, Rng, Rules, State};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Games stepped per call.
const N: usize = 1024;
/// Hands per iteration of the core's random play.
const HANDS: u64 = 64;
const SEED: u64 = 0xE7_5E_ED;

/// A uniformly random legal action per game from the mask.
fn pick(mask: &[bool], rng: &mut Rng, actions: &mut [i64]) {
    for (row, a) in mask.chunks_exact(NUM_ACTIONS).zip(actions.iter_mut()) {
        let n = row.iter().filter(|&&m| m).count() as u64;
        let mut k = rng.below(n);
        for (i, &m) in row.iter().enumerate() {
            if m {
                if k == 0 {
                    *a = i as i64;
                    break;
                }
                k -= 1;
            }
        }
    }
}

fn bench_env(c: &mut Criterion) {
    let rules = Rules::profile(Game::Scopa, 2).expect("standard profile");
    let mut group = c.benchmark_group("env");
    group.throughput(Throughput::Elements(N as u64));
    for threads in [1, 2] {
        let config = EnvConfig {
            num_envs: N,
            seats: vec![None, Some(BotKind::Random)],
            reward: Reward::Hand,
            max_steps: 0,
            full_information: false,
            threads,
        };
        let mut env = VecEnv::new(&rules, config, SEED).expect("a valid config");
        let d = env.layout().len();
        let mut obs = vec![0.0; N * d];
        let mut final_obs = vec![0.0; N * d];
        let mut mask = vec![false; N * NUM_ACTIONS];
        let (mut reward, mut side) = (vec![0.0; N], vec![0.0; N * 2]);
        let (mut term, mut trunc, mut seat) = (vec![false; N], vec![false; N], vec![0; N]);
        let mut actions = vec![0i64; N];
        let mut rng = Rng::new(SEED);
        let mut out = Outputs {
            obs: &mut obs,
            final_obs: &mut final_obs,
            mask: &mut mask,
            reward: &mut reward,
            side_rewards: &mut side,
            terminated: &mut term,
            truncated: &mut trunc,
            seat: &mut seat,
        };
        env.reset(Some(SEED), &mut out)
            .expect("buffers of the env's sizes");
        group.bench_function(BenchmarkId::new("step", format!("{threads}t")), |b| {
            b.iter(|| {
                pick(out.mask, &mut rng, &mut actions);
                env.step(&actions, &mut out).expect("legal actions");
                black_box(out.reward[0])
            });
        });
    }

    // Observation writing alone, over the states of a few random hands.
    let layout = ObsLayout::seat(&rules);
    let mut states = Vec::new();
    let mut moves = Vec::new();
    let mut rng = Rng::new(SEED);
    for seed in 0..32 {
        let mut s = State::new(&rules, seed);
        while !s.hand_over() {
            states.push(s);
            s.legal_moves(&rules, &mut moves);
            s.apply_unchecked(&rules, moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    let decisions: Vec<Decision> = states
        .iter()
        .map(|s| {
            let mut d = Decision::new();
            d.reset(&rules, s);
            d
        })
        .collect();
    let mut obs = vec![0.0; layout.len()];
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("observe", |b| {
        b.iter(|| {
            for (s, d) in states.iter().zip(&decisions) {
                let seat = s.to_move().expect("mid-hand");
                layout.write(&rules, s, seat, Some(d), &mut obs);
            }
            black_box(obs[0])
        });
    });

    // The core's random play, in moves: 36 moves a 2-player Scopa hand (40 cards, 4 on the
    // table at the deal).
    group.throughput(Throughput::Elements(HANDS * 36));
    group.bench_function("random_moves", |b| {
        let mut seed = SEED;
        b.iter(|| {
            seed = seed.wrapping_add(1);
            sim::random_hands(&rules, HANDS, black_box(seed)).points
        });
    });
    group.finish();
}

criterion_group!(benches, bench_env);
criterion_main!(benches);
