//! Solver queries in bulk: many positions solved or analysed on worker threads, one solver (and
//! its transposition table) per thread, results in input order. Beside `play::sim::run`, the
//! batch form of the searches.
//!
//! The worker threads are the process's (`parallel::map_on_workers`), and each keeps its solver
//! between calls, as `cf.solve` keeps one per calling thread: a batch pays for a table only the
//! first time a search of its size needs one. The solver's values are exact whatever its table
//! holds, so a result does not depend on which thread, or which earlier call, searched before.

use std::sync::Arc;

use crate::error::Error;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::parallel::map_on_workers;
use crate::search::analysis::{Horizon, SeatAnalysis, analyze_position};
use crate::search::solver::Interrupt;
use crate::search::solver::Solver;

thread_local! {
    /// This thread's solver for batch queries, kept between calls.
    static WORKER_SOLVER: std::cell::RefCell<Option<Solver>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with this thread's batch solver, its capacity set to `tt_entries`.
fn with_worker_solver<T>(tt_entries: usize, f: impl FnOnce(&mut Solver) -> T) -> T {
    WORKER_SOLVER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let solver = slot.get_or_insert_with(|| Solver::new(tt_entries));
        solver.set_tt_entries(tt_entries);
        f(solver)
    })
}

/// A position and the rules it is played by.
pub type Job = (Arc<Rules>, State);

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
pub fn solve_values(jobs: Vec<Job>, threads: usize, tt_entries: usize) -> Vec<Result<i32, Error>> {
    map_on_workers(jobs, threads, move |(rules, state)| {
        check_open(state)?;
        with_worker_solver(tt_entries, |solver| solver.value(rules, state))
    })
}

/// The analysis of each position for its seat to move ([`analyze_position`]), item `i`'s worlds
/// drawn from `Rng::derive(seed, first + i)` (so the results do not depend on `threads`, and a
/// batch cut into shards, shard `k` starting at `first`, gives the whole batch's results); in
/// input order.
pub fn analyze_many(
    jobs: Vec<Job>,
    (worlds, seed, horizon): (u32, u64, Horizon),
    first: u64,
    threads: usize,
    tt_entries: usize,
) -> Vec<Result<SeatAnalysis, Error>> {
    let items: Vec<(u64, Job)> = (first..).zip(jobs).collect();
    map_on_workers(items, threads, move |(i, (rules, state))| {
        check_open(state)?;
        let seat = state.to_move().expect("a hand in play has a seat to move");
        let how = (worlds, Rng::derive(seed, *i), horizon);
        with_worker_solver(tt_entries, |solver| {
            analyze_position(rules, state, seat, how, None, solver, &Interrupt::default())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::action::Move;
    use crate::game::rules::Game;

    #[test]
    fn analysis_shards_equal_the_whole_batch() {
        let rules = Rules::profile(Game::Scopa, 2).unwrap();
        let jobs: Vec<Job> = (0..5)
            .map(|i| (Arc::new(rules.clone()), State::new(&rules, i)))
            .collect();
        let how = (3, 9, Horizon::Round);
        let values = |r: Vec<Result<SeatAnalysis, Error>>| -> Vec<Vec<(Move, f64, f64)>> {
            r.into_iter()
                .map(|a| a.unwrap().moves.iter().map(|m| (m.0, m.2, m.3)).collect())
                .collect()
        };
        let whole = values(analyze_many(jobs.clone(), how, 0, 2, 1 << 12));
        let mut joined = values(analyze_many(jobs[..2].to_vec(), how, 0, 1, 1 << 12));
        joined.extend(values(analyze_many(jobs[2..].to_vec(), how, 2, 1, 1 << 12)));
        assert_eq!(joined, whole);
        // The offset is what is drawn from: the same positions at another offset differ.
        assert_ne!(
            values(analyze_many(jobs[2..].to_vec(), how, 0, 1, 1 << 12)),
            whole[2..]
        );
    }
}
