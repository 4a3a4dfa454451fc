//! Expressions and the statements made of expressions (assignments, `if`, loops, jumps).

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;

use super::Cx;
use crate::lower::infer::{Kind, Need};
use crate::lower::ir::*;
use crate::target::Scalar;

const USIZE: Ty = Ty::Scalar(Scalar::Usize);
pub(super) const BOOL: Ty = Ty::Scalar(Scalar::Bool);

pub(super) fn mk(kind: ExprKind, ty: Ty, span: Span) -> Expr {
    Expr { kind, ty, span }
}

pub(super) fn is_simple_block(b: &syn::Block) -> bool {
    b.stmts.len() == 1 && matches!(b.stmts[0], syn::Stmt::Expr(_, None))
}

fn simple_tail(b: &syn::Block) -> &syn::Expr {
    match &b.stmts[0] {
        syn::Stmt::Expr(e, None) => e,
        _ => unreachable!("checked by is_simple_block"),
    }
}

/// An `if` whose branches are single expressions (a C `?:`).
pub(super) fn is_simple_if(i: &syn::ExprIf) -> bool {
    is_simple_block(&i.then_branch)
        && match &i.else_branch {
            Some((_, e)) => match &**e {
                syn::Expr::Block(b) => b.label.is_none() && is_simple_block(&b.block),
                syn::Expr::If(i2) => is_simple_if(i2),
                _ => false,
            },
            None => false,
        }
}

pub(super) fn ends_in_jump(b: &syn::Block) -> bool {
    matches!(
        b.stmts.last(),
        Some(syn::Stmt::Expr(
            syn::Expr::Return(_) | syn::Expr::Break(_) | syn::Expr::Continue(_),
            _
        ))
    )
}

impl Cx {
    /// The value of a refused expression: agrees with any type, so errors do not cascade.
    pub(crate) fn placeholder(&mut self, span: Span) -> Expr {
        let ty = self.types.error(span);
        mk(ExprKind::Bool(false), ty, span)
    }

    /// The index of an element of array `a` (`a[i]`, `a[(i, j)]`, the first argument of an
    /// atomic): its components, each a `usize`, with the array's rank checked. The one parser
    /// of element indices.
    pub(crate) fn indices(&mut self, index: &syn::Expr, a: ArrayId) -> Vec<Expr> {
        if let syn::Expr::Range(r) = index {
            self.err(
                r.span(),
                "a range is not an element index: make a view with `let v = a.slice(s![lo..hi]);` (NumPy's slicing) and index it",
            );
            return vec![self.placeholder(r.span())];
        }
        // `x[()]` is the element of a 0-d array.
        let parts: Vec<&syn::Expr> = match index {
            syn::Expr::Tuple(t) => t.elems.iter().collect(),
            e => vec![e],
        };
        if parts.len() > MAX_RANK {
            self.err(
                index.span(),
                format!("arrays have 0 to {MAX_RANK} dimensions: `x[()]`, `a[i]`, `a[(i, j)]`, … up to {MAX_RANK} components"),
            );
        }
        self.use_rank(a, parts.len(), index.span());
        parts
            .into_iter()
            .map(|p| {
                let x = self.expr(p);
                if self
                    .types
                    .unify(&x.ty, &USIZE, p.span(), "an array index")
                    .is_err()
                {
                    let shown = crate::lower::infer::show(&self.types.shallow(&x.ty));
                    self.err(
                        p.span(),
                        format!(
                            "array indices are `usize`, this is `{shown}`: write `{} as usize`",
                            p.to_token_stream()
                        ),
                    );
                }
                x
            })
            .collect()
    }

    pub(super) fn binary_types(&mut self, op: BinOp, a: &Ty, b: &Ty, span: Span) -> Ty {
        let what = format!("`{}`", op.symbol());
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                self.unify(a, b, span, &format!("the operands of {what}"));
                let need = if op == BinOp::Rem {
                    Need::Number
                } else {
                    Need::Arith
                };
                self.need(a, need, span, what.clone());
                a.clone()
            }
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                self.unify(a, b, span, &format!("the operands of {what}"));
                self.need(a, Need::IntOrBool, span, what.clone());
                a.clone()
            }
            BinOp::Shl | BinOp::Shr => {
                self.need(a, Need::Int, span, what.clone());
                self.need(b, Need::Int, span, format!("the shift amount of {what}"));
                a.clone()
            }
            BinOp::And | BinOp::Or => {
                self.unify(a, &BOOL, span, &format!("the operands of {what}"));
                self.unify(b, &BOOL, span, &format!("the operands of {what}"));
                BOOL
            }
            _ => {
                self.unify(a, b, span, &format!("the operands of {what}"));
                let need = if matches!(op, BinOp::Eq | BinOp::Ne) {
                    Need::Equatable
                } else {
                    Need::Scalar
                };
                self.need(a, need, span, what.clone());
                BOOL
            }
        }
    }

    /// An expression in a pure value position.
    pub(crate) fn expr(&mut self, e: &syn::Expr) -> Expr {
        let span = e.span();
        let bad = |cx: &mut Cx, msg: &str| {
            cx.err(span, msg);
            cx.placeholder(span)
        };
        match e {
            syn::Expr::Lit(l) => self.literal(&l.lit),
            syn::Expr::Paren(p) => {
                let mut x = self.expr(&p.expr);
                x.span = span;
                x
            }
            syn::Expr::Group(g) => self.expr(&g.expr),
            syn::Expr::Path(p) => self.path_expr(p),
            syn::Expr::Unary(u) => match u.op {
                syn::UnOp::Neg(_) => {
                    let x = self.expr(&u.expr);
                    self.need(&x.ty, Need::Neg, span, "unary `-`");
                    // `-5` is one literal (so `-128i8` is in range); `-i8::MIN` is a negation.
                    let literal = matches!(&*u.expr, syn::Expr::Lit(_));
                    match x.kind {
                        ExprKind::Int(v) if literal => mk(ExprKind::Int(-v), x.ty, span),
                        ExprKind::Float(v) if literal => mk(ExprKind::Float(-v), x.ty, span),
                        _ => mk(ExprKind::Unary(UnOp::Neg, Box::new(x.clone())), x.ty, span),
                    }
                }
                syn::UnOp::Not(_) => {
                    let x = self.expr(&u.expr);
                    self.need(&x.ty, Need::IntOrBool, span, "`!`");
                    let ty = x.ty.clone();
                    mk(ExprKind::Unary(UnOp::Not, Box::new(x)), ty, span)
                }
                syn::UnOp::Deref(_) => bad(
                    self,
                    "kernels have no references: scalar parameters are values, write `x` instead of `*x`",
                ),
                _ => bad(self, "unsupported unary operator"),
            },
            syn::Expr::Binary(b) => {
                let Some(op) = bin_op(&b.op) else {
                    return bad(
                        self,
                        "an assignment is a statement, not a value: write it on its own line",
                    );
                };
                let l = self.expr(&b.left);
                let r = self.expr(&b.right);
                let ty = self.binary_types(op, &l.ty, &r.ty, span);
                let site = matches!(op, BinOp::Div | BinOp::Rem)
                    .then(|| self.site(format!("`{}`", e.to_token_stream()), span));
                mk(
                    ExprKind::Binary(op, Box::new(l), Box::new(r), site),
                    ty,
                    span,
                )
            }
            syn::Expr::Cast(c) => {
                // `CONST as T`: the const's own type only matters to rustc (its `#define` gets
                // rustc's value and type), so it need not be inferred here.
                let x = match &*c.expr {
                    syn::Expr::Path(p)
                        if p.qself.is_none()
                            && p.path.segments.len() == 1
                            && !self.name_is_bound(&p.path.segments[0].ident.to_string())
                            && p.path.segments[0]
                                .ident
                                .to_string()
                                .chars()
                                .next()
                                .is_some_and(|ch| ch.is_uppercase()) =>
                    {
                        let ci = self.const_index(&p.path);
                        let ty = self.types.error(p.span());
                        mk(ExprKind::Const(ci), ty, p.span())
                    }
                    _ => self.expr(&c.expr),
                };
                let target = match self.written_type(&c.ty) {
                    Some(Ty::Scalar(s)) => s,
                    Some(_) => return bad(self, "`as` converts between element types only"),
                    None => return bad(self, "unsupported cast target"),
                };
                if target == Scalar::Bool {
                    return bad(self, "Rust has no `as bool`: compare instead (`x != 0`)");
                }
                if target.is_f16() {
                    return bad(
                        self,
                        "`half::f16` is not a primitive type and has no `as`: write `f16::from_f32(x)` or `f16::from_f64(x)`",
                    );
                }
                self.need(&x.ty, Need::Castable, c.expr.span(), "`as`");
                mk(
                    ExprKind::Cast(Box::new(x), target),
                    Ty::Scalar(target),
                    span,
                )
            }
            syn::Expr::If(i) => {
                if !is_simple_if(i) {
                    return bad(
                        self,
                        "this `if` has statements or no `else`: as a value it must be `if c { a } else { b }`; otherwise bind it with `let v = if …;` first",
                    );
                }
                self.select(i)
            }
            syn::Expr::Block(b) if b.label.is_none() && is_simple_block(&b.block) => {
                self.expr(simple_tail(&b.block))
            }
            syn::Expr::Block(_) => bad(
                self,
                "a block with statements can only be the value of a `let` or an assignment: bind it with `let v = { … };` first",
            ),
            syn::Expr::Index(ix) => self.index_expr(ix),
            syn::Expr::Field(f) => self.field_expr(f),
            syn::Expr::MethodCall(m) => self.method_call(m),
            syn::Expr::Call(c) => self.call(c),
            syn::Expr::Tuple(t) => {
                let v: Vec<Expr> = t.elems.iter().map(|x| self.expr(x)).collect();
                let ty = Ty::Tuple(v.iter().map(|x| x.ty.clone()).collect());
                mk(ExprKind::Tuple(v), ty, span)
            }
            syn::Expr::Closure(_) => bad(
                self,
                "closures are not supported in kernels: write a `#[rumba::device]` function",
            ),
            syn::Expr::Match(_) => bad(
                self,
                "`match` is not supported in this version: use `if` / `else if`",
            ),
            syn::Expr::Try(_) => bad(
                self,
                "`?` is not supported: kernels cannot return errors (use `assert!` for a fault)",
            ),
            syn::Expr::Reference(_) => bad(
                self,
                "kernels have no references: use the value itself (array elements are read with `a[i]`)",
            ),
            syn::Expr::Array(_) | syn::Expr::Repeat(_) => bad(
                self,
                "array literals are not supported: declare `t.local_array::<T>(n)` and fill it",
            ),
            syn::Expr::Struct(s) => self.record_literal(s),
            syn::Expr::Range(_) => bad(
                self,
                "ranges are only allowed as the iterator of a `for` loop",
            ),
            syn::Expr::Macro(m) => {
                let name = m.mac.path.to_token_stream().to_string();
                bad(
                    self,
                    &format!(
                        "macro `{name}!` is not supported in kernels: only `assert!` as a statement is"
                    ),
                )
            }
            syn::Expr::Async(_) | syn::Expr::Await(_) => bad(self, "kernels are not async"),
            syn::Expr::Unsafe(_) => bad(
                self,
                "`unsafe` blocks are not allowed in kernels (nothing in the subset needs one)",
            ),
            syn::Expr::Assign(_) => bad(
                self,
                "an assignment is a statement, not a value: write it on its own line",
            ),
            syn::Expr::While(_) | syn::Expr::Loop(_) | syn::Expr::ForLoop(_) => {
                bad(self, "loops are statements, not values")
            }
            syn::Expr::Return(_) | syn::Expr::Break(_) | syn::Expr::Continue(_) => bad(
                self,
                "`return`, `break` and `continue` are statements here: put them on their own line",
            ),
            syn::Expr::Let(_) => bad(
                self,
                "`let` expressions (`if let`, `while let`) are not supported",
            ),
            _ => bad(self, "this expression is not part of the kernel subset"),
        }
    }

    fn select(&mut self, i: &syn::ExprIf) -> Expr {
        let span = i.span();
        let c = self.cond(&i.cond, "the condition of `if`");
        let a = self.expr(simple_tail(&i.then_branch));
        let b = match &i.else_branch {
            Some((_, e)) => match &**e {
                syn::Expr::Block(b) => self.expr(simple_tail(&b.block)),
                syn::Expr::If(i2) => self.select(i2),
                _ => unreachable!("checked by is_simple_if"),
            },
            None => unreachable!("checked by is_simple_if"),
        };
        self.unify(&a.ty, &b.ty, span, "the two branches of `if`");
        let ty = a.ty.clone();
        mk(
            ExprKind::Select(Box::new(c), Box::new(a), Box::new(b)),
            ty,
            span,
        )
    }

    fn literal(&mut self, l: &syn::Lit) -> Expr {
        let span = l.span();
        match l {
            syn::Lit::Int(i) => {
                let suffix = i.suffix();
                if suffix == "f32" || suffix == "f64" {
                    let v: f64 = i.base10_parse::<u128>().map(|v| v as f64).unwrap_or(0.0);
                    let s = Scalar::from_rust_name(suffix).expect("float suffix");
                    return mk(ExprKind::Float(v), Ty::Scalar(s), span);
                }
                let ty = if suffix.is_empty() {
                    self.types.fresh(Kind::Int, span)
                } else {
                    match Scalar::from_rust_name(suffix) {
                        Some(s) => Ty::Scalar(s),
                        None => {
                            self.err(span, format!("unknown literal suffix `{suffix}`"));
                            self.types.fresh(Kind::Int, span)
                        }
                    }
                };
                let v = match i.base10_parse::<u128>() {
                    Ok(v) => v as i128,
                    Err(e) => {
                        self.push_err(e);
                        0
                    }
                };
                mk(ExprKind::Int(v), ty, span)
            }
            syn::Lit::Float(f) => {
                let ty = match f.suffix() {
                    "" => self.types.fresh(Kind::Float, span),
                    s => Ty::Scalar(Scalar::from_rust_name(s).unwrap_or(Scalar::F64)),
                };
                let v = f.base10_parse::<f64>().unwrap_or(0.0);
                mk(ExprKind::Float(v), ty, span)
            }
            syn::Lit::Bool(b) => mk(ExprKind::Bool(b.value), BOOL, span),
            _ => {
                self.err(
                    span,
                    "only number and `bool` literals are supported in kernels",
                );
                self.placeholder(span)
            }
        }
    }

    fn path_expr(&mut self, p: &syn::ExprPath) -> Expr {
        let span = p.span();
        if p.qself.is_some() {
            self.err(span, "qualified paths are not supported");
            return self.placeholder(span);
        }
        if let Some(id) = p.path.get_ident() {
            let name = id.to_string();
            if let Some(l) = self.lookup_local(&name) {
                let ty = self.local_ty(l);
                return mk(ExprKind::Local(l), ty, span);
            }
            if self.name_is_bound(&name) {
                self.err(span, format!("`{name}` is an array or the thread context: arrays are used by indexing (`{name}[i]`), `{name}.len()`, `{name}.shape()[k]`"));
                return self.placeholder(span);
            }
            if name.chars().next().is_some_and(|c| c.is_lowercase()) {
                self.err(span, format!("cannot find `{name}` in this kernel: kernels see their parameters, their locals and `const` items (by UPPER_CASE path)"));
                return self.placeholder(span);
            }
        }
        // `f32::MAX` and friends.
        if p.path.segments.len() == 2 {
            let ty_name = p.path.segments[0].ident.to_string();
            if let Some(s) = self.scalar_named(&ty_name) {
                let c = p.path.segments[1].ident.to_string();
                return match builtin_const(s, &c) {
                    Some(kind) => mk(kind, Ty::Scalar(s), span),
                    None => {
                        self.err(
                            span,
                            format!(
                                "`{ty_name}::{c}` is not supported: use a literal or a `const` item"
                            ),
                        );
                        self.placeholder(span)
                    }
                };
            }
        }
        let (c, ty) = self.const_path(&p.path, span);
        mk(ExprKind::Const(c), ty, span)
    }

    fn index_expr(&mut self, ix: &syn::ExprIndex) -> Expr {
        let span = ix.span();
        // `a.shape()[k]`
        if let syn::Expr::MethodCall(m) = &*ix.expr {
            if m.method == "shape" && m.args.is_empty() {
                if let Some(a) = self.lookup_array(&m.receiver) {
                    let k = match &*ix.index {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Int(i),
                            ..
                        }) => i.base10_parse::<usize>().ok(),
                        _ => None,
                    };
                    let Some(k) = k else {
                        self.err(
                            ix.index.span(),
                            "the axis of `shape()[k]` must be an integer literal",
                        );
                        return mk(ExprKind::Shape(a, 0), USIZE, span);
                    };
                    if matches!(
                        self.array(a).space,
                        Space::Global { .. } | Space::Const | Space::Param { .. }
                    ) {
                        self.note_axis(a, k, span);
                    } else if k >= self.array(a).rank {
                        let r = self.array(a).rank;
                        self.err(
                            span,
                            format!("axis {k} does not exist: the array has {r} dimension(s)"),
                        );
                    }
                    return mk(ExprKind::Shape(a, k), USIZE, span);
                }
            }
        }
        if let syn::Expr::Field(f) = &*ix.expr {
            return self.sub_index_expr(ix, f);
        }
        let Some(a) = self.lookup_array(&ix.expr) else {
            self.not_an_array(&ix.expr, "&Arr<T>");
            return self.placeholder(span);
        };
        let idx = self.indices(&ix.index, a);
        let arr = self.array(a);
        let (name, space, elem) = (
            arr.name.to_string(),
            space_name(&arr.space),
            arr.elem.clone(),
        );
        let site = self.site(
            format!("load from {space} `{name}[{}]`", ix.index.to_token_stream()),
            span,
        );
        mk(
            ExprKind::Index {
                array: a,
                idx,
                site,
            },
            elem,
            span,
        )
    }

    /// `a.shape()[k]` on a parameter: recorded, checked against the rank at the end.
    fn note_axis(&mut self, a: ArrayId, k: usize, span: Span) {
        if k >= MAX_RANK {
            self.err(
                span,
                format!("kernel arrays have at most {MAX_RANK} dimensions"),
            );
        } else {
            self.pending_axes.push((a, k, span));
        }
    }

    fn field_expr(&mut self, f: &syn::ExprField) -> Expr {
        let span = f.span();
        let base = self.expr(&f.base);
        let name = match &f.member {
            syn::Member::Named(name) => name,
            syn::Member::Unnamed(ix) => {
                let k = ix.index as usize;
                return match self.types.shallow(&base.ty) {
                    Ty::Tuple(parts) if k < parts.len() => {
                        let ty = parts[k].clone();
                        mk(ExprKind::TupleField(Box::new(base), k), ty, span)
                    }
                    Ty::Tuple(parts) => {
                        self.err(
                            span,
                            format!("this tuple has {} element(s): no `.{k}`", parts.len()),
                        );
                        self.placeholder(span)
                    }
                    Ty::Var(_) => {
                        self.err(f.base.span(), "the type of this value is not known here: annotate its `let` (`let p: (f32, f32) = …`)");
                        self.placeholder(span)
                    }
                    t => {
                        self.err(
                            span,
                            format!("`{}` is not a tuple", crate::lower::infer::show(&t)),
                        );
                        self.placeholder(span)
                    }
                };
            }
        };
        match self.types.shallow(&base.ty) {
            Ty::Dim3 => {
                let axis = match name.to_string().as_str() {
                    "x" => 0,
                    "y" => 1,
                    "z" => 2,
                    _ => {
                        self.err(name.span(), "a `Dim3` has fields `x`, `y` and `z`");
                        0
                    }
                };
                mk(
                    ExprKind::Axis(Box::new(base), axis),
                    Ty::Scalar(Scalar::U32),
                    span,
                )
            }
            Ty::Record(_) => {
                let ty = self.types.fresh(Kind::Any, span);
                mk(ExprKind::Field(Box::new(base), name.clone()), ty, span)
            }
            Ty::Complex(part) => {
                if name != "re" && name != "im" {
                    self.err(name.span(), "a complex number has fields `re` and `im`");
                }
                mk(ExprKind::Field(Box::new(base), name.clone()), *part, span)
            }
            Ty::Var(_) => {
                self.err(f.base.span(), "the type of this value is not known here: annotate its `let` (`let r: MyRecord = …`)");
                self.placeholder(span)
            }
            t => {
                self.err(
                    span,
                    format!("`{}` has no fields", crate::lower::infer::show(&t)),
                );
                self.placeholder(span)
            }
        }
    }
}

pub(crate) fn space_name(s: &Space) -> &'static str {
    match s {
        Space::Global { .. } => "global array",
        Space::Const => "constant array",
        Space::Shared => "shared array",
        Space::DynamicShared => "dynamic shared array",
        Space::Local => "local array",
        Space::Param { .. } => "array parameter",
    }
}

fn builtin_const(s: Scalar, c: &str) -> Option<ExprKind> {
    if s.is_f16() {
        use half::f16;
        let v = match c {
            "ZERO" => f16::ZERO,
            "NEG_ZERO" => f16::NEG_ZERO,
            "ONE" => f16::ONE,
            "NEG_ONE" => f16::NEG_ONE,
            "MAX" => f16::MAX,
            "MIN" => f16::MIN,
            "EPSILON" => f16::EPSILON,
            "MIN_POSITIVE" => f16::MIN_POSITIVE,
            "MIN_POSITIVE_SUBNORMAL" => f16::MIN_POSITIVE_SUBNORMAL,
            "INFINITY" => f16::INFINITY,
            "NEG_INFINITY" => f16::NEG_INFINITY,
            "NAN" => f16::NAN,
            _ => return None,
        };
        return Some(ExprKind::Float(f64::from(v)));
    }
    if s.is_int() {
        let (lo, hi) = s.int_range();
        return match c {
            "MAX" => Some(ExprKind::Int(hi)),
            "MIN" => Some(ExprKind::Int(lo)),
            _ => None,
        };
    }
    let f32_ = s == Scalar::F32;
    let v = match c {
        "MAX" => {
            if f32_ {
                f32::MAX as f64
            } else {
                f64::MAX
            }
        }
        "MIN" => {
            if f32_ {
                f32::MIN as f64
            } else {
                f64::MIN
            }
        }
        "EPSILON" => {
            if f32_ {
                f32::EPSILON as f64
            } else {
                f64::EPSILON
            }
        }
        "MIN_POSITIVE" => {
            if f32_ {
                f32::MIN_POSITIVE as f64
            } else {
                f64::MIN_POSITIVE
            }
        }
        "INFINITY" => f64::INFINITY,
        "NEG_INFINITY" => f64::NEG_INFINITY,
        "NAN" => f64::NAN,
        _ => return None,
    };
    s.is_float().then_some(ExprKind::Float(v))
}

fn bin_op(op: &syn::BinOp) -> Option<BinOp> {
    use syn::BinOp as B;
    Some(match op {
        B::Add(_) => BinOp::Add,
        B::Sub(_) => BinOp::Sub,
        B::Mul(_) => BinOp::Mul,
        B::Div(_) => BinOp::Div,
        B::Rem(_) => BinOp::Rem,
        B::And(_) => BinOp::And,
        B::Or(_) => BinOp::Or,
        B::BitXor(_) => BinOp::BitXor,
        B::BitAnd(_) => BinOp::BitAnd,
        B::BitOr(_) => BinOp::BitOr,
        B::Shl(_) => BinOp::Shl,
        B::Shr(_) => BinOp::Shr,
        B::Eq(_) => BinOp::Eq,
        B::Lt(_) => BinOp::Lt,
        B::Le(_) => BinOp::Le,
        B::Ne(_) => BinOp::Ne,
        B::Ge(_) => BinOp::Ge,
        B::Gt(_) => BinOp::Gt,
        _ => return None,
    })
}

pub(super) fn compound_op(op: &syn::BinOp) -> Option<BinOp> {
    use syn::BinOp as B;
    Some(match op {
        B::AddAssign(_) => BinOp::Add,
        B::SubAssign(_) => BinOp::Sub,
        B::MulAssign(_) => BinOp::Mul,
        B::DivAssign(_) => BinOp::Div,
        B::RemAssign(_) => BinOp::Rem,
        B::BitXorAssign(_) => BinOp::BitXor,
        B::BitAndAssign(_) => BinOp::BitAnd,
        B::BitOrAssign(_) => BinOp::BitOr,
        B::ShlAssign(_) => BinOp::Shl,
        B::ShrAssign(_) => BinOp::Shr,
        _ => return None,
    })
}
