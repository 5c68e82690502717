//! The exact solver and the PIMC bot on fixed, seeded position sets of 2-player Scopa (and, for
//! the equal-time ratios, of every game and player count).
//!
//! * `solve/value/<n>`: `Solver::value` on open positions with `n` plays left (6, 12, 18),
//!   reached by random play from seeded deals, the table cleared before each (a cold solve);
//! * `solve/solve/<n>`: `Solver::solve` (every move's exact value) on the same positions;
//! * `solve/hand`: `Solver::value` of the whole hand from the deal, stock order known;
//! * `pimc/100w_hand/18`, `pimc/100w_round/18`: one decision of `PimcBot` with 100 worlds at 18
//!   plays left, each world solved to the end of the hand ([`Horizon::Hand`], the PIMC
//!   target) or searched to the end of the round (the default, [`Horizon::Round`]);
//! * in the timing table only, `pimc ... told, infer=...,eval=...,endgame=...`: every decision
//!   of a 100-world `PimcBot` (round horizon) playing seat 0 of whole hands against `ExpertBot`
//!   and told every move, its worlds drawn independently and uniformly, or balanced and
//!   weighed by the opponent's moves (`ExpertModel`), the round's end valued by the hand-made
//!   or the fitted equity, the second-to-last round searched like the others or solved to the
//!   hand's end (the last set is the registry's `pimc`): the move time a simulation or a game pays, the round's
//!   likelihoods kept between the bot's decisions as they are in play;
//! * in the timing table only, `told decisions ... ratio`: for each game and player count, the
//!   mean told decision of the registry's `pimc` and of the uniform player (the first set
//!   above), each decision's fastest of five rounds, and their ratio: how many worlds the uniform
//!   player takes to match `pimc`'s time, for tournaments at equal time a move.
//!
//! Before criterion runs, a plain timing loop times every position (five rounds, keeping each
//! position's fastest) and prints the median, the 99th percentile and the node counts of each
//! set: criterion reports means over batches, which hide the tail.
//!
//! Run with `cargo bench -p capturefast-bench --bench solve` (criterion flags after `--`). Set
//! `SOLVE_BENCH_TIMING_ONLY=1` to print the timing table and stop.

use std::hint::black_box;
use std::time::{Duration, Instant};

use capturefast_core::{
    Bot, Draw, EXPERT_MODEL_BETA, Evaluation, ExpertBot, ExpertModel, Game, Horizon, LazyView,
    Move, PimcBot, Rng, Rules, SearchModel, Solver, State,
};
use criterion::{BenchmarkId, Criterion, Throughput};

const SEED: u64 = 0x501E_5EED;
/// Positions per set.
const POSITIONS: usize = 1000;
/// Deals for the whole-hand set.
const HANDS: usize = 200;
/// Decisions for the PIMC set.
const DECISIONS: usize = 50;
/// Hands for the told PIMC sets (18 decisions each).
const TOLD_HANDS: u64 = 40;
const PIMC_WORLDS: u32 = 100;
/// Transposition-table entries of the benchmark solver (1 MiB). Each solve uses the part of it
/// its size calls for; the whole hands measured no faster with more.
const TT: usize = 1 << 16;

/// `count` positions with `left` cards to play: deal `i` from `Rng::derive(seed, i)`, then
/// uniformly random legal moves.
fn positions(rules: &Rules, left: u32, count: usize, seed: u64) -> Vec<State> {
    let mut moves = Vec::with_capacity(64);
    (0..count as u64)
        .map(|i| {
            let s = Rng::derive(seed ^ u64::from(left), i);
            let mut state = State::new(rules, s);
            let mut rng = Rng::new(s ^ 0x5EED);
            while state.cards_left() > left {
                state.legal_moves(rules, &mut moves);
                let mv: Move = moves[rng.below(moves.len() as u64) as usize];
                state.apply_unchecked(rules, mv);
            }
            state
        })
        .collect()
}

/// Median, 99th percentile and maximum of `xs` (sorted in place).
fn percentiles(xs: &mut [f64]) -> (f64, f64, f64) {
    xs.sort_by(f64::total_cmp);
    let at = |q: f64| xs[((xs.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), xs[xs.len() - 1])
}

fn report(name: &str, times: &mut [f64], nodes: &[u64]) {
    let (median, p99, max) = percentiles(times);
    let mean_t = times.iter().sum::<f64>() / times.len() as f64;
    let line = format!(
        "{name:<18} n={:<5} median {:>10.2} us  mean {:>10.2} us  p99 {:>10.2} us  max {:>10.2} us",
        times.len(),
        median * 1e6,
        mean_t * 1e6,
        p99 * 1e6,
        max * 1e6,
    );
    if nodes.is_empty() {
        eprintln!("{line}");
    } else {
        let mean = nodes.iter().sum::<u64>() as f64 / nodes.len() as f64;
        let mut sorted = nodes.to_vec();
        sorted.sort_unstable();
        eprintln!(
            "{line}  nodes: mean {mean:>8.0} median {:>7} p99 {:>7}",
            sorted[sorted.len() / 2],
            sorted[(sorted.len() - 1) * 99 / 100],
        );
    }
}

/// Rounds of the timing loop: each position's time is its fastest round, which filters out
/// the preemptions of a shared machine (node counts do not vary).
const ROUNDS: usize = 5;

/// Times `run` on every state, `ROUNDS` times over; returns each state's fastest time (s) and
/// the node count `run` returned.
fn time_each(states: &[State], mut run: impl FnMut(&State) -> u64) -> (Vec<f64>, Vec<u64>) {
    let mut times = vec![f64::INFINITY; states.len()];
    let mut nodes = vec![0; states.len()];
    for _ in 0..ROUNDS {
        for (i, s) in states.iter().enumerate() {
            let t0 = Instant::now();
            nodes[i] = run(s);
            times[i] = times[i].min(t0.elapsed().as_secs_f64());
        }
    }
    (times, nodes)
}

/// Times each solve, cold (table cleared), and prints the distribution.
fn timing_table(rules: &Rules, solver: &mut Solver) {
    eprintln!("solver timing, 2-player Scopa, one cold solve per position:");
    // Warm up (caches, clock) for half a second before the first timed set.
    let warm = positions(rules, 12, 100, SEED ^ 0xAA);
    let t0 = Instant::now();
    while t0.elapsed().as_secs_f64() < 0.5 {
        for s in &warm {
            solver.clear();
            black_box(solver.value(rules, s).expect("in play"));
        }
    }
    for left in [6u32, 12, 18] {
        let states = positions(rules, left, POSITIONS, SEED);
        for (what, full) in [("value", false), ("solve", true)] {
            let (mut times, nodes) = time_each(&states, |s| {
                if full {
                    solver.clear();
                    let n0 = solver.nodes();
                    black_box(solver.solve(rules, s).expect("in play").value);
                    solver.nodes() - n0
                } else {
                    solver.clear();
                    let n0 = solver.nodes();
                    black_box(solver.value(rules, s).expect("in play"));
                    solver.nodes() - n0
                }
            });
            report(&format!("{what} {left} left"), &mut times, &nodes);
        }
    }
    let deals = positions(rules, 36, HANDS, SEED);
    let (mut times, nodes) = time_each(&deals, |s| {
        solver.clear();
        let n0 = solver.nodes();
        black_box(solver.value(rules, s).expect("in play"));
        solver.nodes() - n0
    });
    report("value whole hand", &mut times, &nodes);

    let states = positions(rules, 18, DECISIONS, SEED ^ 0xB07);
    for (horizon, name) in [(Horizon::Hand, "hand"), (Horizon::Round, "round")] {
        let mut bot = PimcBot::with_horizon(PIMC_WORLDS, horizon, SEED);
        let (mut times, nodes) = time_decisions(rules, &mut bot, &states);
        report(
            &format!("pimc {PIMC_WORLDS}w 18 left, {name} horizon"),
            &mut times,
            &nodes,
        );
    }
    let (equity, fitted) = (Evaluation::Equity, Evaluation::Fitted);
    let sets = [
        (
            "infer=off,eval=equity,endgame=round,draw=independent",
            false,
            equity,
            false,
        ),
        (
            "infer=expert,eval=equity,endgame=round",
            true,
            equity,
            false,
        ),
        (
            "infer=expert,eval=fitted,endgame=round",
            true,
            fitted,
            false,
        ),
        (
            "infer=expert,eval=fitted,endgame=solve (pimc)",
            true,
            fitted,
            true,
        ),
    ];
    for (name, infer, evaluation, endgame) in sets {
        let mut bot = told_bot(infer, evaluation, endgame);
        let (mut times, nodes) = time_told_hands(rules, &mut bot, TOLD_HANDS);
        report(
            &format!("pimc {PIMC_WORLDS}w told, {name}"),
            &mut times,
            &nodes,
        );
    }
    told_ratios();
    told_time_limit();
}

/// A 100-world round-horizon [`PimcBot`] with the given inference, evaluation and endgame; its
/// worlds balanced ([`Draw::Balanced`]) with inference, and drawn independently without it (the
/// uniform player, `pimc:infer=off,eval=equity,endgame=round,draw=independent`).
fn told_bot(infer: bool, evaluation: Evaluation, endgame: bool) -> PimcBot {
    let bot = PimcBot::with_horizon(PIMC_WORLDS, Horizon::Round, SEED)
        .with_evaluation(evaluation)
        .with_endgame(endgame);
    if infer {
        bot.with_inference(Box::new(ExpertModel::new(EXPERT_MODEL_BETA)))
    } else {
        bot.with_draw(Draw::Independent)
    }
}

/// `pimc:infer=search`: the round search as the model of the others' play.
fn search_bot() -> PimcBot {
    told_bot(false, Evaluation::Fitted, true)
        .with_inference(Box::new(SearchModel::new(EXPERT_MODEL_BETA, SEED)))
}

/// For every game and player count, the mean told decision of the registry's `pimc` (and its
/// 99th percentile), of `pimc:infer=search` and of the uniform player (`pimc:infer=off,eval=equity,endgame=round,draw=independent`),
/// and the ratios of the first two to the third: the uniform worlds that take their time, for
/// tournaments at equal time a move. The two bots
/// alternate over [`ROUNDS`] plays of the same hands (the bots are deterministic, so every
/// round makes the same decisions), and each decision counts its fastest round.
fn told_ratios() {
    eprintln!("told decisions, {PIMC_WORLDS} worlds, fastest of {ROUNDS} rounds each:");
    for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
        for players in [2, 4] {
            let rules = Rules::profile(game, players).expect("standard profile");
            let mut fastest: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
            for _ in 0..ROUNDS {
                for (i, times_of) in fastest.iter_mut().enumerate() {
                    let mut bot = match i {
                        0 => told_bot(false, Evaluation::Equity, false),
                        1 => told_bot(true, Evaluation::Fitted, true),
                        _ => search_bot(),
                    };
                    let (times, _) = time_told_hands(&rules, &mut bot, TOLD_HANDS);
                    if times_of.is_empty() {
                        *times_of = times;
                    } else {
                        for (best, t) in times_of.iter_mut().zip(times) {
                            *best = best.min(t);
                        }
                    }
                }
            }
            let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
            let [uniform, pimc, search] = fastest.each_ref().map(|t| mean(t));
            let (_, pimc_p99, _) = percentiles(&mut fastest[1]);
            eprintln!(
                "{game:?} {players} players: n={:<5} uniform mean {:>8.1} us  pimc mean {:>8.1} us  \
                 p99 {:>8.1} us  ratio {:.2}  infer=search mean {:>8.1} us  ratio {:.2}",
                fastest[1].len(),
                uniform * 1e6,
                pimc * 1e6,
                pimc_p99 * 1e6,
                pimc / uniform,
                search * 1e6,
                search / uniform,
            );
        }
    }
}

/// The told decisions of `pimc:infer=search` under a time limit of 2 ms (2-player Chkobba),
/// whose weighing alone can take several times that: the limit bounds the weighing to half of
/// it and the searches to the rest, so the slowest decision is about the limit.
fn told_time_limit() {
    let rules = Rules::profile(Game::Chkobba, 2).expect("standard profile");
    let mut bot = search_bot().with_time_limit(Duration::from_millis(2));
    let (mut times, nodes) = time_told_hands(&rules, &mut bot, TOLD_HANDS);
    report(
        "pimc 100w told, Chkobba, infer=search,ms=2",
        &mut times,
        &nodes,
    );
}

/// Seconds and search nodes of every decision of `bot` in seat 0 of `hands` whole hands
/// against [`ExpertBot`], told of every move (its own too) as it is played.
fn time_told_hands(rules: &Rules, bot: &mut PimcBot, hands: u64) -> (Vec<f64>, Vec<u64>) {
    let mut moves = Vec::new();
    let (mut times, mut nodes) = (Vec::new(), Vec::new());
    for i in 0..hands {
        let mut state = State::new(rules, Rng::derive(SEED ^ 0x7E11, i));
        let mut expert = ExpertBot::new(i);
        while let Some(seat) = state.to_move() {
            state.legal_moves(rules, &mut moves);
            let view = LazyView::new(&state, seat);
            let mv = if seat == 0 {
                let n0 = bot.nodes();
                let t0 = Instant::now();
                let mv = bot.choose(rules, &view, &moves);
                times.push(t0.elapsed().as_secs_f64());
                nodes.push(bot.nodes() - n0);
                mv
            } else {
                expert.choose(rules, &view, &moves)
            };
            bot.observe(rules, &state.view(0), seat, mv);
            state.apply_unchecked(rules, mv);
        }
    }
    (times, nodes)
}

/// Seconds and search nodes of `bot`'s decision in each of `states`.
fn time_decisions(rules: &Rules, bot: &mut PimcBot, states: &[State]) -> (Vec<f64>, Vec<u64>) {
    let mut moves = Vec::new();
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    // A first decision allocates the bot's table: not timed.
    let s = &states[0];
    s.legal_moves(rules, &mut moves);
    black_box(bot.choose(
        rules,
        &LazyView::new(s, s.to_move().expect("in play")),
        &moves,
    ));
    for s in states {
        s.legal_moves(rules, &mut moves);
        let view = s.view(s.to_move().expect("in play"));
        let n0 = bot.nodes();
        let t0 = Instant::now();
        black_box(bot.choose(rules, &LazyView::from(&view), &moves));
        times.push(t0.elapsed().as_secs_f64());
        nodes.push(bot.nodes() - n0);
    }
    (times, nodes)
}

fn bench_solver(c: &mut Criterion, rules: &Rules, solver: &mut Solver) {
    let mut group = c.benchmark_group("solve");
    group.throughput(Throughput::Elements(1));
    for left in [6u32, 12, 18] {
        let states = positions(rules, left, POSITIONS, SEED);
        for (what, full) in [("value", false), ("solve", true)] {
            group.bench_with_input(BenchmarkId::new(what, left), &states, |b, states| {
                let mut i = 0usize;
                b.iter(|| {
                    let s = &states[i % states.len()];
                    i += 1;
                    solver.clear();
                    if full {
                        solver.solve(rules, black_box(s)).expect("in play").value
                    } else {
                        solver.value(rules, black_box(s)).expect("in play")
                    }
                });
            });
        }
    }
    group.sample_size(20);
    let deals = positions(rules, 36, HANDS, SEED);
    group.bench_function("hand", |b| {
        let mut i = 0usize;
        b.iter(|| {
            let s = &deals[i % deals.len()];
            i += 1;
            solver.clear();
            solver.value(rules, black_box(s)).expect("in play")
        });
    });
    group.finish();

    let mut group = c.benchmark_group("pimc");
    group.sample_size(10);
    let states = positions(rules, 18, DECISIONS, SEED ^ 0xB07);
    let mut moves = Vec::new();
    for (horizon, name) in [(Horizon::Hand, "hand"), (Horizon::Round, "round")] {
        let mut bot = PimcBot::with_horizon(PIMC_WORLDS, horizon, SEED);
        let id = BenchmarkId::new(format!("{PIMC_WORLDS}w_{name}"), 18);
        group.bench_function(id, |b| {
            let mut i = 0usize;
            b.iter(|| {
                let s = &states[i % states.len()];
                i += 1;
                s.legal_moves(rules, &mut moves);
                let view = s.view(s.to_move().expect("in play"));
                bot.choose(rules, &LazyView::from(&view), &moves)
            });
        });
    }
    group.finish();
}

fn main() {
    let rules = Rules::profile(Game::Scopa, 2).expect("standard profile");
    let mut solver = Solver::new(TT);
    timing_table(&rules, &mut solver);
    if std::env::var_os("SOLVE_BENCH_TIMING_ONLY").is_some() {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench_solver(&mut c, &rules, &mut solver);
    c.final_summary();
}
