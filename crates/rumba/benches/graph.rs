//! Stream graphs: the host time of queuing 100 small kernel launches and 20 device copies one
//! by one, against replaying the same work captured into a graph. Goal: the replay costs ≤ 0.3×
//! the one-by-one queuing, on the sim and on OpenCL, with identical results (checked before
//! measuring).
//!
//! Only the host side is timed: each sample queues the work (`Instant` around the calls), then
//! synchronizes the stream outside the timed span, so the device's own time (on the sim, the
//! kernels running on the CPU) is not part of the figure.
//!
//! Run: `cargo bench -p rumba --bench graph` (the sim), and with `RUMBA_BACKEND=opencl` (PoCL).

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rumba::kernel::prelude::*;
use rumba::{DeviceArray, Stream};

/// `x[i] = x[i] * a + b`.
#[kernel]
fn scale_add(t: &Thread, x: &mut Arr<f32>, a: f32, b: f32) {
    let i = t.grid1();
    if i < x.len() {
        x[i] = x[i] * a + b;
    }
}

const N: usize = 256;
type Arrays = (
    Vec<DeviceArray<f32, ndarray::Ix1>>,
    Vec<DeviceArray<f32, ndarray::Ix1>>,
);

fn arrays() -> Arrays {
    let make = || {
        (0..4)
            .map(|k| rumba::to_device(&ndarray::Array1::from_elem(N, k as f32)).unwrap())
            .collect::<Vec<_>>()
    };
    (make(), make())
}

/// 100 launches of a small kernel and 20 device-to-device copies.
fn queue(s: &Stream, (x, y): &Arrays) -> rumba::Result<()> {
    let k = scale_add();
    for i in 0..100 {
        k.configure(1, N as u32)
            .stream(s)
            .launch((&x[i % 4], 0.5f32, i as f32))?;
        if i % 5 == 4 {
            s.copy(&y[i % 4], &x[i % 4])?;
        }
    }
    Ok(())
}

fn host(a: &Arrays) -> Vec<Vec<f32>> {
    a.0.iter()
        .chain(&a.1)
        .map(|d| d.copy_to_host().unwrap().to_vec())
        .collect()
}

fn replay_vs_one_by_one(c: &mut Criterion) {
    let s = rumba::stream().unwrap();
    let (one, two) = (arrays(), arrays());
    let graph = s.capture(|s| queue(s, &two)).unwrap();
    for _ in 0..3 {
        queue(&s, &one).unwrap();
        graph.launch(&s).unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(
        host(&one),
        host(&two),
        "a replay gives the results of queuing one by one"
    );

    let backend = rumba::current_context().unwrap().driver().backend();
    let mut g = c.benchmark_group(format!("graph_100_launches_20_copies_{backend}"));
    g.sample_size(20);
    g.bench_function("queue one by one", |b| {
        b.iter_custom(|iters| {
            let mut t = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                queue(&s, &one).unwrap();
                t += start.elapsed();
                s.synchronize().unwrap();
            }
            t
        })
    });
    g.bench_function("graph replay", |b| {
        b.iter_custom(|iters| {
            let mut t = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                graph.launch(&s).unwrap();
                t += start.elapsed();
                s.synchronize().unwrap();
            }
            t
        })
    });
    g.finish();
}

criterion_group!(benches, replay_vs_one_by_one);
criterion_main!(benches);
