//! The one error type of the library.
//!
//! Every fallible call returns [`Result<T>`](Result). Variants are named for what went wrong and carry
//! the values involved, so a caller can `match` on them and a person reading the message learns which
//! argument, shape, variable or address was at fault. The type is `Clone` because an error raised by
//! asynchronous work is stored on its stream and handed out again at the next synchronization point.
//!
//! Errors of the array layer's arithmetic are grouped in two enums of their own,
//! [`ShapeError`] (shapes, ranks, reshapes, broadcasting, dtype views) and [`StridesError`]
//! (strides and offsets that do not describe memory the array may use), carried by
//! [`Error::Shape`] and [`Error::Strides`]: a caller matches the group, or the case and its
//! values.
//!
//! This module touches nothing else: it is leaf code that every layer depends on.
//!
//! ```
//! use rumba::Error;
//! let e = Error::InvalidDevice { id: 3, count: 1 };
//! assert_eq!(e.to_string(), "device id 3 is out of range: 1 device(s) available (ids 0..1)");
//! ```

use std::fmt;

mod history;
mod layout;

pub use history::{Access, HistoryError};
pub use layout::{ShapeError, StridesError};

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
    /// The operation is not supported by this backend, manager or array.
    #[error("unsupported: {0}")]
    Unsupported(String),
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
    /// The call is not valid in the current state (e.g. timing an event that was never recorded).
    #[error("invalid operation: {0}")]
    InvalidOperation(String),
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
    /// assert!(!rumba::Error::Unsupported("x".into()).is_out_of_memory());
    /// ```
    pub fn is_out_of_memory(&self) -> bool {
        matches!(self, Error::OutOfMemory { .. } | Error::PoolOutOfMemory(_))
    }
}

/// The figures of a caching manager's out-of-memory failure.
///
/// `fragmentation` is `1 - largest_free_block / cached` (0 when nothing is cached): the share of
/// cached memory that cannot serve a request as large as the largest free block.
///
/// ```
/// let r = rumba::error::OomReport {
///     device: 0, manager: "pool".into(), requested: 4096, allocated: 1024, reserved: 2048,
///     cached: 1024, free: 0, total: 2048, largest_free_block: 512, fragmentation: 0.5,
///     pending: 0, limit: None,
/// };
/// let msg = rumba::Error::PoolOutOfMemory(Box::new(r)).to_string();
/// assert!(msg.contains("requested 4096 bytes") && msg.contains("fragmentation 50.0%"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OomReport {
    /// Device ordinal.
    pub device: usize,
    /// Name of the manager that failed.
    pub manager: String,
    /// Bytes asked for.
    pub requested: usize,
    /// Bytes in live blocks (handed out and not yet returned).
    pub allocated: usize,
    /// Bytes the manager holds from the device (segments), in use or cached.
    pub reserved: usize,
    /// Bytes reserved but not in use (free blocks in the manager's cache).
    pub cached: usize,
    /// Free bytes on the device.
    pub free: usize,
    /// Total bytes on the device.
    pub total: usize,
    /// The largest free block in the cache.
    pub largest_free_block: usize,
    /// `1 - largest_free_block / cached`, from 0 (one free block) towards 1 (many small ones).
    pub fragmentation: f64,
    /// Bytes released but held back: a `defer_cleanup` guard is alive, or queued work still
    /// holds them (see [`Context::memalloc`](crate::Context::memalloc)).
    pub pending: usize,
    /// The manager's limit on reserved bytes, if any.
    pub limit: Option<usize>,
}

impl fmt::Display for OomReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "out of memory on device {} in memory manager '{}': requested {} bytes; {} bytes allocated, {} bytes reserved ({} cached), {} bytes free of {} total on the device, largest free block {} bytes, fragmentation {:.1}%, {} bytes pending deallocation",
            self.device,
            self.manager,
            self.requested,
            self.allocated,
            self.reserved,
            self.cached,
            self.free,
            self.total,
            self.largest_free_block,
            self.fragmentation * 100.0,
            self.pending,
        )?;
        if let Some(limit) = self.limit {
            write!(f, ", limit {limit} bytes")?;
        }
        Ok(())
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
