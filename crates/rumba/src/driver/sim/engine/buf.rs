//! Zero-initialised, 16-byte-aligned heap buffers addressed only through raw pointers
//! ([`RawBuf`]), and the chunked bump allocator over them ([`Bump`]) that both engines carve
//! per-thread memory from (the coroutine engine's local arrays, the work-item-loop engine's
//! context and local arrays).
//!
//! Shared and local memory live in these buffers. A buffer never creates a reference to its
//! contents, so pointers handed to simulated threads stay valid (and free of aliasing claims)
//! however many of them exist, until the buffer itself is dropped. Touches nothing else.

use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
use std::cell::{Cell, RefCell};
use std::ptr::NonNull;

/// Alignment of every buffer, enough for any element type the kernels use (complex128, u128).
pub(crate) const BUF_ALIGN: usize = 16;

/// An owned, zeroed, `BUF_ALIGN`-aligned allocation of `len` bytes (at least 1).
pub(crate) struct RawBuf {
    ptr: NonNull<u8>,
    layout: Layout,
}

impl RawBuf {
    /// Allocates `len` zeroed bytes; aborts like `Vec` does if the allocator fails.
    pub(crate) fn zeroed(len: usize) -> Self {
        let layout = match Layout::from_size_align(len.max(1), BUF_ALIGN) {
            Ok(l) => l,
            Err(_) => handle_alloc_error(Layout::new::<u128>()),
        };
        // SAFETY: `layout` has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        let Some(ptr) = NonNull::new(ptr) else {
            handle_alloc_error(layout)
        };
        RawBuf { ptr, layout }
    }

    /// Start of the buffer.
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Size in bytes.
    pub(crate) fn len(&self) -> usize {
        self.layout.size()
    }
}

impl Drop for RawBuf {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `alloc_zeroed` with exactly this layout and is freed once.
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

/// A chunked bump allocator: hands out zeroed, `BUF_ALIGN`-aligned byte ranges from a list of
/// [`RawBuf`] chunks that only grows; [`reset`](Self::reset) forgets every range and keeps the
/// chunks, so a warm allocator allocates nothing. A chunk's heap memory never moves while the
/// allocator lives, however many chunks are added, so handed-out pointers stay valid until the
/// next reset. Used by one OS thread at a time (it is not `Sync`).
pub(crate) struct Bump {
    chunks: RefCell<Vec<RawBuf>>,
    chunk: Cell<usize>,
    offset: Cell<usize>,
    /// Bytes of a fresh chunk (more when one range needs more).
    chunk_size: usize,
}

impl Bump {
    /// An allocator with no memory yet (creating one does not allocate).
    pub(crate) fn new(chunk_size: usize) -> Self {
        Bump {
            chunks: RefCell::new(Vec::new()),
            chunk: Cell::new(0),
            offset: Cell::new(0),
            chunk_size,
        }
    }

    /// Forgets every range handed out. The caller guarantees that nothing still uses them (the
    /// threads or block that held them have finished or been unwound).
    #[inline]
    pub(crate) fn reset(&self) {
        self.chunk.set(0);
        self.offset.set(0);
    }

    /// A zeroed, `BUF_ALIGN`-aligned range of `bytes` bytes that no other live range overlaps.
    /// It stays valid until the next [`reset`](Self::reset) or until the allocator drops.
    pub(crate) fn alloc_zeroed(&self, bytes: usize) -> *mut u8 {
        let mut chunks = self.chunks.borrow_mut();
        let mut idx = self.chunk.get();
        let mut start = self.offset.get().div_ceil(BUF_ALIGN) * BUF_ALIGN;
        loop {
            match chunks.get(idx) {
                Some(c) if start.checked_add(bytes).is_some_and(|e| e <= c.len()) => break,
                Some(_) => {
                    idx += 1;
                    start = 0;
                }
                None => {
                    chunks.push(RawBuf::zeroed(bytes.max(self.chunk_size)));
                    start = 0;
                    break;
                }
            }
        }
        self.chunk.set(idx);
        self.offset.set(start + bytes);
        // SAFETY: `start + bytes <= len` of chunk `idx`, so the range is inside the buffer.
        let ptr = unsafe { chunks[idx].ptr().add(start) };
        // SAFETY: the range was not handed out since the last reset, so nothing refers to it.
        unsafe { ptr.write_bytes(0, bytes) };
        ptr
    }

    /// How many chunks the allocator holds (for tests).
    #[cfg(test)]
    pub(crate) fn chunks(&self) -> usize {
        self.chunks.borrow().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bump_ranges_are_distinct_zeroed_aligned_and_reused() {
        let b = Bump::new(64);
        let x = b.alloc_zeroed(40);
        // SAFETY: 40 bytes of `x` are ours until the reset.
        unsafe { x.write_bytes(7, 40) };
        let y = b.alloc_zeroed(40); // does not fit after x: a second chunk
        assert_ne!(x, y);
        assert_eq!((x as usize % BUF_ALIGN, y as usize % BUF_ALIGN), (0, 0));
        let big = b.alloc_zeroed(1000);
        assert_eq!(b.chunks(), 3);
        assert_eq!(big as usize % BUF_ALIGN, 0);
        b.reset();
        let z = b.alloc_zeroed(40);
        assert_eq!(z, x);
        // SAFETY: 40 bytes of `z` are ours.
        assert!(
            unsafe { std::slice::from_raw_parts(z, 40) }
                .iter()
                .all(|&v| v == 0)
        );
        assert_eq!(b.chunks(), 3);
    }

    #[test]
    fn zeroed_and_aligned() {
        let b = RawBuf::zeroed(100);
        assert_eq!(b.ptr() as usize % BUF_ALIGN, 0);
        assert_eq!(b.len(), 100);
        // SAFETY: the buffer holds 100 initialised bytes and no one else uses it.
        let bytes = unsafe { std::slice::from_raw_parts(b.ptr(), b.len()) };
        assert!(bytes.iter().all(|&x| x == 0));
    }
}
