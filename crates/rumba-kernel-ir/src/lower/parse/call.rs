//! Method calls (thread context, arrays, math) and calls of `#[rumba::device]` functions.

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;

use super::expr::space_name;
use super::{Cx, FnKind};
use crate::lower::infer::{Kind, Need};
use crate::lower::ir::*;
use crate::target::Scalar;

const USIZE: Ty = Ty::Scalar(Scalar::Usize);
const U32: Ty = Ty::Scalar(Scalar::U32);
const I32: Ty = Ty::Scalar(Scalar::I32);

fn mk(kind: ExprKind, ty: Ty, span: Span) -> Expr {
    Expr { kind, ty, span }
}

impl Cx {
    pub(crate) fn method_call(&mut self, m: &syn::ExprMethodCall) -> Expr {
        let span = m.span();
        let method = m.method.to_string();
        if self.is_thread(&m.receiver) {
            return self.thread_method(m, &method, span);
        }
        if let Some(a) = self.lookup_array(&m.receiver) {
            return self.array_method(m, a, &method, span);
        }
        if method == "to_f32" || method == "to_f64" {
            // `h.to_f32()` / `h.to_f64()`: exact conversions of an `f16`.
            self.no_args(m);
            let recv = self.expr(&m.receiver);
            let to = if method == "to_f32" {
                Scalar::F32
            } else {
                Scalar::F64
            };
            self.unify(
                &recv.ty,
                &Ty::Scalar(Scalar::F16),
                m.receiver.span(),
                &format!("the receiver of `{method}` (an `f16`)"),
            );
            return mk(ExprKind::Cast(Box::new(recv), to), Ty::Scalar(to), span);
        }
        if let Some(f) = MathFn::from_name(&method) {
            let recv = self.expr(&m.receiver);
            let args: Vec<&syn::Expr> = m.args.iter().collect();
            return self.math(f, recv, &args, span);
        }
        if matches!(
            method.as_str(),
            "reshape" | "view" | "row" | "index_axis" | "slice"
        ) {
            self.err(
                m.method.span(),
                format!("a view is bound to a name, one at a time, from an array's name: `let v = a.{method}(…);` (then `let w = v.view::<u16>();`), not used inline or chained"),
            );
            return self.placeholder(span);
        }
        self.err(
            m.method.span(),
            format!(
                "method `{method}` is not part of the kernel subset: numbers have `{}`",
                MathFn::names().collect::<Vec<_>>().join(" ")
            ),
        );
        self.placeholder(span)
    }

    fn no_args(&mut self, m: &syn::ExprMethodCall) {
        if !m.args.is_empty() {
            self.err(m.args.span(), format!("`{}` takes no arguments", m.method));
        }
    }

    fn thread_method(&mut self, m: &syn::ExprMethodCall, method: &str, span: Span) -> Expr {
        let q = |q: ThreadQuery, ty: Ty| mk(ExprKind::Thread(q), ty, span);
        let tuple = |n: u8| Ty::Tuple(vec![USIZE; n as usize]);
        let e = match method {
            "thread_idx" => q(ThreadQuery::ThreadIdx, Ty::Dim3),
            "block_idx" => q(ThreadQuery::BlockIdx, Ty::Dim3),
            "block_dim" => q(ThreadQuery::BlockDim, Ty::Dim3),
            "grid_dim" => q(ThreadQuery::GridDim, Ty::Dim3),
            "grid1" => q(ThreadQuery::Grid(1), USIZE),
            "grid2" => q(ThreadQuery::Grid(2), tuple(2)),
            "grid3" => q(ThreadQuery::Grid(3), tuple(3)),
            "gridsize1" => q(ThreadQuery::GridSize(1), USIZE),
            "gridsize2" => q(ThreadQuery::GridSize(2), tuple(2)),
            "gridsize3" => q(ThreadQuery::GridSize(3), tuple(3)),
            "warp_size" => q(ThreadQuery::WarpSize, U32),
            "lane_id" => q(ThreadQuery::LaneId, U32),
            "threadfence" | "threadfence_block" | "threadfence_system" => {
                let k = match method {
                    "threadfence" => FenceKind::Device,
                    "threadfence_block" => FenceKind::Block,
                    _ => FenceKind::System,
                };
                self.no_args(m);
                return mk(ExprKind::Fence(k), Ty::Unit, span);
            }
            "syncthreads" | "syncthreads_count" | "syncthreads_and" | "syncthreads_or"
            | "barrier" => {
                if self.fn_kind() == FnKind::Device {
                    self.err(span, "barriers inside `#[rumba::device]` functions are not supported in this version: call `syncthreads` in the kernel");
                }
                if method == "syncthreads" {
                    self.no_args(m);
                    return mk(ExprKind::Sync(SyncKind::Plain, None), Ty::Unit, span);
                }
                if method == "barrier" {
                    // ROC's `barrier(flags)`: the work-group barrier; the flags must be the
                    // fence constants, and every target's barrier orders both memories.
                    if m.args.len() != 1 || !fence_flags(&m.args[0]) {
                        let at = m.args.first().map_or(span, |a| a.span());
                        self.err(
                            at,
                            "`barrier` takes `CLK_LOCAL_MEM_FENCE`, `CLK_GLOBAL_MEM_FENCE` or both joined by `|` (ROC's work-group barrier; `syncthreads()` is the same)",
                        );
                    }
                    return mk(ExprKind::Sync(SyncKind::Plain, None), Ty::Unit, span);
                }
                let kind = match method {
                    "syncthreads_count" => SyncKind::Count,
                    "syncthreads_and" => SyncKind::And,
                    _ => SyncKind::Or,
                };
                if m.args.len() != 1 {
                    self.err(
                        span,
                        format!("`{method}` takes one predicate (`bool` or an integer)"),
                    );
                    return self.placeholder(span);
                }
                let p = self.expr(&m.args[0]);
                self.need(
                    &p.ty,
                    Need::IntOrBool,
                    m.args[0].span(),
                    format!("the predicate of `{method}`"),
                );
                return mk(ExprKind::Sync(kind, Some(Box::new(p))), I32, span);
            }
            "syncwarp" | "wavebarrier" | "all_sync" | "any_sync" | "ballot_sync" | "shfl_sync"
            | "shfl_up_sync" | "shfl_down_sync" | "shfl_xor_sync" | "activemask" => {
                return self.warp_method(m, method, span);
            }
            "shared_array" | "local_array" | "dynamic_shared" => {
                self.err(
                    span,
                    format!("bind the array to a name: `let s = t.{method}::<f32>(…);`"),
                );
                return self.placeholder(span);
            }
            other => {
                self.err(
                    m.method.span(),
                    format!("`{other}` is not a thread-context method of the kernel subset: use thread_idx block_idx block_dim grid_dim grid1-3 gridsize1-3 warp_size lane_id syncthreads* threadfence* syncwarp wavebarrier all_sync any_sync ballot_sync shfl_sync shfl_up/down/xor_sync activemask shared_array local_array dynamic_shared"),
                );
                return self.placeholder(span);
            }
        };
        self.no_args(m);
        e
    }

    /// `syncwarp`, `wavebarrier`, the votes, the shuffles and `activemask`.
    fn warp_method(&mut self, m: &syn::ExprMethodCall, method: &str, span: Span) -> Expr {
        if self.fn_kind() == FnKind::Device {
            self.err(span, format!("warp operations inside `#[rumba::device]` functions are not supported in this version: call `{method}` in the kernel"));
        }
        let (kind, shape): (WarpKind, &str) = match method {
            "syncwarp" => (WarpKind::Sync, "(mask)"),
            "wavebarrier" => (WarpKind::Sync, "()"),
            "all_sync" => (WarpKind::All, "(mask, predicate)"),
            "any_sync" => (WarpKind::Any, "(mask, predicate)"),
            "ballot_sync" => (WarpKind::Ballot, "(mask, predicate)"),
            "shfl_sync" => (WarpKind::Shfl, "(mask, value, src_lane)"),
            "shfl_up_sync" => (WarpKind::ShflUp, "(mask, value, delta)"),
            "shfl_down_sync" => (WarpKind::ShflDown, "(mask, value, delta)"),
            "shfl_xor_sync" => (WarpKind::ShflXor, "(mask, value, lane_mask)"),
            _ => (WarpKind::ActiveMask, "()"),
        };
        let want = shape.matches(',').count() + usize::from(shape != "()");
        if m.args.len() != want {
            self.err(span, format!("`{method}` takes {shape}"));
            return self.placeholder(span);
        }
        let mut args = Vec::new();
        for (k, a) in m.args.iter().enumerate() {
            let x = self.expr(a);
            match (k, kind) {
                (0, _) | (2, _) => {
                    let what = if k == 0 {
                        "the mask"
                    } else {
                        "the lane argument"
                    };
                    self.unify(
                        &x.ty,
                        &U32,
                        a.span(),
                        &format!("{what} of `{method}` (a `u32`)"),
                    );
                }
                (_, WarpKind::All | WarpKind::Any | WarpKind::Ballot) => self.need(
                    &x.ty,
                    Need::IntOrBool,
                    a.span(),
                    format!("the predicate of `{method}`"),
                ),
                _ => self.need(
                    &x.ty,
                    Need::AtomicValue,
                    a.span(),
                    format!("the value of `{method}` (i32 u32 i64 u64 f32 f64)"),
                ),
            }
            args.push(x);
        }
        let ty = match kind {
            WarpKind::Sync => Ty::Unit,
            WarpKind::All | WarpKind::Any => I32,
            WarpKind::Ballot | WarpKind::ActiveMask => U32,
            _ => args[1].ty.clone(),
        };
        if method == "wavebarrier" {
            args.push(mk(ExprKind::Int(i128::from(u32::MAX)), U32, span));
        }
        mk(ExprKind::Warp(kind, args), ty, span)
    }

    fn array_method(
        &mut self,
        m: &syn::ExprMethodCall,
        a: ArrayId,
        method: &str,
        span: Span,
    ) -> Expr {
        let name = self.array(a).name.to_string();
        match method {
            "len" => {
                self.no_args(m);
                mk(ExprKind::Len(a), USIZE, span)
            }
            "size" => {
                self.no_args(m);
                mk(ExprKind::Size(a), USIZE, span)
            }
            "shape" => {
                self.err(
                    span,
                    format!("index the shape with a literal axis: `{name}.shape()[0]`"),
                );
                self.placeholder(span)
            }
            "get" => {
                self.err(span, format!("write `{name}[i]` (the macro lowers indexing to the sound accessors itself)"));
                self.placeholder(span)
            }
            "set" => {
                self.err(span, format!("write `{name}[i] = v` (the macro lowers indexing to the sound accessors itself)"));
                self.placeholder(span)
            }
            _ if method.starts_with("atomic_") => {
                self.atomic(m, a, &method["atomic_".len()..], span)
            }
            other => {
                self.err(
                    m.method.span(),
                    format!("`{other}` is not an array method of the kernel subset: arrays have indexing, `len()`, `size()`, `shape()[k]` and `atomic_*`"),
                );
                self.placeholder(span)
            }
        }
    }

    fn atomic(&mut self, m: &syn::ExprMethodCall, a: ArrayId, op: &str, span: Span) -> Expr {
        let op = match op {
            "add" => AtomicOp::Add,
            "sub" => AtomicOp::Sub,
            "min" => AtomicOp::Min,
            "max" => AtomicOp::Max,
            "nanmin" => AtomicOp::NanMin,
            "nanmax" => AtomicOp::NanMax,
            "and" => AtomicOp::And,
            "or" => AtomicOp::Or,
            "xor" => AtomicOp::Xor,
            "exch" => AtomicOp::Exch,
            "cas" => AtomicOp::Cas,
            "inc" => AtomicOp::Inc,
            "dec" => AtomicOp::Dec,
            other => {
                self.err(m.method.span(), format!("`atomic_{other}` does not exist: atomics are add sub min max nanmin nanmax and or xor exch cas inc dec"));
                return self.placeholder(span);
            }
        };
        let arr = self.array(a).clone();
        match arr.space {
            Space::Local => self.err(span, "local arrays are private to one thread: use a plain update (`l[i] += v`) instead of an atomic"),
            Space::Const => self.err(span, "constant arrays are read-only"),
            _ => {}
        }
        let nvals = if op == AtomicOp::Cas { 2 } else { 1 };
        if m.args.len() != 1 + nvals {
            let shape = if op == AtomicOp::Cas {
                "(index, expected, new)"
            } else {
                "(index, value)"
            };
            self.err(span, format!("`atomic_{}` takes {shape}", op.name()));
            return self.placeholder(span);
        }
        let idx = self.indices(&m.args[0], a);
        let args: Vec<Expr> = m.args.iter().skip(1).map(|x| self.expr(x)).collect();
        for (x, src) in args.iter().zip(m.args.iter().skip(1)) {
            self.unify(
                &x.ty,
                &arr.elem,
                src.span(),
                &format!("the value of `atomic_{}`", op.name()),
            );
        }
        let need = if op.int_only() {
            Need::AtomicInt
        } else {
            Need::AtomicValue
        };
        let what = format!(
            "`atomic_{}` (atomics work on {})",
            op.name(),
            if op.int_only() {
                "i32 u32 i64 u64"
            } else {
                "i32 u32 i64 u64 f32 f64"
            }
        );
        self.need(&arr.elem, need, span, what);
        self.mark_written(a);
        let site = self.site(
            format!(
                "`atomic_{}` on {} `{}[{}]`",
                op.name(),
                space_name(&arr.space),
                arr.name,
                m.args[0].to_token_stream()
            ),
            span,
        );
        mk(
            ExprKind::Atomic {
                op,
                array: a,
                idx,
                args,
                site,
            },
            arr.elem,
            span,
        )
    }

    pub(crate) fn math(&mut self, f: MathFn, recv: Expr, args: &[&syn::Expr], span: Span) -> Expr {
        if args.len() != f.arity() {
            self.err(
                span,
                format!("`{}` takes {} argument(s)", f.name(), f.arity()),
            );
            return self.placeholder(span);
        }
        let mut all = vec![recv.clone()];
        for (a, kind) in args.iter().zip(f.args()) {
            let x = self.expr(a);
            match kind {
                MathArg::Same => self.unify(
                    &x.ty,
                    &recv.ty,
                    a.span(),
                    &format!("the arguments of `{}`", f.name()),
                ),
                MathArg::I32 => self.unify(
                    &x.ty,
                    &I32,
                    a.span(),
                    &format!("this argument of `{}` (an `i32`)", f.name()),
                ),
                MathArg::U32 => self.unify(
                    &x.ty,
                    &U32,
                    a.span(),
                    &format!("this argument of `{}` (a `u32`)", f.name()),
                ),
            }
            all.push(x);
        }
        let what = format!("`{}`", f.name());
        let need = match f.domain() {
            MathDomain::Float => Need::Float,
            MathDomain::FloatOrF16 => Need::FloatOrF16,
            MathDomain::Number => Need::Number,
            MathDomain::Signed => Need::Signed,
            MathDomain::Int => Need::Int,
            MathDomain::Int32Or64 => Need::AtomicInt,
            MathDomain::Int32 => Need::Int32,
            MathDomain::U32 => Need::U32,
            MathDomain::FloatOrComplex => Need::FloatOrComplex,
            MathDomain::Classify => Need::Classify,
            MathDomain::Complex => Need::Complex,
        };
        self.need(&recv.ty, need, span, what);
        let ty = match f.ret() {
            MathRet::Same => recv.ty.clone(),
            MathRet::Bool => Ty::Scalar(Scalar::Bool),
            MathRet::U32 => U32,
            MathRet::WithExponent => Ty::Tuple(vec![recv.ty.clone(), I32]),
            MathRet::Pair => Ty::Tuple(vec![recv.ty.clone(), recv.ty.clone()]),
            MathRet::Part => match self.types.shallow(&recv.ty) {
                Ty::Complex(part) => *part,
                // A known type that is not complex: the domain check above says so.
                Ty::Scalar(_) | Ty::Record(_) | Ty::Dim3 | Ty::Unit | Ty::Tuple(_) => {
                    self.placeholder(span).ty
                }
                _ => {
                    self.err(
                        span,
                        format!(
                            "`{}` takes a complex number of a known type here: annotate its `let` (`let z: Complex<f64> = …`)",
                            f.name()
                        ),
                    );
                    return self.placeholder(span);
                }
            },
        };
        mk(ExprKind::Math(f, all), ty, span)
    }

    /// `Complex::new(re, im)`: two parts of one float type (`Complex::<f64>::new` fixes it).
    fn complex_new(&mut self, c: &syn::ExprCall, seg: &syn::PathSegment, span: Span) -> Expr {
        if c.args.len() != 2 {
            self.err(span, "`Complex::new` takes the real and the imaginary part");
            return self.placeholder(span);
        }
        let re = self.expr(&c.args[0]);
        let im = self.expr(&c.args[1]);
        self.unify(&re.ty, &im.ty, span, "the parts of `Complex::new`");
        if let syn::PathArguments::AngleBracketed(args) = &seg.arguments {
            let written = match args.args.first() {
                Some(syn::GenericArgument::Type(t)) if args.args.len() == 1 => self.written_type(t),
                _ => None,
            };
            match written {
                Some(t @ Ty::Scalar(s)) if s.is_float() => {
                    self.unify(&re.ty, &t, span, "the parts of `Complex::new`")
                }
                _ => self.err(
                    seg.arguments.span(),
                    "complex element types are `Complex<f32>` and `Complex<f64>`",
                ),
            }
        }
        self.need(&re.ty, Need::Float, span, "`Complex::new`");
        let ty = Ty::Complex(Box::new(re.ty.clone()));
        mk(ExprKind::Complex(vec![re, im]), ty, span)
    }

    /// `f16::from_f32(x)` / `f16::from_f64(x)`: rounded to nearest even (as `half` does).
    fn f16_from(&mut self, c: &syn::ExprCall, fname: &str, span: Span) -> Expr {
        if c.args.len() != 1 {
            self.err(span, format!("`f16::{fname}` takes one argument"));
            return self.placeholder(span);
        }
        let x = self.expr(&c.args[0]);
        let from = if fname == "from_f32" {
            Scalar::F32
        } else {
            Scalar::F64
        };
        self.unify(
            &x.ty,
            &Ty::Scalar(from),
            c.args[0].span(),
            &format!("the argument of `f16::{fname}`"),
        );
        mk(
            ExprKind::Cast(Box::new(x), Scalar::F16),
            Ty::Scalar(Scalar::F16),
            span,
        )
    }

    pub(crate) fn call(&mut self, c: &syn::ExprCall) -> Expr {
        let span = c.span();
        let syn::Expr::Path(p) = &*c.func else {
            self.err(
                c.func.span(),
                "only `#[rumba::device]` functions and `f32::sqrt`-style math can be called",
            );
            return self.placeholder(span);
        };
        // `Complex::new(re, im)` (also `Complex::<f32>::new`, `num_complex::Complex::new`).
        let n = p.path.segments.len();
        if n >= 2
            && p.path.segments[n - 2].ident == "Complex"
            && p.path.segments[n - 1].ident == "new"
        {
            return self.complex_new(c, &p.path.segments[n - 2], span);
        }
        // `f32::sqrt(x)`, `u32::min(a, b)`.
        if p.path.segments.len() == 2 {
            let ty_name = p.path.segments[0].ident.to_string();
            if let Some(s) = self.scalar_named(&ty_name) {
                let fname = p.path.segments[1].ident.to_string();
                if s.is_f16() && (fname == "from_f32" || fname == "from_f64") {
                    return self.f16_from(c, &fname, span);
                }
                let Some(f) = MathFn::from_name(&fname) else {
                    self.err(
                        span,
                        format!("`{ty_name}::{fname}` is not part of the kernel subset"),
                    );
                    return self.placeholder(span);
                };
                if c.args.is_empty() {
                    self.err(
                        span,
                        format!("`{ty_name}::{fname}` needs its receiver as first argument"),
                    );
                    return self.placeholder(span);
                }
                let recv = self.expr(&c.args[0]);
                self.unify(
                    &recv.ty,
                    &Ty::Scalar(s),
                    c.args[0].span(),
                    &format!("the argument of `{ty_name}::{fname}`"),
                );
                let rest: Vec<&syn::Expr> = c.args.iter().skip(1).collect();
                return self.math(f, recv, &rest, span);
            }
        }
        if let Some(id) = p.path.get_ident() {
            if self.name_is_bound(&id.to_string()) {
                self.err(span, format!("`{id}` is a value, not a function"));
                return self.placeholder(span);
            }
        }
        if p.path.get_ident().is_some_and(|id| *id == self.own_name) {
            self.err(
                span,
                format!(
                    "`{}` calls itself: recursion is not part of the kernel language (OpenCL C \
                     forbids it, and the simulator's stacks are bounded); write it as a loop",
                    self.own_name
                ),
            );
        }
        let func = self.device_use(&p.path);
        let mut pass_thread = false;
        let mut args = Vec::new();
        for (k, a) in c.args.iter().enumerate() {
            if self.is_thread(a) {
                if k != 0 {
                    self.err(a.span(), "pass the thread context as the first argument");
                }
                pass_thread = true;
                continue;
            }
            // An array passes as a whole: `f(a)`, `f(&a)`, `f(&mut a)`.
            let whole = match a {
                syn::Expr::Reference(r) => self.lookup_array(&r.expr),
                a => self.lookup_array(a),
            };
            if let Some(arr) = whole {
                let position = args.len();
                self.pass_array(func, position, arr, a.span());
                args.push(mk(ExprKind::ArrayRef(arr), Ty::Unit, a.span()));
                continue;
            }
            let x = self.expr(a);
            if let Ty::Var(_) = self.types.shallow(&x.ty) {
                // Its type is fixed by the callee, which only rustc sees: the literal default
                // applies, and rustc checks it against the callee's signature.
            }
            args.push(x);
        }
        let ty = self.types.fresh(Kind::Any, span);
        mk(
            ExprKind::Call {
                func,
                pass_thread,
                args,
            },
            ty,
            span,
        )
    }
}

impl Cx {
    /// Array `a` passed to device function `func` as argument `position`: writable memory
    /// counts as written (the callee may write it: the Rust form lets a callee write only what
    /// is passed writable), and the callee's rank is checked against `a`'s at compile time.
    fn pass_array(&mut self, func: usize, position: usize, a: ArrayId, span: Span) {
        if self.array(a).space.writable() {
            self.mark_written(a);
        }
        self.array_args.push(ArrayArg {
            device: func,
            position,
            array: a,
            span,
        });
    }
}

/// Whether `e` is `CLK_LOCAL_MEM_FENCE`, `CLK_GLOBAL_MEM_FENCE` (any path ending so), or an `|`
/// of them.
fn fence_flags(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(p) => {
            p.path.segments.last().is_some_and(|s| {
                s.ident == "CLK_LOCAL_MEM_FENCE" || s.ident == "CLK_GLOBAL_MEM_FENCE"
            })
        }
        syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::BitOr(_)) => {
            fence_flags(&b.left) && fence_flags(&b.right)
        }
        syn::Expr::Paren(p) => fence_flags(&p.expr),
        _ => false,
    }
}
