//! Threads: how many to use, an in-order map over the process's worker threads (batch solving,
//! `search::batch`), and a pool for calls made again and again (the vector environment,
//! `learn::env`); this module depends on nothing in the crate.

/// The number of worker threads for `threads` (0: one per core).
pub fn resolve_threads(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    } else {
        threads
    }
}

/// The process's worker pools, one per thread count, kept for the life of the process so that
/// what a worker keeps in a thread-local (a solver and its table) serves every later call.
fn pool_of(threads: usize) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    use std::sync::{Arc, Mutex, PoisonError};
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(Arc::clone(pool));
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("capturefast-worker-{i}"))
            .build()
            .ok()?,
    );
    pools.push((threads, Arc::clone(&pool)));
    Some(pool)
}

/// Maps `f` over `items` on `threads` threads (0: one per core) and returns the results in
/// input order. The threads are a pool kept by the process (one per thread count), so a
/// thread-local that `f` uses lives from call to call; with one thread, or a single item, `f`
/// runs on the caller's thread. Items are taken one at a time (work stealing), so that a few
/// long items do not leave a thread idle.
pub(crate) fn map_on_workers<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    use rayon::prelude::*;

    let threads = resolve_threads(threads);
    if threads == 1 || items.len() <= 1 {
        return items.iter().map(f).collect();
    }
    match pool_of(threads) {
        Some(pool) => pool.install(|| items.par_iter().with_max_len(1).map(&f).collect()),
        None => items.iter().map(f).collect(),
    }
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
    fn worker_maps_come_back_in_input_order_and_keep_their_threads() {
        use std::collections::HashSet;
        use std::sync::Mutex;
        let items: Vec<u64> = (0..300).collect();
        let want: Vec<u64> = items.iter().map(|x| x * 3).collect();
        let names = Mutex::new(HashSet::new());
        for threads in [1, 2, 3] {
            for _ in 0..3 {
                let got = map_on_workers(&items, threads, |x| {
                    if let Some(name) = std::thread::current().name() {
                        names.lock().unwrap().insert(name.to_string());
                    }
                    x * 3
                });
                assert_eq!(got, want);
            }
        }
        // The pools of 2 and 3 threads, each started once: 5 workers in all.
        let workers = names.into_inner().unwrap();
        let workers = workers
            .iter()
            .filter(|n| n.starts_with("capturefast-worker-"))
            .count();
        assert!(workers <= 5, "{workers}");
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
