//! The types and functions most programs use, in one import: `use rumba::prelude::*;`.
//!
//! Host-side only: kernels import [`rumba::kernel::prelude`](crate::kernel::prelude) (`Thread`,
//! `Arr`, `#[kernel]`, …), which can be used beside this one. [`Result`](crate::Result) is left
//! out so that the glob does not replace the standard `Result`; write `rumba::Result`.
//!
//! | what | items |
//! |---|---|
//! | device arrays | [`DeviceArray`], [`Order`], [`to_device`], [`to_device_on`], [`device_array`](fn@device_array), [`device_array_like`], [`s!`](s) |
//! | host memory | [`PinnedArray`], [`MappedArray`], [`ManagedArray`], [`MappedOptions`], [`pinned_array`], [`pinned_array_like`], [`mapped_array`], [`managed_array`], [`pinned`](fn@pinned), [`mapped`](fn@mapped) |
//! | transfers | [`copy`] (and `Stream::copy`, `StreamScope::copy`), [`StreamScope`], [`Transfer`] |
//! | streams and events | [`Stream`], [`Event`], [`EventOptions`], [`stream`], [`default_stream`], [`event`], [`synchronize`] |
//! | devices and memory | [`Context`], [`current_context`], [`select_device`], [`gpus`], [`defer_cleanup`] |
//! | kernel arguments | [`In`], [`Out`], [`InOut`] |
//! | errors | [`Error`] |
//!
//! ```
//! use rumba::prelude::*;
//!
//! # fn main() -> rumba::Result<()> {
//! let host = ndarray::array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let d = to_device(&host)?;
//! d.slice(s![.., 1])?.assign(0.0f32)?;                 // on the device
//!
//! let s = stream()?;
//! let (start, end) = (event(EventOptions::new())?, event(EventOptions::new())?);
//! let mut p = pinned_array::<f32, _>((2, 3), Order::C)?;
//! start.record(&s)?;
//! s.auto_synchronize(|scope| scope.copy(&mut p, &d))?; // borrows `p` until done
//! end.record(&s)?;
//! end.synchronize()?;
//! assert_eq!(p.view(), ndarray::array![[1.0, 0.0, 3.0], [4.0, 0.0, 6.0]]);
//! assert!(start.elapsed_time(&end)? >= 0.0);
//!
//! let m = mapped_array::<u8, _>(4, Order::C, MappedOptions::new())?;
//! assert_eq!(m.view().to_vec(), [0; 4]);                // mapped memory starts zeroed
//! # Ok(())
//! # }
//! ```

pub use crate::array::{DeviceArray, device_array, device_array_like, to_device, to_device_on};
pub use crate::error::Error;
pub use crate::host::{
    ManagedArray, MappedArray, MappedOptions, PinnedArray, managed_array, mapped, mapped_array,
    pinned, pinned_array, pinned_array_like,
};
pub use crate::kernel::{In, InOut, Out};
pub use crate::layout::Order;
pub use crate::runtime::context::Context;
pub use crate::runtime::{current_context, defer_cleanup, gpus, select_device, synchronize};
pub use crate::stream::event::{Event, EventOptions, event};
pub use crate::stream::{Stream, default_stream, stream};
pub use crate::transfer::{StreamScope, Transfer, copy};
/// `ndarray`'s slicing macro, for [`DeviceArray::slice`] (the `ndarray` rumba uses).
pub use ndarray::s;
