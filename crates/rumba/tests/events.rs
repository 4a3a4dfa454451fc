//! docs/design/behaviour.md §4: events — timing around real work, cross-stream waits, queries.

mod common;

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rumba::{Error, current_context};

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|_| {});
    common::serial()
}

#[test]
fn elapsed_time_around_real_work_is_positive() {
    let _s = setup();
    let ctx = current_context().unwrap();
    let s = rumba::stream().unwrap();
    let (start, end) = (
        rumba::event(rumba::EventOptions::new()).unwrap(),
        rumba::event(rumba::EventOptions::new()).unwrap(),
    );
    let buf = ctx.memalloc(64 << 20).unwrap();
    start.record(&s).unwrap();
    for v in 0..4 {
        s.memset(&buf, v).unwrap();
    }
    end.record(&s).unwrap();
    end.synchronize().unwrap();
    assert!(end.query().unwrap());
    let ms = start.elapsed_time(&end).unwrap();
    assert!(ms > 0.0, "{ms} ms");
    assert!(rumba::event_elapsed_time(&start, &end).unwrap() == ms);
}

#[test]
fn timing_errors_are_typed() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let (a, b) = (
        rumba::event(rumba::EventOptions::untimed()).unwrap(),
        rumba::event(rumba::EventOptions::new()).unwrap(),
    );
    a.record(&s).unwrap();
    b.record(&s).unwrap();
    s.synchronize().unwrap();
    let e = a.elapsed_time(&b).unwrap_err();
    assert!(matches!(e, Error::EventNotTimed { .. }), "{e}");
    let never = rumba::event(rumba::EventOptions::new()).unwrap();
    let e = b.elapsed_time(&never).unwrap_err();
    assert!(matches!(e, Error::EventNotRecorded { .. }), "{e}");
}

#[test]
fn wait_makes_stream_b_wait_for_stream_a_and_not_the_host() {
    let _s = setup();
    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    let la = Arc::clone(&log);
    a.add_callback(move |_, _| {
        gate_rx.recv().unwrap();
        la.lock().unwrap().push("a");
    })
    .unwrap();
    let e = rumba::event(rumba::EventOptions::untimed()).unwrap();
    e.record(&a).unwrap();
    assert!(
        !e.query().unwrap(),
        "a is gated, so its event cannot have completed"
    );
    e.wait(&b).unwrap(); // returns at once: the host does not wait
    let lb = Arc::clone(&log);
    b.add_callback(move |_, _| lb.lock().unwrap().push("b"))
        .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        log.lock().unwrap().is_empty(),
        "b is held back by the event"
    );
    gate_tx.send(()).unwrap();
    b.synchronize().unwrap();
    assert_eq!(*log.lock().unwrap(), vec!["a", "b"]);
    assert!(e.query().unwrap());
}

#[test]
fn an_unrecorded_event_is_complete_and_waiting_on_it_is_a_no_op() {
    let _s = setup();
    let e = rumba::event(rumba::EventOptions::untimed()).unwrap();
    assert!(e.query().unwrap());
    e.synchronize().unwrap();
    let s = rumba::stream().unwrap();
    e.wait(&s).unwrap();
    s.synchronize().unwrap();
}
