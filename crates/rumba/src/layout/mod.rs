//! Array layout arithmetic and element types — pure code: no device, no memory, no driver.
//!
//! A device array is an allocation plus a [`Layout`]: shape, **byte** strides (negative and zero
//! allowed, as in Numba), the byte offset of the first element and the element size. Everything
//! an array view can do without touching memory lives here and is property-tested against
//! `ndarray` as the oracle:
//!
//! | file | concept |
//! | --- | --- |
//! | [`element`] | [`Element`] (types that may live on the device) and [`DType`] |
//! | [`order`] | [`Order`]: C, F, A |
//! | [`array_layout`] | [`Layout`]: constructors, attributes, contiguity, `empty_like`, element offsets |
//! | `extent` (private) | the bytes a shape and strides reach, relaxed contiguity, negative indices |
//! | [`dim`] | conversions to and from ndarray's `Dimension` types |
//! | [`slice`](mod@slice) | `s![..]` slicing, `index_axis`, `split` |
//! | [`reshape`] | `reshape`, `ravel`, `view_as` (no copy, ever) |
//! | [`axes`] | `permuted_axes`, `transpose`, `t`, `squeeze` |
//! | [`broadcast`] | `broadcast_to` for assignment |
//! | [`runs`] | [`ContiguousRuns`]: a strided layout as contiguous byte runs |
//! | [`copy`] | [`check_copy`]: may `src` be copied into `dst`, and how |
//!
//! ```
//! use ndarray::s;
//! use rumba::layout::{Layout, Order};
//! let a = Layout::new(&[4, 6], Order::C, 8).unwrap();      // a 4×6 f64 array
//! let v = a.slice(s![1.., ..;2]).unwrap();                 // rows 1.., every other column
//! assert_eq!((v.shape(), v.strides(), v.offset()), (&[3, 3][..], &[48, 16][..], 48));
//! assert!(!v.is_contiguous());
//! assert_eq!(v.runs().count(), 9);                         // nine 8-byte runs to gather
//! ```
//!
//! [`DeviceArray<T, D>`](crate::array::DeviceArray), in [`crate::array`], is built on top: it
//! adds the allocation, the driver and streams.

pub mod array_layout;
pub mod axes;
pub mod broadcast;
pub mod copy;
pub mod dim;
pub mod element;
pub(crate) mod extent;
pub mod order;
pub mod reshape;
pub mod runs;
pub mod slice;

pub use array_layout::Layout;
pub use copy::{CopyKind, CopyPlan, check_copy};
pub use element::{DType, Element, Kind, Record};
pub use order::Order;
pub use runs::{ContiguousRuns, RunBlock};
