//! Element types of device arrays: the [`Element`] trait and its runtime description [`DType`].
//!
//! A device array stores plain bytes. [`Element`] is the promise that a Rust type can travel to
//! the device as bytes and come back: it has no padding and no pointers, its size and alignment are
//! the ones its [`DType`] states, and every byte pattern the device may hand back either is a valid
//! value or is turned into one by [`Element::normalize_bytes`] before the host looks at it.
//!
//! Implemented for every integer type, `f32`, `f64`, [`half::f16`], [`half::bf16`],
//! [`num_complex::Complex<f32>`] / [`Complex<f64>`](num_complex::Complex), `bool`, and for any
//! `#[repr(C)]` plain-data struct that opts in through [`Record`] (or the [`record!`](crate::record)
//! macro).
//!
//! # Soundness
//! `Element` is an `unsafe` trait so that the copy engine may view a `&[T]` as `&[u8]` and build a
//! `T` from device bytes. The built-in impls are sound because every one of these types is
//! `bytemuck::NoUninit` (no padding) and, except `bool`, `bytemuck::AnyBitPattern`. Records are
//! covered by a blanket impl over [`Record`], whose supertrait `bytemuck::Pod` carries exactly
//! those two guarantees, so opting a record in is safe code.
//!
//! # `bool`
//! `bool` has only two valid bit patterns, but a kernel (or a `u8` view of the same memory) can
//! leave any byte in a device `bool` array. Device bytes therefore never land in `bool` memory
//! directly: when [`Element::ANY_BIT_PATTERN`] is `false` the copy engine receives them into a byte
//! buffer, calls [`Element::normalize_bytes`] (which maps every nonzero byte to `1`, as C and numpy
//! do when they convert a byte to a boolean) and only then copies them into the host array. The
//! safe helper [`copy_from_bytes`] does exactly this.
//!
//! This module touches nothing but itself and [`crate::error`].

use crate::error::ShapeError;
use crate::error::{Error, Result};
use std::fmt;

/// The kind of an element type, as numpy's one-letter `dtype.kind`.
///
/// ```
/// use rumba::layout::element::Kind;
/// assert_eq!(Kind::Float.char(), 'f');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Signed integer, `i`.
    Int,
    /// Unsigned integer, `u`.
    Uint,
    /// IEEE floating point, `f`.
    Float,
    /// Complex floating point, `c`.
    Complex,
    /// Boolean, `b`.
    Bool,
    /// Raw bytes: records and types numpy has no kind for (such as `bf16`), `V`.
    Void,
}

impl Kind {
    /// numpy's kind letter: one of `i u f c b V`.
    ///
    /// ```
    /// use rumba::layout::element::Kind;
    /// assert_eq!(Kind::Void.char(), 'V');
    /// ```
    pub const fn char(self) -> char {
        match self {
            Kind::Int => 'i',
            Kind::Uint => 'u',
            Kind::Float => 'f',
            Kind::Complex => 'c',
            Kind::Bool => 'b',
            Kind::Void => 'V',
        }
    }
}

/// Runtime description of an element type: kind, size, alignment and a human name.
///
/// Two arrays may be copied into each other only when their `DType`s are equal (all four fields).
///
/// ```
/// use rumba::layout::element::{DType, Element, Kind};
/// let d = f32::DTYPE;
/// assert_eq!((d.kind(), d.itemsize(), d.align()), (Kind::Float, 4, 4));
/// assert_eq!(d.typestr(), "<f4");
/// assert_eq!(d.name(), "float32");
/// assert_eq!(bool::DTYPE.typestr(), "|b1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DType {
    kind: Kind,
    itemsize: usize,
    align: usize,
    name: &'static str,
}

impl DType {
    /// Describes an element type. Used by the built-in [`Element`] impls and by [`Record`].
    ///
    /// ```
    /// use rumba::layout::element::{DType, Kind};
    /// const D: DType = DType::new(Kind::Void, 12, 4, "point3");
    /// assert_eq!(D.typestr(), "|V12");
    /// ```
    pub const fn new(kind: Kind, itemsize: usize, align: usize, name: &'static str) -> DType {
        DType {
            kind,
            itemsize,
            align,
            name,
        }
    }

    /// The [`DType`] of a Rust type `T` as a record (kind `V`), with the given name.
    ///
    /// ```
    /// use rumba::layout::element::{DType, Kind};
    /// let d = DType::of_record::<[u16; 3]>("triple");
    /// assert_eq!((d.kind(), d.itemsize(), d.align()), (Kind::Void, 6, 2));
    /// ```
    pub const fn of_record<T>(name: &'static str) -> DType {
        DType::new(
            Kind::Void,
            std::mem::size_of::<T>(),
            std::mem::align_of::<T>(),
            name,
        )
    }

    /// The kind (`i u f c b V`).
    ///
    /// ```
    /// use rumba::layout::element::{Element, Kind};
    /// assert_eq!(u8::DTYPE.kind(), Kind::Uint);
    /// ```
    pub const fn kind(&self) -> Kind {
        self.kind
    }

    /// Size of one element in bytes.
    ///
    /// ```
    /// use rumba::layout::element::Element;
    /// assert_eq!(num_complex::Complex::<f64>::DTYPE.itemsize(), 16);
    /// ```
    pub const fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// Alignment of one element in bytes. Byte strides and offsets of arrays of this type are
    /// multiples of it.
    ///
    /// ```
    /// use rumba::layout::element::Element;
    /// assert_eq!(num_complex::Complex::<f32>::DTYPE.align(), 4);
    /// ```
    pub const fn align(&self) -> usize {
        self.align
    }

    /// Human name used in messages, numpy's where numpy has one (`"float32"`, `"bool"`).
    ///
    /// ```
    /// use rumba::layout::element::Element;
    /// assert_eq!(half::f16::DTYPE.name(), "float16");
    /// ```
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// numpy's array-interface type string: byte order (`<`, `>`, or `|` when it does not matter),
    /// kind letter, item size. `bf16` has no numpy kind and is described as raw bytes, `"|V2"`.
    ///
    /// ```
    /// use rumba::layout::element::Element;
    /// assert_eq!(i64::DTYPE.typestr(), "<i8");
    /// assert_eq!(u8::DTYPE.typestr(), "|u1");
    /// assert_eq!(num_complex::Complex::<f32>::DTYPE.typestr(), "<c8");
    /// assert_eq!(half::bf16::DTYPE.typestr(), "|V2");
    /// ```
    pub fn typestr(&self) -> String {
        let order = if self.itemsize <= 1 || matches!(self.kind, Kind::Void | Kind::Bool) {
            '|'
        } else if cfg!(target_endian = "little") {
            '<'
        } else {
            '>'
        };
        format!("{order}{}{}", self.kind.char(), self.itemsize)
    }

    /// Checks that `other` equals `self`, else [`Error::IncompatibleDtype`] naming both
    /// (`self` first, as the destination of a copy).
    ///
    /// # Errors
    /// [`Error::IncompatibleDtype`] naming both types when they differ.
    ///
    /// ```
    /// use rumba::layout::element::Element;
    /// assert!(f32::DTYPE.check_same(&f32::DTYPE).is_ok());
    /// let e = f32::DTYPE.check_same(&i32::DTYPE).unwrap_err();
    /// assert_eq!(e.to_string(), "incompatible dtype: float32 vs. int32");
    /// ```
    pub fn check_same(&self, other: &DType) -> Result<()> {
        if self == other {
            Ok(())
        } else {
            Err(Error::IncompatibleDtype {
                left: self.name.to_string(),
                right: other.name.to_string(),
            })
        }
    }
}

impl fmt::Display for DType {
    /// Prints the human name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A type whose values can live in device memory as plain bytes.
///
/// # Safety
/// An implementor promises that
/// - `size_of::<Self>() == Self::DTYPE.itemsize()` (nonzero) and
///   `align_of::<Self>() == Self::DTYPE.align()`;
/// - `Self` has no padding and no uninitialised bytes, so any `&[Self]` may be read as bytes;
/// - after [`normalize_bytes`](Element::normalize_bytes) has run over a byte buffer, every
///   `itemsize` chunk of it is a valid `Self`; when [`ANY_BIT_PATTERN`](Element::ANY_BIT_PATTERN)
///   is `true`, every byte pattern is already valid and `normalize_bytes` does nothing.
///
/// Prefer [`Record`] (safe) for your own structs.
///
/// ```
/// use rumba::layout::element::Element;
/// fn describe<T: Element>() -> String { T::DTYPE.typestr() }
/// assert_eq!(describe::<f64>(), "<f8");
/// ```
pub unsafe trait Element: Copy + Send + Sync + 'static {
    /// The runtime description of `Self`.
    const DTYPE: DType;

    /// `true` when every byte pattern is a valid `Self` (everything but `bool`). When `false`,
    /// bytes read from the device must pass through [`normalize_bytes`](Element::normalize_bytes)
    /// in a byte buffer before they are copied into `Self` memory.
    const ANY_BIT_PATTERN: bool = true;

    /// Rewrites arbitrary bytes, in place, into valid bit patterns of `Self`.
    /// The default does nothing.
    ///
    /// ```
    /// use rumba::layout::element::Element;
    /// let mut b = [0u8, 1, 2, 255];
    /// bool::normalize_bytes(&mut b);
    /// assert_eq!(b, [0, 1, 1, 1]);
    /// ```
    fn normalize_bytes(bytes: &mut [u8]) {
        let _ = bytes;
    }
}

macro_rules! plain_element {
    (kernel: [$($k:ty => $kk:ident, $kn:expr;)*] host: [$($h:ty => $hk:ident, $hn:expr;)*]) => {
        plain_element!(@each $($k => $kk, $kn;)* $($h => $hk, $hn;)*);
    };
    (@each $($t:ty => $kind:ident, $name:expr;)*) => {$(
        // SAFETY: a primitive number type: no padding, every bit pattern valid, size and
        // alignment taken from the type itself.
        unsafe impl Element for $t {
            const DTYPE: DType = DType::new(
                Kind::$kind,
                std::mem::size_of::<$t>(),
                std::mem::align_of::<$t>(),
                $name,
            );
        }
    )*};
}

pub(crate) const fn int_name(bytes: usize) -> &'static str {
    match bytes {
        2 => "int16",
        4 => "int32",
        8 => "int64",
        _ => "int128",
    }
}

pub(crate) const fn uint_name(bytes: usize) -> &'static str {
    match bytes {
        2 => "uint16",
        4 => "uint32",
        8 => "uint64",
        _ => "uint128",
    }
}

/// The one list of the primitive element types (`bool` aside, which has impls of its own): calls
/// `$then!` with each type, its [`Kind`] and its NumPy name, in two groups. `kernel` holds the
/// types a kernel also takes as a scalar argument; `host` the ones it does not (no C type of
/// CUDA's and OpenCL's matches `i128`, `u128` or `bf16` on every device).
///
/// Every impl written per scalar type (elements, assignment sources, kernel elements, kernel
/// parameters and arguments) is generated from this list, so adding a type is one line here.
macro_rules! scalar_types {
    ($then:ident) => {
        $then! {
            kernel: [
                i8 => Int, "int8";
                i16 => Int, "int16";
                i32 => Int, "int32";
                i64 => Int, "int64";
                isize => Int, $crate::layout::element::int_name(::std::mem::size_of::<isize>());
                u8 => Uint, "uint8";
                u16 => Uint, "uint16";
                u32 => Uint, "uint32";
                u64 => Uint, "uint64";
                usize => Uint, $crate::layout::element::uint_name(::std::mem::size_of::<usize>());
                f32 => Float, "float32";
                f64 => Float, "float64";
                ::half::f16 => Float, "float16";
                ::num_complex::Complex<f32> => Complex, "complex64";
                ::num_complex::Complex<f64> => Complex, "complex128";
            ]
            host: [
                i128 => Int, "int128";
                u128 => Uint, "uint128";
                ::half::bf16 => Void, "bfloat16";
            ]
        }
    };
}
pub(crate) use scalar_types;

scalar_types!(plain_element);

// SAFETY: `bool` is one byte without padding. Not every byte is a valid `bool`, which is declared
// by `ANY_BIT_PATTERN = false`; `normalize_bytes` leaves only 0 and 1, the two valid patterns.
unsafe impl Element for bool {
    const DTYPE: DType = DType::new(Kind::Bool, 1, 1, "bool");
    const ANY_BIT_PATTERN: bool = false;

    fn normalize_bytes(bytes: &mut [u8]) {
        for b in bytes {
            *b = u8::from(*b != 0);
        }
    }
}

/// Opt-in for `#[repr(C)]` plain-data structs ("records") as device-array elements.
///
/// Implement [`bytemuck::Pod`] (derive it) and name the record; [`Element`] then follows from a
/// blanket impl, with [`Kind::Void`], the struct's size and alignment. The [`record!`](crate::record)
/// macro writes the impl for you, naming the record after the type.
///
/// ```
/// use rumba::layout::element::{Element, Kind, Record};
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// #[repr(C)]
/// struct Particle { pos: [f32; 3], mass: f32 }
/// impl Record for Particle { const NAME: &'static str = "Particle"; }
///
/// assert_eq!(Particle::DTYPE.kind(), Kind::Void);
/// assert_eq!(Particle::DTYPE.typestr(), "|V16");
/// assert_eq!(Particle::DTYPE.name(), "Particle");
/// ```
pub trait Record: bytemuck::Pod + Send + Sync {
    /// Name used in messages (e.g. "incompatible dtype: Particle vs. float32").
    const NAME: &'static str;
}

// SAFETY: `Pod` guarantees no padding, no uninitialised bytes and that every bit pattern is
// valid; size and alignment come from the type itself. A zero-sized `Pod` would break the
// nonzero-size promise: the layout constructors reject itemsize 0, so no array of it can exist.
unsafe impl<T: Record> Element for T {
    const DTYPE: DType = DType::of_record::<T>(T::NAME);
}

/// Implements [`Record`](crate::layout::element::Record) for `#[repr(C)]` `bytemuck::Pod` structs,
/// naming each record after its type.
///
/// ```
/// use rumba::layout::element::Element;
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// #[repr(C)]
/// struct Pair { a: i32, b: f32 }
/// rumba::record!(Pair);
/// assert_eq!(Pair::DTYPE.name(), "Pair");
/// assert_eq!(Pair::DTYPE.itemsize(), 8);
/// ```
#[macro_export]
macro_rules! record {
    ($($t:ty),+ $(,)?) => {$(
        impl $crate::layout::element::Record for $t {
            const NAME: &'static str = stringify!($t);
        }
    )+};
}

/// Views a slice of elements as its bytes (what is sent to the device).
///
/// ```
/// use rumba::layout::element::as_bytes;
/// assert_eq!(as_bytes(&[1u16, 2]), &1u16.to_ne_bytes().into_iter().chain(2u16.to_ne_bytes()).collect::<Vec<_>>()[..]);
/// assert_eq!(as_bytes(&[true, false]), &[1, 0]);
/// ```
pub fn as_bytes<T: Element>(values: &[T]) -> &[u8] {
    // SAFETY: `Element` promises no padding and no uninitialised bytes, and the length in bytes
    // is the length of the original allocation (`size_of_val`), so the byte view stays in bounds.
    unsafe {
        std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
    }
}

/// Copies bytes that came back from the device into host elements, normalising them first
/// (see [`Element::normalize_bytes`]; `bool` bytes other than 0 become `true`).
///
/// `bytes` must hold exactly `dst.len() * itemsize` bytes, else [`Error::Shape`].
///
/// # Errors
/// [`Error::Shape`] when `bytes` is not exactly `dst`'s byte length (invalid byte
/// patterns are normalized first, not refused).
///
/// ```
/// use rumba::layout::element::copy_from_bytes;
/// let mut raw = vec![0u8, 7, 1];
/// let mut out = [false; 3];
/// copy_from_bytes(&mut raw, &mut out).unwrap();
/// assert_eq!(out, [false, true, true]);
///
/// let mut raw = 258u16.to_ne_bytes().to_vec();
/// let mut v = [0u16];
/// copy_from_bytes(&mut raw, &mut v).unwrap();
/// assert_eq!(v, [258]);
/// assert!(copy_from_bytes(&mut [0u8; 3], &mut v).is_err());
/// ```
pub fn copy_from_bytes<T: Element>(bytes: &mut [u8], dst: &mut [T]) -> Result<()> {
    let want = std::mem::size_of_val(dst);
    if bytes.len() != want {
        return Err(ShapeError::ByteCount {
            elements: dst.len(),
            dtype: T::DTYPE.name(),
            expected: want,
            found: bytes.len(),
        }
        .into());
    }
    T::normalize_bytes(bytes);
    // SAFETY: both regions are `want` bytes long and do not overlap (`dst` is borrowed mutably,
    // `bytes` separately); after `normalize_bytes` every chunk is a valid `T` (trait contract),
    // and the destination is properly aligned `T` memory. Copying bytewise needs no alignment of
    // `bytes`.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.as_mut_ptr().cast::<u8>(), want);
    }
    Ok(())
}

/// Refuses `operation`, a byte-wise write into host memory, for an element type with invalid
/// bit patterns ([`Element::ANY_BIT_PATTERN`] is `false`): [`Error::InvalidBits`] naming the type
/// and what to use `instead`.
pub(crate) fn refuse_invalid_bits<T: Element>(
    operation: &'static str,
    instead: &'static str,
) -> Result<()> {
    if T::ANY_BIT_PATTERN {
        return Ok(());
    }
    Err(Error::InvalidBits {
        operation,
        dtype: T::DTYPE.name(),
        instead,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex;

    #[test]
    fn typestrs_match_numpy() {
        let le = cfg!(target_endian = "little");
        let cases: [(DType, &str); 14] = [
            (i8::DTYPE, "|i1"),
            (i16::DTYPE, "<i2"),
            (i32::DTYPE, "<i4"),
            (i64::DTYPE, "<i8"),
            (u8::DTYPE, "|u1"),
            (u16::DTYPE, "<u2"),
            (u32::DTYPE, "<u4"),
            (u64::DTYPE, "<u8"),
            (f32::DTYPE, "<f4"),
            (f64::DTYPE, "<f8"),
            (half::f16::DTYPE, "<f2"),
            (Complex::<f32>::DTYPE, "<c8"),
            (Complex::<f64>::DTYPE, "<c16"),
            (bool::DTYPE, "|b1"),
        ];
        for (d, s) in cases {
            let s = if le {
                s.to_string()
            } else {
                s.replace('<', ">")
            };
            assert_eq!(d.typestr(), s, "{}", d.name());
        }
        assert_eq!(i128::DTYPE.typestr().get(1..), Some("i16"));
        assert_eq!(usize::DTYPE.itemsize(), std::mem::size_of::<usize>());
        assert_eq!(isize::DTYPE.kind(), Kind::Int);
    }

    #[test]
    fn names_sizes_and_alignments() {
        assert_eq!(Complex::<f64>::DTYPE.align(), 8);
        assert_eq!(Complex::<f64>::DTYPE.name(), "complex128");
        assert_eq!(half::bf16::DTYPE.name(), "bfloat16");
        assert_eq!(u128::DTYPE.itemsize(), 16);
        assert_eq!(bool::DTYPE.to_string(), "bool");
        assert_eq!([bool::ANY_BIT_PATTERN, f32::ANY_BIT_PATTERN], [false, true]);
    }

    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    #[repr(C)]
    struct Rec {
        a: u64,
        b: [u8; 8],
    }
    crate::record!(Rec);

    #[test]
    fn records_are_void_with_their_name() {
        assert_eq!(Rec::DTYPE.typestr(), "|V16");
        assert_eq!(Rec::DTYPE.name(), "Rec");
        let e = Rec::DTYPE.check_same(&u128::DTYPE).unwrap_err();
        assert_eq!(e.to_string(), "incompatible dtype: Rec vs. uint128");
    }

    #[test]
    fn bool_bytes_are_normalised() {
        let mut raw = [3u8, 0, 128, 1];
        let mut out = [false; 4];
        copy_from_bytes(&mut raw, &mut out).unwrap();
        assert_eq!(out, [true, false, true, true]);
        let e = copy_from_bytes(&mut [0u8; 2], &mut out).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot fill 4 element(s) of bool (4 bytes) from 2 bytes"
        );
    }

    #[test]
    fn float_bytes_round_trip() {
        let v = [1.5f64, -2.0];
        let mut raw = as_bytes(&v).to_vec();
        let mut back = [0.0f64; 2];
        copy_from_bytes(&mut raw, &mut back).unwrap();
        assert_eq!(back, v);
    }
}
