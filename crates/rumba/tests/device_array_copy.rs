//! docs/design/behaviour.md §2, transfers: `to_device`, `copy_to_host(_into)`, `copy_from_host`,
//! `copy_from_device`, their compatibility rules and error texts, asynchronous variants, records.
//! Ported from Numba's `test_cuda_ndarray.py` (contiguous copies, broadcast copies, strided host
//! copies) and `test_cuda_array_interface`-free record tests.

mod common;

use ndarray::{Array, Array1, Array2, Array3, ArrayD, ArrayViewMut1, Axis, IxDyn, ShapeBuilder, s};
use rumba::Order;
use rumba::array::DeviceRecord;
use rumba::{Error, device_array, to_device, to_device_alloc, to_device_on};

fn setup() {
    common::start(|_| {});
}

fn fortran<D: ndarray::Dimension>(a: &Array<i32, D>) -> Array<i32, D> {
    let mut f = Array::zeros(a.raw_dim().f());
    f.assign(a);
    f
}

fn four_combinations<D: ndarray::Dimension>(a_c: Array<i32, D>) {
    let a_f = fortran(&a_c);
    assert!(a_c.is_standard_layout() && a_f.t().is_standard_layout());
    for (original, copy) in [(&a_f, &a_f), (&a_f, &a_c), (&a_c, &a_f), (&a_c, &a_c)] {
        let d = to_device(original).unwrap();
        rumba::copy(&d, copy).unwrap();
        assert_eq!(d.copy_to_host().unwrap(), a_c);
        assert_eq!(d.copy_to_host().unwrap(), a_f);
        let mut back_f = Array::zeros(a_c.raw_dim().f());
        rumba::copy(&mut back_f, &d).unwrap();
        assert_eq!(back_f, a_c);
    }
}

#[test]
fn copies_across_c_and_f_on_host_and_device() {
    setup();
    four_combinations(Array1::from_iter(0..5i32));
    four_combinations(
        Array::from_iter(0..125i32)
            .into_shape_with_order((5, 5, 5))
            .unwrap(),
    );
}

#[test]
fn device_c_from_device_f_is_refused_with_incompatible_strides() {
    setup();
    let a_c = Array::from_iter(0..125i32)
        .into_shape_with_order((5, 5, 5))
        .unwrap();
    let a_f = fortran(&a_c);
    let d = to_device(&a_c).unwrap();
    assert_eq!(
        rumba::copy(&d, &to_device(&a_f).unwrap())
            .unwrap_err()
            .to_string(),
        "incompatible strides: [100, 20, 4] vs. [4, 20, 100]"
    );
    rumba::copy(&d, &to_device(&a_c).unwrap()).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), a_c);
    let d = to_device(&a_f).unwrap();
    assert_eq!(
        rumba::copy(&d, &to_device(&a_c).unwrap())
            .unwrap_err()
            .to_string(),
        "incompatible strides: [4, 20, 100] vs. [100, 20, 4]"
    );
    rumba::copy(&d, &to_device(&a_f).unwrap()).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), a_f);
}

#[test]
fn broadcast_host_arrays_round_trip() {
    setup();
    let core_c = Array::from_iter(0..6i32)
        .into_shape_with_order((2, 3))
        .unwrap();
    let core_f = fortran(&core_c);
    for dim in 0..2 {
        let mut broadshape = vec![2usize, 3];
        broadshape.insert(dim, 4);
        let broad_c = core_c.view().insert_axis(Axis(dim));
        let broad_c = broad_c.broadcast(IxDyn(&broadshape)).unwrap();
        let broad_f = core_f.view().insert_axis(Axis(dim));
        let broad_f = broad_f.broadcast(IxDyn(&broadshape)).unwrap();
        let dc = to_device(&broad_c).unwrap();
        let df = to_device(&broad_f).unwrap();
        assert_eq!(dc.copy_to_host().unwrap(), broad_c);
        assert_eq!(df.copy_to_host().unwrap(), broad_f);
        // Across the core orderings.
        rumba::copy(&dc, &broad_f).unwrap();
        rumba::copy(&df, &broad_c).unwrap();
        assert_eq!(df.copy_to_host().unwrap(), broad_f);
        assert_eq!(dc.copy_to_host().unwrap(), broad_c);
    }
}

#[test]
fn strided_host_source_into_a_contiguous_device_array() {
    setup();
    let d = to_device(&Array1::from_iter(0..10i64)).unwrap();
    let host = Array1::from_iter(0..20i64);
    rumba::copy(&d, &host.slice(s![..;2])).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host.slice(s![..;2]));
    // Negative host strides are packed too.
    rumba::copy(&d, &host.slice(s![..;-2])).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host.slice(s![..;-2]));
}

#[test]
fn strided_device_source_is_gathered_on_the_device() {
    setup();
    let src = to_device(&Array1::from_iter(0..20i64)).unwrap();
    let dst = device_array::<i64, _>(10, Order::C).unwrap();
    rumba::copy(&dst, &src.slice(s![..;2]).unwrap()).unwrap();
    assert_eq!(
        dst.copy_to_host().unwrap().to_vec(),
        (0..20).step_by(2).collect::<Vec<_>>()
    );
    // Shapes must still agree.
    let e = rumba::copy(&src, &src.slice(s![..;2]).unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "incompatible shape: (20,) vs. (10,)");
}

#[test]
fn non_contiguous_device_destination_is_refused_but_assignment_works() {
    setup();
    let a = Array::from_iter(0..25i32)
        .into_shape_with_order((5, 5))
        .unwrap();
    let a = fortran(&a);
    let s5 = Array1::from_elem(5, 5i32);
    let d = to_device(&a).unwrap();
    let row = d.slice(s![2, ..]).unwrap();
    assert!(matches!(
        rumba::copy(&row, &s5),
        Err(Error::NotContiguous(_))
    ));
    assert_eq!(d.copy_to_host().unwrap(), a, "nothing was written");
    row.assign(&s5).unwrap();
    let mut want = a.clone();
    want.row_mut(2).assign(&s5);
    assert_eq!(d.copy_to_host().unwrap(), want);
}

#[test]
fn shape_rules_ignore_length_one_axes() {
    setup();
    let d = to_device(&Array2::<f32>::zeros((1, 4))).unwrap();
    rumba::copy(&d, &Array1::from_vec(vec![1.0f32, 2.0, 3.0, 4.0])).unwrap();
    let mut out = Array3::<f32>::zeros((4, 1, 1));
    rumba::copy(&mut out, &d).unwrap();
    assert_eq!(
        out.iter().copied().collect::<Vec<_>>(),
        [1.0, 2.0, 3.0, 4.0]
    );
    let e = rumba::copy(&d, &Array1::<f32>::zeros(3)).unwrap_err();
    assert_eq!(e.to_string(), "incompatible shape: (4,) vs. (3,)");
}

#[test]
fn device_to_host_into_strided_and_from_thin_views() {
    setup();
    let big = Array2::from_shape_fn((300, 200), |(i, j)| (i * 1000 + j) as f32);
    let d = to_device(&big).unwrap();
    // A thin column: gathered on the device first. Every other column: one span, unpacked.
    for v in [s![.., 3], s![7, ..]] {
        assert_eq!(d.slice(v).unwrap().copy_to_host().unwrap(), big.slice(v));
    }
    let half = d.slice(s![.., ..;2]).unwrap();
    let mut host = Array2::<f32>::zeros((300, 200));
    rumba::copy(&mut host.slice_mut(s![.., 1..;2]), &half).unwrap();
    assert_eq!(host.slice(s![.., 1..;2]), big.slice(s![.., ..;2]));
    assert!(host.slice(s![.., ..;2]).iter().all(|&v| v == 0.0));
    // Negative strides on the device side are refused for device -> host.
    let e = d.slice(s![..;-1, ..]).unwrap().copy_to_host().unwrap_err();
    assert_eq!(
        e,
        rumba::Error::Strides(rumba::error::StridesError::NegativeToHost {
            strides: vec![-800, 4]
        })
    );
    assert_eq!(
        e.to_string(),
        "copying a device array with negative strides [-800, 4] to the host is not supported; copy it into a new device array first"
    );
}

#[test]
fn to_device_of_device_data_and_allocation_only() {
    setup();
    let d = to_device(&[1.0f64, 2.0]).unwrap();
    let same = to_device(&d).unwrap();
    assert!(same.same_memory(&d) && same.device_ptr() == d.device_ptr());
    let host = Array2::<u16>::ones((3, 4).f());
    let a = to_device_alloc(&host).unwrap();
    assert!(a.is_f_contiguous() && a.shape() == [3, 4]);
    assert_eq!(a.copy_to_host().unwrap(), Array2::<u16>::zeros((3, 4)));
    // Into an existing array (Numba's `to=`).
    rumba::copy(&a, &host).unwrap();
    assert_eq!(a.copy_to_host().unwrap(), host);
    // Slices, vectors, fixed arrays.
    assert_eq!(to_device(&vec![1u8, 2]).unwrap().size(), 2);
    assert_eq!(to_device(&[0u8; 5][1..]).unwrap().size(), 4);
}

#[test]
fn bool_bytes_are_normalised_on_the_way_back() {
    setup();
    let d = to_device(&[0u8, 1, 2, 255]).unwrap();
    let b = d.view::<bool>().unwrap();
    assert_eq!(
        b.copy_to_host().unwrap().to_vec(),
        [false, true, true, true]
    );
    assert!(b.get(&[2]).unwrap());
    let mut into = Array1::from_elem(4, false);
    rumba::copy(&mut into, &b).unwrap();
    assert_eq!(into.to_vec(), [false, true, true, true]);
}

#[test]
fn asynchronous_copies_on_streams() {
    setup();
    let s = rumba::stream().unwrap();
    let host = Array2::from_shape_fn((64, 32), |(i, j)| (i * 32 + j) as f64);
    let d = to_device_on(&host, &s).unwrap();
    assert_eq!(d.stream().unwrap().handle(), s.handle());
    let e = rumba::device_array::<f64, _>((64, 32), Order::F).unwrap();
    s.copy(&e, &d.t().t()).unwrap_err(); // C into F: refused before queuing
    let c = rumba::device_array::<f64, _>((64, 32), Order::C).unwrap();
    s.copy(&c, &d).unwrap();
    drop(d); // the stream keeps the source alive until the copy has run
    assert_eq!(c.copy_to_host_on(&s).unwrap(), host);
    // Host data given to `*_on` is taken before the call returns.
    let mut changing = host.clone();
    s.copy(&c, &changing).unwrap();
    changing.fill(-1.0);
    s.synchronize().unwrap();
    assert_eq!(c.copy_to_host().unwrap(), host);
}

#[test]
fn scoped_copies_borrow_pinned_host_memory_until_the_scope_ends() {
    setup();
    let ctx = rumba::current_context().unwrap();
    let n = 1 << 16;
    let mut pin_in = ctx.memhostalloc(n * 4, Default::default()).unwrap();
    let mut pin_out = ctx.memhostalloc(n * 4, Default::default()).unwrap();
    let input = ArrayViewMut1::from(bytemuck::cast_slice_mut::<u8, f32>(&mut pin_in[..]));
    let mut input = input;
    input
        .iter_mut()
        .enumerate()
        .for_each(|(i, v)| *v = i as f32);
    let input = input.view();
    let mut output = ArrayViewMut1::from(bytemuck::cast_slice_mut::<u8, f32>(&mut pin_out[..]));
    let s = rumba::stream().unwrap();
    let mut strided = Array1::<f32>::zeros(2 * n);
    let mut every_other = strided.slice_mut(s![..;2]);
    s.auto_synchronize(|scope| -> rumba::Result<()> {
        let d = scope.to_device(&input)?;
        let r = rumba::device_array::<f32, _>(n, Order::C)?;
        // Device sources borrow no host memory: the plain `*_on` variant fits.
        r.assign_on(&d.slice(ndarray::s![..;-1])?, scope.stream())?;
        scope.copy(&mut output, &r)?;
        // A strided destination is unpacked on the host.
        scope.copy(&mut every_other, &d)
    })
    .unwrap();
    let rev = strided;
    assert!(
        output
            .iter()
            .enumerate()
            .all(|(i, &v)| v == (n - 1 - i) as f32)
    );
    assert!(
        rev.slice(s![..;2])
            .iter()
            .enumerate()
            .all(|(i, &v)| v == i as f32)
    );
}

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Sample {
    t: f64,
    id: u32,
    weight: f32,
    flags: [u8; 8],
}
rumba::record!(Sample);

#[test]
fn record_arrays_and_fields_read_back_exactly() {
    setup();
    let recs: Vec<Sample> = (0..10)
        .map(|i| Sample {
            t: i as f64 * 0.1,
            id: 100 + i,
            weight: 1.0 / (i as f32 + 1.0),
            flags: [i as u8; 8],
        })
        .collect();
    let d = to_device(&recs).unwrap();
    assert_eq!(d.dtype().name(), "Sample");
    assert_eq!(d.copy_to_host().unwrap().to_vec(), recs);
    let ids = d.field(rumba::field!(Sample, id)).unwrap();
    assert_eq!((ids.strides(), ids.layout().offset()), (&[24][..], 8));
    assert_eq!(
        ids.copy_to_host().unwrap().to_vec(),
        (100..110).collect::<Vec<u32>>()
    );
    let w = d.field(rumba::field!(Sample, weight)).unwrap();
    let want: Vec<f32> = recs.iter().map(|r| r.weight).collect();
    assert_eq!(w.copy_to_host().unwrap().to_vec(), want);
    let t = d
        .slice(s![..;3])
        .unwrap()
        .field(rumba::field!(Sample, t))
        .unwrap();
    assert_eq!(
        t.copy_to_host().unwrap().to_vec(),
        [0.0, 0.30000000000000004, 0.6000000000000001, 0.9]
    );
    // Writing a field in every record.
    ids.assign(7u32).unwrap();
    assert!(
        d.copy_to_host()
            .unwrap()
            .iter()
            .all(|r| r.id == 7 && r.weight > 0.0)
    );
    // One record: read and write whole or by field.
    let r = d.record(&[4]).unwrap();
    assert_eq!(r.get_field(rumba::field!(Sample, t)).unwrap(), 0.4);
    r.set_field(rumba::field!(Sample, weight), 9.5).unwrap();
    assert_eq!(d.get(&[4]).unwrap().weight, 9.5);
    let one = DeviceRecord::new(recs[2]).unwrap();
    assert_eq!(one.get().unwrap(), recs[2]);
    one.set(recs[3]).unwrap();
    assert_eq!(one.get_field(rumba::field!(Sample, id)).unwrap(), 103);
    // A field that does not fit is refused.
    let bogus = rumba::array::Field::new(20, |s: &Sample| &s.t);
    assert!(one.get_field(bogus).is_err());
}

#[test]
fn every_element_type_round_trips() {
    setup();
    fn rt<T: rumba::layout::Element + PartialEq + std::fmt::Debug>(vals: [T; 3]) {
        let d = to_device(&vals).unwrap();
        assert_eq!(d.copy_to_host().unwrap().to_vec(), vals);
        let h = ArrayD::from_shape_vec(IxDyn(&[3, 1]), vals.to_vec()).unwrap();
        let d = to_device(&h).unwrap();
        assert_eq!(d.copy_to_host().unwrap(), h);
    }
    rt([1i8, -2, 3]);
    rt([1i16, -2, 3]);
    rt([1i32, -2, 3]);
    rt([1i64, -2, 3]);
    rt([1i128, -2, 3]);
    rt([1u8, 2, 3]);
    rt([1u16, 2, 3]);
    rt([1u32, 2, 3]);
    rt([1u64, 2, 3]);
    rt([1u128, 2, 3]);
    rt([1usize, 2, 3]);
    rt([1isize, -2, 3]);
    rt([1.5f32, -2.5, 3.0]);
    rt([1.5f64, -2.5, 3.0]);
    rt([true, false, true]);
    rt([half::f16::ONE, half::f16::ZERO, half::f16::MAX]);
    rt([half::bf16::ONE, half::bf16::ZERO, half::bf16::MAX]);
    rt([num_complex::Complex::new(1.0f32, 2.0); 3]);
    rt([num_complex::Complex::new(1.0f64, 2.0); 3]);
}

/// Numba's `test_issue_8477`: zero-length arrays whose strides differ copy in every direction,
/// and `to_device` of a zero-length host array keeps the host's strides.
#[test]
fn zero_length_arrays_keep_their_strides_and_copy_whatever_the_strides() {
    setup();
    // A device array of shape (0,) with strides (8,) ...
    let dev = rumba::device_array_with_strides::<i8, _>(0, &[8]).unwrap();
    assert_eq!(dev.strides(), &[8]);
    // ... and a host array of shape (0,) with strides (0,) (ndarray's own zero-length strides).
    let mut host = Array1::<i8>::zeros(0);
    assert_eq!(host.strides(), &[0]);
    rumba::copy(&mut host, &dev).unwrap();
    rumba::copy(&dev, &host).unwrap();
    let from_host = to_device(&host).unwrap();
    assert_eq!(from_host.shape(), &[0]);
    assert_eq!(from_host.strides(), &[0], "the host's strides are kept");
    rumba::copy(&dev, &from_host).unwrap();
    rumba::copy(&from_host, &dev).unwrap();

    // Explicit host strides of a zero-length 2-d array are kept too, in bytes.
    let full = Array2::<i32>::zeros((2, 3));
    let v = full.slice(s![0..0, ..]);
    assert_eq!(
        v.strides(),
        &[0, 1],
        "ndarray zeroes the stride of a length-0 axis"
    );
    let d = to_device(&v).unwrap();
    // Packing would give (12, 4); the host's (0, 1) elements are (0, 4) bytes.
    assert_eq!((d.shape(), d.strides()), (&[0, 3][..], &[0, 4][..]));
    assert_eq!(d.buffer().len(), 0, "nothing is allocated");
    assert_eq!(to_device_alloc(&v).unwrap().strides(), &[0, 4]);
    assert_eq!(d.copy_to_host().unwrap().shape(), &[0, 3]);
    // A non-empty array is still packed by the empty_like rule.
    let t = Array2::<i32>::zeros((2, 3));
    assert_eq!(to_device(&t.t()).unwrap().strides(), &[4, 12]);
}
