//! docs/design/behaviour.md §2, attributes and shape operations of device arrays, ported from
//! Numba's `test_cuda_ndarray.py` and `test_array.py`: contiguity flags, `ravel`, `reshape`,
//! `view`, `split`, `*_like` strides, transposes, `squeeze`. NumPy's answers are ndarray's answers.

mod common;

use ndarray::{Array, Array1, Array2, ArrayD, IxDyn, ShapeBuilder, s};
use rumba::array::DeviceArray;
use rumba::error::ShapeError;
use rumba::layout::{Element, Order};
use rumba::{device_array, device_array_like, device_array_with_strides, to_device};

fn setup() {
    common::start(|_| {});
}

fn arange(shape: &[usize]) -> ArrayD<i32> {
    let n: usize = shape.iter().product();
    Array::from_iter(0..n as i32)
        .into_shape_with_order(IxDyn(shape))
        .unwrap()
}

fn fortran(a: &ArrayD<i32>) -> ArrayD<i32> {
    let mut f = ArrayD::zeros(a.raw_dim().f());
    f.assign(a);
    f
}

fn flags<A, S: ndarray::Data<Elem = A>, D: ndarray::Dimension>(
    a: &ndarray::ArrayBase<S, D>,
) -> (bool, bool) {
    (a.is_standard_layout(), a.t().is_standard_layout())
}

fn dflags<T: Element, D: ndarray::Dimension>(d: &DeviceArray<T, D>) -> (bool, bool) {
    (d.is_c_contiguous(), d.is_f_contiguous())
}

#[test]
fn attributes() {
    setup();
    let d = to_device(&arange(&[3, 4, 5])).unwrap();
    assert_eq!(d.shape(), &[3, 4, 5]);
    assert_eq!(d.strides(), &[80, 20, 4]);
    let d3 = d.clone().into_dimensionality::<ndarray::Ix3>().unwrap();
    assert_eq!((d.ndim(), d.size(), d3.len()), (3, 60, 3));
    assert_eq!((d.nbytes(), d.alloc_size(), d.itemsize()), (240, 240, 4));
    assert!(d.stream().is_none());
    let v = d.slice(s![.., 1..3, ..;2]).unwrap();
    assert_eq!(v.nbytes(), 3 * 2 * 3 * 4);
    assert_eq!(v.alloc_size(), 2 * 80 + 20 + 4 * 4 + 4);
    assert_eq!(v.dtype().name(), "int32");
}

#[test]
fn contiguity_of_to_device_results_matches_ndarray() {
    setup();
    for shape in [
        &[4usize, 5][..],
        &[3, 4, 5],
        &[2, 3, 4, 5],
        &[1, 4],
        &[4, 1],
    ] {
        let c = arange(shape);
        let f = fortran(&c);
        for host in [c, f] {
            let d = to_device(&host).unwrap();
            assert_eq!(dflags(&d), flags(&host), "{shape:?}");
            assert_eq!(d.copy_to_host().unwrap(), host);
        }
    }
}

#[test]
fn relaxed_strides_1x10_with_800_8_is_both() {
    setup();
    let d = device_array_with_strides::<f64, _>((1, 10), &[800, 8]).unwrap();
    assert!(d.is_c_contiguous() && d.is_f_contiguous());
    // Explicit strides are validated.
    assert!(device_array_with_strides::<f64, _>((2, 3), &[24, 4]).is_err());
    assert!(device_array_with_strides::<f64, _>((2, 3), &[24]).is_err());
    // Zero and negative strides allocate just the span they reach.
    let b = device_array_with_strides::<f32, _>((5, 3), &[0, 4]).unwrap();
    assert_eq!(b.buffer().len(), 12);
    assert!(!b.is_c_contiguous() && !b.is_f_contiguous());
    let r = device_array_with_strides::<f32, _>((2, 3), &[-12, 4]).unwrap();
    r.assign(&Array2::from_shape_fn((2, 3), |(i, j)| (3 * i + j) as f32))
        .unwrap();
    assert_eq!(r.get(&[1, 0]).unwrap(), 3.0);
    assert_eq!(r.buffer().len(), 24);
}

#[test]
fn ravel_c_f_and_a() {
    setup();
    let c = arange(&[2, 5, 2, 3]);
    let d = to_device(&c).unwrap();
    for order in [Order::C, Order::A] {
        let flat = d.ravel(order).unwrap();
        assert!(flat.same_memory(&d));
        assert_eq!(
            flat.copy_to_host().unwrap().to_vec(),
            c.iter().copied().collect::<Vec<_>>()
        );
    }
    assert!(d.ravel(Order::F).is_err());
    let f = fortran(&c);
    let d = to_device(&f).unwrap();
    for order in [Order::F, Order::A] {
        let flat = d.ravel(order).unwrap();
        let want: Vec<i32> = f.t().iter().copied().collect();
        assert_eq!(flat.copy_to_host().unwrap().to_vec(), want);
    }
    assert!(d.ravel(Order::C).is_err());
    // 1-D: the array itself; strided 1-D: an error, never a copy.
    let one = to_device(&Array1::from_iter(0..60i32)).unwrap();
    assert_eq!(one.ravel(Order::C).unwrap().shape(), &[60]);
    let e = one.slice(s![..;2]).unwrap().ravel(Order::C).unwrap_err();
    assert!(e.to_string().contains("would require a copy"), "{e}");
}

#[test]
fn reshape_c_and_f_of_arange_10() {
    setup();
    let host = Array1::from_iter(0..10i32);
    let d = to_device(&host).unwrap();
    let c = d.reshape((2, 5), Order::C).unwrap(); // an Ix2 array
    assert_eq!(
        c.copy_to_host().unwrap(),
        host.clone().into_shape_with_order((2, 5)).unwrap()
    );
    let f = d.reshape((2, 5), Order::F).unwrap();
    let want = host
        .clone()
        .into_shape_with_order(((2, 5), ndarray::Order::ColumnMajor))
        .unwrap();
    assert_eq!(f.copy_to_host().unwrap(), want);
    assert!(f.same_memory(&d));
    // One -1; a size change or a needed copy is an error.
    assert_eq!(d.reshape_dyn(&[-1, 2], Order::C).unwrap().shape(), &[5, 2]);
    assert!(matches!(
        d.reshape_dyn(&[-1, -1], Order::C),
        Err(rumba::Error::Shape(ShapeError::MultipleUnknown { .. }))
    ));
    assert!(matches!(
        d.reshape((3, 3), Order::C),
        Err(rumba::Error::Shape(ShapeError::ReshapeSize {
            size: 10,
            ..
        }))
    ));
    let t = c.t();
    assert!(matches!(
        t.reshape(10, Order::C),
        Err(rumba::Error::NotContiguous(_))
    ));
    assert_eq!(
        t.reshape(10, Order::F)
            .unwrap()
            .copy_to_host()
            .unwrap()
            .as_slice()
            .unwrap(),
        &(0..10).collect::<Vec<_>>()[..]
    );
}

fn i16_3x4() -> Array2<i16> {
    Array::from_iter(0..12i16)
        .into_shape_with_order((3, 4))
        .unwrap()
}

/// The host's own reinterpretation of a C-contiguous i16 array's bytes.
fn reinterpret<U: bytemuck::Pod>(a: &Array2<i16>) -> Vec<U> {
    let bytes: &[u8] = bytemuck::cast_slice(a.as_slice().unwrap());
    bytes
        .chunks_exact(std::mem::size_of::<U>())
        .map(bytemuck::pod_read_unaligned)
        .collect()
}

#[test]
fn view_as_other_dtypes_matches_the_host_reinterpretation() {
    setup();
    let h = i16_3x4();
    let d = to_device(&h).unwrap();
    let v = d.view::<i32>().unwrap();
    assert_eq!(v.shape(), &[3, 2]);
    assert_eq!(
        v.copy_to_host().unwrap().into_raw_vec_and_offset().0,
        reinterpret::<i32>(&h)
    );
    let v = d.view::<u32>().unwrap();
    assert_eq!(
        v.copy_to_host().unwrap().into_raw_vec_and_offset().0,
        reinterpret::<u32>(&h)
    );
    let v = d.view::<i64>().unwrap();
    assert_eq!(v.shape(), &[3, 1]);
    assert_eq!(
        v.copy_to_host().unwrap().into_raw_vec_and_offset().0,
        reinterpret::<i64>(&h)
    );
    let v = d.view::<f64>().unwrap();
    let got = v.copy_to_host().unwrap().into_raw_vec_and_offset().0;
    let want = reinterpret::<f64>(&h);
    assert_eq!(got.len(), want.len());
    assert!(
        got.iter()
            .zip(&want)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );
}

#[test]
fn view_of_a_strided_array() {
    setup();
    let h = Array::from_iter(0..32i16)
        .into_shape_with_order((4, 8))
        .unwrap();
    let d = to_device(&h).unwrap().slice(s![.., ..;2]).unwrap();
    let u = d.view::<u16>().unwrap();
    let want = h.slice(s![.., ..;2]).mapv(|v| v as u16);
    assert_eq!(u.copy_to_host().unwrap(), want);
    assert_eq!(
        d.view::<i32>().unwrap_err().to_string(),
        "to change to a dtype of a different size, the array must be C-contiguous"
    );
    let odd = to_device(
        &Array::from_iter(0..12i16)
            .into_shape_with_order((4, 3))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        odd.view::<i32>().unwrap_err().to_string(),
        "when changing to a dtype of a different size, its size (4 bytes) must be a divisor of the total size in bytes of the last axis of the array (6 bytes)"
    );
}

#[test]
fn split_50_of_100_copies_back() {
    setup();
    let original = Array1::from_iter(0..100i32);
    let d = to_device(&original).unwrap();
    let parts = d.split(50).unwrap();
    assert_eq!(parts.len(), 2);
    let mut host = Array1::<i32>::zeros(100);
    rumba::copy(&mut host.slice_mut(s![50..]), &parts[1]).unwrap();
    rumba::copy(&mut host.slice_mut(s![..50]), &parts[0]).unwrap();
    assert_eq!(host, original);
    assert_eq!(
        d.split(30)
            .unwrap()
            .iter()
            .map(|p| p.size())
            .collect::<Vec<_>>(),
        [30, 30, 30, 10]
    );
    assert!(d.slice(s![..;2]).unwrap().split(10).is_err());
}

/// numpy's `empty_like` strides (in bytes), written out for each case.
fn like_case<S: ndarray::Data<Elem = i32>, D: ndarray::Dimension>(
    view: &ndarray::ArrayBase<S, D>,
    want: &[isize],
) {
    let from_host = device_array_like(view).unwrap();
    assert_eq!(from_host.shape(), view.shape());
    assert_eq!(from_host.strides(), want, "host {:?}", view.strides());
    let dev = to_device(view).unwrap();
    assert_eq!(device_array_like(&dev).unwrap().strides(), want);
    assert_eq!(dev.strides(), want, "to_device uses the same rule");
}

#[test]
fn like_follows_numpys_empty_like_rule() {
    setup();
    let c1 = Array1::<i32>::zeros(10);
    like_case(&c1, &[4]);
    like_case(&c1.slice(s![..;2]), &[4]);
    let c2 = Array2::<i32>::zeros((10, 12));
    let f2 = Array2::<i32>::zeros((10, 12).f());
    like_case(&c2, &[48, 4]);
    like_case(&f2, &[4, 40]);
    like_case(&c2.t(), &[4, 48]);
    like_case(&f2.t(), &[40, 4]);
    like_case(&c2.slice(s![..;2, ..;2]), &[24, 4]);
    like_case(&f2.slice(s![..;2, ..;2]), &[4, 20]);
    let c3 = arange(&[2, 3, 4]);
    let f3 = fortran(&c3);
    like_case(&c3, &[48, 16, 4]);
    like_case(&f3, &[4, 8, 24]);
    like_case(&c3.t(), &[4, 16, 48]);
    like_case(&f3.t(), &[24, 8, 4]);
    // Neither C nor F: axes packed in order of stride magnitude.
    let p = c3.view().permuted_axes(IxDyn(&[1, 0, 2]));
    like_case(&p, &[16, 48, 4]);
    // Device views (Numba's `*_like` of `d[::2]`).
    let d = to_device(&c2).unwrap();
    let like = device_array_like(&d.slice(s![..;2, ..;2]).unwrap()).unwrap();
    assert_eq!(like.strides(), &[24, 4]);
}

#[test]
fn transposes_are_views_and_transpose_copy_runs_on_the_device() {
    setup();
    let h = arange(&[2, 3, 4]);
    let d = to_device(&h).unwrap();
    let same = d.transpose(&[0, 1, 2]).unwrap();
    assert!(same.same_memory(&d) && same.strides() == d.strides());
    let t = d.t();
    assert!(t.same_memory(&d) && t.is_f_contiguous());
    assert_eq!(t.copy_to_host().unwrap(), h.t());
    let p = d.transpose(&[2, 0, 1]).unwrap();
    assert_eq!(
        p.copy_to_host().unwrap(),
        h.view().permuted_axes(IxDyn(&[2, 0, 1]))
    );
    for bad in [&[0usize, 1][..], &[0, 1, 1], &[0, 1, 3]] {
        assert!(
            d.transpose(bad)
                .unwrap_err()
                .to_string()
                .starts_with("invalid axes list")
        );
    }
    let tc = d.transpose_copy(Some(&[2, 0, 1])).unwrap();
    assert!(tc.is_c_contiguous() && !tc.same_memory(&d));
    assert_eq!(
        tc.copy_to_host().unwrap(),
        h.view().permuted_axes(IxDyn(&[2, 0, 1]))
    );
    // Of a strided, reversed 2-D view too.
    let h2 = arange(&[6, 5])
        .into_dimensionality::<ndarray::Ix2>()
        .unwrap();
    let d2 = to_device(&h2).unwrap();
    let v = d2.slice(s![..;-2, 1..]).unwrap();
    let tc = v.transpose_copy(None).unwrap();
    assert_eq!(tc.copy_to_host().unwrap(), h2.slice(s![..;-2, 1..]).t());
}

#[test]
fn squeeze_bind_and_dimensionality() {
    setup();
    let d = device_array::<u8, _>((1, 3, 1), Order::C).unwrap();
    assert_eq!(d.squeeze(None).unwrap().shape(), &[3]);
    assert_eq!(d.squeeze(Some(0)).unwrap().shape(), &[3, 1]);
    assert!(d.squeeze(Some(1)).is_err());
    assert!(d.squeeze(Some(3)).is_err());
    let s = rumba::stream().unwrap();
    let b = d.bind(&s);
    assert_eq!(b.stream().unwrap().handle(), s.handle());
    assert!(b.same_memory(&d) && d.stream().is_none());
    // Views of a bound array stay bound.
    assert!(b.slice(s![0, .., 0]).unwrap().stream().is_some());
    let dy: DeviceArray<u8, IxDyn> = d.clone().into_dyn();
    assert!(dy.clone().into_dimensionality::<ndarray::Ix3>().is_ok());
    assert!(dy.into_dimensionality::<ndarray::Ix2>().is_err());
    assert_eq!(d.index_axis(1, 2).unwrap().shape(), &[1, 1]);
}

#[test]
fn zero_size_and_zero_d_arrays() {
    setup();
    for shape in [&[0usize][..], &[0, 3], &[3, 0, 2]] {
        let h = ArrayD::<f32>::zeros(IxDyn(shape));
        let d = to_device(&h).unwrap();
        assert_eq!(d.buffer().len(), 0, "no allocation for size 0");
        assert_eq!(d.shape(), shape);
        assert_eq!(d.copy_to_host().unwrap().shape(), shape);
        rumba::copy(&d, &h).unwrap();
        d.assign(1.0f32).unwrap();
        assert!(d.is_c_contiguous() && d.is_f_contiguous());
        assert_eq!(device_array_like(&d).unwrap().shape(), shape);
    }
    let z = device_array::<f32, _>((), Order::C).unwrap();
    assert_eq!((z.ndim(), z.size(), z.nbytes()), (0, 1, 4));
    z.assign(2.5f32).unwrap();
    assert_eq!(z.get(&[]).unwrap(), 2.5);
    assert_eq!(z.copy_to_host().unwrap(), ndarray::arr0(2.5f32));
    let z = to_device(&ndarray::arr0(7i64)).unwrap();
    assert_eq!(z.copy_to_host().unwrap().into_scalar(), 7);
    // `z.len()` does not compile: a 0-d array has no first axis (see DeviceArray::len).
}
