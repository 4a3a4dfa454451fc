//! Errors of the interchange formats: DLPack tensors ([`DlpackError`]), CUDA Array Interface
//! descriptions ([`ArrayInterfaceError`]) and IPC handles ([`IpcError`]). Each names the
//! malformed field or the condition refused, with its values.

use super::{Error, ShapeText};

/// A DLPack tensor that cannot be exported or imported.
///
/// ```
/// use rumba::error::{DlpackError, Error};
/// let e = Error::Dlpack(DlpackError::NegativeLength { shape: vec![2, -1] });
/// assert_eq!(e.to_string(), "DLPack shape [2, -1] has a negative length");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DlpackError {
    /// A null `DLManagedTensor` pointer.
    #[error("a null DLPack tensor")]
    NullTensor,
    /// A tensor whose `ndim` is negative.
    #[error("DLPack tensor has ndim {ndim}")]
    Ndim {
        /// The `ndim` given.
        ndim: i32,
    },
    /// A shape with a negative length.
    #[error("DLPack shape {shape:?} has a negative length")]
    NegativeLength {
        /// The shape given.
        shape: Vec<i64>,
    },
    /// A null `shape` pointer for a tensor with axes.
    #[error("DLPack tensor of {ndim} axes has a null {field} pointer")]
    NullPointer {
        /// Axes of the tensor.
        ndim: usize,
        /// The field (`shape`).
        field: &'static str,
    },
    /// Strides (in elements) whose byte values overflow.
    #[error("DLPack strides {strides:?} overflow")]
    StridesOverflow {
        /// The strides given.
        strides: Vec<i64>,
    },
    /// A data pointer plus byte offset that overflows.
    #[error("DLPack data {data:#x} + byte_offset {offset} overflows")]
    OffsetOverflow {
        /// The data pointer.
        data: u64,
        /// The byte offset.
        offset: u64,
    },
    /// A device id that cannot be a device ordinal.
    #[error("DLPack device id {id} is not a device ordinal")]
    DeviceId {
        /// The id given.
        id: i32,
    },
    /// A tensor on another kind of device than the backend's device memory.
    #[error(
        "a DLPack tensor on device type {found} cannot become a device array of the {backend} backend (device type {expected}): only device memory can"
    )]
    DeviceType {
        /// The tensor's device type code.
        found: i32,
        /// The backend in use.
        backend: String,
        /// The device type code of its memory.
        expected: i32,
    },
    /// A tensor of another major ABI version.
    #[error("DLPack ABI version {major}.{minor}; rumba reads {supported}.x")]
    Version {
        /// Its major version.
        major: u32,
        /// Its minor version.
        minor: u32,
        /// The major version rumba reads.
        supported: u32,
    },
    /// A tensor of a device that is not the current one (imports go through the current
    /// device's context).
    #[error(
        "a DLPack tensor of device {device} can be imported only while that device is current (device {current} is)"
    )]
    NotCurrent {
        /// The tensor's device.
        device: usize,
        /// The current device.
        current: usize,
    },
    /// An element type DLPack has no code for (a record type).
    #[error("DLPack cannot describe the record type {dtype}")]
    RecordType {
        /// The element type.
        dtype: &'static str,
    },
    /// Byte strides that are not whole elements (DLPack strides count elements).
    #[error(
        "DLPack strides count elements; byte strides {strides:?} are not multiples of {itemsize}"
    )]
    ByteStrides {
        /// The array's byte strides.
        strides: Vec<isize>,
        /// Bytes per element.
        itemsize: usize,
    },
    /// More axes than DLPack's `ndim` can hold.
    #[error("{ndim} axes are too many for DLPack")]
    TooManyAxes {
        /// Axes of the array.
        ndim: usize,
    },
}

/// A CUDA Array Interface description that is malformed or cannot be imported.
///
/// ```
/// use rumba::error::{ArrayInterfaceError, Error};
/// let e = Error::ArrayInterface(ArrayInterfaceError::Stream0);
/// assert!(e.to_string().contains("stream 0"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArrayInterfaceError {
    /// An entry that is missing or of the wrong type.
    #[error("CUDA Array Interface entry '{key}' {}", Entry(.expected, .found))]
    Entry {
        /// The key.
        key: String,
        /// What it must be.
        expected: &'static str,
        /// What it was (Python syntax), or `None` when missing.
        found: Option<String>,
    },
    /// Masks nested deeper than rumba reads.
    #[error("CUDA Array Interface masks are nested more than {max} deep")]
    MaskDepth {
        /// The deepest nesting read.
        max: usize,
    },
    /// A description with a mask (masked arrays are not imported).
    #[error("masked arrays are not supported")]
    Masked,
    /// Stream 0, which the interface forbids (it is ambiguous).
    #[error(
        "the CUDA Array Interface forbids stream 0, which is ambiguous: use 1 for the legacy or 2 for the per-thread default stream"
    )]
    Stream0,
    /// A data pointer that is null or not aligned for the element type.
    #[error("data pointer {ptr:#x} is null or not aligned to the {align} bytes of {dtype}")]
    DataPointer {
        /// The pointer.
        ptr: u64,
        /// The alignment required.
        align: usize,
        /// The element type.
        dtype: &'static str,
    },
    /// Strides that reach below address 0 from the data pointer.
    #[error("strides {strides:?} of shape {} reach below address 0 from {ptr:#x}", ShapeText(.shape))]
    BelowZero {
        /// The shape.
        shape: Vec<usize>,
        /// The byte strides.
        strides: Vec<isize>,
        /// The data pointer.
        ptr: u64,
    },
}

/// Says how an entry is wrong: missing, or what it was.
struct Entry<'a>(&'a str, &'a Option<String>);

impl std::fmt::Display for Entry<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(v) => write!(f, "must be {}, not {v}", self.0),
            None => write!(f, "is missing (it must be {})", self.0),
        }
    }
}

/// An IPC handle that cannot be made, parsed, opened or closed.
///
/// ```
/// use rumba::error::{Error, IpcError};
/// let e = Error::Ipc(IpcError::NotOpen);
/// assert_eq!(e.to_string(), "this IPC handle is not open, so it cannot be closed");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum IpcError {
    /// Exporting an array of size 0.
    #[error("a size-0 array has no memory to share with another process")]
    Empty,
    /// Memory rumba did not allocate that the driver cannot export; the inner error says why.
    #[error("this array wraps memory owned elsewhere, which cannot be exported through IPC: {0}")]
    ForeignMemory(Box<Error>),
    /// A range that runs past the allocation the driver found around it.
    #[error("its {bytes} bytes at {ptr:#x} run past the {len}-byte allocation at {base:#x}")]
    PastAllocation {
        /// First byte of the range.
        ptr: u64,
        /// Its length.
        bytes: usize,
        /// The allocation's start.
        base: u64,
        /// The allocation's length.
        len: usize,
    },
    /// Text or bytes that are not a handle of the expected kind.
    #[error("not {format}: {reason}")]
    Malformed {
        /// What was expected (`an IPC array handle`, `an IPC handle of the simulated GPU`, …).
        format: &'static str,
        /// What was wrong with it.
        reason: String,
    },
    /// A handle exported by another backend than this process runs.
    #[error("this IPC handle was exported by the {exported} backend; this process runs {current}")]
    OtherBackend {
        /// The exporting backend.
        exported: String,
        /// This process's backend.
        current: String,
    },
    /// A handle whose range runs past the memory it shares.
    #[error(
        "the handle's range ({bytes} bytes at offset {offset}) runs past the {len}-byte shared allocation"
    )]
    PastShared {
        /// Bytes of the range.
        bytes: usize,
        /// Its offset in the shared allocation.
        offset: usize,
        /// The shared allocation's length.
        len: usize,
    },
    /// Opening a handle in the process that exported it.
    #[error(
        "an IPC handle cannot be opened in the process that exported it; use the original array there"
    )]
    SameProcess,
    /// Opening a handle that is already open.
    #[error("this IPC handle is already open; close it before opening it again")]
    AlreadyOpen,
    /// Opening shared memory this process has already opened (through another handle).
    #[error(
        "the memory of this IPC handle (process {pid}, object {object}) is already open in this process; close it first"
    )]
    MemoryAlreadyOpen {
        /// The exporting process.
        pid: u32,
        /// A number naming the shared object: the simulator's object number in that process; on
        /// CUDA, whose handles carry none, a digest of the handle's bytes.
        object: u64,
    },
    /// Closing a handle that is not open.
    #[error("this IPC handle is not open, so it cannot be closed")]
    NotOpen,
    /// Shared memory that the exporting process no longer shares.
    #[error(
        "the memory of IPC handle {handle} is no longer shared by process {pid} ({reason}); it was freed, or the process exited"
    )]
    Gone {
        /// The handle's name.
        handle: String,
        /// The exporting process.
        pid: u32,
        /// What was found.
        reason: String,
    },
}
