//! Benchmarks of capturefast live in `rust/`; this crate has no library code.
