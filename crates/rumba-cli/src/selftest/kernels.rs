//! Kernel checks (SPEC §5): shared, dynamic shared, local and constant memory, barriers with
//! values, atomics on global and shared memory, strided array arguments, automatic transfers of
//! host arrays, and (on the sim and OpenCL) a caught fault.
//!
//! Every kernel of the self-test is defined here, in one place: each is a Rust body for the
//! simulator (`Kernel::new`) plus the same kernel in CUDA C (`kernels/selftest.cu`, attached with
//! `with_cuda_source`) for the cuda backend and in OpenCL C (`kernels/selftest.cl`, attached with
//! `with_opencl_source`, in the kernel ABI's generated layout) for the opencl backend. When
//! `#[rumba::kernel]` lands, each trio becomes one annotated function and this module (with the
//! two source files, then deleted) is the only one to change. A backend for which a kernel has no
//! form makes its check fail with the launch's error — it is never skipped.
//!
//! This module touches the current backend through rumba's public API only.

use ndarray::{Array1, Array2, s};
use rumba::driver::{BackendKind, CudaKernelSource, OpenClKernelSource};
use rumba::kernel::{Arr, Kernel};
use rumba::{In, InOut, Order, Out};

use super::{Check, Outcome, pass, skip};
use crate::{ensure, ensure_eq};

/// The CUDA C of every kernel below.
const SELFTEST_CU: &str = include_str!("../../kernels/selftest.cu");

/// The OpenCL C of every kernel below.
const SELFTEST_CL: &str = include_str!("../../kernels/selftest.cl");

fn cuda(entry: &str) -> CudaKernelSource {
    CudaKernelSource::new(SELFTEST_CU, entry)
}

fn opencl(entry: &str) -> OpenClKernelSource {
    OpenClKernelSource::new(SELFTEST_CL, entry)
}

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
            about: "constant memory from const_array_like, copied at definition (later host changes unseen)",
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
            about: "an out-of-bounds write is reported at synchronization naming kernel, block and thread; the stream works on",
            run: fault,
        },
    ]
}

// ------------------------------------------------------------------------------------------------
// The kernels

/// One partial sum per block of 256 through a shared-memory tree.
fn block_sum() -> Kernel<(Arr<f32>, Arr<f32>)> {
    Kernel::<(Arr<f32>, Arr<f32>)>::new("st_block_sum", |t, (x, partial)| {
        let sm = t.shared_array::<f32>(256);
        let tid = t.thread_idx().x as usize;
        let i = t.grid1();
        sm.set(tid, if i < x.len() { x.get(i) } else { 0.0 });
        t.syncthreads();
        let mut stride = 128;
        while stride > 0 {
            if tid < stride {
                sm.set(tid, sm.get(tid) + sm.get(tid + stride));
            }
            t.syncthreads();
            stride /= 2;
        }
        if tid == 0 {
            partial.set(t.block_idx().x as usize, sm.get(0));
        }
    })
    .with_cuda_source(cuda("st_block_sum"))
    .with_opencl_source(opencl("st_block_sum"))
}

/// Each block reverses its slice through dynamic shared memory.
fn dyn_reverse() -> Kernel<(Arr<i32>, Arr<i32>)> {
    Kernel::<(Arr<i32>, Arr<i32>)>::new("st_dyn_reverse", |t, (a, out)| {
        let buf = t.dynamic_shared::<i32>();
        let (tid, n) = (t.thread_idx().x as usize, t.block_dim().x as usize);
        let i = t.grid1();
        buf.set(tid, a.get(i));
        t.syncthreads();
        out.set(i, buf.get(n - 1 - tid));
    })
    .with_cuda_source(cuda("st_dyn_reverse"))
    .with_opencl_source(opencl("st_dyn_reverse"))
}

/// What `st_local` computes for thread `i`.
fn local_expected(i: usize) -> f64 {
    (0..16)
        .map(|k| (i + (5 * k + i % 16) % 16) as f64 * (k + 1) as f64)
        .sum()
}

fn local_kernel() -> Kernel<(Arr<f64>,)> {
    Kernel::<(Arr<f64>,)>::new("st_local", |t, (out,)| {
        let l = t.local_array::<f64>(16);
        let i = t.grid1();
        if i >= out.len() {
            return;
        }
        for k in 0..16 {
            l.set(k, (i + k) as f64);
        }
        let mut acc = 0.0;
        for k in 0..16 {
            acc += l.get((5 * k + i % 16) % 16) * (k + 1) as f64;
        }
        out.set(i, acc);
    })
    .with_cuda_source(cuda("st_local"))
    .with_opencl_source(opencl("st_local"))
}

type BarrierArgs = (Arr<i32>, Arr<i32>, Arr<i32>, Arr<i32>);

fn barrier_kernel() -> Kernel<BarrierArgs> {
    Kernel::<BarrierArgs>::new("st_barrier_values", |t, (pred, count, all, any)| {
        let i = t.grid1();
        let p = pred.get(i);
        count.set(i, t.syncthreads_count(p));
        all.set(i, t.syncthreads_and(p));
        any.set(i, t.syncthreads_or(p));
    })
    .with_cuda_source(cuda("st_barrier_values"))
    .with_opencl_source(opencl("st_barrier_values"))
}

type AtomicArgs = (Arr<u64>, Arr<i32>, Arr<f32>, Arr<u32>, Arr<u32>);

fn atomics_kernel() -> Kernel<AtomicArgs> {
    Kernel::<AtomicArgs>::new("st_atomics", |t, (sum, minmax, fsum, bits, hist)| {
        let h = t.shared_array::<u32>(16);
        let tid = t.thread_idx().x as usize;
        if tid < 16 {
            h.set(tid, 0);
        }
        t.syncthreads();
        let i = t.grid1();
        sum.atomic_add(0, i as u64);
        minmax.atomic_max(0, i as i32);
        minmax.atomic_min(1, -(i as i32));
        fsum.atomic_add(0, 0.5);
        bits.atomic_or(0, 1 << (i % 32));
        bits.atomic_inc(1, u32::MAX);
        h.atomic_add(i % 16, 1);
        t.syncthreads();
        if tid < 16 {
            hist.atomic_add(tid, h.get(tid));
        }
    })
    .with_cuda_source(cuda("st_atomics"))
    .with_opencl_source(opencl("st_atomics"))
}

fn cas_max_kernel() -> Kernel<(Arr<i32>, Arr<i32>)> {
    Kernel::<(Arr<i32>, Arr<i32>)>::new("st_cas_max", |t, (res, values)| {
        let v = values.get(t.grid1());
        let mut old = res.get(0);
        while old < v {
            let seen = res.atomic_cas(0, old, v);
            if seen == old {
                break;
            }
            old = seen;
        }
    })
    .with_cuda_source(cuda("st_cas_max"))
    .with_opencl_source(opencl("st_cas_max"))
}

fn strided_kernel() -> Kernel<(Arr<f32>, Arr<f32>)> {
    Kernel::<(Arr<f32>, Arr<f32>)>::new("st_strided", |t, (a, b)| {
        let (x, y) = t.grid2();
        if y < b.shape()[0] && x < b.shape()[1] {
            b.set((y, x), 2.0 * a.get((y, x)) + 1.0);
        }
    })
    .with_cuda_source(cuda("st_strided"))
    .with_opencl_source(opencl("st_strided"))
}

// ------------------------------------------------------------------------------------------------
// The checks

fn shared_barriers() -> Outcome {
    let n = 4096 * 256;
    let x: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let dx = rumba::to_device(&x)?;
    let partial = rumba::device_array::<f32, _>(n / 256, Order::C)?;
    block_sum()
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
    dyn_reverse()
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
    local_kernel()
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
    let l = lut.clone();
    let k = Kernel::<(Arr<f32>,)>::new("st_const", move |t, (out,)| {
        let i = t.grid1();
        if i < out.len() {
            out.set(i, l.get(i % 64) * 2.0 + i as f32);
        }
    })
    .with_cuda_source(cuda("st_const"))
    .with_cuda_constant("st_lut", &lut)
    .with_opencl_source(opencl_with_table("st_const", "ST_LUT", &lut));
    let n = 1000;
    let out = rumba::device_array::<f32, _>(n, Order::C)?;
    k.configure(n.div_ceil(256) as u32, 256).launch((&out,))?;
    let got = out.copy_to_host()?;
    for (i, &v) in got.iter().enumerate() {
        let want = ((i % 64) as f32 * 0.5 - 3.0) * 2.0 + i as f32;
        ensure_eq!(v, want, format!("element {i}"));
    }
    pass("64-entry table read by 1000 threads")
}

/// The OpenCL C form of `entry` with the table's values (taken now) defined as `macro`: the
/// OpenCL backend fills no program globals at launch, so the hand-written form bakes the table
/// into its `__constant` array (`#[rumba::kernel]` will pass it as a read-only argument).
fn opencl_with_table(
    entry: &str,
    macro_name: &str,
    table: &rumba::kernel::ConstArray<f32>,
) -> OpenClKernelSource {
    // `{:e}` prints the shortest decimal that reads back as the same f32.
    let values: Vec<String> = (0..table.size())
        .map(|i| format!("{:e}f", table.get(i)))
        .collect();
    OpenClKernelSource::new(
        format!("#define {macro_name} {}\n{SELFTEST_CL}", values.join(", ")),
        entry,
    )
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
    barrier_kernel()
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
    atomics_kernel()
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
    cas_max_kernel()
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
    let k = strided_kernel();
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
    let k = strided_kernel();
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
    if backend == BackendKind::Cuda {
        return skip(format!(
            "on {backend}, hardware does not check array bounds and this kernel has no checked CUDA C form: an out-of-bounds write is undefined behaviour there, so it is not provoked"
        ));
    }
    // The sim checks every access; the OpenCL C form checks its index and fills the fault record.
    let k = Kernel::<(Arr<i32>,)>::new("st_oob", |t, (a,)| a.set(t.grid1(), 1))
        .with_opencl_source(opencl("st_oob"));
    let a = rumba::device_array::<i32, _>(3, Order::C)?;
    let s = rumba::stream()?;
    k.configure(1, 6).stream(&s).launch((&a,))?;
    let err = match s.synchronize() {
        Ok(()) => {
            return Err(super::Failure(
                "an out-of-bounds write went unreported".into(),
            ));
        }
        Err(e) => e,
    };
    let text = err.to_string();
    ensure!(
        text.contains("st_oob")
            && text.contains("block (0, 0, 0)")
            && text.contains("thread (3, 0, 0)"),
        "the fault does not name kernel, block and thread: {text}"
    );
    k.configure(1, 3).stream(&s).launch((&a,))?;
    s.synchronize()?;
    ensure_eq!(a.copy_to_host()?.to_vec(), vec![1, 1, 1], "the next launch");
    pass(text)
}
