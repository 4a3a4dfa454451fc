//! Asynchronous copies from and into pageable host memory on streams (`stream.copy`): an upload of
//! more than a chunk (4 MiB) is staged through pinned chunks with the copy pipelined. The data
//! arrives whole at every chunk boundary, the source is taken before the call returns, the chunks
//! keep their place in stream order among kernels and other copies on several streams at once,
//! an upload never waits for earlier work of its stream, and refusals queue nothing.

#[path = "ported_kernels/behaviour.rs"]
mod behaviour_kernels;
mod common;

use rumba::{Error, Order};

/// The staging chunk (`array/pageable.rs`).
const CHUNK: usize = 4 << 20;

fn setup() {
    common::start(|_| {});
}

fn pattern(len: usize, seed: u32) -> Vec<u8> {
    (0..len)
        .map(|i| ((i as u32).wrapping_mul(2_654_435_761) ^ seed).to_le_bytes()[1])
        .collect()
}

#[test]
fn uploads_and_downloads_arrive_whole_at_every_chunk_boundary() {
    setup();
    let s = rumba::stream().unwrap();
    let sizes = [
        0,
        1,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        3 * CHUNK,
        3 * CHUNK + 5,
        7 * CHUNK + 3,
    ];
    for (n, &len) in sizes.iter().enumerate() {
        let host = pattern(len, n as u32);
        let d = rumba::device_array::<u8, _>(len, Order::C).unwrap();
        d.assign(0xEE).unwrap();
        let mut scribbled = host.clone();
        s.copy(&d, &scribbled[..]).unwrap();
        // The source is taken before the call returns: writing it now changes nothing.
        scribbled.iter_mut().for_each(|b| *b = !*b);
        let mut back = vec![0x11u8; len];
        s.copy(&mut back[..], &d).unwrap(); // waits for the data
        assert!(back == host, "{len} bytes: the data arrived whole");
        s.synchronize().unwrap();
    }
    // Elements that straddle a chunk boundary (f64 at an odd total size).
    let host: Vec<f64> = (0..(CHUNK / 8) * 2 + 7).map(|i| i as f64 * 0.5).collect();
    let d = rumba::device_array::<f64, _>(host.len(), Order::C).unwrap();
    s.copy(&d, &host).unwrap();
    let mut back = vec![0.0f64; host.len()];
    s.copy(&mut back, &d).unwrap();
    assert_eq!(back, host);
}

#[test]
fn concurrent_streams_keep_stream_order_and_their_own_data() {
    setup();
    let add1 = behaviour_kernels::add1();
    let n = (2 * CHUNK + 4096 + 12) / 4; // i32 elements: three chunks, the last one short
    std::thread::scope(|scope| {
        for t in 0..4i32 {
            let add1 = &add1;
            scope.spawn(move || {
                let s = rumba::stream().unwrap();
                let d = rumba::device_array::<i32, _>(n, Order::C).unwrap();
                let e = rumba::device_array::<i32, _>(n, Order::C).unwrap();
                let f = rumba::device_array::<i32, _>(n, Order::C).unwrap();
                for round in 0..3i32 {
                    let base = t * 1_000_000 + round * 10_000;
                    let a: Vec<i32> = (0..n as i32).map(|i| base + i).collect();
                    let b: Vec<i32> = (0..n as i32).map(|i| -(base + i)).collect();
                    s.copy(&d, &a).unwrap();
                    add1.configure(n.div_ceil(256) as u32, 256)
                        .stream(&s)
                        .launch((&e, &d))
                        .unwrap();
                    // Queued after the kernel: must not overwrite `d` before the kernel read it.
                    s.copy(&d, &b).unwrap();
                    s.copy(&f, &d).unwrap();
                    let (mut got_e, mut got_f) = (vec![0i32; n], vec![0i32; n]);
                    s.copy(&mut got_e, &e).unwrap();
                    s.copy(&mut got_f, &f).unwrap();
                    assert!(
                        got_e.iter().zip(&a).all(|(x, y)| *x == y + 1),
                        "stream {t}, round {round}: the kernel read the first upload"
                    );
                    assert!(got_f == b, "stream {t}, round {round}: the second upload");
                }
                s.synchronize().unwrap();
            });
        }
    });
}

#[test]
fn an_upload_behind_an_event_arrives_for_the_waiting_stream() {
    setup();
    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let host = pattern(5 * CHUNK + 77, 9);
    let d = rumba::device_array::<u8, _>(host.len(), Order::C).unwrap();
    let ev = rumba::event(rumba::EventOptions::untimed()).unwrap();
    a.copy(&d, &host).unwrap();
    ev.record(&a).unwrap();
    ev.wait(&b).unwrap();
    let mut back = vec![0u8; host.len()];
    b.copy(&mut back, &d).unwrap();
    assert!(back == host);
}

#[test]
fn an_upload_does_not_wait_for_earlier_work_of_its_stream() {
    setup();
    // The stream is held by a callback until the test lets it go, after the upload returned: an
    // upload that waited for its stream's earlier work would only return at the gate's timeout.
    let (s, open) = common::gated_stream();
    let host = pattern(6 * CHUNK + 1, 3);
    let d = rumba::device_array::<u8, _>(host.len(), Order::C).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            s.copy(&d, &host).unwrap();
            tx.send(()).unwrap();
        });
        let returned = rx.recv_timeout(std::time::Duration::from_secs(20));
        open.send(()).unwrap();
        returned.expect("the upload returned while its stream was still held");
    });
    let mut back = vec![0u8; host.len()];
    s.copy(&mut back, &d).unwrap();
    assert!(back == host);
}

#[test]
fn an_upload_from_a_callback_of_its_own_stream_completes() {
    setup();
    let s = rumba::stream().unwrap();
    let host = pattern(4 * CHUNK + 9, 5);
    let d = rumba::device_array::<u8, _>(host.len(), Order::C).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    {
        let (d, host) = (d.clone(), host.clone());
        s.add_callback(move |st, _| tx.send(st.copy(&d, &host)).unwrap())
            .unwrap();
    }
    let queued = rx.recv().unwrap();
    if common::test_backend() == rumba::config::BackendChoice::Cuda {
        // CUDA forbids every driver call in a host callback: refused before anything is queued.
        let why = queued.unwrap_err();
        assert!(matches!(why, Error::InCallback { .. }), "{why}");
        return;
    }
    queued.expect("queued from the callback");
    let mut back = vec![0u8; host.len()];
    s.copy(&mut back, &d).unwrap();
    assert!(back == host);
}

#[test]
fn refused_uploads_queue_nothing() {
    setup();
    let s = rumba::stream().unwrap();
    let d = rumba::device_array::<u8, _>(2 * CHUNK, Order::C).unwrap();
    d.assign(7).unwrap();
    let wrong = pattern(2 * CHUNK + 1, 1);
    let e = s.copy(&d, &wrong).unwrap_err();
    assert!(matches!(e, Error::IncompatibleShape { .. }), "{e:?}");
    let negative = ndarray::Array1::from_vec(pattern(2 * CHUNK, 2));
    let view = negative.slice(ndarray::s![..;-1]);
    let small = rumba::device_array::<u8, _>(3, Order::C).unwrap();
    assert!(
        s.copy(&small, &view).is_err(),
        "shape mismatch, strided source"
    );
    s.synchronize().unwrap();
    assert!(
        d.copy_to_host().unwrap().iter().all(|&b| b == 7),
        "nothing was written"
    );
}
