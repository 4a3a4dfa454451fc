//! Host-memory transfer benchmarks on the sim (docs/design/behaviour.md §3).
//!
//! - `h2d_64MiB` / `d2h_64MiB`: 64 MiB between the device and pinned vs pageable host memory, on
//!   a stream, measured to completion (`…/complete`) and to the moment the call returns
//!   (`…/call returns`, the stream is synchronized outside the timed region). From pageable
//!   memory, host → device copies are staged (the data is copied before the call returns), and
//!   device → host copies wait; from pinned memory both return at once and the device reads or
//!   writes the host memory directly.
//! - `pipeline_64MiB`: 8 chunks of 8 MiB, each copied host → device from pinned memory and then
//!   "computed" (a reversing strided assign into the output, on the device). `one stream` runs
//!   everything in order; `two streams` copies chunk k+1 on one stream while the other computes
//!   chunk k (double-buffered, ordered by events). Before measuring, the event timeline of one
//!   two-stream run is printed, showing the overlap.
//!
//! Run: `cargo bench -p rumba --bench host_memory`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{Array1, s};
use rumba::Order;
use rumba::{DeviceArray, Event, PinnedArray, Result, Stream};

const N: usize = 64 << 20;

fn h2d(c: &mut Criterion) {
    let s = rumba::stream().unwrap();
    let pageable: Array1<u8> = Array1::from_iter((0..N).map(|i| (i % 251) as u8));
    let mut pinned = rumba::pinned_array::<u8, _>(N, Order::C).unwrap();
    pinned
        .as_slice_memory_order_mut()
        .copy_from_slice(pageable.as_slice().unwrap());
    eprintln!("pinned 64 MiB page-locked: {:?}", pinned.page_locking());
    let d = rumba::to_device(&pageable).unwrap();
    let mut g = c.benchmark_group("h2d_64MiB");
    g.throughput(Throughput::Bytes(N as u64));
    g.sample_size(20);
    g.bench_function("pageable/complete", |b| {
        b.iter(|| {
            s.copy(&d, black_box(&pageable)).unwrap();
            s.synchronize().unwrap();
        })
    });
    g.bench_function("pinned/complete", |b| {
        b.iter(|| {
            s.auto_synchronize(|scope| scope.copy(&d, black_box(&pinned)))
                .unwrap()
        })
    });
    g.bench_function("pageable/call returns", |b| {
        b.iter_custom(|iters| timed_calls(iters, &s, || s.copy(&d, &pageable)))
    });
    g.bench_function("pinned/call returns", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                s.auto_synchronize(|scope| {
                    let t = Instant::now();
                    scope.copy(&d, &pinned)?;
                    total += t.elapsed();
                    Ok(())
                })
                .unwrap();
            }
            total
        })
    });
    g.finish();
}

fn timed_calls(iters: u64, s: &Stream, mut f: impl FnMut() -> Result<()>) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let t = Instant::now();
        f().unwrap();
        total += t.elapsed();
        s.synchronize().unwrap();
    }
    total
}

fn d2h(c: &mut Criterion) {
    let s = rumba::stream().unwrap();
    let src: Array1<u8> = Array1::from_iter((0..N).map(|i| (i % 251) as u8));
    let d = rumba::to_device(&src).unwrap();
    let mut pageable = Array1::<u8>::zeros(N);
    let mut pinned = Some(rumba::pinned_array::<u8, _>(N, Order::C).unwrap());
    let mut g = c.benchmark_group("d2h_64MiB");
    g.throughput(Throughput::Bytes(N as u64));
    g.sample_size(20);
    g.bench_function("pageable/complete", |b| {
        b.iter(|| {
            s.auto_synchronize(|scope| scope.copy(black_box(&mut pageable), &d))
                .unwrap()
        })
    });
    g.bench_function("pinned/complete (owned transfer)", |b| {
        b.iter(|| {
            let p = pinned.take().unwrap();
            pinned = Some(s.download(&d, p).unwrap().wait().unwrap());
        })
    });
    g.bench_function("pageable/call returns", |b| {
        b.iter_custom(|iters| {
            timed_calls(iters, &s, || {
                s.auto_synchronize(|scope| scope.copy(&mut pageable, &d))
            })
        })
    });
    g.bench_function("pinned/call returns", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let p = pinned.take().unwrap();
                let t = Instant::now();
                let transfer = s.download(&d, p).unwrap();
                total += t.elapsed();
                pinned = Some(transfer.wait().unwrap());
            }
            total
        })
    });
    g.finish();
    assert_eq!(pinned.unwrap().view(), src);
}

const CHUNKS: usize = 8;
const CHUNK: usize = N / 4 / CHUNKS; // f32 elements per chunk (8 MiB)

/// Per-chunk event times in ms from the start: (copy start, copy end, compute start, compute end).
type Timeline = Vec<[f32; 4]>;

struct Pipeline {
    input: PinnedArray<f32, ndarray::Ix1>,
    stage: Vec<DeviceArray<f32, ndarray::Ix1>>,
    out: DeviceArray<f32, ndarray::Ix2>,
    copy: Stream,
    compute: Stream,
}

impl Pipeline {
    fn new() -> Result<Self> {
        let mut input = rumba::pinned_array::<f32, _>(CHUNK * CHUNKS, Order::C)?;
        input
            .view_mut()
            .assign(&Array1::from_iter((0..CHUNK * CHUNKS).map(|i| i as f32)));
        let stage = (0..2)
            .map(|_| rumba::device_array::<f32, _>(CHUNK, Order::C))
            .collect::<Result<Vec<_>>>()?;
        let out = rumba::device_array::<f32, _>((CHUNKS, CHUNK), Order::C)?;
        out.assign(0.0)?;
        for st in &stage {
            st.assign(0.0)?; // first touch outside the measurement
        }
        Ok(Pipeline {
            input,
            stage,
            out,
            copy: rumba::stream()?,
            compute: rumba::stream()?,
        })
    }

    /// Runs the pipeline; `overlap`: two streams, else one. With `timeline`, records events.
    fn run(&self, overlap: bool, timeline: bool) -> Result<Option<Timeline>> {
        let compute = if overlap { &self.compute } else { &self.copy };
        let ev = |n: usize| {
            (0..n)
                .map(|_| rumba::event(rumba::EventOptions::new().timing(timeline)))
                .collect::<Result<Vec<Event>>>()
        };
        let (ready, free) = (ev(2)?, ev(2)?);
        let marks = if timeline {
            ev(4 * CHUNKS + 1)?
        } else {
            Vec::new()
        };
        let whole = self.input.view();
        let chunks: Vec<_> = whole.exact_chunks(CHUNK).into_iter().collect();
        self.copy.auto_synchronize(|scope| -> Result<()> {
            if timeline {
                marks[4 * CHUNKS].record(scope.stream())?;
            }
            for (k, chunk) in chunks.iter().enumerate() {
                let slot = k % 2;
                free[slot].wait(scope.stream())?;
                if timeline {
                    marks[4 * k].record(scope.stream())?;
                }
                scope.copy(&self.stage[slot], chunk)?;
                if timeline {
                    marks[4 * k + 1].record(scope.stream())?;
                }
                ready[slot].record(scope.stream())?;
                ready[slot].wait(compute)?;
                if timeline {
                    marks[4 * k + 2].record(compute)?;
                }
                self.out
                    .slice(s![k, ..;-1])?
                    .assign_on(&self.stage[slot], compute)?;
                if timeline {
                    marks[4 * k + 3].record(compute)?;
                }
                free[slot].record(compute)?;
            }
            compute.synchronize()
        })?;
        if !timeline {
            return Ok(None);
        }
        let t0 = &marks[4 * CHUNKS];
        let mut out = Vec::with_capacity(CHUNKS);
        for k in 0..CHUNKS {
            let mut row = [0f32; 4];
            for (j, r) in row.iter_mut().enumerate() {
                *r = t0.elapsed_time(&marks[4 * k + j])?;
            }
            out.push(row);
        }
        Ok(Some(out))
    }
}

fn print_timeline(t: &Timeline) {
    eprintln!(
        "two-stream pipeline timeline (ms from start): chunk: copy [start, end]  compute [start, end]"
    );
    let mut overlap = 0.0;
    for (k, r) in t.iter().enumerate() {
        eprintln!(
            "  {k}: copy [{:7.2}, {:7.2}]  compute [{:7.2}, {:7.2}]",
            r[0], r[1], r[2], r[3]
        );
        if let Some(next) = t.get(k + 1) {
            overlap += (r[3].min(next[1]) - r[2].max(next[0])).max(0.0);
        }
    }
    let end = t.last().map_or(0.0, |r| r[3]);
    eprintln!(
        "  total {end:.2} ms; copy of chunk k+1 overlapped compute of chunk k for {overlap:.2} ms"
    );
}

fn pipeline(c: &mut Criterion) {
    let p = Pipeline::new().unwrap();
    p.run(true, false).unwrap();
    if let Some(t) = p.run(true, true).unwrap() {
        print_timeline(&t);
    }
    let back = p.out.copy_to_host().unwrap();
    assert_eq!(back[[1, 0]], (2 * CHUNK - 1) as f32);
    let mut g = c.benchmark_group("pipeline_64MiB");
    g.throughput(Throughput::Bytes(N as u64));
    g.sample_size(10);
    g.bench_function("one stream", |b| b.iter(|| p.run(false, false).unwrap()));
    g.bench_function("two streams", |b| b.iter(|| p.run(true, false).unwrap()));
    g.finish();
}

criterion_group!(benches, h2d, d2h, pipeline);
criterion_main!(benches);
