//! The tracing options of rocprofv3 (`rocprofv3-cli.md` section 3) and their resolution into
//! [`Tracing`]: the aggregate options expand in rocprofv3's order (sys -> runtime -> hip -> hsa)
//! and each expansion only sets options that are still unset, so an explicit `=false` always
//! wins (`--sys-trace --hsa-trace=false` traces everything but HSA).

use clap::Args;

use super::parse_bool;
use crate::config::Tracing;

/// `--<name>[=BOOL]` options of this group.
#[derive(Debug, Default, Args)]
pub(crate) struct TracingArgs {
    /// Trace kernel dispatches (KERNEL_DISPATCH).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    kernel_trace: Option<bool>,

    /// System trace: HIP, HSA, markers, kernels, memory copies, allocations, scratch, RCCL,
    /// rocDecode and rocJPEG (each only where not set explicitly).
    #[arg(short = 's', long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    sys_trace: Option<bool>,

    /// Runtime trace: like --sys-trace with the HIP runtime API only and without HSA.
    #[arg(short = 'r', long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    runtime_trace: Option<bool>,

    /// HIP API: --hip-runtime-trace and --hip-compiler-trace.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    hip_trace: Option<bool>,

    /// Public hip* functions (HIP_RUNTIME_API_EXT).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    hip_runtime_trace: Option<bool>,

    /// Compiler-inserted __hip* functions (HIP_COMPILER_API_EXT).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    hip_compiler_trace: Option<bool>,

    /// HSA API: core, AMD extension, image and finalizer tables.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    hsa_trace: Option<bool>,

    /// hsa_* core API (HSA_CORE_API).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    hsa_core_trace: Option<bool>,

    /// hsa_amd_* extension API (HSA_AMD_EXT_API).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    hsa_amd_trace: Option<bool>,

    /// hsa_ext_image_* API (HSA_IMAGE_EXT_API).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    hsa_image_trace: Option<bool>,

    /// hsa_ext_program_* finalizer API (HSA_FINALIZE_EXT_API).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    hsa_finalizer_trace: Option<bool>,

    /// ROCTx markers and ranges (MARKER_CORE_API, MARKER_CONTROL_API, MARKER_NAME_API).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    marker_trace: Option<bool>,

    /// Asynchronous memory copies (MEMORY_COPY).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    memory_copy_trace: Option<bool>,

    /// Memory allocations and frees (MEMORY_ALLOCATION).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    memory_allocation_trace: Option<bool>,

    /// Scratch memory allocation, free and reclaim (SCRATCH_MEMORY).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    scratch_memory_trace: Option<bool>,

    /// RCCL API (RCCL_API), when RCCL is in the process.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    rccl_trace: Option<bool>,

    /// rocDecode API (ROCDECODE_API), when rocDecode is in the process.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    rocdecode_trace: Option<bool>,

    /// rocJPEG API (ROCJPEG_API), when rocJPEG is in the process.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    rocjpeg_trace: Option<bool>,

    /// Name kernels after the innermost enclosing ROCTx range.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    kernel_rename: Option<bool>,

    /// Start with collection paused; roctxProfilerResume/Pause select the regions collected.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    selected_regions: Option<bool>,

    /// Kokkos Tools support: records Kokkos regions as ROCTx ranges (implies --marker-trace and
    /// --kernel-rename).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    kokkos_trace: Option<bool>,

    /// Group kernels and copies by HSA queue instead of HIP stream.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", value_parser = parse_bool)]
    group_by_queue: Option<bool>,
}

/// Sets `slot` to true unless it was given explicitly.
fn set_if_unset(slot: &mut Option<bool>) {
    slot.get_or_insert(true);
}

impl TracingArgs {
    /// Expands the aggregate options and resolves every domain.
    pub(crate) fn resolve(mut self) -> Tracing {
        if self.sys_trace == Some(true) {
            for slot in [
                &mut self.hip_trace,
                &mut self.hsa_trace,
                &mut self.marker_trace,
                &mut self.kernel_trace,
                &mut self.memory_copy_trace,
                &mut self.memory_allocation_trace,
                &mut self.scratch_memory_trace,
                &mut self.rccl_trace,
                &mut self.rocdecode_trace,
                &mut self.rocjpeg_trace,
            ] {
                set_if_unset(slot);
            }
        }
        if self.runtime_trace == Some(true) {
            for slot in [
                &mut self.hip_runtime_trace,
                &mut self.marker_trace,
                &mut self.kernel_trace,
                &mut self.memory_copy_trace,
                &mut self.memory_allocation_trace,
                &mut self.scratch_memory_trace,
                &mut self.rccl_trace,
                &mut self.rocdecode_trace,
                &mut self.rocjpeg_trace,
            ] {
                set_if_unset(slot);
            }
        }
        if self.hip_trace == Some(true) {
            set_if_unset(&mut self.hip_runtime_trace);
            set_if_unset(&mut self.hip_compiler_trace);
        }
        if self.hsa_trace == Some(true) {
            set_if_unset(&mut self.hsa_core_trace);
            set_if_unset(&mut self.hsa_amd_trace);
            set_if_unset(&mut self.hsa_image_trace);
            set_if_unset(&mut self.hsa_finalizer_trace);
        }
        if self.kokkos_trace == Some(true) {
            set_if_unset(&mut self.marker_trace);
            set_if_unset(&mut self.kernel_rename);
        }
        let on = |v: Option<bool>| v.unwrap_or(false);
        Tracing {
            kernel: on(self.kernel_trace),
            hip_runtime: on(self.hip_runtime_trace),
            hip_compiler: on(self.hip_compiler_trace),
            hsa_core: on(self.hsa_core_trace),
            hsa_amd: on(self.hsa_amd_trace),
            hsa_image: on(self.hsa_image_trace),
            hsa_finalizer: on(self.hsa_finalizer_trace),
            marker: on(self.marker_trace),
            memory_copy: on(self.memory_copy_trace),
            memory_allocation: on(self.memory_allocation_trace),
            scratch_memory: on(self.scratch_memory_trace),
            rccl: on(self.rccl_trace),
            rocdecode: on(self.rocdecode_trace),
            rocjpeg: on(self.rocjpeg_trace),
            kernel_rename: on(self.kernel_rename),
            selected_regions: on(self.selected_regions),
            group_by_queue: on(self.group_by_queue),
            kokkos: on(self.kokkos_trace),
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        tracing: TracingArgs,
    }

    fn resolve(args: &[&str]) -> Tracing {
        Cli::try_parse_from(std::iter::once("rocprof-rs").chain(args.iter().copied())).unwrap().tracing.resolve()
    }

    #[test]
    fn sys_trace_turns_on_every_domain() {
        let t = resolve(&["--sys-trace"]);
        assert!(t.kernel && t.hip_runtime && t.hip_compiler && t.marker);
        assert!(t.hsa_core && t.hsa_amd && t.hsa_image && t.hsa_finalizer);
        assert!(t.memory_copy && t.memory_allocation && t.scratch_memory && t.rccl && t.rocdecode && t.rocjpeg);
        assert!(!t.kernel_rename && !t.selected_regions && !t.group_by_queue);
        assert_eq!(resolve(&["-s"]), t);
    }

    #[test]
    fn explicit_false_wins_over_the_aggregates() {
        let t = resolve(&["--sys-trace", "--hsa-trace=false"]);
        assert!(!t.hsa_core && !t.hsa_amd && !t.hsa_image && !t.hsa_finalizer);
        assert!(t.hip_runtime && t.kernel && t.memory_copy);
        let t = resolve(&["--sys-trace", "--hsa-core-trace=false"]);
        assert!(!t.hsa_core && t.hsa_amd && t.hsa_image && t.hsa_finalizer);
        let t = resolve(&["-r", "--scratch-memory-trace=false"]);
        assert!(!t.scratch_memory && t.memory_copy);
        let t = resolve(&["--sys-trace", "--hip-trace", "no"]);
        assert!(!t.hip_runtime && !t.hip_compiler);
    }

    #[test]
    fn runtime_trace_has_no_hsa_and_only_the_hip_runtime() {
        let t = resolve(&["--runtime-trace"]);
        assert!(t.hip_runtime && !t.hip_compiler);
        assert!(!t.hsa_core && !t.hsa_amd && !t.hsa_image && !t.hsa_finalizer);
        assert!(t.kernel && t.marker && t.memory_copy && t.memory_allocation && t.scratch_memory);
    }

    #[test]
    fn granular_options_stand_alone() {
        let t = resolve(&["--hsa-core-trace"]);
        assert!(t.hsa_core && !t.hsa_amd && !t.kernel);
        let t = resolve(&["--hip-trace"]);
        assert!(t.hip_runtime && t.hip_compiler && !t.kernel && !t.memory_copy);
        let t = resolve(&["--hsa-trace", "--hsa-amd-trace=0"]);
        assert!(t.hsa_core && !t.hsa_amd && t.hsa_image);
        assert_eq!(resolve(&[]), Tracing::default());
        assert!(!Tracing::default().any());
        let k = resolve(&["--kokkos-trace"]);
        assert!(k.kokkos && k.marker && k.kernel_rename, "rocprofv3: implies --marker-trace and --kernel-rename");
        assert!(!resolve(&["--kokkos-trace", "--kernel-rename=no"]).kernel_rename);
        let t = resolve(&["--kernel-rename", "--selected-regions", "--group-by-queue"]);
        assert!(t.kernel_rename && t.selected_regions && t.group_by_queue && !t.any());
    }

    #[test]
    fn domains_reach_the_interception_library_as_one_list() {
        let t = resolve(&["--hsa-trace", "--memory-copy-trace", "--kernel-rename", "--kernel-trace"]);
        assert_eq!(
            rocprof_launch::Setting::encode(&t.to_trace()),
            "kernel,hsa_core,hsa_amd,hsa_image,hsa_finalizer,memory_copy,kernel_rename"
        );
    }
}
