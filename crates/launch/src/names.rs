//! Every `ROCPROF_RS_*` environment variable of the launch contract, in one list. No other Rust source
//! of the workspace (crates, their tests and examples, the end-to-end tests, `xtask`) spells such a name,
//! but for a test's expected message (the test `no_launch_name_is_spelled_outside_the_list` checks it).

/// Who sets a variable and who reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The CLI sets it for the application; the interception library reads it.
    Contract,
    /// The CLI sets it; hsa-sim reads it.
    Simulator,
    /// The user or a test sets it; the CLI reads it.
    Cli,
    /// Tests set it; the interception library reads it (fault injection, small tables).
    LibraryTest,
    /// The user or a test sets it; hsa-sim (or its device model) reads it.
    SimulatorKnob,
    /// A test process sets it for a child process of the same test.
    TestChild,
    /// The test harness and `cargo xtask` read it (where the staged tools, the sid chroot, the
    /// conformance inputs and the fixture toolchain are).
    Harness,
}

/// One variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Var {
    /// The name.
    pub name: &'static str,
    /// Who sets and reads it.
    pub role: Role,
    /// What it carries, in one line.
    pub what: &'static str,
}

macro_rules! vars {
    ($($(#[$doc:meta])* $id:ident = $name:literal, $role:ident, $what:literal;)*) => {
        $($(#[$doc])* pub const $id: &str = $name;)*
        /// Every variable, in one list.
        pub const ALL: &[Var] = &[$(Var { name: $name, role: Role::$role, what: $what }),*];
    };
}

vars! {
    /// Where the library writes `<pid>.rpcap` (required: without it the library does nothing).
    CAPTURE_DIR = "ROCPROF_RS_CAPTURE_DIR", Contract, "capture directory";
    /// [`crate::LogLevel`].
    LOG_LEVEL = "ROCPROF_RS_LOG_LEVEL", Contract, "library verbosity";
    /// [`crate::Trace`].
    TRACE = "ROCPROF_RS_TRACE", Contract, "traced domains, comma-separated words";
    /// [`crate::BufferPolicy`].
    BUFFER_POLICY = "ROCPROF_RS_BUFFER_POLICY", Contract, "what a record does when no capture chunk is free";
    /// [`crate::GateCompletions`].
    GATE_COMPLETIONS = "ROCPROF_RS_GATE_COMPLETIONS", Contract, "gate completion signals in the queue";
    /// [`crate::CounterPlan`]: the counter groups.
    PMC = "ROCPROF_RS_PMC", Contract, "counter groups per GPU";
    /// [`crate::CounterPlan`]: the group switch interval.
    PMC_INTERVAL = "ROCPROF_RS_PMC_INTERVAL", Contract, "counted dispatches per counter group";
    /// [`crate::KernelNames`].
    KERNEL_NAMES = "ROCPROF_RS_KERNEL_NAMES", Contract, "kernel-name form the kernel filters match";
    /// The kernel filter's include regex (`rocprof_model::kernel_filter`).
    KERNEL_INCLUDE_REGEX = "ROCPROF_RS_KERNEL_INCLUDE_REGEX", Contract, "kernel include regex";
    /// The kernel filter's exclude regex.
    KERNEL_EXCLUDE_REGEX = "ROCPROF_RS_KERNEL_EXCLUDE_REGEX", Contract, "kernel exclude regex";
    /// The kernel filter's iteration ranges, normalised as `A-B,C-D`.
    KERNEL_ITERATION_RANGE = "ROCPROF_RS_KERNEL_ITERATION_RANGE", Contract, "kernel iteration ranges";
    /// [`crate::CollectionPeriods`].
    COLLECTION_PERIODS = "ROCPROF_RS_COLLECTION_PERIODS", Contract, "collection windows";
    /// [`crate::PcSampling`].
    PC_SAMPLING = "ROCPROF_RS_PC_SAMPLING", Contract, "PC sampling method, unit and interval";
    /// [`crate::AttSettings`]: `1` turns thread trace on.
    ATT = "ROCPROF_RS_ATT", Contract, "thread trace on";
    /// [`crate::AttSettings::target_cu`].
    ATT_TARGET_CU = "ROCPROF_RS_ATT_TARGET_CU", Contract, "thread trace target CU";
    /// [`crate::AttSettings::se_mask`].
    ATT_SE_MASK = "ROCPROF_RS_ATT_SE_MASK", Contract, "thread trace shader engine mask";
    /// [`crate::AttSettings::simd_select`].
    ATT_SIMD_SELECT = "ROCPROF_RS_ATT_SIMD_SELECT", Contract, "thread trace SIMD select";
    /// [`crate::AttSettings::buffer_size`].
    ATT_BUFFER_SIZE = "ROCPROF_RS_ATT_BUFFER_SIZE", Contract, "thread trace buffer bytes";
    /// [`crate::AttSettings::gpu_index`].
    ATT_GPU_INDEX = "ROCPROF_RS_ATT_GPU_INDEX", Contract, "thread-traced GPU indices";
    /// [`crate::AttSettings::serialize_all`].
    ATT_SERIALIZE_ALL = "ROCPROF_RS_ATT_SERIALIZE_ALL", Contract, "serialise every dispatch";
    /// [`crate::AttSettings::perf_ctrl`].
    ATT_PERF_CTRL = "ROCPROF_RS_ATT_PERF_CTRL", Contract, "streamed counter sampling period";
    /// [`crate::AttSettings::perf_events`].
    ATT_PERF_EVENTS = "ROCPROF_RS_ATT_PERF_EVENTS", Contract, "streamed counters per target";
    /// The `--simulate` targets, comma-separated (hsa-sim's agents).
    SIM_AGENTS = "ROCPROF_RS_SIM_AGENTS", Simulator, "hsa-sim agents";
    /// The agent probe the CLI runs to learn the GPUs (default `rocminfo`).
    PROBE = "ROCPROF_RS_PROBE", Cli, "agent probe program";
    /// `1`: the CLI keeps the capture directory after writing the outputs.
    KEEP_CAPTURE = "ROCPROF_RS_KEEP_CAPTURE", Cli, "keep the capture";
    /// The interception library to preload (default: next to the executable).
    INTERCEPT_LIB = "ROCPROF_RS_INTERCEPT_LIB", Cli, "interception library path";
    /// hsa-sim's library (default: next to the executable).
    SIM_LIB = "ROCPROF_RS_SIM_LIB", Cli, "hsa-sim library path";
    /// Overrides the KFD topology directory agents are enriched from.
    KFD_TOPOLOGY = "ROCPROF_RS_KFD_TOPOLOGY", LibraryTest, "KFD topology directory";
    /// Lowers the library's table capacities (`name=N,...`).
    LIMITS = "ROCPROF_RS_LIMITS", LibraryTest, "library table capacities";
    /// Makes one completion handler fail.
    INTERCEPT_FAULT = "ROCPROF_RS_INTERCEPT_FAULT", LibraryTest, "fault injection";
    /// Set: the library's timer does not use the TSC.
    NO_TSC = "ROCPROF_RS_NO_TSC", LibraryTest, "no TSC timestamps";
    /// `off`: kernels are not executed (the timing-only model of the static walk).
    SIM_EXEC = "ROCPROF_RS_SIM_EXEC", SimulatorKnob, "kernel execution on or off";
    /// Host threads per executed dispatch.
    SIM_EXEC_THREADS = "ROCPROF_RS_SIM_EXEC_THREADS", SimulatorKnob, "execution threads per dispatch";
    /// Where hsa-sim writes its execution statistics.
    SIM_STATS = "ROCPROF_RS_SIM_STATS", SimulatorKnob, "execution statistics file";
    /// `off`: every dispatch is executed (no elision of exact repeats).
    SIM_ELIDE = "ROCPROF_RS_SIM_ELIDE", SimulatorKnob, "dispatch elision on or off";
    /// `5.2`: hsa-sim exports ROCm 5.2's API table layout (default `newest`).
    SIM_ABI = "ROCPROF_RS_SIM_ABI", SimulatorKnob, "hsa-sim API table layout";
    /// Factor on every modelled kernel duration.
    SIM_TIME_SCALE = "ROCPROF_RS_SIM_TIME_SCALE", SimulatorKnob, "kernel duration factor";
    /// `1`: the packet processor takes packets only up to the doorbell's value.
    SIM_STRICT_DOORBELL = "ROCPROF_RS_SIM_STRICT_DOORBELL", SimulatorKnob, "strict doorbell";
    /// Per-kernel duration factors (`REGEX=FACTOR,...`).
    SIM_KERNEL_SCALE = "ROCPROF_RS_SIM_KERNEL_SCALE", SimulatorKnob, "per-kernel duration factors";
    /// Relative noise on kernel durations.
    SIM_JITTER = "ROCPROF_RS_SIM_JITTER", SimulatorKnob, "kernel duration noise";
    /// `baseline`: the interpreter's lane kernels use no host vector extensions (AVX2/FMA); `avx2`: at most
    /// AVX2 + FMA (no AVX-512).
    SIM_LANES = "ROCPROF_RS_SIM_LANES", SimulatorKnob, "interpreter lane kernels";
    /// `off`: hsa-sim interprets VALU blocks instead of running host code compiled for them (x86-64 with
    /// AVX2 and FMA).
    SIM_JIT = "ROCPROF_RS_SIM_JIT", SimulatorKnob, "host code for VALU blocks";
    /// Seed of the duration noise.
    SIM_SEED = "ROCPROF_RS_SIM_SEED", SimulatorKnob, "noise seed";
    /// Where hsa-sim logs every AQL packet it receives.
    SIM_DISPATCH_LOG = "ROCPROF_RS_SIM_DISPATCH_LOG", SimulatorKnob, "AQL packet log";
    /// Where hsa-sim logs every PM4 stream it executes.
    SIM_PM4_LOG = "ROCPROF_RS_SIM_PM4_LOG", SimulatorKnob, "PM4 stream log";
    /// Set: hsa-sim says why a tool library failed to load.
    SIM_VERBOSE = "ROCPROF_RS_SIM_VERBOSE", SimulatorKnob, "verbose tool loading";
    /// Makes hsa-sim functions fail (`FUNCTION[@N],...`).
    SIM_FAIL = "ROCPROF_RS_SIM_FAIL", SimulatorKnob, "hsa-sim fault injection";
    /// The queue fault test's child process.
    TEST_QUEUE_FAULT_CHILD = "ROCPROF_RS_SIM_TEST_QUEUE_FAULT_CHILD", TestChild, "queue fault test child";
    /// The HIP 5 nesting test's child process.
    TEST_HIP_NESTING_CHILD = "ROCPROF_RS_TEST_HIP_NESTING_CHILD", TestChild, "HIP 5 nesting test child";
    /// The HIP 6 tracer test's child process.
    TEST_HIP6_CHILD = "ROCPROF_RS_TEST_HIP6_CHILD", TestChild, "HIP 6 tracer test child";
    /// The staged tools (`target/stage`) the end-to-end tests run.
    STAGE = "ROCPROF_RS_STAGE", Harness, "staged tools directory";
    /// The Debian sid chroot with ROCm 6.4.
    SID_ROOT = "ROCPROF_RS_SID_ROOT", Harness, "sid chroot";
    /// A directory of AMD's rocm-examples programs built with sid's hipcc (their end-to-end test).
    ROCM_EXAMPLES = "ROCPROF_RS_ROCM_EXAMPLES", Harness, "rocm-examples programs";
    /// The Debian mirror `cargo xtask sid` builds the chroot from.
    SID_MIRROR = "ROCPROF_RS_SID_MIRROR", Harness, "Debian mirror";
    /// The clang `cargo xtask fixtures` compiles kernels with (with [`LLD`]).
    CLANG = "ROCPROF_RS_CLANG", Harness, "fixture clang";
    /// The lld `cargo xtask fixtures` links kernels with (with [`CLANG`]).
    LLD = "ROCPROF_RS_LLD", Harness, "fixture lld";
    /// The zig `cargo xtask fixtures` cross-compiles the C fixtures with.
    ZIG = "ROCPROF_RS_ZIG", Harness, "fixture zig";
    /// A thread-trace corpus directory instead of `../shared/conformance/sqtt`.
    SQTT_CORPUS = "ROCPROF_RS_SQTT_CORPUS", Harness, "SQTT corpus";
    /// Set: the SQTT conformance test prints every comparison.
    SQTT_VERBOSE = "ROCPROF_RS_SQTT_VERBOSE", Harness, "verbose SQTT conformance";
    /// Where the SQTT conformance test writes its decoded outputs.
    SQTT_OUT = "ROCPROF_RS_SQTT_OUT", Harness, "SQTT conformance outputs";
    /// Megabytes of trace the SQTT decode benchmark decodes.
    SQTT_BENCH_MB = "ROCPROF_RS_SQTT_BENCH_MB", Harness, "SQTT benchmark size";
    /// A PM4 goldens directory instead of `../shared/conformance/pm4`.
    PM4_GOLDENS = "ROCPROF_RS_PM4_GOLDENS", Harness, "PM4 goldens";
    /// Where the PM4 conformance test writes the streams it builds.
    PM4_OUT = "ROCPROF_RS_PM4_OUT", Harness, "PM4 conformance outputs";
}

/// The common prefix.
pub const PREFIX: &str = "ROCPROF_RS_";
