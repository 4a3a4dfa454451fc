//! Per-block shared memory: one arena per worker thread, reset for every block.
//!
//! The arena holds the launch's dynamic shared buffer at offset 0 (every
//! [`dynamic_shared`](super::ThreadCtx::dynamic_shared) declaration aliases it) followed by the
//! static arrays, each allocated the first time any thread of the block reaches its declaration
//! site and handed to every later caller at that site. Sites are keyed by the caller's
//! [`Location`] (`#[track_caller]`) or by an explicit name, and looked up in a small per-block
//! table, so re-declaring in a loop or from every thread costs a short linear scan and no
//! allocation. Static and dynamic memory together are limited to
//! [`SHARED_MEMORY_PER_BLOCK`]. Memory is zeroed when a block starts using it (real GPUs leave
//! garbage; the simulator is deterministic instead — do not rely on either).
//!
//! All threads of a block run on one OS thread, so the arena needs no locks. It touches only
//! its own buffer.

use std::any::{TypeId, type_name};
use std::cell::{Cell, RefCell};
use std::mem::{align_of, size_of};
use std::panic::Location;

use bytemuck::Pod;

use super::buf::{BUF_ALIGN, RawBuf};
use super::dim::SHARED_MEMORY_PER_BLOCK;
use super::fault;
use super::shape::{Dims, IntoShape};
use super::view::{SharedArray, View};

/// How a static shared array is identified.
#[derive(Clone, Copy)]
pub(crate) enum SiteKey {
    /// The source location of the declaration.
    Caller(&'static Location<'static>),
    /// An explicit name given by the kernel.
    Named(&'static str),
}

impl SiteKey {
    #[inline]
    fn matches(&self, other: &SiteKey) -> bool {
        match (self, other) {
            (SiteKey::Caller(a), SiteKey::Caller(b)) => std::ptr::eq(*a, *b) || a == b,
            (SiteKey::Named(a), SiteKey::Named(b)) => a == b,
            _ => false,
        }
    }

    fn describe(&self) -> String {
        match self {
            SiteKey::Caller(l) => format!("declared at {l}"),
            SiteKey::Named(n) => format!("named {n:?}"),
        }
    }
}

struct Site {
    key: SiteKey,
    offset: usize,
    dims: Dims,
    type_id: TypeId,
    type_name: &'static str,
}

/// The shared memory of the block currently running on this worker.
pub(crate) struct SharedMemory {
    buf: RawBuf,
    dynamic_bytes: Cell<usize>,
    used: Cell<usize>,
    sites: RefCell<Vec<Site>>,
}

fn round_up(n: usize, align: usize) -> usize {
    n.div_ceil(align) * align
}

impl SharedMemory {
    pub(crate) fn new() -> Self {
        SharedMemory {
            buf: RawBuf::zeroed(SHARED_MEMORY_PER_BLOCK),
            dynamic_bytes: Cell::new(0),
            used: Cell::new(0),
            sites: RefCell::new(Vec::new()),
        }
    }

    /// Prepares the arena for a new block with `dynamic_bytes` of dynamic shared memory
    /// (already validated against the limit). `&mut self` proves no view of the previous block
    /// is alive.
    pub(crate) fn begin_block(&mut self, dynamic_bytes: usize) {
        debug_assert!(dynamic_bytes <= self.buf.len());
        // SAFETY: the buffer holds at least `dynamic_bytes` bytes and, with `&mut self`, no view
        // into it exists.
        unsafe { self.buf.ptr().write_bytes(0, dynamic_bytes) };
        self.dynamic_bytes.set(dynamic_bytes);
        self.used.set(round_up(dynamic_bytes, BUF_ALIGN));
        self.sites.get_mut().clear();
    }

    /// The block's dynamic shared buffer as a 1-d array of `T`.
    pub(crate) fn dynamic_array<T: Pod>(&self) -> SharedArray<'_, T> {
        let size = size_of::<T>();
        if size == 0 {
            fault::raise(format!(
                "dynamic shared memory cannot hold the zero-sized type {}",
                type_name::<T>()
            ));
        }
        if align_of::<T>() > BUF_ALIGN {
            fault::raise(format!(
                "{} needs more than {BUF_ALIGN}-byte alignment",
                type_name::<T>()
            ));
        }
        let len = self.dynamic_bytes.get() / size;
        // SAFETY: `len * size` bytes from the 16-aligned buffer start lie inside the dynamic
        // region, which lives as long as `self` and is only accessed through views.
        unsafe { View::contiguous(self.buf.ptr(), [len].into_dims()) }
    }

    /// The static array at `key`, allocated (zeroed) on first use in this block.
    #[inline]
    pub(crate) fn static_array<T: Pod>(&self, key: SiteKey, dims: Dims) -> SharedArray<'_, T> {
        // Every thread of the block after the first finds its site here.
        let found = self
            .sites
            .borrow()
            .iter()
            .find(|s| s.key.matches(&key))
            .map(|site| {
                // Branch-free, no `memcmp` call: this runs at every declaration of every thread.
                let same = site.type_id == TypeId::of::<T>() && site.dims.same_as(&dims);
                (site.offset, same)
            });
        match found {
            // SAFETY: `allocate_static` checked that this layout fits in the buffer.
            Some((offset, true)) => unsafe { View::contiguous(self.buf.ptr().add(offset), dims) },
            _ => self.allocate_static(key, dims),
        }
    }

    /// [`static_array`](Self::static_array) when the site is new (allocates it) or was declared
    /// with another type or shape (faults).
    #[cold]
    #[inline(never)]
    fn allocate_static<T: Pod>(&self, key: SiteKey, dims: Dims) -> SharedArray<'_, T> {
        let type_id = TypeId::of::<T>();
        if let Some(site) = self.sites.borrow().iter().find(|s| s.key.matches(&key)) {
            fault::raise(format!(
                "shared array {} was first declared as {} of {} and is now declared as {dims} of {}",
                key.describe(),
                site.dims,
                site.type_name,
                type_name::<T>()
            ));
        }
        let bytes = dims.size().and_then(|n| n.checked_mul(size_of::<T>()));
        let start = round_up(self.used.get(), align_of::<T>().max(BUF_ALIGN));
        let end = bytes.and_then(|b| start.checked_add(b));
        let Some(end) = end.filter(|&e| e <= self.buf.len() && align_of::<T>() <= BUF_ALIGN) else {
            fault::raise(format!(
                "shared array {} of shape {dims} of {} does not fit: {} bytes requested, {} of the {} bytes of shared memory per block already in use",
                key.describe(),
                type_name::<T>(),
                bytes.map_or("too many".to_owned(), |b| b.to_string()),
                self.used.get(),
                SHARED_MEMORY_PER_BLOCK
            ));
        };
        // SAFETY: `start..end` is inside the buffer and not yet handed out in this block.
        let ptr = unsafe { self.buf.ptr().add(start) };
        // SAFETY: as above; zeroing memory no view refers to.
        unsafe { ptr.write_bytes(0, end - start) };
        self.used.set(end);
        self.sites.borrow_mut().push(Site {
            key,
            offset: start,
            dims,
            type_id,
            type_name: type_name::<T>(),
        });
        // SAFETY: `ptr` is aligned for `T` and the `dims` elements fit in the live buffer.
        unsafe { View::contiguous(ptr, dims) }
    }
}
