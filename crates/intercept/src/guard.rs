//! The boundary between C and our Rust: panics stop here, and hooks do not re-enter themselves.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::diag::Level;
use crate::state;

thread_local! {
    /// Set while this thread runs one of our hooks; a nested call goes straight to the original.
    static IN_HOOK: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` as the body of an exported entry point. A panic disables the tool, prints one line
/// and returns `fallback()` (which calls the original function), so our bug never unwinds into C
/// or aborts the application. A nested call on the same thread (or a call while thread-local
/// storage is already gone) runs `fallback` directly.
pub fn ffi_guard<R>(what: &str, fallback: impl FnOnce() -> R, f: impl FnOnce() -> R) -> R {
    let entered = IN_HOOK.try_with(|h| !h.replace(true)).unwrap_or(false);
    if !entered {
        return fallback();
    }
    let r = catch_unwind(AssertUnwindSafe(f));
    let _ = IN_HOOK.try_with(|h| h.set(false));
    match r {
        Ok(v) => v,
        Err(_) => {
            state::disable();
            crate::diag!(
                Level::Error,
                "internal error in {what}; profiling disabled for the rest of the run"
            );
            fallback()
        }
    }
}

/// True while the current thread is inside one of our hooks.
pub fn in_hook() -> bool {
    IN_HOOK.try_with(|h| h.get()).unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_the_fallback_and_reentry_is_refused() {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let v = ffi_guard("test", || 7, || -> i32 { panic!("boom") });
        std::panic::set_hook(prev);
        assert_eq!(v, 7);
        assert!(!in_hook());
        state::enable_for_tests();
        let nested = ffi_guard("outer", || 0, || ffi_guard("inner", || 1, || 2));
        assert_eq!(nested, 1, "the nested call must take the fallback");
    }
}
