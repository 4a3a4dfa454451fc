//! Local type inference: type variables with a kind (any / integer / float), unification under
//! Rust's no-promotion rule, and Rust's literal defaults (`i32`, `f64`) at the end.
//!
//! Every expression gets a type when it is parsed: a concrete one (signature, suffix,
//! annotation, cast target, a query's known result) or a fresh variable. Operators unify their
//! operands exactly as rustc does for primitive types, so what this accepts rustc accepts with
//! the same types — and the Rust emitter writes them all down, so any disagreement is a rustc
//! error at the user's span. Checks that need the final type (`-` on unsigned, `!` on floats,
//! float-only functions, atomics) are queued as [`Need`]s and run after defaulting.

use proc_macro2::Span;

use super::ir::Ty;
use crate::target::Scalar;

/// What a type variable may become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Anything (a const, a record field, a device function's result).
    Any,
    /// An integer type (an unsuffixed integer literal).
    Int,
    /// A float type (an unsuffixed float literal).
    Float,
}

#[derive(Debug, Clone)]
enum Slot {
    Link(u32),
    Free(Kind, Span),
    Bound(Ty),
}

/// A check on a final type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// A number, not `bool` (math functions, `%`).
    Number,
    /// `+ - * /`: a number or a complex number.
    Arith,
    /// Unary `-`: a signed integer, a float or a complex number.
    Neg,
    /// `==` / `!=`: a scalar or a complex number.
    Equatable,
    /// An integer.
    Int,
    /// A float.
    Float,
    /// A float or `f16` (`is_nan`).
    FloatOrF16,
    /// A signed integer or a float (unary `-`).
    Signed,
    /// An integer or `bool` (bitwise operators, `!`).
    IntOrBool,
    /// A scalar (operands of `as`, comparisons).
    Scalar,
    /// A scalar `as` converts (not `f16`, which converts with `.to_f32()` / `f16::from_f32`).
    Castable,
    /// An element type with atomic add/sub/min/max/nanmin/nanmax/exch/cas (i32 u32 i64 u64 f32
    /// f64).
    AtomicValue,
    /// An element type with atomic and/or/xor/inc/dec (i32 u32 i64 u64); also the 32- and
    /// 64-bit integers of `mul_hi`.
    AtomicInt,
    /// `i32` or `u32` (`sad`).
    Int32,
    /// `u32` (`byte_perm`).
    U32,
    /// A float or a complex number (`exp`, `sqrt`, …).
    FloatOrComplex,
    /// A float, `f16` or a complex number (`is_nan`).
    Classify,
    /// A complex number (`norm`, `arg`, `conj`).
    Complex,
    /// `isize` or `usize` (a slice's index, bound or step).
    SliceIndex,
}

impl Need {
    fn holds(self, ty: &Ty) -> bool {
        if ty.complex_part().is_some() {
            return matches!(
                self,
                Need::Arith
                    | Need::Neg
                    | Need::Equatable
                    | Need::FloatOrComplex
                    | Need::Classify
                    | Need::Complex
            );
        }
        let Some(s) = ty.scalar() else {
            return false;
        };
        match self {
            Need::Number | Need::Arith => s != Scalar::Bool,
            Need::Neg => s.is_signed_int() || s.is_float() || s.is_f16(),
            Need::Equatable => true,
            Need::Int => s.is_int(),
            Need::Float => s.is_float(),
            Need::FloatOrF16 => s.is_float() || s.is_f16(),
            Need::Signed => s.is_signed_int() || s.is_float(),
            Need::IntOrBool => s.is_int() || s == Scalar::Bool,
            Need::Scalar => true,
            Need::Castable => !s.is_f16(),
            Need::AtomicValue => matches!(
                s,
                Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64 | Scalar::F32 | Scalar::F64
            ),
            Need::AtomicInt => matches!(s, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64),
            Need::Int32 => matches!(s, Scalar::I32 | Scalar::U32),
            Need::U32 => s == Scalar::U32,
            Need::FloatOrComplex => s.is_float(),
            Need::Classify => s.is_float() || s.is_f16(),
            Need::Complex => false,
            Need::SliceIndex => matches!(s, Scalar::Isize | Scalar::Usize),
        }
    }
}

/// The inference table.
#[derive(Debug, Default)]
pub struct Types {
    slots: Vec<Slot>,
    needs: Vec<(Ty, Need, Span, String)>,
    /// Variables standing for an expression that was already refused: they agree with
    /// anything and are never reported, so one refusal does not cascade.
    silent: std::collections::HashSet<u32>,
    /// Variables whose type only rustc needs (a field a value is assigned to): unified like any
    /// other, but never reported when nothing fixes them.
    quiet: std::collections::HashSet<u32>,
}

/// Display name of a (possibly partial) type.
pub fn show(ty: &Ty) -> String {
    match ty {
        Ty::Scalar(s) => s.rust_name().into(),
        Ty::Record(r) => r.clone(),
        Ty::Complex(p) => format!("Complex<{}>", show(p)),
        Ty::Dim3 => "Dim3".into(),
        Ty::Unit => "()".into(),
        Ty::Tuple(v) => format!("({})", v.iter().map(show).collect::<Vec<_>>().join(", ")),
        Ty::Var(_) => "_".into(),
    }
}

impl Types {
    /// A fresh variable of `kind`, born at `span` (where an annotation would be asked for).
    pub fn fresh(&mut self, kind: Kind, span: Span) -> Ty {
        self.slots.push(Slot::Free(kind, span));
        Ty::Var(self.slots.len() as u32 - 1)
    }

    /// A fresh variable that may stay unknown (see `quiet`).
    pub fn fresh_quiet(&mut self, span: Span) -> Ty {
        let t = self.fresh(Kind::Any, span);
        if let Ty::Var(v) = t {
            self.quiet.insert(v);
        }
        t
    }

    /// The type of an expression that was refused (see `silent`).
    pub fn error(&mut self, span: Span) -> Ty {
        let t = self.fresh(Kind::Any, span);
        if let Ty::Var(v) = t {
            self.silent.insert(v);
        }
        t
    }

    fn root(&self, mut v: u32) -> u32 {
        while let Slot::Link(n) = self.slots[v as usize] {
            v = n;
        }
        v
    }

    /// The type as far as known (variables followed one level deep).
    pub fn shallow(&self, ty: &Ty) -> Ty {
        match ty {
            Ty::Var(v) => {
                let r = self.root(*v);
                match &self.slots[r as usize] {
                    Slot::Bound(t) => t.clone(),
                    _ => Ty::Var(r),
                }
            }
            t => t.clone(),
        }
    }

    /// The fully resolved type, or `None` while a variable is still free.
    pub fn resolved(&self, ty: &Ty) -> Option<Ty> {
        match self.shallow(ty) {
            Ty::Var(_) => None,
            Ty::Tuple(v) => v
                .iter()
                .map(|t| self.resolved(t))
                .collect::<Option<Vec<_>>>()
                .map(Ty::Tuple),
            Ty::Complex(p) => self.resolved(&p).map(|p| Ty::Complex(Box::new(p))),
            t => Some(t),
        }
    }

    /// Makes `a` and `b` the same type; `what` describes the place for the error.
    ///
    /// # Errors
    /// A spanned error when the types cannot agree (Rust does not convert numbers implicitly).
    pub fn unify(&mut self, a: &Ty, b: &Ty, span: Span, what: &str) -> syn::Result<()> {
        let (a, b) = (self.shallow(a), self.shallow(b));
        for t in [&a, &b] {
            if let Ty::Var(v) = t {
                if self.silent.contains(v) {
                    if let (Ty::Var(x), Ty::Var(y)) = (&a, &b) {
                        self.silent.insert(*x);
                        self.silent.insert(*y);
                    }
                    return Ok(());
                }
            }
        }
        let mismatch = |a: &Ty, b: &Ty| {
            let hint = match (a, b) {
                (Ty::Scalar(x), Ty::Scalar(y)) if x.is_f16() || y.is_f16() => {
                    "; Rust never converts numbers implicitly: convert with `f16::from_f32(x)` / `f16::from_f64(x)` or `h.to_f32()` / `h.to_f64()`".to_string()
                }
                (Ty::Scalar(x), Ty::Scalar(y)) if *x != Scalar::Bool && *y != Scalar::Bool => {
                    format!(
                        "; Rust never converts numbers implicitly: convert one side with `as {}`",
                        x.rust_name()
                    )
                }
                (Ty::Complex(_), Ty::Scalar(s)) | (Ty::Scalar(s), Ty::Complex(_))
                    if s.is_float() =>
                {
                    "; make the real number complex: `Complex::new(x, 0.0)`".to_string()
                }
                _ => String::new(),
            };
            syn::Error::new(
                span,
                format!(
                    "mismatched types in {what}: `{}` and `{}`{hint}",
                    show(a),
                    show(b)
                ),
            )
        };
        match (&a, &b) {
            (Ty::Var(x), Ty::Var(y)) => {
                if x == y {
                    return Ok(());
                }
                let (Slot::Free(kx, sx), Slot::Free(ky, _)) = (
                    self.slots[*x as usize].clone(),
                    self.slots[*y as usize].clone(),
                ) else {
                    unreachable!("shallow() returns free roots only")
                };
                let kind = match (kx, ky) {
                    (Kind::Any, k) | (k, Kind::Any) => k,
                    (k1, k2) if k1 == k2 => k1,
                    _ => {
                        return Err(syn::Error::new(
                            span,
                            format!(
                                "mismatched types in {what}: an integer and a float; Rust never converts numbers implicitly: write a float literal (`1.0`) or convert with `as`"
                            ),
                        ));
                    }
                };
                self.slots[*x as usize] = Slot::Free(kind, sx);
                self.slots[*y as usize] = Slot::Link(*x);
                Ok(())
            }
            (Ty::Var(x), t) | (t, Ty::Var(x)) => {
                let Slot::Free(k, _) = self.slots[*x as usize] else {
                    unreachable!()
                };
                let ok = match (k, t) {
                    (Kind::Any, _) => true,
                    (Kind::Int, Ty::Scalar(s)) => s.is_int(),
                    (Kind::Float, Ty::Scalar(s)) => s.is_float(),
                    _ => false,
                };
                if !ok {
                    let lit = if k == Kind::Int {
                        "an integer"
                    } else {
                        "a float"
                    };
                    return Err(syn::Error::new(
                        span,
                        format!(
                            "mismatched types in {what}: {lit} and `{}`{}",
                            show(t),
                            match t {
                                Ty::Scalar(s) if s.is_f16() =>
                                    "; `f16` has no literals: write `f16::from_f32(1.0)` (or `f16::ONE`, `f16::ZERO`)",
                                Ty::Scalar(s) if s.is_float() =>
                                    "; write a float literal such as `1.0`",
                                Ty::Scalar(s) if s.is_int() =>
                                    "; write an integer literal or convert with `as`",
                                _ => "",
                            }
                        ),
                    ));
                }
                self.slots[*x as usize] = Slot::Bound(t.clone());
                Ok(())
            }
            (Ty::Complex(x), Ty::Complex(y)) => {
                self.unify(x, y, span, what).map_err(|_| mismatch(&a, &b))
            }
            (Ty::Tuple(x), Ty::Tuple(y)) if x.len() == y.len() => {
                for (p, q) in x.iter().zip(y) {
                    self.unify(p, q, span, what)?;
                }
                Ok(())
            }
            (x, y) if x == y => Ok(()),
            (x, y) => Err(mismatch(x, y)),
        }
    }

    /// Queues a check of the final type of `ty`.
    pub fn need(&mut self, ty: &Ty, need: Need, span: Span, what: impl Into<String>) {
        self.needs.push((ty.clone(), need, span, what.into()));
    }

    /// Applies Rust's literal defaults (`i32`, `f64`) and reports every variable that is still
    /// free, then runs the queued checks.
    ///
    /// # Errors
    /// All errors, combined.
    pub fn finish(&mut self) -> Vec<syn::Error> {
        let mut errors = Vec::new();
        for v in 0..self.slots.len() {
            if let Slot::Free(kind, span) = self.slots[v] {
                match kind {
                    Kind::Int => self.slots[v] = Slot::Bound(Ty::Scalar(Scalar::I32)),
                    Kind::Float => self.slots[v] = Slot::Bound(Ty::Scalar(Scalar::F64)),
                    Kind::Any
                        if self.silent.contains(&(v as u32))
                            || self.quiet.contains(&(v as u32)) =>
                    {
                        self.slots[v] = Slot::Bound(Ty::Unit);
                    }
                    Kind::Any => {
                        errors.push(syn::Error::new(
                            span,
                            "cannot infer the type of this value: bind it with an annotation (`let v: f32 = …;`) or use it where its type is fixed",
                        ));
                        // Bound to unit so later stages see no variable.
                        self.slots[v] = Slot::Bound(Ty::Unit);
                    }
                }
            }
        }
        for (ty, need, span, what) in std::mem::take(&mut self.needs) {
            let t = self.resolved(&ty).unwrap_or(Ty::Unit);
            if t != Ty::Unit && !need.holds(&t) {
                let hint = if t.complex_part().is_some() {
                    ": complex numbers have `+ - * /`, unary `-`, `==`, `!=` and `exp ln sqrt sin cos tan sinh cosh tanh norm arg conj is_nan is_infinite is_finite`; work on their parts `.re` and `.im` for the rest"
                } else if t == Ty::Scalar(Scalar::F16) {
                    ": `f16` values have `+ - * / %`, comparisons, unary `-`, `min`, `max` and `is_nan`, and convert with `f16::from_f32(x)` / `h.to_f32()` (compute the rest in `f32`)"
                } else {
                    ""
                };
                let msg = if need == Need::SliceIndex {
                    format!(
                        "{what} are `isize` or `usize`, this is `{}`: write `as isize`",
                        show(&t)
                    )
                } else {
                    format!("{what} is not defined for `{}`{hint}", show(&t))
                };
                errors.push(syn::Error::new(span, msg));
            }
        }
        errors
    }
}
