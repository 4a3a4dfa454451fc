//! Expressions in C: operators with Rust's integer semantics, casts, math, thread queries,
//! barriers, atomics and calls.

use super::Printer;
use crate::lower::ir::*;
use crate::target::{Scalar, c_float_lit, c_int_lit};

impl Printer<'_> {
    pub(super) fn grid(&self, axis: u8, size: bool) -> String {
        let ax = ["x", "y", "z"][axis as usize];
        if self.cuda() {
            if size {
                format!("((unsigned long long)gridDim.{ax} * blockDim.{ax})")
            } else {
                format!("((unsigned long long)blockIdx.{ax} * blockDim.{ax} + threadIdx.{ax})")
            }
        } else if size {
            format!("((ulong)get_num_groups({axis}) * get_local_size({axis}))")
        } else {
            format!("((ulong)get_group_id({axis}) * get_local_size({axis}) + get_local_id({axis}))")
        }
    }

    pub(super) fn dim3(&self, q: ThreadQuery, axis: u8) -> String {
        let ax = ["x", "y", "z"][axis as usize];
        if self.cuda() {
            let v = match q {
                ThreadQuery::ThreadIdx => "threadIdx",
                ThreadQuery::BlockIdx => "blockIdx",
                ThreadQuery::BlockDim => "blockDim",
                _ => "gridDim",
            };
            format!("{v}.{ax}")
        } else {
            let v = match q {
                ThreadQuery::ThreadIdx => "get_local_id",
                ThreadQuery::BlockIdx => "get_group_id",
                ThreadQuery::BlockDim => "get_local_size",
                _ => "get_num_groups",
            };
            format!("((uint){v}({axis}))")
        }
    }

    pub(super) fn binary(
        &mut self,
        op: BinOp,
        ty: &Ty,
        a: &str,
        b: &str,
        site: Option<SiteId>,
    ) -> String {
        if let Some(part) = ty.complex_part() {
            // num-complex's formulas, in the device header / OpenCL prelude.
            let c = super::complex_c_type(part);
            return match op {
                BinOp::Add => format!("{c}_add({a}, {b})"),
                BinOp::Sub => format!("{c}_sub({a}, {b})"),
                BinOp::Mul => format!("{c}_mul({a}, {b})"),
                BinOp::Div => format!("{c}_div({a}, {b})"),
                BinOp::Eq => format!("{c}_eq({a}, {b})"),
                BinOp::Ne => format!("(!{c}_eq({a}, {b}))"),
                // Refused by the type checks.
                _ => format!("/* no complex {} */ {a}", op.symbol()),
            };
        }
        let Some(s) = ty.scalar() else {
            return format!("({a} {} {b})", op.symbol());
        };
        let t = s.c_name(self.target);
        if s.is_f16() {
            return self.f16_binary(op, a, b);
        }
        if s.is_float() {
            return match op {
                BinOp::Rem => {
                    if self.cuda() && s == Scalar::F32 {
                        format!("fmodf({a}, {b})")
                    } else {
                        format!("fmod({a}, {b})")
                    }
                }
                _ => format!("({a} {} {b})", op.symbol()),
            };
        }
        if s == Scalar::Bool {
            return format!("({a} {} {b})", op.symbol());
        }
        let w = s.c_work_unsigned().c_name(self.target);
        let wide_unsigned = !s.is_signed_int() && s.size() >= 4;
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                if wide_unsigned {
                    format!("({a} {} {b})", op.symbol())
                } else {
                    format!("(({t})(({w}){a} {} ({w}){b}))", op.symbol())
                }
            }
            BinOp::Div | BinOp::Rem => {
                let f = if op == BinOp::Div { "div" } else { "rem" };
                let at = self.at(site.unwrap_or(0));
                if self.cuda() {
                    format!("rb_{f}({a}, {b}, {at})")
                } else {
                    format!("rb_{f}_{}({a}, {b}, {at})", s.tag())
                }
            }
            BinOp::Shl => {
                let mask = s.bits() - 1;
                format!("(({t})(({w}){a} << (({b}) & {mask})))")
            }
            BinOp::Shr => {
                let mask = s.bits() - 1;
                format!("(({t})({a} >> (({b}) & {mask})))")
            }
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor if s.size() < 4 => {
                format!("(({t})({a} {} {b}))", op.symbol())
            }
            _ => format!("({a} {} {b})", op.symbol()),
        }
    }

    /// An `f16` operation: computed in `f32` and rounded to nearest even, as `half` computes
    /// it. CUDA: `rb_f2h(rb_h2f(a) op rb_h2f(b))` (the bits `__hadd` / `__hsub` / `__hmul`
    /// give; `/` correctly rounded, where `__hdiv` uses an approximate reciprocal); OpenCL:
    /// `float` values rounded after each operation by `rb_hr` (`vstore_half`, `vload_half`).
    fn f16_binary(&self, op: BinOp, a: &str, b: &str) -> String {
        let sym = op.symbol();
        let arith = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
        if self.cuda() {
            let (fa, fb) = (format!("rb_h2f({a})"), format!("rb_h2f({b})"));
            if arith {
                format!("rb_f2h({fa} {sym} {fb})")
            } else if op == BinOp::Rem {
                format!("rb_f2h(fmodf({fa}, {fb}))")
            } else {
                format!("({fa} {sym} {fb})")
            }
        } else if arith {
            format!("rb_hr({a} {sym} {b})")
        } else if op == BinOp::Rem {
            format!("rb_hr(fmod({a}, {b}))")
        } else {
            format!("({a} {sym} {b})")
        }
    }

    pub(super) fn cast(&self, x: &str, from: Scalar, to: Scalar) -> String {
        if from == to {
            return x.to_string();
        }
        if from.is_f16() || to.is_f16() {
            // Only `f16 <-> f32 / f64` exist (`from_f32`, `to_f64`, …).
            return match (self.cuda(), from, to) {
                (true, _, Scalar::F32) => format!("rb_h2f({x})"),
                (true, _, Scalar::F64) => format!("((double)rb_h2f({x}))"),
                (true, Scalar::F64, _) => format!("rb_d2h({x})"),
                (true, _, _) => format!("rb_f2h({x})"),
                (false, _, Scalar::F32) => x.to_string(),
                (false, _, Scalar::F64) => format!("((double){x})"),
                (false, Scalar::F64, _) => format!("rb_d2hf({x})"),
                (false, _, _) => format!("rb_hr({x})"),
            };
        }
        let t = to.c_name(self.target);
        if from.is_float() && to.is_int() {
            return if self.cuda() {
                format!("rb_sat_{}({x})", to.tag())
            } else {
                format!("convert_{t}_sat_rtz({x})")
            };
        }
        format!("(({t}){x})")
    }

    pub(super) fn math(&mut self, f: MathFn, args: &[Expr]) -> String {
        let s = args[0].ty.scalar().unwrap_or(Scalar::F32);
        let a: Vec<String> = args.iter().map(|e| self.expr(e)).collect();
        if let Some(part) = args[0].ty.complex_part() {
            // The complex functions of the device header / OpenCL prelude (`rb_c32_exp`, …).
            let c = super::complex_c_type(part);
            let call = format!("{c}_{}({})", f.name(), a[0]);
            return if matches!(f, MathFn::IsNan | MathFn::IsInfinite | MathFn::IsFinite) {
                format!("({call} != 0)")
            } else {
                call
            };
        }
        let cuda = self.cuda();
        let fl = |name: &str| -> String {
            if cuda && s == Scalar::F32 {
                format!("{name}f")
            } else {
                name.to_string()
            }
        };
        if s.is_f16() {
            // `half`'s own rules (`rb_hmax`: `isnan(a) || b > a ? b : a`), in the device
            // header's / OpenCL prelude's f16 helpers.
            return match f {
                MathFn::Max => format!("rb_hmax({}, {})", a[0], a[1]),
                MathFn::Min => format!("rb_hmin({}, {})", a[0], a[1]),
                _ if cuda => format!("(isnan(rb_h2f({})) != 0)", a[0]),
                _ => format!("(isnan({}) != 0)", a[0]),
            };
        }
        match f {
            MathFn::Min | MathFn::Max if s.is_float() => {
                let n = fl(if f == MathFn::Min { "fmin" } else { "fmax" });
                format!("{n}({}, {})", a[0], a[1])
            }
            MathFn::Min | MathFn::Max => {
                let n = if f == MathFn::Min { "min" } else { "max" };
                // Both operands at exactly the element type: C promotions must not make the
                // overloaded builtin (or the template) ambiguous.
                let t = s.c_name(self.target);
                if cuda {
                    format!("rb_{n}(({t}){}, ({t}){})", a[0], a[1])
                } else {
                    format!("{n}(({t}){}, ({t}){})", a[0], a[1])
                }
            }
            MathFn::Abs if s.is_float() => format!("{}({})", fl("fabs"), a[0]),
            MathFn::Abs => {
                let t = s.c_name(self.target);
                if cuda {
                    format!("rb_wabs(({t}){})", a[0])
                } else {
                    format!("rb_wabs_{}(({t}){})", s.tag(), a[0])
                }
            }
            MathFn::Sqrt => format!("{}({})", fl("sqrt"), a[0]),
            MathFn::Exp => format!("{}({})", fl("exp"), a[0]),
            MathFn::Ln => format!("{}({})", fl("log"), a[0]),
            MathFn::Sin => format!("{}({})", fl("sin"), a[0]),
            MathFn::Cos => format!("{}({})", fl("cos"), a[0]),
            MathFn::Tan => format!("{}({})", fl("tan"), a[0]),
            MathFn::Floor => format!("{}({})", fl("floor"), a[0]),
            MathFn::Ceil => format!("{}({})", fl("ceil"), a[0]),
            MathFn::Round => format!("{}({})", fl("round"), a[0]),
            MathFn::Powf => format!("{}({}, {})", fl("pow"), a[0], a[1]),
            MathFn::Powi => {
                if cuda {
                    let t = s.c_name(self.target);
                    format!("{}({}, ({t}){})", fl("pow"), a[0], a[1])
                } else {
                    format!("pown({}, {})", a[0], a[1])
                }
            }
            MathFn::MulAdd => format!("{}({}, {}, {})", fl("fma"), a[0], a[1], a[2]),
            MathFn::IsNan => format!("(isnan({}) != 0)", a[0]),
            MathFn::WrappingAdd | MathFn::WrappingSub | MathFn::WrappingMul => {
                let op = match f {
                    MathFn::WrappingAdd => BinOp::Add,
                    MathFn::WrappingSub => BinOp::Sub,
                    _ => BinOp::Mul,
                };
                self.binary(op, &Ty::Scalar(s), &a[0], &a[1], None)
            }
            MathFn::WrappingNeg => self.neg(s, &a[0]),
            MathFn::Acos
            | MathFn::Acosh
            | MathFn::Asin
            | MathFn::Asinh
            | MathFn::Atan
            | MathFn::Atan2
            | MathFn::Atanh
            | MathFn::Cbrt
            | MathFn::Copysign
            | MathFn::Cosh
            | MathFn::Erf
            | MathFn::Erfc
            | MathFn::Exp2
            | MathFn::ExpM1
            | MathFn::Gamma
            | MathFn::Hypot
            | MathFn::Ldexp
            | MathFn::LnGamma
            | MathFn::Ln1p
            | MathFn::Log10
            | MathFn::Log2
            | MathFn::Remainder
            | MathFn::Sinh
            | MathFn::Tanh
            | MathFn::Trunc => {
                let name = match f {
                    MathFn::ExpM1 => "expm1",
                    MathFn::Gamma => "tgamma",
                    MathFn::LnGamma => "lgamma",
                    MathFn::Ln1p => "log1p",
                    f => f.name(),
                };
                format!("{}({})", fl(name), a.join(", "))
            }
            MathFn::IsFinite => format!("(isfinite({}) != 0)", a[0]),
            MathFn::IsInfinite => format!("(isinf({}) != 0)", a[0]),
            MathFn::ToDegrees | MathFn::ToRadians => {
                // Rust's own constants, so the one rounding of the product is the same.
                let k = match (f, s) {
                    (MathFn::ToDegrees, Scalar::F32) => f64::from(1.0f32.to_degrees()),
                    (MathFn::ToRadians, Scalar::F32) => f64::from(1.0f32.to_radians()),
                    (MathFn::ToDegrees, _) => 1.0f64.to_degrees(),
                    _ => 1.0f64.to_radians(),
                };
                format!("({} * {})", a[0], c_float_lit(k, s, self.target))
            }
            MathFn::Signum => {
                let (nan, one) = (
                    c_float_lit(f64::NAN, s, self.target),
                    c_float_lit(1.0, s, self.target),
                );
                format!(
                    "(isnan({0}) ? {nan} : {1}({one}, {0}))",
                    a[0],
                    fl("copysign")
                )
            }
            MathFn::Recip => format!("({} / {})", c_float_lit(1.0, s, self.target), a[0]),
            MathFn::Fract => format!("({0} - {1}({0}))", a[0], fl("trunc")),
            // Tuple-valued: only as the value of `let (a, b) = …` (see `Printer::let_tuple`).
            MathFn::Frexp | MathFn::Modf => "rb_tuple_value_outside_a_tuple_let".to_string(),
            _ => self.int_intrinsic(f, s, &a),
        }
    }

    /// CUDA's integer intrinsics with Rust's meaning at every width: the value zero-extended to
    /// 64 bits (`rb_u64`/`ulong`) through the helpers of the device header and the OpenCL
    /// prelude, which take the width in bits.
    fn int_intrinsic(&self, f: MathFn, s: Scalar, a: &[String]) -> String {
        let cuda = self.cuda();
        let t = s.c_name(self.target);
        let u = s.unsigned().c_name(self.target);
        let bits = s.bits();
        let wide = if cuda { "unsigned long long" } else { "ulong" };
        let v = format!("(({wide})({u}){})", a[0]);
        match f {
            MathFn::CountOnes => format!("rb_popc({v})"),
            MathFn::LeadingZeros => format!("rb_clz({v}, {bits}u)"),
            MathFn::TrailingZeros => format!("rb_ctz({v}, {bits}u)"),
            MathFn::Ffs => format!("rb_ffs({v})"),
            MathFn::ReverseBits => format!("(({t})({u})(rb_brev({v}) >> {}))", 64 - bits),
            MathFn::SwapBytes => format!("(({t})({u})(rb_bswap({v}) >> {}))", 64 - bits),
            MathFn::RotateLeft | MathFn::RotateRight => {
                let (x, y) = if f == MathFn::RotateLeft {
                    ("<<", ">>")
                } else {
                    (">>", "<<")
                };
                let n = format!("(({}) % {bits}u)", a[1]);
                format!(
                    "(({t})({u})((({u}){0} {x} {n}) | (({u}){0} {y} (({bits}u - {n}) % {bits}u))))",
                    a[0]
                )
            }
            MathFn::MulHi if cuda => {
                let name = match s {
                    Scalar::I32 => "__mulhi",
                    Scalar::U32 => "__umulhi",
                    Scalar::I64 => "__mul64hi",
                    _ => "__umul64hi",
                };
                format!("{name}({}, {})", a[0], a[1])
            }
            MathFn::MulHi => format!("mul_hi(({t}){}, ({t}){})", a[0], a[1]),
            MathFn::Sad if cuda => {
                let name = if s == Scalar::I32 { "__sad" } else { "__usad" };
                format!("{name}({}, {}, {})", a[0], a[1], a[2])
            }
            MathFn::Sad => format!(
                "((uint)(abs_diff(({t}){}, ({t}){}) + {}))",
                a[0], a[1], a[2]
            ),
            MathFn::BytePerm if cuda => {
                format!("__byte_perm({}, {}, ({}) & 0x7777u)", a[0], a[1], a[2])
            }
            MathFn::BytePerm => format!("rb_byte_perm({}, {}, {})", a[0], a[1], a[2]),
            _ => String::from("0"),
        }
    }

    pub(super) fn neg(&self, s: Scalar, x: &str) -> String {
        if s.is_f16() && self.cuda() {
            // The sign bit, as `half` flips it.
            return format!("rb_hneg({x})");
        }
        if s.is_float() || s.is_f16() {
            return format!("(-{x})");
        }
        let t = s.c_name(self.target);
        let w = s.c_work_unsigned().c_name(self.target);
        format!("(({t})(({w})0 - ({w}){x}))")
    }

    pub(super) fn expr(&mut self, e: &Expr) -> String {
        let target = self.target;
        match &e.kind {
            ExprKind::Int(v) => c_int_lit(*v, e.ty.scalar().unwrap_or(Scalar::I32), target),
            ExprKind::Float(v) => c_float_lit(*v, e.ty.scalar().unwrap_or(Scalar::F64), target),
            ExprKind::Bool(b) => if *b { "true" } else { "false" }.into(),
            ExprKind::Local(l) => self.f.locals[*l].c_name.clone(),
            ExprKind::Const(c) => self.f.consts[*c].c_name.clone(),
            ExprKind::Unary(UnOp::Neg, a) if a.ty.complex_part().is_some() => {
                let x = self.expr(a);
                let c = self.ty(&a.ty);
                format!("{c}_neg({x})")
            }
            ExprKind::Unary(op, a) => {
                let x = self.expr(a);
                let s = a.ty.scalar().unwrap_or(Scalar::I32);
                match op {
                    UnOp::Neg => self.neg(s, &x),
                    UnOp::Not if s == Scalar::Bool => format!("(!{x})"),
                    UnOp::Not => format!("(({})~{x})", s.c_name(target)),
                }
            }
            ExprKind::Binary(op, a, b, site) => {
                let (x, y) = (self.expr(a), self.expr(b));
                self.binary(*op, &a.ty, &x, &y, *site)
            }
            ExprKind::Cast(a, to) => {
                let x = self.expr(a);
                self.cast(&x, a.ty.scalar().unwrap_or(Scalar::I32), *to)
            }
            ExprKind::Select(c, a, b) => {
                let ty = e.ty.clone();
                let (c, a, b) = (self.expr(c), self.expr(a), self.expr(b));
                match ty.scalar() {
                    // `?:` applies C's promotions to narrow operands: cast back.
                    Some(s) if s.is_int() && s.size() < 4 => {
                        format!("(({})({c} ? {a} : {b}))", s.c_name(self.target))
                    }
                    _ => format!("({c} ? {a} : {b})"),
                }
            }
            ExprKind::Index { array, idx, site } => {
                let load = self.accessor("ld", *array);
                let i = self.idx_list(idx);
                let at = self.at(*site);
                let load = format!(
                    "{load}({}, {}, {at})",
                    self.f.arrays[*array].c_name,
                    i.join(", ")
                );
                self.loaded(*array, load)
            }
            ExprKind::Len(a) | ExprKind::Shape(a, 0) => {
                let u = Scalar::Usize.c_name(target);
                let arr = &self.f.arrays[*a];
                format!(
                    "(({u}){}.{}[0])",
                    arr.c_name,
                    if self.cuda() { "shape" } else { "sh" }
                )
            }
            ExprKind::Shape(a, k) => {
                let u = Scalar::Usize.c_name(target);
                let arr = &self.f.arrays[*a];
                format!(
                    "(({u}){}.{}[{k}])",
                    arr.c_name,
                    if self.cuda() { "shape" } else { "sh" }
                )
            }
            ExprKind::Size(a) => {
                let u = Scalar::Usize.c_name(target);
                let arr = &self.f.arrays[*a];
                let sh = if self.cuda() { "shape" } else { "sh" };
                let parts: Vec<String> = (0..self.c_rank(*a))
                    .map(|k| format!("({u}){}.{sh}[{k}]", arr.c_name))
                    .collect();
                format!("({})", parts.join(" * "))
            }
            ExprKind::Field(r, name) => {
                let r = self.expr(r);
                format!("{r}.{name}")
            }
            ExprKind::Axis(d, ax) => {
                if let ExprKind::Thread(q) = d.kind {
                    return self.dim3(q, *ax);
                }
                let d = self.expr(d);
                format!("{d}.{}", ["x", "y", "z"][*ax as usize])
            }
            ExprKind::Tuple(v) => {
                let t = self.ty(&e.ty);
                let parts: Vec<String> = v.iter().map(|x| self.expr(x)).collect();
                format!("{t}_new({})", parts.join(", "))
            }
            ExprKind::TupleField(t, k) => {
                let t = self.expr(t);
                format!("{t}.f{k}")
            }
            ExprKind::RecordLit { record, fields } => {
                // The record's zero value with each field set in turn (the record declaration
                // the program assembles has the setters: it knows the fields).
                let r = self.f.records[*record].c_name.clone();
                let mut v = format!("{r}_zero()");
                for (name, x) in fields {
                    let x = self.expr(x);
                    v = format!("{r}_with_{name}({v}, {x})");
                }
                v
            }
            ExprKind::SubIndex {
                rec,
                record,
                field,
                idx,
                site,
            } => {
                let (r, i) = (self.expr(rec), self.expr(idx));
                let at = self.at(*site);
                format!("{record}_get_{field}({r}, {i}, {at})")
            }
            ExprKind::FieldLit {
                record,
                field,
                text,
                float,
                neg,
            } => {
                let v = if *float {
                    format!("RB_F_{record}_{field}({text})")
                } else {
                    text.clone()
                };
                if *neg { format!("(-{v})") } else { v }
            }
            // Only a field assignment's value, which writes the bytes itself.
            ExprKind::Bytes(_) => "0".into(),
            ExprKind::ArrayRef(a) => {
                let arr = &self.f.arrays[*a];
                // CUDA: a device function takes `rumba_array<T, N>`; a constant array (`const
                // T`) passes as one, which the callee only reads (the Rust form checks that).
                if self.cuda() && arr.space == Space::Const {
                    format!("rb_unconst({})", arr.c_name)
                } else {
                    arr.c_name.clone()
                }
            }
            ExprKind::Complex(v) => {
                let c = self.ty(&e.ty);
                let parts: Vec<String> = v.iter().map(|x| self.expr(x)).collect();
                format!("{c}_new({})", parts.join(", "))
            }
            ExprKind::Thread(q) => match q {
                ThreadQuery::Grid(1) => self.grid(0, false),
                ThreadQuery::GridSize(1) => self.grid(0, true),
                ThreadQuery::Grid(_) | ThreadQuery::GridSize(_) => "0 /* tuple */".into(),
                ThreadQuery::WarpSize => "32u".into(),
                ThreadQuery::LaneId => {
                    if self.cuda() {
                        "((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u)".into()
                    } else {
                        "((uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2))) % 32u)".into()
                    }
                }
                q => {
                    let parts: Vec<String> = (0..3).map(|k| self.dim3(*q, k)).collect();
                    if self.cuda() {
                        format!("make_uint3({})", parts.join(", "))
                    } else {
                        format!("((uint3)({}))", parts.join(", "))
                    }
                }
            },
            ExprKind::Sync(kind, p) => {
                let p = p.as_ref().map(|p| {
                    let x = self.expr(p);
                    format!("(({x}) != 0)")
                });
                match (kind, self.cuda()) {
                    (SyncKind::Plain, true) => "__syncthreads()".into(),
                    (SyncKind::Plain, false) => {
                        "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)".into()
                    }
                    (k, true) => {
                        format!("__syncthreads_{}({})", sync_name(*k), p.unwrap_or_default())
                    }
                    (k, false) => format!(
                        "rb_syncthreads_{}(rb_sync, {})",
                        sync_name(*k),
                        p.unwrap_or_default()
                    ),
                }
            }
            ExprKind::Fence(kind) => match (kind, self.cuda()) {
                (FenceKind::Device, true) => "__threadfence()".into(),
                (FenceKind::Block, true) => "__threadfence_block()".into(),
                (FenceKind::System, true) => "__threadfence_system()".into(),
                (_, false) => "mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)".into(),
            },
            ExprKind::Warp(kind, args) => self.warp(*kind, args, &e.ty),
            ExprKind::Math(f, args) => self.math(*f, args),
            ExprKind::Atomic {
                op,
                array,
                idx,
                args,
                site,
            } => {
                let name = self.accessor(&format!("atomic_{}", op.name()), *array);
                let mut parts = vec![self.f.arrays[*array].c_name.clone()];
                let i = self.idx_list(idx);
                parts.extend(i);
                parts.extend(args.iter().map(|x| self.expr(x)));
                parts.push(self.at(*site));
                format!("{name}({})", parts.join(", "))
            }
            ExprKind::Call { func, args, .. } => {
                // The callee's instance is the linker's choice (`crate::link`): a call marker
                // with the arguments' signature.
                let mut sig = Vec::new();
                let mut spaces = String::new();
                for x in args {
                    match x.kind {
                        ExprKind::ArrayRef(a) => {
                            let arr = &self.f.arrays[a];
                            sig.push(array_sig(arr));
                            spaces.push_str(&super::space_tag(&arr.space));
                        }
                        _ => sig.push(sig_part(&x.ty)),
                    }
                }
                let mut parts = vec!["rb_fault".to_string()];
                parts.extend(args.iter().map(|x| self.expr(x)));
                format!(
                    "@call:{func}:{}:{spaces}@({})",
                    crate::link::signature(&sig),
                    parts.join(", ")
                )
            }
        }
    }
}

impl Printer<'_> {
    /// A warp operation: CUDA's own intrinsics; on OpenCL the local-memory emulation of the
    /// prelude (`rb_warp`, the whole work-group must reach it).
    fn warp(&mut self, kind: WarpKind, args: &[Expr], ty: &Ty) -> String {
        let a: Vec<String> = args.iter().map(|x| self.expr(x)).collect();
        let pred = |k: usize| format!("(({}) != 0)", a[k]);
        if self.cuda() {
            return match kind {
                WarpKind::Sync => format!("__syncwarp({})", a[0]),
                WarpKind::All => format!("__all_sync({}, {})", a[0], pred(1)),
                WarpKind::Any => format!("__any_sync({}, {})", a[0], pred(1)),
                WarpKind::Ballot => format!("__ballot_sync({}, {})", a[0], pred(1)),
                WarpKind::Shfl => format!("__shfl_sync({}, {}, (int)({}))", a[0], a[1], a[2]),
                WarpKind::ShflUp => format!("__shfl_up_sync({}, {}, {})", a[0], a[1], a[2]),
                WarpKind::ShflDown => format!("__shfl_down_sync({}, {}, {})", a[0], a[1], a[2]),
                WarpKind::ShflXor => {
                    format!("__shfl_xor_sync({}, {}, (int)({}))", a[0], a[1], a[2])
                }
                WarpKind::ActiveMask => "__activemask()".into(),
            };
        }
        let mode = match kind {
            WarpKind::Sync => return format!("rb_syncwarp(rb_warp, {})", a[0]),
            WarpKind::All => return format!("rb_all_sync(rb_warp, {}, {})", a[0], pred(1)),
            WarpKind::Any => return format!("rb_any_sync(rb_warp, {}, {})", a[0], pred(1)),
            WarpKind::Ballot => return format!("rb_ballot_sync(rb_warp, {}, {})", a[0], pred(1)),
            WarpKind::ActiveMask => return "rb_activemask()".into(),
            WarpKind::Shfl => 0,
            WarpKind::ShflUp => 1,
            WarpKind::ShflDown => 2,
            WarpKind::ShflXor => 3,
        };
        let (to_bits, from_bits) = match ty.scalar() {
            Some(Scalar::F32) => ("(ulong)as_uint", "as_float((uint)"),
            Some(Scalar::F64) => ("as_ulong", "as_double("),
            Some(Scalar::I32) => ("(ulong)(uint)", "(int)((uint)"),
            Some(Scalar::U32) => ("(ulong)", "(uint)("),
            Some(Scalar::I64) => ("(ulong)", "(long)("),
            _ => ("(ulong)", "("),
        };
        format!(
            "{from_bits}rb_shfl_bits(rb_warp, {}, {to_bits}({}), {mode}u, {}))",
            a[0], a[1], a[2]
        )
    }
}

/// The call-signature part of an array (see [`crate::link::signature`]).
pub(crate) fn array_sig(a: &Array) -> String {
    format!("A{}{}", a.rank, sig_part(&a.elem))
}

/// One part of a call signature (see [`crate::link::signature`]).
pub(crate) fn sig_part(ty: &Ty) -> String {
    match ty {
        Ty::Scalar(s) => s.rust_name().into(),
        Ty::Complex(p) => match p.scalar() {
            Some(Scalar::F32) => "c32".into(),
            _ => "c64".into(),
        },
        Ty::Record(path) => format!("R.{}", path.rsplit("::").next().unwrap_or(path).trim()),
        Ty::Tuple(v) => format!("({})", v.iter().map(sig_part).collect::<Vec<_>>().join(";")),
        Ty::Dim3 => "Dim3".into(),
        Ty::Unit | Ty::Var(_) => "()".into(),
    }
}

fn sync_name(k: SyncKind) -> &'static str {
    match k {
        SyncKind::Count => "count",
        SyncKind::And => "and",
        SyncKind::Or => "or",
        SyncKind::Plain => "",
    }
}
