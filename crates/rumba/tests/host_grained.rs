//! docs/design/behaviour.md §3, ROC compatibility: coarse- and fine-grained host arrays. Ported
//! from Numba's ROC tests (`hsadrv/test_async.py`, `test_memory.py`'s coarse/fine-grained cases and
//! `test_async_kernel.py`'s manual stream), plus the rule the arrays enforce: the host sees device
//! writes at synchronization points and is refused while device work may use the memory.

#[path = "ported_kernels/behaviour.rs"]
mod behaviour_kernels;
mod common;

use ndarray::{Array1, array};
use rumba::Order;
use rumba::driver::GrainKind;
use rumba::interop::CudaArray;
use rumba::{Error, coarsegrain_array, coarsegrain_array_like, finegrain_array};

fn setup() {
    common::start(|c| {
        c.sim_devices = 2;
        c.sim_memory = Some(128 << 20);
    });
}

#[test]
fn coarsegrain_arrays_are_host_arrays() {
    // test_async.py: test_coarsegrain_array
    setup();
    let mut arr = coarsegrain_array::<f32, _>(1024, Order::C).unwrap();
    assert_eq!(arr.view().unwrap().len(), 1024);
    let expect = Array1::from_iter((0..1024).map(|i| i as f32));
    arr.view_mut().unwrap().assign(&expect);
    assert_eq!(arr.view().unwrap(), expect);
    assert_eq!(arr.grain(), GrainKind::Coarse);
    let like = coarsegrain_array_like(&expect).unwrap();
    assert_eq!(
        (like.shape(), like.layout().strides()),
        (&[1024][..], &[4][..])
    );
}

#[test]
fn async_copy_to_device_then_implicit_synchronization() {
    // test_async.py: test_async_copy_to_device
    setup();
    let arr = Array1::from_iter(0..1024i64);
    let devarr = rumba::to_device(&arr).unwrap();
    let mut hostarr = coarsegrain_array::<i64, _>(1024, Order::C).unwrap();
    hostarr.view_mut().unwrap().assign(&(&arr + 100));
    let s = rumba::stream().unwrap();
    s.copy(&devarr, &hostarr).unwrap();
    // The legacy default stream's synchronous copy waits for the blocking stream's work.
    let got = devarr.copy_to_host().unwrap();
    assert_eq!(got, hostarr.view().unwrap());
    assert!(hostarr.is_idle().unwrap());
}

#[test]
fn async_copy_to_device_and_back() {
    // test_async.py: test_async_copy_to_device_and_back
    setup();
    let mut hostarr = coarsegrain_array::<i64, _>(1024, Order::C).unwrap();
    hostarr
        .view_mut()
        .unwrap()
        .assign(&Array1::from_iter(0..1024i64));
    let mut gotarr = coarsegrain_array::<i64, _>(1024, Order::C).unwrap();
    let s = rumba::stream().unwrap();
    let devarr = rumba::device_array::<i64, _>(1024, Order::C).unwrap();
    s.copy(&devarr, &hostarr).unwrap();
    s.copy(&mut gotarr, &devarr).unwrap();
    s.synchronize().unwrap();
    assert_eq!(gotarr.view().unwrap(), hostarr.view().unwrap());
}

#[test]
fn coarse_and_finegrain_arrays_receive_device_copies() {
    // test_memory.py: test_coarsegrain_array / test_finegrain_array (the kernel's copy is a
    // device copy here: kernels taking these arrays belong to the kernel layer).
    setup();
    let expect = Array1::from_iter(1..=512i64);
    let src = rumba::to_device(&expect).unwrap();
    let mut coarse = coarsegrain_array::<i64, _>(512, Order::C).unwrap();
    coarse.view_mut().unwrap().fill(0);
    rumba::copy(&mut coarse.device_mut().unwrap(), &src).unwrap();
    assert_eq!(coarse.view().unwrap(), expect);
    let mut fine = finegrain_array::<i64, _>(512, Order::C).unwrap();
    fine.view_mut().unwrap().fill(0);
    rumba::copy(&mut fine.device_mut().unwrap(), &src).unwrap();
    assert_eq!(fine.view().unwrap(), expect);
    // Scoped asynchronous work through the device views, as for mapped memory.
    let s = rumba::stream().unwrap();
    s.auto_synchronize(|scope| scope.memset_mapped(fine.device_mut().unwrap(), 0))
        .unwrap();
    assert_eq!(fine.view().unwrap().sum(), 0);
}

#[test]
fn a_manual_stream_pipeline_ends_in_a_coarsegrain_result() {
    // test_async_kernel.py: test_manual_stream (fewer items and rounds).
    setup();
    let add1 = behaviour_kernels::add1();
    let (blksz, gridsz, ntimes) = (64usize, 16usize, 20);
    let arr = Array1::from_iter(0..(blksz * gridsz) as i32);
    let mut coarse_arr = coarsegrain_array::<i32, _>(arr.len(), Order::C).unwrap();
    coarse_arr.view_mut().unwrap().assign(&arr);
    let mut coarse_res = coarsegrain_array::<i32, _>(arr.len(), Order::C).unwrap();
    coarse_res.view_mut().unwrap().fill(0);
    let stream = rumba::stream().unwrap();
    let gpu_res = rumba::device_array_like(&arr).unwrap();
    let gpu_arr = rumba::device_array_like(&arr).unwrap();
    stream.copy(&gpu_arr, &coarse_arr).unwrap();
    for _ in 0..ntimes {
        add1.configure(gridsz as u32, blksz as u32)
            .stream(&stream)
            .launch((&gpu_res, &gpu_arr))
            .unwrap();
        stream.copy(gpu_arr.buffer(), gpu_res.buffer()).unwrap();
    }
    stream.copy(&mut coarse_res, &gpu_res).unwrap();
    stream.synchronize().unwrap();
    assert_eq!(coarse_res.view().unwrap(), &arr + ntimes);
}

#[test]
fn the_host_is_refused_while_device_work_may_use_the_memory_and_sees_it_after_synchronizing() {
    setup();
    for grain in [GrainKind::Coarse, GrainKind::Fine] {
        let (s, open) = common::gated_stream();
        let (try_err, idle) = match grain {
            GrainKind::Coarse => {
                let mut c = coarsegrain_array::<u32, _>(64, Order::C).unwrap();
                c.fill_on(7, &s).unwrap();
                let e = c.try_view().map(|v| v.to_vec()).unwrap_err();
                let idle = c.is_idle().unwrap();
                open.send(()).unwrap();
                assert_eq!(
                    c.view().unwrap().to_vec(),
                    [7; 64],
                    "visible at the sync point"
                );
                assert!(c.try_view().is_ok() && c.is_idle().unwrap());
                (e, idle)
            }
            GrainKind::Fine => {
                let mut f = finegrain_array::<u32, _>(64, Order::C).unwrap();
                f.fill_on(9, &s).unwrap();
                let e = f.try_view().map(|v| v.to_vec()).unwrap_err();
                let idle = f.is_idle().unwrap();
                open.send(()).unwrap();
                f.synchronize().unwrap();
                assert_eq!(f.try_view().unwrap().to_vec(), [9; 64]);
                (e, idle)
            }
        };
        assert!(!idle, "{grain}: the gated work had not run");
        assert!(
            matches!(&try_err, Error::InUse { memory, stream }
                if *memory == grain.to_string() && *stream == s.to_string()),
            "{try_err}"
        );
    }
}

#[test]
fn device_reads_keep_host_writes_waiting_and_errors_leave_nothing_queued() {
    setup();
    let (s, open) = common::gated_stream();
    let mut c = coarsegrain_array::<u8, _>(8, Order::C).unwrap();
    c.view_mut().unwrap().fill(5);
    let d = rumba::device_array::<u8, _>(8, Order::C).unwrap();
    s.copy(&d, &c).unwrap();
    // Reading on the host while the device reads is fine, but not through `try_view`'s promise
    // that no device work uses it; `view_mut` would wait (the sync point).
    assert!(c.try_view().is_err());
    open.send(()).unwrap();
    c.view_mut().unwrap().fill(6); // waited for the device's read first
    assert_eq!(d.copy_to_host().unwrap().to_vec(), [5; 8]);

    // Refusals queue nothing.
    let wrong = rumba::device_array::<u8, _>(9, Order::C).unwrap();
    assert!(matches!(
        s.copy(&mut c, &wrong),
        Err(Error::IncompatibleShape { .. })
    ));
    let ptd = rumba::per_thread_default_stream().unwrap();
    let err = c.fill_on(1, &ptd).unwrap_err();
    assert!(matches!(err, Error::ThreadLocalStream { .. }), "{err}");
    let mut flags = coarsegrain_array::<bool, _>(2, Order::C).unwrap();
    assert!(
        s.copy(&mut flags, &rumba::to_device(&[true, false]).unwrap())
            .is_err()
    );
    assert!(c.is_idle().unwrap());
    assert_eq!(c.view().unwrap().to_vec(), [6; 8]);
}

#[test]
fn dropping_an_array_with_queued_work_frees_it_after_the_work() {
    setup();
    let (s, open) = common::gated_stream();
    let mut c = coarsegrain_array::<u64, _>(1 << 16, Order::C).unwrap();
    c.fill_on(u64::MAX, &s).unwrap();
    drop(c); // the stream holds the memory until the fill has run
    let mut f = finegrain_array::<u64, _>(1 << 16, Order::C).unwrap();
    f.fill_on(1, &s).unwrap();
    drop(f);
    open.send(()).unwrap();
    s.synchronize().unwrap();
    rumba::current_context()
        .unwrap()
        .flush_deallocations()
        .unwrap();
}

#[test]
fn both_kinds_are_addressed_by_every_device_and_describe_themselves() {
    setup();
    if rumba::gpus().unwrap().len() < 2 {
        eprintln!("skipped: needs two devices");
        return;
    }
    rumba::select_device(1).unwrap();
    let s1 = rumba::stream().unwrap();
    rumba::select_device(0).unwrap();
    let mut f = finegrain_array::<i32, _>((2, 3), Order::C).unwrap();
    f.fill_on(4, &s1).unwrap(); // device 1 writes memory allocated on device 0
    assert_eq!(f.view().unwrap(), array![[4, 4, 4], [4, 4, 4]]);
    let mut c = coarsegrain_array::<i32, _>((2, 3), Order::F).unwrap();
    c.fill_on(-1, &s1).unwrap();
    assert_eq!(c.view().unwrap().sum(), -6);

    let page_locking = rumba::backend_driver()
        .unwrap()
        .device_info(0)
        .unwrap()
        .page_locking;
    assert_eq!(f.is_page_locked(), page_locking.is_available());
    assert!(
        !c.is_page_locked(),
        "coarse-grained memory is not page-locked"
    );

    let desc = c.describe().unwrap();
    assert_eq!(
        (desc.shape.clone(), desc.strides.clone()),
        (vec![2, 3], Some(vec![4, 8]))
    );
    assert_eq!(desc.data.0, c.device().unwrap().device_ptr(0).unwrap());
    let bound = f.bind(&s1);
    assert_eq!(bound.describe().unwrap().stream, Some(s1.handle().0));
    assert_eq!(
        bound.describe().unwrap().data.0,
        bound.device().unwrap().device_ptr(1).unwrap()
    );
}
