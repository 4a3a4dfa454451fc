//! Sharing a device array with another process (CUDA IPC).
//!
//! [`DeviceArray::get_ipc_handle`] exports the allocation that holds the array — for a view, the
//! range of bytes the view spans and its offset inside the allocation are kept — together with
//! shape, byte strides and typestr, as an [`IpcArrayHandle`]. The handle serialises to one line
//! of text ([`Display`](std::fmt::Display) / [`FromStr`]) to send over a pipe,
//! a socket or a command line. Another process [`open`](IpcArrayHandle::open)s it as a device
//! array over the same memory: writes on either side are visible to the other once that side's
//! work has completed (synchronize before signalling the other process).
//!
//! On CUDA this is `cuIpcGetMemHandle` / `cuIpcOpenMemHandle`; on the sim the allocation lives in
//! an OS shared-memory object that the other process maps (see the sim driver's `ipc` module).
//! OpenCL has no inter-process sharing of device memory: there every export is
//! [`Error::Unsupported`] naming the backend.
//! The memory manager finds the allocation: the default manager exports the allocation itself,
//! the pool the segment that holds the block, with the offset of the range inside it. Memory that
//! rumba did not allocate — arrays imported through the CUDA Array Interface or DLPack — is found
//! by the driver ([`Driver::mem_get_address_range`], CUDA's `cuMemGetAddressRange`, as Numba's
//! `GetIpcHandleMixin` does) and exported the same way; memory that cannot be (host memory the
//! device addresses, memory opened from another process's handle) is [`Error::Unsupported`]
//! saying why.
//!
//! Errors, as in Numba: opening a handle in the process that exported it, opening it twice
//! (in this handle, or the same allocation through another copy of the handle in this process),
//! and closing a handle that is not open.
//!
//! **Safety.** Opening is safe: the memory is device memory that the driver itself has just
//! mapped into this process, and the returned array keeps the mapping open until its last view
//! (and the handle, until [`close`](IpcArrayHandle::close)) is dropped — closing never leaves an
//! array dangling. What the other process writes, and when, is a data exchange like any other
//! device memory shared between streams: it is never undefined behaviour in this process.
//!
//! This module touches the memory manager (export), the driver (open, close), the array layer
//! and the runtime (contexts).

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use ndarray::Dimension;

use crate::array::DeviceArray;
use crate::driver::{DevicePtr, Driver, StreamHandle};
use crate::error::{Error, IpcError, Result};
use crate::layout::Layout;
use crate::layout::element::Element;
use crate::memory::gate::Lease;
use crate::memory::history::{self, EventKind, Note};
use crate::memory::{DeviceBuffer, IpcHandle};
use crate::runtime::context::Context;
use crate::sync::lock;

/// First field of a serialised handle.
const TAG: &str = "rumba-ipc-array/1";

/// A device array exported for another process: the memory handle plus the array's layout.
///
/// Cloning gives an unopened copy. Equality compares what the handle describes, not whether it
/// is open.
///
/// ```
/// use ndarray::s;
/// let d = rumba::to_device(&(0..10).map(|i| i as f64).collect::<Vec<_>>()).unwrap();
/// let h = match d.slice(s![3..8]).unwrap().get_ipc_handle() {
///     Ok(h) => h,
///     // OpenCL has no inter-process sharing of device memory: the export is refused.
///     Err(rumba::Error::Unsupported { backend, .. })
///         if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl =>
///     {
///         assert_eq!(backend, "opencl");
///         return;
///     }
///     Err(e) => panic!("{e}"),
/// };
/// assert_eq!((h.shape(), h.strides(), h.typestr()), (&[5][..], &[8][..], "<f8"));
/// assert_eq!(h.ipc().offset, 24); // the view's offset in its allocation is kept
/// let text = h.to_string();                       // send this to another process …
/// let back: rumba::interop::IpcArrayHandle = text.parse().unwrap();
/// assert_eq!(back, h);
/// // … which calls `back.open::<f64, ndarray::Ix1>()`. Here, in the exporter, that is refused:
/// assert!(back.open::<f64, ndarray::Ix1>().is_err());
/// ```
pub struct IpcArrayHandle {
    ipc: IpcHandle,
    backend: String,
    source_pid: u32,
    shape: Vec<usize>,
    strides: Vec<isize>,
    typestr: String,
    first: usize,
    opened: Mutex<Option<Arc<IpcMapping>>>,
}

/// An open IPC mapping in this process; closed when the last array using it and the handle
/// have let go of it.
struct IpcMapping {
    ctx: Context,
    base: DevicePtr,
}

impl Drop for IpcMapping {
    fn drop(&mut self) {
        let (driver, device, base) = (
            Arc::clone(self.ctx.driver()),
            self.ctx.device_id(),
            self.base,
        );
        note_ipc(EventKind::IpcClose, device, 0, base);
        self.ctx.release_or_defer(
            format!("IPC mapping 0x{base:x}"),
            Box::new(move || driver.ipc()?.close_mem_handle(device, base)),
        );
    }
}

/// Records an IPC event in the memory history, when one records.
fn note_ipc(kind: EventKind, device: usize, bytes: usize, ptr: DevicePtr) {
    if history::is_recording() {
        history::note(
            Note::new(kind, device, StreamHandle::LEGACY, bytes, ptr),
            None,
        );
    }
}

impl<T: Element, D: Dimension> DeviceArray<T, D> {
    /// Exports the array for another process (see the [module docs](crate::interop::ipc)).
    ///
    /// Memory that rumba did not allocate — an array imported through the CUDA Array Interface
    /// or DLPack — is exported too when the driver can find and export the allocation that
    /// contains it (on CUDA `cuMemGetAddressRange` + `cuIpcGetMemHandle`, on the sim its
    /// shared-memory mechanism), with the offset kept in the handle.
    ///
    /// # Errors
    /// A size-0 array ([`Error::Ipc`]); [`Error::Ipc`] ([`IpcError::ForeignMemory`]) saying why
    /// for memory rumba did not allocate that cannot be exported (host memory the device
    /// addresses, memory opened from another process's handle); [`Error::Unsupported`] for a
    /// driver without IPC; a manager that cannot export ([`Error::Resource`]).
    ///
    /// ```
    /// let d = rumba::device_array::<u8, _>((4, 4), rumba::Order::C).unwrap();
    /// let h = d.get_ipc_handle();
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    ///     assert!(matches!(h, Err(rumba::Error::Unsupported { .. }))); // OpenCL has no IPC
    /// } else {
    ///     let h = h.unwrap();
    ///     assert_eq!((h.ipc().bytes, h.ipc().offset), (16, 0));
    /// }
    /// ```
    pub fn get_ipc_handle(&self) -> Result<IpcArrayHandle> {
        if self.size() == 0 {
            return Err(IpcError::Empty.into());
        }
        let buffer = self.buffer();
        let (lo, hi) = self.layout().alloc_extent();
        // The export names the memory at this moment: a reset must not free it in between.
        let lease = Lease::enter()?;
        let (ptr, bytes) = (buffer.addr(&lease, lo, hi - lo)?, hi - lo);
        let ipc = match buffer.resource() {
            Some(resource) => resource.ipc_handle(ptr, bytes)?,
            None => export_foreign(buffer.driver().as_ref(), buffer.device(), ptr, bytes)?,
        };
        Ok(IpcArrayHandle {
            ipc,
            backend: buffer.driver().backend().to_string(),
            source_pid: std::process::id(),
            shape: self.shape().to_vec(),
            strides: self.strides().to_vec(),
            typestr: T::DTYPE.typestr(),
            first: self.layout().offset() - lo,
            opened: Mutex::new(None),
        })
    }
}

/// Exports `[ptr, ptr + bytes)` of memory rumba did not allocate (an import through the CUDA
/// Array Interface or DLPack): the driver finds the allocation that contains it
/// (`cuMemGetAddressRange`) and exports that, with the range's offset in the handle — Numba's
/// `GetIpcHandleMixin`. Memory that cannot be exported is [`Error::Unsupported`] saying why.
fn export_foreign(
    driver: &dyn Driver,
    device: usize,
    ptr: DevicePtr,
    bytes: usize,
) -> Result<IpcHandle> {
    let why = |e: Error| Error::from(IpcError::ForeignMemory(Box::new(e)));
    let (base, len) = driver.mem_get_address_range(device, ptr).map_err(why)?;
    let end = (ptr - base).checked_add(bytes as u64);
    if end.is_none_or(|e| e > len as u64) {
        return Err(why(IpcError::PastAllocation {
            ptr,
            bytes,
            base,
            len,
        }
        .into()));
    }
    IpcHandle::export(driver, device, base, ptr, bytes).map_err(why)
}

impl IpcArrayHandle {
    /// The memory handle: device, bytes of the shared range, its offset in the allocation, and
    /// the backend's handle bytes.
    ///
    /// ```
    /// let d = rumba::device_array::<u32, _>(8, rumba::Order::C).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL has no IPC: the export is refused (see the module docs).
    /// #     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
    /// #     return;
    /// # }
    /// assert_eq!(d.get_ipc_handle().unwrap().ipc().bytes, 32);
    /// ```
    pub fn ipc(&self) -> &IpcHandle {
        &self.ipc
    }

    /// Shape of the exported array.
    ///
    /// ```
    /// let d = rumba::device_array::<u32, _>((2, 3), rumba::Order::C).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL has no IPC: the export is refused (see the module docs).
    /// #     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
    /// #     return;
    /// # }
    /// assert_eq!(d.get_ipc_handle().unwrap().shape(), &[2, 3]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Byte strides of the exported array.
    ///
    /// ```
    /// let d = rumba::device_array::<u32, _>((2, 3), rumba::Order::F).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL has no IPC: the export is refused (see the module docs).
    /// #     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
    /// #     return;
    /// # }
    /// assert_eq!(d.get_ipc_handle().unwrap().strides(), &[4, 8]);
    /// ```
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// numpy typestr of the elements.
    ///
    /// ```
    /// let d = rumba::device_array::<i8, _>(2, rumba::Order::C).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL has no IPC: the export is refused (see the module docs).
    /// #     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
    /// #     return;
    /// # }
    /// assert_eq!(d.get_ipc_handle().unwrap().typestr(), "|i1");
    /// ```
    pub fn typestr(&self) -> &str {
        &self.typestr
    }

    /// Process id of the exporter.
    ///
    /// ```
    /// let d = rumba::device_array::<i8, _>(2, rumba::Order::C).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL has no IPC: the export is refused (see the module docs).
    /// #     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
    /// #     return;
    /// # }
    /// assert_eq!(d.get_ipc_handle().unwrap().source_pid(), std::process::id());
    /// ```
    pub fn source_pid(&self) -> u32 {
        self.source_pid
    }

    /// True while [`open`](Self::open)ed and not [`close`](Self::close)d.
    ///
    /// ```
    /// let d = rumba::device_array::<i8, _>(2, rumba::Order::C).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL has no IPC: the export is refused (see the module docs).
    /// #     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
    /// #     return;
    /// # }
    /// assert!(!d.get_ipc_handle().unwrap().is_open());
    /// ```
    pub fn is_open(&self) -> bool {
        lock(&self.opened).is_some()
    }

    /// Opens the handle in this (another) process as a device array of `T` on the handle's
    /// device. The element type must match the exported typestr and `D` the number of axes.
    ///
    /// # Errors
    /// [`Error::Ipc`] when opened in the exporting process, or already open (through this handle,
    /// or the same allocation through another copy of it), for a handle of another backend, or
    /// when the exporter has freed the memory or exited; [`Error::Shape`] / [`Error::Strides`] for
    /// a layout that does not fit `D`; [`Error::IncompatibleDtype`] when the exported typestr is not `T`'s;
    /// [`Error::Driver`] when the exporter has freed the memory or exited.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>(4, rumba::Order::C).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL has no IPC: the export is refused (see the module docs).
    /// #     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
    /// #     return;
    /// # }
    /// let err = d.get_ipc_handle().unwrap().open::<f32, ndarray::Ix1>().unwrap_err();
    /// assert!(matches!(err, rumba::Error::Ipc(rumba::error::IpcError::SameProcess)));
    /// ```
    pub fn open<T: Element, D: Dimension>(&self) -> Result<DeviceArray<T, D>> {
        let mut opened = lock(&self.opened);
        if opened.is_some() {
            return Err(IpcError::AlreadyOpen.into());
        }
        if self.source_pid == std::process::id() {
            return Err(IpcError::SameProcess.into());
        }
        if T::DTYPE.typestr() != self.typestr {
            return Err(Error::IncompatibleDtype {
                left: T::DTYPE.name().to_string(),
                right: format!("typestr '{}'", self.typestr),
            });
        }
        let ctx = super::context_of(self.ipc.device)?;
        let driver: &Arc<dyn Driver> = ctx.driver();
        let backend = driver.backend().to_string();
        if backend != self.backend {
            return Err(IpcError::OtherBackend {
                exported: self.backend.clone(),
                current: backend,
            }
            .into());
        }
        let (base, len) = driver
            .ipc()?
            .open_mem_handle(ctx.device_id(), &self.ipc.handle)
            .map_err(|e| self.name_exporter(e))?;
        note_ipc(EventKind::IpcImport, ctx.device_id(), len, base);
        let mapping = Arc::new(IpcMapping {
            ctx: ctx.clone(),
            base,
        });
        let end = self.ipc.offset.checked_add(self.ipc.bytes);
        if end.is_none_or(|e| e > len) {
            return Err(IpcError::PastShared {
                bytes: self.ipc.bytes,
                offset: self.ipc.offset,
                len,
            }
            .into());
        }
        let layout = Layout::with_strides(
            &self.shape,
            &self.strides,
            self.first,
            &T::DTYPE,
            self.ipc.bytes,
        )?;
        // SAFETY: `[base + offset, + bytes)` lies inside the device allocation the driver has just
        // mapped into this process (checked above); it stays mapped while `mapping` lives, which
        // the buffer keeps alive. It is device memory, reachable from Rust only through device
        // operations.
        let buffer = unsafe {
            DeviceBuffer::foreign(
                base + self.ipc.offset as u64,
                self.ipc.bytes,
                ctx.device_id(),
                Arc::clone(driver),
                Box::new(Arc::clone(&mapping)),
            )
        };
        let array = DeviceArray::from_parts(buffer, layout, None)?;
        *opened = Some(mapping);
        Ok(array)
    }

    /// `e` with the exporting process named where the backend could not know it (CUDA's handles
    /// do not say which process made them).
    fn name_exporter(&self, e: Error) -> Error {
        match e {
            Error::Ipc(IpcError::Gone { handle, reason, .. }) => IpcError::Gone {
                handle,
                pid: self.source_pid,
                reason,
            }
            .into(),
            Error::Ipc(IpcError::MemoryAlreadyOpen { object, .. }) => IpcError::MemoryAlreadyOpen {
                pid: self.source_pid,
                object,
            }
            .into(),
            e => e,
        }
    }

    /// Ends this handle's claim on the opened memory. Arrays from [`open`](Self::open) stay
    /// usable; the mapping is closed when the last of them is dropped too.
    ///
    /// # Errors
    /// [`Error::Ipc`] ([`IpcError::NotOpen`]) when the handle is not open (never opened, or closed
    /// already).
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>(4, rumba::Order::C).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL has no IPC: the export is refused (see the module docs).
    /// #     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
    /// #     return;
    /// # }
    /// let err = d.get_ipc_handle().unwrap().close().unwrap_err();
    /// assert!(matches!(err, rumba::Error::Ipc(rumba::error::IpcError::NotOpen)));
    /// ```
    pub fn close(&self) -> Result<()> {
        match lock(&self.opened).take() {
            Some(mapping) => {
                drop(mapping);
                Ok(())
            }
            None => Err(IpcError::NotOpen.into()),
        }
    }
}

impl Clone for IpcArrayHandle {
    /// An unopened copy.
    fn clone(&self) -> Self {
        IpcArrayHandle {
            ipc: self.ipc.clone(),
            backend: self.backend.clone(),
            source_pid: self.source_pid,
            shape: self.shape.clone(),
            strides: self.strides.clone(),
            typestr: self.typestr.clone(),
            first: self.first,
            opened: Mutex::new(None),
        }
    }
}

impl PartialEq for IpcArrayHandle {
    fn eq(&self, o: &Self) -> bool {
        (
            &self.ipc,
            &self.backend,
            self.source_pid,
            &self.shape,
            &self.strides,
            &self.typestr,
            self.first,
        ) == (
            &o.ipc,
            &o.backend,
            o.source_pid,
            &o.shape,
            &o.strides,
            &o.typestr,
            o.first,
        )
    }
}

impl Eq for IpcArrayHandle {}

impl fmt::Debug for IpcArrayHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IpcArrayHandle")
            .field("ipc", &self.ipc)
            .field("backend", &self.backend)
            .field("source_pid", &self.source_pid)
            .field("shape", &self.shape)
            .field("strides", &self.strides)
            .field("typestr", &self.typestr)
            .field("first", &self.first)
            .field("open", &self.is_open())
            .finish()
    }
}

fn join<T: ToString>(xs: &[T]) -> String {
    xs.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

impl fmt::Display for IpcArrayHandle {
    /// One line: `rumba-ipc-array/1;backend=…;pid=…;device=…;bytes=…;offset=…;first=…;`
    /// `typestr=…;shape=…;strides=…;handle=<hex>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{TAG};backend={};pid={};device={};bytes={};offset={};first={};typestr={};shape={};strides={};handle=",
            self.backend,
            self.source_pid,
            self.ipc.device,
            self.ipc.bytes,
            self.ipc.offset,
            self.first,
            self.typestr,
            join(&self.shape),
            join(&self.strides),
        )?;
        for b in &self.ipc.handle {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl FromStr for IpcArrayHandle {
    type Err = Error;

    /// Parses the [`Display`](fmt::Display) form; anything else is [`Error::Ipc`]
    /// ([`IpcError::Malformed`]).
    fn from_str(text: &str) -> Result<Self> {
        let bad = |reason: String| {
            Error::from(IpcError::Malformed {
                format: "an IPC array handle",
                reason,
            })
        };
        let mut parts = text.trim().split(';');
        if parts.next() != Some(TAG) {
            return Err(bad(format!("it does not start with '{TAG}'")));
        }
        let mut fields = std::collections::HashMap::new();
        for p in parts {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| bad(format!("'{p}' is not key=value")))?;
            fields.insert(k, v);
        }
        let get = |k: &str| {
            fields
                .get(k)
                .copied()
                .ok_or_else(|| bad(format!("'{k}' is missing")))
        };
        fn num<N: FromStr>(k: &str, v: &str) -> Result<N> {
            v.parse().map_err(|_| {
                IpcError::Malformed {
                    format: "an IPC array handle",
                    reason: format!("{k}={v}"),
                }
                .into()
            })
        }
        fn list<N: FromStr>(k: &str, v: &str) -> Result<Vec<N>> {
            if v.is_empty() {
                return Ok(Vec::new());
            }
            v.split(',').map(|x| num(k, x)).collect()
        }
        let hex = get("handle")?;
        if hex.len() % 2 != 0 || !hex.is_ascii() {
            return Err(bad("the handle bytes are not hexadecimal".into()));
        }
        let handle = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
            .collect::<std::result::Result<Vec<u8>, _>>()
            .map_err(|_| bad("the handle bytes are not hexadecimal".into()))?;
        let shape: Vec<usize> = list("shape", get("shape")?)?;
        let strides: Vec<isize> = list("strides", get("strides")?)?;
        if shape.len() != strides.len() {
            return Err(bad(format!(
                "{} strides for {} axes",
                strides.len(),
                shape.len()
            )));
        }
        Ok(IpcArrayHandle {
            ipc: IpcHandle {
                device: num("device", get("device")?)?,
                bytes: num("bytes", get("bytes")?)?,
                offset: num("offset", get("offset")?)?,
                handle,
            },
            backend: get("backend")?.to_string(),
            source_pid: num("pid", get("pid")?)?,
            shape,
            strides,
            typestr: get("typestr")?.to_string(),
            first: num("first", get("first")?)?,
            opened: Mutex::new(None),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> IpcArrayHandle {
        IpcArrayHandle {
            ipc: IpcHandle {
                device: 0,
                bytes: 40,
                offset: 24,
                handle: vec![0, 1, 0xab, 0xff],
            },
            backend: "sim".into(),
            source_pid: 7,
            shape: vec![5],
            strides: vec![-8],
            typestr: "<f8".into(),
            first: 32,
            opened: Mutex::new(None),
        }
    }

    #[test]
    fn text_form_round_trips() {
        let h = sample();
        assert_eq!(h.to_string().parse::<IpcArrayHandle>().unwrap(), h);
        let mut zero_d = sample();
        zero_d.shape.clear();
        zero_d.strides.clear();
        assert_eq!(
            zero_d.to_string().parse::<IpcArrayHandle>().unwrap(),
            zero_d
        );
    }

    #[test]
    fn garbage_is_refused_without_panicking() {
        let good = sample().to_string();
        for text in [
            "",
            "hello",
            "rumba-ipc-array/1;backend=sim",
            &good.replace("handle=0001abff", "handle=0g"),
            &good.replace("handle=0001abff", "handle=é1"),
            &good.replace("shape=5", "shape=5,6"),
            &good.replace("pid=7", "pid=-7"),
        ] {
            assert!(text.parse::<IpcArrayHandle>().is_err(), "{text}");
        }
    }
}
