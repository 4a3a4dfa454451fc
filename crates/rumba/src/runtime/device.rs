//! Devices: the [`Device`] handle, the calling thread's current device and the guard that
//! switches it for a scope (Numba's `cuda.gpus`, `select_device`, `with cuda.gpus[i]`).

use std::cell::Cell;

use super::{CURRENT_DEVICE, context_for, runtime};
use crate::driver::DeviceInfo;
use crate::error::{Error, Result};
use crate::runtime::context::Context;

/// A device of the running backend.
///
/// ```
/// let dev = rumba::current_device().unwrap();
/// assert_eq!(dev.id(), 0);
/// assert!(dev.info().unwrap().total_memory > 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Device {
    id: usize,
}

impl Device {
    /// The device ordinal.
    ///
    /// ```
    /// assert_eq!(rumba::gpus().unwrap()[0].id(), 0);
    /// ```
    pub fn id(&self) -> usize {
        self.id
    }

    /// Static facts: name, memory, compute capability, multiprocessors, warp size (the width
    /// of the warps kernels see, which their warp operations and `t.warp_size()` use: 32 on
    /// every backend — on OpenCL the warps are emulated over consecutive work-items, whatever the
    /// hardware's SIMD width, which `rumba detect` lists).
    ///
    /// # Errors
    /// The errors of [starting the runtime](crate::current_context#errors); [`Error::Driver`] when the
    /// backend cannot be queried about this device.
    ///
    /// ```
    /// let info = rumba::current_device().unwrap().info().unwrap();
    /// assert_eq!(info.warp_size, 32);
    /// ```
    pub fn info(&self) -> Result<DeviceInfo> {
        runtime()?.driver.device_info(self.id)
    }

    /// The device's context, created if needed (the calling thread attaches to it).
    ///
    /// # Errors
    /// As [`current_context`](crate::current_context), for this device.
    ///
    /// ```
    /// let ctx = rumba::current_device().unwrap().context().unwrap();
    /// assert_eq!(ctx.device_id(), 0);
    /// ```
    pub fn context(&self) -> Result<Context> {
        context_for(self.id)
    }

    /// Makes this device current for the calling thread until the returned guard is dropped,
    /// which restores the device that was current before — also when the scope is left by an
    /// error or a panic (Numba's `with cuda.gpus[1]:`). The device's context is created if
    /// needed. Guards nest; each restores what it replaced. The guard belongs to the thread that
    /// made it (it is not `Send`).
    ///
    /// # Errors
    /// The runtime failed to start, or the device's context could not be created (the current
    /// device is then unchanged).
    ///
    /// ```
    /// let outer = rumba::current_device().unwrap();
    /// {
    ///     let _on = rumba::gpus().unwrap()[0].activate().unwrap();
    ///     assert_eq!(rumba::current_device().unwrap().id(), 0);
    /// }
    /// assert_eq!(rumba::current_device().unwrap(), outer);
    /// ```
    pub fn activate(&self) -> Result<DeviceGuard> {
        let previous = current_device()?.id;
        select_device(self.id)?;
        Ok(DeviceGuard {
            previous,
            _thread: std::marker::PhantomData,
        })
    }

    /// Whether this device can access `peer`'s memory directly (Numba's
    /// `ctx.can_access_peer(peer)`, CUDA's `cuDeviceCanAccessPeer`). A device is not its own
    /// peer. Copies between devices do not need it ([`copy`](crate::copy) from a device array
    /// on another device is a peer copy either way).
    ///
    /// # Errors
    /// A backend that cannot tell ([`Error::Unsupported`]).
    ///
    /// ```
    /// let gpus = rumba::gpus().unwrap();
    /// assert!(!gpus[0].can_access_peer(&gpus[0]).unwrap());
    /// ```
    pub fn can_access_peer(&self, peer: &Device) -> Result<bool> {
        runtime()?.driver.device_can_access_peer(self.id, peer.id)
    }
}

/// Restores the previously current device when dropped (see [`Device::activate`]).
///
/// ```
/// let guard = rumba::current_device().unwrap().activate().unwrap();
/// assert_eq!(guard.previous().id(), 0);
/// ```
#[must_use = "the device stays current only while the guard lives"]
pub struct DeviceGuard {
    previous: usize,
    /// Not `Send`: the current device is per thread, so the guard must drop where it was made.
    _thread: std::marker::PhantomData<*const ()>,
}

impl DeviceGuard {
    /// The device that becomes current again when the guard drops.
    ///
    /// ```
    /// let g = rumba::gpus().unwrap()[0].activate().unwrap();
    /// assert_eq!(g.previous(), rumba::current_device().unwrap());
    /// ```
    pub fn previous(&self) -> Device {
        Device { id: self.previous }
    }
}

impl Drop for DeviceGuard {
    fn drop(&mut self) {
        // The previous device was a valid id; restoring is only the thread's choice (contexts
        // are created lazily), which cannot fail.
        CURRENT_DEVICE.with(|c| c.set(self.previous));
    }
}

impl std::fmt::Debug for DeviceGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceGuard(restores device {})", self.previous)
    }
}

/// Every device of the running backend.
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors).
///
/// ```
/// assert!(!rumba::gpus().unwrap().is_empty());
/// ```
pub fn gpus() -> Result<Vec<Device>> {
    Ok((0..runtime()?.driver.device_count())
        .map(|id| Device { id })
        .collect())
}

/// Makes device `id` current for the calling thread and creates its context.
///
/// # Errors
/// [`Error::InvalidDevice`] naming `id` and the device count; the errors of
/// [creating a context](crate::current_context#errors).
///
/// ```
/// assert_eq!(rumba::select_device(0).unwrap().id(), 0);
/// assert!(matches!(rumba::select_device(99), Err(rumba::Error::InvalidDevice { id: 99, .. })));
/// ```
pub fn select_device(id: usize) -> Result<Device> {
    let count = runtime()?.driver.device_count();
    if id >= count {
        return Err(Error::InvalidDevice { id, count });
    }
    CURRENT_DEVICE.with(|c| c.set(id));
    context_for(id)?;
    Ok(Device { id })
}

/// The calling thread's current device (device 0 unless [`select_device`] chose another).
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors).
///
/// ```
/// let dev = rumba::current_device().unwrap();
/// assert_eq!(dev.id(), 0); // no select_device on this thread yet
/// assert_eq!(rumba::current_context().unwrap().device_id(), dev.id());
/// ```
pub fn current_device() -> Result<Device> {
    runtime()?;
    Ok(Device {
        id: CURRENT_DEVICE.with(Cell::get),
    })
}
