//! Code-object load/unload markers for SQ thread trace
//! (`aqlprofile_att_codeobj_marker`): each marker word is a header plus data
//! written to SQ_THREAD_TRACE_USERDATA_2 under GRBM broadcast. Identical on
//! every family.

use crate::alloc::{Allocator, BufferRole};
use crate::aql::Pm4Packet;
use crate::error::Result;
use crate::pm4::Pm4Stream;
use crate::pmc::check_align;
use crate::regs::{GRBM_BROADCAST, GRBM_GFX_INDEX, SQ_THREAD_TRACE_USERDATA_2};
use crate::target::Agent;

/// Marker opcode in the low bits of each USERDATA header word (`ATT_CODEOBJ_OPCODE`).
const CODEOBJ_OPCODE: u32 = 4;

/// Marker channels (`att_marker_state`).
mod channel {
    pub(super) const HEADER: u32 = 0;
    pub(super) const SIZE_LO: u32 = 1;
    pub(super) const ADDR_LO: u32 = 2;
    pub(super) const ADDR_HI: u32 = 3;
    pub(super) const SIZE_HI: u32 = 4;
    pub(super) const ID_LO: u32 = 5;
    pub(super) const ID_HI: u32 = 6;
}

/// A code object load or unload to announce in the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeObjectMarker {
    /// Code object id.
    pub id: u64,
    /// Load address.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// True for an unload.
    pub is_unload: bool,
    /// The code object was loaded before tracing started.
    pub from_start: bool,
}

impl CodeObjectMarker {
    /// The marker PM4 stream.
    pub fn stream(&self, agent: &Agent) -> Vec<u32> {
        let mut s = Pm4Stream::new(agent.family(), !agent.multi_xcc());
        let word = |s: &mut Pm4Stream, data: u32, ch: u32| {
            s.set_uconfig(GRBM_GFX_INDEX, GRBM_BROADCAST);
            s.set_uconfig(SQ_THREAD_TRACE_USERDATA_2, CODEOBJ_OPCODE | ch << 8);
            s.set_uconfig(SQ_THREAD_TRACE_USERDATA_2, data);
        };
        if !self.is_unload {
            word(&mut s, self.addr as u32, channel::ADDR_LO);
            word(&mut s, (self.addr >> 32) as u32, channel::ADDR_HI);
            word(&mut s, self.size as u32, channel::SIZE_LO);
            word(&mut s, (self.size >> 32) as u32, channel::SIZE_HI);
        }
        let mut header = u32::from(self.is_unload) | u32::from(self.from_start) << 1;
        if self.id >= 1 << 30 {
            word(&mut s, self.id as u32, channel::ID_LO);
            word(&mut s, (self.id >> 32) as u32, channel::ID_HI);
        } else {
            header |= (self.id as u32) << 2;
        }
        word(&mut s, header, channel::HEADER);
        s.into_dwords()
    }

    /// Builds the marker into a command buffer at `command_addr` (which must
    /// hold [`CodeObjectMarker::command_buffer_size`] bytes).
    pub fn build_at(&self, agent: &Agent, command_addr: u64) -> Result<Pm4Packet> {
        check_align("command buffer", command_addr, 4)?;
        Pm4Packet::new(agent.family(), command_addr, self.stream(agent))
    }

    /// Exact command buffer size in bytes (aqlprofile allocates the stream size).
    pub fn command_buffer_size(&self, agent: &Agent) -> u64 {
        self.stream(agent).len() as u64 * 4
    }

    /// Allocates the command buffer through `alloc` and builds the packet.
    pub fn build(&self, agent: &Agent, alloc: &mut dyn Allocator) -> Result<Pm4Packet> {
        let stream = self.stream(agent);
        let addr = alloc.allocate(stream.len() as u64 * 4, BufferRole::Command)?;
        check_align("command buffer", addr, 4)?;
        Pm4Packet::new(agent.family(), addr, stream)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Target;

    #[test]
    fn unload_with_large_id_emits_id_words_and_header_only() {
        let agent = Agent::reference(Target::from_name("gfx1100").unwrap());
        let m = CodeObjectMarker { id: 1 << 31 | 5, addr: 0x1234, size: 10, is_unload: true, from_start: true };
        let s = m.stream(&agent);
        // Three markers (ID_LO, ID_HI, HEADER) of 3 packets x 3 dwords.
        assert_eq!(s.len(), 27);
        assert_eq!(s[5], 4 | 5 << 8);
        assert_eq!(s[8], (1 << 31 | 5) as u32);
        assert_eq!(s[14], 4 | 6 << 8);
        assert_eq!(s[17], 0);
        assert_eq!(s[23], 4);
        assert_eq!(s[26], 0b11);
    }
}
