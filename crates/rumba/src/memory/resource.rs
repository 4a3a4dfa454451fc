//! The two resource traits — [`DeviceResource`] and [`HostResource`] — the blocks they hand out,
//! and the optional capabilities a resource may offer.
//!
//! A resource has two operations, `allocate` and `deallocate`, in the shape of RMM's
//! `device_memory_resource`. Everything else (deferred releases, statistics, limits, caching) is
//! an adaptor: a resource that wraps an *upstream* resource and adds one concern.
//!
//! **Why both traits are safe to implement.** Memory changes hands as a [`DeviceBlock`] or a
//! [`HostBlock`]: a token that is neither `Clone` nor constructible by safe code (only
//! [`DeviceBlock::from_raw`] / [`HostBlock::from_raw`], which are `unsafe`, make one; rumba's base
//! resources do that over driver allocations). A safe implementor can therefore only hand out a
//! block it got from an upstream resource, and only once. What it could still get wrong — a block
//! of another device or of another driver instance (its [`Origin`] names the driver), one a
//! reset already freed (its origin is retired), smaller than asked for, not aligned, holding a
//! former user's bytes — is checked by rumba when the block becomes a buffer ([`DeviceBuffer`](super::DeviceBuffer),
//! [`PinnedBuffer`](super::PinnedBuffer)), and a block given back to the wrong base resource is
//! refused there (each base stamps its blocks with its [`Origin`]). A block dropped instead of
//! given back is leaked, which is safe. The `unsafe` contract lives in `from_raw`, once.
//!
//! What a safe resource *can* still do wrong is a matter of values, not of memory safety: hand a
//! block given back on one stream to another stream before the first stream's work is done (the
//! two streams' work then races on device memory — as two streams of safe user code can), or
//! hand out a block holding a former user's bytes. Device bytes never reach host memory of a type
//! with invalid bit patterns unchecked (`bool` arrays are converted, see
//! [`array::element`](crate::layout::element)), and host blocks are zeroed unless they say they
//! are, so neither becomes undefined behaviour.
//!
//! **Capabilities** are provided methods that ask the [`upstream`](DeviceResource::upstream) by
//! default, so an adaptor implements `allocate`, `deallocate` and `upstream` and every
//! capability below it stays reachable; a resource that offers one overrides it.
//!
//! This module is types and traits only; it touches nothing.

use std::collections::HashSet;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use super::{IpcHandle, LimitingAdaptor, MemorySnapshot, MemoryStats, PendingStats};
use crate::driver::{DevicePtr, Driver, HostAllocFlags, StreamHandle};
use crate::error::{Access, Error, ResourceError, Result};

/// Identifies the base resource that made a block, so that it can refuse blocks it did not make.
///
/// ```
/// use rumba::memory::Origin;
/// assert_ne!(Origin::new(), Origin::new()); // every origin is unique in the process
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Origin {
    id: u64,
    /// Identity of the driver the blocks' memory belongs to (0: none recorded).
    driver: usize,
}

/// Origins retired by a reset: their blocks' memory was freed by it.
static RETIRED: RwLock<Option<HashSet<u64>>> = RwLock::new(None);

/// The identity of a driver instance, recorded in the origins of its memory.
pub(crate) fn driver_id(driver: &Arc<dyn Driver>) -> usize {
    Arc::as_ptr(driver).cast::<()>() as usize
}

impl Origin {
    /// A new origin, distinct from every other in the process.
    ///
    /// ```
    /// let o = rumba::memory::Origin::new();
    /// assert_eq!(o, o);
    /// ```
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Origin {
            id: Self::next(),
            driver: 0,
        }
    }

    fn next() -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }

    /// A new origin for memory of `driver`: rumba's memory manager refuses blocks whose origin
    /// names another driver instance (each has its own address space), or none
    /// ([`Origin::new`]), so a resource that makes its own blocks stamps them with this.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let o = rumba::memory::Origin::for_driver(ctx.driver());
    /// assert!(!o.is_retired());
    /// ```
    pub fn for_driver(driver: &Arc<dyn Driver>) -> Self {
        Origin {
            id: Self::next(),
            driver: driver_id(driver),
        }
    }

    /// The identity of the driver recorded in the origin (0: none).
    pub(crate) fn driver(&self) -> usize {
        self.driver
    }

    /// A new origin for the same driver, retiring this one (a reset freed its blocks).
    pub(crate) fn retire(&self) -> Self {
        let mut r = crate::sync::write(&RETIRED);
        r.get_or_insert_with(HashSet::new).insert(self.id);
        Origin {
            id: Self::next(),
            driver: self.driver,
        }
    }

    /// True when a reset freed the blocks of this origin.
    ///
    /// ```
    /// assert!(!rumba::memory::Origin::new().is_retired());
    /// ```
    pub fn is_retired(&self) -> bool {
        let r = crate::sync::read(&RETIRED);
        r.as_ref().is_some_and(|r| r.contains(&self.id))
    }
}

/// Permission to [`reset`](DeviceResource::reset) a resource. Only rumba makes one
/// ([`Context::reset`](crate::Context::reset), after synchronizing the device), so safe code
/// outside rumba cannot free memory that outstanding blocks and buffers still own; a resource
/// forwards the token it is given to its upstream.
///
/// ```compile_fail,E0423
/// let forged = rumba::memory::ResetToken(());
/// ```
#[derive(Debug)]
pub struct ResetToken(());

impl ResetToken {
    pub(crate) fn new() -> Self {
        ResetToken(())
    }
}

/// A device allocation in transit between resources: not `Clone`, and only made by
/// [`from_raw`](Self::from_raw). Whoever holds it owns the memory.
///
/// ```
/// use rumba::memory::DeviceResource;
/// let ctx = rumba::current_context().unwrap();
/// let res = ctx.memory_manager().device_resource();
/// let block = res.allocate_sync(64).unwrap();
/// assert_eq!((block.len(), block.device()), (64, ctx.device_id()));
/// res.deallocate_sync(block).unwrap();
/// ```
///
/// Safe code can neither make a block nor copy one:
///
/// ```compile_fail,E0451
/// use rumba::memory::{DeviceBlock, Origin};
/// let forged = DeviceBlock { ptr: 0x1000, bytes: 8, device: 0, origin: Origin::new() };
/// ```
///
/// ```compile_fail,E0599
/// fn twice(b: &rumba::memory::DeviceBlock) -> rumba::memory::DeviceBlock { b.clone() }
/// ```
#[derive(Debug)]
pub struct DeviceBlock {
    ptr: DevicePtr,
    bytes: usize,
    device: usize,
    origin: Origin,
}

impl DeviceBlock {
    /// Makes a block of `[ptr, ptr + bytes)` on `device`, stamped with `origin`.
    ///
    /// # Safety
    /// The range must be device memory of `device` (never host memory, mapped or not) that
    /// nothing else uses and that stays allocated until the block is given back to the resource
    /// that owns `origin`, which must free it at most once.
    pub unsafe fn from_raw(ptr: DevicePtr, bytes: usize, device: usize, origin: Origin) -> Self {
        DeviceBlock {
            ptr,
            bytes,
            device,
            origin,
        }
    }

    /// The device address of the first byte.
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let res = rumba::current_context().unwrap().memory_manager().device_resource().clone();
    /// let b = res.allocate_sync(8).unwrap();
    /// assert_ne!(b.ptr(), 0);
    /// res.deallocate_sync(b).unwrap();
    /// ```
    pub fn ptr(&self) -> DevicePtr {
        self.ptr
    }

    /// Size in bytes (at least what was asked for).
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let res = rumba::current_context().unwrap().memory_manager().device_resource().clone();
    /// let b = res.allocate_sync(8).unwrap();
    /// assert!(b.len() >= 8 && !b.is_empty());
    /// res.deallocate_sync(b).unwrap();
    /// ```
    pub fn len(&self) -> usize {
        self.bytes
    }

    /// True for a block of zero bytes.
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let res = rumba::current_context().unwrap().memory_manager().device_resource().clone();
    /// let b = res.allocate_sync(1).unwrap();
    /// assert!(!b.is_empty());
    /// res.deallocate_sync(b).unwrap();
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// Ordinal of the device the memory is on.
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let res = rumba::current_context().unwrap().memory_manager().device_resource().clone();
    /// let b = res.allocate_sync(1).unwrap();
    /// assert_eq!(b.device(), 0);
    /// res.deallocate_sync(b).unwrap();
    /// ```
    pub fn device(&self) -> usize {
        self.device
    }

    /// The base resource that made the block.
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let res = rumba::current_context().unwrap().memory_manager().device_resource().clone();
    /// let (a, b) = (res.allocate_sync(1).unwrap(), res.allocate_sync(1).unwrap());
    /// assert_eq!(a.origin(), b.origin());
    /// res.deallocate_sync(a).unwrap();
    /// res.deallocate_sync(b).unwrap();
    /// ```
    pub fn origin(&self) -> Origin {
        self.origin
    }
}

/// Page-locked host memory in transit between resources: not `Clone`, only made by
/// [`from_raw`](Self::from_raw), and never readable through the block itself (only through the
/// [`PinnedBuffer`](super::PinnedBuffer) rumba makes of it).
///
/// ```
/// use rumba::memory::HostResource;
/// let ctx = rumba::current_context().unwrap();
/// let host = ctx.memory_manager().host_resource();
/// let block = host.allocate(100, Default::default()).unwrap();
/// assert!(block.len() >= 100);
/// host.deallocate(block).unwrap();
/// ```
#[derive(Debug)]
pub struct HostBlock {
    ptr: NonNull<u8>,
    bytes: usize,
    flags: HostAllocFlags,
    zeroed: bool,
    origin: Origin,
}

// SAFETY: a block is an owning token (like a `Box<[u8]>` that cannot be read through); the memory
// is plain host memory with no thread affinity.
unsafe impl Send for HostBlock {}
// SAFETY: shared access reads only the block's address and figures.
unsafe impl Sync for HostBlock {}

impl HostBlock {
    /// Makes a block of `bytes` page-locked bytes at `ptr`, allocated with `flags` and stamped
    /// with `origin`; `zeroed` says every byte is known to be zero.
    ///
    /// # Safety
    /// `[ptr, ptr + bytes)` must be host memory that nothing else uses (no reference, no queued
    /// device work) and that stays allocated until the block is given back to the resource that
    /// owns `origin`, which must free it at most once. If `zeroed`, every byte must be zero.
    pub unsafe fn from_raw(
        ptr: NonNull<u8>,
        bytes: usize,
        flags: HostAllocFlags,
        zeroed: bool,
        origin: Origin,
    ) -> Self {
        HostBlock {
            ptr,
            bytes,
            flags,
            zeroed,
            origin,
        }
    }

    /// The host address of the first byte.
    ///
    /// ```
    /// use rumba::memory::HostResource;
    /// let host = rumba::current_context().unwrap().memory_manager().host_resource().clone();
    /// let b = host.allocate(8, Default::default()).unwrap();
    /// assert!(!b.as_ptr().is_null());
    /// host.deallocate(b).unwrap();
    /// ```
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Size in bytes (at least what was asked for).
    ///
    /// ```
    /// use rumba::memory::HostResource;
    /// let host = rumba::current_context().unwrap().memory_manager().host_resource().clone();
    /// let b = host.allocate(8, Default::default()).unwrap();
    /// assert!(b.len() >= 8 && !b.is_empty());
    /// host.deallocate(b).unwrap();
    /// ```
    pub fn len(&self) -> usize {
        self.bytes
    }

    /// True for a block of zero bytes.
    ///
    /// ```
    /// use rumba::memory::HostResource;
    /// let host = rumba::current_context().unwrap().memory_manager().host_resource().clone();
    /// let b = host.allocate(1, Default::default()).unwrap();
    /// assert!(!b.is_empty());
    /// host.deallocate(b).unwrap();
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// The flags the memory was allocated with.
    ///
    /// ```
    /// use rumba::memory::HostResource;
    /// let host = rumba::current_context().unwrap().memory_manager().host_resource().clone();
    /// let b = host.allocate(1, Default::default()).unwrap();
    /// assert!(!b.flags().mapped);
    /// host.deallocate(b).unwrap();
    /// ```
    pub fn flags(&self) -> HostAllocFlags {
        self.flags
    }

    /// True when every byte is known to be zero (fresh from the driver, or zeroed by a pool).
    ///
    /// ```
    /// use rumba::memory::HostResource;
    /// let host = rumba::current_context().unwrap().memory_manager().host_resource().clone();
    /// let b = host.allocate(1, Default::default()).unwrap();
    /// assert!(b.is_zeroed());
    /// host.deallocate(b).unwrap();
    /// ```
    pub fn is_zeroed(&self) -> bool {
        self.zeroed
    }

    /// The base resource that made the block.
    ///
    /// ```
    /// use rumba::memory::HostResource;
    /// let host = rumba::current_context().unwrap().memory_manager().host_resource().clone();
    /// let b = host.allocate(1, Default::default()).unwrap();
    /// let _ = b.origin();
    /// host.deallocate(b).unwrap();
    /// ```
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Marks the block as holding a user's bytes (before it is given back).
    pub(crate) fn set_dirty(&mut self) {
        self.zeroed = false;
    }

    /// Marks the block as zeroed.
    ///
    /// # Safety
    /// Every byte of the block must be zero.
    pub(crate) unsafe fn set_zeroed(&mut self) {
        self.zeroed = true;
    }
}

/// A cache a resource keeps: its picture and a way to empty it.
///
/// ```
/// use rumba::memory::{CacheControl, DeviceResource, PoolResource};
/// let ctx = rumba::current_context().unwrap();
/// let pool = PoolResource::new(&ctx.manager_context()).unwrap();
/// pool.deallocate_sync(pool.allocate_sync(100).unwrap()).unwrap();
/// let cache = pool.cache().unwrap();
/// assert_eq!(cache.snapshot().segments.len(), 1);
/// assert_eq!(cache.empty_cache().unwrap(), 2 << 20);
/// ```
pub trait CacheControl: Send + Sync {
    /// Segments and the blocks they are split into.
    fn snapshot(&self) -> MemorySnapshot;
    /// Returns cached, unused memory to the device; the bytes returned.
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] naming each segment the device refused to take back.
    fn empty_cache(&self) -> Result<usize>;
    /// Waits until the work of the streams that own cached blocks has completed and makes those
    /// blocks available to every stream; the bytes that became available. Rumba calls it for an
    /// allocation that ran out of memory (never on a stream callback) before it retries: cached
    /// memory must not be the reason an allocation fails. The default has nothing to wait for.
    fn settle(&self) -> usize {
        0
    }
}

/// Releases held back in a queue (docs/design/behaviour.md §6): flushing, counting and suspending
/// them.
///
/// ```
/// use rumba::memory::DeviceResource;
/// let ctx = rumba::current_context().unwrap();
/// let res = ctx.memory_manager().device_resource();
/// let q = res.deferral().unwrap(); // the default manager's deferred queue
/// q.defer();
/// res.deallocate_sync(res.allocate_sync(8).unwrap()).unwrap();
/// assert!(q.pending().count >= 1);
/// q.undefer();
/// q.flush().unwrap();
/// assert_eq!(q.pending().count, 0);
/// ```
pub trait Deferral: Send + Sync {
    /// Carries out held-back releases now (a no-op while deferred).
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] naming each release that failed; they are not retried.
    fn flush(&self) -> Result<()>;
    /// Number and bytes of held-back releases.
    fn pending(&self) -> PendingStats;
    /// Suspends releasing until the matching [`undefer`](Self::undefer); nests, any thread.
    fn defer(&self);
    /// Ends one [`defer`](Self::defer); does not flush by itself.
    fn undefer(&self);
}

/// The device-memory resource: `allocate` and `deallocate` on a stream, RMM's
/// `device_memory_resource`. All methods may be called from any thread. Unlike RMM's, `deallocate`
/// returns a `Result`, so that a failed release can be reported (docs/design/behaviour.md §6: by
/// the flush that ran it) instead of swallowed; it never panics.
///
/// Safe to implement (see the [module docs](self)): blocks cannot be forged, and rumba checks the
/// block it is given. A resource that counts allocations is this much:
///
/// ```
/// use std::sync::{Arc, atomic::{AtomicUsize, Ordering}};
/// use rumba::driver::StreamHandle;
/// use rumba::memory::{DeviceBlock, DeviceResource};
/// struct Counting { upstream: Arc<dyn DeviceResource>, n: AtomicUsize }
/// impl DeviceResource for Counting {
///     fn allocate(&self, bytes: usize, stream: StreamHandle) -> rumba::Result<DeviceBlock> {
///         self.n.fetch_add(1, Ordering::Relaxed);
///         self.upstream.allocate(bytes, stream)
///     }
///     fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> rumba::Result<()> {
///         self.upstream.deallocate(block, stream)
///     }
///     fn upstream(&self) -> Option<&dyn DeviceResource> { Some(&*self.upstream) }
/// }
/// let ctx = rumba::current_context().unwrap();
/// let c = Counting { upstream: ctx.memory_manager().device_resource().clone(), n: AtomicUsize::new(0) };
/// let b = c.allocate_sync(16).unwrap();
/// c.deallocate_sync(b).unwrap();
/// assert_eq!(c.n.load(Ordering::Relaxed), 1);
/// assert!(c.deferral().is_some()); // the upstream's capabilities stay reachable
/// ```
pub trait DeviceResource: Send + Sync {
    /// Allocates at least `bytes` (> 0) of device memory for work on `stream`.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] / [`Error::PoolOutOfMemory`] with figures when the memory cannot be
    /// had; [`Error::ZeroSizeAllocation`] / [`Error::AllocationTooLarge`] for a size the resource
    /// cannot serve; [`Error::Driver`].
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBlock>;

    /// Takes back a block whose last use was queued on `stream` (that work may still be running:
    /// a stream-ordered resource lets `stream` reuse it at once, other streams only after it).
    ///
    /// # Errors
    /// The release failed ([`Error::Driver`]), or the block is not this resource's
    /// ([`Error::Resource`]); either way the block is gone (not retried).
    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> Result<()>;

    /// The resource this one wraps, for the capabilities it does not offer itself.
    fn upstream(&self) -> Option<&dyn DeviceResource> {
        None
    }

    /// What the resource is, in a few words; [`describe_chain`] joins those of a chain (`rumba
    /// detect` prints it). The default is the last segment of [`name`](Self::name).
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let res = rumba::current_context().unwrap().memory_manager().device_resource().clone();
    /// assert!(!res.description().is_empty());
    /// ```
    fn description(&self) -> String {
        let name = self.name();
        name.rsplit("::").next().unwrap_or(name).to_string()
    }

    /// Where the memory this resource hands out can be used (RMM's resource properties): its
    /// upstream's by default, and device memory for a resource with none. Contexts and managers
    /// refuse to allocate device memory from a resource that is not device-accessible, and a pool
    /// refuses such an upstream ([`Error::Inaccessible`]).
    ///
    /// ```
    /// use rumba::memory::{DeviceResource, ResourceProperties};
    /// let res = rumba::current_context().unwrap().memory_manager().device_resource().clone();
    /// assert_eq!(res.properties(), ResourceProperties::DEVICE);
    /// ```
    fn properties(&self) -> ResourceProperties {
        self.upstream()
            .map_or(ResourceProperties::DEVICE, |up| up.properties())
    }

    /// The resource's name in the [memory history](super::history) and in errors: its type name
    /// by default.
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let res = rumba::current_context().unwrap().manager_context().device_upstream();
    /// assert!(res.name().ends_with("LimitingAdaptor"));
    /// ```
    fn name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }

    /// [`allocate`](Self::allocate) on the legacy default stream.
    ///
    /// # Errors
    /// As [`allocate`](Self::allocate).
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let res = rumba::current_context().unwrap().memory_manager().device_resource().clone();
    /// let b = res.allocate_sync(8).unwrap();
    /// res.deallocate_sync(b).unwrap();
    /// ```
    fn allocate_sync(&self, bytes: usize) -> Result<DeviceBlock> {
        self.allocate(bytes, StreamHandle::LEGACY)
    }

    /// [`deallocate`](Self::deallocate) on the legacy default stream.
    ///
    /// # Errors
    /// As [`deallocate`](Self::deallocate).
    fn deallocate_sync(&self, block: DeviceBlock) -> Result<()> {
        self.deallocate(block, StreamHandle::LEGACY)
    }

    /// Counters, when a resource in the chain keeps them.
    fn statistics(&self) -> Option<MemoryStats> {
        self.upstream()?.statistics()
    }

    /// The cache of a caching resource in the chain.
    fn cache(&self) -> Option<&dyn CacheControl> {
        self.upstream()?.cache()
    }

    /// The deferred-release queue of a resource in the chain.
    fn deferral(&self) -> Option<&dyn Deferral> {
        self.upstream()?.deferral()
    }

    /// The limiting adaptor in the chain, to read or change the limit.
    fn limiter(&self) -> Option<&LimitingAdaptor> {
        self.upstream()?.limiter()
    }

    /// Exports an IPC handle for `[ptr, ptr + bytes)` of one of the resource's blocks.
    ///
    /// # Errors
    /// [`Error::Resource`] ([`ResourceError::Unsupported`]) when no resource in the chain
    /// exports; the driver's errors; [`Error::Resource`] ([`ResourceError::ForeignBlock`]) when
    /// the range is not in a live block.
    fn ipc_handle(&self, ptr: DevicePtr, bytes: usize) -> Result<IpcHandle> {
        match self.upstream() {
            Some(up) => up.ipc_handle(ptr, bytes),
            None => Err(ResourceError::Unsupported {
                resource: "this memory resource".into(),
                feature: "IPC handles",
            }
            .into()),
        }
    }

    /// `(free, total)` device memory as the resource sees it.
    ///
    /// # Errors
    /// [`Error::Resource`] ([`ResourceError::Unsupported`]) when no resource in the chain can
    /// tell; the driver's errors.
    fn memory_info(&self) -> Result<(usize, usize)> {
        match self.upstream() {
            Some(up) => up.memory_info(),
            None => Err(ResourceError::Unsupported {
                resource: "this memory resource".into(),
                feature: "memory info",
            }
            .into()),
        }
    }

    /// Frees every block of the resource at once ([`Context::reset`](crate::Context::reset)),
    /// blocks still handed out included: their origins are retired, so that the memory manager
    /// refuses them and their resource takes them back quietly. Only rumba can call it (it alone
    /// makes a [`ResetToken`], after synchronizing the device); an adaptor forwards the token.
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] naming each block that could not be freed.
    fn reset(&self, token: &ResetToken) -> Result<()> {
        self.upstream().map_or(Ok(()), |up| up.reset(token))
    }
}

/// The descriptions of `res` and every resource below it, outermost first, joined by ` → `: the
/// chain a memory manager allocates through.
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let chain = rumba::memory::describe_chain(&**ctx.memory_manager().device_resource());
/// assert!(chain.contains("driver ("), "{chain}"); // the base resource is last
/// ```
pub fn describe_chain(res: &dyn DeviceResource) -> String {
    let mut parts = vec![res.description()];
    let mut cur = res.upstream();
    while let Some(r) = cur {
        parts.push(r.description());
        cur = r.upstream();
    }
    parts.join(" → ")
}

/// The pinned-host-memory resource (RMM's `host_memory_resource`, for page-locked memory).
///
/// Safe to implement for the same reasons as [`DeviceResource`]; rumba zeroes a block that is not
/// [`is_zeroed`](HostBlock::is_zeroed), and checks its size, its flags (`mapped` and `portable`
/// when asked for) and, for typed arrays, its alignment before anyone reads it.
///
/// ```
/// use std::sync::Arc;
/// use rumba::driver::HostAllocFlags;
/// use rumba::memory::{HostBlock, HostResource};
/// struct Logged(Arc<dyn HostResource>);
/// impl HostResource for Logged {
///     fn allocate(&self, bytes: usize, flags: HostAllocFlags) -> rumba::Result<HostBlock> {
///         println!("pinned {bytes}");
///         self.0.allocate(bytes, flags)
///     }
///     fn deallocate(&self, block: HostBlock) -> rumba::Result<()> { self.0.deallocate(block) }
/// }
/// let ctx = rumba::current_context().unwrap();
/// let l = Logged(ctx.memory_manager().host_resource().clone());
/// l.deallocate(l.allocate(10, Default::default()).unwrap()).unwrap();
/// ```
pub trait HostResource: Send + Sync {
    /// Allocates at least `bytes` of page-locked host memory with `flags`.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the host cannot provide it; [`Error::Unsupported`] for flags
    /// the backend cannot honour.
    fn allocate(&self, bytes: usize, flags: HostAllocFlags) -> Result<HostBlock>;

    /// Takes back a block; no reference to its memory and no queued work using it remain.
    ///
    /// # Errors
    /// The release failed, or the block is not this resource's; the block is gone either way.
    fn deallocate(&self, block: HostBlock) -> Result<()>;

    /// Returns cached host memory to the system; the bytes returned (0 by default).
    fn empty_cache(&self) -> usize {
        0
    }

    /// Where the memory can be used: host-accessible (the device addresses a block only when it
    /// was allocated `mapped`, which its [flags](HostBlock::flags) say).
    ///
    /// ```
    /// use rumba::memory::{HostResource, ResourceProperties};
    /// let host = rumba::current_context().unwrap().memory_manager().host_resource().clone();
    /// assert_eq!(host.properties(), ResourceProperties::HOST);
    /// ```
    fn properties(&self) -> ResourceProperties {
        ResourceProperties::HOST
    }
}

/// Where a resource's memory can be used, as RMM's resources say: by device work (kernels,
/// device copies), by host code, or both (managed memory).
///
/// ```
/// use rumba::error::Access;
/// use rumba::memory::ResourceProperties;
/// assert!(ResourceProperties::MANAGED.allows(Access::Device) && ResourceProperties::MANAGED.allows(Access::Host));
/// assert!(!ResourceProperties::HOST.allows(Access::Device));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ResourceProperties {
    /// Device work can use the memory.
    pub device_accessible: bool,
    /// Host code can read and write it.
    pub host_accessible: bool,
}

impl ResourceProperties {
    /// Device memory.
    pub const DEVICE: Self = ResourceProperties {
        device_accessible: true,
        host_accessible: false,
    };
    /// Host memory the device does not address.
    pub const HOST: Self = ResourceProperties {
        device_accessible: false,
        host_accessible: true,
    };
    /// Memory both use (managed, or mapped pinned memory).
    pub const MANAGED: Self = ResourceProperties {
        device_accessible: true,
        host_accessible: true,
    };

    /// True when the memory can be used as `access` says.
    pub fn allows(self, access: Access) -> bool {
        match access {
            Access::Device => self.device_accessible,
            Access::Host => self.host_accessible,
        }
    }
}

/// Refuses `resource` for `role` unless its memory allows `access`.
pub(crate) fn require(resource: &dyn DeviceResource, access: Access, role: &str) -> Result<()> {
    if resource.properties().allows(access) {
        Ok(())
    } else {
        Err(Error::Inaccessible {
            resource: super::history::short_name(resource.name()).to_string(),
            role: role.to_string(),
            needs: access,
        })
    }
}
