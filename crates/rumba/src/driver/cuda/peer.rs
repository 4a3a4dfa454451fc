//! Copies between devices (`cuMemcpyPeer`, `cuMemcpyPeerAsync`) and peer-access queries
//! (`cuDeviceCanAccessPeer`) for [`CudaDriver`]. A peer copy names both primary contexts and
//! needs no peer access (the driver stages it when the devices cannot reach each other).
//!
//! This module touches the CUDA driver.

use cudarc::driver::sys;

use super::driver::CudaDriver;
use super::error::check;
use crate::driver::{DeviceCopy, On, Order};
use crate::error::{Error, Result};

impl CudaDriver {
    /// `cuDeviceCanAccessPeer`; a device is not its own peer.
    pub(super) fn can_access_peer(&self, device: usize, peer: usize) -> Result<bool> {
        let d = self.bind(device)?.dev;
        let p = self
            .devices
            .get(peer)
            .ok_or(Error::InvalidDevice {
                id: peer,
                count: self.devices.len(),
            })?
            .dev;
        if device == peer {
            return Ok(false);
        }
        let mut can = 0;
        // SAFETY: writes one int for two valid devices.
        check("cuDeviceCanAccessPeer", unsafe {
            sys::cuDeviceCanAccessPeer(&mut can, d, p)
        })?;
        Ok(can != 0)
    }

    /// `cuMemcpyPeer`, or on a stream of the destination device `cuMemcpyPeerAsync`. Blocking,
    /// it is the legacy call also with per-thread default streams (CUDA orders it after both
    /// devices' legacy default streams), then waited for.
    ///
    /// # Safety
    /// As for [`Driver::memcpy_peer`](crate::driver::Driver::memcpy_peer).
    pub(super) unsafe fn peer_copy(
        &self,
        on: On,
        src_device: usize,
        copy: DeviceCopy,
    ) -> Result<()> {
        let DeviceCopy { dst, src, bytes } = copy;
        let (dc, sc) = (self.context(on.device)?, self.context(src_device)?);
        let Order::Stream(stream) = on.order else {
            self.bind(on.device)?;
            // SAFETY: forwarded from the caller's contract; both contexts are retained primaries.
            check("cuMemcpyPeer", unsafe {
                sys::cuMemcpyPeer(dst, dc, src, sc, bytes)
            })?;
            // Complete on return, as a blocking operation promises (CUDA's is not).
            return self.finish_legacy();
        };
        let s = self.stream(stream)?;
        self.bind(on.device)?;
        // SAFETY: forwarded from the caller's contract; both contexts are retained primaries.
        check("cuMemcpyPeerAsync", unsafe {
            sys::cuMemcpyPeerAsync(dst, dc, src, sc, bytes, s)
        })
    }
}
