//! `rumba demo`: a tour of what the library does, one timed step at a time.
//!
//! This module touches the current backend through rumba's public API only, stdout, and the
//! process table: the IPC step runs this executable again (`rumba ipc-open`) as a child process.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use rumba::Result;

/// Runs `f`, printing its description, its outcome and how long it took.
fn step<T>(what: &str, f: impl FnOnce() -> Result<(T, String)>) -> Result<T> {
    let t = Instant::now();
    let (value, detail) = f()?;
    println!("{:>9}  {what}: {detail}", format_duration(t.elapsed()));
    Ok(value)
}

/// [`step`], except that a refusal by the backend (`Unsupported`: an operation this backend does
/// not have, such as IPC on OpenCL) is printed and the tour goes on.
fn step_or_skip(what: &str, f: impl FnOnce() -> Result<((), String)>) -> Result<()> {
    match step(what, f) {
        Err(why @ rumba::Error::Unsupported { .. }) => {
            println!("{:>9}  {what}: not on this backend: {why}", "-");
            Ok(())
        }
        other => other,
    }
}

fn format_duration(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1} µs")
    } else {
        format!("{:.2} ms", us / 1000.0)
    }
}

fn gbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / d.as_secs_f64() / 1e9
}

pub fn run() -> Result<()> {
    use rumba::memory::history::{self, HistoryOptions};
    // The tour's memory history (unless RUMBA_MEMORY_HISTORY records the program already).
    let recording = !history::is_recording();
    if recording {
        history::start(HistoryOptions {
            backtraces: true,
            max_frames: 4,
            ..Default::default()
        })?;
    }
    let report = rumba::detect()?;
    println!("rumba demo on backend {}", report.backend);
    if let Some(why) = &report.fallback_reason {
        println!("(CUDA not used: {why})");
    }
    println!();

    let ctx = step("create the context of device 0", || {
        let ctx = rumba::current_context()?;
        let (free, total) = ctx.get_memory_info()?;
        Ok((
            ctx,
            format!("{} MiB free of {} MiB", free >> 20, total >> 20),
        ))
    })?;

    const N: usize = 64 << 20;
    let host: Vec<u8> = (0..N).map(|i| (i % 251) as u8).collect();
    let buf = step("allocate 64 MiB of device memory", || {
        Ok((
            ctx.memalloc(N)?,
            "through the default memory manager".to_string(),
        ))
    })?;

    step("copy 64 MiB host -> device, first touch", || {
        let t = Instant::now();
        rumba::copy(&buf, &host)?;
        Ok((
            (),
            format!(
                "{:.2} GB/s (device pages are mapped lazily, as the OS maps fresh memory)",
                gbps(N, t.elapsed())
            ),
        ))
    })?;
    step("copy 64 MiB host -> device (pageable, synchronous)", || {
        let t = Instant::now();
        rumba::copy(&buf, &host)?;
        Ok(((), format!("{:.2} GB/s", gbps(N, t.elapsed()))))
    })?;
    let mut back = vec![1u8; N];
    step("copy 64 MiB device -> host (synchronous)", || {
        let t = Instant::now();
        rumba::copy(&mut back, &buf)?;
        let ok = back == host;
        Ok((
            (),
            format!("{:.2} GB/s, data intact: {ok}", gbps(N, t.elapsed())),
        ))
    })?;

    let s = rumba::stream()?;
    let mut pinned = ctx.memhostalloc(N, Default::default())?;
    pinned.copy_from_slice(&host);
    step("copy 64 MiB from pinned memory on a stream", || {
        let (start, end) = (
            rumba::event(rumba::EventOptions::new())?,
            rumba::event(rumba::EventOptions::new())?,
        );
        let t = Instant::now();
        let queued = s.auto_synchronize(|scope| -> Result<Duration> {
            start.record(scope.stream())?;
            scope.copy(&buf, &pinned[..])?;
            end.record(scope.stream())?;
            Ok(t.elapsed())
        })?;
        let device_ms = start.elapsed_time(&end)?;
        Ok((
            (),
            format!(
                "queued in {}, device time {device_ms:.2} ms ({:.2} GB/s)",
                format_duration(queued),
                N as f64 / (device_ms as f64 / 1e3) / 1e9
            ),
        ))
    })?;

    step(
        "two streams overlap (one copies 64 MiB while the other is held)",
        || {
            let (a, b) = (rumba::stream()?, rumba::stream()?);
            let (tx, rx) = mpsc::channel::<()>();
            // A callback holds stream `a` until the host lets it go. (On CUDA, callbacks of all
            // streams share one thread, so the proof of overlap uses events, not callbacks.)
            a.add_callback(move |_, _| {
                let _ = rx.recv_timeout(Duration::from_secs(5));
            })?;
            let held = rumba::event(rumba::EventOptions::untimed())?;
            held.record(&a)?;
            let other = ctx.memalloc(N)?;
            b.copy(&other, &buf)?;
            let done = rumba::event(rumba::EventOptions::untimed())?;
            done.record(&b)?;
            done.synchronize()?;
            let a_was_held = !held.query()?;
            let _ = tx.send(());
            a.synchronize()?;
            b.synchronize()?;
            Ok((
                (),
                format!("b finished while a was still held: {a_was_held}"),
            ))
        },
    )?;

    step("deferred deallocation", || {
        let stats = |c: &rumba::Context| c.deallocations().memory.count;
        ctx.flush_deallocations()?;
        let limit = ctx.config().max_pending_deallocs_count;
        let mut seen = Vec::new();
        for _ in 0..=limit {
            drop(ctx.memalloc(1024)?);
            seen.push(stats(&ctx));
        }
        let guard = rumba::defer_cleanup()?;
        for _ in 0..=limit {
            drop(ctx.memalloc(1024)?);
        }
        let held = stats(&ctx);
        drop(guard);
        ctx.flush_deallocations()?;
        Ok((
            (),
            format!(
                "pending after each drop {seen:?} (flushed when over {limit}); {held} held under defer_cleanup, {} after flush",
                stats(&ctx)
            ),
        ))
    })?;

    step("ask for more memory than the device has", || {
        let (_, total) = ctx.get_memory_info()?;
        let err = ctx.memalloc(total + 1).err().map(|e| e.to_string());
        Ok(((), err.unwrap_or_else(|| "unexpectedly succeeded".into())))
    })?;

    step("wait for a stream from a future", || {
        let done = s.async_done()?;
        crate::demo::block_on(done)?;
        Ok(((), "async_done() resolved".to_string()))
    })?;

    step(
        "device array: round trip, slice assignment, reshape",
        || {
            use rumba::ndarray::{Array, s};
            let host = Array::from_iter(0..24i32)
                .into_shape_with_order((4, 6))
                .map_err(|e| rumba::Error::InvalidArgument(e.to_string()))?;
            let d = rumba::to_device(&host)?;
            let intact = d.copy_to_host()? == host;
            d.slice(s![1..3, ..;2])?.assign(-1)?; // runs on the device
            let r = d.reshape_dyn(&[3, -1], rumba::Order::C)?; // a view, never a copy
            let back = r.copy_to_host()?;
            Ok((
                (),
                format!(
                    "round trip intact: {intact}; after d[1:3, ::2] = -1, reshaped to {:?}: {:?}",
                    r.shape(),
                    back.outer_iter()
                        .map(|row| row.iter().copied().collect::<Vec<_>>())
                        .collect::<Vec<_>>()
                ),
            ))
        },
    )?;
    step_or_skip("interchange: DLPack export", || {
        let d = rumba::to_device(&(0..8).map(f64::from).collect::<Vec<_>>())?;
        let t = d.slice(rumba::ndarray::s![..;2])?.to_dlpack(None)?;
        Ok((
            (),
            format!(
                "d[::2] exports device type {} (1 CPU, 2 CUDA, 4 OpenCL, 12 the simulator), strides {:?} elements",
                t.tensor().device.device_type.0,
                t.strides()?
            ),
        ))
    })?;
    step_or_skip(
        "interchange: CUDA Array Interface, then IPC to a child process",
        || {
            use rumba::interop::CudaArray;
            let d = rumba::to_device(&(0..8).map(f64::from).collect::<Vec<_>>())?;
            let desc = d.slice(rumba::ndarray::s![..;2])?.describe()?;
            let same = rumba::as_cuda_array::<f64, rumba::ndarray::Ix1, _>(d.clone())?;
            let handle = d.slice(rumba::ndarray::s![2..])?.get_ipc_handle()?;
            let spawn_failed = |e: std::io::Error| {
                rumba::Error::InvalidArgument(format!("starting the child: {e}"))
            };
            let out = std::env::current_exe()
                .and_then(|exe| {
                    std::process::Command::new(exe)
                        .args(["ipc-open", &handle.to_string()])
                        .output()
                })
                .map_err(spawn_failed)?;
            let child = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if !out.status.success() {
                return Err(rumba::Error::InvalidArgument(format!(
                    "the child process failed: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                )));
            }
            let back = d.copy_to_host()?;
            Ok((
                (),
                format!(
                    "d[::2] describes itself as {desc}; as_cuda_array(d) shares pointer: {}; the child {child}; the parent now reads {back}",
                    same.device_ptr() == d.device_ptr()
                ),
            ))
        },
    )?;

    step_or_skip(
        "kernel: shared-memory reduction of 1,048,576 floats (256-thread tree, 9 barriers)",
        || {
            // The peer workload's `#[rumba::kernel]`: its generated Rust on the sim, its generated
            // CUDA C or OpenCL C on a GPU backend.
            let k = crate::bench::kernels::reduce_shared();
            let n = 1 << 20;
            let x = rumba::to_device(&vec![0.5f32; n])?;
            let partial = rumba::device_array::<f32, _>(n / 256, rumba::Order::C)?;
            let t = Instant::now();
            k.configure((n / 256) as u32, 256).launch((&x, &partial))?;
            rumba::legacy_default_stream()?.synchronize()?;
            let took = t.elapsed();
            let total: f32 = partial.copy_to_host()?.sum();
            Ok((
                (),
                format!(
                    "sum {total} (expected {}), kernel {}",
                    n as f32 * 0.5,
                    format_duration(took)
                ),
            ))
        },
    )?;

    step_or_skip(
        "kernel: an out-of-bounds write is caught and reported at synchronization",
        || {
            // `a` is the first three of six elements: the kernel's six threads store one past
            // the other, and the generated bounds check skips (and reports) those past the end.
            let whole = rumba::to_device(&[0i32; 6])?;
            let a = whole.slice(rumba::ndarray::s![..3])?;
            let k = crate::kernels::oob();
            let s = rumba::stream()?;
            k.configure(1, 6).stream(&s).launch((&a,))?; // queued: returns at once
            let err = s.synchronize().err().map(|e| e.to_string());
            k.configure(1, 3).stream(&s).launch((&a,))?; // the stream works again
            s.synchronize()?;
            let reported = err.unwrap_or_else(|| {
                if report.backend == rumba::driver::BackendKind::Cuda {
                    "not reported: the CUDA backend does not read the fault record back yet".into()
                } else {
                    "unexpectedly succeeded".into()
                }
            });
            let all = whole.copy_to_host()?.to_vec();
            let after = if all[3..] == [0, 0, 0] {
                "untouched"
            } else {
                "OVERWRITTEN"
            };
            Ok((
                (),
                format!(
                    "{reported}; the next launch ran: {:?}; the memory after the array: {after}",
                    &all[..3]
                ),
            ))
        },
    )?;
    host_memory_steps()?;
    pool_pressure_step()?;
    if recording {
        history::stop();
        let json =
            std::env::temp_dir().join(format!("rumba-demo-history-{}.json", std::process::id()));
        history::dump(&json)?;
        let picture = crate::memviz::render(&json, None)?;
        println!(
            "\nmemory history of this tour: {} ({} events)\n  its picture: {} (open it in a browser; `rumba memviz FILE -o out.svg` draws an SVG)",
            json.display(),
            history::snapshot().events.len(),
            picture.display()
        );
    }
    println!();
    crate::print_memory()?;
    Ok(())
}

/// A pool under a limit: mixed sizes on two streams, frees, an out-of-memory failure and a trim
/// (the pool's part of the memory history's picture).
fn pool_pressure_step() -> Result<()> {
    use rumba::memory::{
        DriverResource, LimitingAdaptor, MemoryManager, PoolOptions, PoolResource,
    };
    use std::sync::Arc;
    step(
        "a pool under a 96 MiB limit: 24 blocks on two streams, frees, one out-of-memory",
        || {
            let ctx = rumba::current_context()?;
            let mc = ctx.manager_context();
            let driver = Arc::new(DriverResource::new(mc.device, Arc::clone(&mc.driver)));
            let limited = Arc::new(LimitingAdaptor::new(driver, mc.device, Some(96 << 20)));
            let pool = Arc::new(PoolResource::with_options(
                &mc,
                limited,
                PoolOptions::default(),
            )?);
            let mm = MemoryManager::new("pool", &mc, pool.clone(), mc.host_upstream());
            let (a, b) = (rumba::stream()?, rumba::stream()?);
            let mut live = Vec::new();
            for k in 0..24usize {
                let s = if k % 2 == 0 { &a } else { &b };
                live.push(mm.memalloc_on([3usize, 1, 8, 2, 5][k % 5] << 20, s.handle())?);
                if k % 3 == 2 {
                    live.remove((k / 3) % live.len());
                }
            }
            let refused = mm.memalloc(80 << 20).err();
            let held = live.len();
            drop(live);
            a.synchronize()?;
            b.synchronize()?;
            let trimmed = pool.release_cached()?;
            Ok((
                (),
                format!(
                    "{held} blocks live at the end; 80 MiB more: {}; {} MiB of segments returned after",
                    refused.map_or("granted".to_string(), |e| format!(
                        "refused ({})",
                        e.to_string().split(';').next().unwrap_or("")
                    )),
                    trimmed >> 20
                ),
            ))
        },
    )
}
/// Pinned vs pageable throughput, and an overlapped two-stream pipeline with its event timeline.
fn host_memory_steps() -> Result<()> {
    use rumba::ndarray::{Array1, s};
    const N: usize = 64 << 20;
    let st = rumba::stream()?;
    let pageable: Array1<u8> = Array1::from_iter((0..N).map(|i| (i % 251) as u8));
    let mut pinned = rumba::pinned_array::<u8, _>(N, rumba::Order::C)?;
    pinned
        .as_slice_memory_order_mut()
        .copy_from_slice(pageable.as_slice().unwrap_or(&[]));
    let d = rumba::to_device(&pageable)?;
    step(
        "64 MiB host -> device on a stream, pageable vs pinned",
        || {
            let t = Instant::now();
            st.copy(&d, &pageable)?;
            let returned = t.elapsed();
            st.synchronize()?;
            let pageable_total = t.elapsed();
            let t = Instant::now();
            let pinned_return = st.auto_synchronize(|scope| -> Result<Duration> {
                scope.copy(&d, &pinned)?;
                Ok(t.elapsed())
            })?;
            let pinned_total = t.elapsed();
            Ok((
                (),
                format!(
                    "pageable {:.2} GB/s (call returned after {}: staged), pinned {:.2} GB/s (call returned after {}); pinned memory {}",
                    gbps(N, pageable_total),
                    format_duration(returned),
                    gbps(N, pinned_total),
                    format_duration(pinned_return),
                    match pinned.page_locking() {
                        rumba::driver::PageLocking::Available => "page-locked".to_string(),
                        rumba::driver::PageLocking::Refused(why) =>
                            format!("not page-locked ({why})"),
                    }
                ),
            ))
        },
    )?;
    let mut back = Array1::<u8>::from_elem(N, 1); // touched: no first-touch faults in the timing
    let pinned = step(
        "64 MiB device -> host on a stream, pageable vs pinned",
        || {
            let t = Instant::now();
            st.auto_synchronize(|scope| scope.copy(&mut back, &d))?;
            let pageable_total = t.elapsed();
            let t = Instant::now();
            let transfer = st.download(&d, pinned)?; // the pinned array is moved into the copy
            let returned = t.elapsed();
            let pinned = transfer.wait()?; // ... and handed back once the stream reached it
            let pinned_total = t.elapsed();
            let ok = pinned.as_slice_memory_order() == back.as_slice().unwrap_or(&[]);
            Ok((
                pinned,
                format!(
                    "pageable {:.2} GB/s, pinned {:.2} GB/s (download returned after {}), data intact: {ok}",
                    gbps(N, pageable_total),
                    gbps(N, pinned_total),
                    format_duration(returned)
                ),
            ))
        },
    )?;
    drop(pinned);

    step(
        "two-stream pipeline: copy chunk k+1 while computing chunk k",
        || {
            const CHUNKS: usize = 8;
            const CHUNK: usize = (32 << 20) / 4 / CHUNKS;
            let (copy, compute) = (rumba::stream()?, rumba::stream()?);
            let mut input = rumba::pinned_array::<f32, _>(CHUNK * CHUNKS, rumba::Order::C)?;
            input
                .view_mut()
                .assign(&Array1::from_iter((0..CHUNK * CHUNKS).map(|i| i as f32)));
            let out = rumba::device_array::<f32, _>((CHUNKS, CHUNK), rumba::Order::C)?;
            out.assign(0.0)?;
            let stage = [
                rumba::device_array::<f32, _>(CHUNK, rumba::Order::C)?,
                rumba::device_array::<f32, _>(CHUNK, rumba::Order::C)?,
            ];
            for x in &stage {
                x.assign(0.0)?;
            }
            let ev = |n: usize| {
                (0..n)
                    .map(|_| rumba::event(rumba::EventOptions::new()))
                    .collect::<Result<Vec<_>>>()
            };
            let (ready, free, marks) = (ev(2)?, ev(2)?, ev(4 * CHUNKS + 1)?);
            let whole = input.view();
            let chunks: Vec<_> = whole.exact_chunks(CHUNK).into_iter().collect();
            copy.auto_synchronize(|scope| -> Result<()> {
                marks[4 * CHUNKS].record(scope.stream())?;
                for (k, chunk) in chunks.iter().enumerate() {
                    let slot = k % 2;
                    free[slot].wait(scope.stream())?;
                    marks[4 * k].record(scope.stream())?;
                    scope.copy(&stage[slot], chunk)?; // pinned: truly asynchronous
                    marks[4 * k + 1].record(scope.stream())?;
                    ready[slot].record(scope.stream())?;
                    ready[slot].wait(&compute)?;
                    marks[4 * k + 2].record(&compute)?;
                    out.slice(s![k, ..;-1])?.assign_on(&stage[slot], &compute)?;
                    marks[4 * k + 3].record(&compute)?;
                    free[slot].record(&compute)?;
                }
                compute.synchronize()
            })?;
            let t0 = &marks[4 * CHUNKS];
            let mut lines = Vec::new();
            let mut times = Vec::new();
            for k in 0..CHUNKS {
                let mut r = [0f32; 4];
                for (j, x) in r.iter_mut().enumerate() {
                    *x = t0.elapsed_time(&marks[4 * k + j])?;
                }
                times.push(r);
            }
            let mut overlap = 0.0;
            for (k, r) in times.iter().enumerate() {
                lines.push(format!(
                    "\n             chunk {k}: copy [{:6.2}, {:6.2}] ms  compute [{:6.2}, {:6.2}] ms",
                    r[0], r[1], r[2], r[3]
                ));
                if let Some(next) = times.get(k + 1) {
                    overlap += (r[3].min(next[1]) - r[2].max(next[0])).max(0.0);
                }
            }
            let correct = out.copy_to_host()?[[1, 0]] == (2 * CHUNK - 1) as f32;
            Ok((
                (),
                format!(
                    "32 MiB in {CHUNKS} chunks, overlap {overlap:.2} ms of {:.2} ms, result correct: {correct}{}",
                    times.last().map_or(0.0, |r| r[3]),
                    lines.concat()
                ),
            ))
        },
    )?;
    Ok(())
}

/// `rumba ipc-open <handle>`: the demo's child process.
pub fn ipc_open(handle: &str) -> Result<()> {
    let handle: rumba::IpcArrayHandle = handle.parse()?;
    let a = handle.open::<f64, rumba::ndarray::IxDyn>()?;
    let values = a.copy_to_host()?;
    let first = vec![0isize; a.ndim()];
    a.set(&first, -1.0)?;
    drop(a);
    handle.close()?;
    println!(
        "(pid {}) read {values} and set its first element to -1",
        std::process::id()
    );
    Ok(())
}

/// A minimal executor: enough to show that `async_done` works without any async runtime.
pub(crate) fn block_on<F: std::future::Future>(f: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark()
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}
