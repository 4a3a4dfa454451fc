//! `rumba demo`: a tour of what the library does, one timed step at a time.

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
        buf.copy_from_host(&host)?;
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
        buf.copy_from_host(&host)?;
        Ok(((), format!("{:.2} GB/s", gbps(N, t.elapsed()))))
    })?;
    let mut back = vec![1u8; N];
    step("copy 64 MiB device -> host (synchronous)", || {
        let t = Instant::now();
        buf.copy_to_host(&mut back)?;
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
        let (start, end) = (rumba::event(true)?, rumba::event(true)?);
        let t = Instant::now();
        let queued = s.auto_synchronize(|scope| -> Result<Duration> {
            start.record(scope.stream())?;
            scope.copy_to_device(&buf, 0, &pinned)?;
            end.record(scope.stream())?;
            Ok(t.elapsed())
        })??;
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
        "two streams overlap (each waits for the other's callback)",
        || {
            let (a, b) = (rumba::stream()?, rumba::stream()?);
            let (tx, rx) = mpsc::channel::<()>();
            a.add_callback(move |_, _| {
                let _ = rx.recv_timeout(Duration::from_secs(5));
            })?;
            b.add_callback(move |_, _| {
                let _ = tx.send(());
            })?;
            a.synchronize()?;
            b.synchronize()?;
            Ok(((), "both completed, so they ran concurrently".to_string()))
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
            let r = d.reshape(&[3, -1], rumba::Order::C)?; // a view, never a copy
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

    step(
        "kernel: shared-memory reduction of 1,048,576 floats (256-thread tree, 9 barriers)",
        || {
            use rumba::kernel::{Arr, Kernel};
            let k = Kernel::<(Arr<f32>, Arr<f32>)>::new("reduce_shared", |t, (x, partial)| {
                let sm = t.shared_array::<f32>(256);
                let (tid, i) = (t.thread_idx().x as usize, t.grid1());
                sm.set(tid, if i < x.len() { x.get(i) } else { 0.0 });
                t.syncthreads();
                let mut stride = 128;
                while stride > 0 {
                    if tid < stride {
                        sm.set(tid, sm.get(tid) + sm.get(tid + stride));
                    }
                    t.syncthreads();
                    stride /= 2;
                }
                if tid == 0 {
                    partial.set(t.block_idx().x as usize, sm.get(0));
                }
            });
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

    step(
        "kernel: an out-of-bounds write is caught and reported at synchronization",
        || {
            use rumba::kernel::{Arr, Kernel};
            let k = Kernel::<(Arr<i32>,)>::new("oob", |t, (a,)| a.set(t.grid1(), 1));
            let a = rumba::device_array::<i32, _>(3, rumba::Order::C)?;
            let s = rumba::stream()?;
            k.configure(1, 6).stream(&s).launch((&a,))?; // queued: returns at once
            let err = s.synchronize().err().map(|e| e.to_string());
            k.configure(1, 3).stream(&s).launch((&a,))?; // the stream works again
            s.synchronize()?;
            Ok((
                (),
                format!(
                    "{}; the next launch ran: {:?}",
                    err.unwrap_or_else(|| "unexpectedly succeeded".into()),
                    a.copy_to_host()?.to_vec()
                ),
            ))
        },
    )?;
    println!();
    crate::print_memory()?;
    Ok(())
}

/// A minimal executor: enough to show that `async_done` works without any async runtime.
fn block_on<F: std::future::Future>(f: F) -> F::Output {
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
