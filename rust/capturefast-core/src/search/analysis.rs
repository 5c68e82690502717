//! The analysis of a seat's moves over sampled worlds (perfect-information Monte Carlo): each
//! world consistent with the seat's view is solved exactly to the end of the hand
//! ([`Horizon::Hand`]) or searched to the end of the round ([`Horizon::Round`]), and each move
//! gets its mean value and the standard error of that mean.

use std::time::Instant;

use crate::error::Error;
use crate::game::action::Move;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use crate::game::world::{Draw, Draws, is_open};
use crate::search::horizon::{RoundSearch, max_plies, plays_left_in_round};
use crate::search::infer::Inference;
use crate::search::solver::{Interrupt, Solver};

/// How far each sampled world is searched (by the PIMC bot and by [`analyze_to`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Horizon {
    /// To the end of the current round (or [`horizon::max_plies`](crate::search::horizon::max_plies)
    /// plays), valuing the piles there by their expected category points: the world's stock
    /// order, which no player knows, never decides a move. The default.
    Round,
    /// To the end of the hand, exactly ([`Solver`]), as if the world's stock order were known.
    Hand,
}

impl Horizon {
    /// Its name, `round` or `hand` ([`Horizon::from_name`] reads it).
    pub fn name(self) -> &'static str {
        match self {
            Horizon::Round => "round",
            Horizon::Hand => "hand",
        }
    }

    /// Parses `round` or `hand`.
    pub fn from_name(name: &str) -> Result<Horizon, Error> {
        match name {
            "round" => Ok(Horizon::Round),
            "hand" => Ok(Horizon::Hand),
            _ => Err(Error::Argument(format!(
                "horizon is \"hand\" or \"round\", got: \"{name}\""
            ))),
        }
    }
}

/// Per legal move of the viewer (in legal-move order): the move, its mean exact value over
/// `worlds` determinized worlds, and the standard error of that mean. An open view
/// ([`is_open`]) is solved once, with standard error 0. Worlds are drawn from `seed`.
pub fn analyze(
    rules: &Rules,
    view: &View,
    worlds: u32,
    seed: u64,
    solver: &mut Solver,
) -> Result<Vec<(Move, f64, f64)>, Error> {
    analyze_to(rules, view, worlds, seed, Horizon::Hand, solver)
}

/// [`analyze`] with each world searched to `horizon`: [`Horizon::Hand`] solves it exactly to the
/// end of the hand (what `analyze` does); [`Horizon::Round`] searches it as the PIMC bot does,
/// to the end of the round, where the piles are valued by their expected category points.
pub fn analyze_to(
    rules: &Rules,
    view: &View,
    worlds: u32,
    seed: u64,
    horizon: Horizon,
    solver: &mut Solver,
) -> Result<Vec<(Move, f64, f64)>, Error> {
    analyze_informed(rules, view, worlds, seed, horizon, None, solver)
}

/// [`analyze_to`] with the worlds weighed by `inference` (told of the moves that led to `view`,
/// [`Inference::observe`]) as the `pimc` bot weighs them: drawn 3 times over,
/// resampled by weight. The means are then over the resampled worlds. A round `inference` does
/// not know whole, or in which nobody else moved or declared, is sampled uniformly.
///
/// Under [`Horizon::Hand`] a world too large for the exact solver is refused
/// ([`Error::TooLarge`]): these values are the hand's, never the round search's
/// ([`analyze_position`] falls back to it instead, and says so).
pub fn analyze_informed(
    rules: &Rules,
    view: &View,
    worlds: u32,
    seed: u64,
    horizon: Horizon,
    inference: Option<&mut Inference>,
    solver: &mut Solver,
) -> Result<Vec<(Move, f64, f64)>, Error> {
    let how = (worlds, seed, horizon);
    let found = analyze_until(rules, view, how, inference, solver, &Interrupt::default())?;
    match found.too_large {
        Some(why) => Err(Error::TooLarge(why)),
        None => Ok(found.moves),
    }
}

/// What [`analyze_until`] found.
pub(crate) struct Found {
    /// Per legal move of the viewer: the move, its mean value and the standard error.
    pub(crate) moves: Vec<(Move, f64, f64)>,
    /// The worlds the means are over.
    pub(crate) worlds: u32,
    /// Whether the interrupt ended the analysis early ([`WorldSums::stopped`]).
    pub(crate) stopped: bool,
    /// The horizon the values are to: the one asked, or [`Horizon::Round`] when the first
    /// world's exact solve was cut short or refused as too large ([`search_world`]).
    pub(crate) horizon: Horizon,
    /// The solver's message when it refused a world as too large ([`WorldSums::too_large`]).
    pub(crate) too_large: Option<String>,
}

/// [`analyze_informed`], ended early when `interrupt` is due (after at least one world).
pub(crate) fn analyze_until(
    rules: &Rules,
    view: &View,
    (worlds, seed, horizon): (u32, u64, Horizon),
    inference: Option<&mut Inference>,
    solver: &mut Solver,
    interrupt: &Interrupt,
) -> Result<Found, Error> {
    if view.to_move != Some(view.seat) {
        return Err(Error::IllegalMove(format!(
            "seat {} is not to move: nothing to analyze",
            view.seat
        )));
    }
    if worlds == 0 {
        return Err(Error::Variant(
            "analyze needs at least one world, got: 0".to_string(),
        ));
    }
    let mut round = RoundSearch::default();
    let fresh = worlds > 1 && !is_open(view);
    let mut weigh = inference.and_then(|i| i.weigher(rules, view));
    // Once the first world is refused as too large, the round search values every world.
    let mut refused = false;
    let sums = world_sums(
        rules,
        view,
        (worlds, seed, Draw::Independent),
        interrupt,
        weigh.as_mut().map(|f| f as &mut WeighWorld),
        &mut |world, legal, first, values| {
            let solver = (horizon == Horizon::Hand && !refused).then_some(&mut *solver);
            let stop = (interrupt, first);
            let valued = search_world(rules, world, legal, solver, fresh, &mut round, stop, values);
            refused |= matches!(valued, Ok(Some(Fallback::TooLarge(_))));
            valued
        },
    )?;
    let n = f64::from(sums.worlds);
    let rows = sums
        .moves
        .iter()
        .zip(sums.sum.iter().zip(&sums.sum2))
        .map(|(&mv, (&sum, &sum2))| {
            let mean = sum / n;
            let se = if sums.worlds > 1 {
                let var = (sum2 - sum * mean) / (n - 1.0);
                (var.max(0.0) / n).sqrt()
            } else {
                0.0
            };
            (mv, mean, se)
        })
        .collect();
    Ok(Found {
        moves: rows,
        worlds: sums.worlds,
        stopped: sums.stopped,
        horizon: if sums.fell_back {
            Horizon::Round
        } else {
            horizon
        },
        too_large: sums.too_large,
    })
}

/// The viewer's legal moves with the (weighted) sum and sum of squares of each one's values
/// over the worlds searched.
pub(crate) struct WorldSums {
    pub(crate) worlds: u32,
    pub(crate) moves: Vec<Move>,
    pub(crate) sum: Vec<f64>,
    pub(crate) sum2: Vec<f64>,
    /// Whether the interrupt ended the search before its worlds (or cut the first world's
    /// exact solve short).
    pub(crate) stopped: bool,
    /// Whether the first world's exact solve was cut short or refused as too large, so that
    /// the round search valued it (and, the interrupt being due, no other world was searched;
    /// or, the world being too large, the round search valued every world after it too).
    pub(crate) fell_back: bool,
    /// The solver's message when it refused a world as too large ([`Error::TooLarge`]): the
    /// first, valued by the round search (`fell_back`), or a later one, left out, which ends
    /// the search (the worlds before it were solved exactly).
    pub(crate) too_large: Option<String>,
}

impl WorldSums {
    /// Takes in what the search of a world said (`later`: not the first world): whether the
    /// search goes on. A later world that was stopped or refused as too large is left out and
    /// ends it; any other error is the analysis's.
    fn take(
        &mut self,
        valued: Result<Option<Fallback>, Error>,
        later: bool,
    ) -> Result<bool, Error> {
        match valued {
            Ok(None) => {}
            Ok(Some(Fallback::Stopped)) => {
                self.stopped = true;
                self.fell_back = true;
            }
            Ok(Some(Fallback::TooLarge(why))) => {
                self.fell_back = true;
                self.too_large = Some(why);
            }
            Err(Error::Stopped(_)) if later => {
                self.stopped = true;
                return Ok(false);
            }
            Err(Error::TooLarge(why)) if later => {
                self.too_large = Some(why);
                return Ok(false);
            }
            Err(e) => return Err(e),
        }
        Ok(true)
    }
}

/// Why the round search valued a world whose exact solve was asked ([`search_world`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fallback {
    /// The interrupt cut the solve short.
    Stopped,
    /// The solver refused the world as too large: its message ([`Error::TooLarge`]).
    TooLarge(String),
}

/// Writes the value of each of the legal moves (the slice) in a world into the vector, and
/// says whether the round search valued it instead of the exact solve asked, and why
/// ([`search_world`]). `first`: the first world, which must be valued even if the interrupt
/// comes or the solver refuses it.
pub(crate) type ValueWorld<'a> =
    dyn FnMut(&State, &[Move], bool, &mut Vec<f32>) -> Result<Option<Fallback>, Error> + 'a;

/// The weight of a drawn world (1 for every world when worlds are drawn uniformly).
pub(crate) type WeighWorld<'a> = dyn FnMut(&State) -> f64 + 'a;

/// Worlds drawn per world searched when worlds are weighed: the searched ones are resampled
/// from the draws in proportion to their weights.
pub(crate) const DRAWS_PER_WORLD: u32 = 3;

/// Draws up to `worlds` worlds from `seed` consistent with `view` (one when it is open), stopping
/// early once `interrupt` is due (after at least one), and sums the values `value_world` gives
/// each legal move of the viewer in each world (the moves are the same in every world: they
/// depend only on its hand, the table and a cut card it was shown). A world whose search the
/// interrupt stops, or the solver refuses as too large, is left out and ends the search, but
/// for the first ([`search_world`]).
///
/// With `weigh`, [`DRAWS_PER_WORLD`] times as many worlds are drawn and weighed, and `worlds`
/// of them are resampled in proportion to their weights (systematic resampling): a world picked
/// `k` times is searched once and counted `k` times, one that weighs nothing is never searched.
/// If no world drawn weighs anything, the worlds are drawn and summed unweighted. The draws stop
/// once half the time to the interrupt's deadline has passed, or its flag is set (after one
/// that weighs), and the worlds are resampled from those drawn.
pub(crate) fn world_sums(
    rules: &Rules,
    view: &View,
    (worlds, seed, draw): (u32, u64, Draw),
    interrupt: &Interrupt,
    weigh: Option<&mut WeighWorld>,
    value_world: &mut ValueWorld,
) -> Result<WorldSums, Error> {
    let open = is_open(view);
    let worlds = if open { 1 } else { worlds };
    let mut rng = Rng::new(seed);
    // Under a time limit the weighing takes at most half of it (a costly model, such as the
    // round search's, could otherwise take it all).
    let weighing = Interrupt {
        deadline: interrupt.deadline.map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now) / 2
        }),
        ..interrupt.clone().without_nodes()
    };
    let mut out = WorldSums {
        worlds: 0,
        moves: Vec::new(),
        sum: Vec::new(),
        sum2: Vec::new(),
        stopped: false,
        fell_back: false,
        too_large: None,
    };
    // The worlds to search, each with the number of times it counts.
    let mut picked: Vec<(State, u32)> = Vec::new();
    let mut sampler = Draws::new(view, draw);
    if let Some(weigh) = weigh.filter(|_| !open) {
        let n_draws = worlds.saturating_mul(DRAWS_PER_WORLD);
        let mut drawn = Vec::with_capacity(n_draws as usize);
        let mut total = 0.0;
        for _ in 0..n_draws {
            if total > 0.0 && weighing.due() {
                out.stopped = true;
                break;
            }
            let world = sampler.draw(rules, &mut rng)?;
            let w = weigh(&world);
            total += w;
            drawn.push((world, w));
        }
        if total <= 0.0 {
            // Every draw contradicted what was seen (a model that rules out the truth).
            return world_sums(
                rules,
                view,
                (worlds, seed, draw),
                interrupt,
                None,
                value_world,
            );
        }
        // Systematic resampling: the k-th pick is where (k + u) / worlds of the total
        // weight falls.
        let step = total / f64::from(worlds);
        let mut next = step * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (mut acc, mut taken) = (0.0, 0);
        for (world, w) in drawn {
            acc += w;
            let mut k = 0;
            while next < acc && taken < worlds {
                k += 1;
                taken += 1;
                next += step;
            }
            if k > 0 {
                picked.push((world, k));
            }
        }
    }
    let mut values = Vec::new();
    let searched = if picked.is_empty() {
        worlds
    } else {
        picked.len() as u32
    };
    for w in 0..searched {
        if w > 0 && interrupt.due() {
            out.stopped = true;
            break;
        }
        let (world, count) = match picked.get(w as usize) {
            Some(&(world, count)) => (world, count),
            None => (sampler.draw(rules, &mut rng)?, 1),
        };
        if w == 0 {
            world.legal_moves(rules, &mut out.moves);
            out.sum.resize(out.moves.len(), 0.0);
            out.sum2.resize(out.moves.len(), 0.0);
        }
        if !out.take(value_world(&world, &out.moves, w == 0, &mut values), w > 0)? {
            break;
        }
        let k = f64::from(count);
        for ((s, s2), &v) in out.sum.iter_mut().zip(&mut out.sum2).zip(&values) {
            let v = f64::from(v);
            *s += k * v;
            *s2 += k * v * v;
        }
        out.worlds += count;
    }
    Ok(out)
}

/// The value of each of `legal` in `world` for the side to move: solved exactly by `solver`
/// (to the end of the hand, its table cleared first if `fresh`) if there is one, else searched
/// to the end of the round. The solve stops when `interrupt` is due ([`Error::Stopped`]), and
/// the solver refuses a world past its node limit ([`Error::TooLarge`]); for the `first`
/// world, which must be valued, the round search then values it instead, and the result says
/// why (`None`: valued as asked). This is the one fallback of every analysis and of `pimc`.
#[allow(clippy::too_many_arguments)] // one world's search: each argument is one of its inputs
pub(crate) fn search_world(
    rules: &Rules,
    world: &State,
    legal: &[Move],
    solver: Option<&mut Solver>,
    fresh: bool,
    round: &mut RoundSearch,
    (interrupt, first): (&Interrupt, bool),
    values: &mut Vec<f32>,
) -> Result<Option<Fallback>, Error> {
    let Some(solver) = solver else {
        round.move_values(rules, world, legal, values);
        return Ok(None);
    };
    if fresh {
        // Worlds share almost no positions (their stocks and hidden hands differ): each gets
        // the whole table.
        solver.clear();
    }
    let sol = match solver.until(interrupt.clone(), |s| s.solve(rules, world)) {
        Err(e @ (Error::Stopped(_) | Error::TooLarge(_))) if first => {
            round.move_values(rules, world, legal, values);
            return Ok(Some(match e {
                Error::TooLarge(why) => Fallback::TooLarge(why),
                _ => Fallback::Stopped,
            }));
        }
        sol => sol?,
    };
    debug_assert!(legal.iter().zip(&sol.move_values).all(|(a, b)| *a == b.0));
    values.clear();
    values.extend(sol.move_values.iter().map(|&(_, v)| v as f32));
    Ok(None)
}

/// One seat's analysis of a position ([`analyze_position`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatAnalysis {
    /// Per legal move of the seat (in legal-move order): the move, whether it sweeps, its mean
    /// value over the worlds and the standard error of that mean.
    pub moves: Vec<(Move, bool, f64, f64)>,
    /// Whether the values are the position's exact solution: nothing relevant was hidden, so
    /// that one world was the truth ([`is_open`]), and it was solved to the end of the hand (by
    /// the exact solver, or by the round search when the hand ends within its reach).
    pub exact: bool,
    /// The worlds the means are over (fewer than asked when `stopped`).
    pub worlds: u32,
    /// Whether the interrupt ended the analysis before its worlds, or cut the first world's
    /// exact solve short (never when `exact`: nothing was left out).
    pub stopped: bool,
    /// The horizon the values are to: the one asked, or [`Horizon::Round`] when the interrupt
    /// cut the first world's exact solve short and the round search valued that world, or the
    /// solver refused it as too large and the round search valued every world.
    pub horizon: Horizon,
    /// Whether the exact solver refused a world as too large (past its node limit): the first
    /// (the round search then values every world, `horizon` is [`Horizon::Round`]), or a later
    /// one, left out, which ends the analysis (`worlds` are those solved before it).
    pub too_large: bool,
}

/// The analysis of `state` for `seat`, which must be the seat to move: [`analyze_informed`]
/// over the seat's view (its worlds weighed by `inference` if given), each move marked with
/// whether it sweeps, ended early when `interrupt` is due: no world is begun after it, a
/// world's exact solve is stopped and left out, and if that was the first world the round
/// search values it instead.
pub fn analyze_position(
    rules: &Rules,
    state: &State,
    seat: u8,
    how: (u32, u64, Horizon),
    inference: Option<&mut Inference>,
    solver: &mut Solver,
    interrupt: &Interrupt,
) -> Result<SeatAnalysis, Error> {
    if state.hand_over() {
        return Err(Error::IllegalMove(
            "the hand is over: nothing to analyze".to_string(),
        ));
    }
    if state.to_move() != Some(seat) {
        return Err(Error::IllegalMove(format!(
            "analyze looks at the moves of the seat to move ({}), got seat: {seat}",
            state
                .to_move()
                .map_or("none".to_string(), |m| m.to_string())
        )));
    }
    let view = state.view(seat);
    let found = analyze_until(rules, &view, how, inference, solver, interrupt)?;
    // The round search values a position exactly when the hand ends within its plies.
    let to_the_end =
        found.horizon == Horizon::Hand || plays_left_in_round(state) <= max_plies(rules);
    let exact = is_open(&view) && to_the_end;
    Ok(SeatAnalysis {
        moves: found
            .moves
            .into_iter()
            .map(|(mv, mean, err)| (mv, state.is_sweep(rules, mv), mean, err))
            .collect(),
        exact,
        worlds: found.worlds,
        stopped: found.stopped && !exact,
        horizon: found.horizon,
        too_large: found.too_large.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::game::rules::Game;

    /// An interrupt already due at `Instant::now()`, or none.
    fn due_now(due: bool) -> Interrupt {
        Interrupt {
            deadline: due.then(Instant::now),
            ..Interrupt::default()
        }
    }

    #[test]
    fn a_time_limit_also_bounds_the_weighing() {
        // A limit already passed: the draws stop at the first that weighs, and that world is
        // the one searched, counted for them all. Without a limit every draw is weighed.
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let view = State::new(&rules, 3).view(0);
        for (due, weighed, searched) in [(true, 2, 1), (false, 10 * DRAWS_PER_WORLD, 10)] {
            let mut calls = 0;
            // The first draw weighs nothing: the weighing goes on to the second.
            let mut weigh = |_: &State| {
                calls += 1;
                if calls == 1 { 0.0 } else { 1.0 }
            };
            let mut values = 0;
            let sums = world_sums(
                &rules,
                &view,
                (10, 7, Draw::Independent),
                &due_now(due),
                Some(&mut weigh),
                &mut |_, moves, _, out| {
                    values += 1;
                    out.clear();
                    out.resize(moves.len(), 0.0);
                    Ok(None)
                },
            )
            .unwrap();
            assert_eq!((calls, values, sums.worlds), (weighed, searched, 10));
            assert_eq!(sums.stopped, due);
        }
    }

    #[test]
    fn an_interrupted_analysis_keeps_its_finished_worlds_only() {
        // A 4-player deal solved to the hand's end takes some milliseconds a world. The flag,
        // set by the third world's value, stops the analysis after it: its solve is cut short
        // and left out, and the means are those of the two worlds before.
        let rules = Rules::profile(Game::Scopa, 4).unwrap();
        let state = State::new(&rules, 11);
        let seat = state.to_move().unwrap();
        let how = (10, 5, Horizon::Hand);
        let mut solver = Solver::new(1 << 16);
        let full = analyze_position(
            &rules,
            &state,
            seat,
            (2, 5, Horizon::Hand),
            None,
            &mut solver,
            &Interrupt::default(),
        )
        .unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        let interrupt = Interrupt {
            flag: Some(flag.clone()),
            ..Interrupt::default()
        };
        // The same worlds, the third stopped from inside its solve by a deadline of now.
        let mut n = 0;
        let view = state.view(seat);
        let mut round = RoundSearch::default();
        let sums = world_sums(
            &rules,
            &view,
            (10, 5, Draw::Independent),
            &interrupt,
            None,
            &mut |w, l, first, v| {
                n += 1;
                let stop = if n == 3 {
                    flag.store(true, std::sync::atomic::Ordering::Relaxed);
                    due_now(true)
                } else {
                    interrupt.clone()
                };
                search_world(
                    &rules,
                    w,
                    l,
                    Some(&mut solver),
                    true,
                    &mut round,
                    (&stop, first),
                    v,
                )
            },
        )
        .unwrap();
        assert_eq!(
            (n, sums.worlds, sums.stopped, sums.fell_back),
            (3, 2, true, false)
        );
        for (i, row) in full.moves.iter().enumerate() {
            assert!((row.2 - sums.sum[i] / 2.0).abs() < 1e-9, "{row:?}");
        }
        assert_eq!(full.worlds, 2);
        assert!(!full.stopped);
        // Due before it starts: one world, valued by the round search.
        let cut =
            analyze_position(&rules, &state, seat, how, None, &mut solver, &due_now(true)).unwrap();
        assert_eq!(
            (cut.worlds, cut.stopped, cut.horizon),
            (1, true, Horizon::Round)
        );
        let round_one = analyze_position(
            &rules,
            &state,
            seat,
            (1, 5, Horizon::Round),
            None,
            &mut solver,
            &Interrupt::default(),
        )
        .unwrap();
        assert_eq!(cut.moves, round_one.moves);
    }

    #[test]
    fn a_world_too_large_for_the_solver_falls_back_to_the_round_search() {
        // A Scopone deal (nine-card hands) under a small node limit: the solver refuses the
        // first world, and the round search values it and every world after it, as it values
        // a first world cut short by a stop; the analysis says so. `analyze_informed`, whose
        // values are the hand's, refuses instead.
        let mut o = crate::game::options::Options::new(Game::Scopa, 4);
        o.set(
            "deal",
            &crate::game::words::OptionValue::Str("scopone".into()),
        )
        .unwrap();
        let rules = Rules::new(o).unwrap();
        let state = State::new(&rules, 1);
        let seat = state.to_move().unwrap();
        let mut solver = Solver::new(1 << 16);
        solver.set_plain_node_limit(20_000);
        let none = Interrupt::default();
        let how = (3, 5, Horizon::Hand);
        let fell = analyze_position(&rules, &state, seat, how, None, &mut solver, &none).unwrap();
        assert_eq!(
            (fell.worlds, fell.stopped, fell.horizon, fell.too_large),
            (3, false, Horizon::Round, true)
        );
        let round_how = (3, 5, Horizon::Round);
        let round = analyze_position(&rules, &state, seat, round_how, None, &mut solver, &none);
        let round = round.unwrap();
        assert!(!round.too_large);
        assert_eq!(fell.moves, round.moves);
        let view = state.view(seat);
        let err = analyze_informed(&rules, &view, 3, 5, Horizon::Hand, None, &mut solver);
        assert!(
            matches!(&err, Err(Error::TooLarge(m)) if m.contains("too large")),
            "{err:?}"
        );
    }

    #[test]
    fn a_node_budget_keeps_the_worlds_solved_within_it() {
        // A budget that the third world's solve passes: the two worlds before are kept. Each
        // world clears the table first, so the worlds take the same nodes every time.
        let rules = Rules::profile(Game::Scopa, 4).unwrap();
        let state = State::new(&rules, 11);
        let seat = state.to_move().unwrap();
        let mut solver = Solver::new(1 << 16);
        let analyze = |worlds, solver: &mut Solver, interrupt: &Interrupt| {
            let before = solver.nodes();
            let how = (worlds, 5, Horizon::Hand);
            let a = analyze_position(&rules, &state, seat, how, None, solver, interrupt);
            (a.unwrap(), solver.nodes() - before)
        };
        let none = Interrupt::default();
        let (full, two) = analyze(2, &mut solver, &none);
        let (_, three) = analyze(3, &mut solver, &none);
        let half_third = u64::midpoint(two, three);
        let budget = Interrupt::default().with_nodes(&solver, Some(half_third));
        let (cut, searched) = analyze(10, &mut solver, &budget);
        assert_eq!(
            (cut.worlds, cut.stopped, cut.horizon),
            (2, true, Horizon::Hand)
        );
        assert_eq!(cut.moves, full.moves);
        assert!(
            (half_third..=half_third + 500).contains(&searched),
            "{searched}"
        );
    }
}
