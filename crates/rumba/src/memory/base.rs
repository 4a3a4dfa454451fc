//! The base resources: straight driver allocations, with no caching and no deferral (RMM's
//! `cuda_memory_resource` / `cuda_async_memory_resource` and `pinned_memory_resource`): device
//! memory is allocated and freed in the order of the stream it is for, which the driver may serve
//! from a stream-ordered pool (CUDA does for created streams).
//!
//! [`DriverResource`] remembers its live blocks, so that it can refuse a block it did not make
//! (or one a [`reset`](DeviceResource::reset) already freed), free everything at a reset, and
//! find the allocation an IPC export names. [`DriverHostResource`] likewise keeps the addresses
//! it handed out. Neither calls the driver on a driver callback thread (CUDA forbids it there;
//! the last handle of a buffer can drop on one when queued work ends): a block given back there
//! is freed by the next call on an ordinary thread.
//!
//! This module touches the driver's allocation calls only.

use std::collections::{HashMap, HashSet};
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use super::history::{self, ChainCell, EventKind, Note};
use super::{DeviceBlock, DeviceResource, HostBlock, HostResource, IpcHandle, Origin, ResetToken};
use crate::driver::callback::Later;
use crate::driver::{DevicePtr, Driver, HostAllocFlags, StreamHandle};
use crate::error::{Error, HostMemoryError, ResourceError, Result};
use crate::sync::{get_mut, lock};

struct Live {
    origin: Origin,
    /// Origins before each reset: their blocks were freed by it.
    retired: Vec<Origin>,
    blocks: HashMap<DevicePtr, usize>,
    /// Failures of such frees during an `allocate`: reported by the next `deallocate`.
    failed: Vec<String>,
}

/// `now`, with failures kept from earlier calls reported too.
fn report(kept: Vec<String>, now: Result<()>) -> Result<()> {
    if kept.is_empty() {
        return now;
    }
    let mut all = kept;
    match now {
        Ok(()) => {}
        Err(Error::DeallocationFailed(v)) => all.extend(v),
        Err(e) => all.push(e.to_string()),
    }
    Err(Error::DeallocationFailed(all))
}

/// Logs what a resource dropped on a callback thread leaves unfreed, and unreported failures.
fn log_leftovers(what: &str, later: usize, failed: &[String]) {
    if later > 0 {
        tracing::error!(
            "dropping a {what} on a driver callback thread: {later} allocation(s) given back there leaked"
        );
    }
    for f in failed {
        tracing::error!("dropping a {what}: an earlier release failed: {f}");
    }
}

/// Device memory straight from the driver: every `allocate` is a
/// [`mem_alloc_async`](Driver::mem_alloc_async) for its stream, every `deallocate` a
/// [`mem_free_async`](Driver::mem_free_async) on the stream it names (on CUDA: the driver's
/// stream-ordered pool for memory of a stream, `cuMemAlloc` for memory without one; see
/// [`Driver::allocator`]). Freeing in stream order is sound because rumba gives a block back only
/// once every operation that used it has completed (queued work holds its buffer until then).
///
/// ```
/// use rumba::memory::{DeviceResource, DriverResource};
/// let ctx = rumba::current_context().unwrap();
/// let res = DriverResource::new(ctx.device_id(), ctx.driver().clone());
/// let b = res.allocate_sync(100).unwrap();
/// assert_eq!(res.live(), (1, 100));
/// res.deallocate_sync(b).unwrap();
/// assert_eq!(res.live(), (0, 0));
/// ```
pub struct DriverResource {
    device: usize,
    driver: Arc<dyn Driver>,
    live: Mutex<Live>,
    /// Given back on a driver callback thread, to be freed on an ordinary one (in its stream's
    /// order).
    later: Later<(DevicePtr, StreamHandle)>,
    /// Its chain in the memory history, walked once.
    history: ChainCell,
}

impl DriverResource {
    /// A resource allocating on `device` through `driver`.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let res = rumba::memory::DriverResource::new(0, ctx.driver().clone());
    /// assert_eq!(res.live(), (0, 0));
    /// ```
    pub fn new(device: usize, driver: Arc<dyn Driver>) -> Self {
        DriverResource {
            device,
            live: Mutex::new(Live {
                origin: Origin::for_driver(&driver),
                retired: Vec::new(),
                blocks: HashMap::new(),
                failed: Vec::new(),
            }),
            later: Later::new(),
            driver,
            history: ChainCell::new(),
        }
    }

    /// Frees what was given back on callback threads (unless this is one); the first failure.
    fn free_later(&self) -> Result<()> {
        self.later.release_each(|(p, stream)| {
            self.driver
                .mem_free_async(self.device, p, stream)
                .inspect_err(|e| {
                    tracing::error!("freeing device allocation 0x{p:x} failed: {e}");
                })
        })
    }

    /// Number and bytes of the blocks handed out and not given back.
    ///
    /// ```
    /// use rumba::memory::{DeviceResource, DriverResource};
    /// let ctx = rumba::current_context().unwrap();
    /// let res = DriverResource::new(0, ctx.driver().clone());
    /// let b = res.allocate_sync(7).unwrap();
    /// assert_eq!(res.live(), (1, 7));
    /// res.deallocate_sync(b).unwrap();
    /// ```
    pub fn live(&self) -> (usize, usize) {
        let l = lock(&self.live);
        (l.blocks.len(), l.blocks.values().sum())
    }
}

impl DeviceResource for DriverResource {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBlock> {
        if let Err(e) = self.free_later() {
            tracing::warn!("before allocating {bytes} bytes: {e}");
            lock(&self.live).failed.push(e.to_string());
        }
        let ptr = self.driver.mem_alloc_async(self.device, bytes, stream)?;
        if history::is_recording() {
            let note = Note::new(EventKind::Alloc, self.device, stream, bytes, ptr);
            history::note(note, Some((self, &self.history)));
        }
        let mut l = lock(&self.live);
        l.blocks.insert(ptr, bytes);
        // SAFETY: a fresh driver allocation of `bytes` on `self.device`, recorded as live; it is
        // freed only by `deallocate` (which removes it first) or `reset`, which changes the origin
        // so that the block is refused afterwards.
        Ok(unsafe { DeviceBlock::from_raw(ptr, bytes, self.device, l.origin) })
    }

    fn description(&self) -> String {
        format!(
            "driver (device {}: {})",
            self.device,
            self.driver.allocator(self.device)
        )
    }

    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> Result<()> {
        let ptr = block.ptr();
        {
            let mut l = lock(&self.live);
            if l.retired.contains(&block.origin()) {
                return Ok(()); // freed by a reset already
            }
            if block.origin() != l.origin || l.blocks.remove(&ptr).is_none() {
                // Not ours: leaking it is the only safe answer.
                return Err(ResourceError::ForeignBlock {
                    memory: "device",
                    ptr,
                    len: block.len(),
                    owner: format!("this driver resource on device {}", self.device),
                }
                .into());
            }
        }
        if history::is_recording() {
            let note = Note::new(EventKind::Free, self.device, stream, block.len(), ptr);
            history::note(note, Some((self, &self.history)));
        }
        let Some((ptr, stream)) = self.later.now_or_keep((ptr, stream)) else {
            return Ok(());
        };
        let earlier = self.free_later();
        let kept = std::mem::take(&mut lock(&self.live).failed);
        report(
            kept,
            self.driver
                .mem_free_async(self.device, ptr, stream)
                .and(earlier),
        )
    }

    /// Exports the allocation that holds the range, with the range's offset inside it.
    fn ipc_handle(&self, ptr: DevicePtr, bytes: usize) -> Result<IpcHandle> {
        let base = lock(&self.live)
            .blocks
            .iter()
            .find(|&(&p, &size)| {
                ptr.checked_sub(p)
                    .and_then(|off| off.checked_add(u64::try_from(bytes).ok()?))
                    .is_some_and(|end| end <= size as u64)
            })
            .map(|(&p, _)| p)
            .ok_or_else(|| ResourceError::ForeignBlock {
                memory: "device",
                ptr,
                len: bytes,
                owner: format!("this driver resource on device {}", self.device),
            })?;
        IpcHandle::export(&*self.driver, self.device, base, ptr, bytes)
    }

    fn memory_info(&self) -> Result<(usize, usize)> {
        self.driver.mem_info(self.device)
    }

    fn reset(&self, _token: &ResetToken) -> Result<()> {
        let live: Vec<DevicePtr> = {
            let mut l = lock(&self.live);
            let old = l.origin;
            l.origin = old.retire();
            l.retired.push(old); // blocks handed out before are already freed from now on
            l.blocks
                .drain()
                .map(|(p, _)| p)
                .chain(self.later.take().into_iter().map(|(p, _)| p))
                .collect()
        };
        let mut failures = Vec::new();
        for p in live {
            if let Err(e) = self.driver.mem_free(self.device, p) {
                failures.push(format!("device allocation 0x{p:x}: {e}"));
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Error::DeallocationFailed(failures))
        }
    }
}

/// Page-locked host memory straight from the driver (`host_alloc` / `host_free`).
///
/// ```
/// use rumba::memory::{DriverHostResource, HostResource};
/// let ctx = rumba::current_context().unwrap();
/// let host = DriverHostResource::new(0, ctx.driver().clone());
/// let b = host.allocate(10, Default::default()).unwrap();
/// assert!(b.is_zeroed() && b.len() == 10);
/// host.deallocate(b).unwrap();
/// ```
pub struct DriverHostResource {
    device: usize,
    driver: Arc<dyn Driver>,
    origin: Origin,
    /// Live addresses, and failures of frees of `later` blocks during an `allocate` (reported by
    /// the next `deallocate`).
    live: Mutex<(HashSet<usize>, Vec<String>)>,
    /// Given back on a callback thread, freed by the next call on an ordinary thread.
    later: Later<usize>,
}

impl DriverHostResource {
    /// A resource allocating pinned memory for `device` through `driver`.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let _ = rumba::memory::DriverHostResource::new(0, ctx.driver().clone());
    /// ```
    pub fn new(device: usize, driver: Arc<dyn Driver>) -> Self {
        DriverHostResource {
            device,
            origin: Origin::for_driver(&driver),
            driver,
            live: Mutex::new((HashSet::new(), Vec::new())),
            later: Later::new(),
        }
    }

    /// Frees what was given back on callback threads (unless this is one); the first failure.
    fn free_later(&self) -> Result<()> {
        self.later.release_each(|addr| {
            // SAFETY: the block was live and given back (nothing uses it); it left `live` then.
            unsafe { self.driver.host_free(addr as *mut u8) }.inspect_err(|e| {
                tracing::error!("freeing pinned allocation 0x{addr:x} failed: {e}");
            })
        })
    }
}

impl HostResource for DriverHostResource {
    fn allocate(&self, bytes: usize, flags: HostAllocFlags) -> Result<HostBlock> {
        if let Err(e) = self.free_later() {
            tracing::warn!("before allocating {bytes} pinned bytes: {e}");
            lock(&self.live).1.push(e.to_string());
        }
        let ptr = self.driver.host_alloc(self.device, bytes, flags)?;
        let Some(nn) = NonNull::new(ptr) else {
            return Err(HostMemoryError::NullAllocation {
                bytes,
                memory: "pinned",
            }
            .into());
        };
        lock(&self.live).0.insert(ptr as usize);
        // SAFETY: the driver's `host_alloc` returns `bytes` of fresh, zeroed host memory that
        // nothing else uses; it is freed only by `deallocate`, once (it is removed from `live`).
        Ok(unsafe { HostBlock::from_raw(nn, bytes, flags, true, self.origin) })
    }

    fn deallocate(&self, block: HostBlock) -> Result<()> {
        let addr = block.as_ptr() as usize;
        {
            let mut l = lock(&self.live);
            if block.origin() != self.origin || !l.0.remove(&addr) {
                return Err(ResourceError::ForeignBlock {
                    memory: "pinned",
                    ptr: addr as u64,
                    len: block.len(),
                    owner: "this host resource".into(),
                }
                .into());
            }
        }
        if self.later.now_or_keep(addr).is_none() {
            return Ok(());
        }
        let earlier = self.free_later();
        let kept = std::mem::take(&mut lock(&self.live).1);
        // SAFETY: the block was ours and live; whoever gave it back gave up every use of it.
        report(
            kept,
            unsafe { self.driver.host_free(block.as_ptr()) }.and(earlier),
        )
    }
}

impl Drop for DriverResource {
    fn drop(&mut self) {
        if let Err(e) = self.free_later() {
            tracing::error!("dropping a driver resource: {e}");
        }
        let later = self.later.len();
        log_leftovers("driver resource", later, &get_mut(&mut self.live).failed);
    }
}

impl Drop for DriverHostResource {
    fn drop(&mut self) {
        if let Err(e) = self.free_later() {
            tracing::error!("dropping a driver host resource: {e}");
        }
        let later = self.later.len();
        log_leftovers("driver host resource", later, &get_mut(&mut self.live).1);
    }
}
