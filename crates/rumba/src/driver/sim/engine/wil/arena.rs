//! Block memory of the work-item-loop engine: one arena per worker thread holding the running
//! block's shared arrays, dynamic shared memory, per-work-item context arrays and local arrays,
//! and the typed handle the block body reaches them through ([`BlockArray`]).
//!
//! The arena is taken out of a thread-local for the duration of a block and reset (not freed) at
//! the next one, so after warm-up a block allocates nothing. Shared memory comes from a fixed
//! [`SHARED_MEMORY_PER_BLOCK`]-byte buffer (dynamic shared bytes first, as in the coroutine
//! engine); context and local arrays come from a chunked bump allocator that only grows.
//!
//! # Why plain memory is sound here
//!
//! Every byte of the arena belongs to the one OS thread running the block: the arena lives in
//! that thread's thread-local while it is not in use, and a [`BlockArray`] is a raw pointer
//! (neither `Send` nor `Sync`) whose lifetime ends with the block body. So no two OS threads ever
//! touch the same arena byte at the same time, and plain (non-atomic) loads and stores cannot
//! race. No Rust reference to an element is ever made — elements are read and written through
//! raw pointers derived from the allocation — so any number of handles may alias one array.
//! The memory is zeroed when handed out and only ever holds `Pod` values, so every read sees an
//! initialised value of its type. This module touches only its own buffers.

use std::any::type_name;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::mem::{align_of, size_of};

use bytemuck::Pod;

use crate::driver::sim::engine::MAX_DIMS;
use crate::driver::sim::engine::atomics::sealed::Sealed;
use crate::driver::sim::engine::atomics::{AtomicInteger, AtomicValue};
use crate::driver::sim::engine::buf::{BUF_ALIGN, Bump, RawBuf};
use crate::driver::sim::engine::dim::SHARED_MEMORY_PER_BLOCK;
use crate::driver::sim::engine::fault;
use crate::driver::sim::engine::local::LOCAL_MEMORY_PER_THREAD;
use crate::driver::sim::engine::view::{Local, MemorySpace, Shared, View};
use crate::error::format_shape;

/// Bytes of a fresh chunk of context/local memory (more when one array needs more).
const CHUNK: usize = 64 * 1024;

/// The memory of the block a worker runs.
pub(crate) struct Arena {
    shared: RawBuf,
    /// Bytes of `shared` in use (dynamic shared memory first).
    shared_used: Cell<usize>,
    dynamic_bytes: Cell<usize>,
    /// Context and local arrays.
    scratch: Bump,
    /// Bytes of local memory per work-item declared so far in this block.
    local_per_thread: Cell<usize>,
    /// One flag per work-item: still running (has not returned).
    pub(crate) alive: Vec<Cell<bool>>,
    /// Whether a work-item of the last block returned early (so `alive` needs a reset).
    pub(crate) alive_dirty: Cell<bool>,
}

impl Arena {
    pub(crate) fn new() -> Self {
        Arena {
            shared: RawBuf::zeroed(SHARED_MEMORY_PER_BLOCK),
            shared_used: Cell::new(0),
            dynamic_bytes: Cell::new(0),
            scratch: Bump::new(CHUNK),
            local_per_thread: Cell::new(0),
            alive: Vec::new(),
            alive_dirty: Cell::new(false),
        }
    }

    /// Prepares the arena for a block of `threads` work-items with `dynamic_bytes` of dynamic
    /// shared memory (already validated against the limit). `&mut self` proves that no handle
    /// into the previous block's memory is alive.
    pub(crate) fn begin_block(&mut self, threads: usize, dynamic_bytes: usize) {
        debug_assert!(dynamic_bytes <= self.shared.len());
        // SAFETY: the buffer holds at least `dynamic_bytes` bytes and, with `&mut self`, no
        // handle into it exists.
        unsafe { self.shared.ptr().write_bytes(0, dynamic_bytes) };
        self.dynamic_bytes.set(dynamic_bytes);
        self.shared_used
            .set(dynamic_bytes.div_ceil(BUF_ALIGN) * BUF_ALIGN);
        self.scratch.reset();
        self.local_per_thread.set(0);
        if self.alive.len() < threads {
            self.alive.resize_with(threads, || Cell::new(true));
        }
        // Only a block in which work-items returned early leaves flags cleared.
        if self.alive_dirty.replace(false) {
            for a in &self.alive {
                a.set(true);
            }
        }
    }

    /// The dynamic shared memory as a 1-d array of `T`.
    pub(crate) fn dynamic<T: Pod>(&self) -> BlockArray<'_, T, 1> {
        check_type::<T>(Space::Shared);
        let len = self.dynamic_bytes.get() / size_of::<T>();
        // SAFETY: `len` elements from the 16-aligned start of the buffer lie inside the dynamic
        // region, which this arena owns for the block (see the module docs).
        unsafe { BlockArray::new(self.shared.ptr().cast(), [len], Space::Shared) }
    }

    /// A zeroed shared array of `dims` elements.
    #[inline(always)]
    pub(crate) fn shared<T: Pod, const D: usize>(&self, dims: [usize; D]) -> BlockArray<'_, T, D> {
        check_type::<T>(Space::Shared);
        let bytes = elements(&dims).and_then(|n| n.checked_mul(size_of::<T>()));
        let start = self.shared_used.get();
        let end = bytes.and_then(|b| start.checked_add(b));
        let Some(end) = end.filter(|&e| e <= self.shared.len()) else {
            shared_overflow::<T>(&dims, bytes, start)
        };
        self.shared_used.set(end.div_ceil(BUF_ALIGN) * BUF_ALIGN);
        // SAFETY: `start..end` lies inside the buffer and was not handed out in this block.
        let ptr = unsafe { self.shared.ptr().add(start) };
        // SAFETY: as above; zeroing memory no handle refers to.
        unsafe { ptr.write_bytes(0, end - start) };
        // SAFETY: `ptr` is 16-aligned (>= align of `T`, checked) and the elements fit.
        unsafe { BlockArray::new(ptr.cast(), dims, Space::Shared) }
    }

    /// Zeroed memory for `dims` elements from the chunked bump allocator.
    #[inline]
    pub(crate) fn scratch<T: Pod, const D: usize>(
        &self,
        dims: [usize; D],
        space: Space,
    ) -> BlockArray<'_, T, D> {
        check_type::<T>(space);
        let Some(bytes) = elements(&dims).and_then(|n| n.checked_mul(size_of::<T>())) else {
            fault::raise(format!(
                "{} array of shape {} of {} is too large",
                space.name(),
                format_shape(&dims),
                type_name::<T>()
            ));
        };
        let ptr = self.scratch.alloc_zeroed(bytes);
        // SAFETY: `ptr` is 16-aligned, addresses `bytes` zeroed bytes no handle refers to (bump
        // allocation since the block began), and the chunk stays put and allocated while the
        // arena lives, even if the list grows.
        unsafe { BlockArray::new(ptr.cast(), dims, space) }
    }

    /// Accounts `bytes` more local memory per work-item; faults beyond the per-thread limit
    /// (which also bounds what one block can make the arena allocate).
    #[inline(always)]
    pub(crate) fn add_local(&self, bytes: Option<usize>, what: impl FnOnce() -> String) {
        let total = bytes.and_then(|b| b.checked_add(self.local_per_thread.get()));
        match total.filter(|&t| t <= LOCAL_MEMORY_PER_THREAD) {
            Some(t) => self.local_per_thread.set(t),
            None => local_overflow(what(), self.local_per_thread.get()),
        }
    }
}

/// Faults for element types the arena cannot hold.
#[inline(always)]
fn check_type<T>(space: Space) {
    if size_of::<T>() == 0 || align_of::<T>() > BUF_ALIGN {
        bad_type::<T>(space)
    }
}

#[cold]
#[inline(never)]
fn bad_type<T>(space: Space) -> ! {
    fault::raise(format!(
        "{} memory cannot hold {} (zero-sized, or aligned to more than {BUF_ALIGN} bytes)",
        space.name(),
        type_name::<T>()
    ))
}

#[cold]
#[inline(never)]
fn local_overflow(what: String, used: usize) -> ! {
    fault::raise(format!(
        "{what} does not fit in the {LOCAL_MEMORY_PER_THREAD} bytes of local memory per thread ({used} bytes already in use)"
    ))
}

#[cold]
#[inline(never)]
fn shared_overflow<T>(dims: &[usize], bytes: Option<usize>, start: usize) -> ! {
    fault::raise(format!(
        "shared array of shape {} of {} does not fit: {} bytes requested, {start} of the {SHARED_MEMORY_PER_BLOCK} bytes of shared memory per block already in use",
        format_shape(dims),
        type_name::<T>(),
        bytes.map_or("too many".to_owned(), |b| b.to_string()),
    ))
}

/// The number of elements of `dims`, or `None` on overflow.
fn elements(dims: &[usize]) -> Option<usize> {
    dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
}

/// Variance and auto-trait marker of the block-memory handles: borrow the arena for `'b`, yield
/// `T`s, and (holding raw pointers) are neither `Send` nor `Sync`.
type Marker<'b, T> = PhantomData<(&'b (), fn() -> T)>;

/// Which block memory a [`BlockArray`] lives in (for messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Shared memory of the block.
    Shared,
    /// Local memory of one work-item.
    Local,
    /// A context array: one slot per work-item for a value live across a barrier.
    Context,
}

impl Space {
    fn name(self) -> &'static str {
        match self {
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Context => "context",
        }
    }
}

/// An index of a `D`-dimensional [`BlockArray`]: `usize` (1-d), a tuple of two or three `usize`,
/// or `[usize; D]` (`()` for a 0-d array, tuples of up to six components).
///
/// ```
/// use rumba::kernel::wil::BlockIndex;
/// assert_eq!(BlockIndex::<0>::components(()), [0usize; 0]);
/// assert_eq!((1usize, 2usize).components(), [1, 2]);
/// assert_eq!(BlockIndex::<1>::components(7usize), [7]);
/// ```
pub trait BlockIndex<const D: usize>: Copy {
    /// The components, outermost axis first.
    fn components(self) -> [usize; D];
}

impl BlockIndex<1> for usize {
    #[inline(always)]
    fn components(self) -> [usize; 1] {
        [self]
    }
}

impl BlockIndex<2> for (usize, usize) {
    #[inline(always)]
    fn components(self) -> [usize; 2] {
        [self.0, self.1]
    }
}

impl BlockIndex<3> for (usize, usize, usize) {
    #[inline(always)]
    fn components(self) -> [usize; 3] {
        [self.0, self.1, self.2]
    }
}

impl BlockIndex<0> for () {
    #[inline(always)]
    fn components(self) -> [usize; 0] {
        []
    }
}

impl BlockIndex<4> for (usize, usize, usize, usize) {
    #[inline(always)]
    fn components(self) -> [usize; 4] {
        [self.0, self.1, self.2, self.3]
    }
}

impl BlockIndex<5> for (usize, usize, usize, usize, usize) {
    #[inline(always)]
    fn components(self) -> [usize; 5] {
        [self.0, self.1, self.2, self.3, self.4]
    }
}

impl BlockIndex<6> for (usize, usize, usize, usize, usize, usize) {
    #[inline(always)]
    fn components(self) -> [usize; 6] {
        [self.0, self.1, self.2, self.3, self.4, self.5]
    }
}

impl<const D: usize> BlockIndex<D> for [usize; D] {
    #[inline(always)]
    fn components(self) -> [usize; D] {
        self
    }
}

/// A C-ordered `D`-dimensional array in the running block's memory: shared memory, a context
/// array (one slot per work-item) or a local array. Made by
/// [`BlockCtx`](super::BlockCtx); read and written with plain loads and stores (see the module
/// docs for why that is sound), bounds-checked on every access: an index out of bounds faults
/// the current work-item like a view's does.
///
/// A `Copy` handle: copies alias the same elements. Neither `Send` nor `Sync`.
///
/// ```
/// use rumba::kernel::LaunchConfig;
/// use rumba::kernel::wil::{run_blocks, Dyn};
/// run_blocks::<Dyn, _>("k", &LaunchConfig::new(1, 4), |blk| {
///     let s = blk.shared_array::<i32, 2>([2, 3]);
///     s.set((1, 2), 7);
///     assert_eq!((s.get((1, 2)), s.shape(), s.size()), (7, [2, 3], 6));
/// })
/// .unwrap();
/// ```
pub struct BlockArray<'b, T, const D: usize> {
    ptr: *mut T,
    dims: [usize; D],
    space: Space,
    _marker: Marker<'b, T>,
}

impl<T, const D: usize> Clone for BlockArray<'_, T, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const D: usize> Copy for BlockArray<'_, T, D> {}

impl<T, const D: usize> fmt::Debug for BlockArray<'_, T, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockArray")
            .field("space", &self.space)
            .field("ptr", &self.ptr)
            .field("shape", &self.dims)
            .finish()
    }
}

impl<'b, T: Pod, const D: usize> BlockArray<'b, T, D> {
    /// # Safety
    /// `ptr` must be aligned for `T` and address `Π dims` initialised elements of memory that
    /// only the current OS thread touches, and that stays allocated and unused by anything else
    /// for `'b`.
    #[inline(always)]
    pub(crate) unsafe fn new(ptr: *mut T, dims: [usize; D], space: Space) -> Self {
        BlockArray {
            ptr,
            dims,
            space,
            _marker: PhantomData,
        }
    }

    /// The shape.
    #[inline(always)]
    pub fn shape(&self) -> [usize; D] {
        self.dims
    }

    /// Length of the first axis (1 for a 0-d array).
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        if D == 0 { 1 } else { self.dims[0] }
    }

    /// Number of elements.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.dims.iter().product()
    }

    /// Address of the first element (for diagnostics).
    pub fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    /// The element offset of `index`, faulting when it is out of bounds.
    #[inline(always)]
    fn offset<I: BlockIndex<D>>(&self, index: I) -> usize {
        let idx = index.components();
        let mut off = 0usize;
        for (k, &i) in idx.iter().enumerate() {
            if i >= self.dims[k] {
                // By value, so that the handle's address never escapes and its shape stays a
                // known constant in the caller.
                out_of_bounds(
                    index,
                    self.dims,
                    self.ptr as usize,
                    size_of::<T>(),
                    self.space,
                );
            }
            off = off * self.dims[k] + i;
        }
        off
    }

    /// Reads element `index`.
    #[inline(always)]
    pub fn get(&self, index: impl BlockIndex<D>) -> T {
        let off = self.offset(index);
        // SAFETY: `off` is in bounds of the live, aligned, initialised array, which only this OS
        // thread touches (construction contract), and no reference to it exists.
        unsafe { self.ptr.add(off).read() }
    }

    /// Writes element `index`.
    #[inline(always)]
    pub fn set(&self, index: impl BlockIndex<D>, value: T) {
        let off = self.offset(index);
        // SAFETY: as in `get`.
        unsafe { self.ptr.add(off).write(value) }
    }

    /// Elements `start .. start + N` of a 1-d array (its first axis), with one bounds check.
    #[inline(always)]
    pub(crate) fn load_run<const N: usize>(&self, start: usize) -> [T; N] {
        self.run_check(start, N);
        // SAFETY: `start + N` elements are in bounds (checked) of the live, aligned, initialised
        // array only this OS thread touches; `out` is a distinct local.
        unsafe {
            let mut out = std::mem::MaybeUninit::<[T; N]>::uninit();
            std::ptr::copy_nonoverlapping(self.ptr.add(start), out.as_mut_ptr().cast::<T>(), N);
            out.assume_init()
        }
    }

    /// Writes `values` to elements `start .. start + N` of a 1-d array, with one bounds check.
    #[inline(always)]
    pub(crate) fn store_run<const N: usize>(&self, start: usize, values: [T; N]) {
        self.run_check(start, N);
        // SAFETY: as in `load_run`; `values` is a distinct local.
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr(), self.ptr.add(start), N) }
    }

    /// The address of element `start` of a 1-d array whose elements `start .. start + n` exist
    /// (checked once), for a loop of raw accesses over them.
    #[inline(always)]
    pub(crate) fn run_ptr(&self, start: usize, n: usize) -> *mut T {
        self.run_check(start, n);
        // SAFETY: `start` is in bounds (or one past the end when `n` is 0) of the array.
        unsafe { self.ptr.add(start) }
    }

    #[inline(always)]
    fn run_check(&self, start: usize, n: usize) {
        let len = if D == 0 { 1 } else { self.dims[0] };
        if D != 1 || start.checked_add(n).is_none_or(|e| e > len) {
            fault::raise(format!(
                "internal error: elements {start}..{} of a {} array of shape {}",
                start.saturating_add(n),
                self.space.name(),
                format_shape(&self.dims)
            ));
        }
    }

    /// Sets every element to zero (a local array's declaration, once per work-item).
    #[inline]
    pub fn zero(&self) {
        // SAFETY: the array's `size()` elements are live memory only this thread touches; zero
        // bytes are a valid `Pod` value.
        unsafe { self.ptr.write_bytes(0, self.size()) }
    }

    /// The array as a shared-memory [`View`](crate::kernel::View) of the same elements: what an
    /// in-kernel view (`reshape`, `view::<U>()`, `row`, `index_axis`) of a shared array starts
    /// from in a block body, so that it checks and faults exactly as the coroutine engine's
    /// [`SharedArray`](crate::kernel::SharedArray) does.
    ///
    /// ```
    /// use rumba::kernel::LaunchConfig;
    /// use rumba::kernel::wil::{run_blocks, Dyn};
    /// run_blocks::<Dyn, _>("k", &LaunchConfig::new(1, 4), |blk| {
    ///     let s = blk.shared_array::<u32, 1>([6]);
    ///     s.shared_view().reshape((2, 3)).set((1, 0), 7);
    ///     assert_eq!(s.get(3), 7);
    /// })
    /// .unwrap();
    /// ```
    #[inline]
    pub fn shared_view(&self) -> View<'b, T, Shared> {
        self.as_view()
    }

    /// The array as a local-memory [`View`](crate::kernel::View) of the same elements (see
    /// [`shared_view`](Self::shared_view)), as the coroutine engine's
    /// [`LocalArray`](crate::kernel::LocalArray).
    #[inline]
    pub fn local_view(&self) -> View<'b, T, Local> {
        self.as_view()
    }

    /// Only for spaces whose views are neither `Send` nor `Sync` (shared, local): the view must
    /// stay on this OS thread, like the handle.
    #[inline]
    fn as_view<S: MemorySpace>(&self) -> View<'b, T, S> {
        if D == 0 || D > MAX_DIMS {
            fault::raise(format!(
                "a {D}-d block array has no view (kernel arrays have 1 to {MAX_DIMS} dimensions)"
            ));
        }
        let mut strides = [0isize; D];
        let mut acc = size_of::<T>() as isize;
        for k in (0..D).rev() {
            strides[k] = acc;
            acc = acc.wrapping_mul(self.dims[k] as isize);
        }
        // SAFETY: the C-ordered layout of `dims` from `ptr` addresses exactly this array's
        // elements, which stay allocated for 'b (construction contract); `ptr` is aligned for `T`
        // and the strides are multiples of `size_of::<T>()`, hence of its alignment; `D <=
        // MAX_DIMS` was checked. Only this OS thread touches the memory (construction contract)
        // and a shared or local `View` is neither `Send` nor `Sync` (the only callers), so the
        // view's atomic accesses and this handle's plain ones are sequenced, never concurrent.
        // The pointer comes from the arena's own allocation, with write permission, as the
        // view's atomic loads need.
        unsafe { View::from_parts_unchecked(self.ptr.cast(), &self.dims, &strides, true) }
    }

    #[inline(always)]
    fn element(&self, index: impl BlockIndex<D>) -> *mut T {
        let off = self.offset(index);
        // In bounds: inside the array.
        self.ptr.wrapping_add(off)
    }
}

impl<T: AtomicValue, const D: usize> BlockArray<'_, T, D> {
    /// `atomicAdd` on a shared array; returns the old value (semantics of
    /// [`View::atomic_add`](crate::kernel::View::atomic_add), including wrapping).
    #[inline]
    pub fn atomic_add(&self, index: impl BlockIndex<D>, v: T) -> T {
        self.update(index, |old| <T as Sealed>::sum(old, v))
    }

    /// `atomicSub`; returns the old value.
    #[inline]
    pub fn atomic_sub(&self, index: impl BlockIndex<D>, v: T) -> T {
        self.update(index, |old| <T as Sealed>::difference(old, v))
    }

    /// `element = f(element)` as a plain read and write, returning the old value: what an atomic
    /// read-modify-write does, at the cost of an ordinary one, since the block's work-items run
    /// one after another on this one OS thread and nothing can come between the read and the
    /// write. (`rumba bench --suite --only histogram --no-reference`: 16M bytes of shared-memory
    /// `atomic_add`s in 13.2 ms this way against 212.0 ms with locked instructions, one pair of
    /// runs.) Add and subtract, a histogram's and a counter's operations, take this path; the
    /// others keep the atomic instruction, whose value rules (NaN, bounds) live in `atomics`.
    #[inline(always)]
    fn update(&self, index: impl BlockIndex<D>, f: impl FnOnce(T) -> T) -> T {
        let p = self.element(index);
        // SAFETY: an in-bounds, aligned, initialised element of the live array that only this
        // OS thread touches (construction contract), with no reference to it alive: the read and
        // the write are sequenced with every other access.
        unsafe {
            let old = p.read();
            p.write(f(old));
            old
        }
    }

    /// `atomicMax` with Numba's NaN rules (a stored NaN stays); returns the old value.
    #[inline]
    pub fn atomic_max(&self, index: impl BlockIndex<D>, v: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_max(self.element(index), v) }
    }

    /// `atomicMin` with Numba's NaN rules (a stored NaN stays); returns the old value.
    #[inline]
    pub fn atomic_min(&self, index: impl BlockIndex<D>, v: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_min(self.element(index), v) }
    }

    /// Numba's `atomic.nanmax` (NaN is missing data); returns the old value.
    #[inline]
    pub fn atomic_nanmax(&self, index: impl BlockIndex<D>, v: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_nanmax(self.element(index), v) }
    }

    /// Numba's `atomic.nanmin` (NaN is missing data); returns the old value.
    #[inline]
    pub fn atomic_nanmin(&self, index: impl BlockIndex<D>, v: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_nanmin(self.element(index), v) }
    }

    /// `atomicExch`; returns the old value.
    #[inline]
    pub fn atomic_exch(&self, index: impl BlockIndex<D>, v: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::swap(self.element(index), v) }
    }

    /// `atomicCAS`; returns the old value.
    #[inline]
    pub fn atomic_cas(&self, index: impl BlockIndex<D>, expected: T, new: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::compare_swap(self.element(index), expected, new) }
    }
}

impl<T: AtomicInteger, const D: usize> BlockArray<'_, T, D> {
    /// `atomicAnd`; returns the old value.
    #[inline]
    pub fn atomic_and(&self, index: impl BlockIndex<D>, v: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_and(self.element(index), v) }
    }

    /// `atomicOr`; returns the old value.
    #[inline]
    pub fn atomic_or(&self, index: impl BlockIndex<D>, v: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_or(self.element(index), v) }
    }

    /// `atomicXor`; returns the old value.
    #[inline]
    pub fn atomic_xor(&self, index: impl BlockIndex<D>, v: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_xor(self.element(index), v) }
    }

    /// `atomicInc`; returns the old value.
    #[inline]
    pub fn atomic_inc(&self, index: impl BlockIndex<D>, bound: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_inc(self.element(index), bound) }
    }

    /// `atomicDec`; returns the old value.
    #[inline]
    pub fn atomic_dec(&self, index: impl BlockIndex<D>, bound: T) -> T {
        // SAFETY: an in-bounds element that only this OS thread touches (construction
        // contract), so no other access can overlap the atomic one.
        unsafe { T::fetch_dec(self.element(index), bound) }
    }
}

#[cold]
#[inline(never)]
fn out_of_bounds<I: BlockIndex<D>, const D: usize>(
    index: I,
    dims: [usize; D],
    ptr: usize,
    item: usize,
    space: Space,
) -> ! {
    let idx = index.components();
    let axis = (0..D).find(|&k| idx[k] >= dims[k]).unwrap_or(0);
    // The address the access would have touched, as the per-thread form's fault names it.
    let offset = (0..D).fold(0usize, |o, k| o.wrapping_mul(dims[k]).wrapping_add(idx[k]));
    let addr = ptr.wrapping_add(offset.wrapping_mul(item));
    fault::raise(format!(
        "index {} is out of bounds for axis {axis} with size {} of the {} array at {ptr:#x} with shape {} (address {addr:#x})",
        format_shape(&idx),
        dims[axis],
        space.name(),
        format_shape(&dims)
    ))
}

/// The local arrays of one declaration for every work-item of the block: `cuda.local.array` in
/// a block body. Made by [`BlockCtx::local_arrays`](super::BlockCtx::local_arrays); work-item
/// `w`'s array is [`of(w)`](Self::of). The declaration zeroes it, as the per-thread form does:
/// call [`BlockArray::zero`] where the kernel declares it.
///
/// ```
/// use rumba::kernel::LaunchConfig;
/// use rumba::kernel::wil::{run_blocks, Dyn};
/// run_blocks::<Dyn, _>("k", &LaunchConfig::new(1, 4), |blk| {
///     let l = blk.local_arrays::<f32, 1>([3]);
///     blk.each(|w, _| {
///         let mine = l.of(w);
///         mine.zero();
///         mine.set(2, w as f32);
///     });
///     blk.each(|w, _| assert_eq!(l.of(w).get(2), w as f32));
/// })
/// .unwrap();
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LocalArrays<'b, T, const D: usize> {
    base: *mut T,
    threads: u32,
    dims: [usize; D],
    each: usize,
    _marker: Marker<'b, T>,
}

impl<'b, T: Pod, const D: usize> LocalArrays<'b, T, D> {
    /// Builds the set over `all`, an array of `threads * Π dims` elements.
    pub(crate) fn new(all: BlockArray<'b, T, 1>, threads: u32, dims: [usize; D]) -> Self {
        LocalArrays {
            base: all.ptr,
            threads,
            dims,
            each: dims.iter().product(),
            _marker: PhantomData,
        }
    }

    /// The shape of every work-item's array (what block code reads for `loc.shape()`).
    #[inline(always)]
    pub fn shape(&self) -> [usize; D] {
        self.dims
    }

    /// Length of the first axis of every work-item's array (1 for a 0-d array).
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        if D == 0 { 1 } else { self.dims[0] }
    }

    /// Elements of every work-item's array.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.each
    }

    /// Work-item `w`'s array (`w` as passed to [`each`](super::BlockCtx::each)).
    #[inline(always)]
    pub fn of(&self, w: u32) -> BlockArray<'b, T, D> {
        if w >= self.threads {
            fault::raise(format!(
                "work-item {w} does not exist in a block of {} threads",
                self.threads
            ));
        }
        // SAFETY: `w < threads`, so the `each` elements from `w * each` lie inside the
        // `threads * each` elements of the arena allocation this set was built over, with its
        // guarantees (aligned, initialised, owned by this thread for 'b).
        unsafe {
            BlockArray::new(
                self.base.add(w as usize * self.each),
                self.dims,
                Space::Local,
            )
        }
    }
}
