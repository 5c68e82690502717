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

/// Maps `f` over `items` on `threads` threads (0: one per core), the caller's among them, and
/// returns the results in input order. The other threads are a pool kept by the process (one
/// per thread count), so a thread-local that `f` uses lives from call to call. Every thread
/// takes the next item from a shared counter, one at a time, so that a few long items do not
/// leave a thread idle.
///
/// The caller works from the first item and waits only for items a worker has taken: a worker
/// that wakes late (on a virtual machine, a sleeping thread can take milliseconds to run again)
/// finds nothing left and costs the call nothing. This is why the items and `f` are owned
/// (`'static`): the workers may still hold them after the call returns. A panic in `f` is
/// raised again on the caller's thread.
pub(crate) fn map_on_workers<T, R, F>(items: Vec<T>, threads: usize, f: F) -> Vec<R>
where
    T: Send + Sync + 'static,
    R: Send + 'static,
    F: Fn(&T) -> R + Send + Sync + 'static,
{
    use std::sync::{Arc, PoisonError};

    let threads = resolve_threads(threads);
    let pool = (threads > 1 && items.len() > 1)
        .then(|| pool_of(threads - 1))
        .flatten();
    let Some(pool) = pool else {
        return items.iter().map(f).collect();
    };
    let n = items.len();
    let shared = Arc::new(Shared {
        done: std::sync::Mutex::new(Done {
            results: (0..n).map(|_| None).collect(),
            count: 0,
            panic: None,
        }),
        items,
        f,
        next: std::sync::atomic::AtomicUsize::new(0),
        finished: std::sync::Condvar::new(),
    });
    for _ in 0..pool.current_num_threads() {
        let shared = Arc::clone(&shared);
        pool.spawn(move || shared.work());
    }
    shared.work();
    let mut done = shared.done.lock().unwrap_or_else(PoisonError::into_inner);
    while done.count < n {
        done = shared
            .finished
            .wait(done)
            .unwrap_or_else(PoisonError::into_inner);
    }
    if let Some(panic) = done.panic.take() {
        std::panic::resume_unwind(panic);
    }
    done.results
        .iter_mut()
        .map(|r| r.take().expect("every item is done"))
        .collect()
}

/// What the threads of one [`map_on_workers`] call share.
struct Shared<T, R, F> {
    items: Vec<T>,
    f: F,
    /// The next item to take.
    next: std::sync::atomic::AtomicUsize,
    done: std::sync::Mutex<Done<R>>,
    /// Signalled when the last item is done.
    finished: std::sync::Condvar,
}

/// The results so far.
struct Done<R> {
    results: Vec<Option<R>>,
    count: usize,
    panic: Option<Box<dyn std::any::Any + Send>>,
}

impl<T, R, F: Fn(&T) -> R> Shared<T, R, F> {
    /// Takes items until none is left.
    fn work(&self) {
        use std::sync::PoisonError;
        use std::sync::atomic::Ordering;
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = self.items.get(i) else {
                return;
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.f)(item)));
            let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
            match result {
                Ok(r) => done.results[i] = Some(r),
                Err(panic) => done.panic = Some(panic),
            }
            done.count += 1;
            if done.count == self.items.len() {
                self.finished.notify_all();
            }
        }
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
        use std::sync::{Arc, Mutex};
        let want: Vec<u64> = (0..300).map(|x| x * 3).collect();
        let names = Arc::new(Mutex::new(HashSet::new()));
        for threads in [1, 2, 3] {
            for _ in 0..3 {
                let seen = Arc::clone(&names);
                let got = map_on_workers((0..300).collect(), threads, move |x: &u64| {
                    if let Some(name) = std::thread::current().name() {
                        seen.lock().unwrap().insert(name.to_string());
                    }
                    x * 3
                });
                assert_eq!(got, want);
            }
        }
        // The pools of 1 and 2 workers, each started once: 3 workers in all.
        let workers = names.lock().unwrap().len();
        assert!(workers <= 4, "{workers}"); // the test's own thread may be named too
        assert!(map_on_workers(Vec::<u64>::new(), 2, |x| *x).is_empty());
    }

    #[test]
    fn a_panic_in_a_worker_map_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| {
            map_on_workers((0..64u64).collect(), 2, |&x| {
                assert!(x != 40, "item 40");
                x
            })
        });
        assert!(caught.is_err());
        // The pool still works after it.
        assert_eq!(
            map_on_workers(vec![1u64, 2, 3], 2, |x| x + 1),
            vec![2, 3, 4]
        );
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
