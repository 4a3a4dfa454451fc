//! What the OpenCL backend knows about memory: every shared-virtual-memory allocation (device
//! memory and device-addressable host memory), every pinned host range, and how many bytes each
//! device has handed out.
//!
//! OpenCL has no "free memory" query and SVM pointers carry no bounds, so the backend keeps its
//! own table. It serves three purposes:
//! - **accounting**: `mem_info` reports `CL_DEVICE_GLOBAL_MEM_SIZE` as the total and the total
//!   minus rumba's live device allocations as free; an allocation that would exceed the total
//!   is [`Error::OutOfMemory`] (so the deferred-deallocation flush-and-retry works as on CUDA),
//!   and one larger than `CL_DEVICE_MAX_MEM_ALLOC_SIZE` is refused with that limit named;
//! - **bounds**: every device range an operation touches is checked against the table when the
//!   operation is queued. An SVM copy to a wild address would corrupt or crash the process on a
//!   CPU device (PoCL) — here it is [`Error::InvalidAddress`] instead, before anything is queued;
//! - **host memory**: which host ranges are pinned (and really page-locked or not), and which are
//!   device-addressable (fine-grained SVM, or registered memory on a device with fine-grained
//!   system SVM).
//!
//! This module touches only its table.

use std::collections::BTreeMap;
use std::sync::{Mutex, RwLock};

use crate::driver::DevicePtr;
use crate::error::{Error, HostMemoryError, Result};
use crate::sync::{lock, read, write};

/// What one range is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Coarse-grained SVM from `clSVMAlloc`: device memory of `device`.
    Device {
        /// The device whose accounting it counts against.
        device: usize,
    },
    /// Fine-grained SVM from `clSVMAlloc`, used as host memory: pinned, mapped or managed.
    HostSvm {
        /// Allocated by `mem_alloc_managed` (freed by `mem_free_managed`).
        managed: bool,
        /// Allocated with `mapped` (or managed): the device may address it. Pinned memory
        /// without `mapped` is physically addressable too, but refused as on CUDA, so that a
        /// program behaves the same on every backend.
        mapped: bool,
    },
    /// Page-aligned host memory from `mmap` (pinned memory on a device without fine-grained
    /// SVM): the device cannot address it; copies from it are still queued asynchronously.
    HostPages {
        /// Bytes mapped (to unmap).
        mapped: usize,
    },
    /// Existing host memory registered by the program.
    Registered {
        /// True on a device with fine-grained system SVM (any host address is a device address).
        device_addressable: bool,
    },
}

impl Kind {
    fn device_addressable(self) -> bool {
        match self {
            Kind::Device { .. } => true,
            Kind::HostSvm { mapped, .. } => mapped,
            Kind::HostPages { .. } => false,
            Kind::Registered { device_addressable } => device_addressable,
        }
    }

    fn pinned_host(self) -> bool {
        !matches!(self, Kind::Device { .. })
    }
}

/// One range of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Range {
    /// Length in bytes (> 0).
    pub(crate) len: usize,
    /// What it is.
    pub(crate) kind: Kind,
    /// For pinned host memory: why it is not page-locked (`None` when it is).
    pub(crate) not_locked: Option<String>,
}

/// The table of one driver.
pub(crate) struct Table {
    ranges: RwLock<BTreeMap<usize, Range>>,
    /// Bytes of device memory handed out, per device.
    used: Mutex<Vec<usize>>,
}

impl Table {
    pub(crate) fn new(devices: usize) -> Table {
        Table {
            ranges: RwLock::new(BTreeMap::new()),
            used: Mutex::new(vec![0; devices]),
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<usize, Range>> {
        read(&self.ranges)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<usize, Range>> {
        write(&self.ranges)
    }

    /// Reserves `bytes` of `device`'s memory against `total`; the caller allocates next and
    /// calls [`unreserve`](Self::unreserve) if that fails.
    pub(crate) fn reserve(&self, device: usize, bytes: usize, total: usize) -> Result<()> {
        let mut used = lock(&self.used);
        let slot = &mut used[device];
        if slot.saturating_add(bytes) > total {
            return Err(Error::OutOfMemory {
                device,
                requested: bytes,
                free: total.saturating_sub(*slot),
                total,
                pending: 0,
            });
        }
        *slot += bytes;
        Ok(())
    }

    /// Gives back a reservation.
    pub(crate) fn unreserve(&self, device: usize, bytes: usize) {
        let mut used = lock(&self.used);
        used[device] = used[device].saturating_sub(bytes);
    }

    /// Bytes of device memory handed out on `device`.
    pub(crate) fn used(&self, device: usize) -> usize {
        lock(&self.used)[device]
    }

    /// Records a range; an overlap with a recorded range is an error.
    pub(crate) fn insert(&self, start: usize, range: Range) -> Result<()> {
        let mut ranges = self.write();
        let end = start
            .checked_add(range.len.max(1))
            .ok_or(HostMemoryError::Wraps {
                start,
                len: range.len,
            })?;
        if let Some((s, r)) = overlapping(&ranges, start, end).next() {
            return Err(HostMemoryError::Overlap {
                start,
                len: range.len,
                existing: Some((*s, r.len)),
            }
            .into());
        }
        ranges.insert(start, range);
        Ok(())
    }

    /// Records a range of memory that is the caller's now: just handed out by an allocator, or
    /// registered by its owner. No live registration can overlap it, so one that does is stale
    /// (a guard leaked over memory that was freed since): it is dropped instead of refusing the
    /// new range. Overlaps with anything else are refused as by [`insert`](Self::insert).
    pub(crate) fn insert_fresh(&self, start: usize, range: Range) -> Result<()> {
        {
            let mut ranges = self.write();
            let end = start.saturating_add(range.len.max(1));
            let stale: Vec<usize> = overlapping(&ranges, start, end)
                .filter(|(_, r)| matches!(r.kind, Kind::Registered { .. }))
                .map(|(s, _)| *s)
                .collect();
            for s in stale {
                tracing::debug!("dropping a stale registration at 0x{s:x} (its guard was leaked)");
                ranges.remove(&s);
            }
        }
        self.insert(start, range)
    }

    /// True when `[start, start + len)` overlaps memory the backend allocated (anything but a
    /// registration of the program's own memory).
    pub(crate) fn overlaps_allocated(&self, start: usize, len: usize) -> bool {
        let ranges = self.read();
        let end = start.saturating_add(len.max(1));
        overlapping(&ranges, start, end).any(|(_, r)| !matches!(r.kind, Kind::Registered { .. }))
    }

    /// Removes the range that starts at `start` if `accept` agrees, returning it.
    pub(crate) fn remove(&self, start: usize, accept: impl Fn(&Range) -> bool) -> Option<Range> {
        let mut ranges = self.write();
        match ranges.get(&start) {
            Some(r) if accept(r) => ranges.remove(&start),
            _ => None,
        }
    }

    /// The range containing `addr`, with its start.
    pub(crate) fn find(&self, addr: usize) -> Option<(usize, Range)> {
        self.read()
            .range(..=addr)
            .next_back()
            .filter(|(s, r)| addr < **s + r.len.max(1))
            .map(|(s, r)| (*s, r.clone()))
    }

    /// `Ok` when `[ptr, ptr + len)` lies inside one device-addressable range.
    pub(crate) fn check_device_range(&self, ptr: DevicePtr, len: usize) -> Result<()> {
        let bad = |reason: &str| Error::InvalidAddress {
            ptr,
            len,
            reason: reason.to_string(),
        };
        let start = usize::try_from(ptr).map_err(|_| bad("beyond the address space"))?;
        let end = start
            .checked_add(len)
            .ok_or_else(|| bad("the range wraps around the address space"))?;
        match self.find(start) {
            Some((s, r)) if r.kind.device_addressable() => {
                if end <= s + r.len {
                    Ok(())
                } else {
                    Err(bad(&format!(
                        "it runs {} bytes past the end of its allocation (0x{s:x}, +{} bytes)",
                        end - (s + r.len),
                        r.len
                    )))
                }
            }
            Some(_) => Err(bad(
                "host memory that this OpenCL device cannot address (pinned without `mapped`)",
            )),
            None => Err(bad("not inside any live allocation of the OpenCL backend")),
        }
    }

    /// True when `[ptr, ptr + len)` lies inside one pinned host range.
    pub(crate) fn is_pinned_host(&self, ptr: usize, len: usize) -> bool {
        self.find(ptr).is_some_and(|(s, r)| {
            r.kind.pinned_host() && ptr.checked_add(len).is_some_and(|e| e <= s + r.len.max(1))
        })
    }

    /// Every range (for the driver's drop).
    pub(crate) fn drain(&self) -> Vec<(usize, Range)> {
        std::mem::take(&mut *self.write()).into_iter().collect()
    }
}

/// The recorded ranges that overlap `[start, end)`, the last-starting first (recorded ranges do
/// not overlap each other, so the first one that ends before `start` ends the search).
fn overlapping(
    ranges: &BTreeMap<usize, Range>,
    start: usize,
    end: usize,
) -> impl Iterator<Item = (&usize, &Range)> {
    ranges
        .range(..end)
        .rev()
        .take_while(move |(s, r)| **s + r.len.max(1) > start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(len: usize, kind: Kind) -> Range {
        Range {
            len,
            kind,
            not_locked: None,
        }
    }

    #[test]
    fn device_ranges_are_bounds_checked_with_reasons() {
        let t = Table::new(1);
        t.insert(0x1000, range(0x100, Kind::Device { device: 0 }))
            .unwrap();
        t.insert(0x4000, range(0x100, Kind::HostPages { mapped: 4096 }))
            .unwrap();
        assert!(t.check_device_range(0x1000, 0x100).is_ok());
        assert!(t.check_device_range(0x10f0, 0x10).is_ok());
        let past = t.check_device_range(0x10f0, 0x20).unwrap_err();
        assert!(past.to_string().contains("16 bytes past the end"), "{past}");
        let host = t.check_device_range(0x4000, 8).unwrap_err();
        assert!(host.to_string().contains("cannot address"), "{host}");
        assert!(matches!(
            t.check_device_range(0x9000, 1),
            Err(Error::InvalidAddress { ptr: 0x9000, .. })
        ));
        assert!(t.check_device_range(u64::MAX, 2).is_err());
        assert!(t.is_pinned_host(0x4000, 0x100));
        assert!(!t.is_pinned_host(0x1000, 1));
    }

    #[test]
    fn overlaps_are_refused_and_removal_checks_the_kind() {
        let t = Table::new(1);
        let reg = Kind::Registered {
            device_addressable: false,
        };
        t.insert(0x2000, range(0x100, reg)).unwrap();
        assert!(t.insert(0x20f0, range(0x100, reg)).is_err());
        assert!(t.insert(0x1f00, range(0x101, reg)).is_err());
        t.insert(0x2100, range(0x10, reg)).unwrap();
        assert!(
            t.remove(0x2000, |r| matches!(r.kind, Kind::Device { .. }))
                .is_none()
        );
        assert!(t.remove(0x2000, |_| true).is_some());
        assert!(t.find(0x2000).is_none());
    }

    #[test]
    fn fresh_ranges_replace_stale_registrations_only() {
        let t = Table::new(1);
        let reg = Kind::Registered {
            device_addressable: false,
        };
        t.insert(0x2000, range(0x100, reg)).unwrap();
        t.insert(0x3000, range(0x100, Kind::Device { device: 0 }))
            .unwrap();
        // Memory handed out again at 0x2040: the registration over it is stale and goes.
        t.insert_fresh(0x2040, range(0x100, Kind::Device { device: 0 }))
            .unwrap();
        assert!(t.find(0x2000).is_none());
        assert_eq!(t.find(0x2040).map(|(s, _)| s), Some(0x2040));
        // A live allocation is never replaced.
        assert!(t.insert_fresh(0x3080, range(0x10, reg)).is_err());
    }

    #[test]
    fn accounting_refuses_more_than_the_total() {
        let t = Table::new(2);
        t.reserve(1, 60, 100).unwrap();
        let e = t.reserve(1, 50, 100).unwrap_err();
        assert!(matches!(
            e,
            Error::OutOfMemory {
                device: 1,
                requested: 50,
                free: 40,
                total: 100,
                ..
            }
        ));
        t.unreserve(1, 60);
        assert_eq!(t.used(1), 0);
        assert_eq!(t.used(0), 0);
    }
}
