//! A hasher for the pool's integer keys (device addresses, stream keys).
//!
//! SipHash's flooding resistance buys nothing for keys the pool itself produces, and costs on
//! every allocation and free; a multiply-mix of the key is enough. The product's high half is
//! folded into its low half: `hashbrown` picks the bucket from the low bits, and a product's low
//! bits depend only on the key's low bits, which are all zero for 512-byte-aligned addresses
//! (without the fold, 4,096 block addresses fell into 16 buckets).
//!
//! This module touches nothing: it is hashing only.

use std::collections::HashMap as StdHashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-mix hasher for integer keys.
#[derive(Default)]
pub(crate) struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }
}

/// A `HashMap` keyed by integers, hashed with [`IntHasher`].
pub(crate) type IntMap<K, V> = StdHashMap<K, V, BuildHasherDefault<IntHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_keys_spread_and_lookups_work() {
        let mut m: IntMap<u64, u64> = IntMap::default();
        for k in 0..1000u64 {
            m.insert(k << 9, k);
        }
        assert!((0..1000u64).all(|k| m[&(k << 9)] == k));
        let h = |k: u64| {
            let mut h = IntHasher::default();
            h.write_u64(k);
            h.finish()
        };
        assert_ne!(h(512) >> 57, h(1024) >> 57, "high bits depend on the key");
        let buckets: std::collections::HashSet<u64> = (0..4096u64)
            .map(|k| h(0x7f00_0000_0000 + k * 1536) & 8191)
            .collect();
        assert!(
            buckets.len() > 2048,
            "aligned addresses spread over the low bits: {}",
            buckets.len()
        );
    }
}
