//! The emulated ABI (newest ROCr layout or Debian's ROCm 5.2), chosen once per `hsa_init` from
//! `ROCPROF_RS_SIM_ABI`. A leaf: the tables, the agents and the clock read it.

use std::sync::atomic::{AtomicU8, Ordering};

/// Emulated ABI.
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Abi {
    /// The newest ROCr layout (default).
    Newest = 0,
    /// Debian's ROCm 5.2 layout.
    Rocm52 = 1,
}

/// Active ABI (written only under the bootstrap lock in `hsa_init`).
static ABI: AtomicU8 = AtomicU8::new(Abi::Newest as u8);

pub(crate) fn abi() -> Abi {
    if ABI.load(Ordering::Relaxed) == Abi::Rocm52 as u8 {
        Abi::Rocm52
    } else {
        Abi::Newest
    }
}

pub(crate) fn abi_is_5_2() -> bool {
    abi() == Abi::Rocm52
}

pub(crate) fn set_abi(abi: Abi) {
    ABI.store(abi as u8, Ordering::Relaxed);
}
