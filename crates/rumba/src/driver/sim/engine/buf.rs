//! A zero-initialised, 16-byte-aligned heap buffer addressed only through a raw pointer.
//!
//! Shared and local memory live in these buffers. The buffer never creates a reference to its
//! contents, so pointers handed to simulated threads stay valid (and free of aliasing claims)
//! however many of them exist, until the buffer itself is dropped. Touches nothing else.

use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
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

#[cfg(test)]
mod tests {
    use super::*;

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
