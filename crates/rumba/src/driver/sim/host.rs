//! Page-locked host memory for the simulated device: allocation, registration of existing memory,
//! and the registry that tells whether a host range is pinned (which makes copies from it truly
//! asynchronous, as on CUDA).
//!
//! Page-locking is real: `mlock(2)` where the OS permits. When it refuses (an `RLIMIT_MEMLOCK` too
//! small, or no permission), the allocation or registration still succeeds — the memory is then
//! ordinary pageable memory that rumba nevertheless treats as pinned for ordering purposes — and
//! the refusal is recorded and reported by [`HostRegistry::page_locking`] and `rumba detect`.
//!
//! `mlock` does not stack: unlocking a range unlocks its pages even if another registration covers
//! them too. On unregistration the registry therefore re-locks every other live range that shares a
//! page with the removed one.
//!
//! This module touches the host memory it allocates or is given, and the device address spaces
//! (only to add and remove mappings of mapped memory).

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::collections::BTreeMap;
use std::sync::RwLock;

use super::memory::{AddressSpace, map_anonymous};
use crate::driver::{DevicePtr, HostAllocFlags, PageLocking};
use crate::error::{Error, HostMemoryError, Result};
use crate::sync::{lock, read, write};

/// The host page size.
pub(crate) fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 { p as usize } else { 4096 }
}

/// Tries to lock one page to learn whether this process may page-lock memory at all.
pub(crate) fn probe_page_locking() -> PageLocking {
    let page = page_size();
    let Ok(layout) = Layout::from_size_align(page, page) else {
        return PageLocking::Refused("cannot form a page layout".into());
    };
    // SAFETY: non-zero size.
    let p = unsafe { alloc_zeroed(layout) };
    if p.is_null() {
        return PageLocking::Refused("cannot allocate a probe page".into());
    }
    let res = mlock(p, page);
    if res.is_ok() {
        // SAFETY: the page was locked just above.
        unsafe { libc::munlock(p.cast(), page) };
    }
    // SAFETY: allocated above with this layout.
    unsafe { dealloc(p, layout) };
    match res {
        Ok(()) => PageLocking::Available,
        Err(why) => PageLocking::Refused(why),
    }
}

pub(crate) fn mlock(p: *mut u8, len: usize) -> std::result::Result<(), String> {
    // SAFETY: mlock only changes residency of the pages; it reads no memory. It fails cleanly for
    // ranges that are not mapped.
    let rc = unsafe { libc::mlock(p.cast(), len) };
    if rc == 0 {
        Ok(())
    } else {
        let err = std::io::Error::last_os_error();
        let mut why = format!("mlock refused: {err}");
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct we pass.
        if unsafe { libc::getrlimit(libc::RLIMIT_MEMLOCK, &mut lim) } == 0 {
            why.push_str(&format!(" (RLIMIT_MEMLOCK is {} bytes)", lim.rlim_cur));
        }
        Err(why)
    }
}

/// One pinned host range.
struct Range {
    len: usize,
    /// `Some(mapped length)` for memory this registry allocated (and unmaps); `None` for
    /// registered memory.
    owned: Option<usize>,
    locked: bool,
    /// Why the range is not page-locked (`None` when it is, or was not meant to be).
    refusal: Option<String>,
    flags: HostAllocFlags,
    /// Device mappings `(device, device address)` of mapped memory.
    mappings: Vec<(usize, DevicePtr)>,
}

/// All page-locked host ranges of one driver.
pub(crate) struct HostRegistry {
    ranges: RwLock<BTreeMap<usize, Range>>,
    page_locking: PageLocking,
    /// Serialises lock/unlock sequences so that re-locking after an unlock is never interleaved.
    mlock_order: std::sync::Mutex<()>,
}

impl HostRegistry {
    pub(crate) fn new() -> Self {
        HostRegistry {
            ranges: RwLock::new(BTreeMap::new()),
            page_locking: probe_page_locking(),
            mlock_order: std::sync::Mutex::new(()),
        }
    }

    pub(crate) fn page_locking(&self) -> &PageLocking {
        &self.page_locking
    }

    /// Locks `[p, p + len)` if the OS lets us; otherwise says why not.
    fn try_lock(&self, p: *mut u8, len: usize) -> std::result::Result<(), String> {
        match &self.page_locking {
            PageLocking::Refused(why) => Err(why.clone()),
            PageLocking::Available if len == 0 => Ok(()),
            PageLocking::Available => mlock(p, len),
        }
    }

    /// Allocates `bytes` of zeroed, page-aligned, page-locked memory, mapped into `spaces` selected
    /// by the flags (`mapped`: the allocating device, or with `portable` every device).
    pub(crate) fn alloc(
        &self,
        bytes: usize,
        flags: HostAllocFlags,
        device: usize,
        spaces: &[&AddressSpace],
    ) -> Result<*mut u8> {
        self.alloc_with(bytes, flags, device, spaces, true)
    }

    /// [`alloc`](Self::alloc), page-locking the memory only when `lock` is set (managed memory is
    /// device-addressable host memory that is not locked).
    pub(crate) fn alloc_with(
        &self,
        bytes: usize,
        flags: HostAllocFlags,
        device: usize,
        spaces: &[&AddressSpace],
        lock_pages: bool,
    ) -> Result<*mut u8> {
        let page = page_size();
        // A request within a page of `usize::MAX` cannot be rounded up: out of memory, not a panic.
        let size = bytes.max(1).div_ceil(page).checked_mul(page);
        let Some((p, size)) = size.and_then(|size| Some((map_anonymous(size)?, size))) else {
            return Err(Error::OutOfMemory {
                device,
                requested: bytes,
                free: 0,
                total: 0,
                pending: 0,
            });
        };
        self.drop_stale(p as usize, size, spaces);
        let outcome = if lock_pages {
            let _order = lock(&self.mlock_order);
            self.try_lock(p, size)
        } else {
            Err("managed memory is not page-locked".to_string())
        };
        let mappings = map(p, bytes, flags, device, spaces);
        self.write().insert(
            p as usize,
            Range {
                len: bytes,
                owned: Some(size),
                locked: outcome.is_ok() && lock_pages,
                refusal: outcome.err(),
                flags,
                mappings,
            },
        );
        Ok(p)
    }

    /// Memory the OS just handed out, or that a caller registers as its own, cannot be
    /// registered by a live guard: a registration that overlaps it is stale (a guard leaked over
    /// memory that was freed since). Drops such registrations, so that they neither shadow the
    /// new range nor refuse it.
    fn drop_stale(&self, start: usize, len: usize, spaces: &[&AddressSpace]) {
        let stale: Vec<usize> = overlapping(&self.read(), start, len)
            .filter(|(_, r)| r.owned.is_none())
            .map(|(s, _)| s)
            .collect();
        for s in stale {
            tracing::debug!("dropping a stale registration at 0x{s:x} (its guard was leaked)");
            let _ = self.remove(s as *mut u8, false, spaces);
        }
    }

    /// Page-locks an existing range.
    ///
    /// # Safety
    /// `p` must be valid for `len` bytes until [`unregister`](Self::unregister).
    pub(crate) unsafe fn register(
        &self,
        p: *mut u8,
        len: usize,
        flags: HostAllocFlags,
        device: usize,
        spaces: &[&AddressSpace],
    ) -> Result<()> {
        if p.is_null() {
            return Err(HostMemoryError::Null.into());
        }
        let start = p as usize;
        // The caller owns these bytes now (the safety contract), so a registration overlapping
        // them is stale (a guard leaked over memory that was freed since) and goes; memory this
        // registry allocated is refused.
        self.drop_stale(start, len.max(1), spaces);
        {
            let ranges = self.read();
            if let Some((s, r)) = overlapping(&ranges, start, len.max(1)).next() {
                return Err(HostMemoryError::Overlap {
                    start,
                    len,
                    existing: Some((s, r.owned.unwrap_or(r.len))),
                }
                .into());
            }
        }
        let _order = lock(&self.mlock_order);
        let outcome = self.try_lock(p, len);
        let mappings = map(p, len, flags, device, spaces);
        self.write().insert(
            start,
            Range {
                len,
                owned: None,
                locked: outcome.is_ok() && len > 0,
                refusal: outcome.err(),
                flags,
                mappings,
            },
        );
        Ok(())
    }

    /// Unpins memory registered with [`register`](Self::register), immediately.
    pub(crate) fn unregister(&self, p: *mut u8, spaces: &[&AddressSpace]) -> Result<()> {
        self.remove(p, false, spaces)
    }

    /// Frees memory from [`alloc`](Self::alloc).
    pub(crate) fn free(&self, p: *mut u8, spaces: &[&AddressSpace]) -> Result<()> {
        self.remove(p, true, spaces)
    }

    fn remove(&self, p: *mut u8, owned: bool, spaces: &[&AddressSpace]) -> Result<()> {
        let _order = lock(&self.mlock_order);
        let mut ranges = self.write();
        let range = match ranges.get(&(p as usize)) {
            Some(r) if r.owned.is_some() == owned => ranges.remove(&(p as usize)),
            _ => None,
        };
        let Some(range) = range else {
            let ptr = p as usize;
            return Err(if owned {
                HostMemoryError::NotAllocated {
                    ptr,
                    memory: "pinned",
                }
            } else {
                HostMemoryError::NotRegistered { ptr }
            }
            .into());
        };
        for (dev, dptr) in &range.mappings {
            spaces[*dev].unmap_host(*dptr);
        }
        let span = range.owned.unwrap_or(range.len);
        if range.locked {
            // SAFETY: this range was locked by us; munlock reads no memory.
            unsafe { libc::munlock(p.cast(), span) };
            // Re-lock neighbours that share a page with the range we just unlocked.
            let page = page_size();
            let lo = (p as usize) / page * page;
            let hi = (p as usize + span).div_ceil(page) * page;
            let neighbours: Vec<(usize, usize)> = overlapping(&ranges, lo, hi - lo)
                .filter(|(_, r)| r.locked)
                .map(|(s, r)| (s, r.owned.unwrap_or(r.len)))
                .collect();
            for (s, len) in neighbours {
                let _ = mlock(s as *mut u8, len);
            }
        }
        drop(ranges);
        if let Some(len) = range.owned {
            // SAFETY: mapped in `alloc` with this length and removed from the registry above.
            unsafe { libc::munmap(p.cast(), len) };
        }
        Ok(())
    }

    /// True if `[p, p + len)` lies inside one pinned range.
    pub(crate) fn contains(&self, p: *const u8, len: usize) -> bool {
        let ranges = self.read();
        let start = p as usize;
        ranges.range(..=start).next_back().is_some_and(|(s, r)| {
            start
                .checked_add(len)
                .is_some_and(|end| end <= s + r.len.max(1))
        })
    }

    /// Whether the pinned range containing `p` is really page-locked (`None`: not pinned).
    pub(crate) fn is_locked(&self, p: *const u8) -> Option<bool> {
        let ranges = self.read();
        let start = p as usize;
        ranges
            .range(..=start)
            .next_back()
            .filter(|(s, r)| start < *s + r.len.max(1))
            .map(|(_, r)| r.locked)
    }

    /// Whether the pinned range containing `p` is really page-locked, and if not, why
    /// (`None`: not pinned).
    pub(crate) fn locking(&self, p: *const u8) -> Option<PageLocking> {
        let ranges = self.read();
        let start = p as usize;
        ranges
            .range(..=start)
            .next_back()
            .filter(|(s, r)| start < *s + r.len.max(1))
            .map(|(_, r)| match &r.refusal {
                None => PageLocking::Available,
                Some(why) => PageLocking::Refused(why.clone()),
            })
    }

    /// The device address of mapped host memory at `p` on `device`.
    pub(crate) fn device_pointer(&self, p: *mut u8, device: usize) -> Result<DevicePtr> {
        let ranges = self.read();
        let start = p as usize;
        let Some((s, r)) = ranges
            .range(..=start)
            .next_back()
            .filter(|(s, r)| start < *s + r.len.max(1))
        else {
            return Err(HostMemoryError::NotPinned { ptr: start }.into());
        };
        let Some((_, base)) = r.mappings.iter().find(|(d, _)| *d == device) else {
            let reason = if !r.flags.mapped {
                "it was pinned without `mapped`".to_string()
            } else {
                format!(
                    "it is not portable and was mapped for device {}",
                    r.mappings.first().map_or(0, |m| m.0)
                )
            };
            return Err(HostMemoryError::NotMapped {
                ptr: start,
                device,
                reason,
            }
            .into());
        };
        Ok(base + (start - s) as u64)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<usize, Range>> {
        read(&self.ranges)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<usize, Range>> {
        write(&self.ranges)
    }
}

impl Drop for HostRegistry {
    fn drop(&mut self) {
        let ranges = std::mem::take(&mut *self.write());
        for (start, r) in ranges {
            if let Some(len) = r.owned {
                // SAFETY: still owned by us; nothing else can reach it once the driver is gone.
                unsafe { libc::munmap(start as *mut libc::c_void, len) };
            }
        }
    }
}

fn overlapping(
    ranges: &BTreeMap<usize, Range>,
    start: usize,
    len: usize,
) -> impl Iterator<Item = (usize, &Range)> {
    let end = start + len;
    ranges
        .range(..end)
        .filter(move |(s, r)| **s + r.owned.unwrap_or(r.len).max(1) > start)
        .map(|(s, r)| (*s, r))
}

fn map(
    p: *mut u8,
    len: usize,
    flags: HostAllocFlags,
    device: usize,
    spaces: &[&AddressSpace],
) -> Vec<(usize, DevicePtr)> {
    if !flags.mapped {
        return Vec::new();
    }
    let devices: Vec<usize> = if flags.portable {
        (0..spaces.len()).collect()
    } else {
        vec![device]
    };
    devices
        .into_iter()
        .map(|d| (d, spaces[d].map_host(p, len)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_ranges_are_found_and_mapped_per_flags() {
        let owned = [AddressSpace::new(0, 1 << 20), AddressSpace::new(1, 1 << 20)];
        let spaces = [&owned[0], &owned[1]];
        let reg = HostRegistry::new();
        let plain = reg
            .alloc(100, HostAllocFlags::default(), 0, &spaces)
            .unwrap();
        assert!(reg.contains(plain, 100));
        assert!(reg.contains(unsafe { plain.add(50) }, 50));
        assert!(!reg.contains(plain, 101));
        assert!(reg.device_pointer(plain, 0).is_err());

        let mapped = HostAllocFlags {
            mapped: true,
            ..Default::default()
        };
        let m = reg.alloc(64, mapped, 1, &spaces).unwrap();
        let d = reg.device_pointer(unsafe { m.add(8) }, 1).unwrap();
        assert!(spaces[1].resolve(d, 56).is_ok());
        assert!(
            reg.device_pointer(m, 0)
                .unwrap_err()
                .to_string()
                .contains("not portable")
        );

        let portable = HostAllocFlags {
            mapped: true,
            portable: true,
            ..Default::default()
        };
        let p = reg.alloc(64, portable, 0, &spaces).unwrap();
        assert!(reg.device_pointer(p, 0).is_ok() && reg.device_pointer(p, 1).is_ok());

        reg.free(m, &spaces).unwrap();
        assert!(
            spaces[1].resolve(d, 1).is_err(),
            "mapping removed with the memory"
        );
        assert!(reg.free(m, &spaces).is_err(), "double free refused");
        reg.free(plain, &spaces).unwrap();
        reg.free(p, &spaces).unwrap();
    }

    #[test]
    fn registration_is_exclusive_and_undone_immediately() {
        let owned = AddressSpace::new(0, 1 << 20);
        let spaces = [&owned];
        let reg = HostRegistry::new();
        let mut buf = vec![0u8; 10_000];
        let p = buf.as_mut_ptr();
        unsafe { reg.register(p, buf.len(), HostAllocFlags::default(), 0, &spaces) }.unwrap();
        assert!(reg.contains(p, 10_000));
        assert!(
            reg.free(p, &spaces).is_err(),
            "registered memory is not freed by the registry"
        );
        // The caller owns registered bytes: registering them again means the first registrant
        // is gone (a leaked guard), so the new registration replaces the stale one.
        unsafe { reg.register(p, 10, HostAllocFlags::default(), 0, &spaces) }.unwrap();
        assert!(reg.contains(p, 10) && !reg.contains(p, 11));
        reg.unregister(p, &spaces).unwrap();
        assert!(!reg.contains(p, 1));
        // Memory the registry allocated is never replaced by a registration.
        let a = reg
            .alloc(100, HostAllocFlags::default(), 0, &spaces)
            .unwrap();
        let again = unsafe { reg.register(a, 10, HostAllocFlags::default(), 0, &spaces) };
        assert!(matches!(
            again,
            Err(Error::HostMemory(HostMemoryError::Overlap { len: 10, .. }))
        ));
        reg.free(a, &spaces).unwrap();
    }

    #[test]
    fn sizes_near_usize_max_are_errors_not_overflows() {
        let owned = AddressSpace::new(0, 1 << 20);
        let spaces = [&owned];
        let reg = HostRegistry::new();
        for bytes in [usize::MAX, usize::MAX - 1, usize::MAX - page_size() + 1] {
            let err = reg
                .alloc(bytes, HostAllocFlags::default(), 0, &spaces)
                .unwrap_err();
            assert!(err.is_out_of_memory(), "{err}");
            assert!(
                reg.alloc_with(bytes, HostAllocFlags::default(), 0, &spaces, false)
                    .is_err()
            );
        }
        let p = reg
            .alloc(16, HostAllocFlags::default(), 0, &spaces)
            .unwrap();
        assert!(
            !reg.contains(p, usize::MAX),
            "a length that wraps is not inside"
        );
        assert!(!reg.contains(unsafe { p.add(8) }, usize::MAX - 4));
        reg.free(p, &spaces).unwrap();
    }
}
