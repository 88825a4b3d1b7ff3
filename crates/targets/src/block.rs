//! PMC counter blocks of a target: attribute bits, the registers of every counter slot, and the
//! select function. The tables themselves are generated (`block_tables.rs`) from aqlprofile's
//! block tables and GC register headers (ROCm/rocm-systems `projects/aqlprofile`,
//! `gfxip/*/gfx*_block_table.h` with the GC segment bases of `src/core/*_reg_init.cpp` applied).
//! Register addresses are absolute dword addresses; `0` stands for "no such register".
//!
//! Two quirks of aqlprofile are kept as the dump has them: SPI LO/HI addresses are swapped
//! relative to their register names, and gfx1201 uses the generic gfx12 tables (GL2C 16
//! instances, CHC 2), as aqlprofile's v2 PMC path does in practice.

/// Block attribute bits, as in aqlprofile's `CounterBlockAttr`.
pub mod attr {
    /// Ordinary global block.
    pub const DEFAULT: u32 = 0x1;
    /// Sampled once per shader engine.
    pub const SE: u32 = 0x2;
    /// SQ block (SQ control/mask registers).
    pub const SQ: u32 = 0x4;
    /// Counters must be cleared before use (gfx9 SX).
    pub const CLEAN: u32 = 0x8;
    /// Memory-controller style block (RSLT_CNTL control register).
    pub const MC: u32 = 0x10;
    /// SDMA block.
    pub const SDMA: u32 = 0x100;
    /// Texture-cache block (enables SQ_PERFCOUNTER_CTRL).
    pub const TC: u32 = 0x400;
    /// Register table has one row set per instance.
    pub const EXPL_INST: u32 = 0x800;
    /// GUS block (gfx10/11).
    pub const GUS: u32 = 0x4000;
    /// GRBM block.
    pub const GRBM: u32 = 0x8000;
    /// UMC block (MI300).
    pub const UMC: u32 = 0x10000;
    /// Sampled per shader array.
    pub const SA: u32 = 0x20000;
    /// MI300 AID block (SMN-addressed).
    pub const AID: u32 = 0x40000;
    /// SPI block (special ids take no counter).
    pub const SPI: u32 = 0x80000;
    /// Sampled per WGP (gfx12).
    pub const WGP: u32 = 0x100000;
    /// RPB style block.
    pub const RPB: u32 = 0x200000;
    /// ATC style block.
    pub const ATC: u32 = 0x400000;
    /// Blocks that take part in CP_PERFMON_CNTL programming.
    pub const CPMON: u32 = DEFAULT | SE | SQ | CLEAN | MC;
}

/// Registers of one hardware counter slot (absolute dword addresses, 0 = none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterRegs {
    /// Select (or CFG) register.
    pub select: u32,
    /// Control register (SQ_PERFCOUNTER_CTRL, RSLT_CNTL, ...).
    pub control: u32,
    /// Counter value, low dword.
    pub lo: u32,
    /// Counter value, high dword (0 for 32-bit counters).
    pub hi: u32,
}

/// One counter block of one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockInfo {
    /// aqlprofile block name, e.g. `"TCC"`.
    pub name: &'static str,
    /// aqlprofile block enum (`aqlprofile_block_name_t`).
    pub block_enum: u32,
    /// aqlprofile's internal block id (SQ and SQ_CS share one on gfx9).
    pub internal_id: u32,
    /// Maximum instances (`block_index` must be below this).
    pub instances: u32,
    /// Hardware counters per instance.
    pub counters: u32,
    /// Highest valid event id.
    pub event_id_max: u32,
    /// Attribute bits, see [`attr`].
    pub attr: u32,
    /// Fixed bits of the select value (see [`BlockInfo::select_value`]).
    pub select_fixed: u32,
    /// Event bits of the select value; 0 reproduces aqlprofile's gfx9 SX/GDS quirk of never
    /// programming the event.
    pub select_mask: u32,
    /// Register rows of the counter slots (see [`BlockInfo::counter_registers`]).
    pub regs: &'static [CounterRegs],
}

impl BlockInfo {
    /// True when the block has attribute bit(s) `a`.
    pub fn has(&self, a: u32) -> bool {
        self.attr & a != 0
    }

    /// Register rows of the counter slots (one set per instance for
    /// explicitly indexed blocks).
    pub fn counter_registers(&self) -> &'static [CounterRegs] {
        self.regs
    }

    /// Select register value programmed for `event_id`.
    pub fn select_value(&self, event_id: u32) -> u32 {
        self.select_fixed | (event_id & self.select_mask)
    }

    /// Event id a select register value programs (the inverse of [`BlockInfo::select_value`]).
    pub fn select_event(&self, value: u32) -> u32 {
        value & self.select_mask
    }

    /// Registers of counter slot `slot` for instance `index`.
    pub fn regs_for(&self, index: u32, slot: u32) -> Option<CounterRegs> {
        let base = if self.has(attr::EXPL_INST) { index as usize * self.counters as usize } else { 0 };
        self.regs.get(base + slot as usize).copied()
    }
}
