//! Checks of devices, device arrays, copies and host memory (docs/design/behaviour.md §1–3).
//!
//! Every copy check writes values that differ per element (so a shifted, transposed or
//! half-done copy shows up) and compares what comes back with what `ndarray` computes on the host.
//!
//! This module touches the current backend through rumba's public API only.

use half::f16;
use ndarray::{Array, Array1, Array2, Array3, ArrayD, IxDyn, ShapeBuilder, s};
use num_complex::Complex;
use rumba::driver::{BackendKind, PageLocking};
use rumba::layout::{Element, Order};

use super::{Check, Outcome, opencl_refusal, pass, skip};
use crate::{ensure, ensure_eq};

/// The checks of this module, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check {
            name: "device.info",
            about: "devices are listed with memory and warp size; free memory moves with an allocation",
            run: device_info,
        },
        Check {
            name: "array.round-trip",
            about: "to_device / copy_to_host of 14 element types in C, F, 0-d and size-0 layouts",
            run: round_trip,
        },
        Check {
            name: "array.views",
            about: "slices (negative steps), transpose, reshape, dtype views, element get/set read the right elements",
            run: views,
        },
        Check {
            name: "copy.host-layouts",
            about: "C / F / strided / negative-stride host arrays into C and F device arrays and back into strided host views",
            run: host_layouts,
        },
        Check {
            name: "copy.device-to-device",
            about: "device -> device copies, strided device sources, transpose_copy; a stride mismatch is refused with no effect",
            run: device_to_device,
        },
        Check {
            name: "copy.assign-broadcast",
            about: "scalar, host and device assignment into strided views with numpy broadcasting; a bad shape has no effect",
            run: assign_broadcast,
        },
        Check {
            name: "copy.async-pageable",
            about: "pageable copies on a created stream in both directions, ordered with device work",
            run: async_pageable,
        },
        Check {
            name: "copy.pinned",
            about: "pinned arrays: scoped and owned (upload/download) asynchronous copies of 16 MiB; pinned guards over existing memory",
            run: pinned,
        },
        Check {
            name: "host.mapped",
            about: "mapped memory: device memset / copies land in host memory without a copy; portable and write-combined flags kept",
            run: mapped,
        },
        Check {
            name: "host.managed",
            about: "managed memory: one allocation written by the host and by the device, read by both",
            run: managed,
        },
    ]
}

fn device_info() -> Outcome {
    let devices = rumba::gpus()?;
    ensure!(!devices.is_empty(), "no devices listed");
    let mut names = Vec::new();
    for d in &devices {
        let info = d.info()?;
        ensure!(info.total_memory > 0, "device {} reports 0 bytes", d.id());
        if super::backend()? == BackendKind::OpenCl {
            // NVIDIA's warp or AMD's wavefront where the vendor reports it, else 1 (PoCL).
            ensure!(
                info.warp_size.is_power_of_two(),
                "device {} reports a warp size of {}",
                d.id(),
                info.warp_size
            );
        } else {
            ensure_eq!(info.warp_size, 32, "warp size");
        }
        ensure!(
            info.max_threads_per_block >= 256,
            "device {} allows only {} threads per block",
            d.id(),
            info.max_threads_per_block
        );
        names.push(info.name);
    }
    let ctx = rumba::current_context()?;
    // The free figure is the whole device's: other processes on a real GPU move it too (the
    // fourth H100 run saw it rise by 463 MiB while rumba allocated 64 MiB, with other tests
    // running), so one of a few tries must show the allocation.
    let (mut free0, mut free1, mut total, mut bytes) = (0, 0, 0, 0);
    for _ in 0..5 {
        ctx.flush_deallocations()?;
        (free0, total) = ctx.get_memory_info()?;
        ensure!(free0 <= total, "free {free0} > total {total}");
        bytes = (64usize << 20).min(free0 / 4);
        let buf = ctx.memalloc(bytes)?;
        (free1, _) = ctx.get_memory_info()?;
        drop(buf);
        ctx.flush_deallocations()?;
        if free1 + bytes / 2 <= free0 {
            break;
        }
    }
    ensure!(
        free1 + bytes / 2 <= free0,
        "free memory went from {free0} to {free1} bytes while {bytes} bytes were allocated (5 tries)"
    );
    pass(format!(
        "{} device(s): {}; {} MiB of {} MiB free",
        devices.len(),
        names.join(", "),
        free0 >> 20,
        total >> 20
    ))
}

/// A value for element `i` of a test array.
trait Sample: Element + PartialEq + std::fmt::Debug {
    fn sample(i: usize) -> Self;
}

macro_rules! sample_int {
    ($($t:ty),*) => {$(
        impl Sample for $t {
            fn sample(i: usize) -> Self {
                (i.wrapping_mul(7919) % 127) as $t
            }
        }
    )*};
}
sample_int!(i8, u8, i16, u16, i32, u32, i64, u64);

impl Sample for f32 {
    fn sample(i: usize) -> Self {
        i as f32 * 0.25 - 100.0
    }
}
impl Sample for f64 {
    fn sample(i: usize) -> Self {
        i as f64 * -0.125 + 1e10
    }
}
impl Sample for f16 {
    fn sample(i: usize) -> Self {
        f16::from_f32((i % 1024) as f32 * 0.5)
    }
}
impl Sample for bool {
    fn sample(i: usize) -> Self {
        i % 3 == 0
    }
}
impl Sample for Complex<f32> {
    fn sample(i: usize) -> Self {
        Complex::new(i as f32, -(i as f32) * 0.5)
    }
}
impl Sample for Complex<f64> {
    fn sample(i: usize) -> Self {
        Complex::new(-(i as f64), i as f64 * 2.0)
    }
}

/// An array of `shape` whose elements are `T::sample(i)` in C order, laid out in `order`.
fn sample_array<T: Sample>(shape: &[usize], order: Order) -> ArrayD<T> {
    let c = Array::from_shape_fn(IxDyn(shape), |ix| {
        let mut i = 0;
        for (ax, &n) in shape.iter().enumerate() {
            i = i * n + ix[ax];
        }
        T::sample(i)
    });
    match order {
        Order::F => {
            let mut f = Array::from_elem(IxDyn(shape).f(), T::sample(0));
            f.assign(&c);
            f
        }
        _ => c,
    }
}

fn round_trip_of<T: Sample>() -> Result<usize, super::Failure> {
    let shapes: [&[usize]; 6] = [&[1000], &[37, 53], &[5, 6, 7], &[], &[0, 3], &[1, 1, 9]];
    let mut n = 0;
    for shape in shapes {
        for order in [Order::C, Order::F] {
            let host = sample_array::<T>(shape, order);
            let d = rumba::to_device(&host)?;
            ensure_eq!(d.shape(), host.shape(), "shape on the device");
            let back = d.copy_to_host()?;
            ensure!(
                back == host,
                "{}: {:?} {:?} came back different",
                T::DTYPE.name(),
                shape,
                order
            );
            n += host.len();
        }
    }
    Ok(n)
}

fn round_trip() -> Outcome {
    let mut elements = 0;
    elements += round_trip_of::<i8>()?;
    elements += round_trip_of::<u8>()?;
    elements += round_trip_of::<i16>()?;
    elements += round_trip_of::<u16>()?;
    elements += round_trip_of::<i32>()?;
    elements += round_trip_of::<u32>()?;
    elements += round_trip_of::<i64>()?;
    elements += round_trip_of::<u64>()?;
    elements += round_trip_of::<f16>()?;
    elements += round_trip_of::<f32>()?;
    elements += round_trip_of::<f64>()?;
    elements += round_trip_of::<Complex<f32>>()?;
    elements += round_trip_of::<Complex<f64>>()?;
    elements += round_trip_of::<bool>()?;
    pass(format!(
        "{elements} elements in 14 types x 12 layouts intact"
    ))
}

fn views() -> Outcome {
    let host = Array::from_shape_fn((6, 8), |(i, j)| (i * 8 + j) as i32);
    let d = rumba::to_device(&host)?;
    let cases = [s![1..5, ..;2], s![..;-1, 3..], s![..;2, ..;-3]];
    for (k, info) in cases.iter().enumerate() {
        let v = d.slice(*info)?;
        // Negative device strides cannot go to the host directly: pack on the device first.
        let packed = rumba::device_array_like(&v)?;
        packed.assign(&v)?;
        ensure!(
            packed.copy_to_host()? == host.slice(*info),
            "slice case {k}: wrong elements"
        );
        if v.strides().iter().all(|&st| st >= 0) {
            ensure!(
                v.copy_to_host()? == host.slice(*info),
                "slice case {k}: wrong elements read directly"
            );
        }
    }
    ensure!(d.t().copy_to_host()? == host.t(), "transposed view");
    let r = d.reshape_dyn(&[4, -1], Order::C)?;
    ensure_eq!(r.shape(), [4usize, 12].as_slice(), "reshape [4, -1]");
    ensure!(
        r.copy_to_host()?.iter().copied().eq(0..48),
        "reshaped view has the wrong elements"
    );
    ensure!(
        d.reshape_dyn(&[5, -1], Order::C).is_err(),
        "reshape to a size that does not divide was accepted"
    );
    let bytes = d.view::<u8>()?;
    ensure_eq!(bytes.shape(), [6usize, 32].as_slice(), "u8 view shape");
    ensure_eq!(bytes.get(&[0, 4])?, 1u8, "byte 4 of element 1");
    d.set(&[2, 3], -7)?;
    ensure_eq!(d.get(&[2, 3])?, -7, "element [2, 3] after set");
    ensure_eq!(d.get(&[2, 4])?, 20, "the neighbour of [2, 3]");
    ensure!(
        d.get(&[6, 0]).is_err(),
        "index [6, 0] of a 6x8 array was accepted"
    );
    pass("3 slices, transpose, reshape, u8 view, get/set")
}

fn host_layouts() -> Outcome {
    let c = sample_array::<f64>(&[40, 30], Order::C);
    let f = sample_array::<f64>(&[40, 30], Order::F);
    let mut n = 0;
    for (src, dst_order) in [
        (&c, Order::C),
        (&c, Order::F),
        (&f, Order::C),
        (&f, Order::F),
    ] {
        let d = rumba::device_array::<f64, _>(IxDyn(&[40, 30]), dst_order)?;
        rumba::copy(&d, src)?;
        ensure!(
            d.copy_to_host()? == c,
            "{dst_order:?} device array from a host array"
        );
        let mut back_f = Array::zeros(IxDyn(&[40, 30]).f());
        rumba::copy(&mut back_f, &d)?;
        ensure!(back_f == c, "into an F-order host array");
        n += 2;
    }
    // Strided and negative-stride host sources, and a strided host destination.
    let wide = Array1::from_iter((0..2000).map(|i| i as i64 * 3));
    let d = rumba::device_array::<i64, _>(1000, Order::C)?;
    for (k, view) in [wide.slice(s![..;2]), wide.slice(s![..;-2])]
        .iter()
        .enumerate()
    {
        rumba::copy(&d, view)?;
        ensure!(d.copy_to_host()? == view, "strided host source case {k}");
    }
    let mut holes = Array1::<i64>::from_elem(3000, -1);
    rumba::copy(&mut holes.slice_mut(s![1..;3]), &d)?;
    ensure!(
        holes.slice(s![1..;3]) == wide.slice(s![..;-2]),
        "the strided host destination got the wrong elements"
    );
    ensure!(
        holes
            .iter()
            .enumerate()
            .all(|(i, &v)| i % 3 == 1 || v == -1),
        "a copy into a strided host view wrote between its elements"
    );
    // A device column (strided on the device) to the host.
    let d2 = rumba::to_device(&c)?;
    ensure!(
        d2.slice(s![.., 7])?.copy_to_host()? == c.slice(s![.., 7]),
        "a device column"
    );
    n += 4;
    pass(format!("{n} layout combinations"))
}

fn device_to_device() -> Outcome {
    let host = Array3::from_shape_fn((4, 5, 6), |(i, j, k)| (i * 100 + j * 10 + k) as u32);
    let a = rumba::to_device(&host)?;
    let b = rumba::device_array::<u32, _>((4, 5, 6), Order::C)?;
    rumba::copy(&b, &a)?;
    ensure!(b.copy_to_host()? == host, "contiguous device -> device");
    let f = rumba::device_array::<u32, _>((4, 5, 6), Order::F)?;
    b.fill(0)?;
    let before = b.copy_to_host()?;
    ensure!(
        rumba::copy(&b, &f).is_err(),
        "an F -> C device copy was accepted (strides differ)"
    );
    ensure!(b.copy_to_host()? == before, "a refused copy wrote data");
    let strided = rumba::to_device(&Array1::from_iter(0..4096u32))?;
    let dst = rumba::device_array::<u32, _>(1024, Order::C)?;
    rumba::copy(&dst, &strided.slice(s![3..;4])?)?;
    ensure!(
        dst.copy_to_host()?.iter().copied().eq((3..4096).step_by(4)),
        "strided device source"
    );
    let t = a.transpose_copy(Some(&[2, 0, 1]))?;
    ensure!(
        t.is_c_contiguous() && t.copy_to_host()? == host.view().permuted_axes([2, 0, 1]),
        "transpose_copy"
    );
    // 64 MiB through the device's own copy engine.
    let n = 16 << 20;
    let big = rumba::to_device(&Array1::from_iter((0..n).map(|i| i as u32)))?;
    let big2 = rumba::device_array::<u32, _>(n, Order::C)?;
    rumba::copy(&big2, &big)?;
    let back = big2.copy_to_host()?;
    ensure!(
        back.iter().enumerate().all(|(i, &v)| v == i as u32),
        "64 MiB device -> device copy"
    );
    pass("contiguous, strided, transposed and 64 MiB copies")
}

fn assign_broadcast() -> Outcome {
    let host = Array2::from_shape_fn((6, 7), |(i, j)| (i * 7 + j) as f32);
    let d = rumba::to_device(&host)?;
    let mut want = host.clone();
    d.slice(s![1..;2, ..;3])?.assign(-1.0f32)?;
    want.slice_mut(s![1..;2, ..;3]).fill(-1.0);
    ensure!(d.copy_to_host()? == want, "scalar into a strided view");
    let row = Array1::from_iter((0..7).map(|j| 100.0 + j as f32));
    d.slice(s![..3, ..])?.assign(&row)?;
    want.slice_mut(s![..3, ..]).assign(&row);
    ensure!(d.copy_to_host()? == want, "host row broadcast over 3 rows");
    let col = rumba::to_device(&Array2::from_shape_fn((6, 1), |(i, _)| i as f32 * -2.0))?;
    d.slice(s![.., 4..])?.assign(&col)?;
    want.slice_mut(s![.., 4..])
        .assign(&Array2::from_shape_fn((6, 1), |(i, _)| i as f32 * -2.0));
    ensure!(d.copy_to_host()? == want, "device column broadcast");
    let bad = Array1::<f32>::zeros(5);
    ensure!(
        d.assign(&bad).is_err(),
        "a length-5 row was broadcast into 7 columns"
    );
    ensure!(d.copy_to_host()? == want, "a refused assignment wrote data");
    let s = rumba::stream()?;
    d.assign_on(7.5f32, &s)?;
    s.synchronize()?;
    ensure!(
        d.copy_to_host()?.iter().all(|&v| v == 7.5),
        "assignment on a stream"
    );
    pass("scalar, host row, device column; mismatch refused")
}

fn async_pageable() -> Outcome {
    let s = rumba::stream()?;
    let n = 4 << 20;
    let host = Array1::from_iter((0..n).map(|i| (i as u32).wrapping_mul(2654435761)));
    let d = rumba::to_device_on(&host, &s)?;
    let d2 = rumba::device_array::<u32, _>(n, Order::C)?;
    s.copy(&d2, &d)?;
    d.assign_on(9u32, &s)?;
    let mut back = Array1::<u32>::zeros(n);
    let mut back2 = Array1::<u32>::zeros(n);
    s.auto_synchronize(|scope| -> rumba::Result<()> {
        scope.copy(&mut back, &d2)?;
        scope.copy(&mut back2, &d)
    })?;
    ensure!(
        back == host,
        "data copied before the fill was overwritten: stream order broken"
    );
    ensure!(
        back2.iter().all(|&v| v == 9),
        "the fill queued on the stream"
    );
    // Pageable upload on the stream: the call returns once the data has been taken.
    let mut src = host.clone();
    s.copy(&d, &src)?;
    src.fill(0);
    s.synchronize()?;
    ensure!(
        d.copy_to_host()? == host,
        "a pageable upload read the host array after the call returned"
    );
    pass("16 MiB each way on a stream, in order")
}

fn pinned() -> Outcome {
    let s = rumba::stream()?;
    let n = 4 << 20;
    let mut p = rumba::pinned_array::<u32, _>(n, Order::C)?;
    for (i, v) in p.as_slice_memory_order_mut().iter_mut().enumerate() {
        *v = (i as u32) ^ 0x5a5a_5a5a;
    }
    let want: Vec<u32> = p.as_slice_memory_order().to_vec();
    let d = rumba::device_array::<u32, _>(n, Order::C)?;
    let t = s.upload(p, &d).map_err(|r| r.error)?; // the pinned array moves into the copy
    let p = t.wait()?;
    ensure!(
        d.copy_to_host()?.as_slice() == Some(want.as_slice()),
        "owned upload"
    );
    d.assign(1u32)?;
    let p = s.download(&d, p).map_err(|r| r.error)?.wait()?;
    ensure!(
        p.as_slice_memory_order().iter().all(|&v| v == 1),
        "owned download"
    );
    let mut p = p;
    s.auto_synchronize(|scope| -> rumba::Result<()> {
        let d2 = rumba::to_device(&Array1::from_iter((0..n as u32).rev()))?;
        scope.copy(&mut p, &d2)
    })?;
    ensure!(
        p.as_slice_memory_order()
            .iter()
            .enumerate()
            .all(|(i, &v)| v == (n - 1 - i) as u32),
        "scoped download into pinned memory"
    );
    s.auto_synchronize(|scope| scope.copy(&d, &p))?;
    ensure!(
        d.copy_to_host()?.as_slice_memory_order() == Some(p.as_slice_memory_order()),
        "scoped upload from pinned memory"
    );
    let locking = match p.page_locking() {
        PageLocking::Available => "page-locked".to_string(),
        PageLocking::Refused(why) => format!("NOT page-locked: {why}"),
    };
    // A guard pins an existing array for as long as it lives.
    let ctx = rumba::current_context()?;
    let mut v = Array1::from_iter(0..65536u64);
    let ptr = v.as_ptr().cast::<u8>();
    {
        let mut g = rumba::pinned([&mut v])?;
        ensure!(
            ctx.driver().is_host_pinned(ptr, 65536 * 8),
            "an array under a pinned guard is not registered as pinned"
        );
        let d = rumba::to_device(&g.view(0)?)?;
        d.assign(3u64)?;
        rumba::copy(&mut g.view_mut(0)?, &d)?;
    }
    ensure!(
        !ctx.driver().is_host_pinned(ptr, 8),
        "the array is still pinned after its guard was dropped"
    );
    ensure!(v.iter().all(|&x| x == 3), "copy back into a pinned guard");
    pass(format!(
        "16 MiB owned and scoped each way; pinned memory {locking}"
    ))
}

fn mapped() -> Outcome {
    let mut m = rumba::mapped_array::<u32, _>(4096, Order::C, rumba::MappedOptions::new())?;
    m.view_mut()
        .assign(&Array1::from_iter(0..4096u32).mapv(|x| x * 5));
    let d = rumba::device_array::<u32, _>(4096, Order::C)?;
    rumba::copy(&d, m.device())?;
    ensure!(
        d.copy_to_host()?
            .iter()
            .copied()
            .eq((0..4096u32).map(|x| x * 5)),
        "the device read what the host wrote"
    );
    m.device_mut().memset(0xab)?;
    ensure!(
        m.view().iter().all(|&x| x == 0xabab_abab),
        "a device memset is visible on the host without a copy"
    );
    d.assign(77u32)?;
    rumba::copy(&mut m.device_mut(), &d)?;
    ensure!(
        m.view().iter().all(|&x| x == 77),
        "a device copy into mapped memory"
    );
    // What OpenCL does not have (write-combined memory; mapping existing memory without
    // fine-grained system SVM) is refused there with a reason, noted in the detail.
    let mut not_here = Vec::new();
    match rumba::mapped_array::<u64, _>(
        16,
        Order::C,
        rumba::MappedOptions::new()
            .portable(true)
            .write_combined(true),
    ) {
        Ok(mut wc) => {
            ensure!(
                wc.is_portable() && wc.is_write_combined() && wc.flags().mapped,
                "portable / write-combined flags were not kept: {:?}",
                wc.flags()
            );
            wc.device_mut().fill(11)?;
            ensure!(wc.view().sum() == 176, "write-combined mapped memory");
        }
        Err(e) => not_here.push(format!("write-combined: {}", opencl_refusal(e)?)),
    }
    let mut existing = Array1::<f32>::zeros(1000);
    match rumba::mapped([&mut existing]) {
        Ok(mut g) => {
            g.device_mut(0)?.fill(2.5)?;
            drop(g);
            ensure!(
                existing.iter().all(|&x| x == 2.5),
                "a device fill through a mapped guard"
            );
        }
        Err(e) => not_here.push(format!("mapped guard: {}", opencl_refusal(e)?)),
    }
    if not_here.is_empty() {
        pass("host <-> device without copies; flags kept; mapped guard")
    } else {
        pass(format!(
            "host <-> device without copies; refused by this backend: {}",
            not_here.join("; ")
        ))
    }
}

fn managed() -> Outcome {
    let mut g = match rumba::managed_array::<i64, _>((64, 64), Order::C) {
        Ok(g) => g,
        Err(why @ rumba::Error::Unsupported { .. }) => return skip(why.to_string()),
        Err(e) => return Err(e.into()),
    };
    g.view_mut()
        .assign(&Array2::from_shape_fn((64, 64), |(i, j)| {
            (i * 64 + j) as i64
        }));
    let d = rumba::device_array::<i64, _>((64, 64), Order::C)?;
    rumba::copy(&d, g.device())?;
    ensure!(
        d.copy_to_host()?.iter().copied().eq(0..4096),
        "the device read managed memory the host wrote"
    );
    d.assign(-3i64)?;
    rumba::copy(&mut g.device_mut(), &d)?;
    ensure!(
        g.view().iter().all(|&x| x == -3),
        "the host read managed memory the device wrote"
    );
    pass("32 KiB written by each side, read by the other")
}
