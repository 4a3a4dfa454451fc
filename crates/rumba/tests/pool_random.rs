//! docs/design/behaviour.md §7, pool: a random allocation workload (73% allocations of random
//! sizes, 27% frees of random live blocks, 10,000 steps, two streams). No two live blocks overlap,
//! every block keeps the pattern written into it until it is freed, and the pool's statistics equal
//! an independent count.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use rumba::memory::{
    DefaultManagerFactory, DeviceBlock, DeviceResource, MemoryManagerFactory, StatisticsAdaptor,
};

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| {
        c.memory_manager = rumba::config::ManagerChoice::Pool;
        c.sim_memory = Some(1 << 30);
    });
    common::serial()
}

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Sizes spread over several orders of magnitude (1 byte … 64 KiB).
    fn size(&mut self) -> usize {
        let bits = self.below(17) as u32;
        1 + self.below(1u64 << bits) as usize
    }
}

fn pattern(id: u64, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (id.wrapping_mul(131) as usize + i * 7) as u8)
        .collect()
}

#[derive(Default, Debug, PartialEq)]
struct Count {
    current_bytes: usize,
    peak_bytes: usize,
    total_bytes: u64,
    current_count: usize,
    peak_count: usize,
    total_count: u64,
}

impl Count {
    fn alloc(&mut self, n: usize) {
        self.current_bytes += n;
        self.current_count += 1;
        self.total_bytes += n as u64;
        self.total_count += 1;
        self.peak_bytes = self.peak_bytes.max(self.current_bytes);
        self.peak_count = self.peak_count.max(self.current_count);
    }
    fn free(&mut self, n: usize) {
        self.current_bytes -= n;
        self.current_count -= 1;
    }
}

fn assert_disjoint(live: &BTreeMap<u64, usize>, ptr: u64, len: usize) {
    if let Some((&p, &l)) = live.range(..=ptr).next_back() {
        assert!(
            p + l as u64 <= ptr,
            "block 0x{ptr:x}+{len} overlaps 0x{p:x}+{l}"
        );
    }
    if let Some((&p, &l)) = live.range(ptr..).next() {
        assert!(
            ptr + len as u64 <= p,
            "block 0x{ptr:x}+{len} overlaps 0x{p:x}+{l}"
        );
    }
}

#[test]
fn random_workload_on_two_streams_keeps_blocks_disjoint_and_intact() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    assert_eq!(ctx.memory_manager().name(), "pool");
    let streams = [rumba::stream().unwrap(), rumba::stream().unwrap()];
    let before = rumba::memory_stats().unwrap();

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut live: Vec<(u64, rumba::memory::DeviceBuffer)> = Vec::new();
    let mut ranges: BTreeMap<u64, usize> = BTreeMap::new();
    let mut count = Count::default();
    let mut next_id = 0u64;
    for _ in 0..10_000 {
        if live.is_empty() || rng.below(100) < 73 {
            let size = rng.size();
            let s = &streams[rng.below(2) as usize];
            let buf = s.memalloc(size).unwrap();
            assert_eq!(buf.stream(), s.handle());
            assert_disjoint(&ranges, buf.device_ptr(), size);
            ranges.insert(buf.device_ptr(), size);
            rumba::copy(&buf, &pattern(next_id, size)).unwrap();
            count.alloc(size);
            live.push((next_id, buf));
            next_id += 1;
        } else {
            let (id, buf) = live.swap_remove(rng.below(live.len() as u64) as usize);
            let mut back = vec![0u8; buf.len()];
            rumba::copy(&mut back, &buf).unwrap();
            assert!(back == pattern(id, buf.len()), "block {id} was overwritten");
            ranges.remove(&buf.device_ptr());
            count.free(buf.len());
        }
    }
    for (id, buf) in &live {
        let mut back = vec![0u8; buf.len()];
        rumba::copy(&mut back, buf).unwrap();
        assert!(
            back == pattern(*id, buf.len()),
            "block {id} was overwritten"
        );
    }

    let s = rumba::memory_stats().unwrap();
    let seen = Count {
        current_bytes: s.current_bytes - before.current_bytes,
        peak_bytes: s.peak_bytes - before.current_bytes,
        total_bytes: s.total_bytes - before.total_bytes,
        current_count: s.current_count - before.current_count,
        peak_count: s.peak_count - before.current_count,
        total_count: s.total_count - before.total_count,
    };
    assert_eq!(
        before.total_count, 0,
        "nothing else in this binary uses the pool"
    );
    assert_eq!(seen, count);
    assert_eq!(s.ooms, before.ooms);
    assert!(s.reserved_bytes >= s.current_bytes);
    let snap = rumba::memory_snapshot().unwrap();
    assert_eq!(snap.reserved(), s.reserved_bytes);
    println!("{s}\n{}", snap.to_string().lines().next().unwrap_or(""));

    drop(live);
    for st in &streams {
        st.synchronize().unwrap();
    }
    let after = rumba::memory_stats().unwrap();
    assert_eq!(after.current_bytes, before.current_bytes);
    assert_eq!(after.current_count, before.current_count);
}

#[test]
fn the_statistics_adaptor_matches_an_independent_count() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    let default = DefaultManagerFactory
        .create(&ctx.manager_context())
        .unwrap();
    let mm = StatisticsAdaptor::new(Arc::clone(default.device_resource()));
    let mut rng = Rng(42);
    let mut live: Vec<(DeviceBlock, usize)> = Vec::new();
    let mut count = Count::default();
    for _ in 0..2_000 {
        if live.is_empty() || rng.below(100) < 73 {
            let size = rng.size();
            live.push((mm.allocate_sync(size).unwrap(), size));
            count.alloc(size);
        } else {
            let (p, size) = live.swap_remove(rng.below(live.len() as u64) as usize);
            mm.deallocate_sync(p).unwrap();
            count.free(size);
        }
    }
    let s = mm.statistics().unwrap();
    assert_eq!(
        (s.current_bytes, s.peak_bytes, s.total_bytes),
        (count.current_bytes, count.peak_bytes, count.total_bytes)
    );
    assert_eq!(
        (s.current_count, s.peak_count, s.total_count),
        (count.current_count, count.peak_count, count.total_count)
    );
    for (p, _) in live {
        mm.deallocate_sync(p).unwrap();
    }
    mm.deferral().unwrap().flush().unwrap();
    assert_eq!(mm.statistics().unwrap().current_bytes, 0);
}
