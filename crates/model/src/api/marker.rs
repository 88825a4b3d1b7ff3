//! The ROCTx (marker) operations: names by domain and id, as rocprofiler-sdk numbers them
//! (`ROCPROFILER_MARKER_CORE_API_ID_*`, `..._CONTROL_API_ID_*`, `..._NAME_API_ID_*`).

use super::ApiDomain;

/// Names of the marker operations by domain and id (rocprofiler-sdk's enumerations).
pub fn operation_name(domain: ApiDomain, op: u32) -> Option<&'static str> {
    let names: &[&str] = match domain {
        ApiDomain::MarkerCore => &[
            "roctxMarkA",
            "roctxRangePushA",
            "roctxRangePop",
            "roctxRangeStartA",
            "roctxRangeStop",
            "roctxGetThreadId",
        ],
        ApiDomain::MarkerControl => &["roctxProfilerPause", "roctxProfilerResume"],
        ApiDomain::MarkerName => {
            &["roctxNameOsThread", "roctxNameHsaAgent", "roctxNameHipDevice", "roctxNameHipStream"]
        }
        _ => return None,
    };
    names.get(op as usize).copied()
}
