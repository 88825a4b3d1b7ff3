//! The operations a VALU block may hold, as the blocks' table walker (`valu_block`) and their host code
//! (`valu_jit`) both name them: one [`Kind`] per entry of [`block_ops`], with the [`Shape`] of its
//! operands. A module of its own so that neither of the two imports the other for it.

use super::valu_lane::block_ops;
use crate::op::VOp;

/// How an operation reads and writes its lanes (see [`block_ops`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    U1,
    U2,
    U3,
    F2,
    F3,
    F3Acc,
    FromU,
    ToU,
}

impl Shape {
    /// Sources read from the instruction's operands (`F3Acc` reads its third from the destination).
    pub(super) fn sources(self) -> usize {
        match self {
            Shape::U1 | Shape::FromU | Shape::ToU => 1,
            Shape::U2 | Shape::F2 | Shape::F3Acc => 2,
            Shape::U3 | Shape::F3 => 3,
        }
    }
}

macro_rules! kinds {
    ($($name:ident: $shape:ident = $f:path),* $(,)?) => {
        /// An operation a block may run: one per entry of [`block_ops`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub(super) enum Kind {
            $($name),*
        }

        /// The kind and shape of `op`, when a block may run it.
        pub(super) fn kind_of(op: VOp) -> Option<(Kind, Shape)> {
            match op {
                $(VOp::$name => Some((Kind::$name, Shape::$shape)),)*
                _ => None,
            }
        }

        /// The block kind of `op` (for the tests).
        #[cfg(test)]
        pub(super) fn kind_for_tests(op: VOp) -> Kind {
            kind_of(op).expect("a block operation").0
        }

        /// The operations a block may run (for the tests).
        #[cfg(test)]
        pub(super) const BLOCK_OPS: &[VOp] = &[$(VOp::$name),*];
    };
}

block_ops!(kinds);
