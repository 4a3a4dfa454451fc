//! The one transfer verb (`rumba::copy`, `Stream::copy`, `StreamScope::copy`): every pair of the
//! `rumba::transfer` table on every path it allows, what each path borrows and when it
//! completes, and refusals that change nothing.

mod common;

use ndarray::{Array2, ShapeBuilder, array, s};
use rumba::{MappedOptions, Order};

fn setup() {
    common::start(|_| {});
}

#[test]
fn every_pair_copies_synchronously() {
    setup();
    // Pageable ndarray (strided on the host side) → device → pageable.
    let host = Array2::from_shape_fn((3, 4), |(i, j)| (i * 10 + j) as i32);
    let d = rumba::device_array::<i32, _>((3, 2), Order::C).unwrap();
    rumba::copy(&d, &host.slice(s![.., ..;2])).unwrap();
    let mut back = Array2::<i32>::zeros((3, 2).f());
    rumba::copy(&mut back, &d).unwrap();
    assert_eq!(back, host.slice(s![.., ..;2]));

    // Slices and vectors are 1-D host arrays.
    let v = rumba::device_array::<u16, _>(4, Order::C).unwrap();
    rumba::copy(&v, &vec![1u16, 2, 3, 4]).unwrap();
    let mut out = [0u16; 4];
    rumba::copy(&mut out[..], &v).unwrap();
    assert_eq!(out, [1, 2, 3, 4]);
    let mut out = vec![0u16; 4];
    rumba::copy(&mut out, &v).unwrap();
    assert_eq!(out, [1, 2, 3, 4]);

    // Device → device.
    let w = rumba::device_array_like(&v).unwrap();
    rumba::copy(&w, &v).unwrap();
    assert_eq!(w.copy_to_host().unwrap().to_vec(), [1, 2, 3, 4]);

    // Pinned both ways.
    let mut p = rumba::pinned_array::<u16, _>(4, Order::C).unwrap();
    rumba::copy(&mut p, &w).unwrap();
    assert_eq!(&p[..], &[1, 2, 3, 4]);
    p.iter_mut().for_each(|x| *x *= 3);
    rumba::copy(&w, &p).unwrap();
    assert_eq!(w.copy_to_host().unwrap().to_vec(), [3, 6, 9, 12]);

    // Mapped both ways: through the device-side views.
    let mut m = rumba::mapped_array::<u16, _>(4, Order::C, MappedOptions::new()).unwrap();
    rumba::copy(&mut m.device_mut(), &w).unwrap();
    assert_eq!(m.view().to_vec(), [3, 6, 9, 12]);
    m.view_mut()[0] = 100;
    rumba::copy(&v, m.device()).unwrap();
    assert_eq!(v.copy_to_host().unwrap().to_vec(), [100, 6, 9, 12]);
}

#[test]
fn on_a_stream_host_sources_are_taken_before_the_call_returns() {
    setup();
    let (s, gate) = common::gated_stream();
    let d = rumba::device_array::<i64, _>(3, Order::C).unwrap();
    let mut src = vec![1i64, 2, 3];
    s.copy(&d, &src).unwrap(); // queued behind the gate, the bytes already taken
    src.iter_mut().for_each(|x| *x = -1);
    let e = rumba::device_array_like(&d).unwrap();
    s.copy(&e, &d).unwrap();
    gate.send(()).unwrap();
    let mut out = ndarray::Array1::<i64>::zeros(3);
    s.copy(&mut out, &e).unwrap(); // a host destination waits for its data
    assert_eq!(out.to_vec(), [1, 2, 3]);
    let mut p = rumba::pinned_array::<i64, _>(3, Order::C).unwrap();
    s.copy(&mut p, &d).unwrap();
    assert_eq!(&p[..], &[1, 2, 3]);
}

#[test]
fn on_a_scope_host_memory_stays_borrowed_until_the_scope_synchronizes() {
    setup();
    let (s, gate) = common::gated_stream();
    let mut p = rumba::pinned_array::<f32, _>((2, 2), Order::C).unwrap();
    p.copy_from_slice(&[1.0, 2.0, 3.0, 4.0]);
    let d = rumba::device_array::<f32, _>((2, 2), Order::C).unwrap();
    let mut host = Array2::<f32>::zeros((2, 2));
    let mut tail = vec![0.0f32; 4];
    let flat = rumba::device_array::<f32, _>(4, Order::C).unwrap();
    s.auto_synchronize(|scope| {
        scope.copy(&d, &p)?; // pinned: truly asynchronous, `p` borrowed
        scope.copy(&flat, &[5.0f32, 6.0, 7.0, 8.0][..])?;
        gate.send(()).unwrap(); // nothing above could have run before this
        // Into pageable memory the copy waits for its data, as CUDA's does.
        scope.copy(&mut host, &d)?;
        scope.copy(&mut tail, &flat)?;
        Ok(())
    })
    .unwrap();
    assert_eq!(host, array![[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(tail, [5.0, 6.0, 7.0, 8.0]);

    // Mapped memory on a scope: the views are taken by value for the scope.
    let mut m = rumba::mapped_array::<f32, _>(4, Order::C, MappedOptions::new()).unwrap();
    s.auto_synchronize(|scope| scope.copy(m.device_mut(), &flat))
        .unwrap();
    assert_eq!(m.view().to_vec(), [5.0, 6.0, 7.0, 8.0]);
    m.view_mut()[3] = 80.0;
    s.auto_synchronize(|scope| scope.copy(&flat, m.device()))
        .unwrap();
    assert_eq!(flat.copy_to_host().unwrap().to_vec(), [5.0, 6.0, 7.0, 80.0]);
}

#[test]
fn a_refused_copy_changes_nothing_on_every_path() {
    setup();
    let d = rumba::to_device(&[1u8, 2, 3]).unwrap();
    let short = [9u8; 2];
    let s = rumba::stream().unwrap();
    let shape = |r: rumba::Result<()>| match r {
        Err(rumba::Error::IncompatibleShape { left, right }) => (left, right),
        other => panic!("expected a shape refusal, got {other:?}"),
    };
    assert_eq!(shape(rumba::copy(&d, &short[..])), (vec![3], vec![2]));
    assert_eq!(shape(s.copy(&d, &short[..])), (vec![3], vec![2]));
    assert_eq!(
        shape(s.auto_synchronize(|scope| scope.copy(&d, &short[..]))),
        (vec![3], vec![2])
    );
    let mut out = [7u8; 2];
    assert_eq!(shape(rumba::copy(&mut out[..], &d)), (vec![2], vec![3]));
    assert_eq!(shape(s.copy(&mut out[..], &d)), (vec![2], vec![3]));
    assert_eq!(out, [7, 7]);
    s.synchronize().unwrap();
    assert_eq!(d.copy_to_host().unwrap().to_vec(), [1, 2, 3]);
}
