//! The parameters of HIP functions, for printing the argument words of HIP API records.
//!
//! HIP's operation ids depend on the HIP release (HIP 5.x numbers its API ids, ROCm 6 uses table
//! member indices), so HIP records are described by function name, which the capture carries.
//! Sources: `rocprof_hsa_sys::HIP_PROF_FUNCTIONS_5_2` (HIP 5.2's `hip_api_data_t`, with the
//! storage class of each parameter measured by a probe against the header), for functions HIP 5.2
//! does not have `rocprof_hsa_sys::HIP_PROF_OPS_6_4` (the same, from HIP 6.4's header; the two agree
//! on every function both have), and for the rest `rocprof_hsa_sys::HIP_API_PARAMS` (ROCm 6's
//! dispatch-table signatures).

use std::collections::HashMap;
use std::sync::OnceLock;

use rocprof_hsa_sys::{HipArgClass, HIP_API_PARAMS, HIP_PROF_FUNCTIONS_5_2, HIP_PROF_OPS_6_4};

use super::{ApiArgInfo, ArgKind};

/// Handle typedefs of HIP that are pointers (for signatures known only from ROCm 6's tables).
const POINTER_HANDLES: &[&str] = &[
    "hipStream_t",
    "hipEvent_t",
    "hipCtx_t",
    "hipModule_t",
    "hipFunction_t",
    "hipGraph_t",
    "hipGraphNode_t",
    "hipGraphExec_t",
    "hipMemPool_t",
    "hipArray_t",
    "hipArray_const_t",
    "hipMipmappedArray_t",
    "hipMipmappedArray_const_t",
    "hipExternalMemory_t",
    "hipExternalSemaphore_t",
    "hipGraphicsResource_t",
    "hipDeviceptr_t",
    "hipUserObject_t",
    "hipTextureObject_t",
    "hipSurfaceObject_t",
    "hipMemGenericAllocationHandle_t",
    "hipHostFn_t",
    "hipStreamCallback_t",
];

fn kind_of_class(class: HipArgClass) -> ArgKind {
    match class {
        HipArgClass::Pointer => ArgKind::Pointer,
        HipArgClass::Signed | HipArgClass::Enum => ArgKind::Signed,
        HipArgClass::Unsigned => ArgKind::Unsigned,
        HipArgClass::Bool => ArgKind::Bool,
        HipArgClass::Float => ArgKind::Float32,
        HipArgClass::Double => ArgKind::Float64,
        HipArgClass::Dim3 => ArgKind::Dim3,
        HipArgClass::Struct => ArgKind::Struct,
    }
}

/// The kind of a parameter known only by its C type.
fn kind_of_type(ty: &str) -> ArgKind {
    let base = ty.replace("const ", "").replace("struct ", "").replace("enum ", "");
    let base = base.trim();
    if base.contains('*') || POINTER_HANDLES.contains(&base) {
        ArgKind::Pointer
    } else if base == "dim3" {
        ArgKind::Dim3
    } else if base == "float" {
        ArgKind::Float32
    } else if base == "double" {
        ArgKind::Float64
    } else if base == "bool" {
        ArgKind::Bool
    } else if base.starts_with("unsigned") || base.starts_with("uint") || base == "size_t" {
        ArgKind::Unsigned
    } else if base == "int" || base.starts_with("int") || base.starts_with("hip") || base.starts_with("GL") {
        // int, hipDevice_t and HIP's enumerations (int-sized)
        ArgKind::Signed
    } else {
        ArgKind::Struct
    }
}

/// The parameters of HIP function `name`, when this build knows the function.
pub fn args(name: &str) -> Option<&'static [ApiArgInfo]> {
    static TABLE: OnceLock<HashMap<&'static str, Box<[ApiArgInfo]>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t: HashMap<&'static str, Box<[ApiArgInfo]>> = HashMap::new();
        for (fname, params) in HIP_API_PARAMS.iter() {
            let args = params.iter().map(|(n, ty)| ApiArgInfo { name: n, ty, kind: kind_of_type(ty) }).collect();
            t.insert(fname, args);
        }
        // The measured classes (HIP 6.4's, then HIP 5.2's) win where the tables know the function.
        for f in HIP_PROF_OPS_6_4.iter().chain(HIP_PROF_FUNCTIONS_5_2.iter()) {
            if f.args.is_empty() && t.contains_key(f.name) {
                continue; // no argument struct in the record: the table signature says more
            }
            let args =
                f.args.iter().map(|a| ApiArgInfo { name: a.name, ty: a.ty, kind: kind_of_class(a.class) }).collect();
            t.insert(f.name, args);
        }
        t
    });
    table.get(name).map(|b| &b[..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hip_functions_are_described_from_both_sources() {
        let launch = args("hipLaunchKernel").unwrap();
        let kinds: Vec<ArgKind> = launch.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [ArgKind::Pointer, ArgKind::Dim3, ArgKind::Dim3, ArgKind::Pointer, ArgKind::Unsigned, ArgKind::Pointer]
        );
        assert_eq!(launch[5].name, "stream");
        let memcpy = args("hipMemcpy").unwrap();
        assert_eq!((memcpy[3].name, memcpy[3].kind), ("kind", ArgKind::Signed));
        // Known from ROCm 6's table only.
        let alloc = args("hipExtHostAlloc").unwrap();
        assert_eq!(
            alloc.iter().map(|a| a.kind).collect::<Vec<_>>(),
            [ArgKind::Pointer, ArgKind::Unsigned, ArgKind::Unsigned]
        );
        assert!(args("hipNoSuchFunction").is_none());
    }
}
