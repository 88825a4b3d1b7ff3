//! Why a dispatch stopped, and where.

use crate::memory::Fault;

/// Why a dispatch stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorKind {
    /// An instruction without semantics here.
    Unimplemented,
    /// An operand combination not supported.
    Unsupported(String),
    /// Memory outside what the kernel may touch.
    Fault(Fault),
    /// `s_trap`.
    Trap,
    /// Not an instruction.
    Decode(String),
    /// More instructions than [`RunOptions::max_wave_instructions`].
    Hang,
}

/// A dispatch that could not run to the end, with where it stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Absolute PC of the instruction.
    pub pc: u64,
    /// PC relative to the kernel's entry.
    pub pc_offset: i64,
    /// LLVM mnemonic, when the bytes decoded.
    pub mnemonic: Option<&'static str>,
    /// The instruction's dwords.
    pub words: Vec<u32>,
    /// Workgroup index in dispatch order.
    pub workgroup: u64,
    /// Wave within the workgroup.
    pub wave: u32,
}

impl std::fmt::Display for DispatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<String> = self.words.iter().map(|w| format!("{w:08x}")).collect();
        let inst = match self.mnemonic {
            Some(m) => format!("`{m}` [{}]", words.join(" ")),
            None => format!("[{}]", words.join(" ")),
        };
        let at = format!(
            "at pc {:#x} (entry{:+#x}), workgroup {} wave {}",
            self.pc, self.pc_offset, self.workgroup, self.wave
        );
        match &self.kind {
            ErrorKind::Unimplemented => write!(f, "unimplemented instruction {inst} {at}"),
            ErrorKind::Unsupported(why) => write!(f, "unsupported: {why}: {inst} {at}"),
            ErrorKind::Fault(fault) => write!(f, "memory fault: {fault}: {inst} {at}"),
            ErrorKind::Trap => write!(f, "s_trap {at}"),
            ErrorKind::Decode(e) => write!(f, "undecodable instruction ({e}) {inst} {at}"),
            ErrorKind::Hang => write!(f, "wave exceeded the instruction limit (hung kernel?) {at}"),
        }
    }
}

impl std::error::Error for DispatchError {}
