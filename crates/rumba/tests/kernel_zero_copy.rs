//! Kernels on memory they reach in place (issue 18, items 3 and 4): mapped, managed and
//! coarse/fine-grained host arrays passed straight to a kernel (Numba's `test_managed_alloc`,
//! ROC's memory tests), and CUDA Array Interface objects imported at launch (Numba's
//! `test_launch_sync*`).

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rumba::Order;
use rumba::config::BackendChoice;
use rumba::kernel::prelude::*;
use rumba::kernel::{Cai, Kernel};

/// `a[i] += 1` over the whole array.
#[kernel]
fn inc(t: &Thread, a: &mut Arr<i32>) {
    let i = t.grid1();
    if i < a.len() {
        a[i] += 1;
    }
}

/// `out[i] = a[i] * 2`: reads `a` only.
#[kernel]
fn twice(t: &Thread, a: &Arr<i32>, out: &mut Arr<i32>) {
    let i = t.grid1();
    if i < a.len() {
        out[i] = a[i] * 2;
    }
}

/// Numba's `test_managed_alloc` shape: `a[i, j] = i * 10 + j` over a 2-d array.
#[kernel]
fn coords(t: &Thread, a: &mut Arr<f64>) {
    let (x, y) = t.grid2();
    if x < a.shape()[0] && y < a.shape()[1] {
        a[(x, y)] = (x * 10 + y) as f64;
    }
}

/// Starts the runtime and runs the calling test alone: a fault is reported at the next
/// synchronization of its stream, which another test's launch could otherwise be the one to see.
fn start() -> std::sync::MutexGuard<'static, ()> {
    common::start(|_| {});
    common::serial()
}

fn launch_inc<A: rumba::kernel::LaunchArg<Arr<i32>>>(a: A) -> rumba::Result<()> {
    inc().configure(4, 32).launch((a,))
}

#[test]
fn mapped_and_managed_arrays_are_written_in_place_and_visible_when_the_launch_returns() {
    let _one = start();
    let mut m = rumba::mapped_array::<i32, _>(100, Order::C, rumba::MappedOptions::new()).unwrap();
    m.view_mut()
        .iter_mut()
        .enumerate()
        .for_each(|(i, v)| *v = i as i32);
    launch_inc(&mut m).unwrap();
    // No synchronization: the launch returned after the kernel, as it borrowed the memory.
    assert_eq!(m.view().to_vec(), (1..=100).collect::<Vec<i32>>());

    let mut g = rumba::managed_array::<f64, _>((5, 7), Order::F).unwrap();
    coords()
        .configure((1, 1), (8, 8))
        .launch((&mut g,))
        .unwrap();
    for x in 0..5 {
        for y in 0..7 {
            assert_eq!(g.view()[(x, y)], (x * 10 + y) as f64);
        }
    }

    // A device view of a slice of the mapped memory (the `MappedViewMut` form).
    let mut dv = m.device_mut();
    launch_inc(&mut dv).unwrap();
    drop(dv);
    assert_eq!(m.view()[99], 101);
}

#[test]
fn a_shared_borrow_is_read_only_for_the_kernel() {
    let _one = start();
    let mut m = rumba::mapped_array::<i32, _>(64, Order::C, rumba::MappedOptions::new()).unwrap();
    m.view_mut().fill(21);
    // Reading through a shared borrow: the host may look at the memory at the same time.
    let out = rumba::device_array::<i32, _>(64, Order::C).unwrap();
    twice().configure(2, 32).launch((&m, &out)).unwrap();
    assert_eq!(out.copy_to_host().unwrap().to_vec(), vec![42; 64]);
    assert_eq!(m.view()[0], 21);
    // Writing through one is refused before anything is queued, naming kernel and parameter.
    let err = launch_inc(&m).unwrap_err();
    assert!(
        matches!(&err, rumba::Error::KernelArgument {
                kernel,
                parameter: Some(parameter),
                problem: rumba::error::ArgumentError::Written { what },
                ..
            } if kernel == "inc" && parameter == "a" && what.contains("`&mut`")),
        "{err}"
    );
    rumba::synchronize().unwrap();
    assert_eq!(m.view().to_vec(), vec![21; 64], "nothing ran");
    let err = launch_inc(&m.device()).unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::KernelArgument {
                problem: rumba::error::ArgumentError::Written { .. },
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_closure_kernel_cannot_write_through_a_shared_borrow() {
    if common::sim_only("closure kernels have no GPU form") {
        return;
    }
    let _one = common::serial();
    let m = rumba::mapped_array::<i32, _>(8, Order::C, rumba::MappedOptions::new()).unwrap();
    // Without a signature the runtime cannot refuse up front: the write faults instead.
    let k = Kernel::<(Arr<i32>,)>::new("writes_shared", |t, (a,)| {
        let i = t.grid1();
        if i < a.len() {
            a.set(i, 9);
        }
    });
    let r = k.configure(1, 8).launch((&m,));
    let (_, _, message) = common::fault(r);
    assert!(
        message.contains("write to index") && message.contains("read-only"),
        "{message}"
    );
    assert_eq!(m.view().to_vec(), vec![0; 8]);
}

fn grained_case<G: rumba::host::grained::Grain>(
    made: rumba::Result<rumba::host::grained::GrainedArray<i32, ndarray::Ix1, G>>,
) {
    let mut a = match made {
        Ok(a) => a,
        Err(e @ rumba::Error::Unsupported { .. }) => {
            println!("SKIPPED a grained array on this backend: {e}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    a.view_mut().unwrap().fill(-1);
    launch_inc(&mut a).unwrap();
    assert_eq!(a.view().unwrap().to_vec(), vec![0; 50]);
    // A shared borrow reads: twice() leaves the array as it is.
    let out = rumba::device_array::<i32, _>(50, Order::C).unwrap();
    twice().configure(2, 32).launch((&a, &out)).unwrap();
    assert_eq!(out.copy_to_host().unwrap().to_vec(), vec![0; 50]);
}

#[test]
fn grained_arrays_are_kernel_arguments() {
    let _one = start();
    grained_case(rumba::coarsegrain_array::<i32, _>(50, Order::C));
    grained_case(rumba::finegrain_array::<i32, _>(50, Order::C));
}

#[test]
fn a_launch_that_would_wait_is_refused_inside_a_stream_callback() {
    let _one = start();
    let s = rumba::stream().unwrap();
    let m = Arc::new(std::sync::Mutex::new(
        rumba::mapped_array::<i32, _>(16, Order::C, rumba::MappedOptions::new()).unwrap(),
    ));
    let seen = Arc::new(std::sync::Mutex::new(None));
    let (m2, seen2) = (Arc::clone(&m), Arc::clone(&seen));
    s.add_callback(move |_, _| {
        let mut m = m2.lock().unwrap();
        *seen2.lock().unwrap() = Some(launch_inc(&mut *m));
    })
    .unwrap();
    s.synchronize().unwrap();
    let r = seen.lock().unwrap().take().unwrap();
    assert!(matches!(&r, Err(rumba::Error::InCallback { .. })), "{r:?}");
    rumba::synchronize().unwrap();
    assert_eq!(
        m.lock().unwrap().view().to_vec(),
        vec![0; 16],
        "nothing ran"
    );
}

fn cai_unsupported(test: &str) -> bool {
    common::start(|_| {});
    common::not_on(
        &[BackendChoice::OpenCl],
        test,
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it with a typed error",
    )
}

#[test]
fn a_cuda_array_interface_object_is_a_kernel_argument() {
    let _one = start();
    if cai_unsupported("a_cuda_array_interface_object_is_a_kernel_argument") {
        let d = rumba::to_device(&[1i32]).unwrap();
        let err = launch_inc(Cai(d)).unwrap_err();
        assert!(matches!(err, rumba::Error::Unsupported { .. }), "{err}");
        return;
    }
    let d = rumba::to_device(&(0..100).collect::<Vec<i32>>()).unwrap();
    launch_inc(Cai(d.clone())).unwrap();
    assert_eq!(
        d.copy_to_host().unwrap().to_vec(),
        (1..=100).collect::<Vec<i32>>()
    );
    // A description with a wrong element type is refused before anything is queued.
    let f = rumba::to_device(&[1.0f32; 4]).unwrap();
    struct AsI32(rumba::DeviceArray<f32, ndarray::Ix1>);
    impl rumba::interop::CudaArray for AsI32 {
        fn describe(&self) -> rumba::Result<rumba::interop::CudaArrayInterface> {
            Ok(self.0.cuda_array_interface())
        }
    }
    // SAFETY: the description is the owned device array's own, kept alive by the wrapper.
    unsafe impl rumba::interop::DeviceMemoryOwner for AsI32 {}
    let err = launch_inc(Cai(AsI32(f.clone()))).unwrap_err();
    assert!(
        err.to_string().contains("f4") || err.to_string().contains("<f"),
        "{err}"
    );
    assert_eq!(f.copy_to_host().unwrap().to_vec(), vec![1.0; 4]);
}

/// Numba's `test_launch_sync` and `test_launch_sync_disabled`: the producer's stream is
/// synchronized at launch unless the argument opts out.
#[test]
fn the_producers_stream_is_synchronized_at_launch_unless_disabled() {
    let _one = start();
    if cai_unsupported("the_producers_stream_is_synchronized_at_launch_unless_disabled") {
        return;
    }
    // Load the fill's and the kernel's modules first: on CUDA, loading a module may wait for the
    // device's queued work (CUDA's lazy loading), which would wait for the gated stream below
    // (the first H100 run: the fill waited out the gate's 30 s).
    let warm = rumba::device_array::<i32, _>(64, Order::C).unwrap();
    warm.fill(0).unwrap();
    launch_inc(&warm).unwrap();
    for sync in [true, false] {
        let (producer, gate) = common::gated_stream();
        let d = rumba::device_array::<i32, _>(64, Order::C)
            .unwrap()
            .bind(&producer);
        d.fill(5).unwrap(); // queued behind the gate (bound arrays are asynchronous)
        let opened = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&opened);
        let opener = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, Ordering::SeqCst);
            let _ = gate.send(());
        });
        let consumer = rumba::stream().unwrap();
        let k = inc();
        let launch = k.configure(2, 32).stream(&consumer);
        if sync {
            launch.launch((Cai(d.clone()),)).unwrap();
            assert!(
                opened.load(Ordering::SeqCst),
                "the launch waited for the producer"
            );
            consumer.synchronize().unwrap();
            assert_eq!(d.copy_to_host().unwrap().to_vec(), vec![6; 64]);
        } else {
            launch.launch((Cai(d.clone()).no_sync(),)).unwrap();
            assert!(
                !opened.load(Ordering::SeqCst),
                "the launch did not wait for the producer"
            );
            consumer.synchronize().unwrap();
        }
        opener.join().unwrap();
        producer.synchronize().unwrap();
    }
}
