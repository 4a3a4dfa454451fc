//! Value positions that may hold statements (`rvalue`), and the statements made of expressions:
//! assignments, `if`, loops, `break` / `continue` / `return`.

use quote::ToTokens;
use syn::spanned::Spanned;

use super::expr::{BOOL, compound_op, ends_in_jump, is_simple_block, is_simple_if, mk, space_name};
use super::{Cx, FnKind};
use crate::lower::infer::{Kind, Need};
use crate::lower::ir::*;
use crate::target::Scalar;

const USIZE: Ty = Ty::Scalar(Scalar::Usize);

impl Cx {
    /// A condition: a `bool` expression.
    pub(super) fn cond(&mut self, e: &syn::Expr, what: &str) -> Expr {
        let c = self.expr(e);
        self.unify(&c.ty, &BOOL, e.span(), what);
        c
    }

    /// An expression in a value position that may hold statements (`let` initialisers,
    /// assigned values, a device function's result): blocks and `if`s with statements become a
    /// temporary assigned in each branch.
    pub(crate) fn rvalue(&mut self, e: &syn::Expr, out: &mut Vec<Stmt>) -> Expr {
        let span = e.span();
        match e {
            syn::Expr::If(i) if !is_simple_if(i) => {
                let ty = self.types.fresh(Kind::Any, span);
                let tmp = self.temp_local(ty.clone(), span);
                out.push(Stmt::Let {
                    local: tmp,
                    init: None,
                    span,
                });
                let s = self.if_into(i, Some(tmp));
                out.push(s);
                mk(ExprKind::Local(tmp), ty, span)
            }
            syn::Expr::Block(b) if b.label.is_none() && !is_simple_block(&b.block) => {
                let ty = self.types.fresh(Kind::Any, span);
                let tmp = self.temp_local(ty.clone(), span);
                out.push(Stmt::Let {
                    local: tmp,
                    init: None,
                    span,
                });
                let blk = self.block_into(&b.block, Some(tmp));
                out.push(Stmt::Block(blk));
                mk(ExprKind::Local(tmp), ty, span)
            }
            syn::Expr::Paren(p) => self.rvalue(&p.expr, out),
            _ => self.expr(e),
        }
    }

    /// A block whose tail value (if any) is assigned to `sink`.
    fn block_into(&mut self, b: &syn::Block, sink: Option<LocalId>) -> Block {
        let Some(sink) = sink else {
            return self.block_stmts(&b.stmts, false);
        };
        let (body, tail) = match b.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => (&b.stmts[..b.stmts.len() - 1], Some(e)),
            _ => (&b.stmts[..], None),
        };
        self.push_scope();
        let mut out = Vec::new();
        for s in body {
            self.stmt(s, false, &mut out);
        }
        match tail {
            Some(t) => {
                let v = self.rvalue(t, &mut out);
                let ty = self.local_ty(sink);
                self.unify(&ty, &v.ty, t.span(), "the value of this block");
                out.push(Stmt::Assign {
                    place: Place::Local(sink, t.span()),
                    op: None,
                    value: v,
                    site: None,
                    span: t.span(),
                });
            }
            None if ends_in_jump(b) => {}
            None => self.err(
                b.span(),
                "this block must end in a value (it is used as one)",
            ),
        }
        self.pop_scope();
        Block { stmts: out }
    }

    /// `if` as a statement (`sink` None) or assigning its value to `sink`.
    fn if_into(&mut self, i: &syn::ExprIf, sink: Option<LocalId>) -> Stmt {
        let cond = self.cond(&i.cond, "the condition of `if`");
        if let syn::Expr::Let(l) = &*i.cond {
            self.err(
                l.span(),
                "`if let` is not supported: compare values with `==`",
            );
        }
        let then = self.block_into(&i.then_branch, sink);
        let els = match &i.else_branch {
            None => {
                if sink.is_some() {
                    self.err(i.span(), "an `if` used as a value needs an `else` branch");
                }
                None
            }
            Some((_, e)) => match &**e {
                syn::Expr::Block(b) => Some(self.block_into(&b.block, sink)),
                syn::Expr::If(i2) => {
                    let s = self.if_into(i2, sink);
                    Some(Block { stmts: vec![s] })
                }
                other => {
                    self.err(other.span(), "unexpected `else` branch");
                    None
                }
            },
        };
        Stmt::If {
            cond,
            then,
            els,
            span: i.span(),
        }
    }

    /// An expression in statement position.
    pub(crate) fn stmt_expr(&mut self, e: &syn::Expr, out: &mut Vec<Stmt>) {
        let span = e.span();
        match e {
            syn::Expr::Assign(a) => {
                // The place first (its value may be a field's literal), then the value; the
                // Rust form evaluates the value first, and so does C: indices are pure.
                let mut place = self.place(&a.left);
                let value = match &place {
                    Some(p) => self.field_value(p, &a.right, out),
                    None => self.rvalue(&a.right, out),
                };
                if let (
                    Some(Place::Field { ty, .. }),
                    ExprKind::FieldLit { .. } | ExprKind::Bytes(_),
                ) = (&mut place, &value.kind)
                {
                    // The field's type is rustc's alone: nothing here needs it.
                    *ty = self.types.error(span);
                }
                if let Some(place) = place {
                    let pty = self.place_ty(&place);
                    self.unify(&pty, &value.ty, a.right.span(), "this assignment");
                    out.push(Stmt::Assign {
                        place,
                        op: None,
                        value,
                        site: None,
                        span,
                    });
                }
            }
            syn::Expr::Binary(b) if compound_op(&b.op).is_some() => {
                let op = compound_op(&b.op).expect("checked");
                // A compound update computes in the field's type, which a typed operand fixes
                // (a bare literal keeps Rust's default: `r.c += 1u32`).
                let place = self.place(&b.left);
                let value = self.rvalue(&b.right, out);
                if let Some(place) = place {
                    let pty = self.place_ty(&place);
                    self.binary_types(op, &pty, &value.ty, span);
                    let site = matches!(op, BinOp::Div | BinOp::Rem)
                        .then(|| self.site(format!("`{}`", e.to_token_stream()), span));
                    out.push(Stmt::Assign {
                        place,
                        op: Some(op),
                        value,
                        site,
                        span,
                    });
                }
            }
            syn::Expr::If(i) => {
                let s = self.if_into(i, None);
                out.push(s);
            }
            syn::Expr::While(w) => {
                if let Some(l) = &w.label {
                    self.err(
                        l.span(),
                        "loop labels are not supported: use unlabelled `break` / `continue`",
                    );
                }
                if let syn::Expr::Let(l) = &*w.cond {
                    self.err(
                        l.span(),
                        "`while let` is not supported: use `while` with a condition",
                    );
                    return;
                }
                let cond = self.cond(&w.cond, "the condition of `while`");
                self.enter_loop();
                let body = self.block_stmts(&w.body.stmts, false);
                self.leave_loop();
                out.push(Stmt::While { cond, body, span });
            }
            syn::Expr::Loop(l) => {
                if let Some(lb) = &l.label {
                    self.err(
                        lb.span(),
                        "loop labels are not supported: use unlabelled `break` / `continue`",
                    );
                }
                self.enter_loop();
                let body = self.block_stmts(&l.body.stmts, false);
                self.leave_loop();
                out.push(Stmt::Loop { body, span });
            }
            syn::Expr::ForLoop(f) => self.for_loop(f, out),
            syn::Expr::Break(b) => {
                if b.label.is_some() || b.expr.is_some() {
                    self.err(
                        span,
                        "only a plain `break` is supported (no label, no value)",
                    );
                }
                if !self.in_loop() {
                    self.err(span, "`break` outside a loop");
                }
                out.push(Stmt::Break(span));
            }
            syn::Expr::Continue(c) => {
                if c.label.is_some() {
                    self.err(span, "only a plain `continue` is supported (no label)");
                }
                if !self.in_loop() {
                    self.err(span, "`continue` outside a loop");
                }
                out.push(Stmt::Continue(span));
            }
            syn::Expr::Return(r) => {
                let ret = self.ret_ty();
                match (&r.expr, self.fn_kind()) {
                    (Some(v), FnKind::Kernel) => {
                        self.err(v.span(), "a kernel returns nothing: write `return;` and store results in a `&mut Arr<T>`");
                    }
                    (Some(v), FnKind::Device) => {
                        let x = self.rvalue(v, out);
                        self.unify(&x.ty, &ret, v.span(), "the returned value");
                        out.push(Stmt::Return(Some(x), span));
                    }
                    (None, _) => {
                        if ret != Ty::Unit {
                            self.err(span, "this function returns a value: write `return v;`");
                        }
                        out.push(Stmt::Return(None, span));
                    }
                }
            }
            syn::Expr::Block(b) => {
                if b.label.is_some() {
                    self.err(span, "labelled blocks are not supported");
                }
                let blk = self.block_stmts(&b.block.stmts, false);
                out.push(Stmt::Block(blk));
            }
            syn::Expr::Unsafe(u) => self.err(
                u.span(),
                "`unsafe` blocks are not allowed in kernels (nothing in the subset needs one)",
            ),
            syn::Expr::Macro(m) => self.macro_stmt(&m.mac, out),
            syn::Expr::Paren(p) => self.stmt_expr(&p.expr, out),
            _ => {
                let v = self.expr(e);
                if let ExprKind::Call { .. } = v.kind {
                    if let Ty::Var(_) = self.types.shallow(&v.ty) {
                        // A device function called for its effect returns `()`.
                        self.unify(&v.ty, &Ty::Unit, span, "this call");
                    }
                }
                out.push(Stmt::Expr(v));
            }
        }
    }

    fn for_loop(&mut self, f: &syn::ExprForLoop, out: &mut Vec<Stmt>) {
        let span = f.span();
        if let Some(l) = &f.label {
            self.err(
                l.span(),
                "loop labels are not supported: use unlabelled `break` / `continue`",
            );
        }
        let (range, step) = match &*f.expr {
            syn::Expr::MethodCall(m) if m.method == "step_by" && m.args.len() == 1 => {
                let inner = match &*m.receiver {
                    syn::Expr::Paren(p) => &*p.expr,
                    r => r,
                };
                (inner, Some(&m.args[0]))
            }
            e => (e, None),
        };
        let syn::Expr::Range(r) = range else {
            self.err(
                f.expr.span(),
                "`for` loops run over integer ranges only: `a..b`, `a..=b` or `(a..b).step_by(k)`",
            );
            return;
        };
        let (Some(start), Some(end)) = (&r.start, &r.end) else {
            self.err(r.span(), "write both ends of the range: `a..b`");
            return;
        };
        let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
        let s = self.expr(start);
        let e = self.expr(end);
        self.unify(&s.ty, &e.ty, r.span(), "the two ends of this range");
        self.need(&s.ty, Need::Int, r.span(), "a `for` range");
        let step = step.map(|k| {
            let x = self.expr(k);
            self.unify(
                &x.ty,
                &USIZE,
                k.span(),
                "the `step_by` argument (a `usize`)",
            );
            let site = self.site(format!("`step_by({})`", k.to_token_stream()), k.span());
            (x, site)
        });
        self.push_scope();
        let var = match &*f.pat {
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                self.new_local(&pi.ident, s.ty.clone(), false)
            }
            syn::Pat::Wild(w) => {
                let id = proc_macro2::Ident::new("_i", w.span());
                self.new_local(&id, s.ty.clone(), false)
            }
            p => {
                self.err(
                    p.span(),
                    "the loop variable is a plain name: `for i in a..b`",
                );
                self.pop_scope();
                return;
            }
        };
        self.enter_loop();
        let body = self.block_stmts(&f.body.stmts, false);
        self.leave_loop();
        self.pop_scope();
        out.push(Stmt::For {
            var,
            start: s,
            end: e,
            inclusive,
            step,
            body,
            span,
        });
    }

    pub(super) fn place(&mut self, e: &syn::Expr) -> Option<Place> {
        match e {
            syn::Expr::Path(p) if p.path.get_ident().is_some() => {
                let name = p.path.get_ident().expect("checked").to_string();
                match self.lookup_local(&name) {
                    Some(l) => Some(Place::Local(l, e.span())),
                    None => {
                        self.err(e.span(), format!("`{name}` is not a local variable of this kernel: only locals and array elements can be assigned"));
                        None
                    }
                }
            }
            // An element of a sub-array field: `a[i].v[k] = x`, `r.v[k] = x`.
            syn::Expr::Index(ix) if matches!(&*ix.expr, syn::Expr::Field(_)) => {
                let syn::Expr::Field(f) = &*ix.expr else {
                    unreachable!("matched")
                };
                self.sub_place(ix, f)
            }
            syn::Expr::Index(ix) => {
                let Some(a) = self.lookup_array(&ix.expr) else {
                    self.not_an_array(&ix.expr, "&mut Arr<T>");
                    return None;
                };
                let idx = self.indices(&ix.index, a);
                let name = self.array(a).name.to_string();
                let space = space_name(&self.array(a).space);
                let site = self.site(
                    format!("store to {space} `{name}[{}]`", ix.index.to_token_stream()),
                    e.span(),
                );
                self.mark_written(a);
                Some(Place::Index {
                    array: a,
                    idx,
                    site,
                    span: e.span(),
                })
            }
            syn::Expr::Paren(p) => self.place(&p.expr),
            syn::Expr::Field(f) => self.field_place(f),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                self.err(
                    u.span(),
                    "kernels have no references: assign to the variable or array element itself",
                );
                None
            }
            other => {
                self.err(
                    other.span(),
                    "only locals and array elements (`a[i]`) can be assigned",
                );
                None
            }
        }
    }

    pub(super) fn place_ty(&self, p: &Place) -> Ty {
        match p {
            Place::Local(l, _) => self.local_ty(*l),
            Place::Index { array, .. } => self.array(*array).elem.clone(),
            Place::Field { ty, .. } => ty.clone(),
        }
    }
}
