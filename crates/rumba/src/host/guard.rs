//! Guards that page-lock (and map) **existing** host arrays while they live: one
//! [`HostGuard<A, K>`](HostGuard) whose kind `K` says what it does, as a
//! [`HostArray`](super::HostArray)'s kind does —
//! [`pinned`] makes a [`PinnedGuard`] (page-locked), [`mapped`] a [`MappedGuard`] (page-locked and
//! mapped, with device views) — and the ROC-style aliases [`register`] / [`deregister`].
//!
//! A guard takes the arrays — usually `&mut` borrows, as in `rumba::pinned([&mut a, &mut b])`,
//! but owned arrays work too — for its lifetime and gives access to them through views
//! ([`view`](HostGuard::view), [`view_mut`](HostGuard::view_mut), and for mapped guards the device
//! views [`device`](HostGuard::device) / [`device_mut`](HostGuard::device_mut)); it never hands
//! out the arrays themselves, so their memory cannot be reallocated (an `Array`'s `push_row`, a
//! `Vec`'s `push`) while registered.
//!
//! Unpinning happens **at drop, immediately** (through
//! [`MemoryManager::memunpin`](crate::memory::MemoryManager::memunpin), never through the
//! deferred queue), so pinning the same memory again always works — twice in a row, inside
//! [`defer_cleanup`](crate::defer_cleanup), after an error left the guarded scope. A failure to
//! unpin at drop is logged; [`HostGuard::release`] returns it instead.
//!
//! Several arrays (or views) may share pages or even bytes: their spans are merged before
//! registration. Spans inside memory the backend allocated pinned (a view of a
//! [`PinnedArray`](crate::PinnedArray) or [`MappedArray`](crate::MappedArray)) are left alone:
//! the driver refuses to register them, and a `mapped` guard over memory pinned without `mapped`
//! names that refusal. Every other span is registered, even where the driver's table says it is
//! pinned already: the caller holds those bytes exclusively, so a registration over them is a
//! leaked guard's, stale, and the driver replaces it. (Taking it for pinned would leave the stale
//! entry in place after this guard ends.) A guard over a view that another live guard hands out
//! is treated the same way, so the outer guard's release then reports its range as not
//! registered: pin memory once. When the OS refuses to lock pages the guard still succeeds and
//! [`HostGuard::page_locking`] says why.
//!
//! Soundness does not depend on the guard's drop running (`std::mem::forget` may leak memory and
//! page locks, never break safety): no device work on guarded memory can outlive the guard's
//! borrow (host → device copies that return before completion hand the driver their bytes with
//! [`Driver::memcpy_htod_staged`](crate::driver::Driver::memcpy_htod_staged), or
//! borrow them in a scope; mapped device views are synchronous or scoped). A leaked guard leaves a
//! stale entry in the driver's table of pinned memory, which the allocator's next block at that
//! address then seems to be in — so no copy whose borrow ends at its return may let the driver
//! decide by that table whether to read the memory later (`tests/soundness_queue.rs`).
//!
//! This module touches the memory manager (pin/unpin), the driver (queries) and, through the
//! views, the arrays it borrows.

use std::marker::PhantomData;

use ndarray::{ArrayBase, ArrayView, ArrayViewMut, DataMut, Dimension, Ix1};

use super::array::{Mapped, Pinned};
use super::layout::{HostLayout, base_of};
use super::view::{MappedView, MappedViewMut, Parts};
use crate::driver::{HostAllocFlags, PageLocking};
use crate::error::{Error, HostMemoryError, Result};
use crate::layout::Element;
use crate::runtime::context::Context;

/// Host data that a guard can pin: any `ndarray` array or mutable view (any layout), `Vec`s,
/// fixed-size arrays, and `&mut` references to any of these (or to slices).
///
/// ```
/// use rumba::host::HostData;
/// let mut v = vec![1u8, 2, 3];
/// assert_eq!(v.host_view().len(), 3);
/// let mut a = ndarray::Array2::<f32>::zeros((2, 2));
/// (&mut a).host_view_mut().fill(1.0);
/// assert_eq!(a.sum(), 4.0);
/// ```
pub trait HostData {
    /// The element type.
    type Elem: Element;
    /// The dimensionality.
    type Dim: Dimension;
    /// A shared view of the data.
    fn host_view(&self) -> ArrayView<'_, Self::Elem, Self::Dim>;
    /// An exclusive view of the data.
    fn host_view_mut(&mut self) -> ArrayViewMut<'_, Self::Elem, Self::Dim>;
}

impl<T: Element, S: DataMut<Elem = T>, D: Dimension> HostData for ArrayBase<S, D> {
    type Elem = T;
    type Dim = D;
    fn host_view(&self) -> ArrayView<'_, T, D> {
        self.view()
    }
    fn host_view_mut(&mut self) -> ArrayViewMut<'_, T, D> {
        self.view_mut()
    }
}

impl<T: Element> HostData for [T] {
    type Elem = T;
    type Dim = Ix1;
    fn host_view(&self) -> ArrayView<'_, T, Ix1> {
        ArrayView::from(self)
    }
    fn host_view_mut(&mut self) -> ArrayViewMut<'_, T, Ix1> {
        ArrayViewMut::from(self)
    }
}

/// `Vec`s and fixed-size arrays are guarded as the slices they hold.
macro_rules! host_data_as_slice {
    ($([$($generics:tt)*] $t:ty;)*) => {$(
        impl<$($generics)*> HostData for $t {
            type Elem = T;
            type Dim = Ix1;
            fn host_view(&self) -> ArrayView<'_, T, Ix1> {
                self[..].host_view()
            }
            fn host_view_mut(&mut self) -> ArrayViewMut<'_, T, Ix1> {
                self[..].host_view_mut()
            }
        }
    )*};
}
host_data_as_slice! {
    [T: Element] Vec<T>;
    [T: Element, const N: usize] [T; N];
}

impl<H: HostData + ?Sized> HostData for &mut H {
    type Elem = H::Elem;
    type Dim = H::Dim;
    fn host_view(&self) -> ArrayView<'_, H::Elem, H::Dim> {
        (**self).host_view()
    }
    fn host_view_mut(&mut self) -> ArrayViewMut<'_, H::Elem, H::Dim> {
        (**self).host_view_mut()
    }
}

/// The registrations of one guard: start addresses to unregister at drop.
struct Registrations {
    ctx: Context,
    starts: Vec<*mut u8>,
}

impl Registrations {
    /// Registers the spans of `arrays` (merged, skipping already pinned memory) with `flags`.
    fn new<A: HostData>(arrays: &mut [A], flags: HostAllocFlags) -> Result<Self> {
        let ctx = crate::runtime::current_context()?;
        let mut spans: Vec<(usize, usize)> = Vec::with_capacity(arrays.len());
        for a in arrays.iter_mut() {
            let v = a.host_view_mut();
            let view = v.view();
            let shape = HostLayout::of_view(&view)?;
            if shape.size() > 0 {
                let lo = base_of(&view, &shape) as usize;
                spans.push((lo, lo + shape.extent()));
            }
        }
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
        for (lo, hi) in spans {
            match merged.last_mut() {
                Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        let mut regs = Registrations {
            ctx,
            starts: Vec::with_capacity(merged.len()),
        };
        let drv = regs.ctx.driver().clone();
        for (lo, hi) in merged {
            let ptr = lo as *mut u8;
            // SAFETY: `[lo, hi)` lies inside host arrays exclusively borrowed by the guard for its
            // lifetime, which ends only after the guard's drop unregisters it. (If the guard is
            // leaked the registration goes stale; see the module docs for why that is harmless.)
            let registered = unsafe { regs.ctx.memory_manager().mempin(ptr, hi - lo, flags) };
            match registered {
                Ok(()) => regs.starts.push(ptr),
                // Inside memory the backend allocated pinned (a view of a pinned or mapped
                // array): already pinned, and left as it is. A driver refuses only its own
                // allocations so; a registration over these bytes is stale and was replaced.
                Err(Error::HostMemory(HostMemoryError::Overlap { .. }))
                    if drv.is_host_pinned(ptr, hi - lo) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(regs)
    }

    /// Unregisters everything, reporting every failure.
    fn release(&mut self) -> Result<()> {
        let mut failures = Vec::new();
        for ptr in self.starts.drain(..) {
            // SAFETY: no device work on guarded memory outlives the guard (module docs), and the
            // guard is being released.
            if let Err(e) = unsafe { self.ctx.memory_manager().memunpin(ptr) } {
                failures.push(format!("host range at {ptr:p}: {e}"));
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Error::DeallocationFailed(failures))
        }
    }

    fn page_locking(&self) -> PageLocking {
        let drv = self.ctx.driver();
        for &p in &self.starts {
            if let Some(PageLocking::Refused(why)) = drv.host_page_locking(p) {
                return PageLocking::Refused(why);
            }
        }
        PageLocking::Available
    }
}

impl Drop for Registrations {
    fn drop(&mut self) {
        if let Err(e) = self.release() {
            tracing::warn!("unpinning host memory: {e}");
        }
    }
}

/// Page-locks `arrays` until the returned guard is dropped (Numba's `cuda.pinned`).
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::NotContiguous`]
/// when an array is not contiguous in memory; [`Error::HostMemory`] when its range is already
/// pinned; [`Error::Driver`]
/// when the OS or backend refuses to lock the pages. Arrays pinned before the failure are unpinned
/// again.
///
/// ```
/// let mut a = ndarray::Array1::<f64>::zeros(1000);
/// let mut b = ndarray::Array1::<f64>::ones(10);
/// {
///     let mut g = rumba::pinned([&mut a, &mut b]).unwrap();
///     let d = rumba::to_device(&g.view(1).unwrap()).unwrap();
///     rumba::copy(&mut g.view_mut(0).unwrap().slice_mut(ndarray::s![..10]), &d).unwrap();
/// } // unpinned here, immediately
/// assert_eq!(a.sum(), 10.0);
/// let _again = rumba::pinned([&mut a]).unwrap(); // re-pinning always works
/// ```
pub fn pinned<A: HostData>(arrays: impl IntoIterator<Item = A>) -> Result<PinnedGuard<A>> {
    HostGuard::new(arrays)
}

/// ROC-style alias of [`pinned`].
///
/// # Errors
/// As [`pinned`].
///
/// ```
/// let drv = rumba::backend_driver().unwrap();
/// let mut v = vec![0u32; 64];
/// let (ptr, bytes) = (v.as_ptr().cast::<u8>(), 64 * 4);
/// let g = rumba::register([&mut v]).unwrap();
/// assert!(drv.is_host_pinned(ptr, bytes));
/// rumba::deregister(g).unwrap();
/// assert!(!drv.is_host_pinned(ptr, bytes));
/// ```
pub fn register<A: HostData>(arrays: impl IntoIterator<Item = A>) -> Result<PinnedGuard<A>> {
    pinned(arrays)
}

/// ROC-style release of a [`register`] guard, reporting failures (dropping the guard does the
/// same and logs them).
///
/// # Errors
/// As [`HostGuard::release`].
///
/// ```
/// let drv = rumba::backend_driver().unwrap();
/// let mut v = vec![0u8; 8];
/// let ptr = v.as_ptr();
/// rumba::deregister(rumba::register([&mut v]).unwrap()).unwrap();
/// assert!(!drv.is_host_pinned(ptr, 8)); // unpinned at once, not deferred
/// v.push(1); // the vector is the caller's again
/// ```
pub fn deregister<A: HostData>(guard: PinnedGuard<A>) -> Result<()> {
    guard.release()
}

/// Page-locks `arrays` and maps them into the current device's address space until the
/// returned guard is dropped (Numba's `cuda.mapped`); the guard yields device views of them.
///
/// On OpenCL, mapping existing memory needs fine-grained *system* shared virtual memory (any host
/// address is a device address); a device without it refuses with
/// [`Error::Unsupported`](crate::Error::Unsupported).
///
/// # Errors
/// As [`pinned`], and [`Error::Unsupported`] when the backend cannot map existing memory (OpenCL
/// without fine-grained system SVM), or when memory already pinned without mapping would have to be
/// mapped.
///
/// ```
/// let mut host = vec![7u16; 4];
/// {
///     let mut g = match rumba::mapped([&mut host]) {
///         Ok(g) => g,
///         Err(rumba::Error::Unsupported { reason, .. }) if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl => {
///             println!("{reason}"); // an OpenCL device without fine-grained system SVM (PoCL)
///             return;
///         }
///         Err(e) => panic!("{e}"),
///     };
///     g.device_mut(0).unwrap().fill(9).unwrap();  // the device writes `host` directly
///     assert_eq!(g.view(0).unwrap().to_vec(), [9; 4]);
/// }
/// assert_eq!(host, [9; 4]);
/// ```
pub fn mapped<A: HostData>(arrays: impl IntoIterator<Item = A>) -> Result<MappedGuard<A>> {
    let guard = HostGuard::new(arrays)?;
    // Memory that was already pinned without `mapped` cannot be addressed by the device.
    let device = guard.regs.ctx.device_id();
    for i in 0..guard.arrays.len() {
        let view = guard.device(i)?;
        if view.layout().size() > 0 {
            view.device_ptr(device)?;
        }
    }
    Ok(guard)
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Pinned {}
    impl Sealed for super::Mapped {}
}

/// What a [`HostGuard`] does to the memory it guards: [`Pinned`] page-locks it, [`Mapped`] also
/// maps it into the device's address space. Sealed: these are the two kinds.
pub trait GuardKind: sealed::Sealed + Send + Sync + 'static {
    /// Whether the guarded memory is mapped for the device (the device addresses it directly).
    const MAPPED: bool;
    /// The guard's name in `Debug` output.
    const NAME: &'static str;
}

impl GuardKind for Pinned {
    const MAPPED: bool = false;
    const NAME: &'static str = "PinnedGuard";
}

impl GuardKind for Mapped {
    const MAPPED: bool = true;
    const NAME: &'static str = "MappedGuard";
}

/// Keeps host arrays page-locked (and, for [`Mapped`], mapped) while it lives; made by
/// [`pinned()`](fn@pinned) ([`PinnedGuard`]) and [`mapped()`](fn@mapped) ([`MappedGuard`]).
///
/// ```
/// let mut v = vec![1i32; 16];
/// let g = rumba::pinned([&mut v]).unwrap();
/// assert_eq!(g.len(), 1);
/// assert_eq!(g.view(0).unwrap().sum(), 16);
/// ```
pub struct HostGuard<A: HostData, K: GuardKind> {
    // Field order matters: the registrations are undone before owned arrays are freed.
    regs: Registrations,
    arrays: Vec<A>,
    _kind: PhantomData<K>,
}

/// Keeps host arrays page-locked while it lives; see [`pinned`].
pub type PinnedGuard<A> = HostGuard<A, Pinned>;

/// Keeps host arrays page-locked and mapped while it lives; see [`mapped`].
///
/// ```
/// let mut a = ndarray::Array1::<u8>::zeros(3);
/// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl
/// #     && matches!(rumba::mapped([&mut vec![0u8; 1]]), Err(rumba::Error::Unsupported { .. }))
/// # {
/// #     return; // an OpenCL device without fine-grained system SVM cannot map existing memory
/// # }
/// let g = rumba::mapped([&mut a]).unwrap();
/// assert_eq!(g.len(), 1);
/// ```
pub type MappedGuard<A> = HostGuard<A, Mapped>;

fn no_such(i: usize, n: usize) -> Error {
    Error::IndexOutOfRange {
        index: i as isize,
        axis: 0,
        size: n,
    }
}

impl<A: HostData, K: GuardKind> HostGuard<A, K> {
    fn new(arrays: impl IntoIterator<Item = A>) -> Result<Self> {
        let flags = HostAllocFlags {
            mapped: K::MAPPED,
            ..Default::default()
        };
        let mut arrays: Vec<A> = arrays.into_iter().collect();
        let regs = Registrations::new(&mut arrays, flags)?;
        Ok(HostGuard {
            regs,
            arrays,
            _kind: PhantomData,
        })
    }

    /// Number of guarded arrays.
    ///
    /// ```
    /// let mut v = vec![0u8; 4];
    /// assert_eq!(rumba::pinned([&mut v]).unwrap().len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.arrays.len()
    }

    /// True when the guard holds no array.
    ///
    /// ```
    /// assert!(rumba::pinned(Vec::<Vec<u8>>::new()).unwrap().is_empty());
    /// assert!(rumba::mapped(Vec::<Vec<u8>>::new()).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.arrays.is_empty()
    }

    /// A shared host view of array `i`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] when `i` is not below the number of guarded arrays.
    ///
    /// ```
    /// let mut v = vec![3u8; 4];
    /// let g = rumba::pinned([&mut v]).unwrap();
    /// assert_eq!(g.view(0).unwrap().sum(), 12);
    /// assert!(g.view(1).is_err());
    /// ```
    pub fn view(&self, i: usize) -> Result<ArrayView<'_, A::Elem, A::Dim>> {
        let n = self.arrays.len();
        Ok(self.arrays.get(i).ok_or_else(|| no_such(i, n))?.host_view())
    }

    /// An exclusive host view of array `i`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] when `i` is not below the number of guarded arrays.
    ///
    /// ```
    /// let mut v = vec![0u8; 4];
    /// let mut g = rumba::pinned([&mut v]).unwrap();
    /// g.view_mut(0).unwrap().fill(2);
    /// drop(g);
    /// assert_eq!(v, [2; 4]);
    /// ```
    pub fn view_mut(&mut self, i: usize) -> Result<ArrayViewMut<'_, A::Elem, A::Dim>> {
        let n = self.arrays.len();
        Ok(self
            .arrays
            .get_mut(i)
            .ok_or_else(|| no_such(i, n))?
            .host_view_mut())
    }

    /// Whether the guarded memory is really page-locked, and if not, why.
    ///
    /// ```
    /// let mut v = vec![0u8; 4096];
    /// let ptr = v.as_ptr();
    /// let g = rumba::pinned([&mut v]).unwrap();
    /// // Registered as pinned either way; whether the OS locked the pages is what this reports.
    /// assert!(rumba::backend_driver().unwrap().is_host_pinned(ptr, 4096));
    /// if let rumba::driver::PageLocking::Refused(why) = g.page_locking() { println!("{why}"); }
    /// ```
    pub fn page_locking(&self) -> PageLocking {
        self.regs.page_locking()
    }

    /// Unpins (and unmaps) now, reporting failures (dropping the guard does the same and logs
    /// them).
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] naming each range the driver could not unpin (the others are
    /// unpinned).
    ///
    /// ```
    /// let drv = rumba::backend_driver().unwrap();
    /// let mut v = vec![0u8; 4];
    /// let ptr = v.as_ptr();
    /// let g = rumba::pinned([&mut v]).unwrap();
    /// assert!(drv.is_host_pinned(ptr, 4));
    /// g.release().unwrap();
    /// assert!(!drv.is_host_pinned(ptr, 4));
    /// ```
    pub fn release(mut self) -> Result<()> {
        self.regs.release()
    }

    /// Unpins (and unmaps) now and gives the arrays back (with the unpinning's outcome).
    ///
    /// ```
    /// let g = rumba::pinned([vec![1u8; 4], vec![2u8; 4]]).unwrap(); // owned arrays work too
    /// let (arrays, unpinned) = g.into_arrays();
    /// unpinned.unwrap();
    /// assert_eq!(arrays[1], [2; 4]);
    /// ```
    pub fn into_arrays(mut self) -> (Vec<A>, Result<()>) {
        let r = self.regs.release();
        (std::mem::take(&mut self.arrays), r)
    }
}

impl<A: HostData> HostGuard<A, Mapped> {
    /// The device side of a host view of guarded memory.
    fn parts(&self, view: &ArrayView<'_, A::Elem, A::Dim>) -> Result<Parts<A::Dim>> {
        let shape = HostLayout::of_view(view)?;
        Ok(Parts {
            base: base_of(view, &shape).cast_mut(),
            shape,
            ctx: self.regs.ctx.clone(),
            stream: None,
        })
    }

    /// The device side of array `i`, shared: the device may read it.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] when `i` is not below the number of guarded arrays.
    ///
    /// ```
    /// let mut v = vec![4u32; 3];
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl
    /// #     && matches!(rumba::mapped([&mut vec![0u8; 1]]), Err(rumba::Error::Unsupported { .. }))
    /// # {
    /// #     return; // an OpenCL device without fine-grained system SVM cannot map existing memory
    /// # }
    /// let g = rumba::mapped([&mut v]).unwrap();
    /// let d = rumba::device_array::<u32, _>(3, rumba::Order::C).unwrap();
    /// rumba::copy(&d, g.device(0).unwrap()).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [4, 4, 4]);
    /// ```
    pub fn device(&self, i: usize) -> Result<MappedView<'_, A::Elem, A::Dim>> {
        let view = self.view(i)?;
        Ok(MappedView::new(self.parts(&view)?))
    }

    /// The device side of array `i`, exclusive: the device may write it.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] when `i` is not below the number of guarded arrays.
    ///
    /// ```
    /// let mut a = ndarray::Array2::<i32>::zeros((2, 2));
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl
    /// #     && matches!(rumba::mapped([&mut vec![0u8; 1]]), Err(rumba::Error::Unsupported { .. }))
    /// # {
    /// #     return; // an OpenCL device without fine-grained system SVM cannot map existing memory
    /// # }
    /// let mut g = rumba::mapped([a.view_mut().reversed_axes()]).unwrap();
    /// let src = rumba::to_device(&ndarray::array![[1, 2], [3, 4]]).unwrap();
    /// rumba::copy(&mut g.device_mut(0).unwrap(), &src).unwrap(); // into a transposed view
    /// drop(g);
    /// assert_eq!(a, ndarray::array![[1, 3], [2, 4]]);
    /// ```
    pub fn device_mut(&mut self, i: usize) -> Result<MappedViewMut<'_, A::Elem, A::Dim>> {
        // The base pointer comes from the exclusive view, whose borrow the device view keeps.
        let ctx = self.regs.ctx.clone();
        let view = self.view_mut(i)?;
        let shape = HostLayout::of_view(&view.view())?;
        let base = base_of(&view.view(), &shape).cast_mut();
        Ok(MappedViewMut::new(Parts {
            base,
            shape,
            ctx,
            stream: None,
        }))
    }
}

// SAFETY: the registrations are start addresses of memory the guard borrows; they are only
// passed back to the (thread-safe) memory manager.
unsafe impl Send for Registrations {}
// SAFETY: as above; shared access reads nothing through them.
unsafe impl Sync for Registrations {}

impl<A: HostData, K: GuardKind> std::fmt::Debug for HostGuard<A, K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}({} arrays, {} ranges)",
            K::NAME,
            self.arrays.len(),
            self.regs.starts.len()
        )
    }
}
