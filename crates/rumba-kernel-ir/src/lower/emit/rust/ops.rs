//! The simulator body's literals (every type written down), operators (integer `+ - * << >>`
//! and unary `-` wrapping, as in release Rust) and field stores into records.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};

use super::{R, respan};
use crate::lower::ir::*;
use crate::target::Scalar;

impl R<'_> {
    /// `base.field = value` (or `op=`), `base.field[k] = value`: a local record's field in
    /// place; an array element's through a view of that field in every element
    /// (`field_view` / `subarray_view`), so that only the field's bytes are written.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn field_assign(
        &self,
        base: &Place,
        field: &Ident,
        sub: Option<&Expr>,
        ty: &Ty,
        op: Option<BinOp>,
        value: &Expr,
        span: Span,
    ) -> TokenStream {
        let k = self.k;
        let v = self.expr(value);
        let vty = self.ty(ty);
        let kk = sub.map(|e| self.expr(e));
        match base {
            Place::Local(l, lspan) => {
                let name = self.local(*l, *lspan);
                let target = match &kk {
                    Some(kk) => quote_spanned!(span=> #name.#field[#kk]),
                    None => quote_spanned!(span=> #name.#field),
                };
                match op {
                    None => quote_spanned!(span=> #target = #v;),
                    Some(op) => {
                        let e = self.binary(op, ty, quote!(__rumba_c), quote!(__rumba_v), span);
                        quote_spanned!(span=> {
                            let __rumba_v: #vty = #v;
                            let __rumba_c: #vty = #target;
                            #target = #e;
                        })
                    }
                }
            }
            Place::Index { array, idx, .. } => {
                let a = match self.wil.and_then(|w| w.view_base(*array)) {
                    Some(b) => b,
                    None => self.array(*array).into_token_stream(),
                };
                let i = self.index(idx);
                let (view, at) = match &kk {
                    Some(kk) => {
                        let mut parts: Vec<TokenStream> =
                            idx.iter().map(|e| self.expr(e)).collect();
                        parts.push(kk.clone());
                        (
                            quote_spanned!(span=> #k::kernel::__macro::subarray_view(&#a, |__rumba_r| &__rumba_r.#field)),
                            quote!((#(#parts,)*)),
                        )
                    }
                    None => (
                        quote_spanned!(span=> #k::kernel::__macro::field_view(&#a, |__rumba_r| &__rumba_r.#field)),
                        i,
                    ),
                };
                match op {
                    None => quote_spanned!(span=> #view.set(#at, #v);),
                    Some(op) => {
                        let e = self.binary(
                            op,
                            ty,
                            quote!(__rumba_f.get(__rumba_i)),
                            quote!(__rumba_v),
                            span,
                        );
                        quote_spanned!(span=> {
                            let __rumba_f = #view;
                            let __rumba_i = #at;
                            let __rumba_v: #vty = #v;
                            __rumba_f.set(__rumba_i, #e);
                        })
                    }
                }
            }
            Place::Field { .. } => quote!(),
        }
    }

    pub(super) fn int_lit(&self, v: i128, s: Scalar, span: Span) -> TokenStream {
        let (min, _) = s.int_range();
        let ty = Ident::new(s.rust_name(), span);
        if s == Scalar::Bool {
            return if v != 0 { quote!(true) } else { quote!(false) };
        }
        if v == min && v < 0 {
            return quote_spanned!(span=> #ty::MIN);
        }
        let mut lit = Literal::u128_unsuffixed(v.unsigned_abs());
        lit.set_span(span);
        let suffixed: TokenStream = format!("{}{}", v.unsigned_abs(), s.rust_name())
            .parse()
            .unwrap_or_else(|_| quote!(#lit));
        let suffixed = respan(suffixed, span);
        if v < 0 {
            quote_spanned!(span=> (-#suffixed))
        } else {
            suffixed
        }
    }

    pub(super) fn float_lit(&self, v: f64, s: Scalar, span: Span) -> TokenStream {
        if s.is_f16() {
            // Exact: the value's bits (`f16` has no literals).
            let k = self.k;
            let bits = half::f16::from_f64(v).to_bits();
            return quote_spanned!(span=> #k::kernel::f16::from_bits(#bits));
        }
        let ty = Ident::new(s.rust_name(), span);
        if v.is_nan() {
            return quote_spanned!(span=> #ty::NAN);
        }
        if v.is_infinite() {
            return if v > 0.0 {
                quote_spanned!(span=> #ty::INFINITY)
            } else {
                quote_spanned!(span=> #ty::NEG_INFINITY)
            };
        }
        let mut lit = if s == Scalar::F32 {
            Literal::f32_suffixed((v as f32).abs())
        } else {
            Literal::f64_suffixed(v.abs())
        };
        lit.set_span(span);
        if v.is_sign_negative() {
            quote_spanned!(span=> (-#lit))
        } else {
            quote!(#lit)
        }
    }

    pub(super) fn binary(
        &self,
        op: BinOp,
        ty: &Ty,
        a: TokenStream,
        b: TokenStream,
        span: Span,
    ) -> TokenStream {
        let int = ty.scalar().is_some_and(|s| s.is_int());
        let m = |name: &str| format_ident!("{}", name, span = span);
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul if int => {
                let f = m(match op {
                    BinOp::Add => "wrapping_add",
                    BinOp::Sub => "wrapping_sub",
                    _ => "wrapping_mul",
                });
                quote_spanned!(span=> (#a).#f(#b))
            }
            BinOp::Shl | BinOp::Shr => {
                let f = m(if op == BinOp::Shl {
                    "wrapping_shl"
                } else {
                    "wrapping_shr"
                });
                quote_spanned!(span=> (#a).#f((#b) as u32))
            }
            _ => {
                let o: TokenStream = op.symbol().parse().expect("operator");
                let o = respan(o, span);
                quote_spanned!(span=> (#a #o #b))
            }
        }
    }
}
