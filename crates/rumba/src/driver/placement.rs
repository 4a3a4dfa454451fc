//! Managed-memory placement: prefetching pages to a device or the host, advice on how memory is
//! used, and where pages live — the capability a driver offers through
//! [`Driver::placement`](super::Driver::placement).
//!
//! | backend | how |
//! |---------|-----|
//! | sim | a page table of each managed allocation ([`SIM_PAGE`]-byte pages): prefetches and accesses move pages and count the moves; data never moves (host and devices share the memory) |
//! | cuda | `cuMemPrefetchAsync` / `cuMemAdvise` (the `CUmemLocation` forms, which CUDA 13 makes the only ones); on a device without concurrent managed access the prefetch is waited for, so the host never touches pages in flight |
//! | opencl | none: [`Driver::placement`](super::Driver::placement) is `None`, and managed arrays take prefetches and advice as no-ops (their memory is fine-grained SVM, coherent wherever it is; `clEnqueueSVMMigrateMem` is not used yet) |
//!
//! Placement is a hint on every backend: it never changes values, and memory is usable wherever
//! it is.

use std::fmt;

use super::StreamHandle;
use crate::error::Result;

/// Bytes of a page of the simulator's managed-memory page table.
pub const SIM_PAGE: usize = 64 << 10;

/// Where managed memory lives.
///
/// ```
/// use rumba::driver::Location;
/// assert_eq!(Location::Device(1).to_string(), "device 1");
/// assert_eq!(Location::Host.to_string(), "host");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Location {
    /// Host memory.
    Host,
    /// The memory of a device (by ordinal).
    Device(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Host => f.write_str("host"),
            Location::Device(d) => write!(f, "device {d}"),
        }
    }
}

/// Advice on how managed memory is used (`cuMemAdvise`).
///
/// ```
/// use rumba::driver::{Advice, Location};
/// let a = Advice::PreferredLocation(Some(Location::Device(0)));
/// assert_ne!(a, Advice::ReadMostly(true));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Advice {
    /// Mostly read: readers get read-only copies instead of moving the pages (`false` unsets).
    ReadMostly(bool),
    /// Where the pages should live (`None` unsets): they are moved there when possible, and
    /// other accessors map them instead of moving them.
    PreferredLocation(Option<Location>),
    /// Keep the pages mapped for this device, wherever they are (`false` unsets): its accesses
    /// do not move them.
    AccessedBy(usize, bool),
}

/// Pages moved, in each direction.
///
/// ```
/// let m = rumba::driver::Migrations { to_host: 2, to_device: 3, bytes: 5 << 16 };
/// assert_eq!(m.pages(), 5);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Migrations {
    /// Pages moved to the host.
    pub to_host: u64,
    /// Pages moved to a device.
    pub to_device: u64,
    /// Bytes of the pages moved.
    pub bytes: u64,
}

impl Migrations {
    /// Pages moved in either direction.
    pub fn pages(&self) -> u64 {
        self.to_host + self.to_device
    }

    /// Adds `other`'s moves.
    pub fn add(&mut self, other: Migrations) {
        self.to_host += other.to_host;
        self.to_device += other.to_device;
        self.bytes += other.bytes;
    }
}

/// Where the pages of a managed range are, and the advice in force (where the backend can tell:
/// the sim).
///
/// ```
/// let r = rumba::driver::Residency::default();
/// assert_eq!(r.host_pages, 0);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Residency {
    /// Bytes of a page.
    pub page_size: usize,
    /// Pages on the host.
    pub host_pages: usize,
    /// Pages on each device that holds some: `(device, pages)`.
    pub device_pages: Vec<(usize, usize)>,
    /// [`Advice::ReadMostly`] is set.
    pub read_mostly: bool,
    /// [`Advice::PreferredLocation`] in force.
    pub preferred: Option<Location>,
    /// Devices given [`Advice::AccessedBy`].
    pub accessed_by: Vec<usize>,
    /// Every move of the allocation's pages since it was made.
    pub migrations: Migrations,
}

/// Managed-memory placement of a backend (see the [module docs](self)). Every method takes a
/// range of managed memory (as [`mem_alloc_managed`](super::Driver::mem_alloc_managed) returned
/// it, or inside such an allocation); none reads or writes the memory.
pub trait Placement: Send + Sync {
    /// Queues a move of the pages of `[ptr, ptr + bytes)` to `to` on `stream` of `device`;
    /// returns the moves the backend counts (the sim's; zero elsewhere).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) for a range outside managed
    /// memory (where the backend can tell); [`Error::InvalidDevice`](crate::Error::InvalidDevice);
    /// the device API's errors.
    fn prefetch(
        &self,
        device: usize,
        ptr: *mut u8,
        bytes: usize,
        to: Location,
        stream: StreamHandle,
    ) -> Result<Migrations>;

    /// Gives `advice` for `[ptr, ptr + bytes)`.
    ///
    /// # Errors
    /// As [`prefetch`](Self::prefetch).
    fn advise(&self, device: usize, ptr: *mut u8, bytes: usize, advice: Advice) -> Result<()>;

    /// Records an access to the range from `by` (the sim moves pages as a fault would); the
    /// moves made. Zero where the hardware does it itself.
    fn touch(&self, ptr: *mut u8, bytes: usize, by: Location) -> Migrations {
        let _ = (ptr, bytes, by);
        Migrations::default()
    }

    /// Where the range's pages are, where the backend can tell.
    fn residency(&self, ptr: *mut u8, bytes: usize) -> Option<Residency> {
        let _ = (ptr, bytes);
        None
    }
}
