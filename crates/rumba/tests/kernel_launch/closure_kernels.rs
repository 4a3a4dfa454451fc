//! The low-level closure API (`Kernel::new(name, |t, args| …)`): Rust closures, which only the
//! simulator runs. Each test here covers what the kernel language has no form of, and says so
//! when skipped on another backend.

use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::Array1;
use rumba::Order;
use rumba::kernel::{Arr, GlobalView, Kernel, Slice, ThreadCtx};

use super::{common, fault};

/// Numba's `_test_dynshared_slice`: launch `[1, 1]` with `len(expected)` int32s of dynamic
/// shared memory through a real launch and compare the output array.
fn dynshared_case(
    expected: &[i32],
    body: impl Fn(&ThreadCtx<'_>, &GlobalView<'_, i32>) + Send + Sync + 'static,
) {
    let k = Kernel::<(Arr<i32>,)>::new("dynshared", move |t, (x,)| body(t, x));
    let d = rumba::device_array::<i32, _>(expected.len(), Order::C).unwrap();
    k.configure(1, 1)
        .dynamic_shared_bytes(4 * expected.len())
        .launch((&d,))
        .unwrap();
    assert_eq!(d.copy_to_host().unwrap().to_vec(), expected);
}

const NO_SLICES: &str = "slices of dynamic shared memory (`d.slice(..)`) are not in the kernel language (KERNELS.md §2)";

#[test]
fn dynshared_slice_write_and_read() {
    closure_only!(NO_SLICES);
    dynshared_case(&[1, 2], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(0..1), d.slice(1..2));
        sm1.set(0, 1);
        sm2.set(0, 2);
        x.set(0, d.get(0));
        x.set(1, d.get(1));
    });
    dynshared_case(&[1, 2], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(0..1), d.slice(1..2));
        d.set(0, 1);
        d.set(1, 2);
        x.set(0, sm1.get(0));
        x.set(1, sm2.get(0));
    });
}

#[test]
fn dynshared_slice_diff_sizes_and_overlap() {
    closure_only!(NO_SLICES);
    dynshared_case(&[1, 2, 3], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(0..1), d.slice(1..3));
        for i in 0..3 {
            d.set(i, i as i32 + 1);
        }
        x.set(0, sm1.get(0));
        x.set(1, sm2.get(0));
        x.set(2, sm2.get(1));
    });
    dynshared_case(&[1, 2, 2, 3, 4], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(0..2), d.slice(1..4));
        for i in 0..4 {
            d.set(i, i as i32 + 1);
        }
        x.set(0, sm1.get(0));
        x.set(1, sm1.get(1));
        x.set(2, sm2.get(0));
        x.set(3, sm2.get(1));
        x.set(4, sm2.get(2));
    });
}

#[test]
fn dynshared_slice_gaps_backwards_and_strides() {
    closure_only!(NO_SLICES);
    dynshared_case(&[99, 1, 2, 99, 3, 4, 99], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(1..3), d.slice(4..6));
        for i in 0..7 {
            d.set(i, 99);
        }
        sm1.set(0, 1);
        sm1.set(1, 2);
        sm2.set(0, 3);
        sm2.set(1, 4);
        for i in 0..7 {
            x.set(i, d.get(i));
        }
    });
    dynshared_case(&[2, 1, 4, 3], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let sm1 = d.slice(Slice::new(Some(1), None, -1));
        let sm2 = d.slice(Slice::new(Some(3), Some(1), -1));
        sm1.set(0, 1);
        sm1.set(1, 2);
        sm2.set(0, 3);
        sm2.set(1, 4);
        for i in 0..4 {
            x.set(i, d.get(i));
        }
    });
    dynshared_case(&[1, 99, 2, 99, 3, 99], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let sm1 = d.slice(Slice::from(..).step_by(2));
        for i in 0..6 {
            d.set(i, 99);
        }
        for i in 0..3 {
            sm1.set(i, i as i32 + 1);
        }
        for i in 0..6 {
            x.set(i, d.get(i));
        }
    });
    dynshared_case(&[99, 3, 99, 2, 99, 1], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let sm1 = d.slice(Slice::new(Some(-1), None, -2));
        for i in 0..6 {
            d.set(i, 99);
        }
        for i in 0..3 {
            sm1.set(i, i as i32 + 1);
        }
        for i in 0..6 {
            x.set(i, d.get(i));
        }
    });
}

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
