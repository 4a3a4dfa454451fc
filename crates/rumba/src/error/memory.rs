//! Errors of memory the library does not allocate itself: host pointers handed to a device API
//! ([`HostMemoryError`]) and blocks, managers and resources of the memory layer
//! ([`ResourceError`]).

/// A host pointer or range that is not what the call needs: not pinned, not mapped into the
/// device, not registered, or not host memory at all.
///
/// ```
/// use rumba::error::{Error, HostMemoryError};
/// let e = Error::HostMemory(HostMemoryError::NotPinned { ptr: 0x1000 });
/// assert_eq!(e.to_string(), "host pointer 0x1000 is not pinned memory, so the device cannot address it");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HostMemoryError {
    /// Registering (pinning) a null pointer.
    #[error("cannot register a null host pointer")]
    Null,
    /// A host range that overlaps memory already pinned or registered.
    #[error("host range {start:#x} (+{len} bytes) overlaps memory that is already pinned or registered{}", Existing(.existing))]
    Overlap {
        /// First byte of the range.
        start: usize,
        /// Its length.
        len: usize,
        /// The range it overlaps, where known (start, length).
        existing: Option<(usize, usize)>,
    },
    /// A host range that wraps around the address space.
    #[error("host range {start:#x} (+{len} bytes) wraps around the address space")]
    Wraps {
        /// First byte of the range.
        start: usize,
        /// Its length.
        len: usize,
    },
    /// Host memory that is not pinned, used where the device addresses it.
    #[error("host pointer {ptr:#x} is not pinned memory, so the device cannot address it")]
    NotPinned {
        /// The pointer.
        ptr: usize,
    },
    /// Pinned host memory that is not mapped into the device's address space.
    #[error("host memory at {ptr:#x} is not mapped into device {device}: {reason}")]
    NotMapped {
        /// The pointer.
        ptr: usize,
        /// The device.
        device: usize,
        /// How the memory was pinned instead.
        reason: String,
    },
    /// Device memory where host memory is needed.
    #[error("{ptr:#x} is device memory, not host memory")]
    DeviceMemory {
        /// The pointer.
        ptr: usize,
    },
    /// Freeing a pointer that is not memory of this kind allocated by rumba (a double free, or
    /// memory of another allocator).
    #[error("host pointer {ptr:#x} is not {memory} memory allocated by rumba (double free?)")]
    NotAllocated {
        /// The pointer.
        ptr: usize,
        /// The kind of memory it was freed as (`pinned`, `managed`).
        memory: &'static str,
    },
    /// Unregistering a pointer that does not start a registered host range.
    #[error("host pointer {ptr:#x} is not the start of a registered host range")]
    NotRegistered {
        /// The pointer.
        ptr: usize,
    },
    /// A driver or manager that handed out host memory not aligned for the element type.
    #[error("{memory} memory at {ptr:#x} is not aligned for {dtype}")]
    Misaligned {
        /// The pointer.
        ptr: usize,
        /// The kind of memory.
        memory: String,
        /// The element type.
        dtype: &'static str,
    },
    /// A driver that returned a null pointer for an allocation it reported as done.
    #[error("the driver returned a null pointer for {bytes} bytes of {memory} memory")]
    NullAllocation {
        /// Bytes asked for.
        bytes: usize,
        /// The kind of memory.
        memory: &'static str,
    },
}

/// Formats the range an overlap hits, where known.
struct Existing<'a>(&'a Option<(usize, usize)>);

impl std::fmt::Display for Existing<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some((start, len)) => write!(f, " ({start:#x}, +{len} bytes)"),
            None => Ok(()),
        }
    }
}

/// A block handed to a memory resource that it did not hand out, a memory manager (or the
/// pool's upstream) that broke its contract, or something a manager does not offer.
///
/// ```
/// use rumba::error::{Error, ResourceError};
/// let e = Error::Resource(ResourceError::ForeignBlock {
///     memory: "device",
///     ptr: 0x2000,
///     len: 64,
///     owner: "this pool on device 0".into(),
/// });
/// assert_eq!(e.to_string(), "device block 0x2000 (64 bytes) is not a live block of this pool on device 0");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceError {
    /// A block or range given back to (or looked up in) a resource that did not hand it out.
    #[error("{memory} block {ptr:#x} ({len} bytes) is not a live block of {owner}")]
    ForeignBlock {
        /// `device` or `pinned`.
        memory: &'static str,
        /// Its address.
        ptr: u64,
        /// Its length.
        len: usize,
        /// The resource it was given to, and where.
        owner: String,
    },
    /// A manager that returned a block a context reset had already freed.
    #[error(
        "memory manager '{manager}' returned block {ptr:#x} ({len} bytes), which a reset freed"
    )]
    ResetBlock {
        /// Manager name.
        manager: String,
        /// The block's address.
        ptr: u64,
        /// Its length.
        len: usize,
    },
    /// A manager that returned a block of another driver than its context's.
    #[error(
        "memory manager '{manager}' returned {memory} block {ptr:#x} ({len} bytes) of another driver than its context's"
    )]
    ForeignDriver {
        /// Manager name.
        manager: String,
        /// `device` or `pinned`.
        memory: &'static str,
        /// The block's address.
        ptr: u64,
        /// Its length.
        len: usize,
    },
    /// A manager (or the pool's upstream) that returned a block too small, or on another device
    /// (or of another driver, or retired), for the request.
    #[error(
        "{manager} returned a {len}-byte block on device {device} for a {requested}-byte request on device {expected_device} (too small, on another device, of another driver, or retired){}",

        GiveBack(.give_back)
    )]
    WrongBlock {
        /// Who returned it (`memory manager 'x'`, `the pool's upstream`).
        manager: String,
        /// Its length.
        len: usize,
        /// Its device.
        device: usize,
        /// Bytes asked for.
        requested: usize,
        /// The device asked for.
        expected_device: usize,
        /// Why giving the block back failed, if it did.
        give_back: Option<String>,
    },
    /// A host memory resource that returned a block of another size or other flags than asked.
    #[error(
        "the host memory resource returned a {len}-byte block with {flags} for a {requested}-byte request with {requested_flags}"
    )]
    WrongFlags {
        /// Its length.
        len: usize,
        /// Its flags.
        flags: String,
        /// Bytes asked for.
        requested: usize,
        /// The flags asked for.
        requested_flags: String,
    },
    /// A memory manager factory that built a manager for another device or driver.
    #[error(
        "memory manager factory '{factory}' built a manager for another device or driver than the context's (device {device})"
    )]
    FactoryMismatch {
        /// Factory name.
        factory: String,
        /// The context's device.
        device: usize,
    },
    /// Something a manager or resource does not offer (statistics, a cache snapshot, IPC, memory
    /// info).
    #[error("{resource} does not offer {feature}")]
    Unsupported {
        /// The manager or resource.
        resource: String,
        /// What was asked for, and how to get it where there is a way.
        feature: &'static str,
    },
}

/// Formats a failed give-back, where there was one.
struct GiveBack<'a>(&'a Option<String>);

impl std::fmt::Display for GiveBack<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(e) => write!(f, "; giving it back failed: {e}"),
            None => Ok(()),
        }
    }
}
