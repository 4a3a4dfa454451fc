//! Host-path benchmarks: what a pageable asynchronous copy and an empty stream operation cost
//! next to their own limits, on the backend `RUMBA_BACKEND` selects (the sim by default).
//!
//! - `pageable_h2d_64MiB`: 64 MiB from a plain host array (pageable memory) to the device.
//!   `sync` is the synchronous copy (`rumba::copy`), the limit; `stream` queues the copy on a
//!   stream (`stream.copy`, staged through pinned chunks and pipelined) and then synchronizes it,
//!   so both are measured to completion.
//! - `pageable_d2h_64MiB`: the same the other way; `stream.copy` into pageable memory returns
//!   once the data is there, so it is measured to its return.
//! - `empty_op`: an event record on an idle stream followed by a query of the event (the empty
//!   stream operation: it completes at once, with no allocation and no hop to the stream's
//!   worker), an idle stream's synchronization, and an empty host callback queued and waited for
//!   (which must run on the stream's worker thread, so it pays the hop).
//!
//! Run: `cargo bench -p rumba --bench host_paths`; the ratio `stream / sync` within one run is
//! the figure to compare with 0.8× bandwidth (1.25× time).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const N: usize = 64 << 20;

fn pageable_h2d(c: &mut Criterion) {
    let s = rumba::stream().unwrap();
    let host: Vec<u8> = (0..N).map(|i| (i % 251) as u8).collect();
    let d = rumba::to_device(&host[..]).unwrap(); // every device page touched once
    d.assign(0).unwrap();
    s.copy(&d, &host[..]).unwrap();
    assert!(
        d.copy_to_host_on(&s).unwrap().to_vec() == host,
        "the upload arrived"
    );
    let mut g = c.benchmark_group("pageable_h2d_64MiB");
    g.throughput(Throughput::Bytes(N as u64)).sample_size(20);
    g.bench_function("sync", |b| {
        b.iter(|| rumba::copy(&d, black_box(&host[..])).unwrap())
    });
    g.bench_function("stream", |b| {
        b.iter(|| {
            s.copy(&d, black_box(&host[..])).unwrap();
            s.synchronize().unwrap();
        })
    });
    g.finish();
}

fn pageable_d2h(c: &mut Criterion) {
    let s = rumba::stream().unwrap();
    let host: Vec<u8> = (0..N).map(|i| (i % 251) as u8).collect();
    let d = rumba::to_device(&host[..]).unwrap();
    let mut back = vec![1u8; N]; // touched: no first-touch faults in the timing
    s.copy(&mut back[..], &d).unwrap();
    assert!(back == host, "the download brought the data back");
    let mut g = c.benchmark_group("pageable_d2h_64MiB");
    g.throughput(Throughput::Bytes(N as u64)).sample_size(20);
    g.bench_function("sync", |b| {
        b.iter(|| rumba::copy(black_box(&mut back[..]), &d).unwrap())
    });
    g.bench_function("stream", |b| {
        b.iter(|| s.copy(black_box(&mut back[..]), &d).unwrap())
    });
    g.finish();
}

fn empty_op(c: &mut Criterion) {
    let s = rumba::stream().unwrap();
    let e = rumba::event(rumba::EventOptions::new()).unwrap();
    let mut g = c.benchmark_group("empty_op");
    g.bench_function("event_record_query_idle", |b| {
        b.iter(|| {
            e.record(&s).unwrap();
            black_box(e.query().unwrap())
        })
    });
    g.bench_function("stream_synchronize_idle", |b| {
        b.iter(|| s.synchronize().unwrap())
    });
    g.bench_function("callback_round_trip", |b| {
        b.iter(|| {
            s.add_callback(|_, _| {}).unwrap();
            s.synchronize().unwrap();
        })
    });
    g.finish();
}

criterion_group!(benches, pageable_h2d, pageable_d2h, empty_op);
criterion_main!(benches);
