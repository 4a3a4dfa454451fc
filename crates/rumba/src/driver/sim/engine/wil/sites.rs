//! Where a block body's barriers and uniform decisions stand in the kernel's source ([`Site`],
//! [`BarrierSite`], [`DecisionSite`]: what a divergence fault names), and a decision's values
//! as the work-items see them ([`Decision`], which [`BlockCtx::uniform`](super::BlockCtx::uniform)
//! checks equal).
//!
//! This module touches no memory but its own values.

use std::fmt;

use crate::driver::sim::engine::barrier::BarrierKind;

/// Where a kernel's source says something, for messages: file, line, column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Site {
    /// Source file.
    pub file: &'static str,
    /// Line (1-based).
    pub line: u32,
    /// Column (1-based).
    pub column: u32,
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A barrier of a block body: which `syncthreads*` and where the kernel calls it.
///
/// ```
/// use rumba::kernel::wil::{BarrierKind, BarrierSite};
/// const S: BarrierSite = BarrierSite::new(BarrierKind::Sync, "k.rs", 3, 5);
/// assert_eq!(S.to_string(), "syncthreads at k.rs:3:5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarrierSite {
    /// The barrier primitive.
    pub kind: BarrierKind,
    /// Its call site.
    pub site: Site,
}

impl BarrierSite {
    /// A barrier `kind` at `file:line:column`.
    pub const fn new(kind: BarrierKind, file: &'static str, line: u32, column: u32) -> Self {
        BarrierSite {
            kind,
            site: Site { file, line, column },
        }
    }
}

impl fmt::Display for BarrierSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.kind.name(), self.site)
    }
}

/// A per-thread decision that controls barriers (the condition of an `if`, the bound of a `for`,
/// a `break`), which every live work-item must take identically: `what` says which, for the
/// message when they do not.
///
/// ```
/// use rumba::kernel::wil::DecisionSite;
/// const D: DecisionSite = DecisionSite::new("the condition of the `while`", "k.rs", 9, 5);
/// assert_eq!(D.to_string(), "the condition of the `while` at k.rs:9:5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecisionSite {
    /// What is decided, in words.
    pub what: &'static str,
    /// Where.
    pub site: Site,
}

impl DecisionSite {
    /// Decision `what` at `file:line:column`.
    pub const fn new(what: &'static str, file: &'static str, line: u32, column: u32) -> Self {
        DecisionSite {
            what,
            site: Site { file, line, column },
        }
    }
}

impl fmt::Display for DecisionSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.what, self.site)
    }
}

/// The values work-items computed for one decision, gathered in a region
/// ([`see`](Self::see)) and checked for uniformity with
/// [`BlockCtx::uniform`](super::BlockCtx::uniform).
///
/// ```
/// use rumba::kernel::wil::Decision;
/// let mut d = Decision::new();
/// d.see(0, true);
/// d.see(1, true);
/// # let _ = d;
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Decision<T> {
    /// The first work-item's value.
    pub(super) first: Option<(u32, T)>,
    /// The first value that differs from it, if any.
    pub(super) other: Option<(u32, T)>,
}

impl<T: Copy + PartialEq + fmt::Debug> Decision<T> {
    /// No value seen yet.
    #[inline(always)]
    pub fn new() -> Self {
        Decision {
            first: None,
            other: None,
        }
    }

    /// Work-item `w` decided `value`.
    #[inline(always)]
    pub fn see(&mut self, w: u32, value: T) {
        match self.first {
            None => self.first = Some((w, value)),
            Some((_, f)) => {
                if f != value && self.other.is_none() {
                    self.other = Some((w, value));
                }
            }
        }
    }
}

impl<T: Copy + PartialEq + fmt::Debug> Default for Decision<T> {
    fn default() -> Self {
        Self::new()
    }
}
