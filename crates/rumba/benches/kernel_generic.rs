//! A generic kernel against its hand-written copies: `axpy::<f32>()` / `axpy::<f64>()` and
//! `axpy_f32()` / `axpy_f64()` (the same body written per type) launched on the simulator over
//! device arrays, each launch synchronized. Each instance of a generic kernel is lowered as the
//! hand-written copy would be, so the pairs should take the same time.
//!
//! Run: `cargo bench -p rumba --bench kernel_generic`.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rumba::kernel::prelude::*;

#[kernel]
fn axpy<T: Float>(t: &Thread, a: T, x: &Arr<T>, y: &mut Arr<T>) {
    let i = t.grid1();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[kernel]
fn axpy_f32(t: &Thread, a: f32, x: &Arr<f32>, y: &mut Arr<f32>) {
    let i = t.grid1();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[kernel]
fn axpy_f64(t: &Thread, a: f64, x: &Arr<f64>, y: &mut Arr<f64>) {
    let i = t.grid1();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

fn bench(c: &mut Criterion) {
    let n: usize = 1 << 20;
    let mut g = c.benchmark_group("generic_axpy");
    g.throughput(Throughput::Elements(n as u64))
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    let blocks = n.div_ceil(256) as u32;
    let x32 = rumba::to_device(&vec![1.5f32; n]).unwrap();
    let y32 = rumba::to_device(&vec![0.25f32; n]).unwrap();
    let x64 = rumba::to_device(&vec![1.5f64; n]).unwrap();
    let y64 = rumba::to_device(&vec![0.25f64; n]).unwrap();
    let s = rumba::stream().unwrap();
    let (g32, h32, g64, h64) = (axpy::<f32>(), axpy_f32(), axpy::<f64>(), axpy_f64());
    g.bench_with_input(BenchmarkId::new("generic", "f32"), &n, |b, _| {
        b.iter(|| {
            g32.configure(blocks, 256)
                .stream(&s)
                .launch((0.5f32, &x32, &y32))
                .unwrap();
            s.synchronize().unwrap();
        })
    });
    g.bench_with_input(BenchmarkId::new("hand_written", "f32"), &n, |b, _| {
        b.iter(|| {
            h32.configure(blocks, 256)
                .stream(&s)
                .launch((0.5f32, &x32, &y32))
                .unwrap();
            s.synchronize().unwrap();
        })
    });
    g.bench_with_input(BenchmarkId::new("generic", "f64"), &n, |b, _| {
        b.iter(|| {
            g64.configure(blocks, 256)
                .stream(&s)
                .launch((0.5f64, &x64, &y64))
                .unwrap();
            s.synchronize().unwrap();
        })
    });
    g.bench_with_input(BenchmarkId::new("hand_written", "f64"), &n, |b, _| {
        b.iter(|| {
            h64.configure(blocks, 256)
                .stream(&s)
                .launch((0.5f64, &x64, &y64))
                .unwrap();
            s.synchronize().unwrap();
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
