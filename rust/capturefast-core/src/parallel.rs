//! Threads: how many to use, and an in-order map over scoped threads. Batch simulation
//! (`play::sim`) and batch solving (`search::batch`) both use them; this module depends on
//! nothing in the crate.

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
}
