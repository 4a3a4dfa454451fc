//! Copies between simulated devices and the default-stream ordering point that synchronous
//! operations (peer copies among them) wait for.
//!
//! Every simulated device's memory is host memory of this process, so any device can reach any
//! other's: [`can_access_peer`](SimDriver::can_access_peer) is true for two distinct devices. A
//! peer copy resolves both ranges on their own devices (bounds-checked, kept alive until it runs);
//! the synchronous one waits for both devices' default streams, the asynchronous one is ordered
//! with its stream (of the destination device) only, as `cuMemcpyPeerAsync` is.
//!
//! This module touches only simulator memory and streams.

use std::sync::Arc;

use super::inflight::Touch;
use super::memory::Resolved;
use super::stream::Dep;
use super::{PER_THREAD, SimDriver, bytes};
use crate::driver::{DevicePtr, StreamHandle};
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

    /// A synchronous peer copy (`cuMemcpyPeer`).
    pub(super) fn peer_copy(
        &self,
        dst_device: usize,
        dst: DevicePtr,
        src_device: usize,
        src: DevicePtr,
        bytes: usize,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(dst_device, dst, bytes)?;
        let s = self.resolve(src_device, src, bytes)?;
        self.wait_default_point(src_device)?;
        self.wait_default_point(dst_device)?;
        self.device_to_device_now(&d, &s, bytes);
        Ok(())
    }

    /// A peer copy queued on `stream` of `dst_device` (`cuMemcpyPeerAsync`).
    pub(super) fn peer_copy_async(
        &self,
        dst_device: usize,
        dst: DevicePtr,
        src_device: usize,
        src: DevicePtr,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(dst_device, dst, bytes)?;
        let s = self.resolve(src_device, src, bytes)?;
        self.queue_device_to_device(dst_device, stream, d, s, bytes)
    }

    /// Copies `bytes` from `s` into `d` on the calling thread: a synchronous copy, run after the
    /// caller waited for its ordering point. The ranges may lie on different devices.
    pub(super) fn device_to_device_now(&self, d: &Resolved, s: &Resolved, bytes: usize) {
        let _touch = self
            .inflight
            .begin_sync(vec![Touch::write(d), Touch::read(s)]);
        // SAFETY: both ranges are live and bounds-checked on their devices (resolved for
        // `bytes`); the caller's contract keeps Rust references away from them.
        unsafe { bytes::device_to_device(d.addr(), s.addr(), bytes) };
    }

    /// Queues a copy of `bytes` from `s` into `d` on `stream` of `device`; the work keeps both
    /// resolutions, so both ranges stay live until it has run.
    pub(super) fn queue_device_to_device(
        &self,
        device: usize,
        stream: StreamHandle,
        d: Resolved,
        s: Resolved,
        bytes: usize,
    ) -> Result<()> {
        let touches = vec![Touch::write(&d), Touch::read(&s)];
        let run = move || {
            // SAFETY: both ranges are live (kept by the resolutions) and bounds-checked.
            unsafe { bytes::device_to_device(d.addr(), s.addr(), bytes) };
            Ok(())
        };
        match self.capture_run(device, stream, touches, run) {
            Ok(recorded) => recorded,
            Err((touches, run)) => self
                .enqueue(device, stream, touches, Box::new(run))
                .map(drop),
        }
    }
}
