//! How the simulator runs a copy or memset: blocking or queued on a stream ([`On`]).
//!
//! Blocking, an operation waits until everything the default stream would wait for has completed
//! ([`wait_default_point`](SimDriver::wait_default_point)), then runs on the calling thread with
//! its ranges marked in use. On a stream, it is recorded into the stream's capture, or queued
//! with its ranges' in-flight dependencies. Each copy or memset of the [`Driver`](crate::driver::Driver)
//! resolves its ranges (bounds-checked, kept alive by the resolutions until it has run) and hands
//! its work here, so the two orders are written once for all of them.
//!
//! Every simulated device's memory is host memory of this process, so any device can reach any
//! other's: [`can_access_peer`](SimDriver::can_access_peer) is true for two distinct devices, and a
//! peer copy is a device copy whose source was resolved on its own device.
//!
//! This module touches only simulator memory and streams.

use std::sync::Arc;

use super::inflight::Touch;
use super::memory::Resolved;
use super::stream::{Dep, SimStream};
use super::{PER_THREAD, SimDriver, bytes};
use crate::driver::graph::HOST_COPY;
use crate::driver::{On, Order, StreamHandle};
use crate::error::Result;

impl SimDriver {
    /// Waits until everything an operation on the default stream would wait for has completed;
    /// a synchronous operation then runs on the calling thread. The default stream is the legacy
    /// one, or (per-thread default streams configured) the calling thread's per-thread stream,
    /// which waits for earlier legacy work and its own.
    pub(super) fn wait_default_point(&self, device: usize) -> Result<()> {
        crate::driver::callback::refuse_wait("a synchronous copy or memset", "")?;
        let dev = self.device(device)?;
        let legacy = &dev.legacy.0;
        let deps: Vec<Dep> = if self.per_thread_default {
            let own =
                PER_THREAD.with(|m| m.borrow().get(&(self.id, device)).map(|o| Arc::clone(&o.0)));
            legacy
                .current_point()
                .into_iter()
                .chain(own.and_then(|s| s.current_point()))
                .collect()
        } else {
            dev.ordering_deps(legacy)
                .into_iter()
                .chain(legacy.current_point())
                .collect()
        };
        for dep in deps {
            dep.stream.wait_for(dep.seq);
        }
        Ok(())
    }

    /// Whether `device` can reach `peer`'s memory: any two distinct devices.
    pub(super) fn can_access_peer(&self, device: usize, peer: usize) -> Result<bool> {
        self.device(device)?;
        self.device(peer)?;
        Ok(device != peer)
    }

    /// Runs `work` over the ranges of `touches` as `on` says: blocking
    /// ([`run_now`](Self::run_now)), or on the stream ([`queue`](Self::queue)).
    pub(super) fn run_on<F>(&self, on: On, touches: Vec<Touch>, work: F) -> Result<()>
    where
        F: Fn() + Send + Sync + 'static,
    {
        match on.order {
            Order::Blocking => self.run_now(on.device, touches, work),
            Order::Stream(stream) => self.queue(on.device, stream, touches, move || {
                work();
                Ok(())
            }),
        }
    }

    /// A blocking operation: waits for the default stream's point of `device`, then runs `work`
    /// on the calling thread with the ranges of `touches` marked in use.
    pub(super) fn run_now(
        &self,
        device: usize,
        touches: Vec<Touch>,
        work: impl FnOnce(),
    ) -> Result<()> {
        self.wait_default_point(device)?;
        let _touch = self.inflight.begin_sync(touches);
        work();
        Ok(())
    }

    /// Records `run` into `stream`'s capture when it is being captured, else queues it there
    /// after the work its `touches` conflict with.
    pub(super) fn queue<F>(
        &self,
        device: usize,
        stream: StreamHandle,
        touches: Vec<Touch>,
        run: F,
    ) -> Result<()>
    where
        F: Fn() -> Result<()> + Send + Sync + 'static,
    {
        match self.capture_run(device, stream, touches, run) {
            Ok(recorded) => recorded,
            Err((touches, run)) => self
                .enqueue(device, stream, touches, Box::new(run))
                .map(drop),
        }
    }

    /// Copies `bytes` from `s` into `d` as `on` says; the work keeps both resolutions, so both
    /// ranges stay live until it has run. The ranges may lie on different devices.
    pub(super) fn copy_resolved(
        &self,
        on: On,
        d: Resolved,
        s: Resolved,
        bytes: usize,
    ) -> Result<()> {
        let touches = vec![Touch::write(&d), Touch::read(&s)];
        self.run_on(on, touches, move || {
            // SAFETY: both ranges are live (kept by the resolutions) and bounds-checked on their
            // devices for `bytes`; the caller's contract keeps Rust references away from them.
            unsafe { bytes::device_to_device(d.addr(), s.addr(), bytes) };
        })
    }

    /// Refuses a copy between host and device memory (`operation`) on a capturing stream: a
    /// graph does not own host memory.
    pub(super) fn refuse_host_copy(&self, on: On, operation: &str) -> Result<()> {
        match on.order {
            Order::Blocking => Ok(()),
            Order::Stream(stream) => self
                .captures
                .refuse(on.device, stream, operation, HOST_COPY),
        }
    }

    /// Runs a copy between host and device memory as `on` says: blocking
    /// ([`run_now`](Self::run_now)), or queued on the stream (never recorded into a capture,
    /// which [`refuse_host_copy`](Self::refuse_host_copy) refused), giving the stream and the
    /// copy's place on it.
    pub(super) fn run_host_copy(
        &self,
        on: On,
        touches: Vec<Touch>,
        copy: impl FnOnce() + Send + 'static,
    ) -> Result<Option<(Arc<SimStream>, u64)>> {
        let Order::Stream(stream) = on.order else {
            return self.run_now(on.device, touches, copy).map(|()| None);
        };
        let run = move || {
            copy();
            Ok(())
        };
        self.enqueue(on.device, stream, touches, Box::new(run))
            .map(Some)
    }
}
