//! The work-item-loop engine against the coroutine engine, on host memory (no streams): the
//! three peer workloads as per-thread bodies (`run_grid`) and as block bodies (`run_blocks`,
//! with plain and with atomic global inputs), and the amortised cost of a barrier per thread.
//!
//! Run: `cargo bench -p rumba --bench kernel_wil`. The `barrier/*` groups report throughput in
//! thread-barriers: the time per element is the cost of one thread passing one barrier.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rumba::kernel::wil::{
    Atomic, BarrierKind, BarrierSite, BlockCtx, BlockShape, Dyn, Fixed, GlobalIn, OwnOut, Plain,
    run_blocks, run_blocks_with,
};
use rumba::kernel::{ExecOptions, GlobalView, LaunchConfig, run_grid};

#[path = "../kernels/examples/peer_workloads_wil.rs"]
mod peer;

fn data(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| ((i as u32).wrapping_mul(2_654_435_761) ^ seed) as f32 / u32::MAX as f32)
        .collect()
}

fn vadd(c: &mut Criterion) {
    let mut g = c.benchmark_group("wil_vadd");
    for n in [65_536usize, 16_777_216] {
        let (a, b) = (data(n, 1), data(n, 2));
        let mut out = vec![0.0f32; n];
        g.throughput(Throughput::Elements(n as u64));
        if n > 1_000_000 {
            g.sample_size(10);
        }
        let cfg = LaunchConfig::new(n.div_ceil(256) as u32, 256);
        g.bench_with_input(BenchmarkId::new("coroutines", n), &n, |bench, _| {
            let (av, bv) = (GlobalView::from_slice(&a), GlobalView::from_slice(&b));
            let cv = GlobalView::from_slice_mut(&mut out);
            bench.iter(|| run_grid("vadd", &cfg, |t| peer::vadd_thread(t, &av, &bv, &cv)).unwrap());
        });
        g.bench_with_input(BenchmarkId::new("block_atomic", n), &n, |bench, _| {
            let mut a2 = a.clone();
            let mut b2 = b.clone();
            let av = GlobalIn::<f32, 1, Atomic>::from_view(&GlobalView::from_slice_mut(&mut a2))
                .unwrap();
            let bv = GlobalIn::<f32, 1, Atomic>::from_view(&GlobalView::from_slice_mut(&mut b2))
                .unwrap();
            let ov = GlobalView::from_slice_mut(&mut out);
            bench.iter(|| {
                let cv = OwnOut::<f32, Atomic>::from_view(&ov).unwrap();
                run_blocks::<Fixed<256, 1, 1>, _>("vadd", &cfg, |blk| {
                    peer::vadd_block(blk, &av, &bv, &cv)
                })
                .unwrap()
            });
        });
        g.bench_with_input(BenchmarkId::new("block_plain", n), &n, |bench, _| {
            let av = GlobalIn::<f32, 1, Plain>::from_slice(&a, [n]).unwrap();
            let bv = GlobalIn::<f32, 1, Plain>::from_slice(&b, [n]).unwrap();
            bench.iter(|| {
                let cv = OwnOut::<f32, Plain>::from_slice_mut(&mut out);
                run_blocks::<Fixed<256, 1, 1>, _>("vadd", &cfg, |blk| {
                    peer::vadd_block(blk, &av, &bv, &cv)
                })
                .unwrap()
            });
        });
        g.bench_with_input(BenchmarkId::new("block_plain_serial", n), &n, |bench, _| {
            let av = GlobalIn::<f32, 1, Plain>::from_slice(&a, [n]).unwrap();
            let bv = GlobalIn::<f32, 1, Plain>::from_slice(&b, [n]).unwrap();
            let serial = ExecOptions {
                fast_path: true,
                parallel: false,
            };
            bench.iter(|| {
                let cv = OwnOut::<f32, Plain>::from_slice_mut(&mut out);
                run_blocks_with::<Fixed<256, 1, 1>, _>("vadd", &cfg, &serial, |blk| {
                    peer::vadd_block(blk, &av, &bv, &cv)
                })
                .unwrap()
            });
        });
        g.bench_with_input(BenchmarkId::new("plain_rust_serial", n), &n, |bench, _| {
            bench.iter(|| {
                for ((o, x), y) in out.iter_mut().zip(&a).zip(&b) {
                    *o = x + y;
                }
                black_box(&mut out);
            });
        });
        let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        assert!(out == want || out.iter().all(|&v| v == 0.0), "wrong sum");
    }
    g.finish();
}

fn matmul(c: &mut Criterion) {
    let mut g = c.benchmark_group("wil_matmul_shared");
    for n in [64usize, 512] {
        let (a, b) = (data(n * n, 3), data(n * n, 4));
        let mut out = vec![0.0f32; n * n];
        let mut reference = vec![0.0f32; n * n];
        g.throughput(Throughput::Elements((n * n) as u64));
        if n > 100 {
            g.sample_size(10);
            g.measurement_time(Duration::from_secs(10));
        }
        let blocks = n.div_ceil(peer::TPB) as u32;
        let cfg = LaunchConfig::new((blocks, blocks), (16, 16));
        {
            let (av, bv) = (frozen2(&a, n), frozen2(&b, n));
            let cv = GlobalView::from_slice_mut_with_shape(&mut reference, (n, n)).unwrap();
            run_grid("matmul", &cfg, |t| peer::matmul_thread(t, &av, &bv, &cv)).unwrap();
            let av = GlobalIn::<f32, 2, Plain>::from_slice(&a, [n, n]).unwrap();
            let bv = GlobalIn::<f32, 2, Plain>::from_slice(&b, [n, n]).unwrap();
            let cv = GlobalView::from_slice_mut_with_shape(&mut out, (n, n)).unwrap();
            run_blocks::<Dyn, _>("matmul", &cfg, |blk| peer::matmul_block(blk, &av, &bv, &cv))
                .unwrap();
        }
        assert_eq!(
            out, reference,
            "the block body differs from the per-thread body"
        );
        g.bench_with_input(BenchmarkId::new("coroutines", n), &n, |bench, _| {
            let av = frozen2(&a, n);
            let bv = frozen2(&b, n);
            let cv = GlobalView::from_slice_mut_with_shape(&mut reference, (n, n)).unwrap();
            bench.iter(|| {
                run_grid("matmul", &cfg, |t| peer::matmul_thread(t, &av, &bv, &cv)).unwrap()
            });
        });
        g.bench_with_input(BenchmarkId::new("block_plain", n), &n, |bench, _| {
            let av = GlobalIn::<f32, 2, Plain>::from_slice(&a, [n, n]).unwrap();
            let bv = GlobalIn::<f32, 2, Plain>::from_slice(&b, [n, n]).unwrap();
            let cv = GlobalView::from_slice_mut_with_shape(&mut out, (n, n)).unwrap();
            bench.iter(|| {
                run_blocks::<Fixed<16, 16, 1>, _>("matmul", &cfg, |blk| {
                    peer::matmul_block(blk, &av, &bv, &cv)
                })
                .unwrap()
            });
        });
        g.bench_with_input(BenchmarkId::new("block_plain_dyn", n), &n, |bench, _| {
            let av = GlobalIn::<f32, 2, Plain>::from_slice(&a, [n, n]).unwrap();
            let bv = GlobalIn::<f32, 2, Plain>::from_slice(&b, [n, n]).unwrap();
            let cv = GlobalView::from_slice_mut_with_shape(&mut out, (n, n)).unwrap();
            bench.iter(|| {
                run_blocks::<Dyn, _>("matmul", &cfg, |blk| peer::matmul_block(blk, &av, &bv, &cv))
                    .unwrap()
            });
        });
    }
    g.finish();
}

fn frozen2(x: &[f32], n: usize) -> GlobalView<'_, f32> {
    // SAFETY: `x` is a live, aligned slice of n*n elements, borrowed for the view's lifetime;
    // the view is read-only.
    unsafe {
        GlobalView::from_raw_parts(x.as_ptr().cast_mut(), &[n, n], &[4 * n as isize, 4], false)
    }
    .unwrap()
}

fn reduce(c: &mut Criterion) {
    let n = 1_048_576usize;
    let x = data(n, 5);
    let mut partial = vec![0.0f32; n / 256];
    let mut reference = vec![0.0f32; n / 256];
    let mut g = c.benchmark_group("wil_reduce_shared");
    g.throughput(Throughput::Elements(n as u64));
    let cfg = LaunchConfig::new((n / 256) as u32, 256);
    {
        let (xv, pv) = (
            GlobalView::from_slice(&x),
            GlobalView::from_slice_mut(&mut reference),
        );
        run_grid("reduce", &cfg, |t| peer::reduce_thread(t, &xv, &pv)).unwrap();
        let xv = GlobalIn::<f32, 1, Plain>::from_slice(&x, [n]).unwrap();
        let pv = GlobalView::from_slice_mut(&mut partial);
        run_blocks::<Dyn, _>("reduce", &cfg, |blk| peer::reduce_block(blk, &xv, &pv)).unwrap();
    }
    assert_eq!(
        partial, reference,
        "the block body differs from the per-thread body"
    );
    g.bench_function(BenchmarkId::new("coroutines", n), |bench| {
        let xv = GlobalView::from_slice(&x);
        let pv = GlobalView::from_slice_mut(&mut reference);
        bench.iter(|| run_grid("reduce", &cfg, |t| peer::reduce_thread(t, &xv, &pv)).unwrap());
    });
    g.bench_function(BenchmarkId::new("block_plain", n), |bench| {
        let xv = GlobalIn::<f32, 1, Plain>::from_slice(&x, [n]).unwrap();
        let pv = GlobalView::from_slice_mut(&mut partial);
        bench.iter(|| {
            run_blocks::<Fixed<256, 1, 1>, _>("reduce", &cfg, |blk| {
                peer::reduce_block(blk, &xv, &pv)
            })
            .unwrap()
        });
    });
    g.finish();
}

/// 64 blocks of 256 threads each passing 100 barriers (1,638,400 thread-barriers per
/// iteration), with an empty region between barriers: the cost of the barrier itself.
const SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());

fn barrier(c: &mut Criterion) {
    let (blocks, threads, barriers) = (64u32, 256u32, 100u32);
    let cfg = LaunchConfig::new(blocks, threads);
    let mut g = c.benchmark_group("barrier");
    g.throughput(Throughput::Elements((blocks * threads * barriers) as u64));
    g.bench_function("coroutines", |bench| {
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
    fn body<S: BlockShape>(blk: &BlockCtx<'_, S>, barriers: u32) {
        for _ in 0..barriers {
            blk.each(|w, tid| {
                black_box((w, tid));
            });
            if blk.barrier(&SYNC, 0).is_none() {
                return;
            }
        }
    }
    g.bench_function("block_fixed", |bench| {
        bench.iter(|| {
            run_blocks::<Fixed<256, 1, 1>, _>("barriers", &cfg, |blk| body(blk, barriers)).unwrap()
        });
    });
    g.bench_function("block_dyn", |bench| {
        bench.iter(|| run_blocks::<Dyn, _>("barriers", &cfg, |blk| body(blk, barriers)).unwrap());
    });
    g.finish();
}

criterion_group!(benches, barrier, reduce, matmul, vadd);
criterion_main!(benches);
