//! Every deferral and every cache of a resource chain, not just the outermost.
//!
//! A capability is a provided method that asks the upstream unless a resource offers it itself
//! ([`resource`](super::resource)), so `deferral()` / `cache()` on the outermost resource finds
//! the *first* one. A chain may hold more: a pool over a pool, a deferred adaptor over another,
//! a pool over a deferred adaptor. Flushing or emptying only the first left the others holding
//! memory. Here the chain is walked level by level through
//! [`upstream`](DeviceResource::upstream), each capability taken once (a level that forwards
//! finds the same one as the level below), outermost first — the order in which memory travels
//! back: an outer pool's emptied segments land in the queue of a deferred adaptor below it,
//! which is flushed after.
//!
//! This module touches only the resources it is given.

use super::{CacheControl, Deferral, DeviceResource, PendingStats};
use crate::error::{Error, Result};

/// What each level offers, outermost first, each capability once.
pub(crate) struct Chain<'a> {
    deferrals: Vec<&'a dyn Deferral>,
    caches: Vec<&'a dyn CacheControl>,
}

fn same<T: ?Sized>(a: &T, b: &T) -> bool {
    std::ptr::addr_eq(a as *const T, b as *const T)
}

impl<'a> Chain<'a> {
    /// Walks the chain from `top` down.
    pub(crate) fn of(top: &'a dyn DeviceResource) -> Self {
        let mut chain = Chain {
            deferrals: Vec::new(),
            caches: Vec::new(),
        };
        let mut level = Some(top);
        // A resource that names itself as its own upstream must not loop forever.
        let mut seen = 0usize;
        while let Some(r) = level {
            if let Some(d) = r.deferral() {
                if !chain.deferrals.iter().any(|x| same(*x, d)) {
                    chain.deferrals.push(d);
                }
            }
            if let Some(c) = r.cache() {
                if !chain.caches.iter().any(|x| same(*x, c)) {
                    chain.caches.push(c);
                }
            }
            seen += 1;
            level = if seen < MAX_DEPTH { r.upstream() } else { None };
        }
        chain
    }

    /// Every deferral, outermost first.
    pub(crate) fn deferrals(&self) -> &[&'a dyn Deferral] {
        &self.deferrals
    }

    /// Carries out the held-back releases of every deferral, outermost first.
    pub(crate) fn flush(&self) -> Result<()> {
        let mut failed = Vec::new();
        for d in &self.deferrals {
            collect(d.flush(), &mut failed);
        }
        report(failed)
    }

    /// Held-back releases of every deferral together.
    pub(crate) fn pending(&self) -> PendingStats {
        self.deferrals
            .iter()
            .map(|d| d.pending())
            .fold(PendingStats::default(), |a, p| PendingStats {
                count: a.count + p.count,
                bytes: a.bytes + p.bytes,
            })
    }

    /// Flushes and empties every level, outermost first: what an outer level gives back is in
    /// the inner one before the inner one is flushed and emptied.
    pub(crate) fn empty(&self) -> Result<()> {
        let mut failed = Vec::new();
        collect(self.flush(), &mut failed);
        for c in &self.caches {
            collect(c.empty_cache().map(drop), &mut failed);
            collect(self.flush(), &mut failed);
        }
        report(failed)
    }

    /// Has every cache wait for the streams that own its cached blocks (for an allocation short
    /// of memory); the bytes that became available to every stream.
    pub(crate) fn settle(&self) -> usize {
        self.caches.iter().map(|c| c.settle()).sum()
    }
}

/// Bound on the depth of a chain walked (a cycle of `upstream` links stops here).
const MAX_DEPTH: usize = 64;

fn collect(r: Result<()>, failed: &mut Vec<String>) {
    match r {
        Ok(()) => {}
        Err(Error::DeallocationFailed(v)) => failed.extend(v),
        Err(e) => failed.push(e.to_string()),
    }
}

fn report(failed: Vec<String>) -> Result<()> {
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::DeallocationFailed(failed))
    }
}
