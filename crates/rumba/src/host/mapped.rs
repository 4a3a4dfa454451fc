//! Mapped host arrays: [`MappedArray`], made by [`mapped_array`] and [`mapped_array_like`] —
//! page-locked host memory that the device reads and writes directly, with no copy.
//!
//! The host side is an ordinary owned array ([`view`](MappedArray::view),
//! [`view_mut`](MappedArray::view_mut)); the device side is a borrow
//! ([`device`](MappedArray::device) → [`MappedView`], [`device_mut`](MappedArray::device_mut) →
//! [`MappedViewMut`]) whose device operations complete before they return, or run on a
//! [`StreamScope`](crate::StreamScope) that synchronizes before the borrow ends. The two sides
//! therefore never overlap in time in a way that could race: see the [`host`](crate::host)
//! module docs for the whole argument.
//!
//! Flags are honoured (Numba ignores them):
//! - `portable`: the memory is mapped into **every** device's address space, not only the
//!   current one; without it, device work on another device is refused with an error naming the
//!   device ("not mapped into device 1").
//! - `write_combined`: on CUDA, the host writes it through write-combining buffers (fast for
//!   the host to write and the device to read; very slow for the host to read). On the sim the
//!   memory behaves as ordinary cached memory — the flag is passed to the driver, recorded, and
//!   reported by [`MappedArray::is_write_combined`], but changes neither results nor speed.
//!
//! This module touches the memory manager (allocation) and the memory it owns.

use ndarray::{ArrayView, ArrayViewMut, Dimension, IntoDimension};

use super::array::{HostArray, HostKind, Mapped};
use super::layout::HostLayout;
use super::pinned::alloc_host;
use super::view::{MappedView, MappedViewMut, Parts};
use crate::array::ArrayLike;
use crate::driver::HostAllocFlags;
use crate::error::Result;
use crate::layout::{Element, Order};
use crate::memory::PinnedBuffer;
use crate::runtime::context::Context;
use crate::stream::Stream;

/// An n-dimensional array of `T` in mapped host memory: page-locked, and addressed directly by
/// the device.
///
/// ```
/// use rumba::Order;
/// let mut m = rumba::mapped_array::<u32, _>(10, Order::C, rumba::MappedOptions::new()).unwrap();
/// m.view_mut().fill(123);
/// m.device_mut().memset(0).unwrap();        // the device writes the host memory
/// assert!(m.view().iter().all(|&x| x == 0)); // visible on the host, no copy
/// ```
pub type MappedArray<T, D> = HostArray<T, D, Mapped>;

/// What a mapped array holds: its page-locked buffer, the context that made it, and the stream it
/// is bound to.
#[doc(hidden)]
pub struct MappedMem {
    buf: PinnedBuffer,
    ctx: Context,
    stream: Option<Stream>,
}

impl HostKind for Mapped {
    type Memory = MappedMem;
    const NAME: &'static str = "mapped";
}

/// How a mapped host array is allocated: Numba's `portable` and `wc` keywords of
/// `mapped_array`, which rumba honours (see the [module docs](self)). Both are off by default.
///
/// ```
/// use rumba::MappedOptions;
/// let o = MappedOptions::new().portable(true);
/// assert!(o.is_portable() && !o.is_write_combined());
/// assert_eq!(MappedOptions::default(), MappedOptions::new());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct MappedOptions {
    portable: bool,
    write_combined: bool,
}

impl MappedOptions {
    /// Neither portable nor write-combined: mapped into the current device only, cached.
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>(4, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// assert!(!m.is_portable() && !m.is_write_combined());
    /// ```
    pub const fn new() -> Self {
        MappedOptions {
            portable: false,
            write_combined: false,
        }
    }

    /// Mapped into every device's address space, not only the current one (Numba's
    /// `portable=True`; CUDA's `CU_MEMHOSTALLOC_PORTABLE`).
    ///
    /// ```
    /// let o = rumba::MappedOptions::new().portable(true);
    /// assert!(o.is_portable());
    /// ```
    pub const fn portable(self, on: bool) -> Self {
        MappedOptions {
            portable: on,
            ..self
        }
    }

    /// Written by the host through write-combining buffers: fast for the host to write and the
    /// device to read, very slow for the host to read (Numba's `wc=True`; CUDA's
    /// `CU_MEMHOSTALLOC_WRITECOMBINED`). OpenCL has no such memory and refuses it.
    ///
    /// ```
    /// let o = rumba::MappedOptions::new().write_combined(true);
    /// assert!(o.is_write_combined() && !o.is_portable());
    /// ```
    pub const fn write_combined(self, on: bool) -> Self {
        MappedOptions {
            write_combined: on,
            ..self
        }
    }

    /// Whether the memory is mapped into every device.
    ///
    /// ```
    /// assert!(!rumba::MappedOptions::default().is_portable());
    /// ```
    pub const fn is_portable(&self) -> bool {
        self.portable
    }

    /// Whether the memory is write-combined.
    ///
    /// ```
    /// assert!(!rumba::MappedOptions::default().is_write_combined());
    /// ```
    pub const fn is_write_combined(&self) -> bool {
        self.write_combined
    }

    /// The driver's allocation flags for these options (always `mapped`).
    fn flags(self) -> HostAllocFlags {
        HostAllocFlags {
            portable: self.portable,
            mapped: true,
            write_combined: self.write_combined,
        }
    }
}

/// A new mapped host array of `shape` in `order` (`A` means C), zeroed, allocated as `options`
/// say (Numba's `mapped_array(shape, order=…, portable=…, wc=…)`).
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Shape`](crate::Error::Shape)
/// when the byte size of `shape` overflows; [`Error::OutOfMemory`](crate::Error::OutOfMemory) when the allocation fails;
/// [`Error::Unsupported`](crate::Error::Unsupported) for options the backend cannot honour (OpenCL: write-combined memory, or
/// mapped memory on a device without fine-grained SVM).
///
/// ```
/// use rumba::Order;
/// let m = rumba::mapped_array::<f32, _>((2, 3), Order::C, rumba::MappedOptions::new().portable(true)).unwrap();
/// assert!(m.is_portable() && !m.is_write_combined());
/// assert_eq!(m.view().dim(), (2, 3));
/// ```
pub fn mapped_array<T: Element, Sh: IntoDimension>(
    shape: Sh,
    order: Order,
    options: MappedOptions,
) -> Result<MappedArray<T, Sh::Dim>> {
    let dim = shape.into_dimension();
    MappedArray::new(HostLayout::packed::<T>(&dim, order)?, options)
}

/// A new mapped host array with the shape and element type of `like` (host, device, pinned or
/// mapped), laid out by numpy's `empty_like` rule.
///
/// # Errors
/// As [`mapped_array`].
///
/// ```
/// let host = ndarray::Array2::<i16>::zeros((3, 2));
/// let m = rumba::mapped_array_like(&host, rumba::MappedOptions::new().write_combined(true));
/// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
/// #     assert!(matches!(m, Err(rumba::Error::Unsupported { .. }))); // no write-combined memory
/// #     return;
/// # }
/// let m = m.unwrap();
/// assert_eq!(m.shape(), &[3, 2]);
/// assert!(m.is_write_combined());
/// ```
pub fn mapped_array_like<A: ArrayLike + ?Sized>(
    like: &A,
    options: MappedOptions,
) -> Result<MappedArray<A::Elem, A::Dim>> {
    MappedArray::new(HostLayout::like(like)?, options)
}

impl<T: Element, D: Dimension> MappedArray<T, D> {
    fn new(shape: HostLayout<D>, options: MappedOptions) -> Result<Self> {
        let ctx = crate::runtime::current_context()?;
        let flags = options.flags();
        let buf = alloc_host::<T, D>(&ctx, &shape, flags)?;
        Ok(MappedArray::from_parts(
            MappedMem {
                buf,
                ctx,
                stream: None,
            },
            shape,
        ))
    }

    fn parts(&self) -> Parts<D> {
        Parts {
            base: self.mem.buf.as_ptr().cast_mut(),
            shape: self.shape.clone(),
            ctx: self.mem.ctx.clone(),
            stream: self.mem.stream.clone(),
        }
    }

    /// The same array bound to `stream` (Numba's `mapped_array(.., stream=s)`): its synchronous
    /// device operations run on that stream (and wait for it), and its CUDA Array Interface
    /// description carries the stream's handle (never 0: the default stream is described as none).
    ///
    /// ```
    /// use rumba::interop::CudaArray;
    /// let s = rumba::stream().unwrap();
    /// let mut m = rumba::mapped_array::<u8, _>(4, rumba::Order::C, rumba::MappedOptions::new()).unwrap().bind(&s);
    /// assert_eq!(m.stream().unwrap().handle(), s.handle());
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    ///     assert!(matches!(m.describe(), Err(rumba::Error::Unsupported { .. }))); // CUDA's interface
    /// } else {
    ///     assert_eq!(m.describe().unwrap().stream, Some(s.handle().0));
    /// }
    /// m.device_mut().fill(3).unwrap(); // queued on `s`, waited for
    /// assert_eq!(m.view().to_vec(), [3; 4]);
    /// ```
    pub fn bind(mut self, stream: &Stream) -> Self {
        self.mem.stream = Some(stream.clone());
        self
    }

    /// The stream the array is bound to (see [`bind`](Self::bind)).
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>(4, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// assert!(m.stream().is_none());
    /// ```
    pub fn stream(&self) -> Option<&Stream> {
        self.mem.stream.as_ref()
    }

    /// The flags the memory was allocated with (`mapped` is always set).
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>(1, rumba::Order::C, rumba::MappedOptions::new().portable(true).write_combined(true));
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     assert!(matches!(m, Err(rumba::Error::Unsupported { .. }))); // no write-combined memory
    /// #     return;
    /// # }
    /// let f = m.unwrap().flags();
    /// assert!(f.mapped && f.portable && f.write_combined);
    /// ```
    pub fn flags(&self) -> HostAllocFlags {
        self.mem.buf.flags()
    }

    /// Whether every device can address the memory.
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>(1, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// assert!(!m.is_portable());
    /// ```
    pub fn is_portable(&self) -> bool {
        self.mem.buf.flags().portable
    }

    /// Whether the memory was allocated write-combined (see the [module docs](self)).
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>(1, rumba::Order::C, rumba::MappedOptions::new().write_combined(true));
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     assert!(matches!(m, Err(rumba::Error::Unsupported { .. }))); // no write-combined memory
    /// #     return;
    /// # }
    /// assert!(m.unwrap().is_write_combined());
    /// ```
    pub fn is_write_combined(&self) -> bool {
        self.mem.buf.flags().write_combined
    }

    /// A shared host view. No device work can be writing the memory: device writes need
    /// [`device_mut`](Self::device_mut), which this borrow excludes.
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// assert_eq!(m.view().len(), 3);
    /// ```
    pub fn view(&self) -> ArrayView<'_, T, D> {
        // SAFETY: live, owned, aligned memory of valid `T`s; device writes need `&mut self`, and
        // complete before the borrow they hold ends.
        unsafe { self.shape.view(self.mem.buf.as_ptr()) }
    }

    /// An exclusive host view.
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<u8, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// m.view_mut()[1] = 4;
    /// assert_eq!(m.view().to_vec(), [0, 4, 0]);
    /// ```
    pub fn view_mut(&mut self) -> ArrayViewMut<'_, T, D> {
        // SAFETY: as in `view`; no device work is pending on the memory (see `view`), and
        // `&mut self` excludes new device work while the view lives.
        unsafe { self.shape.view_mut(self.mem.buf.as_ptr().cast_mut()) }
    }

    /// The device side, shared: the device may read the memory.
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<u8, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// m.view_mut().fill(4);
    /// let d = rumba::device_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// rumba::copy(&d, m.device()).unwrap(); // the device reads the host memory
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [4, 4, 4]);
    /// ```
    pub fn device(&self) -> MappedView<'_, T, D> {
        MappedView::new(self.parts())
    }

    /// The device side, exclusive: the device may write the memory.
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<u8, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// m.device_mut().fill(5).unwrap();
    /// assert_eq!(m.view().to_vec(), [5, 5, 5]);
    /// ```
    pub fn device_mut(&mut self) -> MappedViewMut<'_, T, D> {
        MappedViewMut::new(self.parts())
    }

    /// True when the memory is really page-locked (see
    /// [`PinnedArray::page_locking`](crate::PinnedArray::page_locking)).
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// // Registered as pinned either way; whether the OS locked the pages is what this reports.
    /// assert!(rumba::backend_driver().unwrap().is_host_pinned(m.view().as_ptr(), 3));
    /// if m.is_page_locked() {
    ///     assert!(m.flags().mapped);
    /// }
    /// ```
    pub fn is_page_locked(&self) -> bool {
        self.mem
            .ctx
            .driver()
            .host_page_locking(self.mem.buf.as_ptr())
            .is_some_and(|p| p.is_available())
    }
}

crate::host::host_array_conversions!(MappedArray);
