//! Issue 24 items 1 and 2: a handle made before `Context::reset` is refused by every operation on
//! every backend (its memory was freed, and may belong to an allocation made since), and a reset
//! is safe while other threads queue work: it waits for the operations being queued, and those
//! that come after it refuse their old handles instead of reading or writing freed memory.
//!
//! Run with `RUMBA_MEMORY_MANAGER=pool` for the pool (the memory manager comes from the
//! environment). Its own process: the resets free every allocation of the context.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};

use ndarray::{Array1, s};
use rumba::kernel::prelude::*;
use rumba::{Error, Order};

#[kernel]
fn store(t: &Thread, o: &mut Arr<u32>, v: u32) {
    let i = t.grid1();
    if i < o.len() {
        o[i] = v;
    }
}

/// A fresh array of `n` elements holding `v`.
fn filled(n: usize, v: u32) -> rumba::DeviceArray<u32, ndarray::Ix1> {
    rumba::to_device(&Array1::from_elem(n, v)).unwrap()
}

fn stale<T: std::fmt::Debug>(what: &str, r: rumba::Result<T>) {
    match r {
        Err(e) => eprintln!("{what}: {e}"),
        other => {
            panic!("{what} on a handle from before the reset: expected StaleHandle, got {other:?}")
        }
    }
}

#[test]
fn every_operation_refuses_a_handle_from_before_a_reset() {
    common::start(|_| {});
    let _serial = common::serial();
    let ctx = rumba::current_context().unwrap();
    let n = 1024;
    let old = filled(n, 7);
    let old_view = old.slice(s![8..]).unwrap();
    let old_buf = ctx.memalloc(4096).unwrap();
    let old_sub = old_buf.view(16..).unwrap();
    let s = rumba::stream().unwrap();
    // Imports made before the reset, of rumba's own memory (through DLPack on every backend, the
    // CUDA Array Interface where there is one).
    let exported = filled(n, 5);
    let dl_before =
        rumba::from_dlpack::<u32, ndarray::Ix1>(exported.to_dlpack(None).unwrap()).unwrap();
    let dl_tensor = exported.to_dlpack(None).unwrap();
    let cai = rumba::backend().unwrap() != rumba::driver::BackendKind::OpenCl;
    let cai_before =
        cai.then(|| rumba::as_cuda_array::<u32, ndarray::Ix1, _>(exported.clone()).unwrap());
    ctx.reset().unwrap();

    // New allocations, likely at the old addresses: none may be touched through old handles.
    let fresh: Vec<_> = (0..64).map(|k| filled(n, 1000 + k)).collect();
    let fresh_buf = ctx.memalloc(4096).unwrap();
    // Smaller ones too, to fill the holes the reset left.
    let filler: Vec<_> = (0..64)
        .map(|k| filled(n >> (1 + k % 6), 2000 + k))
        .collect();
    fresh_buf.memset(0x5a).unwrap();

    stale("fill", old.fill(9));
    stale("fill of a view", old_view.fill(9));
    stale("assign from host", old.assign(3));
    stale("copy_to_host", old.copy_to_host());
    stale("copy_to_host of a view", old_view.copy_to_host());
    stale("copy_to_host_on", old.copy_to_host_on(&s));
    stale(
        "copy from the host",
        rumba::copy(&old, &Array1::from_elem(n, 9u32)),
    );
    stale(
        "copy from the host on a stream",
        s.copy(&old, &Array1::from_elem(n, 9u32)),
    );
    stale("copy into old", rumba::copy(&old, &fresh[0]));
    stale("copy out of old", rumba::copy(&fresh[1], &old));
    stale("assign from an old array", fresh[2].assign(&old));
    stale(
        "assign_on from an old view",
        fresh[3].slice(s![8..]).unwrap().assign_on(&old_view, &s),
    );
    stale("get", old.get(&[0]));
    stale("set", old.set(&[0], 9));
    stale(
        "transpose_copy",
        old.reshape((32, 32), Order::C)
            .unwrap()
            .transpose_copy(None),
    );
    stale(
        "kernel argument",
        store().configure(4, 256).launch((&old, 9u32)),
    );
    stale(
        "kernel argument on a stream",
        store()
            .configure(4, 256)
            .stream(&s)
            .launch((&old_view, 9u32)),
    );
    stale("buffer memset", old_buf.memset(1));
    stale("buffer view memset", old_sub.memset(1));
    stale(
        "buffer copy from the host",
        rumba::copy(&old_buf, &[1; 4096]),
    );
    stale(
        "buffer copy to the host",
        rumba::copy(&mut [0u8; 4096][..], &old_buf),
    );
    stale("buffer copy into old", rumba::copy(&old_buf, &fresh_buf));
    stale("buffer copy out of old", rumba::copy(&fresh_buf, &old_buf));
    stale("Stream::memset", s.memset(&old_buf, 1));
    stale("Stream::copy into old", s.copy(&old_buf, &fresh_buf));
    stale("Stream::copy out of old", s.copy(&fresh_buf, &old_buf));
    stale(
        "a scope's copy to the device",
        s.auto_synchronize(|scope| scope.copy(&old_buf.view(0..16)?, &[1; 16])),
    );
    let mut out = [0u8; 16];
    stale(
        "a scope's copy to the host",
        s.auto_synchronize(|scope| scope.copy(&mut out, &old_buf.view(0..16)?)),
    );
    stale(
        "a scope's array copy",
        s.auto_synchronize(|scope| scope.copy(&fresh[4], &old)),
    );
    let p = rumba::pinned_array::<u32, _>(n, Order::C).unwrap();
    stale("upload", s.upload(p, &old).map(drop).map_err(Error::from));
    let p = rumba::pinned_array::<u32, _>(n, Order::C).unwrap();
    stale(
        "download",
        s.download(&old, p).map(drop).map_err(Error::from),
    );
    stale("an import from before the reset", dl_before.copy_to_host());
    stale("DLPack export", old.to_dlpack(None).map(drop));
    stale(
        "DLPack import of an export from before the reset",
        rumba::from_dlpack::<u32, ndarray::Ix1>(dl_tensor),
    );
    if let Some(cai_before) = &cai_before {
        stale("IPC export", old.get_ipc_handle());
        stale(
            "a CUDA Array Interface import from before the reset",
            cai_before.fill(1),
        );
        stale(
            "CUDA Array Interface description",
            rumba::interop::CudaArray::describe(&old),
        );
        stale(
            "CUDA Array Interface import",
            rumba::as_cuda_array::<u32, ndarray::Ix1, _>(old.clone()),
        );
    }
    s.synchronize().unwrap();

    // Nothing of the new memory was touched, and the old handles still drop cleanly.
    for (k, f) in fresh.iter().enumerate() {
        assert!(
            f.copy_to_host()
                .unwrap()
                .iter()
                .all(|&x| x == 1000 + k as u32),
            "array {k} made after the reset was changed through a handle from before it"
        );
    }
    for (k, f) in filler.iter().enumerate() {
        assert!(
            f.copy_to_host()
                .unwrap()
                .iter()
                .all(|&x| x == 2000 + k as u32)
        );
    }
    let mut back = [0u8; 4096];
    rumba::copy(&mut back, &fresh_buf).unwrap();
    assert!(back.iter().all(|&b| b == 0x5a));
    drop((old, old_view, old_buf, old_sub));
    ctx.flush_deallocations().unwrap();
}

/// Threads queue work (allocations, fills, copies, kernels, downloads) while another thread resets
/// the context again and again: every operation either works on memory that is live for it or is
/// refused with a typed error; nothing crashes and no data is wrong.
#[test]
fn a_reset_is_safe_while_other_threads_queue_work() {
    common::start(|_| {});
    let _serial = common::serial();
    let ctx = rumba::current_context().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let threads = 4;
    let start = Arc::new(Barrier::new(threads + 1));
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            let (stop, start) = (Arc::clone(&stop), Arc::clone(&start));
            std::thread::spawn(move || {
                let s = rumba::stream().unwrap();
                start.wait();
                let (mut ok, mut refused) = (0usize, 0usize);
                let mut k = 0u32;
                while !stop.load(Ordering::Relaxed) {
                    k += 1;
                    let v = (t as u32) << 24 | k;
                    let r = (|| -> rumba::Result<()> {
                        let a = rumba::device_array::<u32, _>(4096, Order::C)?;
                        a.fill(v)?;
                        let b = rumba::device_array::<u32, _>(4096, Order::C)?.bind(&s);
                        rumba::copy(&b, &a)?;
                        store().configure(16, 256).stream(&s).launch((&a, v + 1))?;
                        let back = b.copy_to_host()?;
                        assert!(
                            back.iter().all(|&x| x == v),
                            "thread {t} round {k}: wrong data"
                        );
                        let back = a.copy_to_host_on(&s)?;
                        assert!(
                            back.iter().all(|&x| x == v + 1),
                            "thread {t} round {k}: wrong data"
                        );
                        Ok(())
                    })();
                    match r {
                        Ok(()) => ok += 1,
                        Err(Error::StaleHandle { .. }) => refused += 1,
                        Err(e) => panic!("thread {t} round {k}: {e}"),
                    }
                }
                // A reset may have freed memory under queued work of this stream: its errors are
                // the stale handles' refusals only.
                let _ = s.synchronize();
                (ok, refused)
            })
        })
        .collect();
    start.wait();
    for _ in 0..50 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        let _ = ctx.reset();
    }
    stop.store(true, Ordering::Relaxed);
    let mut total = 0;
    for w in workers {
        let (ok, refused) = w.join().expect("a worker failed");
        total += ok + refused;
    }
    assert!(total > 0);
    ctx.reset().unwrap();
    let a = filled(16, 3);
    assert_eq!(a.copy_to_host().unwrap().to_vec(), vec![3; 16]);
}
