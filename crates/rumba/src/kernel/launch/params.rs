//! Kernel parameter types: what a kernel declares it takes, and what its body sees of each.
//!
//! A kernel's parameter list is a tuple of [`Param`] types, written once in the kernel's type:
//! [`Arr<T>`] for an n-d array of `T` (the body sees a [`GlobalView`] with the array's own shape
//! and byte strides), a plain number type (`f32`, `i64`, `Complex<f64>`, …) for a scalar, and
//! [`Scalar<R>`] for a record passed by value. When the kernel's Rust form runs (on the
//! simulator), [`Params::views`] turns the launch's arguments, resolved to host memory
//! ([`HostArg`]), into the typed values the body receives, once per launch (on the stream
//! worker), checking item sizes, dimensions and alignment.
//!
//! This module touches only the resolved arguments it is given.

use std::marker::PhantomData;

use bytemuck::Pod;

use super::elements::KernelElement;
use crate::driver::{HostArg, HostArrayArg};
use crate::error::{ArgumentError, Error, Result};
use crate::kernel::GlobalView;
use crate::layout::element::Element;
use crate::layout::element::scalar_types;

mod sealed {
    pub trait Sealed {}
}

/// One kernel parameter type. Sealed: the kinds are arrays ([`Arr`]), numbers and records
/// ([`Scalar`]).
///
/// ```
/// use rumba::kernel::{Arr, Param};
/// fn takes<P: Param>() {}
/// takes::<Arr<f32>>();
/// takes::<f64>();
/// ```
pub trait Param: sealed::Sealed + 'static {
    /// What the kernel body receives for this parameter during one launch.
    type View<'v>: Copy + Send + Sync;

    /// Builds the body's value from a resolved argument (Rust form only).
    #[doc(hidden)]
    fn view<'v>(arg: &HostArg<'v>, position: usize) -> Result<Self::View<'v>>;
}

/// An array parameter: what a `#[rumba::kernel]` writes as `a: &Arr<T>` (read) or
/// `a: &mut Arr<T>` (written — not exclusive: every GPU thread holds it), indexed `a[i]`,
/// `a[(i, j)]`, … with the argument's shape and byte strides (indices are checked against the
/// shape). A closure body ([`Kernel::new`](crate::kernel::Kernel::new)) sees a writable
/// [`GlobalView<'_, T>`] instead.
///
/// ```
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn twice(t: &Thread, a: &mut Arr<i32>) {
///     let i = t.grid1();
///     if i < a.len() {
///         a[i] *= 2;
///     }
/// }
///
/// # fn main() {
/// let d = rumba::to_device(&[1, 2, 3]).unwrap();
/// twice().configure(1, 32).launch((&d,)).unwrap();
/// assert_eq!(d.copy_to_host().unwrap().to_vec(), [2, 4, 6]);
/// # }
/// ```
pub struct Arr<T>(PhantomData<fn() -> T>);

/// A record passed by value: what a `#[rumba::kernel]` parameter `f: R` becomes for a
/// `#[rumba::kernel::record]` struct `R` (a closure body may take any `bytemuck::Pod` struct).
/// The body sees the `R`.
///
/// ```
/// use rumba::kernel::prelude::*;
/// use rumba::kernel::Scalar;
///
/// #[record]
/// struct Affine {
///     a: f32,
///     b: f32,
/// }
///
/// #[kernel]
/// fn affine(t: &Thread, x: &mut Arr<f32>, f: Affine) {
///     let i = t.grid1();
///     if i < x.len() {
///         x[i] = f.a * x[i] + f.b;
///     }
/// }
///
/// # fn main() {
/// let k: Kernel<(Arr<f32>, Scalar<Affine>)> = affine();
/// let d = rumba::to_device(&[1.0f32, 2.0]).unwrap();
/// k.configure(1, 2).launch((&d, Affine { a: 10.0, b: 1.0 })).unwrap();
/// assert_eq!(d.copy_to_host().unwrap().to_vec(), [11.0, 21.0]);
/// # }
/// ```
pub struct Scalar<R>(PhantomData<fn() -> R>);

/// A constant-array parameter (what `#[rumba::kernel]` writes for `c: &ConstArr<T>`): the caller
/// passes a [`ConstArray<T>`](crate::kernel::ConstArray); the body sees a read-only
/// [`GlobalView<'_, T>`] of it (its bytes are uploaded to device memory on the launch's
/// stream, so every backend reads them like any other array argument).
///
/// ```
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn lookup(t: &Thread, lut: &ConstArr<i32>, out: &mut Arr<i32>) {
///     let i = t.grid1();
///     out[i] = lut[i] * 2;
/// }
///
/// # fn main() {
/// let lut = rumba::const_array_like(&ndarray::arr1(&[1, 2, 3])).unwrap();
/// let out = rumba::device_array::<i32, _>(3, rumba::Order::C).unwrap();
/// lookup().configure(1, 3).launch((&lut, &out)).unwrap();
/// assert_eq!(out.copy_to_host().unwrap().to_vec(), [2, 4, 6]);
/// # }
/// ```
pub struct ConstArr<T>(PhantomData<fn() -> T>);

impl<T> sealed::Sealed for ConstArr<T> {}
impl<T> sealed::Sealed for Arr<T> {}
impl<R> sealed::Sealed for Scalar<R> {}

fn wrong_kind(position: usize, expected: &'static str) -> Error {
    Error::argument(position, ArgumentError::Kind { expected })
}

/// A typed view of a resolved array argument.
fn array_view<'v, T: Pod>(a: &HostArrayArg<'v>, position: usize) -> Result<GlobalView<'v, T>> {
    if !a.use_shared() {
        return Err(Error::argument(position, ArgumentError::Claimed));
    }
    ArgumentError::check_item_size::<T>(position, a.itemsize())?;
    // SAFETY: `HostArrayArg` guarantees that every element `a`'s layout addresses lies in live,
    // writable memory for 'v that others reach only atomically (see its docs);
    // `from_raw_parts` checks alignment and dimensions.
    unsafe { GlobalView::from_raw_parts(a.addr().cast(), a.shape(), a.strides(), a.writable()) }
        .map_err(|e| Error::argument(position, ArgumentError::Layout(Box::new(e))))
}

impl<T: KernelElement> Param for Arr<T> {
    type View<'v> = GlobalView<'v, T::Device>;

    fn view<'v>(arg: &HostArg<'v>, position: usize) -> Result<GlobalView<'v, T::Device>> {
        match arg {
            HostArg::Array(a) => array_view(a, position),
            HostArg::Scalar(_) => Err(wrong_kind(position, "an array")),
        }
    }
}

impl<T: Element + Pod> Param for ConstArr<T> {
    type View<'v> = GlobalView<'v, T>;

    fn view<'v>(arg: &HostArg<'v>, position: usize) -> Result<GlobalView<'v, T>> {
        match arg {
            HostArg::Array(a) => array_view(a, position),
            HostArg::Scalar(_) => Err(wrong_kind(position, "a constant array")),
        }
    }
}

fn scalar_value<T: Pod>(arg: &HostArg<'_>, position: usize) -> Result<T> {
    match arg {
        HostArg::Scalar(b) if b.len() == size_of::<T>() => Ok(bytemuck::pod_read_unaligned(b)),
        HostArg::Scalar(b) => Err(Error::argument(
            position,
            ArgumentError::ScalarSize {
                found: b.len(),
                expected: size_of::<T>(),
                element: std::any::type_name::<T>(),
            },
        )),
        HostArg::Array(_) => Err(wrong_kind(position, "a scalar")),
    }
}

impl<R: Pod + Send + Sync> Param for Scalar<R> {
    type View<'v> = R;

    fn view<'v>(arg: &HostArg<'v>, position: usize) -> Result<R> {
        scalar_value(arg, position)
    }
}

macro_rules! scalar_params {
    (kernel: [$($t:ty => $kk:ident, $kn:expr;)*] host: [$($h:ty => $hk:ident, $hn:expr;)*]) => {$(
        impl sealed::Sealed for $t {}
        impl Param for $t {
            type View<'v> = $t;

            fn view<'v>(arg: &HostArg<'v>, position: usize) -> Result<$t> {
                scalar_value(arg, position)
            }
        }
    )+};
}
scalar_types!(scalar_params);

/// A kernel's whole parameter list: a tuple of up to eight [`Param`]s (or `()`).
///
/// ```
/// use rumba::kernel::{Arr, Params};
/// fn takes<P: Params>() {}
/// takes::<(Arr<f32>, Arr<f32>, usize)>();
/// takes::<()>();
/// ```
pub trait Params: 'static {
    /// What the body receives: the tuple of each parameter's [`Param::View`].
    type Views<'v>: Copy + Send + Sync;
    /// Number of parameters.
    const COUNT: usize;

    /// Builds the body's values from one launch's resolved arguments (Rust form only).
    #[doc(hidden)]
    fn views<'v>(args: &[HostArg<'v>]) -> Result<Self::Views<'v>>;
}

macro_rules! params_tuple {
    ($n:expr; $($p:ident $i:tt),*) => {
        impl<$($p: Param),*> Params for ($($p,)*) {
            type Views<'v> = ($($p::View<'v>,)*);
            const COUNT: usize = $n;

            #[allow(unused_variables)]
            fn views<'v>(args: &[HostArg<'v>]) -> Result<Self::Views<'v>> {
                if args.len() != $n {
                    return Err(Error::KernelArity {
                        kernel: String::new(),
                        expected: $n,
                        given: args.len(),
                    });
                }
                Ok(($($p::view(&args[$i], $i)?,)*))
            }
        }
    };
}
params_tuple!(0;);
params_tuple!(1; A 0);
params_tuple!(2; A 0, B 1);
params_tuple!(3; A 0, B 1, C 2);
params_tuple!(4; A 0, B 1, C 2, D 3);
params_tuple!(5; A 0, B 1, C 2, D 3, E 4);
params_tuple!(6; A 0, B 1, C 2, D 3, E 4, F 5);
params_tuple!(7; A 0, B 1, C 2, D 3, E 4, F 5, G 6);
params_tuple!(8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
