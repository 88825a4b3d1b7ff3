//! Device-buffer allocation for the builders: the [`Allocator`] trait the
//! caller implements (real HSA memory pools in the intercept library) and the
//! deterministic [`BumpAllocator`] the conformance goldens were produced with.

use crate::error::{Error, Result};

/// Why a buffer is requested; mirrors the memory flags aqlprofile passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BufferRole {
    /// PMC counter output (host+device, DEVICE_UNCACHED, raw flags 0x0B).
    PmcOutput,
    /// PM4 command buffer (host+device, DEVICE_NONCOHERENT, raw 0x13; marker raw 0x03).
    Command,
    /// SQTT control buffer (host+device, HOST hint, raw 0x07).
    SqttControl,
    /// SQTT trace buffer (device only, DEVICE_NONCOHERENT, raw 0x11).
    SqttTrace,
}

impl BufferRole {
    /// Name used in golden files and messages.
    pub fn name(self) -> &'static str {
        match self {
            BufferRole::PmcOutput => "output_buffer",
            BufferRole::Command => "command_buffer",
            BufferRole::SqttControl => "control_buffer",
            BufferRole::SqttTrace => "trace_buffer",
        }
    }
}

/// Hands out device addresses for the buffers a builder needs.
pub trait Allocator {
    /// Returns the device address of a new buffer of `size` bytes.
    fn allocate(&mut self, size: u64, role: BufferRole) -> Result<u64>;
}

/// One allocation made through a [`BumpAllocator`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allocation {
    /// Device address.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// Purpose.
    pub role: BufferRole,
}

/// The documented bump-allocator rule: the first allocation is at `base`, each
/// next one at the 4 KiB boundary following the previous allocation's end.
#[derive(Debug, Clone)]
pub struct BumpAllocator {
    next: u64,
    log: Vec<Allocation>,
}

/// Granularity of the bump allocator.
pub const BUMP_ALIGN: u64 = 4096;

impl BumpAllocator {
    /// A bump allocator starting at `base` (must be 4 KiB aligned).
    pub fn new(base: u64) -> Result<BumpAllocator> {
        if !base.is_multiple_of(BUMP_ALIGN) {
            return Err(Error::Misaligned { what: "arena base", addr: base, align: BUMP_ALIGN });
        }
        Ok(BumpAllocator { next: base, log: Vec::new() })
    }

    /// Allocations in call order.
    pub fn allocations(&self) -> &[Allocation] {
        &self.log
    }
}

impl Allocator for BumpAllocator {
    fn allocate(&mut self, size: u64, role: BufferRole) -> Result<u64> {
        if size == 0 {
            return Err(Error::ZeroSize { what: role.name() });
        }
        let addr = self.next;
        let end = addr.checked_add(size).ok_or(Error::AddressOverflow { what: role.name() })?;
        self.next = end
            .checked_add(BUMP_ALIGN - 1)
            .map(|e| e & !(BUMP_ALIGN - 1))
            .ok_or(Error::AddressOverflow { what: role.name() })?;
        self.log.push(Allocation { addr, size, role });
        Ok(addr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bump_rule() {
        let mut a = BumpAllocator::new(0x10_0000_0000).unwrap();
        assert_eq!(a.allocate(712, BufferRole::PmcOutput).unwrap(), 0x10_0000_0000);
        assert_eq!(a.allocate(6656, BufferRole::Command).unwrap(), 0x10_0000_1000);
        assert_eq!(a.allocate(1, BufferRole::Command).unwrap(), 0x10_0000_3000);
        assert_eq!(a.allocate(4096, BufferRole::Command).unwrap(), 0x10_0000_4000);
        assert_eq!(a.allocate(1, BufferRole::Command).unwrap(), 0x10_0000_5000);
        assert_eq!(a.allocations().len(), 5);
    }

    #[test]
    fn bump_errors() {
        assert!(matches!(BumpAllocator::new(0x1001), Err(Error::Misaligned { .. })));
        let mut a = BumpAllocator::new(0).unwrap();
        assert_eq!(a.allocate(0, BufferRole::SqttTrace), Err(Error::ZeroSize { what: "trace_buffer" }));
        let mut a = BumpAllocator::new(!0xFFF).unwrap();
        assert!(matches!(a.allocate(0x2000, BufferRole::Command), Err(Error::AddressOverflow { .. })));
    }
}
