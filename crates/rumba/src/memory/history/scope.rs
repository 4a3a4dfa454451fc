//! What a thread is inside when it notes an event: calls whose events are not recorded (a pool's
//! traffic with its upstream), a flush (its frees are `free_flushed`), and the resource a context
//! or manager allocates from (the chain its events are recorded with). The three are packed in
//! one thread-local word, so that an event noted outside all of them, the common case of a
//! resource used directly, reads and tests that word once.
//!
//! This module touches its thread-local word.

use std::cell::Cell;
use std::sync::Arc;

use super::chain::{self, ChainCell, ChainId};
use super::{EventKind, Note, is_recording};
use crate::memory::DeviceResource;

/// A thread's scope: the depth of quiet calls (low 32 bits), whether a flush runs (bit 32), and
/// 1 + the chain of the resource served (bits 40 and up; 0: none).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Scope(u64);

const QUIET_MASK: u64 = u32::MAX as u64;
const FLUSHING: u64 = 1 << 32;
const SERVING_SHIFT: u32 = 40;

impl Scope {
    const NONE: Scope = Scope(0);

    fn quiet(self) -> bool {
        self.0 & QUIET_MASK != 0
    }

    fn flushing(self) -> bool {
        self.0 & FLUSHING != 0
    }

    fn serving(self) -> Option<ChainId> {
        (self.0 >> SERVING_SHIFT)
            .checked_sub(1)
            .map(|chain| chain as ChainId)
    }

    fn with_serving(self, chain: ChainId) -> Scope {
        let rest = self.0 & ((1 << SERVING_SHIFT) - 1);
        Scope(rest | (u64::from(chain) + 1) << SERVING_SHIFT)
    }
}

thread_local! {
    static SCOPE: Cell<Scope> = const { Cell::new(Scope::NONE) };
}

/// The kind and chain `note` is recorded with in the thread's scope (`None`: not recorded);
/// `maker` is the resource reporting it and the cell keeping its chain, used when no context or
/// manager named the resource it allocates from.
#[inline(always)]
pub(super) fn scope(
    note: &Note,
    maker: Option<(&dyn DeviceResource, &ChainCell)>,
) -> Option<(EventKind, ChainId)> {
    let scope = SCOPE.get();
    let own = || maker.map_or(chain::EMPTY, |(me, cell)| cell.id(me));
    if scope == Scope::NONE {
        return Some((note.kind, own()));
    }
    if scope.quiet() {
        return None;
    }
    let kind = if note.kind == EventKind::Free && scope.flushing() {
        EventKind::FreeFlushed
    } else {
        note.kind
    };
    Some((kind, scope.serving().unwrap_or_else(own)))
}

/// Whether the thread is outside every scope: its events are recorded as noted, with the chain
/// of the resource that notes them.
#[inline(always)]
pub(super) fn outside() -> bool {
    SCOPE.get() == Scope::NONE
}

/// Puts the thread's scope back when dropped (also when the call inside unwinds).
struct Restore(Scope);

impl Drop for Restore {
    fn drop(&mut self) {
        SCOPE.set(self.0);
    }
}

/// Runs `f` in the thread's scope changed by `change`.
fn within<T>(change: impl FnOnce(Scope) -> Scope, f: impl FnOnce() -> T) -> T {
    let before = SCOPE.get();
    let _restore = Restore(before);
    SCOPE.set(change(before));
    f()
}

/// Runs `f` (an allocation from, or a release to, `top`) with `top`'s chain as the chain of the
/// events it records.
pub(crate) fn serving<T>(top: &Arc<dyn DeviceResource>, f: impl FnOnce() -> T) -> T {
    if !is_recording() {
        return f();
    }
    let chain = chain::served(top);
    within(|s| s.with_serving(chain), f)
}

/// Runs `f` without recording its events (a pool's traffic with its upstream).
pub(crate) fn quiet<T>(f: impl FnOnce() -> T) -> T {
    if !is_recording() {
        return f();
    }
    within(|s| Scope(s.0 + 1), f)
}

/// Runs `f` (a flush) so that the frees it causes are recorded as `free_flushed`.
pub(crate) fn flushing<T>(f: impl FnOnce() -> T) -> T {
    if !is_recording() {
        return f();
    }
    within(|s| Scope(s.0 | FLUSHING), f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_word_holds_depth_flush_and_chain_apart() {
        let s = Scope::NONE.with_serving(ChainId::MAX);
        assert_eq!(s.serving(), Some(ChainId::MAX));
        let s = Scope(s.0 + 1);
        assert!(s.quiet() && !s.flushing());
        let s = Scope(s.0 | FLUSHING).with_serving(0);
        assert_eq!(
            (s.serving(), s.quiet(), s.flushing()),
            (Some(0), true, true)
        );
        assert_eq!(Scope::NONE.serving(), None);
        assert!(!Scope::NONE.quiet() && !Scope::NONE.flushing());
    }
}
