//! The simulated device's address space: an allocation table mapping device pointers to backing
//! storage, with bounds-checked resolution.
//!
//! Device pointers live in `0x8000_0000_0000_0000 + (device << 56)` upwards — addresses in the
//! upper half of the 64-bit space, which no user-space host pointer ever takes on x86-64 or
//! AArch64, so a device pointer can never be mistaken for host memory. Addresses are handed out by
//! a bump pointer and never reused, so a use after free finds no region and is reported instead of
//! touching another allocation. Each region records its requested length; any access that runs
//! past it is refused with [`Error::InvalidAddress`].
//!
//! Backing storage is zeroed host memory obtained from the global allocator; it is only ever
//! accessed through [`super::bytes`] and the kernel layer's atomic accessors, never through
//! references. Mapped host memory appears in the same table as a region that resolves to the host
//! pages (the device addresses them directly; no copy).
//!
//! **IPC.** Exporting an allocation ([`AddressSpace::export`]) moves its storage into an OS
//! shared-memory object ([`super::ipc`]) once: the contents are copied into the object, which is
//! then mapped `MAP_SHARED` *over the same host range* (`MAP_FIXED`) when the storage was a
//! mapping, so every resolved range — including ones held by queued work — keeps pointing at the
//! live bytes; a small heap-backed allocation gets a new shared mapping under the same device
//! address instead (the driver drains all streams first, so nothing holds the old storage). The
//! device address never changes. Memory opened from another process's handle is an
//! [`Storage::Imported`] region: it resolves like device memory, but only
//! [`unmap_imported`](AddressSpace::unmap_imported) removes it.
//!
//! This module touches only its own table and the memory it allocates.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, RwLock};

use super::inflight::Users;
use super::ipc::{HandleInfo, ShmObject};
use crate::driver::DevicePtr;
use crate::error::{Error, Result};
use crate::sync::{lock, read, write};

/// Start of the device address window.
pub(crate) const ADDRESS_BASE: u64 = 0x8000_0000_0000_0000;
/// Each device owns `1 << DEVICE_SHIFT` bytes of address space.
const DEVICE_SHIFT: u32 = 56;
/// Allocation granularity and alignment (as `cuMemAlloc`'s 256-byte alignment).
pub(crate) const GRANULE: usize = 256;

/// Owned backing storage of one device allocation.
///
/// Large allocations are anonymous `mmap`s: zeroed by the kernel, page-aligned, and not touched
/// (so not committed) until used, which makes allocating a big buffer as cheap as on a GPU; from
/// 2 MiB up they ask for transparent huge pages, so that first touch is cheap too. Small ones come
/// from the global allocator.
pub(crate) struct Backing {
    ptr: *mut u8,
    kind: BackingKind,
}

enum BackingKind {
    Heap(Layout),
    Mapped(usize),
}

/// Allocations of at least this many bytes are mapped rather than taken from the heap.
const MAP_THRESHOLD: usize = 1 << 16;

// SAFETY: the storage is only accessed through raw pointers with atomic operations (see module
// docs), so sharing the owner between threads cannot create data races.
unsafe impl Send for Backing {}
// SAFETY: as above.
unsafe impl Sync for Backing {}

impl Backing {
    pub(crate) fn new(bytes: usize) -> Option<Backing> {
        if bytes >= MAP_THRESHOLD {
            let ptr = map_anonymous(bytes)?;
            return Some(Backing {
                ptr,
                kind: BackingKind::Mapped(bytes),
            });
        }
        let layout = Layout::from_size_align(bytes.max(1), GRANULE).ok()?;
        // SAFETY: the layout has non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        (!ptr.is_null()).then_some(Backing {
            ptr,
            kind: BackingKind::Heap(layout),
        })
    }

    /// Start of the storage.
    pub(crate) fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// Takes ownership of a mapping of `len` bytes (unmapped on drop).
    ///
    /// # Safety
    /// `[ptr, ptr + len)` must be a readable and writable mapping that nothing else unmaps.
    pub(crate) unsafe fn adopt_mapping(ptr: *mut u8, len: usize) -> Backing {
        Backing {
            ptr,
            kind: BackingKind::Mapped(len),
        }
    }
}

/// Maps `bytes` of zeroed, private, page-aligned anonymous memory.
pub(crate) fn map_anonymous(bytes: usize) -> Option<*mut u8> {
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing has no
    // preconditions; failure is reported as MAP_FAILED.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return None;
    }
    if bytes >= HUGE_PAGE {
        // Ask for transparent huge pages: first touch then faults once per 2 MiB instead of once
        // per 4 KiB, which makes a fresh buffer's first copy several times faster. Advisory only;
        // failure (THP disabled) changes nothing.
        // SAFETY: `p` is a mapping of `bytes` bytes that we just created.
        unsafe { libc::madvise(p, bytes, libc::MADV_HUGEPAGE) };
    }
    Some(p.cast())
}

/// Size of a transparent huge page on x86-64 and most AArch64 kernels.
const HUGE_PAGE: usize = 2 << 20;

impl Drop for Backing {
    fn drop(&mut self) {
        match self.kind {
            // SAFETY: allocated in `new` with this layout, freed once.
            BackingKind::Heap(layout) => unsafe { dealloc(self.ptr, layout) },
            // SAFETY: mapped in `new` with this length, unmapped once.
            BackingKind::Mapped(len) => unsafe {
                libc::munmap(self.ptr.cast(), len);
            },
        }
    }
}

/// What a device address range resolves to.
pub(crate) enum Storage {
    /// Device memory owned by the simulator.
    Device(Backing),
    /// Page-locked host memory mapped into the device address space.
    Host(*mut u8),
    /// Device memory of another process, opened through an IPC handle (a shared mapping).
    Imported(Backing),
}

// SAFETY: `Host` points at host memory that the registering code keeps alive while mapped; all
// accesses through it are atomic or confined to the operation that owns it.
unsafe impl Send for Storage {}
// SAFETY: as above.
unsafe impl Sync for Storage {}

/// One entry of the allocation table.
pub(crate) struct Region {
    pub(crate) base: DevicePtr,
    pub(crate) len: usize,
    storage: Storage,
    /// The queued and running operations that touch it (see [`super::inflight`]).
    pub(crate) users: Mutex<Users>,
}

impl Region {
    /// A region over `storage`; `exported` when other processes can reach it. Host and
    /// imported storage is writable from outside the streams, so it is shared from the start.
    fn new(base: DevicePtr, len: usize, storage: Storage, exported: bool) -> Region {
        let shared = exported || !matches!(storage, Storage::Device(_));
        Region {
            base,
            len,
            storage,
            users: Mutex::new(Users::new(shared)),
        }
    }

    /// Host-side address of the byte at device address `ptr` (which must be inside the region).
    pub(crate) fn host_addr(&self, ptr: DevicePtr) -> *mut u8 {
        let off = (ptr - self.base) as usize;
        let start = match &self.storage {
            Storage::Device(b) | Storage::Imported(b) => b.as_ptr(),
            Storage::Host(p) => *p,
        };
        start.wrapping_add(off)
    }
}

/// A resolved, bounds-checked device range that keeps its region alive.
pub(crate) struct Resolved {
    region: Arc<Region>,
    ptr: DevicePtr,
}

impl Resolved {
    /// The allocation the range lies in.
    pub(crate) fn region(&self) -> &Arc<Region> {
        &self.region
    }

    /// Host address of the start of the range.
    pub(crate) fn addr(&self) -> *mut u8 {
        self.region.host_addr(self.ptr)
    }
}

/// The address space and capacity of one simulated device.
pub(crate) struct AddressSpace {
    device: usize,
    capacity: usize,
    state: Mutex<Counters>,
    table: RwLock<BTreeMap<DevicePtr, Arc<Region>>>,
    /// Shared-memory objects of exported allocations, by allocation base.
    exported: Mutex<HashMap<DevicePtr, ShmObject>>,
}

struct Counters {
    next: DevicePtr,
    used: usize,
}

impl AddressSpace {
    pub(crate) fn new(device: usize, capacity: usize) -> Self {
        AddressSpace {
            device,
            capacity,
            state: Mutex::new(Counters {
                next: ADDRESS_BASE + ((device as u64) << DEVICE_SHIFT) + GRANULE as u64,
                used: 0,
            }),
            table: RwLock::new(BTreeMap::new()),
            exported: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// `(free, total)` bytes.
    pub(crate) fn info(&self) -> (usize, usize) {
        let used = lock(&self.state).used;
        (self.capacity.saturating_sub(used), self.capacity)
    }

    fn rounded(bytes: usize) -> usize {
        bytes.div_ceil(GRANULE).saturating_mul(GRANULE)
    }

    /// Allocates `bytes` of zeroed device memory.
    pub(crate) fn alloc(&self, bytes: usize) -> Result<DevicePtr> {
        if bytes == 0 {
            return Err(Error::ZeroSizeAllocation {
                memory: "device memory",
            });
        }
        let rounded = Self::rounded(bytes);
        let base = {
            let mut st = lock(&self.state);
            if st.used.saturating_add(rounded) > self.capacity {
                return Err(self.oom(bytes, st.used));
            }
            st.used += rounded;
            let base = st.next;
            st.next += rounded as u64 + GRANULE as u64; // a gap: adjacent regions never touch
            base
        };
        let Some(backing) = Backing::new(rounded) else {
            lock(&self.state).used -= rounded;
            return Err(Error::OutOfMemory {
                device: self.device,
                requested: bytes,
                free: self.info().0,
                total: self.capacity,
                pending: 0,
            });
        };
        self.insert(base, bytes, Storage::Device(backing));
        Ok(base)
    }

    fn oom(&self, bytes: usize, used: usize) -> Error {
        Error::OutOfMemory {
            device: self.device,
            requested: bytes,
            free: self.capacity.saturating_sub(used),
            total: self.capacity,
            pending: 0,
        }
    }

    fn insert(&self, base: DevicePtr, len: usize, storage: Storage) {
        let region = Arc::new(Region::new(base, len, storage, false));
        write(&self.table).insert(base, region);
    }

    /// Frees an allocation made by [`alloc`](Self::alloc). Queued work that resolved the region
    /// before the free keeps its storage alive until it finishes.
    pub(crate) fn free(&self, ptr: DevicePtr) -> Result<()> {
        let mut table = write(&self.table);
        match table.get(&ptr) {
            Some(r) if matches!(r.storage, Storage::Device(_)) => {
                let len = r.len;
                table.remove(&ptr);
                drop(table);
                lock(&self.state).used -= Self::rounded(len);
                // Closing the shared-memory object: no process can open the handle any more;
                // openers' mappings stay valid until they close them.
                lock(&self.exported).remove(&ptr);
                Ok(())
            }
            _ => Err(Error::InvalidAddress {
                ptr,
                len: 0,
                reason: format!(
                    "not the start of a live allocation on device {} (double free, or a pointer from elsewhere)",
                    self.device
                ),
            }),
        }
    }

    /// Maps `len` bytes of host memory at `host` into the address space; returns its device address.
    pub(crate) fn map_host(&self, host: *mut u8, len: usize) -> DevicePtr {
        let base = {
            let mut st = lock(&self.state);
            let base = st.next;
            st.next += Self::rounded(len.max(1)) as u64 + GRANULE as u64;
            base
        };
        self.insert(base, len, Storage::Host(host));
        base
    }

    /// Removes a host mapping made by [`map_host`](Self::map_host).
    pub(crate) fn unmap_host(&self, ptr: DevicePtr) {
        let mut table = write(&self.table);
        if matches!(table.get(&ptr).map(|r| &r.storage), Some(Storage::Host(_))) {
            table.remove(&ptr);
        }
    }

    /// Makes the allocation starting at `ptr` shareable with other processes (once) and
    /// describes its shared-memory object.
    ///
    /// Its bytes are copied into the object while the table lock keeps new work from resolving
    /// it, and only when no access holds it: `Ok(None)` says one does (queued or running work, a
    /// synchronous copy between resolving and finishing) — let it finish and try again.
    pub(crate) fn export(&self, ptr: DevicePtr) -> Result<Option<HandleInfo>> {
        let mut exported = lock(&self.exported);
        let mut table = write(&self.table);
        let not_allocation = || Error::InvalidAddress {
            ptr,
            len: 0,
            reason: format!(
                "not the start of a live device allocation on device {}: only whole allocations can be exported",
                self.device
            ),
        };
        let region = table.get(&ptr).map(Arc::clone).ok_or_else(not_allocation)?;
        if let Some(obj) = exported.get(&ptr) {
            return Ok(Some(obj.info(region.len)));
        }
        // Moving the bytes into the shared object must not race an access: every access holds
        // the region (resolved ranges, registered users) from before it touches memory until
        // after, and under the write lock nobody can take a new hold — so with no holder but the
        // table and us, nobody is between resolving and finishing an access. Otherwise the
        // caller waits and tries again (a write landing in the old storage after the copy would
        // be lost).
        if Arc::strong_count(&region) > 2 {
            return Ok(None);
        }
        let backing = match &region.storage {
            Storage::Device(backing) => backing,
            Storage::Imported(_) => {
                return Err(Error::InvalidAddress {
                    ptr,
                    len: 0,
                    reason: "memory opened from another process's IPC handle cannot be exported again (CUDA refuses it too)".into(),
                });
            }
            Storage::Host(_) => return Err(not_allocation()),
        };
        let obj = ShmObject::create(region.len)?;
        // SAFETY: the backing holds at least `region.len` bytes; no access holds the region
        // and the table write lock stops new ones from resolving it (above).
        unsafe { obj.fill_from(backing.as_ptr(), region.len) }?;
        match backing.kind {
            BackingKind::Mapped(_) => {
                // Same host range, now shared: resolved ranges stay valid. The backing's own
                // `munmap` on free unmaps the shared mapping (same range, page-rounded).
                // SAFETY: the backing is an anonymous mapping of `page_round(len)` bytes that the
                // region owns; its contents were copied into the object just above.
                unsafe { obj.map_over(backing.as_ptr()) }?;
            }
            BackingKind::Heap(_) => {
                let p = obj.map()?;
                // SAFETY: `p` is a fresh shared mapping of `obj.len()` bytes owned by the backing.
                let shared = unsafe { Backing::adopt_mapping(p, obj.len()) };
                table.insert(
                    ptr,
                    Arc::new(Region::new(ptr, region.len, Storage::Device(shared), true)),
                );
            }
        }
        let info = obj.info(region.len);
        exported.insert(ptr, obj);
        Ok(Some(info))
    }

    /// Adds another process's shared memory (a mapping of `map_len` bytes at `host`, of which
    /// `len` are the allocation) to the address space; returns its device address.
    ///
    /// # Safety
    /// `[host, host + map_len)` must be a shared mapping that only the new region unmaps.
    pub(crate) unsafe fn map_imported(
        &self,
        host: *mut u8,
        map_len: usize,
        len: usize,
    ) -> DevicePtr {
        let base = {
            let mut st = lock(&self.state);
            let base = st.next;
            st.next += Self::rounded(len.max(1)) as u64 + GRANULE as u64;
            base
        };
        // SAFETY: forwarded from the caller.
        let backing = unsafe { Backing::adopt_mapping(host, map_len) };
        self.insert(base, len, Storage::Imported(backing));
        base
    }

    /// Removes a region added by [`map_imported`](Self::map_imported). Queued work that resolved
    /// it keeps the mapping alive until it finishes.
    pub(crate) fn unmap_imported(&self, ptr: DevicePtr) -> Result<()> {
        let mut table = write(&self.table);
        if matches!(
            table.get(&ptr).map(|r| &r.storage),
            Some(Storage::Imported(_))
        ) {
            table.remove(&ptr);
            Ok(())
        } else {
            Err(Error::InvalidAddress {
                ptr,
                len: 0,
                reason: format!(
                    "not memory opened from an IPC handle on device {}",
                    self.device
                ),
            })
        }
    }

    /// The device allocation (owned, or opened from another process) that contains `ptr`: its
    /// base and length. Host memory mapped into the address space is not one.
    pub(crate) fn allocation_of(&self, ptr: DevicePtr) -> Result<(DevicePtr, usize)> {
        let table = read(&self.table);
        let region = table
            .range(..=ptr)
            .next_back()
            .map(|(_, r)| r)
            .filter(|r| ptr < r.base + r.len as u64);
        match region.map(|r| (r, &r.storage)) {
            Some((r, Storage::Device(_) | Storage::Imported(_))) => Ok((r.base, r.len)),
            Some((r, Storage::Host(_))) => Err(Error::InvalidAddress {
                ptr,
                len: 0,
                reason: format!(
                    "host memory mapped into device {} (the {}-byte range at 0x{:x}), not a device allocation",
                    self.device, r.len, r.base
                ),
            }),
            None => Err(Error::InvalidAddress {
                ptr,
                len: 0,
                reason: format!("no live allocation contains it on device {}", self.device),
            }),
        }
    }

    /// Resolves `[ptr, ptr + len)` to storage, checking that it lies inside one live region.
    pub(crate) fn resolve(&self, ptr: DevicePtr, len: usize) -> Result<Resolved> {
        let table = read(&self.table);
        let region = table.range(..=ptr).next_back().map(|(_, r)| r);
        match region {
            Some(r)
                if ptr
                    .checked_add(len as u64)
                    .is_some_and(|end| end <= r.base + r.len as u64) =>
            {
                Ok(Resolved {
                    region: Arc::clone(r),
                    ptr,
                })
            }
            Some(r) if ptr < r.base + r.len as u64 => Err(Error::InvalidAddress {
                ptr,
                len,
                reason: format!(
                    "runs past the end of the {}-byte allocation at 0x{:x} on device {}",
                    r.len, r.base, self.device
                ),
            }),
            _ => Err(Error::InvalidAddress {
                ptr,
                len,
                reason: format!("no live allocation there on device {}", self.device),
            }),
        }
    }
}

/// The device that owns a sim device pointer, if it is one.
pub(crate) fn device_of(ptr: DevicePtr) -> Option<usize> {
    (ptr >= ADDRESS_BASE).then(|| ((ptr - ADDRESS_BASE) >> DEVICE_SHIFT) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_never_host_addresses_and_never_reused() {
        let space = AddressSpace::new(1, 1 << 20);
        let a = space.alloc(10).unwrap();
        assert!(a >= ADDRESS_BASE);
        assert_eq!(device_of(a), Some(1));
        space.free(a).unwrap();
        let b = space.alloc(10).unwrap();
        assert_ne!(a, b);
        assert!(space.resolve(a, 1).is_err(), "use after free is detected");
    }

    #[test]
    fn resolution_is_bounds_checked() {
        let space = AddressSpace::new(0, 1 << 20);
        let a = space.alloc(100).unwrap();
        assert!(space.resolve(a, 100).is_ok());
        assert!(space.resolve(a + 99, 1).is_ok());
        let past = space.resolve(a + 50, 51).err().unwrap();
        assert!(
            past.to_string()
                .contains("runs past the end of the 100-byte allocation")
        );
        assert!(space.resolve(a + 100, 1).is_err());
        assert!(space.resolve(a - 1, 1).is_err());
    }

    #[test]
    fn capacity_is_enforced_and_returned() {
        let space = AddressSpace::new(0, 1024);
        let a = space.alloc(1000).unwrap();
        assert_eq!(space.info(), (0, 1024));
        assert!(matches!(
            space.alloc(1),
            Err(Error::OutOfMemory {
                requested: 1,
                free: 0,
                ..
            })
        ));
        space.free(a).unwrap();
        assert_eq!(space.info(), (1024, 1024));
        assert!(space.free(a).is_err(), "double free is refused");
        assert!(space.alloc(0).is_err());
    }
}
