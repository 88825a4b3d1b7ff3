//! The boundary between C and our Rust: panics stop here, and hooks do not re-enter themselves.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::diag::Level;
use crate::state;

thread_local! {
    /// Set while this thread runs one of our hooks; a nested call goes straight to the original.
    static IN_HOOK: Cell<bool> = const { Cell::new(false) };
}

// No destructor (checked): exit handlers and TLS destructors of other code can still use it
// (see `hip::v6`, HIP 6.4 calls from `__cxa_finalize`).
const _: () = assert!(!std::mem::needs_drop::<Cell<bool>>());

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
            crate::diag!(Level::Error, "internal error in {what}; profiling disabled for the rest of the run");
            fallback()
        }
    }
}

/// Runs `f` as the body of a callback we hand to the runtime *during* one of our hooks (the
/// iteration callbacks of code-object tracking). [`ffi_guard`] cannot stop a panic there: the
/// unwind would have to cross the runtime's C frames between the callback and the hook, and
/// unwinding out of an `extern "C"` function aborts the application. So a panic is caught at the
/// callback itself: the tool is disabled, one line is printed, and `fallback` is returned to the
/// runtime (which then ends the iteration and returns to the hook normally). Also for a body whose
/// caller must clean up after a panic itself (a completion being recorded must still free its
/// slot), which `fallback` then tells it.
pub fn callback_guard<R>(what: &str, fallback: R, f: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => {
            state::disable();
            crate::diag!(Level::Error, "internal error in {what}; profiling disabled for the rest of the run");
            fallback
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

    #[test]
    fn a_panic_in_a_runtime_callback_inside_a_hook_returns_the_fallback() {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        // The callback runs while its hook is active (IN_HOOK set), as during an iteration the
        // freeze hook started; it must still run, and its panic must stop at the callback.
        let (ran, caught) = ffi_guard(
            "hook",
            || (false, 0),
            || {
                let ran = callback_guard("callback", 0, || 5);
                let caught = callback_guard("callback", 9, || -> i32 { panic!("boom") });
                (ran == 5, caught)
            },
        );
        std::panic::set_hook(prev);
        assert!(ran, "a callback inside a hook runs its body");
        assert_eq!(caught, 9);
        // (The tool is now disabled; not asserted here because other tests of this binary
        // change the process-wide lifecycle concurrently.)
    }
}
