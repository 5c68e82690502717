//! Threads: how many to use, an in-order map over scoped threads, and a pool for calls made
//! again and again. Batch simulation (`play::sim`) and batch solving (`search::batch`) use the
//! map, the vector environment (`learn::env`) the pool; this module depends on nothing in the
//! crate.

/// The number of worker threads for `threads` (0: one per core).
pub fn resolve_threads(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    } else {
        threads
    }
}

/// Maps `f` over `items` on `threads` threads (0: one per core), each thread with its own
/// worker state from `init` (a solver and its table, say), and returns the results in input
/// order: the result of an item does not depend on the thread count as long as `f` does not
/// depend on the worker state's history.
///
/// Threads take the next item from a shared counter, one at a time, so that a few long items
/// (a whole hand among positions near the end) do not leave a thread idle while another works
/// through a chunk of them; items are meant to be long enough (microseconds) that one atomic
/// increment each is nothing.
pub(crate) fn map_in_order<T: Sync, W, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> W + Sync,
    f: impl Fn(&mut W, &T) -> R + Sync,
) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};

    let threads = resolve_threads(threads).clamp(1, items.len().max(1));
    if threads == 1 {
        let mut worker = init();
        return items.iter().map(|x| f(&mut worker, x)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (f, init, next) = (&f, &init, &next);
                scope.spawn(move || {
                    let mut worker = init();
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(x) = items.get(i) else { break out };
                        out.push((i, f(&mut worker, x)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// How long the workers of a [`StepPool`] stay awake after a call, waiting for the next one.
pub const STEP_SPIN: std::time::Duration = std::time::Duration::from_millis(1);

/// Threads for a call that is made again and again with little time between (a vector
/// environment's steps, each a few hundred microseconds): the calling thread works too, and
/// after a call the other threads spin for [`STEP_SPIN`] instead of going to sleep, so that the
/// next call does not wait for them to be woken (on a virtual machine, waking a sleeping
/// thread took about 250 µs, as long as half a step of 1024 games).
///
/// With `threads` threads in all there are `threads - 1` workers; while they spin, the caller
/// has the remaining core to itself (choosing the next actions, say).
pub struct StepPool {
    pool: rayon::ThreadPool,
    /// Bumped by every call, which ends the spinning of the previous one.
    calls: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl StepPool {
    /// A pool of `threads` threads in all, the caller's included (at least 2).
    pub fn new(threads: usize) -> Result<StepPool, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(2) - 1)
            .build()
            .map_err(|e| e.to_string())?;
        Ok(StepPool {
            pool,
            calls: std::sync::Arc::default(),
        })
    }

    /// The number of threads, the caller's included.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads() + 1
    }

    /// Runs `f` on each of `parts`, each part once, on the caller's thread and the workers
    /// (each takes the next part from a shared counter), and returns when all are done.
    pub fn run<T: Send>(&self, parts: Vec<T>, f: impl Fn(T) + Sync) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::{Mutex, PoisonError};

        let call = self.calls.fetch_add(1, Ordering::AcqRel) + 1;
        let parts: Vec<Mutex<Option<T>>> = parts.into_iter().map(|p| Mutex::new(Some(p))).collect();
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some(part) = parts.get(next.fetch_add(1, Ordering::Relaxed)) {
                let taken = part.lock().unwrap_or_else(PoisonError::into_inner).take();
                if let Some(part) = taken {
                    f(part);
                }
            }
        };
        self.pool.in_place_scope(|scope| {
            for _ in 0..self.pool.current_num_threads() {
                scope.spawn(|_| work());
            }
            work();
        });
        for _ in 0..self.pool.current_num_threads() {
            let calls = std::sync::Arc::clone(&self.calls);
            self.pool.spawn(move || {
                let start = std::time::Instant::now();
                while calls.load(Ordering::Acquire) == call && start.elapsed() < STEP_SPIN {
                    std::hint::spin_loop();
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let want: Vec<u64> = items.iter().map(|x| x * x).collect();
        for threads in [1, 2, 3, 7, 64] {
            assert_eq!(map_in_order(&items, threads, || (), |(), x| x * x), want);
        }
        assert!(map_in_order(&[] as &[u64], 4, || (), |(), x| *x).is_empty());
    }

    #[test]
    fn a_step_pool_runs_every_part_once_call_after_call() {
        use std::sync::Mutex;
        for threads in [2, 3] {
            let pool = StepPool::new(threads).unwrap();
            assert_eq!(pool.threads(), threads);
            for call in 0..50usize {
                let seen = Mutex::new(Vec::new());
                let parts: Vec<usize> = (0..call % 7 * 5).collect();
                pool.run(parts.clone(), |p| seen.lock().unwrap().push(p));
                let mut seen = seen.into_inner().unwrap();
                seen.sort_unstable();
                assert_eq!(seen, parts);
            }
        }
    }
}
