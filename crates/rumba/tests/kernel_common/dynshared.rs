//! Numba's `_test_dynshared_slice` cases, written once: slices of dynamic shared memory that are
//! disjoint, overlap, leave gaps, run backwards or skip elements must all behave as views of the
//! same bytes. `kernel_exec.rs` runs them on the engine directly (both paths), the closure
//! kernels of `kernel_launch` through a real launch.

use rumba::kernel::{GlobalView, Slice, ThreadCtx};

/// One case, run by a single thread with `expected.len()` `i32`s of dynamic shared memory and an
/// output array of that length, which must end up equal to `expected`.
pub struct Case {
    /// What the case covers.
    pub name: &'static str,
    /// The output the body must write.
    pub expected: &'static [i32],
    /// The kernel body: the thread and the output array.
    pub body: fn(&ThreadCtx<'_>, &GlobalView<'_, i32>),
}

/// Every case.
pub const CASES: &[Case] = &[
    Case {
        name: "write through two slices",
        expected: &[1, 2],
        body: |t, x| {
            let d = t.dynamic_shared::<i32>();
            let (sm1, sm2) = (d.slice(0..1), d.slice(1..2));
            sm1.set(0, 1);
            sm2.set(0, 2);
            x.set(0, d.get(0));
            x.set(1, d.get(1));
        },
    },
    Case {
        name: "read through two slices",
        expected: &[1, 2],
        body: |t, x| {
            let d = t.dynamic_shared::<i32>();
            let (sm1, sm2) = (d.slice(0..1), d.slice(1..2));
            d.set(0, 1);
            d.set(1, 2);
            x.set(0, sm1.get(0));
            x.set(1, sm2.get(0));
        },
    },
    Case {
        name: "slices of different sizes",
        expected: &[1, 2, 3],
        body: |t, x| {
            let d = t.dynamic_shared::<i32>();
            let (sm1, sm2) = (d.slice(0..1), d.slice(1..3));
            for i in 0..3 {
                d.set(i, i as i32 + 1);
            }
            x.set(0, sm1.get(0));
            x.set(1, sm2.get(0));
            x.set(2, sm2.get(1));
        },
    },
    Case {
        name: "overlapping slices",
        expected: &[1, 2, 2, 3, 4],
        body: |t, x| {
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
        },
    },
    Case {
        name: "slices with gaps",
        expected: &[99, 1, 2, 99, 3, 4, 99],
        body: |t, x| {
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
        },
    },
    Case {
        name: "backward slices [1::-1] and [3:1:-1]",
        expected: &[2, 1, 4, 3],
        body: |t, x| {
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
        },
    },
    Case {
        name: "every other element [::2]",
        expected: &[1, 99, 2, 99, 3, 99],
        body: |t, x| {
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
        },
    },
    Case {
        name: "every other element backwards [-1::-2]",
        expected: &[99, 3, 99, 2, 99, 1],
        body: |t, x| {
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
        },
    },
];
