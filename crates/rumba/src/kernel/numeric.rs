//! rumba's numeric traits: the bounds of generic kernels and device functions
//! (`#[rumba::kernel] fn axpy<T: Float>(…)`).
//!
//! Each trait admits a closed set of element types, and `#[rumba::kernel]` compiles one instance
//! of a generic function per admitted type (see [`prelude`](super::prelude)): [`Number`] the
//! integers and `f32` / `f64`, [`Int`] the ten integer types, [`SignedInt`] / [`UnsignedInt`]
//! their halves, [`Float`] `f32` and `f64`. The engine's [`AtomicValue`](super::AtomicValue) and
//! [`AtomicInteger`](super::AtomicInteger) are bounds too; several bounds admit what all of them
//! admit. The traits are sealed: they carry no operations of their own (a generic body is
//! checked per instance, where every type is concrete), only what launching a kernel over the
//! type needs.
//!
//! This module touches nothing but itself.

use bytemuck::Pod;

use super::launch::{KernelElement, Param};
use crate::array::element::Element;

mod sealed {
    pub trait Sealed {}
}

/// An element type of generic kernels: the integers, `f32` and `f64`.
///
/// ```
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn fill<T: Number>(t: &Thread, v: T, out: &mut Arr<T>) {
///     let i = t.grid1();
///     if i < out.len() {
///         out[i] = v;
///     }
/// }
///
/// # fn main() {
/// let d = rumba::device_array::<u16, _>(3, rumba::array::Order::C).unwrap();
/// fill::<u16>().configure(1, 3).launch((7u16, &d)).unwrap();
/// assert_eq!(d.copy_to_host().unwrap().to_vec(), [7, 7, 7]);
/// # }
/// ```
pub trait Number:
    sealed::Sealed
    + Param
    + KernelElement
    + Element
    + Pod
    + PartialOrd
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
{
}

/// The integer element types: `i8 u8 i16 u16 i32 u32 i64 u64 isize usize`.
///
/// ```
/// fn takes<T: rumba::kernel::Int>() {}
/// takes::<usize>();
/// ```
pub trait Int: Number {}

/// The signed integer element types: `i8 i16 i32 i64 isize`.
///
/// ```
/// fn takes<T: rumba::kernel::SignedInt>() {}
/// takes::<i8>();
/// ```
pub trait SignedInt: Int {}

/// The unsigned integer element types: `u8 u16 u32 u64 usize`.
///
/// ```
/// fn takes<T: rumba::kernel::UnsignedInt>() {}
/// takes::<u64>();
/// ```
pub trait UnsignedInt: Int {}

/// The floating-point element types of the math functions: `f32` and `f64`.
///
/// ```
/// fn takes<T: rumba::kernel::Float>() {}
/// takes::<f64>();
/// ```
pub trait Float: Number {}

macro_rules! impls {
    ($tr:path: $($t:ty),+) => {$(
        impl $tr for $t {}
    )+};
}

impls!(sealed::Sealed: i8, u8, i16, u16, i32, u32, i64, u64, isize, usize, f32, f64);
impls!(Number: i8, u8, i16, u16, i32, u32, i64, u64, isize, usize, f32, f64);
impls!(Int: i8, u8, i16, u16, i32, u32, i64, u64, isize, usize);
impls!(SignedInt: i8, i16, i32, i64, isize);
impls!(UnsignedInt: u8, u16, u32, u64, usize);
impls!(Float: f32, f64);
