//! The OpenCL backend on a real driver (PoCL in CI): what only this backend has to show — kernels
//! from OpenCL C in every argument layout, fault records turned into kernel faults, events that
//! time real work, the device's allocation limit, the interchange refusals and DLPack's device
//! type — and that a machine without OpenCL gets typed errors while `detect` keeps working.
//!
//! This binary opens the OpenCL backend itself, whatever `RUMBA_TEST_BACKEND` says; without a
//! usable OpenCL it says `SKIPPED` and why (with `RUMBA_REQUIRE_OPENCL=1`, as in CI, it fails).

mod common;

use std::time::Instant;

use ndarray::{Array1, Array2};
use rumba::config::BackendChoice;
use rumba::driver::{BackendKind, OpenClKernelSource};
use rumba::kernel::{Arr, Kernel};
use rumba::{Error, Order};

/// Child mode: the parent re-runs this binary with OpenCL hidden and reads what it prints.
const CHILD: &str = "RUMBA_OPENCL_TEST_CHILD";

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| c.backend = BackendChoice::OpenCl);
    common::serial()
}

fn legacy() -> rumba::Stream {
    rumba::legacy_default_stream().unwrap()
}

const SCALE_GENERATED: &str = r#"
__kernel void scale(__global float* x, long x_off, long x_sh0, long x_st0, float k,
                    __local ulong* rb_dyn_shared, ulong rb_dyn_bytes, __global uint* rb_fault) {
    long i = get_global_id(0);
    if (i < x_sh0) {
        __global float* e = (__global float*)((__global char*)x + x_off + i * x_st0);
        *e = *e * k;
    } else if (atomic_cmpxchg(&rb_fault[0], 0u, 1u) == 0u) {
        rb_fault[1] = 1u;                       /* index out of bounds */
        rb_fault[2] = 0u;                       /* site */
        rb_fault[3] = 1u;                       /* one index component */
        rb_fault[4] = get_group_id(0); rb_fault[5] = 0u; rb_fault[6] = 0u;
        rb_fault[7] = get_local_id(0); rb_fault[8] = 0u; rb_fault[9] = 0u;
        __global ulong* wide = (__global ulong*)(rb_fault + 10);
        wide[0] = (ulong)i;                     /* byte 40: the index */
        wide[3] = (ulong)x_sh0;                 /* byte 64: the extent */
    }
}
"#;

fn scale_kernel() -> Kernel<(Arr<f32>, f32)> {
    Kernel::<(Arr<f32>, f32)>::new("scale", |t, (x, k)| {
        let i = t.grid1();
        if i < x.len() {
            x.set(i, x.get(i) * k);
        }
    })
    .with_opencl_source(OpenClKernelSource::new(SCALE_GENERATED, "scale"))
}

#[test]
fn a_kernel_in_the_generated_layout_runs_on_strided_views() {
    let _s = setup();
    let host = Array1::from_iter((0..64).map(|i| i as f32));
    let d = rumba::to_device(&host).unwrap();
    let every_other = d.slice(ndarray::s![..;-2]).unwrap(); // negative byte stride
    scale_kernel()
        .configure(1, 32)
        .stream(&legacy())
        .launch((&every_other, 10.0))
        .unwrap();
    legacy().synchronize().unwrap();
    let back = d.copy_to_host().unwrap();
    for (i, v) in back.iter().enumerate() {
        let want = if i % 2 == 1 {
            i as f32 * 10.0
        } else {
            i as f32
        };
        assert_eq!(*v, want, "element {i}");
    }
}

#[test]
fn a_fault_record_becomes_a_kernel_fault_at_the_next_synchronization() {
    let _s = setup();
    let d = rumba::to_device(&Array1::<f32>::ones(40)).unwrap();
    let s = rumba::stream().unwrap();
    // 64 threads for 40 elements: thread 40 (block 1, thread 8 of 32) faults first.
    scale_kernel()
        .configure(2, 32)
        .stream(&s)
        .launch((&d, 2.0))
        .unwrap();
    match s.synchronize() {
        Err(Error::KernelFault {
            kernel,
            block,
            message,
            ..
        }) => {
            assert_eq!(kernel, "scale");
            assert_eq!(block, [1, 0, 0]);
            assert!(
                message.contains("out of bounds for shape (40,)"),
                "{message}"
            );
        }
        other => panic!("expected a kernel fault, got {other:?}"),
    }
    // Reported once; the stream and the data are usable afterwards.
    s.synchronize().unwrap();
    assert_eq!(d.copy_to_host().unwrap(), Array1::<f32>::from_elem(40, 2.0));
}

#[test]
fn hand_written_kernels_with_plain_pointers_run() {
    let _s = setup();
    let add = Kernel::<(Arr<i32>, Arr<i32>, Arr<i32>)>::new("add", |t, (a, b, c)| {
        let i = t.grid1();
        c.set(i, a.get(i) + b.get(i));
    })
    .with_opencl_source(OpenClKernelSource::new(
        "__kernel void add(__global const int* a, __global const int* b, __global int* c) {
             size_t i = get_global_id(0); c[i] = a[i] + b[i]; }",
        "add",
    ));
    let a = rumba::to_device(&Array1::from_iter(0..256)).unwrap();
    let b = rumba::to_device(&Array1::from_elem(256, 1000)).unwrap();
    let c = rumba::device_array::<i32, _>(256, Order::C).unwrap();
    add.configure(4, 64).launch((&a, &b, &c)).unwrap();
    rumba::synchronize().unwrap();
    assert_eq!(c.copy_to_host().unwrap(), Array1::from_iter(1000..1256));
    // A kernel whose source does not compile is a typed error carrying the build log.
    let broken = Kernel::<(Arr<i32>,)>::new("broken", |_, _| {}).with_opencl_source(
        OpenClKernelSource::new("__kernel void broken(__global int* a) { nope; }", "broken"),
    );
    let e = broken
        .configure(1, 1)
        .launch((&c,))
        .unwrap_err()
        .to_string();
    assert!(e.contains("clBuildProgram") && e.contains("nope"), "{e}");
    // A closure kernel has no OpenCL form: refused before anything is queued, naming the fix.
    let closure = Kernel::<(Arr<i32>,)>::new("closure_only", |_, _| {});
    let e = closure.configure(1, 1).launch((&c,)).unwrap_err();
    assert!(
        matches!(e, Error::MissingKernelForm { ref kernel, form: "OpenCL C source", .. } if kernel == "closure_only"),
        "{e}"
    );
}

#[test]
fn a_replayed_fault_is_named_after_a_node_before_it_took_a_form_without_a_record() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let (a, b) = (
        rumba::to_device(&Array1::<f32>::ones(64)).unwrap(),
        rumba::to_device(&Array1::<f32>::ones(64)).unwrap(),
    );
    let c = rumba::to_device(&Array1::<f32>::ones(40)).unwrap();
    let checked = scale_kernel();
    // Two kernels with fault records; the second faults (64 threads for 40 elements).
    let graph = s
        .capture(|s| {
            checked.configure(2, 32).stream(s).launch((&a, 2.0))?;
            checked.configure(2, 32).stream(s).launch((&c, 3.0))
        })
        .unwrap();
    // The first node takes a form of `scale` without a fault record: the second keeps its own
    // record, and its fault is still found and named.
    let plain = Kernel::<(Arr<f32>, f32)>::new("scale", |t, (x, k)| {
        let i = t.grid1();
        x.set(i, x.get(i) * k);
    })
    .with_opencl_source(OpenClKernelSource::new(
        "__kernel void scale(__global float* x, float k) { size_t i = get_global_id(0); x[i] *= k; }",
        "scale",
    ));
    plain.update_graph_node(&graph, 0, (&b, 5.0)).unwrap();
    for _ in 0..2 {
        graph.launch(&s).unwrap();
        match s.synchronize() {
            Err(Error::KernelFault {
                kernel,
                block,
                thread,
                ..
            }) => assert_eq!(
                (kernel.as_str(), block, thread),
                ("scale", [1, 0, 0], [8, 0, 0])
            ),
            other => panic!("expected the second node's fault, got {other:?}"),
        }
    }
    assert_eq!(
        b.copy_to_host().unwrap(),
        Array1::<f32>::from_elem(64, 25.0)
    );
    assert_eq!(c.copy_to_host().unwrap(), Array1::<f32>::from_elem(40, 9.0));
    assert_eq!(
        a.copy_to_host().unwrap(),
        Array1::<f32>::ones(64),
        "node 0 ran on `b`"
    );
}

#[test]
fn events_time_real_work() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let (start, end) = (
        rumba::event(rumba::EventOptions::new()).unwrap(),
        rumba::event(rumba::EventOptions::new()).unwrap(),
    );
    let src = rumba::to_device(&Array2::<f32>::ones((2048, 2048)))
        .unwrap()
        .bind(&s);
    let wall = Instant::now();
    start.record(&s).unwrap();
    for _ in 0..4 {
        let t = src.transpose_copy(None).unwrap(); // a strided device copy of 16 MiB, on `s`
        drop(t);
    }
    end.record(&s).unwrap();
    end.synchronize().unwrap();
    let wall_ms = wall.elapsed().as_secs_f64() * 1e3;
    let ms = start.elapsed_time(&end).unwrap() as f64;
    assert!(ms > 0.0, "four 16 MiB transposes took {ms} ms");
    assert!(
        ms <= wall_ms + 1.0,
        "device time {ms} ms exceeds wall time {wall_ms} ms"
    );
    assert!(end.elapsed_time(&start).unwrap() < 0.0);
    let untimed = rumba::event(rumba::EventOptions::untimed()).unwrap();
    untimed.record(&s).unwrap();
    s.synchronize().unwrap();
    assert!(start.elapsed_time(&untimed).is_err());
}

#[test]
fn an_allocation_beyond_the_devices_limit_is_a_typed_error() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let (_, total) = ctx.get_memory_info().unwrap();
    let e = ctx.memalloc(total + 1).unwrap_err();
    assert!(
        matches!(e, Error::AllocationTooLarge { ref memory, .. } if memory.contains("OpenCL device"))
            || matches!(e, Error::OutOfMemory { .. }),
        "{e}"
    );
    // A wild device pointer is refused when queued instead of corrupting the process.
    let drv = ctx.driver().clone();
    // SAFETY: the address is not rumba's: the driver must refuse it before touching it.
    let r = unsafe { drv.memset(rumba::driver::On::blocking(0), 0x10, 0, 16) };
    assert!(matches!(r, Err(Error::InvalidAddress { .. })), "{r:?}");
}

#[test]
fn interchange_refuses_ipc_and_the_cuda_interface_and_dlpack_says_opencl() {
    let _s = setup();
    let d = rumba::to_device(&[1.0f64, 2.0, 3.0]).unwrap();
    let ipc = d.get_ipc_handle().unwrap_err();
    assert!(
        matches!(ipc, Error::Unsupported { ref backend, .. } if backend == "opencl"),
        "{ipc}"
    );
    assert!(!rumba::interop::is_cuda_array(&d));
    let cai = rumba::interop::CudaArray::describe(&d).unwrap_err();
    assert!(
        matches!(cai, Error::Unsupported { ref feature, .. } if feature == "the CUDA Array Interface"),
        "{cai}"
    );
    let t = d.to_dlpack(None).unwrap();
    assert_eq!(t.tensor().device.device_type.0, 4, "kDLOpenCL");
    assert_eq!(rumba::backend().unwrap(), BackendKind::OpenCl);
}

#[test]
fn host_memory_is_device_addressable_where_opencl_allows() {
    let _s = setup();
    let mut m = rumba::mapped_array::<u32, _>(16, Order::C, rumba::MappedOptions::new()).unwrap();
    m.view_mut().fill(3);
    m.device_mut().fill(9).unwrap(); // the device writes host memory directly
    assert_eq!(m.view().sum(), 9 * 16);
    let wc = rumba::mapped_array::<u32, _>(
        16,
        Order::C,
        rumba::MappedOptions::new().write_combined(true),
    )
    .unwrap_err();
    assert!(
        matches!(wc, Error::Unsupported { ref feature, .. } if feature == "write-combined host memory"),
        "{wc}"
    );
}

/// Run as a child with OpenCL hidden: prints what the library says.
#[test]
fn without_opencl_the_errors_are_typed_and_detect_works() {
    if std::env::var_os(CHILD).is_some() {
        let open = rumba::driver::open(&rumba::Config {
            backend: BackendChoice::OpenCl,
            ..Default::default()
        });
        match open {
            Err(Error::BackendUnavailable { backend, reason }) => {
                println!("CHILD-OPEN backend={backend} reason={reason}")
            }
            Err(other) => println!("CHILD-OPEN other {other}"),
            Ok(_) => println!("CHILD-OPEN opened"),
        }
        let report = rumba::detect().unwrap();
        println!("CHILD-DETECT {}", report.backend);
        println!("{report}");
        return;
    }
    let empty = std::env::temp_dir().join(format!("rumba-no-icd-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "without_opencl_the_errors_are_typed_and_detect_works",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .env("OCL_ICD_VENDORS", &empty)
        .env("OCL_ICD_FILENAMES", "")
        .env_remove("RUMBA_TEST_BACKEND")
        .env_remove("RUMBA_BACKEND")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir(&empty);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // With an ICD loader the loader finds no platform; without one, no library loads.
    assert!(
        text.contains("CHILD-OPEN backend=opencl reason=")
            && (text.contains("no platform") || text.contains("no OpenCL library")),
        "{text}"
    );
    assert!(text.contains("CHILD-DETECT sim"), "{text}");
    assert!(text.contains("OpenCL: unavailable"), "{text}");
}

/// A kernel the exit test launches: its first launch makes PoCL compile it.
#[rumba::kernel]
fn first_launch(t: &rumba::kernel::prelude::Thread, a: &mut rumba::kernel::prelude::Arr<u32>) {
    let i = t.grid1();
    a[i] = i as u32;
}

/// A program may return from `main` with a launch still queued. PoCL compiles the kernel on its
/// own threads meanwhile, and exiting under that compilation aborted or crashed the process
/// (8 of 20 runs with a cold kernel cache) until the backend waited for queued work at exit.
/// Each child runs with an empty PoCL cache, launches, and exits without synchronizing.
#[test]
fn exiting_with_a_launch_in_flight_is_clean() {
    const EXIT_CHILD: &str = "RUMBA_OPENCL_EXIT_CHILD";
    if std::env::var_os(EXIT_CHILD).is_some() {
        let drv = rumba::driver::open(&rumba::Config {
            backend: BackendChoice::OpenCl,
            ..Default::default()
        });
        if drv.is_err() {
            return;
        }
        let cfg = rumba::Config {
            backend: BackendChoice::OpenCl,
            ..rumba::Config::from_env().unwrap()
        };
        rumba::configure(cfg).unwrap();
        let d = rumba::device_array::<u32, _>(256, Order::C).unwrap();
        first_launch().configure(4, 64).launch((&d,)).unwrap();
        println!("CHILD-LAUNCHED");
        return; // the process exits with the launch queued
    }
    let _g = setup();
    for run in 0..6 {
        let cache =
            std::env::temp_dir().join(format!("rumba-pocl-cold-{}-{run}", std::process::id()));
        std::fs::create_dir_all(&cache).unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "exiting_with_a_launch_in_flight_is_clean",
                "--nocapture",
            ])
            .env(EXIT_CHILD, "1")
            .env("POCL_CACHE_DIR", &cache)
            .env_remove("RUMBA_TEST_BACKEND")
            .output()
            .unwrap();
        let _ = std::fs::remove_dir_all(&cache);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("CHILD-LAUNCHED"),
            "run {run}: {}\n{text}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
