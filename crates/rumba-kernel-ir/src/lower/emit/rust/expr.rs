//! The simulator body's expressions (see the parent module for the rules they follow).

use super::*;

impl R<'_> {
    pub(crate) fn expr(&self, e: &Expr) -> TokenStream {
        let span = e.span;
        let k = self.k;
        let t = &self.thread;
        if let Some(v) = self.wil.and_then(|w| w.replaced(e)) {
            return v;
        }
        match &e.kind {
            ExprKind::Int(v) => self.int_lit(*v, e.ty.scalar().unwrap_or(Scalar::I32), span),
            ExprKind::Float(v) => self.float_lit(*v, e.ty.scalar().unwrap_or(Scalar::F64), span),
            ExprKind::Bool(b) => quote_spanned!(span=> #b),
            ExprKind::Local(l) => {
                let n = self.local(*l, span);
                quote!(#n)
            }
            ExprKind::Const(c) => {
                let p = &self.f.consts[*c].path;
                if e.ty == Ty::Unit {
                    // Only converted with `as`: its type is rustc's business.
                    return quote_spanned!(span=> #p);
                }
                let ty = self.ty(&e.ty);
                quote_spanned!(span=> #k::kernel::__macro::ty::<#ty>(#p))
            }
            ExprKind::Unary(op, a) => {
                let x = self.expr(a);
                match op {
                    UnOp::Neg if a.ty.scalar().is_some_and(|s| s.is_int()) => {
                        quote_spanned!(span=> (#x).wrapping_neg())
                    }
                    UnOp::Neg => quote_spanned!(span=> (-#x)),
                    UnOp::Not => quote_spanned!(span=> (!#x)),
                }
            }
            ExprKind::Binary(op, a, b, _) => {
                if let Some(v) = self.wil.and_then(|w| w.known(e)) {
                    return quote_spanned!(span=> #v);
                }
                let (x, y) = (self.expr(a), self.expr(b));
                self.binary(*op, &a.ty, x, y, span)
            }
            ExprKind::Cast(a, s) => {
                let x = self.expr(a);
                let from = a.ty.scalar().unwrap_or(Scalar::F32);
                if from.is_f16() || s.is_f16() {
                    // `half::f16` converts with methods (written so by the user, too).
                    let name = match (from, s) {
                        (_, Scalar::F32) => "to_f32",
                        (_, Scalar::F64) => "to_f64",
                        (Scalar::F64, _) => "from_f64",
                        _ => "from_f32",
                    };
                    let m = Ident::new(name, span);
                    return if from == Scalar::F64 {
                        // Rounded once (`half`'s own may round through `f32`).
                        quote_spanned!(span=> #k::kernel::__macro::f16_from_f64(#x))
                    } else if s.is_f16() {
                        quote_spanned!(span=> #k::kernel::f16::#m(#x))
                    } else {
                        quote_spanned!(span=> (#x).#m())
                    };
                }
                let ty = Ident::new(s.rust_name(), span);
                quote_spanned!(span=> ((#x) as #ty))
            }
            ExprKind::Select(c, a, b) => {
                let (c, a, b) = (self.expr(c), self.expr(a), self.expr(b));
                quote_spanned!(span=> (if #c { #a } else { #b }))
            }
            ExprKind::Index { array, idx, .. } => {
                if let Some(get) = self.wil.and_then(|w| w.window_get(*array, idx)) {
                    return self.loaded(*array, get);
                }
                let a = self.array(*array);
                let i = self.index(idx);
                self.loaded(*array, quote_spanned!(span=> #a.get(#i)))
            }
            ExprKind::Len(a) => {
                let a = self.array(*a);
                quote_spanned!(span=> #a.len())
            }
            ExprKind::Size(a) => {
                let a = self.array(*a);
                quote_spanned!(span=> #a.size())
            }
            ExprKind::Shape(a, ax) => {
                let a = self.array(*a);
                let ax = Literal::usize_unsuffixed(*ax);
                quote_spanned!(span=> #a.shape()[#ax])
            }
            ExprKind::Field(r, name) => {
                let r = self.expr(r);
                let ty = self.ty(&e.ty);
                quote_spanned!(span=> #k::kernel::__macro::ty::<#ty>((#r).#name))
            }
            ExprKind::Axis(d, ax) => {
                let d = self.expr(d);
                let f = Ident::new(["x", "y", "z"][*ax as usize], span);
                quote_spanned!(span=> (#d).#f)
            }
            ExprKind::Tuple(v) => {
                let parts = v.iter().map(|x| self.expr(x));
                quote_spanned!(span=> (#(#parts,)*))
            }
            ExprKind::TupleField(t, k) => {
                let t = self.expr(t);
                let k = syn::Index {
                    index: *k as u32,
                    span,
                };
                quote_spanned!(span=> (#t).#k)
            }
            ExprKind::RecordLit { record, fields } => {
                let path = &self.f.records[*record].path;
                let parts = fields.iter().map(|(n, v)| {
                    let v = self.expr(v);
                    quote!(#n: #v)
                });
                quote_spanned!(span=> #path { #(#parts),* })
            }
            ExprKind::SubIndex {
                rec, field, idx, ..
            } => {
                let (r, i) = (self.expr(rec), self.expr(idx));
                let ty = self.ty(&e.ty);
                quote_spanned!(span=> #k::kernel::__macro::ty::<#ty>((#r).#field[#i]))
            }
            ExprKind::FieldLit {
                text, float, neg, ..
            } => {
                // Unsuffixed: rustc gives it the field's type.
                let mut lit: Literal = if *float {
                    Literal::f64_unsuffixed(text.parse().unwrap_or(0.0))
                } else {
                    Literal::u128_unsuffixed(text.parse().unwrap_or(0))
                };
                if let Ok(l) = text.parse::<Literal>() {
                    lit = l;
                }
                lit.set_span(span);
                if *neg {
                    quote_spanned!(span=> (-#lit))
                } else {
                    quote!(#lit)
                }
            }
            ExprKind::Bytes(b) => {
                let lit = proc_macro2::Literal::byte_string(b);
                quote_spanned!(span=> #k::kernel::__macro::bytes(#lit))
            }
            ExprKind::ArrayRef(a) => {
                // Passed as a whole to a device function: read-only (`Ro`) or writable (`Rw`),
                // so a callee that writes cannot be given a read-only array (a type error).
                let n = match self.wil.and_then(|w| w.view_base(*a)) {
                    Some(b) => b,
                    None => self.array(*a).into_token_stream(),
                };
                let f = if self.f.arrays[*a].space.writable() {
                    format_ident!("rw", span = span)
                } else {
                    format_ident!("ro", span = span)
                };
                // Every token at the argument, so a refusal (a read-only array to a `&mut`
                // parameter) points at it.
                let k = respan(k.to_token_stream(), span);
                let n = respan(n, span);
                quote_spanned!(span=> #k::kernel::__macro::#f(&#n))
            }
            ExprKind::Complex(v) => {
                let ty = self.ty(&e.ty);
                let parts = v.iter().map(|x| self.expr(x));
                quote_spanned!(span=> <#ty>::new(#(#parts),*))
            }
            ExprKind::Thread(q) if self.wil.is_some() => self
                .wil
                .map(|w| w.thread_query(*q, span))
                .unwrap_or_default(),
            ExprKind::Thread(q) => {
                let m = Ident::new(
                    &match q {
                        ThreadQuery::ThreadIdx => "thread_idx".to_string(),
                        ThreadQuery::BlockIdx => "block_idx".into(),
                        ThreadQuery::BlockDim => "block_dim".into(),
                        ThreadQuery::GridDim => "grid_dim".into(),
                        ThreadQuery::Grid(n) => format!("grid{n}"),
                        ThreadQuery::GridSize(n) => format!("gridsize{n}"),
                        ThreadQuery::WarpSize => "warp_size".into(),
                        ThreadQuery::LaneId => "lane_id".into(),
                    },
                    span,
                );
                quote_spanned!(span=> #t.#m())
            }
            ExprKind::Sync(kind, p) => {
                let m = Ident::new(
                    match kind {
                        SyncKind::Plain => "syncthreads",
                        SyncKind::Count => "syncthreads_count",
                        SyncKind::And => "syncthreads_and",
                        SyncKind::Or => "syncthreads_or",
                    },
                    span,
                );
                if self.wil.is_some() {
                    // The work-item-loop emitter cuts regions at barriers: none reaches here.
                    return quote_spanned!(span=> ::core::unreachable!());
                }
                let p = p.as_ref().map(|p| self.expr(p));
                quote_spanned!(span=> #t.#m(#p))
            }
            ExprKind::Warp(kind, args) => {
                if self.wil.is_some() {
                    // Kernels with warp operations have no block form.
                    return quote_spanned!(span=> ::core::unreachable!());
                }
                let m = Ident::new(kind.name(), span);
                let a = args.iter().map(|x| self.expr(x));
                quote_spanned!(span=> #t.#m(#(#a),*))
            }
            ExprKind::Fence(kind) => {
                let m = Ident::new(
                    match kind {
                        FenceKind::Device => "threadfence",
                        FenceKind::Block => "threadfence_block",
                        FenceKind::System => "threadfence_system",
                    },
                    span,
                );
                if self.wil.is_some() {
                    return quote_spanned!(span=> __blk.#m());
                }
                quote_spanned!(span=> #t.#m())
            }
            ExprKind::Math(f, args) => {
                let s = args[0].ty.scalar().unwrap_or(Scalar::F32);
                let ty = scalar_tokens(s, k, span);
                let name = match f {
                    MathFn::Abs if s.is_int() => "wrapping_abs",
                    f => f.name(),
                };
                let m = Ident::new(name, span);
                let a = args.iter().map(|x| self.expr(x));
                if args[0].ty.complex_part().is_some() {
                    let ty = self.ty(&args[0].ty);
                    return quote_spanned!(span=> <#ty as #k::kernel::math::ComplexMath>::#m(#(#a),*));
                }
                // Functions that are not exact come from the simulator's math library (not the
                // host's C library), as do the ones std lacks; exact ones are std's.
                if !f.exact()
                    || matches!(
                        f,
                        MathFn::Ldexp | MathFn::Remainder | MathFn::Frexp | MathFn::Modf
                    )
                {
                    quote_spanned!(span=> <#ty as #k::kernel::math::Real>::#m(#(#a),*))
                } else if matches!(
                    f,
                    MathFn::Ffs | MathFn::MulHi | MathFn::Sad | MathFn::BytePerm
                ) {
                    quote_spanned!(span=> <#ty as #k::kernel::math::Bits>::#m(#(#a),*))
                } else {
                    quote_spanned!(span=> <#ty>::#m(#(#a),*))
                }
            }
            ExprKind::Atomic {
                op,
                array,
                idx,
                args,
                ..
            } => {
                let a = self.array(*array);
                let m = format_ident!("atomic_{}", op.name(), span = span);
                let i = self.index(idx);
                let v = args.iter().map(|x| self.expr(x));
                quote_spanned!(span=> #a.#m(#i, #(#v),*))
            }
            ExprKind::Call {
                func,
                pass_thread,
                args,
            } => {
                let p = &self.f.devices[*func].path;
                let th = pass_thread.then(|| quote!(#t,));
                let a = args.iter().map(|x| self.expr(x));
                if e.ty == Ty::Unit {
                    quote_spanned!(span=> #p(#th #(#a),*))
                } else {
                    let ty = self.ty(&e.ty);
                    quote_spanned!(span=> #k::kernel::__macro::ty::<#ty>(#p(#th #(#a),*)))
                }
            }
        }
    }
}
