//! The resource chains of a memory history: each distinct chain (the type names of a resource
//! and its upstreams, outermost first) is stored once in a process-wide table, and events carry
//! its index. A resource's chain is walked once — when it first records, or when a context first
//! allocates from it while recording — and its index kept: in the resource ([`ChainCell`]), or
//! in a small per-thread table of the shared resources contexts allocate from ([`served`]). An
//! event then costs no walk of the chain and no search of the table.
//!
//! A resource's chain is taken to be fixed for its life (every resource of this crate fixes its
//! upstream when it is made).
//!
//! This module touches its table and the resources it is given (their names and upstreams).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::memory::DeviceResource;
use crate::sync::lock;

/// The longest resource chain recorded (deeper chains keep their outermost resources).
const MAX_CHAIN: usize = 8;

/// The index of a chain in the table; [`EMPTY`] for an event with no known resource.
pub(super) type ChainId = u16;

/// The empty chain's index.
pub(super) const EMPTY: ChainId = 0;

/// Resource type names, outermost first, without allocating.
#[derive(Clone, Copy)]
pub(super) struct Chain {
    names: [&'static str; MAX_CHAIN],
    len: u8,
}

impl Chain {
    const EMPTY: Chain = Chain {
        names: [""; MAX_CHAIN],
        len: 0,
    };

    /// The same resources: the names are `'static` type names, compared by address.
    fn same(&self, other: &Chain) -> bool {
        self.len == other.len
            && self.names[..self.len as usize]
                .iter()
                .zip(&other.names[..other.len as usize])
                .all(|(a, b)| std::ptr::eq(*a, *b))
    }

    /// `top` and its upstreams.
    fn of(top: &dyn DeviceResource) -> Chain {
        let mut chain = Chain::EMPTY;
        let mut at = Some(top);
        while let Some(r) = at {
            if chain.len as usize == MAX_CHAIN {
                break;
            }
            chain.names[chain.len as usize] = r.name();
            chain.len += 1;
            at = r.upstream();
        }
        chain
    }

    /// The short names, outermost first (what a dump shows).
    pub(super) fn names(&self) -> Vec<String> {
        self.names[..self.len as usize]
            .iter()
            .map(|n| short_name(n).to_string())
            .collect()
    }
}

/// `a::b::Type<c::D>` → `Type<c::D>`: the last path segment before any generics.
pub(crate) fn short_name(full: &str) -> &str {
    let head = full.find('<').map_or(full, |i| &full[..i]);
    match head.rfind("::") {
        Some(i) => &full[i + 2..],
        None => full,
    }
}

/// Every distinct chain seen by this process (few: one per way memory is reached); index 0 is the
/// empty chain. Never shrinks, so an index stays valid across recordings.
static CHAINS: Mutex<Vec<Chain>> = Mutex::new(Vec::new());

/// The index of `top`'s chain, added to the table when new (the empty chain past `u16::MAX`).
#[cold]
#[inline(never)]
fn intern(top: &dyn DeviceResource) -> ChainId {
    // The walk calls the resources' methods: not under the table's lock.
    let chain = Chain::of(top);
    let mut table = lock(&CHAINS);
    if table.is_empty() {
        table.push(Chain::EMPTY);
    }
    if let Some(i) = table.iter().position(|c| c.same(&chain)) {
        return i as ChainId;
    }
    if table.len() > usize::from(ChainId::MAX) {
        return EMPTY;
    }
    table.push(chain);
    (table.len() - 1) as ChainId
}

/// The table as it is now, for a snapshot to name the chains of its events.
pub(super) fn table() -> Vec<Chain> {
    let table = lock(&CHAINS);
    if table.is_empty() {
        vec![Chain::EMPTY]
    } else {
        table.clone()
    }
}

/// A resource's chain index, kept by a resource that records its own events: the chain is walked
/// the first time the resource records and never again.
#[derive(Debug, Default)]
pub(crate) struct ChainCell(
    /// 1 + the index; 0: not walked yet.
    AtomicU32,
);

impl ChainCell {
    /// A cell that has not walked its resource's chain yet.
    pub(crate) const fn new() -> Self {
        ChainCell(AtomicU32::new(0))
    }

    /// A cell that walked its chain to index `id` (for tests that note a pool's events
    /// without a pool).
    #[cfg(test)]
    pub(super) fn walked(id: ChainId) -> Self {
        ChainCell(AtomicU32::new(u32::from(id) + 1))
    }

    /// The index of the chain, when walked already.
    #[inline(always)]
    pub(super) fn known(&self) -> Option<ChainId> {
        let known = self.0.load(Ordering::Relaxed);
        known.checked_sub(1).map(|id| id as ChainId)
    }

    /// The index of `me`'s chain (`me`: the resource holding this cell).
    #[inline(always)]
    pub(super) fn id(&self, me: &dyn DeviceResource) -> ChainId {
        match self.known() {
            Some(id) => id,
            None => {
                let id = intern(me);
                self.0.store(u32::from(id) + 1, Ordering::Relaxed);
                id
            }
        }
    }
}

/// Entries of the per-thread table of [`served`] (the resources a thread allocates from through
/// contexts and managers: usually one or two).
const SERVED: usize = 8;

thread_local! {
    /// Recently served resources and their chains. The `Weak` keeps the resource's allocation
    /// (not the resource) alive, so its address cannot be taken by another resource while the
    /// entry is here: an address that matches is the same resource.
    static SERVED_TABLE: RefCell<ServedTable> = const {
        RefCell::new(ServedTable { entries: Vec::new(), next: 0 })
    };
}

struct ServedTable {
    entries: Vec<(Weak<dyn DeviceResource>, ChainId)>,
    /// The entry replaced next when the table is full.
    next: usize,
}

/// The chain index of `top`, a shared resource a context or manager allocates from or gives back
/// to; walked once per resource and thread while it stays in the thread's table.
pub(super) fn served(top: &Arc<dyn DeviceResource>) -> ChainId {
    let at = Arc::as_ptr(top).cast::<()>();
    let known = SERVED_TABLE
        .try_with(|t| {
            let t = t.borrow();
            t.entries
                .iter()
                .find(|(w, _)| std::ptr::eq(w.as_ptr().cast::<()>(), at))
                .map(|&(_, id)| id)
        })
        .ok()
        .flatten();
    if let Some(id) = known {
        return id;
    }
    let id = intern(&**top);
    let entry = (Arc::downgrade(top), id);
    // Replaced entries are dropped after the borrow: dropping a `Weak` may free an allocation.
    let _old = SERVED_TABLE.try_with(|t| {
        let mut t = t.borrow_mut();
        if t.entries.len() < SERVED {
            t.entries.push(entry);
            None
        } else {
            let at = t.next;
            t.next = (at + 1) % SERVED;
            Some(std::mem::replace(&mut t.entries[at], entry))
        }
    });
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_drop_the_path_but_keep_generics() {
        assert_eq!(
            short_name("rumba::memory::pool::PoolResource"),
            "PoolResource"
        );
        assert_eq!(short_name("a::B<c::D>"), "B<c::D>");
        assert_eq!(short_name("Plain"), "Plain");
    }
}
