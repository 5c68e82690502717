//! Solver queries in bulk: many positions solved or analysed on worker threads, one solver (and
//! its transposition table) per thread, results in input order. Beside `play::sim::run`, the
//! batch form of the searches.
//!
//! The worker threads are the process's (`parallel::map_on_workers`), and each keeps its solver
//! between calls, as `cf.solve` keeps one per calling thread: a batch pays for a table only the
//! first time a search of its size needs one. The solver's values are exact whatever its table
//! holds, so a result does not depend on which thread, or which earlier call, searched before.
//!
//! An [`Interrupt`] stops a batch: once it is due, the items in progress stop (a solve within
//! a thousand nodes or so, an analysis between worlds) and the others stop as they begin; each
//! item says whether it was stopped, so that a caller may keep the others.

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

/// The error of an item that the interrupt stopped before it began.
fn not_begun() -> Error {
    Error::Stopped("the batch was stopped before this item began".to_string())
}

/// `interrupt` for the items of a batch: its node budget, a count of one solver's nodes, means
/// nothing to solvers on several threads.
fn for_items(interrupt: &Interrupt) -> Interrupt {
    interrupt.clone().without_nodes()
}

/// The exact value of each position for its side to move ([`Solver::value`]), on `threads`
/// threads (0: one per core), each with a solver of `tt_entries` entries; in input order. An
/// item that `interrupt` stops, or that had not begun when it came, is an [`Error::Stopped`].
pub fn solve_values(
    jobs: Vec<Job>,
    threads: usize,
    tt_entries: usize,
    interrupt: &Interrupt,
) -> Vec<Result<i32, Error>> {
    let interrupt = for_items(interrupt);
    map_on_workers(jobs, threads, move |(rules, state)| {
        check_open(state)?;
        // A solve looks at an interrupt from its first node: one already due stops it there.
        with_worker_solver(tt_entries, |solver| {
            solver.until(interrupt.clone(), |solver| solver.value(rules, state))
        })
    })
}

/// The analysis of each position for its seat to move ([`analyze_position`]), each given with
/// its index `i` in the batch, from which its worlds are drawn (`Rng::derive(seed, i)`: so the
/// results do not depend on `threads`, and a batch cut into shards, or run again in part, each
/// position with its index, gives the whole batch's results); in input order. An item that
/// `interrupt` stops is marked `stopped` (or is an [`Error::Stopped`] if it had not begun).
pub fn analyze_many(
    items: Vec<(u64, Job)>,
    (worlds, seed, horizon): (u32, u64, Horizon),
    threads: usize,
    tt_entries: usize,
    interrupt: &Interrupt,
) -> Vec<Result<SeatAnalysis, Error>> {
    let interrupt = for_items(interrupt);
    map_on_workers(items, threads, move |(i, (rules, state))| {
        check_open(state)?;
        // An analysis values its first world whatever the interrupt says: skip it instead.
        if interrupt.due() {
            return Err(not_begun());
        }
        let seat = state.to_move().expect("a hand in play has a seat to move");
        let how = (worlds, Rng::derive(seed, *i), horizon);
        with_worker_solver(tt_entries, |solver| {
            analyze_position(rules, state, seat, how, None, solver, &interrupt)
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
        let at = |first: u64, jobs: &[Job]| (first..).zip(jobs.iter().cloned()).collect();
        let none = Interrupt::default();
        let whole = values(analyze_many(at(0, &jobs), how, 2, 1 << 12, &none));
        let mut joined = values(analyze_many(at(0, &jobs[..2]), how, 1, 1 << 12, &none));
        joined.extend(values(analyze_many(
            at(2, &jobs[2..]),
            how,
            1,
            1 << 12,
            &none,
        )));
        assert_eq!(joined, whole);
        // Some of them again, each with its index (as a batch is resumed): the same.
        let some = vec![(3, jobs[3].clone()), (1, jobs[1].clone())];
        let again = values(analyze_many(some, how, 2, 1 << 12, &none));
        assert_eq!(again, vec![whole[3].clone(), whole[1].clone()]);
        // The index is what is drawn from: the same positions at another index differ.
        assert_ne!(
            values(analyze_many(at(0, &jobs[2..]), how, 1, 1 << 12, &none)),
            whole[2..]
        );
    }

    #[test]
    fn an_interrupt_stops_a_batch_and_marks_each_item_it_stopped() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::time::{Duration, Instant};
        // Scopone deals: each solve runs to the solver's node limit (seconds) before it is
        // refused, each hand-horizon analysis far longer.
        let preset = crate::game::presets::Preset::named("scopone_scientifico").unwrap();
        let rules = Arc::new(Rules::new(preset.options(None).unwrap()).unwrap());
        let jobs: Vec<Job> = (0..6)
            .map(|i| (Arc::clone(&rules), State::new(&rules, i)))
            .collect();
        let flag = Arc::new(AtomicBool::new(false));
        let interrupt = Interrupt {
            cancel: Some(Arc::clone(&flag)),
            ..Interrupt::default()
        };
        let setter = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let start = Instant::now();
        let solved = solve_values(jobs.clone(), 2, 1 << 16, &interrupt);
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        setter.join().unwrap();
        assert_eq!(solved.len(), 6);
        assert!(solved.iter().all(|r| matches!(r, Err(Error::Stopped(_)))));
        // Once due, nothing is searched: a hand-horizon analysis of each is stopped at once.
        let items = (0..).zip(jobs).collect();
        let start = Instant::now();
        let analysed = analyze_many(items, (50, 1, Horizon::Hand), 2, 1 << 16, &interrupt);
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
        assert!(analysed.iter().all(|r| matches!(r, Err(Error::Stopped(_)))));
        // A deadline that does not come changes nothing.
        let small = Rules::profile(Game::Scopa, 2).unwrap();
        let late = Interrupt {
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            ..Interrupt::default()
        };
        let jobs: Vec<Job> = (0..4)
            .map(|i| (Arc::new(small.clone()), State::new(&small, i)))
            .collect();
        let items: Vec<(u64, Job)> = (0..).zip(jobs).collect();
        let how = (4, 2, Horizon::Round);
        let timed = analyze_many(items.clone(), how, 2, 1 << 12, &late);
        let plain = analyze_many(items, how, 2, 1 << 12, &Interrupt::default());
        assert!(timed.iter().all(|r| !r.as_ref().unwrap().stopped));
        assert_eq!(
            timed.into_iter().map(Result::unwrap).collect::<Vec<_>>(),
            plain.into_iter().map(Result::unwrap).collect::<Vec<_>>()
        );
    }
}
