//! [`View`]: a bounds-checked n-d window onto kernel memory — the element type behind
//! [`GlobalView`], [`SharedArray`] and [`LocalArray`].
//!
//! A view is a raw base pointer, a shape and strides **in bytes** (negative strides allowed), the
//! memory space as a type parameter, and a writable flag. Indexing computes the element's
//! address, checks every index against the shape, and then reads or writes through
//! [`access`](super::access) — never through a Rust reference, so views may be copied freely and
//! threads may race on the memory (see the soundness argument there).
//!
//! Out-of-bounds indices, writes to a read-only view and bad slices *fault the calling GPU
//! thread*: they unwind to the block runner, which fails the launch with
//! [`Error::KernelFault`](crate::Error::KernelFault) naming the kernel, block, thread, index and
//! shape. Used outside a launch, the same unwinding surfaces as a panic.
//!
//! This module touches only the memory its views point to.

use std::fmt;
use std::marker::PhantomData;
use std::mem::{align_of, size_of};

use bytemuck::Pod;

use super::shape::{Dims, IntoShape, MAX_DIMS, NdIndex, Slice};
use super::{access, fault};
use crate::error::{Error, Result, ShapeError, StridesError};

mod ops;

mod sealed {
    pub trait Sealed {}
}

/// The memory space a [`View`] points into: [`Global`], [`Shared`] or [`Local`].
///
/// ```
/// use rumba::kernel::{MemorySpace, Shared};
/// assert_eq!(Shared::NAME, "shared");
/// ```
pub trait MemorySpace: sealed::Sealed + Copy + 'static {
    /// Name used in fault messages.
    const NAME: &'static str;
}

/// Memory spaces that support atomic read-modify-write operations: [`Global`] and [`Shared`].
///
/// ```
/// fn takes<S: rumba::kernel::AtomicSpace>() {}
/// takes::<rumba::kernel::Global>();
/// ```
pub trait AtomicSpace: MemorySpace {}

/// Device (global) memory, visible to every thread of the launch. Global views are `Send + Sync`
/// so a kernel body can capture them.
///
/// ```
/// assert_eq!(<rumba::kernel::Global as rumba::kernel::MemorySpace>::NAME, "global");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Global;

/// Per-block shared memory. Shared views are neither `Send` nor `Sync`: they belong to the block.
///
/// ```
/// assert_eq!(<rumba::kernel::Shared as rumba::kernel::MemorySpace>::NAME, "shared");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Shared;

/// Per-thread local memory.
///
/// ```
/// assert_eq!(<rumba::kernel::Local as rumba::kernel::MemorySpace>::NAME, "local");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Local;

/// Constant memory: read-only arrays made by
/// [`const_array_like`](crate::kernel::const_array_like). Reached only through
/// [`ConstView`](crate::kernel::ConstView), which has no way to write.
///
/// ```
/// assert_eq!(<rumba::kernel::Const as rumba::kernel::MemorySpace>::NAME, "constant");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Const;

impl sealed::Sealed for Global {}
impl sealed::Sealed for Shared {}
impl sealed::Sealed for Local {}
impl sealed::Sealed for Const {}
impl MemorySpace for Global {
    const NAME: &'static str = "global";
}
impl MemorySpace for Shared {
    const NAME: &'static str = "shared";
}
impl MemorySpace for Local {
    const NAME: &'static str = "local";
}
impl MemorySpace for Const {
    const NAME: &'static str = "constant";
}
// SAFETY: constant views only read (plain loads of memory that nobody writes while the view
// lives: it is behind a shared borrow), so sharing them between OS threads cannot race.
unsafe impl<T: Pod> Send for View<'_, T, Const> {}
// SAFETY: as for `Send`.
unsafe impl<T: Pod> Sync for View<'_, T, Const> {}
impl AtomicSpace for Global {}
impl AtomicSpace for Shared {}

/// A view of global (device) memory.
pub type GlobalView<'a, T> = View<'a, T, Global>;
/// A view of a block's shared memory, from
/// [`ThreadCtx::shared_array`](super::ThreadCtx::shared_array) or
/// [`ThreadCtx::dynamic_shared`](super::ThreadCtx::dynamic_shared).
pub type SharedArray<'a, T> = View<'a, T, Shared>;
/// A view of a thread's local memory, from [`ThreadCtx::local_array`](super::ThreadCtx::local_array).
pub type LocalArray<'a, T> = View<'a, T, Local>;

/// How a view may touch its memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Atomic loads and stores.
    ReadWrite,
    /// Atomic loads only (memory others may write concurrently).
    ReadOnly,
    /// Plain loads only: the memory is behind a Rust shared borrow, so nobody writes it, and an
    /// atomic access (which would need write permission) is not allowed.
    Frozen,
}

/// Variance and auto-trait marker of [`View`]: borrows for `'a`, yields `T`s, lives in `S`.
type Marker<'a, T, S> = (&'a (), fn() -> T, S);

/// A bounds-checked n-d view of kernel memory in space `S` ([`Global`], [`Shared`], [`Local`]).
///
/// Views are `Copy` handles: copying one does not copy elements. Elements are read with
/// [`get`](View::get) and written with [`set`](View::set); both take an index of the view's
/// dimensionality. Atomic operations are in [`atomics`](super::atomics).
///
/// ```
/// use rumba::kernel::GlobalView;
/// let mut data = [0i32; 6];
/// let v = GlobalView::from_slice_mut_with_shape(&mut data, (2, 3)).unwrap();
/// v.set((1, 2), 7);
/// assert_eq!(v.get((1, 2)), 7);
/// assert_eq!(v.shape(), &[2, 3]);
/// assert_eq!(v.strides(), &[12, 4]);
/// assert_eq!(data[5], 7);
/// ```
pub struct View<'a, T, S> {
    ptr: *mut u8,
    ndim: usize,
    shape: [usize; MAX_DIMS],
    strides: [isize; MAX_DIMS],
    mode: Mode,
    _marker: PhantomData<Marker<'a, T, S>>,
}

impl<T, S> Clone for View<'_, T, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, S> Copy for View<'_, T, S> {}

// SAFETY: a global view is a pointer plus layout; all element accesses through it are atomic
// (see `access`), so using it from several OS threads at once is free of data races. `T: Pod`
// has no thread affinity.
unsafe impl<T: Pod> Send for View<'_, T, Global> {}
// SAFETY: as for `Send`: `&View` only permits the same atomic accesses.
unsafe impl<T: Pod> Sync for View<'_, T, Global> {}

impl<T, S: MemorySpace> fmt::Debug for View<'_, T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("View")
            .field("space", &S::NAME)
            .field("ptr", &self.ptr)
            .field("shape", &&self.shape[..self.ndim])
            .field("strides", &&self.strides[..self.ndim])
            .field("mode", &self.mode)
            .finish()
    }
}

impl<'a, T: Pod, S: MemorySpace> View<'a, T, S> {
    /// Builds a view without checks.
    ///
    /// # Safety
    /// `ptr` with `shape` and byte `strides` must only address elements inside memory that stays
    /// allocated (and accessed only through `access`) for `'a`; `ptr` and strides must be
    /// multiples of `align_of::<T>()`; `shape.len() <= MAX_DIMS`.
    pub(crate) unsafe fn from_parts_unchecked(
        ptr: *mut u8,
        shape: &[usize],
        strides: &[isize],
        writable: bool,
    ) -> Self {
        let mut v = View {
            ptr,
            ndim: shape.len(),
            shape: [0; MAX_DIMS],
            strides: [0; MAX_DIMS],
            mode: if writable {
                Mode::ReadWrite
            } else {
                Mode::ReadOnly
            },
            _marker: PhantomData,
        };
        v.shape[..shape.len()].copy_from_slice(shape);
        v.strides[..shape.len()].copy_from_slice(strides);
        v
    }

    /// A read-only view read with plain loads (no atomics), for memory behind a shared borrow.
    ///
    /// # Safety
    /// As [`from_parts_unchecked`](Self::from_parts_unchecked), except that the memory need not
    /// be writable but must not be written by anyone for `'a`.
    pub(crate) unsafe fn frozen(ptr: *const u8, shape: &[usize], strides: &[isize]) -> Self {
        // SAFETY: forwarded; the frozen mode never writes and never makes atomic references.
        let mut v = unsafe { Self::from_parts_unchecked(ptr.cast_mut(), shape, strides, false) };
        v.mode = Mode::Frozen;
        v
    }

    /// A C-ordered view of `dims` elements starting at `ptr`.
    ///
    /// # Safety
    /// As [`from_parts_unchecked`](Self::from_parts_unchecked), for the contiguous layout.
    #[inline]
    pub(crate) unsafe fn contiguous(ptr: *mut u8, dims: Dims) -> Self {
        // Built from the fixed-size arrays directly (no variable-length copies): shared arrays
        // are made by every thread of a block at every declaration.
        let (ndim, shape) = dims.raw();
        let mut strides = [0isize; MAX_DIMS];
        let mut acc = size_of::<T>() as isize;
        for k in (0..ndim.min(MAX_DIMS)).rev() {
            strides[k] = acc;
            acc = acc.wrapping_mul(shape[k] as isize);
        }
        // The caller's contract is `from_parts_unchecked`'s; `ndim <= MAX_DIMS` holds for `Dims`.
        View {
            ptr,
            ndim,
            shape,
            strides,
            mode: Mode::ReadWrite,
            _marker: PhantomData,
        }
    }

    /// The shape.
    ///
    /// ```
    /// let d = [1u8; 4];
    /// assert_eq!(rumba::kernel::GlobalView::from_slice(&d).shape(), &[4]);
    /// ```
    #[inline]
    pub fn shape(&self) -> &[usize] {
        self.assume_ndim();
        &self.shape[..self.ndim]
    }

    /// The strides, in bytes.
    ///
    /// ```
    /// let d = [1u16; 4];
    /// assert_eq!(rumba::kernel::GlobalView::from_slice(&d).strides(), &[2]);
    /// ```
    #[inline]
    pub fn strides(&self) -> &[isize] {
        self.assume_ndim();
        &self.strides[..self.ndim]
    }

    /// Tells the optimiser that `ndim <= MAX_DIMS`, so slicing the shape and strides needs no
    /// check (every element access slices both).
    #[inline(always)]
    fn assume_ndim(&self) {
        // SAFETY: `ndim` is only ever set by `from_parts_unchecked`, to the length of a slice
        // that was copied into the `MAX_DIMS`-element arrays (which panics if it is longer), and
        // by `contiguous`, to the length of a `Dims` (at most `MAX_DIMS` by construction).
        unsafe { std::hint::assert_unchecked(self.ndim <= MAX_DIMS) };
    }

    /// Number of dimensions.
    ///
    /// ```
    /// let d = [0.0f32; 4];
    /// assert_eq!(rumba::kernel::GlobalView::from_slice(&d).ndim(), 1);
    /// ```
    #[inline]
    pub fn ndim(&self) -> usize {
        self.ndim
    }

    /// Length of the first axis (like `len()` of a numpy array); 1 for a 0-d view.
    ///
    /// ```
    /// let mut d = [0u32; 6];
    /// let v = rumba::kernel::GlobalView::from_slice_mut_with_shape(&mut d, (3, 2)).unwrap();
    /// assert_eq!(v.len(), 3);
    /// ```
    #[inline]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        if self.ndim == 0 { 1 } else { self.shape[0] }
    }

    /// Total number of elements.
    ///
    /// ```
    /// let mut d = [0u32; 6];
    /// let v = rumba::kernel::GlobalView::from_slice_mut_with_shape(&mut d, (3, 2)).unwrap();
    /// assert_eq!(v.size(), 6);
    /// ```
    #[inline]
    pub fn size(&self) -> usize {
        if self.ndim == 1 {
            self.shape[0]
        } else {
            self.shape().iter().product()
        }
    }

    /// Whether [`set`](Self::set) and the atomics may write through this view.
    ///
    /// ```
    /// let d = [0u8; 2];
    /// assert!(!rumba::kernel::GlobalView::from_slice(&d).is_writable());
    /// ```
    pub fn is_writable(&self) -> bool {
        self.mode == Mode::ReadWrite
    }

    /// Whether the view reads with plain loads (memory behind a shared borrow, written by
    /// nobody), rather than atomically (memory reached with write permission).
    pub(crate) fn is_frozen(&self) -> bool {
        self.mode == Mode::Frozen
    }

    /// The address of the element at index 0 (for interop and diagnostics; do not dereference it
    /// except through [`access`](super::access)).
    ///
    /// ```
    /// let d = [5u8; 2];
    /// assert_eq!(rumba::kernel::GlobalView::from_slice(&d).as_ptr().cast_const(), d.as_ptr());
    /// ```
    pub fn as_ptr(&self) -> *mut T {
        self.ptr.cast()
    }

    /// The checked address of element `index`; faults the thread when out of bounds.
    #[inline(always)]
    pub(crate) fn element_ptr<I: NdIndex>(&self, index: I) -> *mut T {
        match index.byte_offset(self.shape(), self.strides()) {
            // Inside the view, so inside the memory it covers.
            Some(off) => self.ptr.wrapping_offset(off).cast(),
            None => self.out_of_bounds(index.components()),
        }
    }

    /// The checked address of element `index` for a write.
    #[inline(always)]
    pub(crate) fn element_ptr_mut<I: NdIndex>(&self, index: I) -> *mut T {
        if self.mode != Mode::ReadWrite {
            self.read_only(index.components());
        }
        self.element_ptr(index)
    }

    // The fault paths take the view by value: were its address to escape into them, every
    // (atomic) store through the view in a kernel loop would make the compiler reload the
    // view's mode, shape and strides from memory, instead of checking them once outside it.
    #[cold]
    #[inline(never)]
    fn out_of_bounds(self, index: Dims) -> ! {
        let shape = crate::error::format_shape(self.shape());
        let index_vals = index.as_slice();
        let message = if index_vals.len() != self.ndim {
            format!(
                "index {index} has {} component(s) but the {} array at {:p} has {} dimension(s) (shape {shape})",
                index_vals.len(),
                S::NAME,
                self.ptr,
                self.ndim
            )
        } else {
            let axis = (0..self.ndim)
                .find(|&k| index_vals[k] >= self.shape[k])
                .unwrap_or(0);
            let addr = (0..self.ndim).fold(self.ptr as usize, |a, k| {
                a.wrapping_add((index_vals[k] as isize).wrapping_mul(self.strides[k]) as usize)
            });
            format!(
                "index {index} is out of bounds for axis {axis} with size {} of the {} array at {:p} with shape {shape} (address {addr:#x})",
                self.shape[axis],
                S::NAME,
                self.ptr
            )
        };
        fault::raise(message)
    }

    #[cold]
    #[inline(never)]
    fn read_only(self, index: Dims) -> ! {
        fault::raise(format!(
            "write to index {index} of a read-only {} array at {:p} with shape {}",
            S::NAME,
            self.ptr,
            crate::error::format_shape(self.shape())
        ))
    }

    /// Reads element `index`. Faults the calling GPU thread if the index is out of bounds.
    ///
    /// ```
    /// let d = [10i64, 20, 30];
    /// assert_eq!(rumba::kernel::GlobalView::from_slice(&d).get(2), 30);
    /// ```
    #[inline(always)]
    pub fn get<I: NdIndex>(&self, index: I) -> T {
        let p = self.element_ptr(index);
        if self.mode == Mode::Frozen {
            // SAFETY: `p` is in bounds of a live, aligned slice that is shared-borrowed for 'a,
            // so nobody writes it and a plain read cannot race.
            return unsafe { p.read() };
        }
        // SAFETY: `p` is in bounds, so inside the live, aligned memory this view covers
        // (construction contract); `access` makes the racy read sound.
        unsafe { access::load(p) }
    }

    /// Writes element `index`. Faults the calling GPU thread if the index is out of bounds or the
    /// view is read-only.
    ///
    /// ```
    /// let mut d = [0u8; 3];
    /// rumba::kernel::GlobalView::from_slice_mut(&mut d).set(1, 9);
    /// assert_eq!(d, [0, 9, 0]);
    /// ```
    #[inline(always)]
    pub fn set<I: NdIndex>(&self, index: I, value: T) {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `get`, and the view is writable.
        unsafe { access::store(p, value) }
    }

    /// Slices the first axis, Python style (`arr[start:stop:step]`). The result aliases the same
    /// bytes. Faults the thread if the step is 0 or the view is 0-d.
    ///
    /// ```
    /// use rumba::kernel::{GlobalView, Slice};
    /// let mut d = [0i32; 6];
    /// let v = GlobalView::from_slice_mut(&mut d);
    /// let odd = v.slice(Slice::from(1..).step_by(2));
    /// odd.set(2, 5);
    /// assert_eq!(d, [0, 0, 0, 0, 0, 5]);
    /// ```
    pub fn slice(&self, s: impl Into<Slice>) -> Self {
        self.slice_axis(0, s)
    }

    /// Slices axis `axis`, Python style. Faults the thread if the axis does not exist or the
    /// step is 0.
    ///
    /// ```
    /// use rumba::kernel::{GlobalView, Slice};
    /// let mut d = [1, 2, 3, 4, 5, 6];
    /// let v = GlobalView::from_slice_mut_with_shape(&mut d, (2, 3)).unwrap();
    /// let last_col = v.slice_axis(1, Slice::from(-1..));
    /// assert_eq!(last_col.shape(), &[2, 1]);
    /// assert_eq!(last_col.get((1, 0)), 6);
    /// ```
    pub fn slice_axis(&self, axis: usize, s: impl Into<Slice>) -> Self {
        let s = s.into();
        if axis >= self.ndim {
            fault::raise(format!(
                "cannot slice axis {axis} of a {}-d {} array",
                self.ndim,
                S::NAME
            ));
        }
        if s.step == 0 {
            fault::raise(format!(
                "slice step cannot be zero (slicing a {} array)",
                S::NAME
            ));
        }
        let (start, count) = s.resolve(self.shape[axis]);
        let mut v = *self;
        if count > 0 {
            // `start` is a valid index of the axis, so the new base is an element of the view.
            v.ptr = self.ptr.wrapping_offset(start * self.strides[axis]);
        }
        v.shape[axis] = count;
        v.strides[axis] = self.strides[axis] * s.step;
        v
    }
}

impl<'a, T: Pod> View<'a, T, Global> {
    /// A view of global memory from a raw pointer, a shape and **byte** strides — how the array
    /// layer hands device memory to a kernel.
    ///
    /// # Errors
    /// [`Error::Strides`] when `shape` and `strides` differ in length, or when the pointer or a
    /// stride is not a multiple of `align_of::<T>()` (axes of length ≤ 1 may have any stride);
    /// [`Error::Limit`] for more than [`MAX_DIMS`] axes.
    ///
    /// # Safety
    /// Every element the layout addresses (`ptr + Σ i_k * strides[k]` for in-bounds indices) must
    /// lie in memory that stays allocated for `'a`, and for `'a` that memory may be accessed by
    /// others only through views and [`access`](super::access) (no Rust references to it may be
    /// used while a view writes it). The memory must be writable and `ptr` derived with write
    /// permission even when `writable` is false, because loads are atomic; a read-only view
    /// (`writable == false`) merely refuses stores.
    ///
    /// ```
    /// use rumba::kernel::GlobalView;
    /// let mut d = [0f32; 6];
    /// // Column 1 of a 3x2 C-ordered matrix: shape (3,), stride 8 bytes.
    /// // SAFETY: `d` outlives the view and is used only through it meanwhile.
    /// let col = unsafe { GlobalView::from_raw_parts(d.as_mut_ptr().add(1), &[3], &[8], true) }.unwrap();
    /// col.set(2, 1.0);
    /// assert_eq!(d[5], 1.0);
    /// ```
    pub unsafe fn from_raw_parts(
        ptr: *mut T,
        shape: &[usize],
        strides: &[isize],
        writable: bool,
    ) -> Result<Self> {
        if shape.len() != strides.len() {
            return Err(StridesError::Count {
                shape: shape.to_vec(),
                strides: strides.to_vec(),
            }
            .into());
        }
        if shape.len() > MAX_DIMS {
            return Err(Error::Limit {
                what: "axes of a global view",
                value: shape.len(),
                max: MAX_DIMS,
            });
        }
        let align = align_of::<T>();
        let dtype = std::any::type_name::<T>();
        if (ptr as usize) % align != 0 {
            return Err(StridesError::MisalignedPointer {
                ptr: ptr as usize,
                align,
                dtype,
            }
            .into());
        }
        if (0..shape.len()).any(|k| shape[k] > 1 && strides[k] % align as isize != 0) {
            return Err(StridesError::Misaligned {
                offset: 0,
                strides: strides.to_vec(),
                align,
                dtype,
            }
            .into());
        }
        // SAFETY: layout checked above; memory validity is the caller's contract.
        Ok(unsafe { Self::from_parts_unchecked(ptr.cast(), shape, strides, writable) })
    }

    /// A writable 1-d view of a host slice, for the duration of the borrow.
    ///
    /// ```
    /// let mut d = [1u32, 2];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// v.set(0, v.get(1) * 10);
    /// assert_eq!(d, [20, 2]);
    /// ```
    pub fn from_slice_mut(s: &'a mut [T]) -> Self {
        // SAFETY: the exclusive borrow keeps the slice alive and unused by anyone else for 'a;
        // the layout covers exactly its elements, which are aligned.
        unsafe { Self::contiguous(s.as_mut_ptr().cast(), [s.len()].into_dims()) }
    }

    /// A writable C-ordered n-d view of a host slice.
    ///
    /// # Errors
    /// [`Error::Shape`] if the shape's size is not the slice's length.
    ///
    /// ```
    /// let mut d = [0u8; 24];
    /// let v = rumba::kernel::GlobalView::from_slice_mut_with_shape(&mut d, (2, 3, 4)).unwrap();
    /// assert_eq!(v.strides(), &[12, 4, 1]);
    /// assert!(rumba::kernel::GlobalView::from_slice_mut_with_shape(&mut d, 5).is_err());
    /// ```
    pub fn from_slice_mut_with_shape(s: &'a mut [T], shape: impl IntoShape) -> Result<Self> {
        let dims = shape.into_dims();
        if dims.size() != Some(s.len()) {
            return Err(ShapeError::ReshapeSize {
                size: s.len(),
                shape: dims.as_slice().iter().map(|&d| d as isize).collect(),
            }
            .into());
        }
        // SAFETY: as in `from_slice_mut`; the shape covers exactly the slice.
        Ok(unsafe { Self::contiguous(s.as_mut_ptr().cast(), dims) })
    }

    /// A read-only 1-d view of a host slice: [`set`](Self::set) and atomics fault.
    ///
    /// ```
    /// let d = [3u8, 4];
    /// assert_eq!(rumba::kernel::GlobalView::from_slice(&d).get(1), 4);
    /// ```
    pub fn from_slice(s: &'a [T]) -> Self {
        // SAFETY: the shared borrow keeps the slice alive and unwritten for 'a; the view is
        // frozen: it never writes and reads with plain loads (an atomic load would need a
        // pointer with write permission).
        let mut v =
            unsafe { Self::contiguous(s.as_ptr().cast_mut().cast(), [s.len()].into_dims()) };
        v.mode = Mode::Frozen;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::sim::engine::fault::{Unwound, describe};

    /// The fault message `f` unwinds with (shared with the view operations' tests).
    pub(super) fn fault_of(f: impl FnOnce()) -> String {
        match describe(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_err()) {
            Unwound::Fault(m) => m,
            Unwound::Barrier(_) => unreachable!(),
        }
    }

    #[test]
    fn out_of_bounds_names_index_and_shape() {
        let mut d = [0i32; 6];
        let v = GlobalView::from_slice_mut_with_shape(&mut d, (2, 3)).unwrap();
        let m = fault_of(|| {
            v.get((1, 3));
        });
        assert!(
            m.contains("index (1, 3) is out of bounds for axis 1 with size 3"),
            "{m}"
        );
        assert!(m.contains("global array"), "{m}");
        assert!(m.contains("shape (2, 3)"), "{m}");
        let addr = format!("(address {:#x})", v.as_ptr() as usize + 24);
        assert!(m.ends_with(&addr), "{m}");
        let m = fault_of(|| {
            v.get(1);
        });
        assert!(m.contains("has 1 component(s)"), "{m}");
    }

    #[test]
    fn read_only_and_bad_slices_fault() {
        let d = [0i32; 3];
        let v = GlobalView::from_slice(&d);
        assert!(fault_of(|| v.set(0, 1)).contains("read-only global array"));
        assert!(
            fault_of(|| {
                v.slice(Slice::from(..).step_by(0));
            })
            .contains("step cannot be zero")
        );
        assert!(
            fault_of(|| {
                v.slice_axis(1, ..);
            })
            .contains("cannot slice axis 1")
        );
    }

    #[test]
    fn raw_parts_are_checked() {
        let mut d = [0u32; 4];
        let p = d.as_mut_ptr();
        // SAFETY: only the checks run; the views are never used.
        unsafe {
            assert!(GlobalView::from_raw_parts(p, &[2], &[4, 4], true).is_err());
            assert!(
                GlobalView::from_raw_parts(p.cast::<u8>().add(1).cast::<u32>(), &[1], &[4], true)
                    .is_err()
            );
            assert!(GlobalView::from_raw_parts(p, &[2], &[6], true).is_err());
            assert!(GlobalView::from_raw_parts(p, &[1], &[6], true).is_ok());
            assert!(GlobalView::from_raw_parts(p.add(3), &[4], &[-4], true).is_ok());
        }
    }
}
