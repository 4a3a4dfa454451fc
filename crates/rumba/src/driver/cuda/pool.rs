//! Device memory for [`CudaDriver`]: the driver's stream-ordered memory pool for memory allocated
//! for a stream, `cuMemAlloc` for memory allocated without one.
//!
//! **Which allocation gets what.** Memory allocated for a created stream (or a thread's
//! per-thread default stream) comes from the device's default memory pool with
//! `cuMemAllocFromPoolAsync` and goes back with `cuMemFreeAsync`, both ordered in that stream:
//! no device-wide synchronization, and a block freed on a stream is reused by that stream at once
//! (CuPy's and RMM's asynchronous pools work the same way). The pool's release threshold is
//! raised to `u64::MAX` when rumba first uses it, as CCCL, RMM and `cuda.core` do, so freed memory
//! stays cached instead of going back to the driver at every synchronization. Memory allocated
//! without a stream (the legacy default stream: `rumba::to_device`, `Context::memalloc`, the
//! `pool` manager's segments) comes from `cuMemAlloc`, as in Numba, because it is what programs
//! share with other processes: a CUDA IPC handle (`cuIpcGetMemHandle`, the only kind CuPy, Numba
//! and PyTorch open) cannot name pool memory, so exporting memory of a stream is refused with
//! [`Error::Unsupported`] saying so. A device without memory pools
//! (`CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED` = 0) uses `cuMemAlloc` for everything.
//!
//! **Why freeing in stream order is sound.** rumba frees device memory only when the last handle
//! of its buffer is gone *and* every operation that used it has completed: queued work holds a
//! handle until an event recorded after it has completed (`Stream::hold`, the memory layer's
//! holds, `keepalive.rs`). So
//! when `cuMemFreeAsync(ptr, s)` is called, no queued work of any stream still touches `ptr`;
//! the free is queued on `s` (the stream the memory was allocated for, or the legacy default
//! stream if that one was destroyed meanwhile), and CUDA hands the block to another allocation
//! only in an order that respects the free: at once to later allocations on `s`, to other
//! streams once the free has completed (or behind a dependency CUDA inserts). A block is never
//! visible to two owners at once.
//!
//! **Captures.** A stream being captured takes no pool memory (`cuMemAllocFromPoolAsync` would
//! become a node of the graph, and the graph's memory is rumba's to keep): it gets `cuMemAlloc`
//! memory, and pool memory freed on it is given back on it once its capture has ended.
//!
//! **Peers.** Pool memory is not covered by `cuCtxEnablePeerAccess`; when the pool is set up,
//! every other device that `cuDeviceCanAccessPeer` says can reach this one is given read-write
//! access with `cuMemPoolSetAccess`, so kernels there can use it as they can use `cuMemAlloc`
//! memory. Copies between devices (`cuMemcpyPeer(Async)`) need no access either way.
//!
//! **Out of memory.** Cached pool memory counts as used for `cuMemAlloc` too: an allocation that
//! fails for lack of memory trims the pool (`cuMemPoolTrimTo(pool, 0)` returns what is cached
//! and free) and retries once before reporting [`Error::OutOfMemory`].
//!
//! This module touches the CUDA driver's allocation calls.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use cudarc::driver::sys::{self, CUdevice_attribute as Attr, CUresult};

use super::driver::CudaDriver;
use super::error::{check, map};
use super::flags::{cu_stream, default_resolved};
use crate::driver::{DevicePtr, StreamHandle};
use crate::error::{Error, Result};
use crate::sync::lock;

/// The pools of a driver's devices and the pool allocations live now.
#[derive(Default)]
pub(crate) struct Pools {
    /// Per device: its default pool (a `CUmemoryPool`), once set up; `None` without pools.
    pools: Vec<OnceLock<Option<usize>>>,
    /// Live pool allocations: address → bytes (addresses are unique across devices).
    live: Mutex<HashMap<DevicePtr, usize>>,
}

impl Pools {
    /// Room for `devices` devices.
    pub(crate) fn new(devices: usize) -> Pools {
        Pools {
            pools: (0..devices).map(|_| OnceLock::new()).collect(),
            live: Mutex::new(HashMap::new()),
        }
    }

    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<DevicePtr, usize>> {
        crate::sync::lock(&self.live)
    }
}

/// Whether an allocation for `handle` comes from the pool: memory of the legacy default stream
/// (handles 0 and 1, unless 0 means the per-thread stream) does not.
pub(crate) fn from_pool(handle: StreamHandle, per_thread_default: bool) -> bool {
    default_resolved(handle, per_thread_default).0 > 1
}

impl CudaDriver {
    /// The default pool of `device`, set up on first use (the device's context is current).
    fn pool(&self, device: usize) -> Result<Option<sys::CUmemoryPool>> {
        let slot = self.pools.pools.get(device).ok_or(Error::InvalidDevice {
            id: device,
            count: self.devices.len(),
        })?;
        let p = slot.get_or_init(|| match self.set_up_pool(device) {
            Ok(p) => p.map(|p| p as usize),
            Err(e) => {
                tracing::warn!("device {device}: no stream-ordered pool, using cuMemAlloc: {e}");
                None
            }
        });
        Ok(p.map(|p| p as sys::CUmemoryPool))
    }

    fn set_up_pool(&self, device: usize) -> Result<Option<sys::CUmemoryPool>> {
        let dev = self.devices[device].dev;
        let mut supported = 0;
        // SAFETY: writes one int for a valid device.
        check("cuDeviceGetAttribute(MEMORY_POOLS_SUPPORTED)", unsafe {
            sys::cuDeviceGetAttribute(
                &mut supported,
                Attr::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                dev,
            )
        })?;
        if supported == 0 {
            return Ok(None);
        }
        let mut pool = std::ptr::null_mut();
        // SAFETY: writes one pool handle for a valid device.
        check("cuDeviceGetDefaultMemPool", unsafe {
            sys::cuDeviceGetDefaultMemPool(&mut pool, dev)
        })?;
        let mut threshold: u64 = u64::MAX;
        // SAFETY: the release threshold is a `cuuint64_t`, read from `threshold`.
        check("cuMemPoolSetAttribute(RELEASE_THRESHOLD)", unsafe {
            sys::cuMemPoolSetAttribute(
                pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                (&mut threshold as *mut u64).cast(),
            )
        })?;
        for (peer, d) in self.devices.iter().enumerate() {
            if peer == device {
                continue;
            }
            let mut can = 0;
            // SAFETY: writes one int for two valid devices.
            let r = unsafe { sys::cuDeviceCanAccessPeer(&mut can, d.dev, dev) };
            if r != CUresult::CUDA_SUCCESS || can == 0 {
                continue;
            }
            let desc = sys::CUmemAccessDesc {
                location: sys::CUmemLocation {
                    type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                    id: peer as i32,
                },
                flags: sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
            };
            // SAFETY: one access descriptor for a device that can reach this one.
            if let Err(e) = check("cuMemPoolSetAccess", unsafe {
                sys::cuMemPoolSetAccess(pool, &desc, 1)
            }) {
                tracing::warn!("device {peer} cannot use device {device}'s pool memory: {e}");
            }
        }
        Ok(Some(pool))
    }

    /// The device's free and total memory, for an out-of-memory report.
    fn oom(&self, device: usize, bytes: usize) -> Error {
        let (mut free, mut total) = (0, 0);
        // SAFETY: writes two usizes; the device's context is current.
        let _ = unsafe { sys::cuMemGetInfo_v2(&mut free, &mut total) };
        Error::OutOfMemory {
            device,
            requested: bytes,
            free,
            total,
            pending: 0,
        }
    }

    /// Returns the cached, free memory of `device`'s pool to the driver (for a retry).
    fn trim(&self, device: usize) {
        if let Ok(Some(pool)) = self.pool(device) {
            // SAFETY: a valid pool; keeps nothing that is free.
            let _ = unsafe { sys::cuMemPoolTrimTo(pool, 0) };
        }
    }

    /// Runs `alloc` (a driver allocation returning its result and pointer); on out-of-memory,
    /// trims `device`'s pool and runs it once more. `what` names the call in errors.
    fn alloc_retrying(
        &self,
        device: usize,
        bytes: usize,
        what: &str,
        alloc: impl Fn() -> (CUresult, DevicePtr),
    ) -> Result<DevicePtr> {
        let (mut r, mut p) = alloc();
        if r == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            self.trim(device);
            (r, p) = alloc();
        }
        match r {
            CUresult::CUDA_SUCCESS => Ok(p),
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => Err(self.oom(device, bytes)),
            r => Err(map(what, r)),
        }
    }

    /// `cuMemAlloc` (trimming the pool and retrying once on out-of-memory).
    pub(super) fn alloc_legacy(&self, device: usize, bytes: usize) -> Result<DevicePtr> {
        self.bind(device)?;
        self.alloc_retrying(device, bytes, "cuMemAlloc", || {
            let mut p = 0;
            // SAFETY: writes one device pointer; a context is current.
            let r = unsafe { sys::cuMemAlloc_v2(&mut p, bytes) };
            (r, p)
        })
    }

    /// Memory for work on `handle`: from the pool in its order, or `cuMemAlloc` (module docs).
    pub(super) fn alloc_on(
        &self,
        device: usize,
        bytes: usize,
        handle: StreamHandle,
    ) -> Result<DevicePtr> {
        let s = self.stream(handle)?;
        // A capturing stream would record the pool's allocation into the graph: `cuMemAlloc`.
        if !from_pool(handle, self.per_thread_default)
            || self.graphs.captures.is_capturing(device, handle)
        {
            return self.alloc_legacy(device, bytes);
        }
        self.bind(device)?;
        let Some(pool) = self.pool(device)? else {
            return self.alloc_legacy(device, bytes);
        };
        let p = self.alloc_retrying(device, bytes, "cuMemAllocFromPoolAsync", || {
            let mut p = 0;
            // SAFETY: writes one device pointer; a valid pool and stream of the current context.
            let r = unsafe { sys::cuMemAllocFromPoolAsync(&mut p, bytes, pool, s) };
            (r, p)
        })?;
        self.pools.live().insert(p, bytes);
        Ok(p)
    }

    /// Frees `ptr`: pool memory with `cuMemFreeAsync` on `handle` (the legacy default stream if
    /// `handle` is gone), other memory with `cuMemFree` (module docs).
    pub(super) fn free_on(
        &self,
        device: usize,
        ptr: DevicePtr,
        handle: StreamHandle,
    ) -> Result<()> {
        self.bind(device)?;
        if self.graphs.captures.is_capturing(device, handle) && self.pools.live().contains_key(&ptr)
        {
            // `cuMemFreeAsync` would be recorded into the graph: given back on this stream once
            // its capture has ended (`free_after_captures`).
            lock(&self.graphs.frees).push((device, handle, ptr));
            return Ok(());
        }
        if self.pools.live().remove(&ptr).is_none() {
            // SAFETY: CUDA checks the pointer and reports an invalid one as an error.
            return check("cuMemFree", unsafe { sys::cuMemFree_v2(ptr) });
        }
        let s = self
            .stream(handle)
            .unwrap_or_else(|_| cu_stream(StreamHandle::LEGACY));
        // SAFETY: a live pool allocation that no queued work of another stream uses (module docs).
        check("cuMemFreeAsync", unsafe { sys::cuMemFreeAsync(ptr, s) })
    }

    /// Gives back the pool memory freed on streams whose capture has ended since.
    pub(super) fn free_after_captures(&self) {
        let ready: Vec<_> = {
            let mut frees = lock(&self.graphs.frees);
            let (ready, waiting) = std::mem::take(&mut *frees)
                .into_iter()
                .partition(|&(d, s, _)| !self.graphs.captures.is_capturing(d, s));
            *frees = waiting;
            ready
        };
        for (device, stream, ptr) in ready {
            if let Err(e) = self.free_on(device, ptr, stream) {
                tracing::warn!("giving back pool memory freed during a capture: {e}");
            }
        }
    }

    /// True for memory of the stream-ordered pool.
    pub(super) fn is_pool_memory(&self, ptr: DevicePtr) -> bool {
        let live = self.pools.live();
        live.contains_key(&ptr)
            || live
                .iter()
                .any(|(&p, &n)| ptr >= p && ptr - p < n as DevicePtr)
    }

    /// What `rumba detect` says about `device`'s allocations.
    pub(super) fn allocator_text(&self, device: usize) -> String {
        let pool = self.bind(device).and_then(|_| self.pool(device));
        match pool {
            Ok(Some(_)) => "cuda: memory of a stream from the device's default pool \
                (cuMemAllocFromPoolAsync / cuMemFreeAsync, release threshold u64::MAX); memory \
                without a stream from cuMemAlloc / cuMemFree (exportable by IPC)"
                .into(),
            Ok(None) => {
                "cuda: cuMemAlloc / cuMemFree (the device has no stream-ordered memory pools)"
                    .into()
            }
            Err(e) => format!("cuda: cuMemAlloc / cuMemFree ({e})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_of_a_stream_comes_from_the_pool_and_the_legacy_streams_does_not() {
        assert!(!from_pool(StreamHandle::LEGACY, false));
        assert!(!from_pool(StreamHandle::DEFAULT, false));
        assert!(!from_pool(StreamHandle::LEGACY, true));
        // With per-thread default streams, handle 0 is the thread's own stream.
        assert!(from_pool(StreamHandle::DEFAULT, true));
        assert!(from_pool(StreamHandle::PER_THREAD, false));
        assert!(from_pool(StreamHandle(0x7f00_0000), false));
    }
}
