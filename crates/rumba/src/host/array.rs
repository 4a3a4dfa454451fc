//! [`HostArray<T, D, K>`]: the one host-array type, parameterised by the kind of memory `K`
//! ([`Pinned`], [`Mapped`], [`Managed`], [`Coarse`](super::Coarse), [`Fine`](super::Fine)).
//!
//! Every kind is an n-dimensional array of `T` that the host reads through `ndarray` views; what
//! differs is what the device can do with the memory and when the host may look at it, so each
//! kind adds its own methods in its own file (`pinned.rs`, `mapped.rs`, `managed.rs`,
//! `grained.rs`) while the shape queries here are shared. The kind is a type parameter in the
//! way [`kernel::View<S: MemorySpace>`](crate::kernel) keys memory spaces: code generic over
//! host memory writes `HostArray<T, D, K>`, and `PinnedArray<T, D>` and friends are aliases.
//! (An enum of kinds would turn "this kind has no device view" into a run-time error; a trait
//! object would lose the typed views.)
//!
//! A host array does not deref to a flat slice: an F-order or strided array seen as a slice in
//! memory order reads its elements in another order than its index order. Use
//! [`view`](super::PinnedArray::view) / [`view_mut`](super::PinnedArray::view_mut) for n-d access, or the
//! explicit [`as_slice_memory_order`](super::PinnedArray::as_slice_memory_order).
//!
//! ```compile_fail,E0608
//! let p = rumba::pinned_array::<u8, _>((2, 2), rumba::Order::F).unwrap();
//! let first = p[1]; // no flat indexing: `p.view()[[1, 0]]` says which element is meant
//! ```
//!
//! This module touches nothing but the array's shape; the memory is the kinds' business.

use std::marker::PhantomData;

use ndarray::Dimension;

use super::layout::HostLayout;
use crate::layout::{Element, Layout};

mod sealed {
    pub trait Sealed {}
}

/// A kind of host memory: the typestate of [`HostArray`]. Sealed: rumba defines the five kinds.
pub trait HostKind: sealed::Sealed + Send + Sync + 'static {
    /// What an array of this kind holds besides its shape (the allocation, and whatever releases
    /// or synchronizes it). Not nameable outside rumba.
    type Memory: Send + Sync;
    /// The kind's name in messages and `Debug` output (`"pinned"`, `"mapped"`, …).
    const NAME: &'static str;
}

/// An n-dimensional array of `T` in host memory of kind `K` (the kinds: the [`host`](crate::host)
/// module).
///
/// ```
/// use rumba::host::{HostArray, HostKind};
/// fn elements<T: rumba::layout::Element, K: HostKind>(a: &HostArray<T, ndarray::Ix2, K>) -> usize {
///     a.size()
/// }
/// let p = rumba::pinned_array::<f32, _>((2, 3), rumba::Order::C).unwrap();
/// let m = rumba::managed_array::<f32, _>((4, 4), rumba::Order::C).unwrap();
/// assert_eq!((elements(&p), elements(&m)), (6, 16));
/// ```
pub struct HostArray<T: Element, D: Dimension, K: HostKind> {
    pub(super) mem: K::Memory,
    pub(super) shape: HostLayout<D>,
    pub(super) _elem: PhantomData<T>,
}

/// Page-locked host memory (Numba's `pinned_array`): copies to and from it are truly
/// asynchronous.
#[derive(Debug, Clone, Copy)]
pub struct Pinned;

/// Mapped host memory (Numba's `mapped_array`): page-locked and addressed by the device in place.
#[derive(Debug, Clone, Copy)]
pub struct Mapped;

/// Managed (unified) memory (Numba's `managed_array`): one allocation for the host and every
/// device.
#[derive(Debug, Clone, Copy)]
pub struct Managed;

impl sealed::Sealed for Pinned {}
impl sealed::Sealed for Mapped {}
impl sealed::Sealed for Managed {}
impl sealed::Sealed for super::Coarse {}
impl sealed::Sealed for super::Fine {}

impl<T: Element, D: Dimension, K: HostKind> HostArray<T, D, K> {
    pub(super) fn from_parts(mem: K::Memory, shape: HostLayout<D>) -> Self {
        HostArray {
            mem,
            shape,
            _elem: PhantomData,
        }
    }

    /// The shape.
    ///
    /// ```
    /// let p = rumba::pinned_array::<u8, _>(5, rumba::Order::C).unwrap();
    /// assert_eq!(p.shape(), &[5]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.shape.layout.shape()
    }

    /// The shape as an ndarray dimension.
    ///
    /// ```
    /// let p = rumba::pinned_array::<u8, _>((2, 2), rumba::Order::C).unwrap();
    /// assert_eq!(p.raw_dim(), ndarray::Ix2(2, 2));
    /// ```
    pub fn raw_dim(&self) -> D {
        self.shape.dim.clone()
    }

    /// Number of axes.
    ///
    /// ```
    /// let m = rumba::managed_array::<u8, _>((2, 2, 2), rumba::Order::C).unwrap();
    /// assert_eq!(m.ndim(), 3);
    /// ```
    pub fn ndim(&self) -> usize {
        self.shape.layout.ndim()
    }

    /// Number of elements.
    ///
    /// ```
    /// let c = rumba::coarsegrain_array::<u8, _>((2, 5), rumba::Order::C).unwrap();
    /// assert_eq!(c.size(), 10);
    /// ```
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// The byte layout of the elements (strides in bytes, as device arrays have).
    ///
    /// ```
    /// let p = rumba::pinned_array::<f64, _>((2, 3), rumba::Order::C).unwrap();
    /// assert_eq!(p.layout().strides(), &[24, 8]);
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.shape.layout
    }
}

impl<T: Element, D: Dimension, K: HostKind> std::fmt::Debug for HostArray<T, D, K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "HostArray<{}, {}>(shape {})",
            T::DTYPE.name(),
            K::NAME,
            crate::error::format_shape(self.shape()),
        )
    }
}
