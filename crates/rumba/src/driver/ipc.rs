//! Inter-process sharing of device memory: exporting an allocation as bytes another process can
//! open, opening such bytes, and closing what was opened — the capability a driver offers through
//! [`Driver::ipc`].
//!
//! | backend | how |
//! |---------|-----|
//! | sim | the allocation moves into an OS shared-memory object on its first export; another process maps that object at a device address of its own |
//! | cuda | `cuIpcGetMemHandle` / `cuIpcOpenMemHandle` / `cuIpcCloseMemHandle` (memory of the stream-ordered pool is refused: a CUDA IPC handle cannot name it) |
//! | opencl | none: [`Driver::ipc`] is [`Error::Unsupported`](crate::error::Error::Unsupported) (OpenCL has no inter-process sharing of device memory) |
//!
//! The array-level API built on it is [`interop::ipc`](crate::interop::ipc); this trait deals only
//! in device addresses and handle bytes.

use super::DevicePtr;
#[cfg(doc)]
use super::Driver;
use crate::error::Result;
#[cfg(doc)]
use crate::error::{Error, IpcError};

/// A driver's inter-process sharing of device memory, reached through [`Driver::ipc`].
pub trait Ipc: Send + Sync {
    /// Exports an inter-process handle for the device allocation that **starts** at `ptr`
    /// (`cuIpcGetMemHandle`). The bytes name the whole allocation; a sub-range is described by an
    /// offset kept next to them (see [`IpcHandle`](crate::memory::IpcHandle)). On the sim the
    /// allocation moves into an OS shared-memory object on first export (all streams are waited
    /// for, without taking their errors); its device address does not change.
    ///
    /// # Errors
    /// [`Error::InvalidAddress`] when `ptr` is not the start of a live device allocation;
    /// [`Error::Driver`] or [`Error::Simulator`] when the shared-memory object cannot be created;
    /// [`Error::Unsupported`] for memory the backend cannot name in a handle.
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.mem_alloc(0, 64).unwrap();
    /// let ipc = drv.ipc().unwrap();
    /// let handle = ipc.get_mem_handle(0, p).unwrap();
    /// assert!(!handle.is_empty());
    /// assert!(ipc.get_mem_handle(0, p + 8).is_err()); // not the start of an allocation
    /// // Opening it here, in the exporting process, is refused.
    /// assert!(ipc.open_mem_handle(0, &handle).is_err());
    /// ```
    fn get_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<Vec<u8>>;

    /// Opens a handle exported by **another** process (`cuIpcOpenMemHandle`); returns the device
    /// address of the shared allocation in this process and its length in bytes. Opening a handle
    /// in the process that exported it, or opening the same allocation twice in one process, is
    /// an error.
    ///
    /// # Errors
    /// [`Error::Ipc`] ([`IpcError::Malformed`]) for bytes that are not a handle of this backend;
    /// [`Error::Ipc`] when the handle was exported by this process or is already open here;
    /// [`Error::Driver`] or [`Error::Ipc`] when the exporter's memory is gone.
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let err = drv.ipc().unwrap().open_mem_handle(0, b"not a handle").unwrap_err();
    /// assert!(matches!(err, rumba::Error::Ipc(rumba::error::IpcError::Malformed { .. })), "{err}");
    /// ```
    fn open_mem_handle(&self, device: usize, handle: &[u8]) -> Result<(DevicePtr, usize)>;

    /// Closes memory opened by [`open_mem_handle`](Ipc::open_mem_handle)
    /// (`cuIpcCloseMemHandle`). Closing anything else is an error. As with
    /// [`Driver::mem_free`], device work must no longer use the range.
    ///
    /// # Errors
    /// [`Error::InvalidAddress`] when `ptr` was not opened with
    /// [`open_mem_handle`](Ipc::open_mem_handle).
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.mem_alloc(0, 64).unwrap();
    /// let err = drv.ipc().unwrap().close_mem_handle(0, p).unwrap_err(); // never opened
    /// assert!(matches!(err, rumba::Error::InvalidAddress { .. }), "{err}");
    /// ```
    fn close_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<()>;
}
