//! Kernel executor benchmarks: barrier-free element-wise kernels (fast path), a shared-memory
//! tiled matmul (two barriers per tile), a shared-memory tree reduction, and the raw cost of a
//! barrier per thread.
//!
//! Run: `cargo bench -p rumba --bench kernel_exec`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rumba::kernel::{GlobalView, LaunchConfig, run_grid};

fn vadd(c: &mut Criterion) {
    let mut g = c.benchmark_group("vadd");
    for n in [65_536usize, 16_777_216] {
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..n).map(|i| (n - i) as f32).collect();
        let mut out = vec![0.0f32; n];
        g.throughput(Throughput::Elements(n as u64));
        if n > 1_000_000 {
            g.sample_size(10);
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |bench, &n| {
            let (av, bv) = (GlobalView::from_slice(&a), GlobalView::from_slice(&b));
            let ov = GlobalView::from_slice_mut(&mut out);
            let cfg = LaunchConfig::new(n.div_ceil(256) as u32, 256);
            bench.iter(|| {
                run_grid("vadd", &cfg, |t| {
                    let i = t.grid1();
                    if i < n {
                        ov.set(i, av.get(i) + bv.get(i));
                    }
                })
                .unwrap()
            });
        });
        assert!(
            out[n / 2] == n as f32 || out[n / 2] == 0.0,
            "wrong sum (or filtered out)"
        );
    }
    g.finish();
}

const TILE: usize = 16;

fn matmul(c: &mut Criterion) {
    let mut g = c.benchmark_group("matmul_tiled16");
    for n in [64usize, 512] {
        let a: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32).collect();
        let b: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32).collect();
        let mut out = vec![0.0f32; n * n];
        g.throughput(Throughput::Elements((n * n) as u64));
        if n > 100 {
            g.sample_size(10);
            g.measurement_time(Duration::from_secs(15));
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |bench, &n| {
            let av = GlobalView::from_slice(&a);
            let bv = GlobalView::from_slice(&b);
            let cv = GlobalView::from_slice_mut_with_shape(&mut out, (n, n)).unwrap();
            let blocks = n.div_ceil(TILE) as u32;
            let cfg = LaunchConfig::new((blocks, blocks), (TILE as u32, TILE as u32));
            bench.iter(|| {
                run_grid("matmul", &cfg, |t| {
                    let sa = t.shared_array::<f32>((TILE, TILE));
                    let sb = t.shared_array::<f32>((TILE, TILE));
                    let (x, y) = t.grid2();
                    let (tx, ty) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
                    let mut acc = 0.0f32;
                    for tile in 0..n.div_ceil(TILE) {
                        let (ka, kb) = (tile * TILE + tx, tile * TILE + ty);
                        sa.set(
                            (ty, tx),
                            if y < n && ka < n {
                                av.get(y * n + ka)
                            } else {
                                0.0
                            },
                        );
                        sb.set(
                            (ty, tx),
                            if x < n && kb < n {
                                bv.get(kb * n + x)
                            } else {
                                0.0
                            },
                        );
                        t.syncthreads();
                        for k in 0..TILE {
                            acc += sa.get((ty, k)) * sb.get((k, tx));
                        }
                        t.syncthreads();
                    }
                    if x < n && y < n {
                        cv.set((y, x), acc);
                    }
                })
                .unwrap()
            });
        });
        let expect: f32 = (0..n).map(|k| a[k] * b[k * n]).sum();
        assert!(
            out[0] == expect || out.iter().all(|&v| v == 0.0),
            "wrong product"
        );
    }
    g.finish();
}

fn reduction(c: &mut Criterion) {
    let n = 1_048_576usize;
    let x: Vec<f32> = (0..n).map(|i| (i % 3) as f32).collect();
    let mut partial = vec![0.0f32; n / 256];
    let mut g = c.benchmark_group("reduce_shared256");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(BenchmarkId::from_parameter(n), |bench| {
        let xv = GlobalView::from_slice(&x);
        let pv = GlobalView::from_slice_mut(&mut partial);
        let cfg = LaunchConfig::new((n / 256) as u32, 256);
        bench.iter(|| {
            run_grid("reduce", &cfg, |t| {
                let s = t.shared_array::<f32>(256);
                let i = t.thread_idx().x as usize;
                s.set(i, xv.get(t.grid1()));
                t.syncthreads();
                let mut stride = 128;
                while stride > 0 {
                    if i < stride {
                        s.set(i, s.get(i) + s.get(i + stride));
                    }
                    t.syncthreads();
                    stride /= 2;
                }
                if i == 0 {
                    pv.set(t.block_idx().x as usize, s.get(0));
                }
            })
            .unwrap()
        });
    });
    g.finish();
    let total: f32 = partial.iter().sum();
    assert!(
        total == x.iter().sum::<f32>() || total == 0.0,
        "wrong reduction"
    );
}

/// The cost of one barrier per thread: 64 blocks of 256 threads each passing 100 barriers
/// (1,638,400 thread-barriers per iteration; throughput is in thread-barriers).
fn barrier_cost(c: &mut Criterion) {
    let (blocks, threads, barriers) = (64u32, 256u32, 100u32);
    let mut g = c.benchmark_group("barrier");
    g.throughput(Throughput::Elements((blocks * threads * barriers) as u64));
    g.bench_function("thread_barriers", |bench| {
        let cfg = LaunchConfig::new(blocks, threads);
        bench.iter(|| {
            run_grid("barriers", &cfg, |t| {
                for _ in 0..barriers {
                    t.syncthreads();
                }
                black_box(t.thread_idx());
            })
            .unwrap()
        });
    });
    g.finish();
}

criterion_group!(benches, vadd, matmul, reduction, barrier_cost);
criterion_main!(benches);
