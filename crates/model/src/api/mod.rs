//! API-call records of every traced runtime library (HSA, HIP, ROCTx markers, RCCL, rocDecode,
//! rocJPEG) and the correlation ids that tie API calls to the GPU work they caused.
//!
//! One record type, [`ApiCall`], serves every domain: the domain and operation id say what was
//! called, the arguments are kept as the raw 64-bit words the interception library copied
//! (no formatting in the profiled process), and [`arg_info`] describes how to print them. The
//! operation names and argument descriptions of the HSA tables are generated from
//! `rocprof-hsa-sys` ([`hsa`]); other domains add theirs beside it.
//!
//! Correlation ([`Correlation`]) follows rocprofv3: `internal` is one process-wide counter
//! shared by every API call; a kernel dispatch or memory copy carries the `internal` id of the
//! API call that issued it (the innermost HIP call if there is one, else the HSA call, e.g. the
//! doorbell store); `ancestor` is the id of the API call that was active on the thread when this
//! one started (0 at the outermost level); `external` is a user-supplied id (ROCTx ranges with
//! `--kernel-rename`), 0 when none.

use std::fmt;

use crate::records::{CorrelationId, StringId, ThreadId, Timestamp};

mod args;
pub mod hip;
pub mod hsa;
pub mod marker;

pub use args::{arg_info, arg_info_named, parse_arg, render_arg, ApiArgInfo, ArgKind};

/// The tracing domain (rocprofiler-sdk buffer-tracing kind) of an API call.
///
/// The numeric values are the capture format's; they never change meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u16)]
pub enum ApiDomain {
    /// `hsa_*` core API (`HSA_CORE_API`).
    HsaCore = 1,
    /// `hsa_amd_*` AMD extension API (`HSA_AMD_EXT_API`).
    HsaAmdExt = 2,
    /// `hsa_ext_image_*` (`HSA_IMAGE_EXT_API`).
    HsaImageExt = 3,
    /// `hsa_ext_program_*` finalizer API (`HSA_FINALIZE_EXT_API`).
    HsaFinalizeExt = 4,
    /// Public `hip*` functions (`HIP_RUNTIME_API_EXT`).
    HipRuntime = 5,
    /// Compiler-inserted `__hip*` functions (`HIP_COMPILER_API_EXT`).
    HipCompiler = 6,
    /// ROCTx marks and ranges (`MARKER_CORE_API`).
    MarkerCore = 7,
    /// ROCTx profiler pause/resume (`MARKER_CONTROL_API`).
    MarkerControl = 8,
    /// ROCTx naming calls (`MARKER_NAME_API`).
    MarkerName = 9,
    /// RCCL (`RCCL_API`).
    Rccl = 10,
    /// rocDecode (`ROCDECODE_API_EXT`).
    RocDecode = 11,
    /// rocJPEG (`ROCJPEG_API`).
    RocJpeg = 12,
}

impl ApiDomain {
    /// Every domain, in capture-value order.
    pub const ALL: [ApiDomain; 12] = [
        Self::HsaCore,
        Self::HsaAmdExt,
        Self::HsaImageExt,
        Self::HsaFinalizeExt,
        Self::HipRuntime,
        Self::HipCompiler,
        Self::MarkerCore,
        Self::MarkerControl,
        Self::MarkerName,
        Self::Rccl,
        Self::RocDecode,
        Self::RocJpeg,
    ];

    /// The capture value.
    pub fn as_u16(self) -> u16 {
        self as u16
    }

    /// The domain of a capture value.
    pub fn from_u16(v: u16) -> Option<Self> {
        Self::ALL.get(usize::from(v).wrapping_sub(1)).copied()
    }

    /// The record kind as rocprofv3 prints it in the `Domain` column and stores as the rocpd
    /// event category (`HSA_CORE_API`, `HIP_RUNTIME_API_EXT`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::HsaCore => "HSA_CORE_API",
            Self::HsaAmdExt => "HSA_AMD_EXT_API",
            Self::HsaImageExt => "HSA_IMAGE_EXT_API",
            Self::HsaFinalizeExt => "HSA_FINALIZE_EXT_API",
            Self::HipRuntime => "HIP_RUNTIME_API_EXT",
            Self::HipCompiler => "HIP_COMPILER_API_EXT",
            Self::MarkerCore => "MARKER_CORE_API",
            Self::MarkerControl => "MARKER_CONTROL_API",
            Self::MarkerName => "MARKER_NAME_API",
            Self::Rccl => "RCCL_API",
            Self::RocDecode => "ROCDECODE_API_EXT",
            Self::RocJpeg => "ROCJPEG_API",
        }
    }

    /// The library family, which decides the output file and the statistics domain.
    pub fn family(self) -> ApiFamily {
        match self {
            Self::HsaCore | Self::HsaAmdExt | Self::HsaImageExt | Self::HsaFinalizeExt => ApiFamily::Hsa,
            Self::HipRuntime | Self::HipCompiler => ApiFamily::Hip,
            Self::MarkerCore | Self::MarkerControl | Self::MarkerName => ApiFamily::Marker,
            Self::Rccl => ApiFamily::Rccl,
            Self::RocDecode => ApiFamily::RocDecode,
            Self::RocJpeg => ApiFamily::RocJpeg,
        }
    }

    /// The name of operation `op` of this domain when it is known statically (the HSA tables);
    /// other domains name their operations in the capture (see `capture::OperationNameRecord`).
    pub fn operation_name(self, op: u32) -> Option<&'static str> {
        hsa::operations(self)
            .and_then(|ops| ops.get(op as usize))
            .map(|o| o.name)
            .or_else(|| marker::operation_name(self, op))
    }
}

impl fmt::Display for ApiDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A traced library: one CSV file and one statistics domain each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ApiFamily {
    /// HSA (all four HSA domains).
    Hsa,
    /// HIP runtime and compiler.
    Hip,
    /// ROCTx.
    Marker,
    /// RCCL.
    Rccl,
    /// rocDecode.
    RocDecode,
    /// rocJPEG.
    RocJpeg,
}

impl ApiFamily {
    /// Every family, in rocprofv3's summary order (`HSA_API`, `HIP_API`, `MARKER_API`, then the
    /// libraries that come after the GPU domains).
    pub const ALL: [ApiFamily; 6] = [Self::Hsa, Self::Hip, Self::Marker, Self::Rccl, Self::RocDecode, Self::RocJpeg];

    /// The domain name in `--stats` files and summary tables (`HSA_API`, `HIP_API`, ...).
    pub fn stats_domain(self) -> &'static str {
        match self {
            Self::Hsa => "HSA_API",
            Self::Hip => "HIP_API",
            Self::Marker => "MARKER_API",
            Self::Rccl => "RCCL_API",
            Self::RocDecode => "ROCDECODE_API",
            Self::RocJpeg => "ROCJPEG_API",
        }
    }

    /// The trace file name part (`hsa_api_trace.csv`, ...).
    pub fn csv_file(self) -> &'static str {
        match self {
            Self::Hsa => "hsa_api_trace.csv",
            Self::Hip => "hip_api_trace.csv",
            Self::Marker => "marker_api_trace.csv",
            Self::Rccl => "rccl_api_trace.csv",
            Self::RocDecode => "rocdecode_api_trace.csv",
            Self::RocJpeg => "rocjpeg_api_trace.csv",
        }
    }

    /// The statistics file name part (`hsa_api_stats.csv`, ...).
    pub fn stats_file(self) -> &'static str {
        match self {
            Self::Hsa => "hsa_api_stats.csv",
            Self::Hip => "hip_api_stats.csv",
            Self::Marker => "marker_api_stats.csv",
            Self::Rccl => "rccl_api_stats.csv",
            Self::RocDecode => "rocdecode_api_stats.csv",
            Self::RocJpeg => "rocjpeg_api_stats.csv",
        }
    }
}

/// The correlation ids of a record (rocprofiler-sdk's `rocprofiler_correlation_id_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Correlation {
    /// The process-wide id: of the API call itself, or for GPU activity of the API call that
    /// issued it (`Correlation_Id`, rocpd `stack_id`, `rocpd_region.id`).
    pub internal: CorrelationId,
    /// The API call that was active on the thread when this record's call started (rocpd
    /// `parent_stack_id` of API and allocation records); 0 at the outermost level.
    pub ancestor: CorrelationId,
    /// The external id (rocpd `rocpd_event.correlation_id`): the enclosing ROCTx range's id
    /// with `--kernel-rename`, else 0.
    pub external: u64,
}

impl Correlation {
    /// Ids with no ancestor and no external id.
    pub fn new(internal: u64) -> Self {
        Self { internal: CorrelationId(internal), ancestor: CorrelationId(0), external: 0 }
    }
}

/// Most argument words an API record keeps; further arguments are not recorded.
pub const MAX_API_ARGS: usize = 16;

/// One API call (any domain), with its raw arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiCall {
    /// Domain (record kind).
    pub domain: ApiDomain,
    /// Operation id within the domain (for HSA, the function's index in the newest API table;
    /// rocprofiler-sdk's `ROCPROFILER_HSA_*_API_ID_*` values).
    pub operation: u32,
    /// The function name (`Function` column, rocpd region name).
    pub name: StringId,
    /// ROCTx message of a marker record (its `Function` column and rocpd `extdata.message`);
    /// empty for other domains.
    pub message: StringId,
    /// Calling thread.
    pub thread: ThreadId,
    /// Correlation ids.
    pub correlation: Correlation,
    /// Call entry.
    pub start: Timestamp,
    /// Call exit (equal to `start` for instantaneous markers).
    pub end: Timestamp,
    /// The return value's raw bits (0 for `void` functions).
    pub return_value: u64,
    /// The first [`MAX_API_ARGS`] argument words, raw: integers zero- or sign-extended,
    /// pointers as addresses, handles as their `handle` member; [`arg_info`] says which.
    pub args: Box<[u64]>,
}

impl ApiCall {
    /// `end - start` in ns (0 for an inverted pair).
    pub fn duration_ns(&self) -> u64 {
        self.end.saturating_since(self.start)
    }

    /// The text of the CSV `Function` column and the stats name: the message of a ROCTx mark or
    /// range (`MARKER_CORE_API` records that have one), else the function name (naming calls such
    /// as `roctxNameOsThread` keep their function name, as in rocprofv3).
    pub fn display_name(&self) -> StringId {
        if self.domain == ApiDomain::MarkerCore && self.message != StringId::EMPTY {
            self.message
        } else {
            self.name
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_round_trip_and_name_their_files() {
        for d in ApiDomain::ALL {
            assert_eq!(ApiDomain::from_u16(d.as_u16()), Some(d));
        }
        assert_eq!(ApiDomain::from_u16(0), None);
        assert_eq!(ApiDomain::from_u16(13), None);
        assert_eq!(ApiDomain::HsaAmdExt.as_str(), "HSA_AMD_EXT_API");
        assert_eq!(ApiDomain::HsaFinalizeExt.family().csv_file(), "hsa_api_trace.csv");
        assert_eq!(ApiDomain::HipCompiler.family().stats_domain(), "HIP_API");
        assert_eq!(ApiDomain::MarkerControl.family().stats_file(), "marker_api_stats.csv");
    }

    #[test]
    fn markers_print_their_message() {
        let call = ApiCall {
            domain: ApiDomain::MarkerCore,
            operation: 0,
            name: StringId(3),
            message: StringId(5),
            thread: ThreadId(1),
            correlation: Correlation::new(1),
            start: Timestamp::boottime(10),
            end: Timestamp::boottime(4),
            return_value: 0,
            args: Box::new([]),
        };
        assert_eq!(call.display_name(), StringId(5));
        assert_eq!(call.duration_ns(), 0);
        let unnamed = ApiCall { message: StringId::EMPTY, ..call.clone() };
        assert_eq!(unnamed.display_name(), StringId(3));
        // roctxNameOsThread carries the thread's name as its message, but its row is the function.
        let naming = ApiCall { domain: ApiDomain::MarkerName, ..call };
        assert_eq!(naming.display_name(), StringId(3));
    }
}
