//! Kernel checks (docs/design/behaviour.md §5): shared, dynamic shared, local and constant memory,
//! barriers with values, atomics on global and shared memory, strided array arguments, automatic
//! transfers of host arrays, and an out-of-bounds store caught by the generated bounds check.
//!
//! Every kernel of the self-test is a `#[rumba::kernel]` ([`crate::kernels`]; the tree reduction
//! is the bench's `reduce_shared`): one Rust source that the simulator runs as Rust, the CUDA
//! backend as the CUDA C the macro generates and the OpenCL backend as its OpenCL C. A backend
//! that cannot run a kernel makes its check fail with the launch's error — it is never skipped.
//!
//! This module touches the current backend through rumba's public API only.

use ndarray::{Array1, Array2, s};
use rumba::driver::BackendKind;
use rumba::{In, InOut, Order, Out};

use super::{Check, Outcome, pass};
use crate::bench::kernels::reduce_shared;
use crate::kernels::{
    LOCAL_LEN, oob, st_atomics, st_barrier_values, st_cas_max, st_const, st_dyn_reverse, st_local,
    st_strided,
};
use crate::{ensure, ensure_eq};

/// The checks of this module, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check {
            name: "kernel.shared-barriers",
            about: "a 256-thread shared-memory tree reduction with 9 barriers per block, 4096 blocks",
            run: shared_barriers,
        },
        Check {
            name: "kernel.dynamic-shared",
            about: "dynamic shared memory sized at launch: each block reverses its slice",
            run: dynamic_shared,
        },
        Check {
            name: "kernel.local",
            about: "a private local array per thread, read back in a thread-dependent order",
            run: local,
        },
        Check {
            name: "kernel.const",
            about: "a constant table (&ConstArr) from const_array_like, copied at definition (later host changes unseen)",
            run: constant,
        },
        Check {
            name: "kernel.barrier-values",
            about: "syncthreads_count / _and / _or give every thread its block's result",
            run: barrier_values,
        },
        Check {
            name: "kernel.atomics",
            about: "add / max / min / or / inc on global memory from 262,144 threads, a shared-memory histogram, a CAS loop",
            run: atomics,
        },
        Check {
            name: "kernel.strided-args",
            about: "array arguments that are sliced, reversed and transposed views are indexed through their strides",
            run: strided_args,
        },
        Check {
            name: "kernel.host-args",
            about: "host arrays passed to a launch are copied in and back as In / Out / InOut say",
            run: host_args,
        },
        Check {
            name: "kernel.fault",
            about: "an out-of-bounds store is skipped (the memory after the array is untouched) and reported at synchronization naming kernel, block and thread; the stream works on",
            run: fault,
        },
    ]
}

/// What `st_local` computes for thread `i`, in the kernel's order.
fn local_expected(i: usize) -> f64 {
    (0..LOCAL_LEN)
        .map(|k| (i + (5 * k + i % LOCAL_LEN) % LOCAL_LEN) as f64 * (k + 1) as f64)
        .sum()
}

// ------------------------------------------------------------------------------------------------
// The checks

fn shared_barriers() -> Outcome {
    let n = 4096 * 256;
    let x: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let dx = rumba::to_device(&x)?;
    let partial = rumba::device_array::<f32, _>(n / 256, Order::C)?;
    reduce_shared()
        .configure((n / 256) as u32, 256)
        .launch((&dx, &partial))?;
    let got = partial.copy_to_host()?;
    for (b, chunk) in x.chunks(256).enumerate() {
        let want: f32 = chunk.iter().sum();
        ensure_eq!(got[b], want, format!("partial sum of block {b}"));
    }
    pass(format!("{} block sums exact", n / 256))
}

fn dynamic_shared() -> Outcome {
    let (blocks, threads) = (64usize, 128usize);
    let a = Array1::from_iter(0..(blocks * threads) as i32);
    let da = rumba::to_device(&a)?;
    let out = rumba::device_array::<i32, _>(blocks * threads, Order::C)?;
    st_dyn_reverse()
        .configure(blocks as u32, threads as u32)
        .dynamic_shared_bytes(threads * 4)
        .launch((&da, &out))?;
    let got = out.copy_to_host()?;
    for i in 0..blocks * threads {
        let (b, t) = (i / threads, i % threads);
        ensure_eq!(
            got[i],
            (b * threads + threads - 1 - t) as i32,
            format!("element {i}")
        );
    }
    pass(format!("{blocks} blocks of {threads} reversed"))
}

fn local() -> Outcome {
    let n = 10_000;
    let out = rumba::device_array::<f64, _>(n, Order::C)?;
    st_local()
        .configure(n.div_ceil(128) as u32, 128)
        .launch((&out,))?;
    let got = out.copy_to_host()?;
    for (i, &v) in got.iter().enumerate() {
        ensure_eq!(v, local_expected(i), format!("thread {i}"));
    }
    pass(format!("{n} threads, 16 local doubles each"))
}

fn constant() -> Outcome {
    let mut host = Array1::from_iter((0..64).map(|i| i as f32 * 0.5 - 3.0));
    let lut = rumba::const_array_like(&host)?;
    host.fill(1000.0); // a later change on the host is not seen by the kernel
    let n = 1000;
    let out = rumba::device_array::<f32, _>(n, Order::C)?;
    st_const()
        .configure(n.div_ceil(256) as u32, 256)
        .launch((&lut, &out))?;
    let got = out.copy_to_host()?;
    for (i, &v) in got.iter().enumerate() {
        let want = ((i % 64) as f32 * 0.5 - 3.0) * 2.0 + i as f32;
        ensure_eq!(v, want, format!("element {i}"));
    }
    pass("64-entry table read by 1000 threads")
}

fn barrier_values() -> Outcome {
    let (blocks, threads) = (3usize, 96usize);
    let n = blocks * threads;
    // Block 0: all true; block 1: two false; block 2: all false.
    let pred = Array1::from_iter((0..n).map(|i| match i / threads {
        0 => 1 + (i % 3) as i32,
        1 => i32::from(i % threads != 31 && i % threads != 80),
        _ => 0,
    }));
    let dp = rumba::to_device(&pred)?;
    let outs = [
        rumba::device_array::<i32, _>(n, Order::C)?,
        rumba::device_array::<i32, _>(n, Order::C)?,
        rumba::device_array::<i32, _>(n, Order::C)?,
    ];
    st_barrier_values()
        .configure(blocks as u32, threads as u32)
        .launch((&dp, &outs[0], &outs[1], &outs[2]))?;
    let (count, all, any) = (
        outs[0].copy_to_host()?,
        outs[1].copy_to_host()?,
        outs[2].copy_to_host()?,
    );
    let want = [(96, 1, 1), (94, 0, 1), (0, 0, 0)];
    for i in 0..n {
        let b = i / threads;
        ensure_eq!(
            (count[i], all[i], any[i]),
            want[b],
            format!("(count, and, or) seen by thread {i} of block {b}")
        );
    }
    pass("3 blocks: all, two false, none")
}

fn atomics() -> Outcome {
    let (blocks, threads) = (1024usize, 256usize);
    let n = blocks * threads;
    let sum = rumba::to_device(&[0u64])?;
    let minmax = rumba::to_device(&[i32::MIN, i32::MAX])?;
    let fsum = rumba::to_device(&[0.0f32])?;
    let bits = rumba::to_device(&[0u32, 0])?;
    let hist = rumba::to_device(&[0u32; 16])?;
    st_atomics()
        .configure(blocks as u32, threads as u32)
        .launch((&sum, &minmax, &fsum, &bits, &hist))?;
    ensure_eq!(
        sum.copy_to_host()?[0],
        (n as u64 - 1) * n as u64 / 2,
        "atomic add (u64)"
    );
    ensure_eq!(
        minmax.copy_to_host()?.to_vec(),
        vec![n as i32 - 1, -(n as i32 - 1)],
        "atomic max / min (i32)"
    );
    ensure_eq!(fsum.copy_to_host()?[0], n as f32 * 0.5, "atomic add (f32)");
    ensure_eq!(
        bits.copy_to_host()?.to_vec(),
        vec![u32::MAX, n as u32],
        "atomic or / inc (u32)"
    );
    ensure_eq!(
        hist.copy_to_host()?.to_vec(),
        vec![(n / 16) as u32; 16],
        "shared-memory histogram"
    );
    let values = Array1::from_iter((0..4096i32).map(|i| (i * 7919) % 4096 - 100));
    let res = rumba::to_device(&[i32::MIN])?;
    st_cas_max()
        .configure(16, 256)
        .launch((&res, &rumba::to_device(&values)?))?;
    ensure_eq!(res.copy_to_host()?[0], 3995, "CAS-loop maximum");
    pass(format!("{n} threads; exact totals"))
}

fn strided_args() -> Outcome {
    let host = Array2::from_shape_fn((40, 50), |(i, j)| (i * 50 + j) as f32);
    let d = rumba::to_device(&host)?;
    let out = rumba::device_array::<f32, _>((40, 50), Order::C)?;
    out.fill(-1.0)?;
    let k = st_strided();
    let cases = [
        (s![1..;2, ..;3], "every other row, every third column"),
        (s![..;-1, 10..20], "reversed rows"),
        (s![5..25, ..;-2], "reversed columns"),
    ];
    for (info, what) in cases {
        let a = d.slice(info)?;
        let b = out.slice(info)?;
        let (rows, cols) = (b.shape()[0], b.shape()[1]);
        k.configure(
            (cols.div_ceil(16) as u32, rows.div_ceil(16) as u32),
            (16, 16),
        )
        .launch((&a, &b))?;
        // Read the result back through a packed copy (negative strides cannot go to the host).
        let packed = rumba::device_array_like(&b)?;
        packed.assign(&b)?;
        let got = packed.copy_to_host()?;
        let want = host.slice(info).mapv(|v| 2.0 * v + 1.0);
        ensure!(got == want, "{what}: wrong elements");
    }
    let t = d.t();
    let tout = rumba::device_array::<f32, _>((50, 40), Order::C)?;
    k.configure((3, 4), (16, 16)).launch((&t, &tout))?;
    ensure!(
        tout.copy_to_host()? == host.t().mapv(|v| 2.0 * v + 1.0),
        "a transposed view"
    );
    let untouched = out.copy_to_host()?;
    let mut written = Array2::from_elem((40, 50), false);
    for (info, _) in cases {
        written.slice_mut(info).fill(true);
    }
    ensure!(
        untouched
            .iter()
            .zip(written.iter())
            .all(|(&v, &w)| w || v == -1.0),
        "a kernel wrote outside the view it was given"
    );
    pass("3 sliced views and a transpose")
}

fn host_args() -> Outcome {
    let k = st_strided();
    let a = Array2::from_shape_fn((8, 8), |(i, j)| (i * 8 + j) as f32);
    let mut b = Array2::<f32>::from_elem((8, 8), 5.0);
    k.configure((1, 1), (8, 8)).launch((In(&a), Out(&mut b)))?;
    ensure!(b == a.mapv(|v| 2.0 * v + 1.0), "In + Out host arrays");
    let mut c = a.clone();
    k.configure((1, 1), (8, 8))
        .launch((In(&a.clone()), InOut(&mut c)))?;
    ensure!(c == a.mapv(|v| 2.0 * v + 1.0), "InOut host array");
    // A host array passed as `In` is not copied back, even when the kernel writes its copy.
    let mut d_in = a.clone();
    k.configure((1, 1), (8, 8)).launch((&a, In(&d_in)))?;
    ensure!(d_in == a, "an In array changed on the host");
    d_in.fill(0.0);
    pass("In, Out, InOut")
}

fn fault() -> Outcome {
    let backend = rumba::backend_driver()?.backend();
    // Six elements, of which the kernel is given the first three: the last three show whether a
    // store past the end of its array landed anywhere.
    let whole = rumba::to_device(&[0i32; 6])?;
    let a = whole.slice(s![..3])?;
    let k = oob();
    let s = rumba::stream()?;
    k.configure(1, 6).stream(&s).launch((&a,))?;
    let reported = s.synchronize().err().map(|e| e.to_string());
    ensure_eq!(
        whole.copy_to_host()?.to_vec()[3..].to_vec(),
        vec![0, 0, 0],
        "the elements after the array (stores past its end must be skipped)"
    );
    k.configure(1, 3).stream(&s).launch((&a,))?;
    s.synchronize()?;
    ensure_eq!(
        whole.copy_to_host()?.to_vec(),
        vec![1, 1, 1, 0, 0, 0],
        "the next launch"
    );
    let Some(text) = reported else {
        return Err(super::Failure(format!(
            "an out-of-bounds write went unreported on {backend}"
        )));
    };
    // On a GPU, threads 3, 4 and 5 race to record the first fault; the simulator runs them in
    // order.
    let thread_ok = if backend == BackendKind::Sim {
        text.contains("thread (3, 0, 0)")
    } else {
        (3..6).any(|t| text.contains(&format!("thread ({t}, 0, 0)")))
    };
    ensure!(
        text.contains("'oob'") && text.contains("block (0, 0, 0)") && thread_ok,
        "the fault does not name kernel, block and thread: {text}"
    );
    pass(text)
}
