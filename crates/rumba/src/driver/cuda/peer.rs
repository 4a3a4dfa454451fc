//! Copies between devices (`cuMemcpyPeer`, `cuMemcpyPeerAsync`) and peer-access queries
//! (`cuDeviceCanAccessPeer`) for [`CudaDriver`]. A peer copy names both primary contexts and
//! needs no peer access (the driver stages it when the devices cannot reach each other).
//!
//! This module touches the CUDA driver.

use cudarc::driver::sys;

use super::driver::CudaDriver;
use super::error::check;
use crate::driver::{DevicePtr, StreamHandle};
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

    /// `cuMemcpyPeer`.
    ///
    /// # Safety
    /// As for [`Driver::memcpy_peer`](crate::driver::Driver::memcpy_peer).
    pub(super) unsafe fn peer_copy(
        &self,
        dst_device: usize,
        dst: DevicePtr,
        src_device: usize,
        src: DevicePtr,
        bytes: usize,
    ) -> Result<()> {
        let (dc, sc) = (self.context(dst_device)?, self.context(src_device)?);
        self.bind(dst_device)?;
        // SAFETY: forwarded from the caller's contract; both contexts are retained primaries.
        check("cuMemcpyPeer", unsafe {
            sys::cuMemcpyPeer(dst, dc, src, sc, bytes)
        })
    }

    /// `cuMemcpyPeerAsync` on a stream of the destination device.
    ///
    /// # Safety
    /// As for [`Driver::memcpy_peer_async`](crate::driver::Driver::memcpy_peer_async).
    pub(super) unsafe fn peer_copy_async(
        &self,
        dst_device: usize,
        dst: DevicePtr,
        src_device: usize,
        src: DevicePtr,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()> {
        let (dc, sc) = (self.context(dst_device)?, self.context(src_device)?);
        let s = self.stream(stream)?;
        self.bind(dst_device)?;
        // SAFETY: forwarded from the caller's contract; both contexts are retained primaries.
        check("cuMemcpyPeerAsync", unsafe {
            sys::cuMemcpyPeerAsync(dst, dc, src, sc, bytes, s)
        })
    }
}
