//! Reduction operators and the element types that can be reduced.
//!
//! Integers reduce with MPI's built-in operators. Floating point sums and products use MPI's
//! too; minima and maxima use operators of this module, because MPI leaves NaN to the
//! implementation:
//!
//! | operator | a NaN on some rank |
//! | --- | --- |
//! | [`ReduceOp::Max`], [`ReduceOp::Min`] | the result is NaN |
//! | [`ReduceOp::NanMax`], [`ReduceOp::NanMin`] | ignored: NaN only where every rank has NaN |
//!
//! Numba's `cuda.atomic.max` keeps a NaN already stored and ignores a NaN operand, a rule that
//! depends on the order the values arrive in; a reduction over ranks has no such order, so
//! `Max`/`Min` propagate NaN like NumPy's `maximum`/`minimum`, and `NanMax`/`NanMin` are
//! `cuda.atomic.nanmax`/`nanmin`'s "NaN is missing data". For integers the `Nan` forms are
//! `Max`/`Min`. `f16` reduces through operators of this module for every operator (MPI has no
//! half type), each step computed in `f32` and rounded back. Complex numbers have sums and
//! products only.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::Mutex;

use half::f16;
use mpi::ffi;
use num_complex::{Complex32, Complex64};

use crate::error::Result;
use crate::layout::Element;

/// A reduction operator of [`all_reduce`](super::OnStream::all_reduce),
/// [`reduce`](super::OnStream::reduce) and [`reduce_scatter`](super::OnStream::reduce_scatter).
///
/// ```
/// assert_eq!(rumba::dist::ReduceOp::Sum.name(), "sum");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Sum.
    Sum,
    /// Product.
    Prod,
    /// Minimum; a NaN on any rank gives NaN.
    Min,
    /// Maximum; a NaN on any rank gives NaN.
    Max,
    /// Minimum with NaN as missing data.
    NanMin,
    /// Maximum with NaN as missing data.
    NanMax,
}

impl ReduceOp {
    /// The operator's name.
    ///
    /// ```
    /// assert_eq!(rumba::dist::ReduceOp::NanMax.name(), "nanmax");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Min => "min",
            ReduceOp::Max => "max",
            ReduceOp::NanMin => "nanmin",
            ReduceOp::NanMax => "nanmax",
        }
    }

    pub(crate) fn code(self) -> u32 {
        self as u32 + 1
    }

    /// Applies the operator to two values on the host (`a` the accumulated, `b` the next rank's):
    /// the rule every rank's result follows, and what tests compare against.
    ///
    /// ```
    /// use rumba::dist::ReduceOp;
    /// assert!(ReduceOp::Max.apply(1.0f32, f32::NAN).is_nan());
    /// assert_eq!(ReduceOp::NanMax.apply(1.0f32, f32::NAN), 1.0);
    /// assert_eq!(ReduceOp::Prod.apply(3i32, 4), 12);
    /// ```
    pub fn apply<T: Reducible>(self, a: T, b: T) -> T {
        T::combine(self, a, b)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// Element types the reductions take: the integers, `f16`, `f32`, `f64`, and `Complex32` /
/// `Complex64` (sum and product only). Sealed.
pub trait Reducible: Element + sealed::Sealed {
    /// `op(a, b)` on the host.
    #[doc(hidden)]
    fn combine(op: ReduceOp, a: Self, b: Self) -> Self;
    /// Whether the type has the operator (every type but the complex ones has them all).
    #[doc(hidden)]
    fn supports(_op: ReduceOp) -> bool {
        true
    }
    /// MPI's datatype and operator for `op` (the operator may be one of this module's).
    #[doc(hidden)]
    fn mpi(op: ReduceOp) -> (ffi::MPI_Datatype, ffi::MPI_Op);
}

fn builtin_op(op: ReduceOp) -> ffi::MPI_Op {
    // SAFETY: reading immutable constants the MPI library exports.
    unsafe {
        match op {
            ReduceOp::Sum => ffi::RSMPI_SUM,
            ReduceOp::Prod => ffi::RSMPI_PROD,
            ReduceOp::Min | ReduceOp::NanMin => ffi::RSMPI_MIN,
            ReduceOp::Max | ReduceOp::NanMax => ffi::RSMPI_MAX,
        }
    }
}

/// The operators this module made, by (element type name, operator); created once.
static USER_OPS: Mutex<Option<HashMap<(&'static str, ReduceOp), usize>>> = Mutex::new(None);

/// The operator that applies `T::combine(op, ..)` element-wise (`inout = in ∘ inout`).
fn user_op<T: Reducible>(op: ReduceOp) -> ffi::MPI_Op {
    let mut ops = crate::sync::lock(&USER_OPS);
    let ops = ops.get_or_insert_with(HashMap::new);
    let key = (T::DTYPE.name(), op);
    if let Some(&h) = ops.get(&key) {
        // The handle was stored as an integer (MPI_Op is a pointer on OpenMPI, an int on MPICH).
        // SAFETY: `h` holds the bits of a handle MPI_Op_create returned.
        return unsafe { std::mem::transmute_copy::<usize, ffi::MPI_Op>(&h) };
    }
    let f: ffi::MPI_User_function = Some(match op {
        ReduceOp::Sum => combine_cb::<T, 0>,
        ReduceOp::Prod => combine_cb::<T, 1>,
        ReduceOp::Min => combine_cb::<T, 2>,
        ReduceOp::Max => combine_cb::<T, 3>,
        ReduceOp::NanMin => combine_cb::<T, 4>,
        ReduceOp::NanMax => combine_cb::<T, 5>,
    });
    // SAFETY: an all-zero handle is overwritten by MPI_Op_create below.
    let mut handle: ffi::MPI_Op = unsafe { std::mem::zeroed() };
    // SAFETY: `f` is a valid user function for the lifetime of the program; commutative.
    let rc = unsafe { ffi::MPI_Op_create(f, 1, &mut handle) };
    if rc != ffi::MPI_SUCCESS as c_int {
        // Creating an operator fails only when MPI is not running; fall back to the built-in
        // one, whose call then reports MPI's error.
        return builtin_op(op);
    }
    const { assert!(size_of::<ffi::MPI_Op>() <= size_of::<usize>()) };
    let mut bits = 0usize;
    // SAFETY: copying the handle's bytes into an integer at least as large.
    unsafe {
        std::ptr::copy_nonoverlapping(
            (&raw const handle).cast::<u8>(),
            (&raw mut bits).cast::<u8>(),
            size_of::<ffi::MPI_Op>(),
        )
    };
    ops.insert(key, bits);
    handle
}

const OPS: [ReduceOp; 6] = [
    ReduceOp::Sum,
    ReduceOp::Prod,
    ReduceOp::Min,
    ReduceOp::Max,
    ReduceOp::NanMin,
    ReduceOp::NanMax,
];

/// MPI calls this with `len` elements at `invec` and `inout`; it writes `inout[i] = in[i] ∘
/// inout[i]`.
unsafe extern "C" fn combine_cb<T: Reducible, const OP: usize>(
    invec: *mut c_void,
    inout: *mut c_void,
    len: *mut c_int,
    _datatype: *mut ffi::MPI_Datatype,
) {
    // SAFETY: MPI passes a valid count.
    let n = unsafe { *len }.max(0) as usize;
    let op = OPS[OP];
    for i in 0..n {
        // SAFETY: both vectors hold `n` elements of the datatype this operator was used with,
        // which is `T`'s (see `Reducible::mpi`); unaligned reads, as MPI promises no alignment.
        unsafe {
            let a = invec.cast::<T>().add(i).read_unaligned();
            let p = inout.cast::<T>().add(i);
            p.write_unaligned(T::combine(op, a, p.read_unaligned()));
        }
    }
}

fn float_combine<F: num_traits_lite::Float>(op: ReduceOp, a: F, b: F) -> F {
    match op {
        ReduceOp::Sum => a + b,
        ReduceOp::Prod => a * b,
        ReduceOp::Min | ReduceOp::Max if a.is_nan() || b.is_nan() => F::NAN,
        ReduceOp::NanMin | ReduceOp::NanMax if a.is_nan() => b,
        ReduceOp::NanMin | ReduceOp::NanMax if b.is_nan() => a,
        ReduceOp::Min | ReduceOp::NanMin => {
            if b < a {
                b
            } else {
                a
            }
        }
        ReduceOp::Max | ReduceOp::NanMax => {
            if b > a {
                b
            } else {
                a
            }
        }
    }
}

/// The few float operations the operators need, for `f32` and `f64`.
mod num_traits_lite {
    pub trait Float:
        Copy + PartialOrd + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self>
    {
        const NAN: Self;
        fn is_nan(self) -> bool;
    }
    impl Float for f32 {
        const NAN: Self = f32::NAN;
        fn is_nan(self) -> bool {
            f32::is_nan(self)
        }
    }
    impl Float for f64 {
        const NAN: Self = f64::NAN;
        fn is_nan(self) -> bool {
            f64::is_nan(self)
        }
    }
}

macro_rules! int_reducible {
    ($($t:ty => $dt:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Reducible for $t {
            fn combine(op: ReduceOp, a: Self, b: Self) -> Self {
                match op {
                    ReduceOp::Sum => a.wrapping_add(b),
                    ReduceOp::Prod => a.wrapping_mul(b),
                    ReduceOp::Min | ReduceOp::NanMin => a.min(b),
                    ReduceOp::Max | ReduceOp::NanMax => a.max(b),
                }
            }
            fn mpi(op: ReduceOp) -> (ffi::MPI_Datatype, ffi::MPI_Op) {
                // SAFETY: reading an immutable constant the MPI library exports.
                (unsafe { ffi::$dt }, builtin_op(op))
            }
        }
    )*};
}

int_reducible!(
    i8 => RSMPI_INT8_T, i16 => RSMPI_INT16_T, i32 => RSMPI_INT32_T, i64 => RSMPI_INT64_T,
    u8 => RSMPI_UINT8_T, u16 => RSMPI_UINT16_T, u32 => RSMPI_UINT32_T, u64 => RSMPI_UINT64_T
);

macro_rules! float_reducible {
    ($($t:ty => $dt:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Reducible for $t {
            fn combine(op: ReduceOp, a: Self, b: Self) -> Self {
                float_combine(op, a, b)
            }
            fn mpi(op: ReduceOp) -> (ffi::MPI_Datatype, ffi::MPI_Op) {
                // SAFETY: reading an immutable constant the MPI library exports.
                let dt = unsafe { ffi::$dt };
                match op {
                    ReduceOp::Sum | ReduceOp::Prod => (dt, builtin_op(op)),
                    _ => (dt, user_op::<$t>(op)),
                }
            }
        }
    )*};
}

float_reducible!(f32 => RSMPI_FLOAT, f64 => RSMPI_DOUBLE);

impl sealed::Sealed for f16 {}
impl Reducible for f16 {
    fn combine(op: ReduceOp, a: Self, b: Self) -> Self {
        f16::from_f32(float_combine(op, a.to_f32(), b.to_f32()))
    }
    fn mpi(op: ReduceOp) -> (ffi::MPI_Datatype, ffi::MPI_Op) {
        // SAFETY: reading an immutable constant the MPI library exports.
        (unsafe { ffi::RSMPI_UINT16_T }, user_op::<f16>(op))
    }
}

macro_rules! complex_reducible {
    ($($t:ty => $dt:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Reducible for $t {
            fn combine(op: ReduceOp, a: Self, b: Self) -> Self {
                match op {
                    ReduceOp::Prod => a * b,
                    _ => a + b,
                }
            }
            fn supports(op: ReduceOp) -> bool {
                matches!(op, ReduceOp::Sum | ReduceOp::Prod)
            }
            fn mpi(op: ReduceOp) -> (ffi::MPI_Datatype, ffi::MPI_Op) {
                // SAFETY: reading an immutable constant the MPI library exports.
                (unsafe { ffi::$dt }, builtin_op(op))
            }
        }
    )*};
}

complex_reducible!(Complex32 => RSMPI_FLOAT_COMPLEX, Complex64 => RSMPI_DOUBLE_COMPLEX);

/// Refuses an operator the element type lacks (complex minima and maxima).
pub(crate) fn check_supported<T: Reducible>(op: ReduceOp) -> Result<(), String> {
    if T::supports(op) {
        Ok(())
    } else {
        Err(format!(
            "{} has no {} reduction (complex numbers have sum and prod only)",
            T::DTYPE.name(),
            op.name()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_rules() {
        let (n, one, two) = (f64::NAN, 1.0, 2.0);
        assert!(ReduceOp::Max.apply(n, one).is_nan());
        assert!(ReduceOp::Min.apply(one, n).is_nan());
        assert_eq!(ReduceOp::NanMax.apply(n, one), 1.0);
        assert_eq!(ReduceOp::NanMin.apply(two, n), 2.0);
        assert!(ReduceOp::NanMin.apply(n, n).is_nan());
        assert_eq!(ReduceOp::Max.apply(one, two), 2.0);
        let h = |x: f32| f16::from_f32(x);
        assert_eq!(ReduceOp::Sum.apply(h(1.5), h(2.25)), h(3.75));
        assert!(ReduceOp::Max.apply(h(1.0), f16::NAN).is_nan());
        assert_eq!(ReduceOp::Sum.apply(250u8, 10), 4); // wraps, like MPI_SUM on uint8_t
        assert!(check_supported::<Complex32>(ReduceOp::Max).is_err());
        assert!(check_supported::<Complex32>(ReduceOp::Prod).is_ok());
    }
}
