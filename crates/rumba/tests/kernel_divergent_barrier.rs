//! Issue 24 item 3: a barrier under thread-dependent control never crashes the process. The
//! simulator reports it as a fault naming kernel, block and thread; an OpenCL device cannot (PoCL
//! died with SIGSEGV), so the OpenCL form refuses such a kernel when it is built, naming the
//! barrier's line. CUDA runs it as written (undefined in CUDA C; an H100 completes it), so there
//! the test checks only that nothing crashed. A barrier whose loop bound is a view's length
//! (uniform, though each thread makes its view) still runs everywhere.
//!
//! One test, alone in its binary: the fault is reported at the stream's next synchronization.

mod common;

use ndarray::Array1;
use rumba::config::BackendChoice;
use rumba::kernel::prelude::*;

/// Half of each 64-thread group reaches the barrier.
#[kernel]
fn half_barrier(t: &Thread, out: &mut Arr<u32>) {
    let i = t.grid1();
    if i % 64 < 32 {
        t.syncthreads();
    }
    out[i] = 1;
}

/// A loop around a barrier bounded by the length of a row view of a shared tile.
#[kernel]
fn row_loop_barrier(t: &Thread, out: &mut Arr<u32>) {
    let tid = t.thread_idx().x as usize;
    let s = t.shared_array::<u32>(64);
    let tile = s.reshape((8, 8));
    let row = tile.row(tid / 8);
    row[tid % 8] = tid as u32;
    t.syncthreads();
    let mut acc = 0u32;
    for k in 0..row.len() {
        acc += row[k];
        t.syncthreads();
    }
    out[t.grid1()] = acc;
}

#[test]
fn a_divergent_barrier_is_a_fault_or_a_build_refusal_never_a_crash() {
    common::start(|_| {});
    let s = rumba::stream().unwrap();
    let out = rumba::device_array::<u32, _>(128, rumba::Order::C).unwrap();
    let r = half_barrier()
        .configure(2, 64)
        .stream(&s)
        .launch((&out,))
        .and_then(|()| s.synchronize());
    match common::test_backend() {
        BackendChoice::OpenCl => {
            let e = r.unwrap_err();
            let text = e.to_string();
            assert!(
                text.contains("half_barrier")
                    && text.contains("the barrier at line")
                    && text.contains("thread-dependent control"),
                "expected the OpenCL build to refuse the divergent barrier, got {text}"
            );
        }
        BackendChoice::Cuda => {
            // Undefined in CUDA C; an H100 ran it to the end (the fifth H100 run), and nothing
            // on the device tells rumba. What this test can still check there: no crash, and the
            // stream works afterwards.
            common::not_on(
                &[BackendChoice::Cuda],
                "a_divergent_barrier_is_a_fault_or_a_build_refusal_never_a_crash (its fault)",
                "CUDA runs a divergent barrier as undefined behaviour, with no fault to report",
            );
            assert!(
                matches!(r, Ok(()) | Err(rumba::Error::KernelFault { .. })),
                "a divergent barrier on CUDA ran or faulted, nothing else: {r:?}"
            );
        }
        _ => {
            let (block, thread, message) = common::fault(r);
            assert_eq!(block, [0, 0, 0], "{message}");
            assert!(thread[0] < 64, "{message}");
            assert!(message.contains("barrier"), "{message}");
        }
    }

    // The stream and the device are fine afterwards, and a uniform loop bound taken from a
    // view runs on every backend.
    let mut host = Array1::<u32>::zeros(128);
    row_loop_barrier()
        .configure(2, 64)
        .stream(&s)
        .launch((&mut host,))
        .unwrap();
    let want: Vec<u32> = (0..128u32)
        .map(|g| {
            let row = (g % 64) / 8;
            (0..8).map(|k| row * 8 + k).sum()
        })
        .collect();
    assert_eq!(host.to_vec(), want);
}
