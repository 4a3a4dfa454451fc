//! The free-block index of one owner: segregated free lists by size class, found through a
//! two-level bitmap (the TLSF scheme), so finding, adding and removing a free block are O(1).
//!
//! Size classes: a size counts in granules (`size >> GRANULE_SHIFT`). Below 64 granules (32 KiB)
//! every granule count is its own class; above, every power of two is split into 32 classes, so a
//! class spans at most 1/32 (3%) of its sizes. A first-level bitmap says which powers of two hold
//! a non-empty class, a second-level bitmap per power of two which of its classes are non-empty.
//!
//! Finding a block for `n` granules: first up to [`SCAN`] blocks of `n`'s own class are looked at
//! for the smallest that fits (a block there may be smaller than `n`); else the first non-empty
//! class whose *smallest* size is at least `n` gives its most recently freed block, which fits
//! without looking. The choice is at most one class (3%) above the best fit (unless more than
//! [`SCAN`] blocks of the own class were passed over), and the rest of the block is split off
//! and stays free, so nothing is wasted.
//!
//! The lists are intrusive: their links live in a [`Link`] table indexed by block id, which the
//! arena keeps beside its blocks, so adding a block allocates nothing.
//!
//! This module touches only the tables it is given: pure logic, unit-tested on its own.

use super::GRANULE;

/// Block ids in the link table; `NIL` ends a list.
const NIL: u32 = u32::MAX;
const GRANULE_SHIFT: u32 = GRANULE.trailing_zeros();
/// Classes per power of two (log2).
const SL_BITS: u32 = 5;
const SL: usize = 1 << SL_BITS;
/// Powers of two covered (first-level classes).
const FL: usize = 64;
/// Blocks of the request's own class looked at for a better fit.
const SCAN: usize = 16;

/// A free block's place in its list, and its size when it was added.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Link {
    prev: u32,
    next: u32,
    size: usize,
}

impl Default for Link {
    fn default() -> Self {
        Link {
            prev: NIL,
            next: NIL,
            size: 0,
        }
    }
}

/// The class holding blocks of `size` bytes.
fn class_of(size: usize) -> usize {
    let n = size >> GRANULE_SHIFT;
    if n < 2 * SL {
        return n;
    }
    let log = usize::BITS - 1 - n.leading_zeros();
    let first = (log - SL_BITS + 1) as usize;
    let second = (n >> (log - SL_BITS)) & (SL - 1);
    first * SL + second
}

/// The first class whose every block has at least `size` bytes (`size`: a granule multiple).
fn class_at_least(size: usize) -> usize {
    let n = size >> GRANULE_SHIFT;
    if n < 2 * SL {
        return n;
    }
    let log = usize::BITS - 1 - n.leading_zeros();
    let step = 1usize << (log - SL_BITS);
    let up = n.saturating_add(step - 1) & !(step - 1);
    class_of(up.saturating_mul(GRANULE).max(size))
}

fn id32(id: usize) -> u32 {
    u32::try_from(id)
        .ok()
        .filter(|&i| i != NIL)
        .expect("fewer than 2^32 blocks")
}

/// Free blocks of one owner, by size class.
pub(crate) struct FreeBins {
    first: u64,
    second: [u32; FL],
    heads: Box<[u32]>,
    count: usize,
}

impl Default for FreeBins {
    fn default() -> Self {
        FreeBins {
            first: 0,
            second: [0; FL],
            heads: vec![NIL; FL * SL].into_boxed_slice(),
            count: 0,
        }
    }
}

impl FreeBins {
    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Adds free block `id` of `size` bytes (as the first of its class).
    pub(crate) fn insert(&mut self, links: &mut [Link], id: usize, size: usize) {
        let c = class_of(size);
        let head = self.heads[c];
        let me = id32(id);
        links[id] = Link {
            prev: NIL,
            next: head,
            size,
        };
        if head != NIL {
            links[head as usize].prev = me;
        }
        self.heads[c] = me;
        self.first |= 1 << (c / SL);
        self.second[c / SL] |= 1 << (c % SL);
        self.count += 1;
    }

    /// Removes free block `id` (which must be held here).
    pub(crate) fn remove(&mut self, links: &mut [Link], id: usize) {
        let Link { prev, next, size } = links[id];
        if prev == NIL {
            let c = class_of(size);
            self.heads[c] = next;
            if next == NIL {
                self.second[c / SL] &= !(1 << (c % SL));
                if self.second[c / SL] == 0 {
                    self.first &= !(1 << (c / SL));
                }
            }
        } else {
            links[prev as usize].next = next;
        }
        if next != NIL {
            links[next as usize].prev = prev;
        }
        links[id] = Link::default();
        self.count -= 1;
    }

    /// A free block of at least `size` bytes (a granule multiple), close to the smallest.
    pub(crate) fn find(&self, links: &[Link], size: usize) -> Option<usize> {
        let own = class_of(size);
        let start = class_at_least(size);
        if own != start {
            let mut best: Option<(usize, usize)> = None;
            let mut cur = self.heads[own];
            for _ in 0..SCAN {
                if cur == NIL {
                    break;
                }
                let l = links[cur as usize];
                if l.size >= size && best.is_none_or(|(s, _)| l.size < s) {
                    best = Some((l.size, cur as usize));
                    if l.size == size {
                        break;
                    }
                }
                cur = l.next;
            }
            if let Some((_, id)) = best {
                return Some(id);
            }
        }
        let c = self.first_class_from(start)?;
        Some(self.heads[c] as usize)
    }

    /// The first non-empty class at or above `c`.
    fn first_class_from(&self, c: usize) -> Option<usize> {
        let (f, s) = (c / SL, c % SL);
        if f >= FL {
            return None;
        }
        let here = self.second[f] & (u32::MAX << s);
        if here != 0 {
            return Some(f * SL + here.trailing_zeros() as usize);
        }
        let above = if f + 1 >= FL {
            0
        } else {
            self.first & (u64::MAX << (f + 1))
        };
        if above == 0 {
            return None;
        }
        let f = above.trailing_zeros() as usize;
        Some(f * SL + self.second[f].trailing_zeros() as usize)
    }

    /// Every block held, class by class.
    pub(crate) fn ids(&self, links: &[Link]) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.count);
        let mut c = 0;
        while let Some(found) = self.first_class_from(c) {
            let mut cur = self.heads[found];
            while cur != NIL {
                out.push(cur as usize);
                cur = links[cur as usize].next;
            }
            c = found + 1;
        }
        out
    }

    /// The size of the largest block held (0 if none).
    pub(crate) fn largest(&self, links: &[Link]) -> usize {
        if self.first == 0 {
            return 0;
        }
        let f = (u64::BITS - 1 - self.first.leading_zeros()) as usize;
        let c = f * SL + (u32::BITS - 1 - self.second[f].leading_zeros()) as usize;
        let mut cur = self.heads[c];
        let mut max = 0;
        while cur != NIL {
            max = max.max(links[cur as usize].size);
            cur = links[cur as usize].next;
        }
        max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: usize = GRANULE;

    #[test]
    fn classes_are_monotone_and_tight() {
        let mut last = 0;
        for n in 1..200_000usize {
            let c = class_of(n * K);
            assert!(c >= last && c < FL * SL, "class of {n} granules");
            last = c;
            let at_least = class_at_least(n * K);
            assert!(at_least == c || at_least == c + 1);
            // Every size in the class found for n granules is at least n granules.
            assert!(class_of((n - 1) * K) < at_least);
        }
        assert_eq!(class_of(63 * K), 63);
        assert_eq!(class_of(64 * K), class_of(65 * K));
        assert_eq!(class_at_least(65 * K), class_of(65 * K) + 1);
        assert!(class_of(usize::MAX) < FL * SL);
        assert!(class_at_least(usize::MAX & !(K - 1)) < FL * SL);
    }

    #[test]
    fn find_returns_a_fitting_block_close_to_the_smallest() {
        let mut links = vec![Link::default(); 8];
        let mut bins = FreeBins::default();
        for (id, granules) in [(0, 100), (1, 4000), (2, 66), (3, 65), (4, 70)] {
            bins.insert(&mut links, id, granules * K);
        }
        assert_eq!(bins.count, 5);
        assert_eq!(
            bins.find(&links, 65 * K),
            Some(3),
            "exact fit in its own class"
        );
        assert_eq!(bins.find(&links, 67 * K), Some(4));
        assert_eq!(bins.find(&links, 101 * K), Some(1));
        assert_eq!(bins.find(&links, 4001 * K), None);
        assert_eq!(bins.largest(&links), 4000 * K);
        bins.remove(&mut links, 1);
        assert_eq!(bins.find(&links, 101 * K), None);
        assert_eq!(bins.largest(&links), 100 * K);
        let mut ids = bins.ids(&links);
        ids.sort();
        assert_eq!(ids, vec![0, 2, 3, 4]);
        for id in ids {
            bins.remove(&mut links, id);
        }
        assert!(bins.is_empty());
        assert_eq!((bins.first, bins.find(&links, K)), (0, None));
    }
}
