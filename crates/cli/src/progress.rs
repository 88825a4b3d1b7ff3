//! Progress bars for post-processing steps (writing outputs, convert, merge, diff, decode): the
//! one helper every command uses, so that all bars look alike and follow one rule.
//!
//! The rule: a bar is drawn on stderr only when stderr is a terminal, `CI` is not set and
//! `TERM` is not `dumb`. On a pipe, in a file or in a CI log nothing at all is printed (no
//! carriage-return garbage), and stdout is never touched, so `rocprof-rs summary db | less`
//! stays clean. Steps that take well under a second may still use a bar: it is cleared when the
//! step ends.
//!
//! ```ignore
//! let bar = progress::bar(items.len() as u64, "comparing");
//! for item in items { work(item); bar.inc(1); }
//! bar.finish_and_clear();
//! ```
//!
//! Library crates take a plain [`indicatif::ProgressBar`] (hidden by default); the CLI creates
//! it here and hands it down.

use std::io::IsTerminal as _;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether progress may be drawn: stderr is a terminal, outside CI, on a capable terminal.
pub(crate) fn enabled() -> bool {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0");
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    !ci && !dumb && std::io::stderr().is_terminal()
}

fn target() -> ProgressDrawTarget {
    if enabled() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// A bar for `len` units of work, labelled `label` (e.g. `"merging"`, `"writing outputs"`).
pub(crate) fn bar(len: u64, label: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), target());
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({elapsed})")
            .expect("static progress template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(label.to_string());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_hidden_when_stderr_is_not_a_terminal() {
        // cargo test captures stderr into a pipe: whatever CI says, nothing may be drawn.
        if std::io::stderr().is_terminal() {
            return;
        }
        assert!(!enabled());
        assert!(bar(10, "x").is_hidden());
    }
}
