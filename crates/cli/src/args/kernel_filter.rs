//! Kernel selection options (rocprofv3 section 6): which dispatches are counted (`--pmc`) or traced
//! (`--att`). They never filter the kernel trace. Shared by the counter and thread-trace option groups.

use anyhow::Result;
use clap::Args;

use rocprof_model::kernel_filter::KernelFilterSpec;

/// `--kernel-include-regex`, `--kernel-exclude-regex`, `--kernel-iteration-range`.
#[derive(Debug, Default, Args)]
pub(crate) struct KernelFilterArgs {
    /// Count/trace only kernels whose name (as the outputs show it, after -M/-T) matches this
    /// regular expression (unanchored search; default: every kernel).
    #[arg(long, value_name = "REGEX")]
    pub(crate) kernel_include_regex: Option<String>,

    /// Do not count/trace kernels whose name matches this regular expression.
    #[arg(long, value_name = "REGEX")]
    pub(crate) kernel_exclude_regex: Option<String>,

    /// Which dispatches of each selected kernel to count/trace, counted from 1 per kernel:
    /// numbers and inclusive ranges, e.g. "[1, 3-5]" or 1 3-5 (default: every dispatch).
    #[arg(long, value_name = "RANGE", num_args = 1..)]
    pub(crate) kernel_iteration_range: Vec<String>,
}

impl KernelFilterArgs {
    /// Validates the options (regexes compile, ranges parse) into the spec the interception library gets.
    pub(crate) fn into_spec(self) -> Result<KernelFilterSpec> {
        Ok(KernelFilterSpec::new(
            self.kernel_include_regex.as_deref(),
            self.kernel_exclude_regex.as_deref(),
            &self.kernel_iteration_range,
        )?)
    }
}
