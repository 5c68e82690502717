//! `Until`: when a query from Python stops (a time limit, a `StopFlag`, a node budget), and how
//! Ctrl-C stops one running on Python's main thread, whatever it is. A solve or an analysis by
//! one solver ([`Until::run`]) and a bot's decision ([`Until::run_free`]) run where they were
//! called, and look for Ctrl-C themselves ([`Until::run_watched`]); a batch over worker threads
//! ([`Until::run_batch`]) has the main thread look for it while the workers run.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use capturefast_core::{Error, Interrupt, Solver, Watch};
use pyo3::prelude::*;

/// When a query from Python stops: `time_ms` from now, a `StopFlag`'s flag, and a budget of
/// exact-solver nodes counted from where the query's solver is when it starts.
pub(crate) struct Until {
    interrupt: Interrupt,
    pub(crate) nodes: Option<u64>,
}

impl Until {
    pub(crate) fn new(
        time_ms: Option<u64>,
        stop: Option<Arc<AtomicBool>>,
        nodes: Option<u64>,
    ) -> Until {
        let interrupt = Interrupt {
            deadline: time_ms.map(|ms| Instant::now() + Duration::from_millis(ms)),
            flag: stop,
            ..Interrupt::default()
        };
        Until { interrupt, nodes }
    }

    /// The interrupt of a query that starts with `nodes` counted (its node budget counts on).
    fn at(&self, nodes: u64) -> Interrupt {
        Interrupt {
            node_end: self.nodes.map(|n| nodes.saturating_add(n)),
            ..self.interrupt.clone()
        }
    }

    /// Runs `work`, a query by `solver`, under these limits, so that Ctrl-C stops it
    /// ([`Until::run_watched`]); a node budget counts the solver's nodes.
    pub(crate) fn run<T>(
        &self,
        solver: &mut Solver,
        work: impl FnOnce(&mut Solver, &Interrupt) -> Result<T, Error>,
    ) -> Outcome<T> {
        let limits = self.at(solver.nodes());
        run_watched(limits, |at| work(solver, at))
    }

    /// Runs `work` (a bot's decision) under these limits, so that Ctrl-C stops it
    /// ([`Until::run_watched`]). A node budget is not counted.
    pub(crate) fn run_free<T>(
        &self,
        work: impl FnOnce(&Interrupt) -> Result<T, Error>,
    ) -> Outcome<T> {
        run_watched(self.at(0), work)
    }

    /// Runs a batch of `n` items under these limits, so that Ctrl-C stops it
    /// ([`Until::run_with`]). `run(items, interrupt)` runs the items named (indices, in
    /// increasing order) and gives their results in that order; `cut` says whether a result
    /// is of an item the interrupt stopped. A batch that the inline slice cut short keeps the
    /// items that ended and runs only the others again on the helper thread, so that it does
    /// not pay twice for them.
    pub(crate) fn run_batch<R: Send>(
        &self,
        n: usize,
        cut: impl Fn(&Result<R, Error>) -> bool + Sync,
        run: impl Fn(&[usize], &Interrupt) -> Vec<Result<R, Error>> + Send + Sync,
    ) -> PyResult<Vec<Result<R, Error>>> {
        let mut slots: Vec<Option<Result<R, Error>>> = (0..n).map(|_| None).collect();
        let outcome = self.run_with(
            &mut slots,
            |_| 0,
            |&any_cut| any_cut,
            |slots, at| {
                let todo: Vec<usize> = (0..n)
                    .filter(|&i| slots[i].as_ref().is_none_or(&cut))
                    .collect();
                let out = run(&todo, at);
                assert_eq!(out.len(), todo.len(), "a batch gives one result per item");
                for (i, r) in todo.into_iter().zip(out) {
                    slots[i] = Some(r);
                }
                Ok(slots.iter().flatten().any(&cut))
            },
        )?;
        // The work never fails as a whole: its items' errors are in their slots.
        debug_assert!(outcome.is_ok(), "a batch's errors are its items'");
        Ok(slots
            .into_iter()
            .map(|r| r.expect("every item ran"))
            .collect())
    }

    /// Runs `work` under these limits, so that Ctrl-C stops it, when it runs on threads of its
    /// own ([`Until::run_batch`]), which cannot look for Ctrl-C: only the main thread can.
    /// `kept` is what the work is lent at each run and keeps from one to the next (a batch's
    /// results so far); `nodes` its node count, from which a node budget counts.
    ///
    /// On Python's main thread it runs here for at most [`INLINE_SLICE`], which almost every
    /// batch takes less than (starting a thread to wait on costs more than a small batch). One
    /// still running then, and not stopped by its own limits (`stopped`: an `Ok` cut short), is
    /// run again on a helper thread, while this one looks for signals every [`SIGNAL_POLL`]: a
    /// `KeyboardInterrupt` stops the helper's work (the interrupt's `cancel` flag) and is the
    /// outcome, the helper joined first. The work's node budget counts from the rerun's start.
    /// A time budget past the slice runs on the helper thread from the start, so that it has
    /// all its time. Elsewhere `work` runs here, once: a thread that is not the main one gets
    /// no Ctrl-C.
    pub(crate) fn run_with<K: Send, T: Send>(
        &self,
        kept: &mut K,
        nodes: impl Fn(&K) -> u64,
        stopped: impl Fn(&T) -> bool,
        mut work: impl FnMut(&mut K, &Interrupt) -> Result<T, Error> + Send,
    ) -> Outcome<T> {
        let limits = self.at(nodes(kept));
        if !crate::on_main_thread() {
            return Ok(work(kept, &limits));
        }
        let slice_end = Instant::now() + INLINE_SLICE;
        // A time budget past the slice goes to the helper thread at once: run again, the query
        // would have only what the slice left of it.
        if limits.deadline.is_none_or(|d| d <= slice_end) {
            let mut slice = limits.clone();
            slice.deadline = Some(limits.deadline.map_or(slice_end, |d| d.min(slice_end)));
            let first = work(kept, &slice);
            let cut = match &first {
                Err(Error::Stopped(_)) => true,
                Ok(value) => stopped(value),
                Err(_) => false,
            };
            // Cut short, and not by its own limits: by the slice (or by the weighing of the
            // worlds, which stops at half the deadline it is given).
            let own = limits.due() || limits.node_end.is_some_and(|end| nodes(kept) > end);
            if !cut || own {
                return Ok(first);
            }
        }
        let cancel = Arc::new(AtomicBool::new(false));
        // The node budget counted afresh from here, as the query starts again.
        let mut again = self.at(nodes(kept));
        again.cancel = Some(Arc::clone(&cancel));
        std::thread::scope(|scope| {
            let (done, finished) = std::sync::mpsc::channel();
            let helper = scope.spawn(move || {
                let out = work(kept, &again);
                let _ = done.send(());
                out
            });
            loop {
                if finished.recv_timeout(SIGNAL_POLL)
                    == Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                {
                    if let Err(e) = Python::attach(check_signals) {
                        cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                        let _ = helper.join();
                        return Err(e);
                    }
                    continue;
                }
                return Ok(helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            }
        })
    }
}

/// Runs `work` under `limits`. On Python's main thread, the search looks for Ctrl-C itself:
/// the interrupt's [`Watch`] takes the GIL back at most every [`WATCH_EVERY`] to run the
/// signal handlers Python has pending, and the first error one raises (a `KeyboardInterrupt`)
/// stops the search and is the outcome. The work runs once, where it was called: nothing is
/// started, and nothing is run again. A signal handler that asks a busy `Solver` for a query
/// gets a `RuntimeError` (the solver's lock), and one that calls `cf.solve` a solver of its own.
fn run_watched<T>(
    mut limits: Interrupt,
    work: impl FnOnce(&Interrupt) -> Result<T, Error>,
) -> Outcome<T> {
    if !crate::on_main_thread() {
        return Ok(work(&limits));
    }
    let signals = Arc::new(Signals::new());
    let looker = Arc::clone(&signals);
    limits.watch = Some(Watch(Arc::new(move || looker.look())));
    let out = work(&limits);
    match signals
        .caught
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
    {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Ctrl-C looked for by a search on Python's main thread ([`run_watched`]).
struct Signals {
    start: Instant,
    /// Nanoseconds from `start` before which the next look is not due.
    next: AtomicU64,
    /// Whether a signal handler raised: every look from then on stops the search.
    tripped: AtomicBool,
    /// What it raised.
    caught: Mutex<Option<PyErr>>,
}

impl Signals {
    fn new() -> Signals {
        Signals {
            start: Instant::now(),
            next: AtomicU64::new(WATCH_EVERY.as_nanos() as u64),
            tripped: AtomicBool::new(false),
            caught: Mutex::new(None),
        }
    }

    /// Whether the search must stop: a clock read, and once every [`WATCH_EVERY`] Python's
    /// pending signal handlers run.
    fn look(&self) -> bool {
        if self.tripped.load(Ordering::Relaxed) {
            return true;
        }
        let now = self.start.elapsed().as_nanos() as u64;
        if now < self.next.load(Ordering::Relaxed) {
            return false;
        }
        self.next
            .store(now + WATCH_EVERY.as_nanos() as u64, Ordering::Relaxed);
        match Python::attach(check_signals) {
            Ok(()) => false,
            Err(e) => {
                *self.caught.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
                self.tripped.store(true, Ordering::Relaxed);
                true
            }
        }
    }
}

/// Runs the signal handlers Python has pending (`KeyboardInterrupt` from Ctrl-C raises).
fn check_signals(py: Python<'_>) -> PyResult<()> {
    py.check_signals()
}

/// A query's result, or the `KeyboardInterrupt` (or other signal handler's error) that stopped
/// it ([`Until::run`]).
pub(crate) type Outcome<T> = PyResult<Result<T, Error>>;

/// How long a batch from Python's main thread runs where it was called before it moves to a
/// helper thread that Ctrl-C can stop ([`Until::run_with`]). Starting a thread costs 0.1-0.15
/// ms on the project's machine, more than most small batches take whole.
const INLINE_SLICE: Duration = Duration::from_millis(100);

/// How often the main thread looks for Ctrl-C while a helper thread runs a batch.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// How often a search on the main thread looks for Ctrl-C ([`Signals::look`]). Each look takes
/// the GIL, which another Python thread running meanwhile may hold for up to its switch
/// interval (5 ms by default): every 50 ms costs such a search at most a tenth of its time,
/// and nothing measurable when the GIL is free.
const WATCH_EVERY: Duration = Duration::from_millis(50);
