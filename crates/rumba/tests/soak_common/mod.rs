//! The soak workload (issue 14): threads × streams, each moving checksummed data through device
//! arrays — uploads from pageable and pinned memory, device-side assignments and copies, scoped
//! and owned transfers, downloads — while buffers come and go, then checks that descriptors,
//! locked memory and resident memory are back near their baselines. Issue 24 adds a kernel
//! phase: a kernel that faults at a chosen block and thread, whose fault the stream reports
//! (naming them), and then a correct kernel on the same stream whose results are checked.
//!
//! It runs for `RUMBA_SOAK_SECS` seconds (default 3: CI), e.g. `RUMBA_SOAK_SECS=600` for a long
//! run. Each test binary runs it once with its own memory manager.

use std::time::{Duration, Instant};

use ndarray::Array1;
use rumba::Order;
use rumba::kernel::prelude::*;

/// Writes `tag ^ i` to element `i`; thread `bad_thread` of block `bad_block` writes past the end.
#[kernel]
fn tagged(t: &Thread, o: &mut Arr<u64>, tag: u64, bad_block: u32, bad_thread: u32) {
    let i = t.grid1();
    if t.block_idx().x == bad_block && t.thread_idx().x == bad_thread {
        o[o.len() + i] = 1;
    } else if i < o.len() {
        o[i] = tag ^ i as u64;
    }
}

/// What a soak did.
#[derive(Debug, Clone, Copy, Default)]
pub struct Figures {
    /// Bytes whose values were checked.
    pub bytes: usize,
    /// Kernel faults raised, reported with their block and thread, and recovered from.
    pub faults: usize,
}

/// How long to run.
pub fn duration() -> Duration {
    let secs = std::env::var("RUMBA_SOAK_SECS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(3.0);
    Duration::from_secs_f64(secs)
}

/// Open file descriptors of this process.
fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count())
}

/// A `kB` line of `/proc/self/status` (`VmLck`, `VmRSS`), in bytes.
fn status_bytes(key: &str) -> usize {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    text.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// A small deterministic generator (xorshift), one per thread.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A kernel that faults at a chosen block and thread on `s`, the fault reported by the stream's
/// synchronization, then the same kernel without the fault on the same stream; returns the bytes
/// it checked.
fn fault_and_recover(rng: &mut Rng, s: &rumba::Stream, tag: u64) -> usize {
    let blocks = 1 + rng.below(8) as u32;
    let n = blocks as usize * 64;
    let (bad_block, bad_thread) = (rng.below(u64::from(blocks)) as u32, rng.below(64) as u32);
    let d = rumba::device_array::<u64, _>(n, Order::C).unwrap().bind(s);
    tagged()
        .configure(blocks, 64)
        .stream(s)
        .launch((&d, tag, bad_block, bad_thread))
        .unwrap();
    match s.synchronize() {
        Err(rumba::Error::KernelFault {
            kernel,
            block,
            thread,
            ..
        }) => {
            assert_eq!(kernel, "tagged", "tag {tag}");
            assert_eq!(
                (block, thread),
                ([bad_block, 0, 0], [bad_thread, 0, 0]),
                "tag {tag}"
            );
        }
        other => panic!("tag {tag}: expected the kernel's fault, got {other:?}"),
    }
    tagged()
        .configure(blocks, 64)
        .stream(s)
        .launch((&d, tag, u32::MAX, 0))
        .unwrap();
    let back = d.copy_to_host().unwrap();
    assert!(
        back.iter().enumerate().all(|(i, &v)| v == tag ^ i as u64),
        "tag {tag}: the kernel after the fault"
    );
    n * 8
}

/// One round of one thread: returns the number of bytes it checked, and whether a kernel faulted
/// (and the stream recovered).
fn round(rng: &mut Rng, s: &rumba::Stream, tag: u64) -> (usize, bool) {
    if rng.below(16) == 0 {
        return (fault_and_recover(rng, s, tag), true);
    }
    (plain_round(rng, s, tag), false)
}

/// A round of transfers: returns the number of bytes it checked.
fn plain_round(rng: &mut Rng, s: &rumba::Stream, tag: u64) -> usize {
    let n = 1 + rng.below(1 << 16) as usize;
    let data = Array1::from_shape_fn(n, |i| (i as u64).wrapping_mul(2654435761) ^ tag);
    let checked = n * 8;
    match rng.below(4) {
        // Pageable upload on the stream, device copy, synchronous download.
        0 => {
            let d = rumba::to_device_on(&data, s).unwrap();
            let e = rumba::device_array::<u64, _>(n, Order::C).unwrap().bind(s);
            rumba::copy(&e, &d).unwrap();
            drop(d); // the stream holds it until the copy ran
            assert_eq!(e.copy_to_host().unwrap(), data, "tag {tag}");
        }
        // Pinned memory, scoped transfers both ways.
        1 => {
            let mut p = rumba::pinned_array::<u64, _>(n, Order::C).unwrap();
            p.as_slice_memory_order_mut()
                .copy_from_slice(data.as_slice_memory_order().unwrap());
            let d = rumba::device_array::<u64, _>(n, Order::C).unwrap();
            let mut back = rumba::pinned_array::<u64, _>(n, Order::C).unwrap();
            s.auto_synchronize(|scope| -> rumba::Result<()> {
                scope.copy(&d, &p)?;
                scope.copy(&mut back, &d)
            })
            .unwrap();
            assert_eq!(
                back.as_slice_memory_order(),
                data.as_slice_memory_order().unwrap(),
                "tag {tag}"
            );
        }
        // Owned transfers: upload, reversing assignment on the device, download.
        2 => {
            let mut p = rumba::pinned_array::<u64, _>(n, Order::C).unwrap();
            p.as_slice_memory_order_mut()
                .copy_from_slice(data.as_slice_memory_order().unwrap());
            let d = rumba::device_array::<u64, _>(n, Order::C).unwrap();
            let p = s.upload(p, &d).unwrap().wait().unwrap();
            let r = rumba::device_array::<u64, _>(n, Order::C).unwrap();
            r.assign_on(&d.slice(ndarray::s![..;-1]).unwrap(), s)
                .unwrap();
            let back = s.download(&r, p).unwrap().wait().unwrap();
            let want: Vec<u64> = data.iter().rev().copied().collect();
            assert_eq!(back.as_slice_memory_order(), &want[..], "tag {tag}");
        }
        // Many small buffers at once, freed in random order.
        _ => {
            let mut bufs: Vec<_> = (0..16)
                .map(|k| rumba::to_device(&[tag ^ k; 33][..]).unwrap())
                .collect();
            while !bufs.is_empty() {
                let k = rng.below(bufs.len() as u64) as usize;
                let b = bufs.swap_remove(k);
                let v = b.copy_to_host().unwrap();
                assert!(v.iter().all(|&x| x == v[0]), "tag {tag}");
            }
            return 16 * 33 * 8;
        }
    }
    checked
}

/// Runs the soak with `threads` threads for [`duration`]; returns what it did.
pub fn soak(threads: usize) -> Figures {
    let ctx = rumba::current_context().unwrap();
    // Warm up so that lazily created things (workers, staging, pools) are in the baseline.
    let warm = rumba::stream().unwrap();
    let _ = plain_round(&mut Rng(1), &warm, 0);
    let _ = fault_and_recover(&mut Rng(1), &warm, 0);
    rumba::synchronize().unwrap();
    ctx.flush_deallocations().unwrap();
    rumba::empty_cache().unwrap();
    let (fds0, lck0, rss0) = (open_fds(), status_bytes("VmLck:"), status_bytes("VmRSS:"));
    let (free0, _) = ctx.get_memory_info().unwrap();

    let until = Instant::now() + duration();
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            std::thread::spawn(move || {
                let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (t as u64 + 1));
                let s = rumba::stream().unwrap();
                let mut figures = Figures::default();
                let mut tag = (t as u64) << 48;
                while Instant::now() < until {
                    tag += 1;
                    let (bytes, faulted) = round(&mut rng, &s, tag);
                    figures.bytes += bytes;
                    figures.faults += usize::from(faulted);
                }
                s.synchronize().unwrap();
                figures
            })
        })
        .collect();
    let mut figures = Figures::default();
    for w in workers {
        let f = w.join().unwrap();
        figures.bytes += f.bytes;
        figures.faults += f.faults;
    }
    let checked = figures.bytes;
    eprintln!(
        "soak: {threads} threads, {:?}: {} MiB checked, {} kernel faults reported and recovered from",
        duration(),
        checked >> 20,
        figures.faults
    );

    rumba::synchronize().unwrap();
    ctx.flush_deallocations().unwrap();
    rumba::empty_cache().unwrap();
    let (fds1, lck1, rss1) = (open_fds(), status_bytes("VmLck:"), status_bytes("VmRSS:"));
    assert_eq!(
        ctx.get_memory_info().unwrap().0,
        free0,
        "device memory back"
    );
    assert!(fds1 <= fds0 + 2, "descriptors: {fds0} before, {fds1} after");
    assert!(lck1 <= lck0, "locked memory: {lck0} before, {lck1} after");
    assert!(
        rss1 <= rss0 + (256 << 20),
        "resident memory: {rss0} before, {rss1} after"
    );
    eprintln!(
        "soak: back to baseline: device free {free0} bytes; descriptors {fds0} -> {fds1}; locked {lck0} -> {lck1} bytes; resident {} -> {} MiB",
        rss0 >> 20,
        rss1 >> 20
    );
    figures
}
