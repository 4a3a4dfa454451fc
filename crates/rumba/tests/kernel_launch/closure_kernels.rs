//! The low-level closure API (`Kernel::new(name, |t, args| …)`): Rust closures, which only the
//! simulator runs. Each test here covers what the closure API itself does (values a thread
//! holds, a Rust panic), and says so when skipped on another backend.

use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::Array1;
use rumba::Order;
use rumba::kernel::{Arr, Kernel};

use super::{common, fault};

static STARTED: AtomicUsize = AtomicUsize::new(0);
static ENDED: AtomicUsize = AtomicUsize::new(0);
struct Census;
impl Census {
    fn new() -> Self {
        STARTED.fetch_add(1, Ordering::SeqCst);
        Census
    }
}
impl Drop for Census {
    fn drop(&mut self) {
        ENDED.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn threads_holding_values_are_unwound_after_a_fault() {
    closure_only!("it counts the drops of values the closure's threads hold");
    let k = Kernel::<(Arr<i32>,)>::new("two_syncs", |t, (a,)| {
        let _c = Census::new();
        let i = t.thread_idx().x as usize;
        a.set(i, i as i32);
        t.syncthreads();
        t.syncthreads();
    });
    let a = rumba::device_array::<i32, _>(3, Order::C).unwrap();
    let s = rumba::stream().unwrap();
    let before = (STARTED.load(Ordering::SeqCst), ENDED.load(Ordering::SeqCst));
    k.configure(1, 6).stream(&s).launch((&a,)).unwrap();
    let (block, thread, msg) = fault(s.synchronize());
    assert_eq!((block, thread), ([0, 0, 0], [3, 0, 0]));
    assert!(
        msg.contains("index (3,) is out of bounds for axis 0 with size 3"),
        "{msg}"
    );
    let started = STARTED.load(Ordering::SeqCst) - before.0;
    let ended = ENDED.load(Ordering::SeqCst) - before.1;
    assert!(started >= 4, "threads 0..=3 ran");
    assert_eq!(
        started, ended,
        "every started thread was unwound: nothing left behind"
    );
}

#[test]
fn a_panic_is_a_kernel_fault() {
    closure_only!("a Rust panic with a formatted message (kernels fault through assert!)");
    let k = Kernel::<(Arr<i32>,)>::new("panics", |t, (a,)| {
        if t.grid1() == 5 {
            panic!("thread {} gives up", t.grid1());
        }
        a.set(t.grid1(), 1);
    });
    let mut a = Array1::<i32>::zeros(8);
    let s = rumba::stream().unwrap();
    let (_, thread, msg) = fault(k.configure(2, 4).stream(&s).launch((&mut a,)));
    assert_eq!(thread, [1, 0, 0]);
    assert!(msg.contains("thread 5 gives up"), "{msg}");
    assert_eq!(a.to_vec(), [0; 8], "the failed launch copied nothing back");
}
