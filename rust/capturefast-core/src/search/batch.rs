//! Solver queries in bulk: many positions solved or analysed on worker threads, one solver (and
//! its transposition table) per thread, results in input order. Beside `play::sim::run`, the
//! batch form of the searches.

use crate::error::Error;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::parallel::map_in_order;
use crate::search::analysis::{Horizon, SeatAnalysis, analyze_position};
use crate::search::solver::Solver;

/// A position and the rules it is played by (owned, or shared as an `Arc<Rules>`).
pub type Job<R> = (R, State);

/// Refuses a finished hand: there is nothing to solve.
pub fn check_open(state: &State) -> Result<(), Error> {
    if state.hand_over() {
        return Err(Error::IllegalMove(
            "the hand is over: nothing to solve".to_string(),
        ));
    }
    Ok(())
}

/// The exact value of each position for its side to move ([`Solver::value`]), on `threads`
/// threads (0: one per core), each with a solver of `tt_entries` entries; in input order.
pub fn solve_values<R: AsRef<Rules> + Sync>(
    jobs: &[Job<R>],
    threads: usize,
    tt_entries: usize,
) -> Vec<Result<i32, Error>> {
    map_in_order(
        jobs,
        threads,
        || Solver::new(tt_entries),
        |solver, (rules, state)| {
            check_open(state)?;
            solver.value(rules.as_ref(), state)
        },
    )
}

/// The analysis of each position for its seat to move ([`analyze_position`]), item `i`'s worlds
/// drawn from `Rng::derive(seed, i)` (so the results do not depend on `threads`); in input
/// order.
pub fn analyze_many<R: AsRef<Rules> + Sync>(
    jobs: &[Job<R>],
    (worlds, seed, horizon): (u32, u64, Horizon),
    threads: usize,
    tt_entries: usize,
) -> Vec<Result<SeatAnalysis, Error>> {
    let items: Vec<(usize, &Job<R>)> = jobs.iter().enumerate().collect();
    map_in_order(
        &items,
        threads,
        || Solver::new(tt_entries),
        |solver, &(i, (rules, state))| {
            check_open(state)?;
            let seat = state.to_move().expect("a hand in play has a seat to move");
            let how = (worlds, Rng::derive(seed, i as u64), horizon);
            analyze_position(rules.as_ref(), state, seat, how, solver)
        },
    )
}
