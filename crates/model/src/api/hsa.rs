//! The operations of the four HSA API domains: names and parameters, generated from the
//! API-table definitions of `rocprof-hsa-sys` by `cargo xtask codegen-hsa-api` ([`tables`]).
//!
//! Operation ids are rocprofiler-sdk's (`ROCPROFILER_HSA_*_API_ID_*`): the index of the
//! function's entry in the newest ROCr table. The interception library maps the ROCm 5.2 AMD
//! extension table, whose entries are ordered differently, onto the same ids.

use super::{ApiArgInfo, ApiDomain};

// Generated code keeps the generator's layout (one operation per line).
#[rustfmt::skip]
mod tables;

/// One API function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiOperation {
    /// The C function name.
    pub name: &'static str,
    /// Its parameters, in order.
    pub args: &'static [ApiArgInfo],
}

/// The operations of an HSA domain in id order; `None` for the other domains.
pub fn operations(domain: ApiDomain) -> Option<&'static [ApiOperation]> {
    match domain {
        ApiDomain::HsaCore => Some(&tables::CORE),
        ApiDomain::HsaAmdExt => Some(&tables::AMD_EXT),
        ApiDomain::HsaImageExt => Some(&tables::IMAGE_EXT),
        ApiDomain::HsaFinalizeExt => Some(&tables::FINALIZE_EXT),
        _ => None,
    }
}

/// The id of HSA function `name` and its domain.
pub fn find(name: &str) -> Option<(ApiDomain, u32)> {
    [ApiDomain::HsaCore, ApiDomain::HsaAmdExt, ApiDomain::HsaImageExt, ApiDomain::HsaFinalizeExt]
        .into_iter()
        .find_map(|d| operations(d)?.iter().position(|o| o.name == name).map(|i| (d, i as u32)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ArgKind;

    #[test]
    fn ids_follow_rocprofiler_sdk() {
        // ROCPROFILER_HSA_CORE_API_ID_hsa_init = 0, ..._hsa_agent_get_info = 6.
        assert_eq!(find("hsa_init"), Some((ApiDomain::HsaCore, 0)));
        assert_eq!(find("hsa_agent_get_info"), Some((ApiDomain::HsaCore, 6)));
        // ROCPROFILER_HSA_AMD_EXT_API_ID_hsa_amd_memory_async_copy = 15.
        assert_eq!(find("hsa_amd_memory_async_copy"), Some((ApiDomain::HsaAmdExt, 15)));
        assert_eq!(find("hsa_ext_program_create"), Some((ApiDomain::HsaFinalizeExt, 0)));
        assert_eq!(find("hsa_ext_image_create"), Some((ApiDomain::HsaImageExt, 2)));
        assert_eq!(find("hipMalloc"), None);
        assert_eq!(operations(ApiDomain::HipRuntime), None);
    }

    #[test]
    fn parameters_carry_c_types_and_kinds() {
        let (d, op) = find("hsa_agent_get_info").unwrap();
        let args = crate::api::arg_info(d, op).unwrap();
        let described: Vec<(&str, &str, ArgKind)> = args.iter().map(|a| (a.name, a.ty, a.kind)).collect();
        assert_eq!(
            described,
            [
                ("agent", "hsa_agent_t", ArgKind::Handle),
                ("attribute", "hsa_agent_info_t", ArgKind::Unsigned),
                ("value", "void*", ArgKind::Pointer)
            ]
        );
        let (d, op) = find("hsa_signal_store_relaxed").unwrap();
        assert_eq!(crate::api::arg_info(d, op).unwrap()[1].kind, ArgKind::Signed);
    }
}
