//! Per-thread local memory: a bump arena reused for every thread that runs on a given slot.
//!
//! [`local_array`](super::ThreadCtx::local_array) carves zeroed arrays out of the arena of the
//! calling thread; the arena is reset when the slot starts its next thread, keeping its chunks,
//! so local arrays cost no allocation after warm-up. A thread may use up to
//! [`LOCAL_MEMORY_PER_THREAD`] bytes. The arena is only used by the OS thread running the block.
//! Touches only its own chunks.

use std::any::type_name;
use std::cell::Cell;
use std::mem::{align_of, size_of};

use bytemuck::Pod;

use super::buf::{BUF_ALIGN, Bump};
use super::fault;
use super::shape::Dims;
use super::view::{LocalArray, View};

/// The most local memory one GPU thread may allocate with `local_array`, in bytes (CUDA's
/// per-thread limit).
///
/// ```
/// assert_eq!(rumba::kernel::LOCAL_MEMORY_PER_THREAD, 512 * 1024);
/// ```
pub const LOCAL_MEMORY_PER_THREAD: usize = 512 * 1024;

const CHUNK: usize = 16 * 1024;

/// The local memory of one thread slot.
pub(crate) struct LocalArena {
    memory: Bump,
    total: Cell<usize>,
}

impl LocalArena {
    /// An arena with no memory yet (creating one does not allocate).
    pub(crate) fn new() -> Self {
        LocalArena {
            memory: Bump::new(CHUNK),
            total: Cell::new(0),
        }
    }

    /// Forgets every array of the previous thread. The caller guarantees that no view of the
    /// previous thread is still alive (its kernel body has returned or been unwound).
    #[inline]
    pub(crate) fn reset(&self) {
        self.memory.reset();
        self.total.set(0);
    }

    /// A zeroed C-ordered array of `dims` elements of `T`.
    pub(crate) fn alloc<T: Pod>(&self, dims: Dims) -> LocalArray<'_, T> {
        let align = align_of::<T>();
        let bytes = dims.size().and_then(|n| n.checked_mul(size_of::<T>()));
        let total = bytes.and_then(|b| b.checked_add(self.total.get()));
        let Some(bytes) = bytes
            .filter(|_| total.is_some_and(|t| t <= LOCAL_MEMORY_PER_THREAD) && align <= BUF_ALIGN)
        else {
            fault::raise(format!(
                "local array of shape {dims} of {} does not fit in the {LOCAL_MEMORY_PER_THREAD} bytes of local memory per thread ({} bytes already in use)",
                type_name::<T>(),
                self.total.get()
            ));
        };
        self.total.set(self.total.get() + bytes);
        let ptr = self.memory.alloc_zeroed(bytes);
        // SAFETY: `ptr` is 16-aligned (>= align of T), addresses `bytes` zeroed bytes that no
        // live view refers to (bump allocation since the last reset, and the previous thread's
        // views are gone), and the chunk stays put and allocated while `self` lives.
        unsafe { View::contiguous(ptr, dims) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::sim::engine::shape::IntoShape;

    #[test]
    fn arrays_are_distinct_zeroed_and_reused() {
        let a = LocalArena::new();
        let x = a.alloc::<i32>(1000.into_dims());
        let y = a.alloc::<f64>((100, 100).into_dims()); // needs a second chunk
        x.set(999, 5);
        y.set((99, 99), 1.0);
        assert_eq!(x.get(999), 5);
        assert_ne!(x.as_ptr() as usize, y.as_ptr() as usize);
        a.reset();
        let z = a.alloc::<i32>(1000.into_dims());
        assert_eq!(z.as_ptr(), x.as_ptr());
        assert_eq!(z.get(999), 0);
        assert_eq!(a.memory.chunks(), 2);
    }

    #[test]
    fn limit_is_enforced() {
        let a = LocalArena::new();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            a.alloc::<u8>((LOCAL_MEMORY_PER_THREAD + 1).into_dims());
        }));
        assert!(r.is_err());
    }
}
