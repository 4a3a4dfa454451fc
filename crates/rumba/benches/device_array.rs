//! Device-array transfer benchmarks on the sim.
//!
//! - `copy_to_host_64MiB`: a contiguous 64 MiB device array copied into a warm host array
//!   (`copy_to_host_into`) and into a fresh one (`copy_to_host`), against a plain
//!   `copy_from_slice` of 64 MiB between two warm host buffers. Goal: ≥ 0.8× the memcpy.
//! - `every_other_column_4096x4096_f32`: the view `a[:, ::2]` of a 4096×4096 f32 array copied
//!   into a contiguous 4096×2048 array — on the device (`assign`, one strided device copy) and to
//!   the host (`copy_to_host_into`, a span copy unpacked on the host) — against ndarray's own
//!   `assign` of the same view between host arrays. Goal: within 2×.
//!
//! Every buffer is touched once before measuring: sim device memory is lazily mapped, so the
//! first touch of a page costs a fault that a warm GPU allocation does not.
//!
//! Run: `cargo bench -p rumba --bench device_array`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array1, Array2, s};
use rumba::Order;

fn copy_to_host(c: &mut Criterion) {
    const N: usize = 64 << 20;
    let host: Array1<u8> = Array1::from_iter((0..N).map(|i| (i % 251) as u8));
    let d = rumba::to_device(&host).unwrap();
    let mut warm = Array1::<u8>::zeros(N);
    rumba::copy(&mut warm, &d).unwrap();
    let src: Vec<u8> = host.to_vec();
    let mut dst = vec![1u8; N];
    let mut g = c.benchmark_group("copy_to_host_64MiB");
    g.throughput(Throughput::Bytes(N as u64));
    g.sample_size(20);
    g.bench_function("host copy_from_slice (baseline)", |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(&src));
            black_box(&dst);
        })
    });
    g.bench_function("copy_to_host_into (warm host array)", |b| {
        b.iter(|| rumba::copy(black_box(&mut warm), &d).unwrap())
    });
    g.bench_function("copy_to_host (fresh host array)", |b| {
        b.iter(|| black_box(d.copy_to_host().unwrap()))
    });
    g.finish();
}

fn every_other_column(c: &mut Criterion) {
    const N: usize = 4096;
    let host = Array2::from_shape_fn((N, N), |(i, j)| (i * N + j) as f32);
    let d = rumba::to_device(&host).unwrap();
    let view = d.slice(s![.., ..;2]).unwrap();
    let dst = rumba::device_array::<f32, _>((N, N / 2), Order::C).unwrap();
    dst.assign(&view).unwrap();
    let mut out = Array2::<f32>::zeros((N, N / 2));
    rumba::copy(&mut out, &view).unwrap();
    let mut host_dst = Array2::<f32>::zeros((N, N / 2));
    host_dst.assign(&host.slice(s![.., ..;2]));
    assert_eq!(out, host_dst);
    let bytes = (N * N / 2 * 4) as u64;
    let mut g = c.benchmark_group("every_other_column_4096x4096_f32");
    g.throughput(Throughput::Bytes(bytes));
    g.sample_size(20);
    g.bench_function("ndarray assign on the host (baseline)", |b| {
        b.iter(|| host_dst.assign(black_box(&host.slice(s![.., ..;2]))))
    });
    g.bench_function("device assign (strided device copy)", |b| {
        b.iter(|| dst.assign(black_box(&view)).unwrap())
    });
    g.bench_function("device view copy_to_host_into", |b| {
        b.iter(|| rumba::copy(black_box(&mut out), &view).unwrap())
    });
    g.finish();
}

criterion_group!(benches, copy_to_host, every_other_column);
criterion_main!(benches);
