//! What the runtime needs of the C targets without the front end: element types and their C
//! names, exact C literals, record declarations. Compiled with or without the `lower` feature
//! (the `rumba` crate uses it to finish the generated sources at run time: `#define`s for the
//! consts a kernel names and `typedef`s for its records, whose values and fields only rustc knows).

use std::fmt::Write as _;

/// A C target of the lowering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// CUDA C++ for NVRTC (`--fmad=false`).
    Cuda,
    /// OpenCL C 1.2 (also valid 3.0), `FP_CONTRACT OFF`.
    OpenCl,
}

/// An element type of the kernel subset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    /// `i8`
    I8,
    /// `u8`
    U8,
    /// `i16`
    I16,
    /// `u16`
    U16,
    /// `i32`
    I32,
    /// `u32`
    U32,
    /// `i64`
    I64,
    /// `u64`
    U64,
    /// `isize` (64-bit everywhere)
    Isize,
    /// `usize` (64-bit everywhere)
    Usize,
    /// `f32`
    F32,
    /// `f64`
    F64,
    /// `bool`
    Bool,
    /// `half::f16` (IEEE binary16). Each operation is computed in `f32` and rounded to `f16`
    /// (round to nearest even) on every target: CUDA C holds it as `rb_f16` (its bits, converted
    /// with PTX `cvt`, as cuda_fp16.h does), OpenCL C (without
    /// `cl_khr_fp16`) as a `float` holding an `f16` value, and arrays of it as `ushort` bits read
    /// with `vload_half` and written with `vstore_half`.
    F16,
}

impl Scalar {
    /// Every scalar type.
    pub const ALL: [Scalar; 14] = [
        Scalar::I8,
        Scalar::U8,
        Scalar::I16,
        Scalar::U16,
        Scalar::I32,
        Scalar::U32,
        Scalar::I64,
        Scalar::U64,
        Scalar::Isize,
        Scalar::Usize,
        Scalar::F32,
        Scalar::F64,
        Scalar::Bool,
        Scalar::F16,
    ];

    /// The Rust spelling.
    pub fn rust_name(self) -> &'static str {
        match self {
            Scalar::I8 => "i8",
            Scalar::U8 => "u8",
            Scalar::I16 => "i16",
            Scalar::U16 => "u16",
            Scalar::I32 => "i32",
            Scalar::U32 => "u32",
            Scalar::I64 => "i64",
            Scalar::U64 => "u64",
            Scalar::Isize => "isize",
            Scalar::Usize => "usize",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::Bool => "bool",
            Scalar::F16 => "f16",
        }
    }

    /// The type named `name` in Rust, if it is a scalar of the subset.
    pub fn from_rust_name(name: &str) -> Option<Scalar> {
        Scalar::ALL.into_iter().find(|s| s.rust_name() == name)
    }

    /// The C spelling on `target`.
    pub fn c_name(self, target: Target) -> &'static str {
        match (target, self) {
            (Target::Cuda, Scalar::I8) => "signed char",
            (Target::Cuda, Scalar::U8) => "unsigned char",
            (Target::Cuda, Scalar::I16) => "short",
            (Target::Cuda, Scalar::U16) => "unsigned short",
            (Target::Cuda, Scalar::I32) => "int",
            (Target::Cuda, Scalar::U32) => "unsigned int",
            (Target::Cuda, Scalar::I64 | Scalar::Isize) => "long long",
            (Target::Cuda, Scalar::U64 | Scalar::Usize) => "unsigned long long",
            (Target::OpenCl, Scalar::I8) => "char",
            (Target::OpenCl, Scalar::U8) => "uchar",
            (Target::OpenCl, Scalar::I16) => "short",
            (Target::OpenCl, Scalar::U16) => "ushort",
            (Target::OpenCl, Scalar::I32) => "int",
            (Target::OpenCl, Scalar::U32) => "uint",
            (Target::OpenCl, Scalar::I64 | Scalar::Isize) => "long",
            (Target::OpenCl, Scalar::U64 | Scalar::Usize) => "ulong",
            (_, Scalar::F32) => "float",
            (_, Scalar::F64) => "double",
            (_, Scalar::Bool) => "bool",
            (Target::Cuda, Scalar::F16) => "rb_f16",
            (Target::OpenCl, Scalar::F16) => "float",
        }
    }

    /// A one-word name usable inside C identifiers (`u64`, `f32`, …).
    pub fn tag(self) -> &'static str {
        match self {
            Scalar::Isize => "i64",
            Scalar::Usize => "u64",
            s => s.rust_name(),
        }
    }

    /// Size in bytes (`bool`: 1).
    pub fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 | Scalar::Bool => 1,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            _ => 8,
        }
    }

    /// Bits of an integer or float type.
    pub fn bits(self) -> u32 {
        self.size() as u32 * 8
    }

    /// An integer type.
    pub fn is_int(self) -> bool {
        !matches!(self, Scalar::F32 | Scalar::F64 | Scalar::Bool | Scalar::F16)
    }

    /// A signed integer type.
    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64 | Scalar::Isize
        )
    }

    /// A primitive float type (`f32`, `f64`: float literals, `as`, the math methods); `f16` is
    /// not one (see [`is_f16`](Self::is_f16)).
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64)
    }

    /// `half::f16`: arithmetic, comparisons, `min` / `max` / `is_nan`, and conversions with
    /// `f16::from_f32` / `from_f64` and `.to_f32()` / `.to_f64()`, but no literals and no `as`.
    pub fn is_f16(self) -> bool {
        self == Scalar::F16
    }

    /// The unsigned integer type of the same width (itself when unsigned).
    pub fn unsigned(self) -> Scalar {
        match self {
            Scalar::I8 => Scalar::U8,
            Scalar::I16 => Scalar::U16,
            Scalar::I32 => Scalar::U32,
            Scalar::I64 | Scalar::Isize => Scalar::U64,
            s => s,
        }
    }

    /// The unsigned type arithmetic on this integer type is done in, in C: at least 32 bits, so
    /// C's promotion of narrow types to `int` can never overflow a signed `int`.
    pub fn c_work_unsigned(self) -> Scalar {
        match self.size() {
            1 | 2 | 4 => Scalar::U32,
            _ => Scalar::U64,
        }
    }

    /// Smallest and largest value of an integer type, as i128.
    pub fn int_range(self) -> (i128, i128) {
        match self {
            Scalar::I8 => (i8::MIN as i128, i8::MAX as i128),
            Scalar::U8 => (0, u8::MAX as i128),
            Scalar::I16 => (i16::MIN as i128, i16::MAX as i128),
            Scalar::U16 => (0, u16::MAX as i128),
            Scalar::I32 => (i32::MIN as i128, i32::MAX as i128),
            Scalar::U32 => (0, u32::MAX as i128),
            Scalar::I64 | Scalar::Isize => (i64::MIN as i128, i64::MAX as i128),
            Scalar::U64 | Scalar::Usize => (0, u64::MAX as i128),
            Scalar::Bool => (0, 1),
            Scalar::F32 | Scalar::F64 | Scalar::F16 => (0, 0),
        }
    }
}

/// An exact C literal of integer type `ty` with value `v` (which must be in range).
///
/// ```
/// use rumba_kernel_ir::target::{c_int_lit, Scalar, Target};
/// assert_eq!(c_int_lit(5, Scalar::U64, Target::Cuda), "5ull");
/// assert_eq!(c_int_lit(i32::MIN as i128, Scalar::I32, Target::OpenCl), "(-2147483647 - 1)");
/// assert_eq!(c_int_lit(-3, Scalar::I8, Target::OpenCl), "((char)-3)");
/// ```
pub fn c_int_lit(v: i128, ty: Scalar, target: Target) -> String {
    if ty == Scalar::Bool {
        return if v != 0 { "true" } else { "false" }.into();
    }
    let (min, max) = ty.int_range();
    // Out-of-range values (which rustc rejects as literals) wrap, so the C is never ill-typed.
    let span = max - min + 1;
    let v = (v - min).rem_euclid(span) + min;
    match ty {
        Scalar::I32 => {
            if v == min {
                "(-2147483647 - 1)".into()
            } else {
                v.to_string()
            }
        }
        Scalar::U32 => format!("{v}u"),
        Scalar::I64 | Scalar::Isize => {
            let suffix = if target == Target::Cuda { "ll" } else { "l" };
            if v == min {
                format!("(-9223372036854775807{suffix} - 1)")
            } else {
                format!("{v}{suffix}")
            }
        }
        Scalar::U64 | Scalar::Usize => {
            let suffix = if target == Target::Cuda { "ull" } else { "ul" };
            format!("{v}{suffix}")
        }
        _ => format!("(({}){v})", ty.c_name(target)),
    }
}

/// An exact C literal of float type `ty` (`F32` or `F64`) with value `v`: the shortest decimal
/// that reads back as the same value (C parses decimal literals correctly rounded, like Rust),
/// or the target's spelling of infinity and NaN.
///
/// ```
/// use rumba_kernel_ir::target::{c_float_lit, Scalar, Target};
/// assert_eq!(c_float_lit(0.1, Scalar::F32, Target::Cuda), "0.1f");
/// assert_eq!(c_float_lit(2.0, Scalar::F64, Target::OpenCl), "2.0");
/// assert_eq!(c_float_lit(f64::INFINITY, Scalar::F32, Target::OpenCl), "INFINITY");
/// ```
pub fn c_float_lit(v: f64, ty: Scalar, target: Target) -> String {
    if ty == Scalar::F16 {
        return c_f16_lit(half::f16::from_f64(v), target);
    }
    let f32_ = ty == Scalar::F32;
    if v.is_nan() {
        return match (target, f32_) {
            (Target::Cuda, true) => "__int_as_float(0x7fc00000)".into(),
            (Target::Cuda, false) => "__longlong_as_double(0x7ff8000000000000ll)".into(),
            (Target::OpenCl, true) => "NAN".into(),
            (Target::OpenCl, false) => "((double)NAN)".into(),
        };
    }
    if v.is_infinite() {
        let s = match (target, f32_) {
            (Target::Cuda, true) => "__int_as_float(0x7f800000)",
            (Target::Cuda, false) => "__longlong_as_double(0x7ff0000000000000ll)",
            (Target::OpenCl, true) => "INFINITY",
            (Target::OpenCl, false) => "((double)INFINITY)",
        };
        return if v < 0.0 { format!("(-{s})") } else { s.into() };
    }
    let mut s = if f32_ {
        format!("{:?}", v as f32)
    } else {
        format!("{v:?}")
    };
    if !s.contains(['.', 'e', 'E']) {
        s.push_str(".0");
    }
    if f32_ {
        s.push('f');
    }
    if s.starts_with('-') {
        format!("({s})")
    } else {
        s
    }
}

/// `x` rounded once to the nearest `f16` (ties to even), as CUDA's `__double2half` and
/// OpenCL's `vstore_half` of a `double` round it. (`half::f16::from_f64` may round twice, through
/// `f32`, where the CPU has F16C: `1 + 2^-11 + 2^-40` then ties down to 1 instead of up.)
///
/// ```
/// use rumba_kernel_ir::target::f16_from_f64;
/// assert_eq!(f16_from_f64(1.0 + 2f64.powi(-11) + 2f64.powi(-40)).to_bits(), 0x3c01);
/// assert_eq!(f16_from_f64(1.0 + 2f64.powi(-11)).to_bits(), 0x3c00); // a tie: to even
/// assert!(f16_from_f64(f64::NAN).is_nan());
/// ```
pub fn f16_from_f64(x: f64) -> half::f16 {
    let f = x as f32;
    if f.is_nan() || f64::from(f) == x {
        return half::f16::from_f32(f);
    }
    // Round to odd on the way to `f32` (the neighbour toward zero, lowest bit set): `f32` keeps
    // 13 bits more than `f16`, so the final rounding to nearest even sees no false tie.
    let mut bits = f.to_bits();
    if f64::from(f).abs() > x.abs() {
        bits -= 1;
    }
    half::f16::from_f32(f32::from_bits(bits | 1))
}

/// An exact C literal of an `f16` value: CUDA `rb_f16` bits, OpenCL the `float` that holds it.
///
/// ```
/// use rumba_kernel_ir::target::{c_f16_lit, Target};
/// let h = half::f16::from_f32(1.5);
/// assert_eq!(c_f16_lit(h, Target::Cuda), "rb_hbits(0x3e00u)");
/// assert_eq!(c_f16_lit(h, Target::OpenCl), "1.5f");
/// ```
pub fn c_f16_lit(v: half::f16, target: Target) -> String {
    match target {
        Target::Cuda => format!("rb_hbits(0x{:04x}u)", v.to_bits()),
        Target::OpenCl => c_float_lit(f64::from(v.to_f32()), Scalar::F32, target),
    }
}

/// A Rust value the runtime can print as an exact C literal of its own type (used for the
/// `#define`s of consts a kernel names by path).
pub trait CLiteral: Copy {
    /// The literal on `target`.
    fn c_literal(self, target: Target) -> String;
}

macro_rules! int_literals {
    ($($t:ty => $s:ident),+) => {$(
        impl CLiteral for $t {
            fn c_literal(self, target: Target) -> String {
                c_int_lit(self as i128, Scalar::$s, target)
            }
        }
    )+};
}
int_literals!(i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32, u32 => U32, i64 => I64,
    u64 => U64, isize => Isize, usize => Usize);

impl CLiteral for bool {
    fn c_literal(self, target: Target) -> String {
        c_int_lit(self as i128, Scalar::Bool, target)
    }
}
impl CLiteral for f32 {
    fn c_literal(self, target: Target) -> String {
        c_float_lit(self as f64, Scalar::F32, target)
    }
}
impl CLiteral for half::f16 {
    fn c_literal(self, target: Target) -> String {
        c_f16_lit(self, target)
    }
}
impl CLiteral for f64 {
    fn c_literal(self, target: Target) -> String {
        c_float_lit(self, Scalar::F64, target)
    }
}

/// One field of a record, as `#[rumba::record]` lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordField {
    /// Field name.
    pub name: &'static str,
    /// Element type.
    pub ty: Scalar,
    /// Array length for `[T; N]` fields, 0 for a plain field.
    pub len: usize,
}

/// The C declaration of a record: `typedef struct NAME { … } NAME;`, fields in order with the
/// target's types (the Rust struct is `repr(C)` without padding, so the layouts agree), and
/// what generated kernels use to build and read records, since only this declaration knows the
/// fields: `NAME_zero()`, a setter `NAME_with_FIELD(r, v)` per field (a record literal is the
/// zero record with each field set in turn), a checked reader `NAME_get_FIELD(r, k, …)` per
/// sub-array field, and a literal macro `RB_F_NAME_FIELD(digits)` per float field (`f` appended
/// for `f32`), through which a literal given to the field is read once, at the field's type.
///
/// ```
/// use rumba_kernel_ir::target::{record_decl, RecordField, Scalar, Target};
/// let f = [RecordField { name: "a", ty: Scalar::F32, len: 0 }, RecordField { name: "n", ty: Scalar::U64, len: 2 }];
/// let d = record_decl("Pair", &f, Target::OpenCl);
/// assert!(d.starts_with("typedef struct Pair {\n    float a;\n    ulong n[2];\n} Pair;\n"));
/// assert!(d.contains("#define RB_F_Pair_a(v) v##f\n"));
/// assert!(d.contains("static inline Pair Pair_with_a(Pair r, float v) { r.a = v; return r; }"));
/// assert!(d.contains("static inline ulong Pair_get_n(Pair r, ulong k, __global uint* f, unsigned int site)"));
/// ```
pub fn record_decl(name: &str, fields: &[RecordField], target: Target) -> String {
    let ctype = |f: &RecordField| match (target, f.ty) {
        (Target::OpenCl, Scalar::Bool) => "uchar",
        (Target::Cuda, Scalar::Bool) => "unsigned char",
        (t, ty) => ty.c_name(t),
    };
    let mut s = format!("typedef struct {name} {{\n");
    for f in fields {
        let _ = write!(s, "    {} {}", ctype(f), f.name);
        if f.len > 0 {
            let _ = write!(s, "[{}]", f.len);
        }
        s.push_str(";\n");
    }
    let _ = writeln!(s, "}} {name};");
    let (fun, fault, u64_) = match target {
        Target::Cuda => (
            "__device__ __forceinline__",
            "rumba_fault* f",
            "unsigned long long",
        ),
        Target::OpenCl => ("static inline", "__global uint* f", "ulong"),
    };
    let _ = writeln!(
        s,
        "{fun} {name} {name}_zero(void) {{ {name} r; for (int k = 0; k < (int)sizeof({name}); k++) ((unsigned char*)&r)[k] = 0; return r; }}"
    );
    for f in fields {
        let (fname, t) = (f.name, ctype(f));
        if f.len == 0 {
            let _ = writeln!(
                s,
                "{fun} {name} {name}_with_{fname}({name} r, {t} v) {{ r.{fname} = v; return r; }}"
            );
            if f.ty.is_float() {
                let suffix = if f.ty == Scalar::F32 { "v##f" } else { "v" };
                let _ = writeln!(s, "#define RB_F_{name}_{fname}(v) {suffix}");
            }
        } else {
            let n = f.len;
            let _ = writeln!(
                s,
                "{fun} {t} {name}_get_{fname}({name} r, {u64_} k, {fault}, unsigned int site) {{ if (k >= {n}) {{ rb_oob(f, site, 1, k, 0, 0, {n}, 0, 0); return 0; }} return r.{fname}[k]; }}"
            );
            if f.ty.is_float() {
                let suffix = if f.ty == Scalar::F32 { "v##f" } else { "v" };
                let _ = writeln!(s, "#define RB_F_{name}_{fname}(v) {suffix}");
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_read_back_exactly() {
        for v in [0.1f32, 1.0e-40, f32::MAX, f32::MIN_POSITIVE, 3.0, -2.5e-7] {
            let s = c_float_lit(v as f64, Scalar::F32, Target::OpenCl);
            let body = s.trim_start_matches('(').trim_end_matches(')');
            let back: f32 = body.trim_end_matches('f').parse().unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{s}");
        }
        assert_eq!(
            c_int_lit(u64::MAX as i128, Scalar::U64, Target::Cuda),
            "18446744073709551615ull"
        );
        assert_eq!(
            c_int_lit(i64::MIN as i128, Scalar::I64, Target::OpenCl),
            "(-9223372036854775807l - 1)"
        );
        assert_eq!(7u16.c_literal(Target::Cuda), "((unsigned short)7)");
        assert_eq!(true.c_literal(Target::OpenCl), "true");
    }
}
