//! The pool's bookkeeping of segments and blocks: good-fit allocation, splitting, and merging
//! with free neighbours. Pure logic — no driver calls — so it is unit-tested on its own.
//!
//! Structure: blocks live in a slab (`Vec<Option<Block>>`, reused slots) and are linked to their
//! address-order neighbours within a segment (`prev` / `next`), so merging on free is O(1) with
//! no search. Free blocks are also indexed per owner in segregated free lists ([`FreeBins`]): a
//! fitting block close to the best fit is found in O(1), and adding or removing one is O(1)
//! and allocates nothing. Live blocks are found by address in a hash map.
//!
//! Ownership: a free block is owned by the stream it was freed on ([`Owner::Stream`], tagged with
//! that stream's free epoch) or by nobody ([`Owner::Global`]: never used, or its stream's work has
//! completed). Two free neighbours merge when they have the same owner or one is global; the
//! result keeps the stream owner and the later epoch, which is conservative: a later epoch is
//! released no earlier than an earlier one. Blocks owned by two different streams never merge.
//!
//! This module touches only its own tables.

use super::bins::{FreeBins, Link};
use super::int_hash::IntMap;
use crate::driver::DevicePtr;

/// Index of a block in the slab.
pub(crate) type BlockId = usize;

/// Who may reuse a free block without waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Owner {
    /// Any stream.
    Global,
    /// Only the stream with this key, until its epoch is released.
    Stream(u64),
}

/// What a block is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Handed out for work on the stream with key `stream`.
    Used { stream: u64, requested: usize },
    /// Released by its user but held back (a `defer_cleanup` guard lives).
    Pending { stream: u64, requested: usize },
    /// Cached.
    Free { owner: Owner, epoch: u64 },
}

#[derive(Debug)]
pub(crate) struct Block {
    pub(crate) ptr: DevicePtr,
    pub(crate) size: usize,
    pub(crate) prev: Option<BlockId>,
    pub(crate) next: Option<BlockId>,
    pub(crate) state: State,
}

/// Segments and blocks of one pool.
#[derive(Default)]
pub(crate) struct Arena {
    blocks: Vec<Option<Block>>,
    /// Free-list links, indexed like `blocks`.
    links: Vec<Link>,
    spare: Vec<BlockId>,
    /// Segment base → (size, first block).
    segments: IntMap<DevicePtr, (usize, BlockId)>,
    global: FreeBins,
    streams: IntMap<u64, FreeBins>,
    /// Used and pending blocks by address.
    live: IntMap<DevicePtr, BlockId>,
    reserved: usize,
    cached: usize,
}

impl Arena {
    pub(crate) fn reserved(&self) -> usize {
        self.reserved
    }

    /// Bytes in free blocks.
    pub(crate) fn cached(&self) -> usize {
        self.cached
    }

    /// Bytes in used and pending blocks.
    pub(crate) fn allocated(&self) -> usize {
        self.reserved - self.cached
    }

    pub(crate) fn largest_free(&self) -> usize {
        self.streams
            .values()
            .chain([&self.global])
            .map(|bins| bins.largest(&self.links))
            .max()
            .unwrap_or(0)
    }

    pub(crate) fn block(&self, id: BlockId) -> Option<&Block> {
        self.blocks.get(id).and_then(Option::as_ref)
    }

    fn block_mut(&mut self, id: BlockId) -> &mut Block {
        // Ids come from our own links and indices, which always name live slots.
        self.blocks[id]
            .as_mut()
            .expect("arena links name live blocks")
    }

    fn new_block(&mut self, b: Block) -> BlockId {
        match self.spare.pop() {
            Some(id) => {
                self.blocks[id] = Some(b);
                id
            }
            None => {
                self.blocks.push(Some(b));
                self.links.push(Link::default());
                self.blocks.len() - 1
            }
        }
    }

    fn drop_block(&mut self, id: BlockId) -> Block {
        let b = self.blocks[id].take().expect("dropping a live block");
        self.spare.push(id);
        b
    }

    fn index(&mut self, id: BlockId) {
        let b = self.blocks[id].as_ref().expect("indexing a live block");
        if let State::Free { owner, .. } = b.state {
            let size = b.size;
            self.cached += size;
            let bins = match owner {
                Owner::Global => &mut self.global,
                Owner::Stream(k) => self.streams.entry(k).or_default(),
            };
            bins.insert(&mut self.links, id, size);
        }
    }

    fn unindex(&mut self, id: BlockId) {
        let b = self.blocks[id].as_ref().expect("unindexing a live block");
        if let State::Free { owner, .. } = b.state {
            self.cached -= b.size;
            let bins = match owner {
                Owner::Global => &mut self.global,
                Owner::Stream(k) => self
                    .streams
                    .get_mut(&k)
                    .expect("a free block's owner has free lists"),
            };
            bins.remove(&mut self.links, id);
        }
    }

    /// Adds a segment as one global free block.
    pub(crate) fn add_segment(&mut self, ptr: DevicePtr, size: usize) {
        let id = self.new_block(Block {
            ptr,
            size,
            prev: None,
            next: None,
            state: State::Free {
                owner: Owner::Global,
                epoch: 0,
            },
        });
        self.segments.insert(ptr, (size, id));
        self.reserved += size;
        self.index(id);
    }

    /// Takes a fitting free block of `owner` for `size` bytes (a multiple of the granule; close
    /// to the smallest fitting block, see [`FreeBins::find`]), splitting off the rest; marks it used on
    /// `stream`. Returns its address.
    pub(crate) fn take(
        &mut self,
        owner: Owner,
        size: usize,
        stream: u64,
        requested: usize,
    ) -> Option<DevicePtr> {
        let bins = match owner {
            Owner::Global => &self.global,
            Owner::Stream(k) => self.streams.get(&k)?,
        };
        let id = bins.find(&self.links, size)?;
        self.unindex(id);
        let Block {
            ptr: bptr,
            size: bsize,
            next,
            state,
            ..
        } = *self.block_mut(id);
        if bsize > size {
            let rest = self.new_block(Block {
                ptr: bptr + size as u64,
                size: bsize - size,
                prev: Some(id),
                next,
                state,
            });
            if let Some(n) = next {
                self.block_mut(n).prev = Some(rest);
            }
            let b = self.block_mut(id);
            b.next = Some(rest);
            b.size = size;
            self.index(rest);
        }
        self.block_mut(id).state = State::Used { stream, requested };
        self.live.insert(bptr, id);
        Some(bptr)
    }
    /// The live (used or pending) block at `ptr`.
    pub(crate) fn live(&self, ptr: DevicePtr) -> Option<BlockId> {
        self.live.get(&ptr).copied()
    }

    /// Marks a used block pending (held back by `defer_cleanup`). Returns its requested size.
    pub(crate) fn hold(&mut self, id: BlockId) -> Option<usize> {
        let b = self.blocks.get_mut(id)?.as_mut()?;
        match b.state {
            State::Used { stream, requested } => {
                b.state = State::Pending { stream, requested };
                Some(requested)
            }
            _ => None,
        }
    }

    /// Frees the live block `id` into `owner`'s cache with `epoch`, merging with free neighbours.
    /// Returns the requested size it had.
    pub(crate) fn release(&mut self, id: BlockId, owner: Owner, epoch: u64) -> Option<usize> {
        let b = self.blocks.get_mut(id)?.as_mut()?;
        let requested = match b.state {
            State::Used { requested, .. } | State::Pending { requested, .. } => requested,
            State::Free { .. } => return None,
        };
        self.live.remove(&b.ptr);
        b.state = State::Free { owner, epoch };
        self.merge(id);
        Some(requested)
    }

    /// Merges free block `id` (not yet indexed) with its compatible free neighbours and indexes
    /// the result.
    fn merge(&mut self, mut id: BlockId) {
        if let Some(p) = self.block_mut(id).prev {
            if let Some(state) = merged_state(self.block_mut(p).state, self.block_mut(id).state) {
                self.unindex(p);
                self.join(p, id, state);
                id = p;
            }
        }
        if let Some(n) = self.block_mut(id).next {
            if let Some(state) = merged_state(self.block_mut(id).state, self.block_mut(n).state) {
                self.unindex(n);
                self.join(id, n, state);
            }
        }
        self.index(id);
    }

    /// Joins block `right` (neither indexed) onto its left neighbour `left`, which takes `state`.
    fn join(&mut self, left: BlockId, right: BlockId, state: State) {
        let gone = self.drop_block(right);
        let b = self.block_mut(left);
        b.size += gone.size;
        b.next = gone.next;
        b.state = state;
        if let Some(n) = gone.next {
            self.block_mut(n).prev = Some(left);
        }
    }

    /// Stream keys that own free blocks.
    pub(crate) fn owning_streams(&self) -> Vec<u64> {
        self.streams
            .iter()
            .filter_map(|(&k, bins)| (!bins.is_empty()).then_some(k))
            .collect()
    }

    /// Makes every free block of stream `key` with an epoch `<= upto` global (merging it with
    /// free neighbours). Returns the bytes released.
    pub(crate) fn promote(&mut self, key: u64, upto: u64) -> usize {
        let Some(bins) = self.streams.get(&key) else {
            return 0;
        };
        let ids = bins.ids(&self.links);
        let mut bytes = 0;
        for id in ids {
            let eligible = matches!(
                self.block(id).map(|b| b.state),
                Some(State::Free { owner: Owner::Stream(k), epoch }) if k == key && epoch <= upto
            );
            if eligible {
                self.unindex(id);
                let b = self.block_mut(id);
                bytes += b.size;
                b.state = State::Free {
                    owner: Owner::Global,
                    epoch: 0,
                };
                self.merge(id);
            }
        }
        bytes
    }

    /// Removes every segment that is one global free block (a segment still owned by a stream may
    /// have queued work on it); returns their `(address, size)`.
    pub(crate) fn take_free_segments(&mut self) -> Vec<(DevicePtr, usize)> {
        let whole: Vec<(DevicePtr, usize, BlockId)> = self
            .segments
            .iter()
            .filter(|(_, (size, first))| {
                self.block(*first).is_some_and(|b| {
                    b.size == *size
                        && b.next.is_none()
                        && matches!(
                            b.state,
                            State::Free {
                                owner: Owner::Global,
                                ..
                            }
                        )
                })
            })
            .map(|(&p, &(s, f))| (p, s, f))
            .collect();
        for &(p, s, f) in &whole {
            self.unindex(f);
            self.drop_block(f);
            self.segments.remove(&p);
            self.reserved -= s;
        }
        // Forget the free lists of streams that hold nothing (streams come and go).
        self.streams.retain(|_, bins| !bins.is_empty());
        whole.into_iter().map(|(p, s, _)| (p, s)).collect()
    }

    /// Forgets everything; returns every segment `(address, size)`.
    pub(crate) fn clear(&mut self) -> Vec<(DevicePtr, usize)> {
        let segs = self.segments.iter().map(|(&p, &(s, _))| (p, s)).collect();
        *self = Arena::default();
        segs
    }

    /// The segment `(start, size)` that holds `[ptr, ptr + bytes)`, if one does.
    pub(crate) fn segment_of(&self, ptr: DevicePtr, bytes: usize) -> Option<(DevicePtr, usize)> {
        self.segments
            .iter()
            .map(|(&p, &(size, _))| (p, size))
            .find(|&(p, size)| {
                ptr.checked_sub(p)
                    .and_then(|off| off.checked_add(u64::try_from(bytes).ok()?))
                    .is_some_and(|end| end <= size as u64)
            })
    }

    /// Segments in address order, each with its blocks in address order.
    pub(crate) fn walk(&self) -> Vec<(DevicePtr, usize, Vec<&Block>)> {
        let mut segs: Vec<_> = self.segments.iter().collect();
        segs.sort_by_key(|(p, _)| **p);
        segs.into_iter()
            .map(|(&p, &(size, first))| {
                let mut blocks = Vec::new();
                let mut cur = Some(first);
                while let Some(id) = cur {
                    let Some(b) = self.block(id) else { break };
                    blocks.push(b);
                    cur = b.next;
                }
                (p, size, blocks)
            })
            .collect()
    }
}

/// The state of two adjacent blocks merged, if they may merge.
fn merged_state(a: State, b: State) -> Option<State> {
    match (a, b) {
        (
            State::Free {
                owner: oa,
                epoch: ea,
            },
            State::Free {
                owner: ob,
                epoch: eb,
            },
        ) => {
            let owner = match (oa, ob) {
                (Owner::Global, o) | (o, Owner::Global) => o,
                (Owner::Stream(x), Owner::Stream(y)) if x == y => oa,
                _ => return None,
            };
            Some(State::Free {
                owner,
                epoch: ea.max(eb),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Owner = Owner::Global;

    fn check(a: &Arena) {
        for (p, size, blocks) in a.walk() {
            let mut at = p;
            for b in &blocks {
                assert_eq!(b.ptr, at, "blocks tile the segment");
                at += b.size as u64;
            }
            assert_eq!(at, p + size as u64);
            for w in blocks.windows(2) {
                assert!(
                    merged_state(w[0].state, w[1].state).is_none(),
                    "mergeable neighbours left apart: {:?} {:?}",
                    w[0].state,
                    w[1].state
                );
            }
        }
    }

    #[test]
    fn split_then_merge_restores_one_block() {
        let mut a = Arena::default();
        a.add_segment(0x1000, 4096);
        let x = a.take(G, 1024, 1, 1000).unwrap();
        let y = a.take(G, 1024, 1, 1024).unwrap();
        assert_eq!((x, y), (0x1000, 0x1400));
        assert_eq!((a.allocated(), a.cached()), (2048, 2048));
        check(&a);
        let yid = a.live(y).unwrap();
        assert_eq!(a.release(yid, Owner::Stream(1), 0), Some(1024));
        check(&a);
        let xid = a.live(x).unwrap();
        a.release(xid, Owner::Stream(1), 1);
        check(&a);
        assert_eq!(a.walk()[0].2.len(), 1, "merged back into one block");
        assert_eq!(a.largest_free(), 4096);
        assert!(a.take(G, 512, 2, 512).is_none(), "owned by stream 1");
        assert_eq!(a.promote(1, 0), 0, "epoch 1 is not released yet");
        assert_eq!(a.promote(1, 1), 4096);
        assert!(a.take(G, 512, 2, 512).is_some());
    }

    #[test]
    fn different_streams_never_merge_and_best_fit_wins() {
        let mut a = Arena::default();
        a.add_segment(0, 3 * 512);
        let p: Vec<_> = (0..3).map(|_| a.take(G, 512, 0, 512).unwrap()).collect();
        let id0 = a.live(p[0]).unwrap();
        let id1 = a.live(p[1]).unwrap();
        a.release(id0, Owner::Stream(1), 0);
        a.release(id1, Owner::Stream(2), 0);
        check(&a);
        assert_eq!(a.walk()[0].2.len(), 3);
        assert_eq!(a.take(Owner::Stream(2), 512, 2, 1), Some(p[1]));
        assert_eq!(a.take_free_segments(), vec![]);
    }

    #[test]
    fn whole_free_segments_are_returned() {
        let mut a = Arena::default();
        a.add_segment(0, 1024);
        a.add_segment(4096, 1024);
        let p = a.take(G, 1024, 0, 1).unwrap();
        let mut segs = a.take_free_segments();
        segs.sort();
        assert_eq!(segs.len(), 1);
        assert_ne!(segs[0].0, p);
        assert_eq!(a.reserved(), 1024);
        let id = a.live(p).unwrap();
        a.hold(id);
        assert_eq!(a.cached(), 0);
        a.release(id, G, 0);
        assert_eq!(a.take_free_segments(), vec![(p, 1024)]);
        assert_eq!((a.reserved(), a.cached()), (0, 0));
    }

    #[test]
    fn promoted_streams_drop_their_free_lists_when_segments_go_back() {
        let mut a = Arena::default();
        a.add_segment(0, 64 << 10);
        let p: Vec<_> = (0..4).map(|_| a.take(G, 8 << 10, 0, 1).unwrap()).collect();
        for (i, &ptr) in p.iter().enumerate() {
            let id = a.live(ptr).unwrap();
            a.release(id, Owner::Stream(3), i as u64);
        }
        check(&a);
        assert_eq!(a.owning_streams(), vec![3]);
        assert_eq!(
            a.largest_free(),
            64 << 10,
            "all merged into the stream's block"
        );
        assert!(
            a.take_free_segments().is_empty(),
            "stream-owned: not returned"
        );
        assert_eq!(a.promote(3, 3), 64 << 10);
        assert_eq!(a.owning_streams(), Vec::<u64>::new());
        assert_eq!(a.take_free_segments(), vec![(0, 64 << 10)]);
        assert!(a.streams.is_empty(), "empty free lists are forgotten");
        assert_eq!(a.largest_free(), 0);
    }
}
