//! The one error type of the library.
//!
//! Every fallible call returns [`Result<T>`](Result). Variants are named for what went wrong and carry
//! the values involved, so a caller can `match` on them and a person reading the message learns which
//! argument, shape, variable or address was at fault. The type is `Clone` because an error raised by
//! asynchronous work is stored on its stream and handed out again at the next synchronization point.
//!
//! Families of related refusals are enums of their own, each carried by one variant: a caller
//! matches the family, or the case and its values.
//! - [`ShapeError`] (shapes, ranks, reshapes, broadcasting, dtype views) and [`StridesError`]
//!   (strides and offsets that do not describe memory the array may use): the layout arithmetic;
//! - [`ArgumentError`]: what is wrong with one argument of a kernel launch
//!   ([`Error::KernelArgument`] names the kernel and the position);
//! - [`HostMemoryError`]: host pointers that are not pinned, mapped or registered as a call needs;
//! - [`ResourceError`]: blocks given to a memory resource that it did not hand out, managers that
//!   break their contract, and what a manager does not offer;
//! - [`DlpackError`], [`ArrayInterfaceError`] and [`IpcError`]: malformed or unusable DLPack
//!   tensors, CUDA Array Interface descriptions and IPC handles.
//!
//! What a backend cannot do is [`Error::Unsupported`], naming the backend and the feature. No
//! code inspects an error's text: the variants carry everything a caller decides on.
//!
//! This module touches nothing else: it is leaf code that every layer depends on.
//!
//! ```
//! use rumba::Error;
//! let e = Error::InvalidDevice { id: 3, count: 1 };
//! assert_eq!(e.to_string(), "device id 3 is out of range: 1 device(s) available (ids 0..1)");
//! ```

use std::fmt;

mod graph;
mod history;
mod interop;
mod kernel;
mod layout;
mod memory;
mod oom;

pub use graph::GraphError;
pub use history::{Access, HistoryError};
pub use interop::{ArrayInterfaceError, DlpackError, IpcError};
pub use kernel::ArgumentError;
pub use layout::{ShapeError, StridesError};
pub use memory::{HostMemoryError, ResourceError};
pub use oom::OomReport;

/// The result type used throughout rumba.
///
/// ```
/// fn ok() -> rumba::Result<u32> { Ok(1) }
/// assert_eq!(ok().unwrap(), 1);
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in rumba.
///
/// ```
/// use rumba::Error;
/// let e = Error::OutOfMemory { device: 0, requested: 10, free: 5, total: 8, pending: 0 };
/// assert!(matches!(e, Error::OutOfMemory { requested: 10, .. }));
/// assert!(e.to_string().contains("requested 10 bytes"));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A device allocation failed even after the pending deallocations were flushed.
    #[error(
        "out of memory on device {device}: requested {requested} bytes, {free} bytes free of {total} total, {pending} bytes pending deallocation"
    )]
    OutOfMemory {
        /// Device ordinal.
        device: usize,
        /// Bytes asked for.
        requested: usize,
        /// Free bytes on the device at the time of failure.
        free: usize,
        /// Total bytes on the device.
        total: usize,
        /// Bytes released by the program but not yet free: waiting in the deferred-deallocation
        /// queue, or still held by queued work (counted when an allocation could not wait for it,
        /// see [`Context::memalloc`](crate::Context::memalloc)).
        pending: usize,
    },
    /// The two sides of a copy or assignment have different element types.
    #[error("incompatible dtype: {left} vs. {right}")]
    IncompatibleDtype {
        /// Element type of the destination.
        left: String,
        /// Element type of the source.
        right: String,
    },
    /// The two sides of a copy describe a different number or arrangement of elements.
    #[error("incompatible shape: {} vs. {}", ShapeText(.left), ShapeText(.right))]
    IncompatibleShape {
        /// Shape of the destination (length-1 axes removed).
        left: Vec<usize>,
        /// Shape of the source (length-1 axes removed).
        right: Vec<usize>,
    },
    /// A device-to-device copy between arrays whose byte strides differ.
    #[error("incompatible strides: {left:?} vs. {right:?}")]
    IncompatibleStrides {
        /// Byte strides of the destination.
        left: Vec<isize>,
        /// Byte strides of the source.
        right: Vec<isize>,
    },
    /// An operation needs a contiguous (or C-contiguous) array and got another layout.
    #[error("{0}")]
    NotContiguous(String),
    /// An index outside `[-n, n)` on some axis.
    #[error("index {index} is out of bounds for axis {axis} with size {size}")]
    IndexOutOfRange {
        /// The index as given (may be negative).
        index: isize,
        /// The axis it was applied to.
        axis: usize,
        /// The length of that axis.
        size: usize,
    },
    /// A permutation of axes that is not a permutation of `0..ndim`.
    #[error("invalid axes list: {0}")]
    InvalidAxes(String),
    /// A shape, rank, reshape, broadcast or dtype view that cannot be honoured ([`ShapeError`]
    /// names the case and its values).
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// Strides or an offset that do not describe memory the array may use ([`StridesError`]).
    #[error(transparent)]
    Strides(#[from] StridesError),
    /// An argument that cannot be honoured, for which no more specific variant exists.
    #[error("{0}")]
    InvalidArgument(String),
    /// A kernel thread faulted (panic, out-of-bounds access, divergent barrier).
    #[error("kernel '{kernel}' faulted in block {} thread {}: {message}", Dim(.block), Dim(.thread))]
    KernelFault {
        /// Kernel name.
        kernel: String,
        /// Block coordinates `(x, y, z)`.
        block: [u32; 3],
        /// Thread coordinates within the block `(x, y, z)`.
        thread: [u32; 3],
        /// What happened.
        message: String,
    },
    /// A kernel captures a device array (`#[rumba::kernel(capture(NAME: …))]`) whose cell held
    /// none when the kernel was launched; nothing was queued.
    #[error(
        "kernel '{kernel}' captures the device array `{capture}`, but its cell is empty: call `{capture}.set(array)` before launching"
    )]
    EmptyCapture {
        /// Kernel name.
        kernel: String,
        /// The capture's name (the `static` cell's).
        capture: String,
    },
    /// A device API call failed.
    #[error("driver error {code} ({name}) in {call}: {message}")]
    Driver {
        /// Numeric error code (CUDA's `CUresult` value on the cuda backend).
        code: i32,
        /// Symbolic name of the code, e.g. `CUDA_ERROR_INVALID_VALUE`.
        name: String,
        /// The driver call that failed.
        call: String,
        /// Details.
        message: String,
    },
    /// A launch configuration the device cannot run: a zero or too large grid or block
    /// dimension, too many threads per block, or too much dynamic shared memory.
    #[error(
        "cannot launch grid {} of blocks {} with {dynamic_shared_bytes} bytes of dynamic shared memory: {reason}",
        Dim(.grid),
        Dim(.block)
    )]
    InvalidLaunch {
        /// Blocks per grid `(x, y, z)`.
        grid: [u32; 3],
        /// Threads per block `(x, y, z)`.
        block: [u32; 3],
        /// Bytes of dynamic shared memory asked for.
        dynamic_shared_bytes: usize,
        /// Which limit, and the values involved.
        reason: String,
    },
    /// Memory or an event of one device used by work that runs on another (device arrays move
    /// between devices only by explicit peer copies).
    #[error("{what} is on device {found}, but the work runs on device {expected}")]
    WrongDevice {
        /// What was on the wrong device (an array, a kernel argument, an event, …).
        what: String,
        /// The device the work runs on.
        expected: usize,
        /// The device it is on.
        found: usize,
    },
    /// A stream or event handle that names nothing live on this backend (never created or adopted
    /// by rumba, or already destroyed). Every backend reports it the same way.
    #[error("invalid {kind} handle 0x{handle:x}: {reason}")]
    InvalidHandle {
        /// `stream` or `event`.
        kind: &'static str,
        /// The handle's value.
        handle: u64,
        /// What the backend found.
        reason: String,
    },
    /// A call that needs work to have completed found it still queued (e.g. timing an event whose
    /// work has not run yet). Every backend reports it the same way.
    #[error("not ready: {0}")]
    NotReady(String),
    /// The simulated device itself failed: an operating-system call it made (threads, shared
    /// memory for IPC), or a panic in its own work. The simulator's own words, not a CUDA code.
    #[error("simulated device: {call} failed: {message}")]
    Simulator {
        /// What the simulator was doing.
        call: String,
        /// What it found.
        message: String,
    },
    /// The requested backend cannot be used on this machine or in this build.
    #[error("backend '{backend}' is unavailable: {reason}")]
    BackendUnavailable {
        /// `sim` or `cuda`.
        backend: String,
        /// What was looked for and not found.
        reason: String,
    },
    /// A feature the backend in use does not have (the CUDA Array Interface on OpenCL, IPC where
    /// the device API has no inter-process sharing, host memory mapping without the SVM it
    /// needs, …).
    #[error("the {backend} backend does not support {feature}: {reason}")]
    Unsupported {
        /// `sim`, `cuda` or `opencl`.
        backend: String,
        /// What was asked for.
        feature: String,
        /// Why the backend lacks it, and what to do instead.
        reason: String,
    },
    /// A device ordinal that does not exist.
    #[error("device id {id} is out of range: {count} device(s) available (ids 0..{count})")]
    InvalidDevice {
        /// The id asked for.
        id: usize,
        /// How many devices exist.
        count: usize,
    },
    /// A configuration variable (environment or [`Config`](crate::Config)) is malformed.
    #[error("invalid {variable}={value:?}: expected {expected}")]
    InvalidConfig {
        /// Variable name, e.g. `RUMBA_SIM_MEMORY`.
        variable: String,
        /// The value given.
        value: String,
        /// The accepted form.
        expected: String,
    },
    /// A device address range that is not inside a live allocation.
    #[error("invalid device address 0x{ptr:x} (+{len} bytes): {reason}")]
    InvalidAddress {
        /// The device pointer.
        ptr: u64,
        /// Length of the access in bytes.
        len: usize,
        /// Why it was refused.
        reason: String,
    },
    /// A memory manager written for another version of the plugin interface.
    #[error(
        "memory manager '{name}' implements interface version {found}, but this rumba requires version {expected}"
    )]
    InterfaceVersion {
        /// Manager name.
        name: String,
        /// Version rumba implements.
        expected: u32,
        /// Version the manager declares.
        found: u32,
    },
    /// One or more releases failed while flushing the deferred-deallocation queue.
    #[error("{} deallocation(s) failed: {}", .0.len(), .0.join("; "))]
    DeallocationFailed(Vec<String>),
    /// An argument of a kernel launch that does not fit the parameter it is passed for; the
    /// [`ArgumentError`] says what was wrong.
    #[error("{} {problem}", ArgumentText(.kernel, .position, .parameter))]
    KernelArgument {
        /// Kernel name (empty where the refusal was taken below the launch and not yet named).
        kernel: String,
        /// The argument's position in the launch (0-based).
        position: usize,
        /// The parameter's name, where the kernel's signature is known.
        parameter: Option<String>,
        /// What was wrong with it.
        problem: ArgumentError,
    },
    /// A launch that passed another number of arguments than the kernel takes.
    #[error("kernel '{kernel}' takes {expected} argument(s) but the launch passed {given}")]
    KernelArity {
        /// Kernel name (empty where the refusal was taken below the launch).
        kernel: String,
        /// Parameters of the kernel.
        expected: usize,
        /// Arguments of the launch.
        given: usize,
    },
    /// An OpenCL C kernel whose declared parameters match none of the ways rumba passes the
    /// launch's arguments.
    #[error(
        "kernel '{kernel}' declares {declared} OpenCL parameters, but its {arguments} arguments take {generated} as generated by #[rumba::kernel] (arrays as pointer, offset, extents and strides, plus 3 hidden parameters), {flat} without the hidden ones, or {plain} as pointers and scalars"
    )]
    KernelParameters {
        /// Kernel name.
        kernel: String,
        /// Parameters the OpenCL C source declares.
        declared: usize,
        /// Arguments of the launch.
        arguments: usize,
        /// Parameters they take in the `#[rumba::kernel]` form.
        generated: usize,
        /// The same without the hidden parameters.
        flat: usize,
        /// Parameters they take as plain pointers and scalars.
        plain: usize,
    },
    /// A kernel indexes a captured device array with another number of index components than
    /// the array in the cell has axes; nothing was queued.
    #[error(
        "kernel '{kernel}' indexes its captured array `{capture}` with {rank} index component(s), but the array in the cell has {ndim} dimension(s)"
    )]
    CaptureRank {
        /// Kernel name.
        kernel: String,
        /// The capture's name.
        capture: String,
        /// Index components the kernel uses.
        rank: usize,
        /// Axes of the array in the cell.
        ndim: usize,
    },
    /// A kernel launched on a backend for which it has no form (a Rust body for the simulator,
    /// CUDA C for CUDA, OpenCL C for OpenCL).
    #[error(
        "kernel '{kernel}' has no {form}, which the {backend} backend runs (it has: {has}); {hint}"
    )]
    MissingKernelForm {
        /// Kernel name.
        kernel: String,
        /// The form the backend runs.
        form: &'static str,
        /// The backend.
        backend: String,
        /// The forms the kernel has, in words.
        has: String,
        /// How to give the kernel the missing form.
        hint: &'static str,
    },
    /// A view handed to a work-item-loop accessor that has another rank or access mode than the
    /// accessor needs.
    #[error("a {ndim}-d {access} view cannot serve as a {expected_ndim}-d {expected_access} one")]
    KernelView {
        /// Axes of the view.
        ndim: usize,
        /// How the view is reached (`plain-load`, `atomic-load`, `writable`, `read-only`).
        access: &'static str,
        /// Axes the accessor needs.
        expected_ndim: usize,
        /// The access the accessor needs.
        expected_access: &'static str,
    },
    /// A request for zero bytes of memory that has to be a real allocation.
    #[error("cannot allocate 0 bytes of {memory}")]
    ZeroSizeAllocation {
        /// The kind of memory (`device memory`, `managed memory`, …).
        memory: &'static str,
    },
    /// A request larger than the largest single allocation of its kind.
    #[error(
        "cannot allocate {bytes} bytes of {memory}: the largest single allocation is {largest} bytes"
    )]
    AllocationTooLarge {
        /// The kind of memory, and where.
        memory: String,
        /// Bytes asked for.
        bytes: usize,
        /// The largest request that can be served.
        largest: usize,
    },
    /// A host pointer or range that is not what the call needs ([`HostMemoryError`]).
    #[error(transparent)]
    HostMemory(#[from] HostMemoryError),
    /// A block that a memory resource did not hand out, a manager that broke its contract, or
    /// something a manager does not offer ([`ResourceError`]).
    #[error(transparent)]
    Resource(#[from] ResourceError),
    /// A DLPack tensor that cannot be exported or imported ([`DlpackError`]).
    #[error(transparent)]
    Dlpack(#[from] DlpackError),
    /// A CUDA Array Interface description that is malformed or cannot be imported
    /// ([`ArrayInterfaceError`]).
    #[error(transparent)]
    ArrayInterface(#[from] ArrayInterfaceError),
    /// An IPC handle that cannot be made, parsed, opened or closed ([`IpcError`]).
    #[error(transparent)]
    Ipc(#[from] IpcError),
    /// A stream-graph operation that was refused ([`GraphError`]).
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// A byte range outside a device buffer.
    #[error(
        "byte range {start}..{end} is not inside a {len}-byte device buffer (start <= end <= {len} is required)"
    )]
    BufferRange {
        /// First byte of the range.
        start: usize,
        /// One past its last byte (`usize::MAX` where that overflows).
        end: usize,
        /// Bytes in the buffer.
        len: usize,
    },
    /// A host or device range of another length than the device buffer it is copied to or from.
    #[error("a {found}-byte host or device range does not match a {expected}-byte device buffer")]
    BufferLength {
        /// Bytes of the device buffer.
        expected: usize,
        /// Bytes of the other side.
        found: usize,
    },
    /// A call that would wait for device work, made from a stream callback (which runs on the
    /// thread that runs the streams, so the wait could never end), or one that the device API
    /// forbids there. Nothing was queued.
    #[error("{operation} cannot run inside a stream callback: {reason}{}", Instead(.instead))]
    InCallback {
        /// What was called.
        operation: String,
        /// Why it cannot run there.
        reason: &'static str,
        /// What to do instead (empty when there is nothing to say).
        instead: &'static str,
    },
    /// Timing an event that was created without timing.
    #[error("the {which} event was created without timing")]
    EventNotTimed {
        /// `start` or `end`.
        which: String,
    },
    /// Timing an event that has never been recorded.
    #[error("the {which} event has never been recorded")]
    EventNotRecorded {
        /// `start` or `end`.
        which: String,
    },
    /// A stream or event of one context used with a stream or event of another.
    #[error("{what} is used with {with}, which belongs to another context")]
    WrongContext {
        /// What was used.
        what: String,
        /// What it was used with.
        with: String,
    },

    /// A stream whose worker has stopped, so it can run no more work.
    #[error("stream {stream} can no longer run work: {reason}")]
    StreamStopped {
        /// The stream's handle.
        stream: u64,
        /// Why it stopped.
        reason: String,
    },
    /// Asynchronous work on host memory queued on a stream that is a different stream on every
    /// host thread (the per-thread default stream), so the memory could not wait for it.
    #[error(
        "asynchronous work on {memory} memory cannot be queued on {stream}: it is a different stream on every host thread, so the array could not wait for it; use a created stream"
    )]
    ThreadLocalStream {
        /// The kind of host memory.
        memory: String,
        /// The stream.
        stream: String,
    },
    /// Host access to memory that queued device work is still using.
    #[error(
        "this {memory} array is in use by device work queued on {stream}; the host sees it at a synchronization point (synchronize, or view, which waits)"
    )]
    InUse {
        /// The kind of host memory.
        memory: String,
        /// The stream whose work uses it.
        stream: String,
    },
    /// A byte-wise write that could leave bit patterns that are not values of the element type
    /// (`bool`, `char`, records holding them) in host memory Rust reads.
    #[error("{operation} could leave invalid {dtype} values in host memory; {instead}")]
    InvalidBits {
        /// What was asked for.
        operation: &'static str,
        /// The element type.
        dtype: &'static str,
        /// What to use instead.
        instead: &'static str,
    },
    /// One side of a [`SmartArray`](crate::interop::SmartArray) that it does not have.
    #[error("the smart array has no {side} copy")]
    MissingCopy {
        /// `host` or `device`.
        side: &'static str,
    },
    /// A [`Transfer`](crate::transfer::Transfer) whose result was already handed out.
    #[error("the transfer's buffer was already taken")]
    TransferTaken,
    /// [`configure`](crate::configure) after the runtime started.
    #[error("the runtime has already started; call configure before any other rumba call")]
    AlreadyStarted,
    /// A count beyond what rumba supports.
    #[error("{what}: {value} is more than the {max} supported")]
    Limit {
        /// What was counted.
        what: &'static str,
        /// The count.
        value: usize,
        /// The most rumba supports.
        max: usize,
    },
    /// Text handed to a device API that has a NUL byte inside it.
    #[error("{what} {text:?} contains a NUL byte")]
    InteriorNul {
        /// What the text is (`PTX`, `kernel name`, …).
        what: &'static str,
        /// The text (cut short if long).
        text: String,
    },
    /// A handle of device memory (an array, a buffer, a view of one, an import) made before a
    /// reset of its context: the reset freed the memory, which may belong to another allocation
    /// by now, so every operation refuses the handle before anything is queued.
    #[error(
        "device memory at 0x{ptr:x} (+{len} bytes) on device {device} was freed by a reset of its context: a handle from before the reset cannot be used"
    )]
    StaleHandle {
        /// Device ordinal.
        device: usize,
        /// The handle's device address.
        ptr: u64,
        /// The handle's length in bytes.
        len: usize,
    },
    /// An operation on device memory from a stream callback while a context reset runs on
    /// another thread: the callback does not wait for the reset, which may be waiting for it.
    #[error(
        "a context reset is in progress on another thread: an operation from a stream callback does not wait for it"
    )]
    ResetInProgress,
    /// A context reset called where it cannot run: from a stream callback, or inside an
    /// operation on device memory (which the reset would wait for).
    #[error("cannot reset the context of device {device}: {reason}")]
    ResetRefused {
        /// Device ordinal.
        device: usize,
        /// Where it was called, and why that cannot work.
        reason: &'static str,
    },
    /// A caching memory manager (the pool) could not satisfy an allocation even after flushing
    /// pending releases, reusing what completed events released and returning cached segments.
    /// The report names every figure needed to act on it; see [`OomReport`].
    #[error("{0}")]
    PoolOutOfMemory(Box<OomReport>),
    /// A distributed operation (`rumba::dist`, feature `mpi`) failed: the ranks disagreed about
    /// it (counts, element types, shapes, roots), a rank's input was refused, a peer rank was out
    /// of range, MPI reported an error, or the communicator's timeout passed and it was poisoned.
    /// Every rank taking part gets this variant, never a hang.
    ///
    /// ```
    /// let e = rumba::Error::Dist { rank: 1, op: "all_reduce".into(), reason: "timed out".into() };
    /// assert_eq!(e.to_string(), "distributed all_reduce failed (rank 1): timed out");
    /// ```
    #[error("distributed {op} failed (rank {rank}): {reason}")]
    Dist {
        /// The rank (in the communicator of the operation) that found the problem: the rank whose
        /// input was refused or differed from rank 0's, the rank that timed out and poisoned the
        /// communicator, or the calling rank for a failure of its own.
        rank: usize,
        /// The operation: `send`, `recv`, `all_reduce`, `broadcast`, ….
        op: String,
        /// What went wrong, with the values involved.
        reason: String,
    },
    /// The memory history could not be started, written or read ([`HistoryError`]).
    #[error(transparent)]
    History(#[from] HistoryError),
    /// A resource whose memory is not accessible where its role needs it (a host-only resource
    /// as the device upstream of a pool, …); nothing was built or allocated.
    #[error("{resource} cannot be {role}: its memory is not {needs}")]
    Inaccessible {
        /// The resource (its type name).
        resource: String,
        /// What it was asked to be, e.g. `the upstream of PoolResource`.
        role: String,
        /// The access the role needs.
        needs: Access,
    },
}

impl Error {
    /// True for both out-of-memory variants ([`Error::OutOfMemory`] from the driver or the default
    /// manager, [`Error::PoolOutOfMemory`] from a caching manager).
    ///
    /// ```
    /// let e = rumba::Error::OutOfMemory { device: 0, requested: 1, free: 0, total: 0, pending: 0 };
    /// assert!(e.is_out_of_memory());
    /// assert!(!rumba::Error::AlreadyStarted.is_out_of_memory());
    /// ```
    pub fn is_out_of_memory(&self) -> bool {
        matches!(self, Error::OutOfMemory { .. } | Error::PoolOutOfMemory(_))
    }

    /// Names the kernel in a refusal taken below the launch, where the kernel was not known (an
    /// argument's accessor, the body's parameter list); any other error is returned as it is.
    pub(crate) fn in_kernel(mut self, name: &str) -> Error {
        match &mut self {
            Error::KernelArgument { kernel, .. } | Error::KernelArity { kernel, .. }
                if kernel.is_empty() =>
            {
                name.clone_into(kernel);
            }
            _ => {}
        }
        self
    }

    /// [`Error::KernelArgument`] of a kernel not yet named (see [`Error::in_kernel`]).
    pub(crate) fn argument(position: usize, problem: ArgumentError) -> Error {
        Error::KernelArgument {
            kernel: String::new(),
            position,
            parameter: None,
            problem,
        }
    }

    /// [`Error::InteriorNul`] for `text`, cut to its first 60 characters (the GPU backends hand
    /// names and sources to their device APIs as C strings).
    #[cfg_attr(not(any(feature = "cuda", feature = "opencl")), allow(dead_code))]
    pub(crate) fn interior_nul(what: &'static str, text: &str) -> Error {
        let mut cut: String = text.chars().take(60).collect();
        if cut.len() < text.len() {
            cut.push('…');
        }
        Error::InteriorNul { what, text: cut }
    }
}

/// Formats a shape the way numpy prints it: `(2, 3)`, `(5,)`, `()` (requested shapes may hold
/// `-1`, so the entries are anything printable).
pub(crate) struct ShapeText<'a, N>(pub(crate) &'a [N]);

impl<N: fmt::Display> fmt::Display for ShapeText<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [one] => write!(f, "({one},)"),
            dims => {
                f.write_str("(")?;
                for (i, d) in dims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{d}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Names a kernel argument: `kernel 'k': argument 2 (`out`)`, or `kernel argument 2` while the
/// kernel is not named.
struct ArgumentText<'a>(&'a str, &'a usize, &'a Option<String>);

impl fmt::Display for ArgumentText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ArgumentText(kernel, position, parameter) = self;
        if kernel.is_empty() {
            write!(f, "kernel argument {position}")?;
        } else {
            write!(f, "kernel '{kernel}': argument {position}")?;
        }
        match parameter {
            Some(p) => write!(f, " (`{p}`)"),
            None => Ok(()),
        }
    }
}

/// Formats what to do instead of a refused call: ` (hint)`, or nothing.
struct Instead<'a>(&'a str);

impl fmt::Display for Instead<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            "" => Ok(()),
            hint => write!(f, " ({hint})"),
        }
    }
}

/// Formats block/thread coordinates as `(x, y, z)`.
struct Dim<'a>(&'a [u32; 3]);

impl fmt::Display for Dim<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.0[0], self.0[1], self.0[2])
    }
}

/// Formats a shape the way numpy prints it, for messages built elsewhere.
///
/// ```
/// assert_eq!(rumba::error::format_shape(&[5]), "(5,)");
/// assert_eq!(rumba::error::format_shape(&[2, 3]), "(2, 3)");
/// ```
pub fn format_shape(shape: &[usize]) -> String {
    ShapeText(shape).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_messages_read_like_numpy() {
        let e = Error::IncompatibleShape {
            left: vec![5],
            right: vec![2, 3],
        };
        assert_eq!(e.to_string(), "incompatible shape: (5,) vs. (2, 3)");
        assert_eq!(format_shape(&[]), "()");
    }

    #[test]
    fn kernel_fault_names_block_and_thread() {
        let e = Error::KernelFault {
            kernel: "k".into(),
            block: [1, 0, 0],
            thread: [5, 2, 0],
            message: "index 9 out of bounds".into(),
        };
        assert_eq!(
            e.to_string(),
            "kernel 'k' faulted in block (1, 0, 0) thread (5, 2, 0): index 9 out of bounds"
        );
    }
}
