//! Failures made on purpose, for the unit tests of what an OpenCL call failing partway leaves
//! behind (nothing freed under queued commands, nothing queued that a synchronization does not
//! wait for, no half-ended capture). Only a test build of the library can make them; in any
//! other build [`injected`] is always `None`.
//!
//! A test arms a [`Point`] on its own thread ([`fail_after`]): the calls at that point on that
//! thread succeed as many times as it says, then every one fails until the test disarms it.
//!
//! This module touches nothing outside itself.

use opencl3::types::cl_int;

/// Where a failure can be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Point {
    /// Arming a host callback on its event (`clSetEventCallback`).
    Arm,
    /// Queuing a command of a batch or the marker that covers one (markers included).
    Enqueue,
    /// Allocating a graph's fault records (`clSVMAlloc`).
    Records,
}

/// The status of an injected failure at `point` on this thread, if one is due; the call is then
/// not made. Always `None` outside the library's unit tests.
#[inline]
pub(super) fn injected(point: Point) -> Option<cl_int> {
    #[cfg(test)]
    {
        imp::take(point)
    }
    #[cfg(not(test))]
    {
        let _ = point;
        None
    }
}

#[cfg(test)]
pub(super) use imp::fail_after;

#[cfg(test)]
mod imp {
    use std::cell::Cell;

    use opencl3::error_codes::CL_OUT_OF_HOST_MEMORY;
    use opencl3::types::cl_int;

    use super::Point;

    thread_local! {
        /// Per point: how many more calls succeed (`None`: the point is disarmed).
        static BUDGET: Cell<[Option<usize>; 3]> = const { Cell::new([None; 3]) };
    }

    fn index(point: Point) -> usize {
        match point {
            Point::Arm => 0,
            Point::Enqueue => 1,
            Point::Records => 2,
        }
    }

    /// Arms `point` on this thread: `successes` more calls succeed, then each fails with
    /// `CL_OUT_OF_HOST_MEMORY`; `None` disarms it.
    pub(in super::super) fn fail_after(point: Point, successes: Option<usize>) {
        BUDGET.with(|b| {
            let mut all = b.get();
            all[index(point)] = successes;
            b.set(all);
        });
    }

    pub(super) fn take(point: Point) -> Option<cl_int> {
        BUDGET.with(|b| {
            let mut all = b.get();
            let slot = &mut all[index(point)];
            let out = match slot {
                Some(0) => Some(CL_OUT_OF_HOST_MEMORY),
                Some(n) => {
                    *n -= 1;
                    None
                }
                None => None,
            };
            b.set(all);
            out
        })
    }
}
