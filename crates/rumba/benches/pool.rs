//! RMM's `random_allocations` pattern on the sim: 10,000 operations, 73% allocations of random
//! sizes (up to 1 MiB, and up to 64 MiB) and 27% frees of random live blocks, all on one stream,
//! with live bytes capped (RMM's `max_usage`); pool vs default manager. The figure per
//! iteration is for 10,000 operations (criterion's throughput line gives operations per second).
//! After the pool runs, its fragmentation is printed.
//!
//! The `history` group runs the pool's workload (1 MiB sizes) with the memory history off and on
//! (no backtraces): the recording's cost is the ratio of the two. Measured one after the other,
//! a slow spell of the machine can fall on either; so the group also runs them in turns, batch
//! by batch, and prints the ratio of their totals (`history in turns: on / off = …`).
//!
//! Run: `cargo bench -p rumba --bench pool` (`-- history` for that group alone).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rumba::memory::{
    DefaultManagerFactory, DeviceBlock, DeviceResource, MemoryManagerFactory, PoolResource,
};

const OPS: usize = 10_000;
const MAX_USAGE: usize = 4 << 30;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// One run of the workload; frees everything at the end.
fn random_allocations(mm: &dyn DeviceResource, max_size: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut live: Vec<(DeviceBlock, usize)> = Vec::with_capacity(OPS);
    let mut used = 0usize;
    for _ in 0..OPS {
        let size = 1 + (rng.next() as usize) % max_size;
        let alloc = live.is_empty() || (rng.next() % 100 < 73 && used + size <= MAX_USAGE);
        if alloc {
            let p = mm.allocate_sync(size).expect("allocation in the benchmark");
            live.push((black_box(p), size));
            used += size;
        } else {
            let i = (rng.next() as usize) % live.len();
            let (p, s) = live.swap_remove(i);
            mm.deallocate_sync(p).expect("free in the benchmark");
            used -= s;
        }
    }
    for (p, _) in live {
        mm.deallocate_sync(p).expect("free in the benchmark");
    }
}

fn bench(c: &mut Criterion) {
    let cfg = rumba::Config {
        backend: rumba::config::BackendChoice::Sim,
        sim_memory: Some(64 << 30),
        ..rumba::Config::default()
    };
    rumba::configure(cfg).expect("configure the sim");
    let ctx = rumba::current_context().expect("context");
    let mc = ctx.manager_context();
    let mut group = c.benchmark_group("random_allocations");
    group.throughput(Throughput::Elements(OPS as u64));
    group.sample_size(20);
    for (label, max_size) in [("1MiB", 1usize << 20), ("64MiB", 64 << 20)] {
        let pool = Arc::new(PoolResource::new(&mc).expect("pool"));
        group.bench_with_input(BenchmarkId::new("pool", label), &max_size, |b, &m| {
            let mut seed = 1;
            b.iter(|| {
                seed += 1;
                random_allocations(&*pool, m, seed)
            })
        });
        // Fragmentation with the workload's live blocks still held.
        let mut rng = Rng(7);
        let mut live = Vec::new();
        let mut used = 0;
        for _ in 0..OPS {
            let size = 1 + (rng.next() as usize) % max_size;
            if live.is_empty() || (rng.next() % 100 < 73 && used + size <= MAX_USAGE) {
                live.push((pool.allocate_sync(size).expect("alloc"), size));
                used += size;
            } else {
                let (p, s) = live.swap_remove((rng.next() as usize) % live.len());
                pool.deallocate_sync(p).expect("free");
                used -= s;
            }
        }
        let snap = pool.cache().expect("a cache").snapshot();
        let stats = pool.statistics().expect("stats");
        eprintln!(
            "pool {label}: {} live blocks, {} segments, reserved {} MiB, cached {} MiB, largest free {} KiB, fragmentation {:.1}%, device allocations {}",
            live.len(),
            snap.segments.len(),
            snap.reserved() >> 20,
            snap.cached() >> 20,
            snap.largest_free_block() >> 10,
            snap.fragmentation() * 100.0,
            stats.device_allocations
        );
        for (p, _) in live {
            pool.deallocate_sync(p).expect("free");
        }
        pool.release_cached().expect("empty cache");

        let default = DefaultManagerFactory.create(&mc).expect("default manager");
        let default = default.device_resource();
        group.bench_with_input(BenchmarkId::new("default", label), &max_size, |b, &m| {
            let mut seed = 1;
            b.iter(|| {
                seed += 1;
                random_allocations(&**default, m, seed);
                default.deferral().expect("a queue").flush().expect("flush")
            })
        });
    }
    group.finish();
}

/// The pool's workload with the memory history off, then on (no backtraces); then the two in
/// turns, batch by batch, so that a slow spell of the machine falls on both.
fn history(c: &mut Criterion) {
    use rumba::memory::history::{self, HistoryOptions};
    use std::time::{Duration, Instant};
    let ctx = rumba::current_context().expect("context");
    let pool = Arc::new(PoolResource::new(&ctx.manager_context()).expect("pool"));
    let mut group = c.benchmark_group("history");
    group.throughput(Throughput::Elements(OPS as u64));
    group.sample_size(20);
    for on in [false, true] {
        if on {
            history::start(HistoryOptions::default()).expect("start the history");
        }
        let label = if on { "on" } else { "off" };
        group.bench_function(BenchmarkId::new("pool_1MiB", label), |b| {
            let mut seed = 1;
            b.iter(|| {
                seed += 1;
                random_allocations(&*pool, 1 << 20, seed)
            })
        });
        history::stop();
    }
    // Each sample: a batch with the history off, then one as long with it on (a recording of
    // its own, which fills its 100,000 entries after seven runs). The figure is what the
    // recording adds to a run; the ratio of the totals is printed.
    let (mut off_total, mut on_total) = (Duration::ZERO, Duration::ZERO);
    group.bench_function("pool_1MiB/on_minus_off", |b| {
        let mut seed = 1;
        b.iter_custom(|iters| {
            let mut batch = || {
                let t = Instant::now();
                for _ in 0..iters {
                    seed += 1;
                    random_allocations(&*pool, 1 << 20, seed);
                }
                t.elapsed()
            };
            let off = batch();
            history::start(HistoryOptions::default()).expect("start the history");
            let on = batch();
            history::stop();
            off_total += off;
            on_total += on;
            on.saturating_sub(off)
        })
    });
    group.finish();
    eprintln!(
        "history in turns: on / off = {:.3} ({:.1} ms on, {:.1} ms off)",
        on_total.as_secs_f64() / off_total.as_secs_f64(),
        on_total.as_secs_f64() * 1e3,
        off_total.as_secs_f64() * 1e3
    );
}

criterion_group!(benches, bench, history);
criterion_main!(benches);
