//! `Until`: when a query from Python stops (a time limit, a `StopFlag`, a node budget), and how
//! Ctrl-C stops one running on Python's main thread.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use capturefast_core::{Interrupt, Solver};
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

    /// The interrupt of a query by `solver`, which has not begun it.
    pub(crate) fn on(&self, solver: &Solver) -> Interrupt {
        self.interrupt.clone().with_nodes(solver, self.nodes)
    }

    /// Runs `work`, a query by `solver`, under these limits, so that Ctrl-C stops it.
    ///
    /// On Python's main thread (the one a `KeyboardInterrupt` is raised in) it runs here for
    /// at most [`INLINE_SLICE`], which almost every query takes less than. One still running
    /// then, and not stopped by its own limits (`stopped`: an `Ok` cut short), is run again from
    /// the start on a helper thread, while this one looks for signals every [`SIGNAL_POLL`]: a
    /// `KeyboardInterrupt` stops the helper's search (the interrupt's `cancel` flag) and is the
    /// outcome. Its values are the same, a query's values not depending on what the solver
    /// searched before (its node count does), and its node budget counts from the rerun's
    /// start. A query with a time budget past the slice runs on the helper thread from the
    /// start, so that it has all its time. Elsewhere `work` runs here, once: a thread that is
    /// not the main one gets no Ctrl-C.
    pub(crate) fn run<T: Send>(
        &self,
        solver: &mut Solver,
        stopped: impl Fn(&T) -> bool,
        mut work: impl FnMut(&mut Solver, &Interrupt) -> Result<T, capturefast_core::Error> + Send,
    ) -> Outcome<T> {
        let limits = self.on(solver);
        if !crate::on_main_thread() {
            return Ok(work(solver, &limits));
        }
        let slice_end = Instant::now() + INLINE_SLICE;
        // A time budget past the slice goes to the helper thread at once: run again, the query
        // would have only what the slice left of it.
        if limits.deadline.is_none_or(|d| d <= slice_end) {
            let mut slice = limits.clone();
            slice.deadline = Some(limits.deadline.map_or(slice_end, |d| d.min(slice_end)));
            let first = work(solver, &slice);
            let cut = match &first {
                Err(capturefast_core::Error::Stopped(_)) => true,
                Ok(value) => stopped(value),
                Err(_) => false,
            };
            // Cut short, and not by its own limits: by the slice (or by the weighing of the
            // worlds, which stops at half the deadline it is given).
            let own = limits.due() || limits.node_end.is_some_and(|end| solver.nodes() > end);
            if !cut || own {
                return Ok(first);
            }
        }
        let cancel = Arc::new(AtomicBool::new(false));
        // The node budget counted afresh from here, as the query starts again.
        let mut again = self.on(solver);
        again.cancel = Some(Arc::clone(&cancel));
        std::thread::scope(|scope| {
            let (done, finished) = std::sync::mpsc::channel();
            let helper = scope.spawn(move || {
                let out = work(solver, &again);
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

/// Runs the signal handlers Python has pending (`KeyboardInterrupt` from Ctrl-C raises).
fn check_signals(py: Python<'_>) -> PyResult<()> {
    py.check_signals()
}

/// A query's result, or the `KeyboardInterrupt` (or other signal handler's error) that stopped
/// it ([`Until::run`]).
pub(crate) type Outcome<T> = PyResult<Result<T, capturefast_core::Error>>;

/// How long a query from Python's main thread runs where it was called before it moves to a
/// helper thread that Ctrl-C can stop ([`Until::run`]). Starting a thread costs 0.1-0.15 ms
/// on the project's machine, more than most queries take whole.
const INLINE_SLICE: Duration = Duration::from_millis(100);

/// How often the main thread looks for Ctrl-C while a helper thread runs a query.
const SIGNAL_POLL: Duration = Duration::from_millis(20);
