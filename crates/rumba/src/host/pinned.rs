//! Page-locked host arrays: [`PinnedArray`], made by [`pinned_array`] and [`pinned_array_like`].
//!
//! The memory comes from the context's memory manager
//! ([`MemoryManager::memhostalloc`](crate::memory::MemoryManager::memhostalloc), served by its
//! [`HostResource`](crate::memory::HostResource)), so a pooling manager caches it too. On the sim it is really page-locked with `mlock` where the OS permits;
//! when the OS refuses (typically `RLIMIT_MEMLOCK`), the allocation still succeeds and
//! [`PinnedArray::page_locking`] says why it is not locked.
//!
//! A pinned array is ordinary host memory to Rust: [`view`](PinnedArray::view) and
//! [`view_mut`](PinnedArray::view_mut) give `ndarray` views (see [`HostArray`] for why there is
//! no flat `Deref`). What makes it special is that copies from and to it on a stream are
//! truly asynchronous. Safe code reaches that only in two ways, both of which keep the host away
//! from the memory while the device uses it: a [`StreamScope`](crate::StreamScope) borrowing the
//! array until the scope synchronizes, or moving the array into a
//! [`Transfer`](crate::Transfer), which hands it back once the stream has reached the copy.
//!
//! This module touches the memory manager (allocation), the driver (page-locking queries) and the
//! memory it owns.

use ndarray::{ArrayView, ArrayViewMut, Dimension, IntoDimension};

use super::array::{HostArray, HostKind, Pinned};
use super::layout::HostLayout;
use crate::array::ArrayLike;
use crate::driver::{HostAllocFlags, PageLocking};
use crate::error::{HostMemoryError, Result};
use crate::layout::{Element, Order};
use crate::memory::PinnedBuffer;
use crate::runtime::context::Context;

/// An n-dimensional array of `T` in page-locked host memory.
///
/// ```
/// use rumba::Order;
/// let mut p = rumba::pinned_array::<f32, _>((2, 3), Order::C).unwrap();
/// p.view_mut().fill(1.5);
/// assert_eq!(p.view().sum(), 9.0);
/// assert_eq!(p.size(), 6);
/// let d = rumba::to_device(&p).unwrap();  // a pinned array is host data like any other
/// assert_eq!(d.copy_to_host().unwrap(), p.view());
/// ```
pub type PinnedArray<T, D> = HostArray<T, D, Pinned>;

/// What a pinned array holds: its buffer from the memory manager, and the context that made it.
#[doc(hidden)]
pub struct PinnedMem {
    buf: PinnedBuffer,
    ctx: Context,
}

impl HostKind for Pinned {
    type Memory = PinnedMem;
    const NAME: &'static str = "pinned";
}

/// Allocates host memory through `ctx`'s manager for `shape`, zeroed, aligned for `T`.
pub(crate) fn alloc_host<T: Element, D: Dimension>(
    ctx: &Context,
    shape: &HostLayout<D>,
    flags: HostAllocFlags,
) -> Result<PinnedBuffer> {
    let buf = ctx.memhostalloc(shape.extent().max(1), flags)?;
    if (buf.as_ptr() as usize) % std::mem::align_of::<T>() != 0 {
        return Err(HostMemoryError::Misaligned {
            ptr: buf.as_ptr() as usize,
            memory: "pinned".into(),
            dtype: T::DTYPE.name(),
        }
        .into());
    }
    Ok(buf)
}

/// A new page-locked host array of `shape` in `order` (`A` means C), zeroed.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Shape`](crate::Error::Shape)
/// when the byte size of `shape` overflows; [`Error::OutOfMemory`](crate::Error::OutOfMemory) when the host cannot provide
/// the memory.
///
/// ```
/// use rumba::Order;
/// let p = rumba::pinned_array::<u32, _>((3, 4), Order::F).unwrap();
/// assert_eq!(p.shape(), &[3, 4]);
/// assert_eq!(p.view().strides(), &[1, 3]);
/// assert!(p.view().iter().all(|&x| x == 0));
/// ```
pub fn pinned_array<T: Element, Sh: IntoDimension>(
    shape: Sh,
    order: Order,
) -> Result<PinnedArray<T, Sh::Dim>> {
    let dim = shape.into_dimension();
    PinnedArray::new(HostLayout::packed::<T>(&dim, order)?)
}

/// A new page-locked host array with the shape and element type of `like` (a host, device or
/// pinned array), laid out by numpy's `empty_like` rule.
///
/// # Errors
/// As [`pinned_array`].
///
/// ```
/// use ndarray::ShapeBuilder;
/// let host = ndarray::Array2::<f64>::zeros((4, 2).f());
/// let p = rumba::pinned_array_like(&host).unwrap();
/// assert_eq!(p.shape(), &[4, 2]);
/// assert!(p.view().t().is_standard_layout()); // F order, like `host`
/// ```
pub fn pinned_array_like<A: ArrayLike + ?Sized>(like: &A) -> Result<PinnedArray<A::Elem, A::Dim>> {
    PinnedArray::new(HostLayout::like(like)?)
}

impl<T: Element, D: Dimension> PinnedArray<T, D> {
    fn new(shape: HostLayout<D>) -> Result<Self> {
        let ctx = crate::runtime::current_context()?;
        let buf = alloc_host::<T, D>(&ctx, &shape, HostAllocFlags::default())?;
        Ok(PinnedArray::from_parts(PinnedMem { buf, ctx }, shape))
    }

    /// A shared `ndarray` view of the elements.
    ///
    /// ```
    /// let p = rumba::pinned_array::<i16, _>((2, 3), rumba::Order::C).unwrap();
    /// assert_eq!(p.view().dim(), (2, 3));
    /// ```
    pub fn view(&self) -> ArrayView<'_, T, D> {
        // SAFETY: the buffer is live, owned by `self`, aligned (checked at allocation), zeroed or
        // written only with valid `T`s, and `&self` excludes writers.
        unsafe { self.shape.view(self.mem.buf.as_ptr()) }
    }

    /// An exclusive `ndarray` view of the elements.
    ///
    /// ```
    /// let mut p = rumba::pinned_array::<i16, _>(4, rumba::Order::C).unwrap();
    /// p.view_mut().assign(&ndarray::array![1, 2, 3, 4]);
    /// assert_eq!(p.view().sum(), 10);
    /// ```
    pub fn view_mut(&mut self) -> ArrayViewMut<'_, T, D> {
        // SAFETY: as in `view`; `&mut self` makes the access exclusive.
        unsafe { self.shape.view_mut(self.mem.buf.as_ptr().cast_mut()) }
    }

    /// The elements as a slice, in memory order.
    ///
    /// ```
    /// use ndarray::ShapeBuilder;
    /// let mut p = rumba::pinned_array::<u8, _>((2, 2), rumba::Order::F).unwrap();
    /// p.view_mut()[[0, 1]] = 7;
    /// assert_eq!(p.as_slice_memory_order(), &[0, 0, 7, 0]); // column-major memory order
    /// ```
    pub fn as_slice_memory_order(&self) -> &[T] {
        // SAFETY: the packed layout covers exactly `size` elements from the start of the buffer.
        unsafe { std::slice::from_raw_parts(self.mem.buf.as_ptr().cast::<T>(), self.shape.size()) }
    }

    /// The elements as a mutable slice, in memory order.
    ///
    /// ```
    /// let mut p = rumba::pinned_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// p.as_slice_memory_order_mut().copy_from_slice(&[1, 2, 3]);
    /// assert_eq!(p.view().to_vec(), [1, 2, 3]);
    /// ```
    pub fn as_slice_memory_order_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice_memory_order`; `&mut self` makes the access exclusive.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.mem.buf.as_ptr().cast_mut().cast::<T>(),
                self.shape.size(),
            )
        }
    }

    /// Whether the memory is really page-locked, and if not, why (the allocation succeeds either
    /// way; copies from it are asynchronous either way).
    ///
    /// ```
    /// let p = rumba::pinned_array::<u8, _>(4096, rumba::Order::C).unwrap();
    /// match p.page_locking() {
    ///     rumba::driver::PageLocking::Available => assert!(p.is_page_locked()),
    ///     rumba::driver::PageLocking::Refused(why) => println!("not locked: {why}"),
    /// }
    /// ```
    pub fn page_locking(&self) -> PageLocking {
        self.mem
            .ctx
            .driver()
            .host_page_locking(self.mem.buf.as_ptr())
            .unwrap_or_else(|| {
                PageLocking::Refused("the memory is not registered as pinned".into())
            })
    }

    /// True when the memory is really page-locked.
    ///
    /// ```
    /// let p = rumba::pinned_array::<u8, _>(16, rumba::Order::C).unwrap();
    /// // Where the OS refuses `mlock` (a low RLIMIT_MEMLOCK), the memory works but is not locked.
    /// assert_eq!(p.is_page_locked(), p.page_locking().is_available());
    /// ```
    pub fn is_page_locked(&self) -> bool {
        self.page_locking().is_available()
    }

    /// The context the memory was allocated in.
    ///
    /// ```
    /// let p = rumba::pinned_array::<u8, _>(1, rumba::Order::C).unwrap();
    /// assert_eq!(p.context().device_id(), 0);
    /// ```
    pub fn context(&self) -> &Context {
        &self.mem.ctx
    }
}

crate::host::host_array_conversions!(PinnedArray);
