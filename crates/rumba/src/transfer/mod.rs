//! One way to move elements: `copy(dst, src)`, on three paths that differ only in *when* the
//! copy completes and what it borrows.
//!
//! | path | call | completes | host memory |
//! | --- | --- | --- | --- |
//! | synchronous | [`copy(dst, src)`](copy) | before it returns | borrowed for the call |
//! | on a stream | [`stream.copy(dst, src)`](Stream::copy) | in stream order | host sources are taken (staged) before it returns; host destinations wait for the data |
//! | on a scope | [`scope.copy(dst, src)`](StreamScope::copy) | by the scope's closing synchronization | borrowed until then, so pinned memory moves truly asynchronously |
//! | owned | [`stream.upload(pinned, &d)`](Stream::upload) / [`stream.download(&d, pinned)`](Stream::download) | when the [`Transfer`] is waited for | the pinned array is moved in and handed back |
//!
//! Which pairs each path takes (`dst` ← `src`; `—` is a compile error, with the reason):
//!
//! | `dst` ← `src` | `copy` | `stream.copy` | `scope.copy` |
//! | --- | --- | --- | --- |
//! | `&DeviceArray` ← `&ArrayBase` / `&[T]` / `&Vec<T>` (pageable host) | ✓ | ✓ staged | ✓ staged |
//! | `&mut ArrayBase` / `&mut [T]` / `&mut Vec<T>` ← `&DeviceArray` | ✓ | ✓ waits | ✓ waits (as CUDA's copies into pageable memory) |
//! | `&DeviceArray` ← `&DeviceArray` | ✓ | ✓ | ✓ |
//! | `&DeviceArray` ← `&PinnedArray` | ✓ | ✓ staged | ✓ truly asynchronous |
//! | `&mut PinnedArray` ← `&DeviceArray` | ✓ | ✓ waits | ✓ truly asynchronous |
//! | `&DeviceArray` ← [`MappedView`](crate::MappedView) | ✓ | — (the view's borrow could end before the copy) | ✓ |
//! | `&mut MappedViewMut` / [`MappedViewMut`](crate::MappedViewMut) ← `&DeviceArray` | ✓ (`&mut`) | — (as above) | ✓ (by value) |
//! | `&DeviceArray` ← `&GrainedArray` / `&mut GrainedArray` ← `&DeviceArray` ([`GrainedArray`](crate::host::GrainedArray)) | — | ✓ (the array records the stream) | — |
//! | [`&DeviceBuffer`](crate::memory::DeviceBuffer) ← `&[u8]` / `&[u8; N]` / `&Vec<u8>` | ✓ | — | ✓ |
//! | `&mut [u8]` / `&mut [u8; N]` / `&mut Vec<u8>` ← `&DeviceBuffer` | ✓ | — | ✓ |
//! | `&DeviceBuffer` ← `&DeviceBuffer` | ✓ | ✓ | ✓ |
//!
//! Every pair follows the copy rules of docs/design/behaviour.md §2 (same element type, enforced
//! by the types; same shape once length-1 axes are removed; strided host sides are packed), and every refusal is
//! taken before anything is queued. Buffers and bytes copy whole: the lengths must be equal
//! ([`Error::BufferLength`](crate::Error::BufferLength)); a part of a buffer is a
//! [`view`](crate::memory::DeviceBuffer::view) of it (`copy(&buf.view(8..16)?, bytes)`). The per-pair
//! methods of earlier versions (`copy_from_host`, `copy_to_host_into`, `copy_from_device`,
//! `scope.copy_to_device`, `copy_from_pinned`, `copy_to_mapped`, `stream.copy_device`, …) are
//! deprecated and name the `copy` form to use; [`DeviceArray::copy_to_host`](crate::DeviceArray::copy_to_host)
//! (a new host array) and the owned transfers stay.
//!
//! ```
//! use ndarray::array;
//! let host = array![[1.0f32, 2.0], [3.0, 4.0]];
//! let d = rumba::device_array::<f32, _>((2, 2), rumba::Order::C).unwrap();
//! rumba::copy(&d, &host).unwrap();                          // host → device, synchronous
//! let s = rumba::stream().unwrap();
//! let e = rumba::device_array_like(&d).unwrap();
//! s.copy(&e, &d).unwrap();                                  // device → device, in stream order
//! let mut back = ndarray::Array2::<f32>::zeros((2, 2));
//! s.auto_synchronize(|scope| scope.copy(&mut back, &e)).unwrap(); // borrowed until the scope ends
//! assert_eq!(back, host);
//! ```
//!
//! The borrow rules are checked by the compiler: a host destination cannot be read while a scoped
//! copy into it may still run.
//!
//! ```compile_fail,E0502
//! let d = rumba::to_device(&[1u8, 2]).unwrap();
//! let mut out = vec![0u8; 2];
//! let s = rumba::stream().unwrap();
//! s.auto_synchronize(|scope| {
//!     scope.copy(&mut out, &d)?;
//!     println!("{}", out[0]); // `out` is mutably borrowed until the scope ends
//!     Ok(())
//! }).unwrap();
//! ```
//!
//! The module owns every transfer: the verb and its pairs (`pairs.rs` for arrays,
//! `pairs_memory.rs` for buffers, bytes and grained arrays), the [`StreamScope`] and
//! its methods for each kind of memory (`scope.rs`, `scope_array.rs`, `scope_host.rs`), and the
//! owned [`Transfer`]s of pinned arrays (`owned.rs`). The per-pair methods of the array and host
//! layers stay where their data lives; this module adds no copy arithmetic of its own and
//! touches the driver only through the array layer's queue and the stream.

mod owned;
mod pairs;
mod pairs_memory;
mod scope;
mod scope_array;
mod scope_host;

use crate::error::Result;
use crate::stream::Stream;

pub use owned::{Rejected, Transfer, TransferResult};
pub use scope::StreamScope;

/// A destination that can receive `Src` synchronously (see the [module table](self)).
///
/// Implemented by references: `&DeviceArray` for device destinations (device memory is written
/// through shared references, as the device writes it), `&mut` host arrays for host ones.
pub trait CopyFrom<Src> {
    /// Copies `src` into `self`; complete when it returns.
    ///
    /// # Errors
    /// [`Error::IncompatibleShape`](crate::Error::IncompatibleShape) when the shapes differ
    /// (length-1 axes aside), [`Error::WrongDevice`](crate::Error::WrongDevice) across devices
    /// where the pair cannot be a peer copy, and the errors of the per-pair method it calls.
    fn copy_from(self, src: Src) -> Result<()>;
}

/// A destination that can receive `Src` in the order of a stream (see the [module table](self)).
pub trait CopyFromOn<Src> {
    /// Queues the copy of `src` into `self` on `stream`. Host sources are taken before it returns;
    /// host destinations wait for the data.
    ///
    /// # Errors
    /// As [`CopyFrom::copy_from`]; [`Error::WrongDevice`](crate::Error::WrongDevice) when `stream`
    /// is of another device. Failures of the queued work are reported by `stream`'s next
    /// synchronization.
    fn copy_from_on(self, src: Src, stream: &Stream) -> Result<()>;
}

/// A destination that can receive `Src` on a [`StreamScope`], borrowing host memory for `'env`
/// (see the [module table](self)).
pub trait CopyFromIn<'env, Src> {
    /// Queues the copy of `src` into `self` on `scope`'s stream; the scope's closing
    /// synchronization completes it.
    ///
    /// # Errors
    /// As [`CopyFromOn::copy_from_on`]; the queued work's failures are reported when the scope
    /// synchronizes.
    fn copy_from_in(self, src: Src, scope: &StreamScope<'_, 'env>) -> Result<()>;
}

/// Copies `src` into `dst`, complete when it returns (Numba's `copy_to_device` /
/// `copy_to_host(ary)` / `rumba::copy(d2, d)` in one verb; see the [module table](self)).
///
/// # Errors
/// As [`CopyFrom::copy_from`] for the pair.
///
/// ```
/// let d = rumba::device_array::<i32, _>(3, rumba::Order::C).unwrap();
/// rumba::copy(&d, &[1, 2, 3][..]).unwrap();
/// let mut out = vec![0; 3];
/// rumba::copy(&mut out, &d).unwrap();
/// assert_eq!(out, [1, 2, 3]);
/// let e = rumba::copy(&d, &[1, 2][..]).unwrap_err();
/// assert_eq!(e.to_string(), "incompatible shape: (3,) vs. (2,)");
///
/// // Raw device memory and host bytes: whole buffers, or a view for a part of one.
/// let buf = rumba::current_context().unwrap().memalloc(4).unwrap();
/// rumba::copy(&buf, &[1, 2, 3, 4]).unwrap();
/// let mut tail = [0u8; 2];
/// rumba::copy(&mut tail, &buf.view(2..).unwrap()).unwrap();
/// assert_eq!(tail, [3, 4]);
/// assert!(matches!(
///     rumba::copy(&buf, &[1, 2]),
///     Err(rumba::Error::BufferLength { expected: 4, found: 2 })
/// ));
/// ```
pub fn copy<Dst: CopyFrom<Src>, Src>(dst: Dst, src: Src) -> Result<()> {
    dst.copy_from(src)
}

impl Stream {
    /// Copies `src` into `dst` in this stream's order (see the [`transfer`](crate::transfer)
    /// table): device work is asynchronous, host sources are taken before this returns, host
    /// destinations wait for their data.
    ///
    /// # Errors
    /// As [`CopyFromOn::copy_from_on`] for the pair.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::device_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// s.copy(&d, &vec![7u8, 8, 9]).unwrap();
    /// let e = rumba::device_array_like(&d).unwrap();
    /// s.copy(&e, &d).unwrap();
    /// let mut out = [0u8; 3];
    /// s.copy(&mut out[..], &e).unwrap(); // waits for the data
    /// assert_eq!(out, [7, 8, 9]);
    /// ```
    pub fn copy<Dst: CopyFromOn<Src>, Src>(&self, dst: Dst, src: Src) -> Result<()> {
        dst.copy_from_on(src, self)
    }
}

impl<'env> StreamScope<'_, 'env> {
    /// Queues a copy of `src` into `dst` on the scope's stream; host memory on either side stays
    /// borrowed until the scope has synchronized (see the [`transfer`](crate::transfer) table).
    ///
    /// # Errors
    /// As [`CopyFromIn::copy_from_in`] for the pair.
    ///
    /// ```
    /// let mut p = rumba::pinned_array::<f64, _>(4, rumba::Order::C).unwrap();
    /// p.view_mut().fill(1.5);
    /// let mut q = rumba::pinned_array::<f64, _>(4, rumba::Order::C).unwrap();
    /// let d = rumba::device_array::<f64, _>(4, rumba::Order::C).unwrap();
    /// let s = rumba::stream().unwrap();
    /// s.auto_synchronize(|scope| {
    ///     scope.copy(&d, &p)?;     // truly asynchronous: `p` is pinned and borrowed
    ///     scope.copy(&mut q, &d)   // and back into `q`, after it in stream order
    /// }).unwrap();
    /// assert!(q.view().iter().all(|&v| v == 1.5));
    /// ```
    pub fn copy<Dst: CopyFromIn<'env, Src>, Src>(&self, dst: Dst, src: Src) -> Result<()> {
        dst.copy_from_in(src, self)
    }
}
