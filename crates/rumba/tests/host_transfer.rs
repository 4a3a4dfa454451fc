//! docs/design/behaviour.md §2/§3: asynchronous transfers of pinned and pageable host memory
//! (ported from Numba's `test_pinned.py`), owned transfers that hand pinned buffers back, and a
//! two-stream pipeline.

mod common;

use ndarray::Array1;
use rumba::Order;

fn setup() {
    common::start(|c| c.sim_memory = Some(512 << 20));
}

/// Numba's `_run_copies`: allocate on the device without copying, on a stream; copy to the
/// device; copy back; synchronize; the host array is unchanged.
fn run_copies(a: &mut ndarray::ArrayViewMut1<'_, i64>) {
    let a0 = a.to_owned();
    let s = rumba::stream().unwrap();
    let d = rumba::to_device_alloc(&a.view()).unwrap().bind(&s);
    s.copy(&d, &a.view()).unwrap();
    s.auto_synchronize(|scope| scope.copy(&mut *a, &d)).unwrap();
    s.synchronize().unwrap();
    assert_eq!(*a, a0);
}

const COUNT: i64 = 2 * 1024 * 1024; // 16 MiB of i64

#[test]
fn copies_inside_pinned_leave_the_array_unchanged() {
    setup();
    let mut a = Array1::from_iter(0..COUNT);
    let mut g = rumba::pinned([&mut a]).unwrap();
    run_copies(&mut g.view_mut(0).unwrap());
}

#[test]
fn copies_outside_pinned_leave_the_array_unchanged() {
    setup();
    let mut a = Array1::from_iter(0..COUNT);
    run_copies(&mut a.view_mut());
}

#[test]
fn an_async_download_into_a_pinned_buffer_is_read_only_after_it_completed() {
    setup();
    let s = rumba::stream().unwrap();
    let data = Array1::from_iter(0..COUNT);
    let d = rumba::to_device(&data).unwrap();
    // Hold the stream so the copy cannot have run when we drop the device array.
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    s.add_callback(move |_, _| {
        let _ = rx.recv();
    })
    .unwrap();
    let p = rumba::pinned_array::<i64, _>(COUNT as usize, Order::C).unwrap();
    let t = s.download(&d, p).unwrap();
    drop(d); // the queued copy keeps the device memory alive
    assert!(!t.is_done());
    tx.send(()).unwrap();
    let p = t.wait().unwrap();
    assert_eq!(p.view(), data);
}

#[test]
fn uploads_hand_the_buffer_back_and_reject_bad_shapes_without_losing_it() {
    setup();
    let s = rumba::stream().unwrap();
    let mut p = rumba::pinned_array::<f32, _>((3, 4), Order::C).unwrap();
    p.view_mut().fill(2.0);
    let wrong = rumba::device_array::<f32, _>((4, 3), Order::C).unwrap();
    let rejected = s.upload(p, &wrong).unwrap_err();
    assert!(rejected.error.to_string().contains("incompatible shape"));
    let p = rejected.buffer;
    let strided = rumba::device_array::<f32, _>((3, 8), Order::C).unwrap();
    let rejected = s
        .upload(p, &strided.slice(ndarray::s![.., ..;2]).unwrap())
        .unwrap_err(); // a non-contiguous device destination
    let p = rejected.buffer;
    let d = rumba::device_array::<f32, _>((3, 4), Order::F).unwrap(); // packed on the way
    let p = s.upload(p, &d).unwrap().wait().unwrap();
    assert_eq!(d.copy_to_host().unwrap(), p.view());
}

#[test]
fn a_transfer_dropped_early_releases_its_buffer_after_the_copy() {
    setup();
    let s = rumba::stream().unwrap();
    let d = rumba::to_device(&Array1::from_iter(0..1000u32)).unwrap();
    for _ in 0..20 {
        let p = rumba::pinned_array::<u32, _>(1000, Order::C).unwrap();
        drop(s.download(&d, p).unwrap());
    }
    s.synchronize().unwrap();
}

#[test]
fn transfers_are_futures() {
    setup();
    let s = rumba::stream().unwrap();
    let d = rumba::to_device(&[9u8; 64]).unwrap();
    let p = rumba::pinned_array::<u8, _>(64, Order::C).unwrap();
    let t = s.download(&d, p).unwrap();
    let p = common::block_on(t).unwrap();
    assert!(p.view().iter().all(|&b| b == 9));
}

#[test]
fn pageable_copies_on_a_stream_are_staged() {
    setup();
    let s = rumba::stream().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    s.add_callback(move |_, _| {
        let _ = rx.recv();
    })
    .unwrap();
    let d = rumba::device_array::<i32, _>(1000, Order::C).unwrap();
    let mut host = Array1::from_iter(0..1000i32);
    s.copy(&d, &host).unwrap(); // returns although the stream is held
    host.fill(-1); // the data was taken: changing it now is fine
    tx.send(()).unwrap();
    s.synchronize().unwrap();
    assert_eq!(d.copy_to_host().unwrap(), Array1::from_iter(0..1000i32));
}

#[test]
fn a_two_stream_pipeline_computes_every_chunk() {
    setup();
    const CHUNK: usize = 1 << 16;
    const CHUNKS: usize = 8;
    let (copy, compute) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let mut input = rumba::pinned_array::<i32, _>(CHUNK * CHUNKS, Order::C).unwrap();
    input
        .view_mut()
        .assign(&Array1::from_iter(0..(CHUNK * CHUNKS) as i32));
    let out = rumba::device_array::<i32, _>((CHUNKS, CHUNK), Order::C).unwrap();
    let stage: Vec<_> = (0..2)
        .map(|_| rumba::device_array::<i32, _>(CHUNK, Order::C).unwrap())
        .collect();
    let ready: Vec<_> = (0..2)
        .map(|_| rumba::event(rumba::EventOptions::untimed()).unwrap())
        .collect();
    let free: Vec<_> = (0..2)
        .map(|_| rumba::event(rumba::EventOptions::untimed()).unwrap())
        .collect();
    let whole = input.view();
    let views: Vec<_> = whole.exact_chunks(CHUNK).into_iter().collect();
    copy.auto_synchronize(|scope| -> rumba::Result<()> {
        for (k, chunk) in views.iter().enumerate() {
            let slot = k % 2;
            free[slot].wait(scope.stream())?; // the compute of chunk k-2 is done with the slot
            scope.copy(&stage[slot], chunk)?;
            ready[slot].record(scope.stream())?;
            ready[slot].wait(&compute)?;
            out.slice(ndarray::s![k, ..;-1])?
                .assign_on(&stage[slot], &compute)?; // reversed: a strided device-side assign
            free[slot].record(&compute)?;
        }
        compute.synchronize()
    })
    .unwrap();
    let back = out.copy_to_host().unwrap();
    for k in 0..CHUNKS {
        assert_eq!(back[[k, 0]], ((k + 1) * CHUNK - 1) as i32);
        assert_eq!(back[[k, CHUNK - 1]], (k * CHUNK) as i32);
    }
}
