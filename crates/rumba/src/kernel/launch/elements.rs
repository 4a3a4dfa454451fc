//! Element types of kernel array parameters ([`KernelElement`]) and the device form of `bool`
//! ([`DeviceBool`]).
//!
//! Kernels address device memory through views of plain bytes (`bytemuck::Pod` elements), which
//! every element type is except `bool`: a `bool` with any byte other than 0 or 1 is undefined
//! behaviour in Rust, and device memory can hold any byte (a `u8` view of the same memory, or a
//! C kernel, may have written it). So an `Arr<bool>` parameter is seen by the kernel as an array
//! of [`DeviceBool`] — one byte, read as `byte != 0` and written as 0 or 1 — and the host's
//! `bool` arrays are only ever filled from device bytes through the normalising copy of
//! [`Element`] (`bool`'s [`Element::normalize_bytes`]). The CUDA C and OpenCL C forms do the
//! same with `unsigned char` / `uchar` elements (OpenCL C allows no `bool` in buffers).
//!
//! This module touches nothing but itself.

use bytemuck::{Pod, Zeroable};

use crate::layout::element::scalar_types;
use crate::layout::element::{Element, Record};

/// A `bool` as a kernel stores it in device memory: one byte, `0` false and anything else true
/// (as C reads a byte as a boolean). Kernels written with `#[rumba::kernel]` see `bool` and never
/// name this type; the closure API's views of an `Arr<bool>` hold it.
///
/// ```
/// use rumba::kernel::DeviceBool;
/// assert!(DeviceBool::new(true).get());
/// assert_eq!(DeviceBool::new(true).to_byte(), 1);
/// let junk: DeviceBool = bytemuck::cast(7u8); // any byte is a valid `DeviceBool`
/// assert!(junk.get());
/// assert_eq!(DeviceBool::from(junk.get()).to_byte(), 1);
/// ```
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash, Pod, Zeroable)]
#[repr(transparent)]
pub struct DeviceBool(u8);

impl DeviceBool {
    /// `0` for false, `1` for true.
    #[inline(always)]
    pub const fn new(b: bool) -> Self {
        DeviceBool(b as u8)
    }

    /// The boolean: any nonzero byte is true.
    #[inline(always)]
    pub const fn get(self) -> bool {
        self.0 != 0
    }

    /// The byte as stored.
    #[inline(always)]
    pub const fn to_byte(self) -> u8 {
        self.0
    }
}

impl From<bool> for DeviceBool {
    fn from(b: bool) -> Self {
        DeviceBool::new(b)
    }
}

impl From<DeviceBool> for bool {
    fn from(b: DeviceBool) -> Self {
        b.get()
    }
}

/// An element type of kernel array parameters (`Arr<T>`): an [`Element`] with the plain-data
/// type the kernel's views hold, [`Device`](Self::Device) — `T` itself for every element type
/// but `bool`, whose device form is [`DeviceBool`].
///
/// ```
/// use rumba::kernel::{DeviceBool, KernelElement};
/// fn device_size<T: KernelElement>() -> usize { size_of::<T::Device>() }
/// assert_eq!(device_size::<f64>(), 8);
/// assert_eq!(device_size::<bool>(), size_of::<DeviceBool>());
/// ```
pub trait KernelElement: Element {
    /// What a kernel's view of an array of `Self` holds.
    type Device: Pod + Send + Sync;
}

macro_rules! same_on_device {
    (kernel: [$($k:ty => $kk:ident, $kn:expr;)*] host: [$($h:ty => $hk:ident, $hn:expr;)*]) => {
        same_on_device!(@each $($k,)* $($h,)*);
    };
    (@each $($t:ty,)*) => {$(
        impl KernelElement for $t {
            type Device = $t;
        }
    )*};
}

scalar_types!(same_on_device);

impl KernelElement for bool {
    type Device = DeviceBool;
}

impl<R: Record> KernelElement for R {
    type Device = R;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_bool_reads_any_byte_and_writes_zero_or_one() {
        for byte in 0..=255u8 {
            let b: DeviceBool = bytemuck::cast(byte);
            assert_eq!(b.get(), byte != 0);
            assert_eq!(DeviceBool::new(b.get()).to_byte(), u8::from(byte != 0));
        }
        assert_eq!(size_of::<DeviceBool>(), size_of::<bool>());
    }
}
