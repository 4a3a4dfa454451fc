//! Foundation benchmarks: allocation round trips through the default manager, 64 MiB copies
//! between host and the simulated device against a plain `copy_from_slice`, and an empty stream
//! operation round trip (queue + synchronize).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const BIG: usize = 64 << 20;

fn alloc_free(c: &mut Criterion) {
    let ctx = rumba::current_context().unwrap();
    let mut g = c.benchmark_group("alloc_free");
    for bytes in [256usize, 1 << 20] {
        g.bench_with_input(BenchmarkId::from_parameter(bytes), &bytes, |b, &n| {
            b.iter(|| drop(black_box(ctx.memalloc(n).unwrap())))
        });
    }
    g.finish();
}

fn copies(c: &mut Criterion) {
    let ctx = rumba::current_context().unwrap();
    let host: Vec<u8> = (0..BIG).map(|i| i as u8).collect();
    let mut dst = vec![1u8; BIG];
    let buf = ctx.memalloc(BIG).unwrap();
    rumba::copy(&buf, &host).unwrap(); // touch every page once: measure warm memory
    let mut g = c.benchmark_group("copy_64MiB");
    g.throughput(Throughput::Bytes(BIG as u64)).sample_size(20);
    g.bench_function("host_copy_from_slice", |b| {
        b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&host)))
    });
    g.bench_function("sim_h2d", |b| {
        b.iter(|| rumba::copy(&buf, black_box(&host)).unwrap())
    });
    g.bench_function("sim_d2h", |b| {
        b.iter(|| rumba::copy(black_box(&mut dst), &buf).unwrap())
    });
    g.finish();
}

fn stream_round_trip(c: &mut Criterion) {
    let s = rumba::stream().unwrap();
    c.bench_function("stream_empty_op_round_trip", |b| {
        b.iter(|| {
            s.add_callback(|_, _| {}).unwrap();
            s.synchronize().unwrap();
        })
    });
}

criterion_group!(benches, alloc_free, copies, stream_round_trip);
criterion_main!(benches);
