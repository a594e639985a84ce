//! Where the engine meets a state or fact it cannot trust (a damaged or
//! forged log), a kind's panic is caught and becomes an error naming the
//! event. A program's panic hook asks [`guarded_here`] so that a panic the
//! engine catches prints nothing: the user gets the error, not a backtrace.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Runs `work`, catching a panic in it.
pub fn guarded<T>(work: impl FnOnce() -> T) -> std::thread::Result<T> {
    DEPTH.with(|d| d.set(d.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(work));
    DEPTH.with(|d| d.set(d.get() - 1));
    result
}

/// Whether this thread is inside [`guarded`] work: a panic now is caught
/// and answered as an error.
pub fn guarded_here() -> bool {
    DEPTH.with(|d| d.get() > 0)
}
