//! The array layer's errors, by case: what was asked of a shape ([`ShapeError`]) or of strides and
//! offsets ([`StridesError`]), with the values involved. The messages read like numpy's where
//! numpy has one for the case, so a user coming from Numba recognises them.

use super::ShapeText;

/// A shape, rank, reshape, broadcast or dtype view that cannot be honoured.
///
/// ```
/// use rumba::error::{Error, ShapeError};
/// let d = rumba::to_device(&ndarray::Array::from_iter(0..10i32)).unwrap();
/// let e = d.reshape((3, 4), rumba::Order::C).unwrap_err();
/// assert!(matches!(&e, Error::Shape(ShapeError::ReshapeSize { size: 10, .. })), "{e}");
/// assert_eq!(e.to_string(), "cannot reshape array of size 10 into shape (3, 4)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A reshape to a shape holding another number of elements.
    #[error("cannot reshape array of size {size} into shape {}", ShapeText(.shape))]
    ReshapeSize {
        /// Elements in the array.
        size: usize,
        /// The shape asked for (`-1` where the length was to be inferred).
        shape: Vec<isize>,
    },
    /// A requested shape with more than one `-1`.
    #[error("can only specify one unknown dimension: {}", ShapeText(.shape))]
    MultipleUnknown {
        /// The shape asked for.
        shape: Vec<isize>,
    },
    /// A requested shape with a negative length other than one `-1`.
    #[error("negative dimensions not allowed: {}", ShapeText(.shape))]
    NegativeDimension {
        /// The shape asked for.
        shape: Vec<isize>,
    },
    /// A shape whose byte count does not fit in the address space.
    #[error(
        "array is too big: shape {} of {itemsize}-byte elements does not fit in the address space",
        ShapeText(.shape)
    )]
    TooLarge {
        /// The shape.
        shape: Vec<usize>,
        /// Bytes per element.
        itemsize: usize,
    },
    /// A layout of zero-byte elements.
    #[error("element size must be nonzero")]
    ZeroItemsize,
    /// A shape used as an array of a fixed, different number of axes (`Ix2` given three axes).
    #[error(
        "cannot use shape {} with {} axes as a {expected}-dimensional array",
        ShapeText(.shape),
        .shape.len()
    )]
    Rank {
        /// The shape.
        shape: Vec<usize>,
        /// The number of axes required.
        expected: usize,
    },
    /// An element index with another number of components than the array has axes.
    #[error("{given} index/indices given for an array with {ndim} axes")]
    IndexCount {
        /// Components given.
        given: usize,
        /// Axes of the array.
        ndim: usize,
    },
    /// A slice that indexes more axes than the array has.
    #[error("too many indices for array: array is {ndim}-dimensional, but {given} were indexed")]
    TooManyIndices {
        /// Axes indexed.
        given: usize,
        /// Axes of the array.
        ndim: usize,
    },
    /// A slice with step 0.
    #[error("slice step cannot be zero (axis {axis})")]
    ZeroStep {
        /// The axis.
        axis: usize,
    },
    /// `squeeze(Some(axis))` of an axis whose length is not 1.
    #[error(
        "cannot select an axis to squeeze out which has size not equal to one (axis {axis} has length {len})"
    )]
    SqueezeLength {
        /// The axis.
        axis: usize,
        /// Its length.
        len: usize,
    },
    /// Broadcasting an array to fewer axes than it has.
    #[error("can't assign {from}-D array to {to}-D self")]
    BroadcastRank {
        /// Axes of the source.
        from: usize,
        /// Axes of the target shape.
        to: usize,
    },
    /// Broadcasting an axis whose length is neither 1 nor the target's.
    #[error("can't copy sequence with size {from} to array axis {axis} with dimension {to}")]
    Broadcast {
        /// The axis of the target shape.
        axis: usize,
        /// The source's length on it.
        from: usize,
        /// The target's length on it.
        to: usize,
    },
    /// A dtype view of a 0-d array to another item size.
    #[error(
        "changing the dtype of a 0d array is only supported if the itemsize is unchanged ({from} to {to} bytes)"
    )]
    ViewOfScalar {
        /// Item size of the array.
        from: usize,
        /// Item size asked for.
        to: usize,
    },
    /// A dtype view whose item size does not divide the bytes of the last axis.
    #[error(
        "when changing to a dtype of a different size, its size ({itemsize} bytes) must be a divisor of the total size in bytes of the last axis of the array ({last_axis_bytes} bytes)"
    )]
    ViewSize {
        /// Item size asked for.
        itemsize: usize,
        /// Bytes of the last axis.
        last_axis_bytes: usize,
    },
    /// A layout whose item size is not its dtype's.
    #[error("a layout of {layout}-byte elements cannot hold {dtype} ({itemsize} bytes)")]
    Itemsize {
        /// Item size of the layout.
        layout: usize,
        /// The dtype's name.
        dtype: &'static str,
        /// The dtype's item size.
        itemsize: usize,
    },
    /// Raw bytes of another length than the elements they should fill.
    #[error("cannot fill {elements} element(s) of {dtype} ({expected} bytes) from {found} bytes")]
    ByteCount {
        /// Elements to fill.
        elements: usize,
        /// Their dtype.
        dtype: &'static str,
        /// Bytes they need.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// A record member that does not fit, aligned, inside its record type.
    #[error(
        "a {field} field at byte {offset} does not fit, aligned, in the {record_itemsize}-byte record {record}"
    )]
    Field {
        /// The member's element type.
        field: &'static str,
        /// Its byte offset.
        offset: usize,
        /// Bytes of the record.
        record_itemsize: usize,
        /// The record type.
        record: &'static str,
    },
    /// `split` of an array that is not 1-dimensional.
    #[error("split only supports 1-d arrays, this one has {ndim} axes")]
    SplitRank {
        /// Axes of the array.
        ndim: usize,
    },
    /// `split` into sections of 0 elements.
    #[error("split section size must be at least 1")]
    SplitSection,
}

/// Strides or an offset that do not describe memory the array may use.
///
/// ```
/// use rumba::layout::Layout;
/// use rumba::error::{Error, StridesError};
/// let e = Layout::from_elem_strides(&[2, 3], &[3], 4).unwrap_err();
/// assert!(matches!(e, Error::Strides(StridesError::Count { .. })), "{e}");
/// assert_eq!(e.to_string(), "strides [3] do not match shape (2, 3): 1 stride(s) for 2 axes");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StridesError {
    /// Another number of strides than axes.
    #[error(
        "strides {strides:?} do not match shape {}: {} stride(s) for {} axes",
        ShapeText(.shape),
        .strides.len(),
        .shape.len()
    )]
    Count {
        /// The shape.
        shape: Vec<usize>,
        /// The strides given.
        strides: Vec<isize>,
    },
    /// An offset or a stride that is not a multiple of the element's alignment.
    #[error(
        "offset {offset} and strides {strides:?} must be multiples of the {align}-byte alignment of {dtype}"
    )]
    Misaligned {
        /// Byte offset.
        offset: usize,
        /// Byte strides.
        strides: Vec<isize>,
        /// The alignment required.
        align: usize,
        /// The element type.
        dtype: &'static str,
    },
    /// A layout that reaches bytes outside its allocation.
    #[error(
        "shape {} with strides {strides:?} at offset {offset} reaches outside the allocation of {alloc_len} bytes",
        ShapeText(.shape)
    )]
    OutOfAllocation {
        /// The shape.
        shape: Vec<usize>,
        /// Byte strides.
        strides: Vec<isize>,
        /// Byte offset.
        offset: usize,
        /// Bytes in the allocation.
        alloc_len: usize,
    },
    /// Strides whose reach overflows the address space.
    #[error("strides {strides:?} of shape {} overflow the address space", ShapeText(.shape))]
    Overflow {
        /// The shape.
        shape: Vec<usize>,
        /// The strides (in elements or bytes, as given).
        strides: Vec<isize>,
    },
    /// A pointer that is not aligned for the element type.
    #[error("pointer {ptr:#x} is not aligned to the {align} bytes of {dtype}")]
    MisalignedPointer {
        /// The pointer.
        ptr: usize,
        /// The alignment required.
        align: usize,
        /// The element type.
        dtype: &'static str,
    },
    /// A copy to the host of a device array with negative strides (copy it into a new device
    /// array first).
    #[error(
        "copying a device array with negative strides {strides:?} to the host is not supported; copy it into a new device array first"
    )]
    NegativeToHost {
        /// The array's byte strides.
        strides: Vec<isize>,
    },
    /// A copy whose destination repeats an axis (stride 0) that the source does not.
    #[error(
        "the destination repeats axis {axis} (stride 0) but the source does not (stride {source_stride}): cannot write different values to one element"
    )]
    RepeatedDestination {
        /// The axis (of the squeezed shapes).
        axis: usize,
        /// The source's byte stride on it.
        source_stride: isize,
    },
}
