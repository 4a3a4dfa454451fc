//! Records in the body: field assignment (`a[i].b = v`, `r.b = v`, `a[i].v[k] = x`, a byte
//! string into a `[u8; N]` field), record literals (`P { x: 1.0, y }`) and elements of sub-array
//! fields (`r.v[k]`).
//!
//! A record's fields are declared in another macro's item, so their types are rustc's: a field
//! read or assigned gets a type variable that its uses fix (or an annotation does), and the Rust
//! form writes every type it inferred, so a disagreement is a rustc error at the user's line. A
//! bare numeric literal given to a field is the one exception: it takes the field's type as in
//! Rust, so it becomes a [`ExprKind::FieldLit`] — unsuffixed in Rust, and in C read through the
//! record's literal macro, which knows the field's type when the program is assembled.

use super::expr::mk;
use super::*;

const USIZE: Ty = Ty::Scalar(Scalar::Usize);

impl Cx {
    /// The C name of the record type `ty` (a record whose type is known here), else an error
    /// at `span` and `None`.
    fn record_of(&mut self, ty: &Ty, span: Span, what: &str) -> Option<String> {
        match self.types.shallow(ty) {
            Ty::Record(key) => Some(key.rsplit("::").next().unwrap_or(&key).to_string()),
            Ty::Var(_) => {
                self.err(span, format!("the type of {what} is not known here: annotate its `let` (`let r: MyRecord = …`)"));
                None
            }
            t => {
                self.err(
                    span,
                    format!(
                        "{what} is a `{}`, which has no fields to assign: only records (`#[rumba::record]` structs) do",
                        crate::lower::infer::show(&t)
                    ),
                );
                None
            }
        }
    }

    /// `base.field` as a place (`base` a local record or an array element of records).
    pub(super) fn field_place(&mut self, f: &syn::ExprField) -> Option<Place> {
        let syn::Member::Named(field) = &f.member else {
            self.err(
                f.span(),
                "tuple elements cannot be assigned: build a new tuple (`p = (a, b);`)",
            );
            return None;
        };
        let base = self.place(&f.base)?;
        if matches!(base, Place::Field { .. }) {
            self.err(
                f.span(),
                "record fields are numbers or arrays of them: no field has fields",
            );
            return None;
        }
        let bty = self.place_ty(&base);
        self.record_of(&bty, f.base.span(), "this value")?;
        let ty = self.types.fresh_quiet(f.span());
        Some(Place::Field {
            base: Box::new(base),
            field: field.clone(),
            sub: None,
            ty,
            span: f.span(),
        })
    }

    /// `base.field[k]` as a place: an element of a sub-array field.
    pub(super) fn sub_place(&mut self, ix: &syn::ExprIndex, f: &syn::ExprField) -> Option<Place> {
        let Place::Field {
            base, field, span, ..
        } = self.field_place(f)?
        else {
            return None;
        };
        let k = self.sub_index(&ix.index);
        let site = self.site(
            format!(
                "store to sub-array `{}[{}]`",
                f.to_token_stream(),
                ix.index.to_token_stream()
            ),
            ix.span(),
        );
        let ty = self.types.fresh_quiet(span);
        Some(Place::Field {
            base,
            field,
            sub: Some((Box::new(k), site)),
            ty,
            span: ix.span(),
        })
    }

    /// The index of a sub-array element: a `usize`.
    fn sub_index(&mut self, e: &syn::Expr) -> Expr {
        let k = self.expr(e);
        if self
            .types
            .unify(&k.ty, &USIZE, e.span(), "a sub-array index")
            .is_err()
        {
            self.err(
                e.span(),
                format!(
                    "sub-array indices are `usize`: write `{} as usize`",
                    e.to_token_stream()
                ),
            );
        }
        k
    }

    /// `rec.field[k]` as a value: an element of a sub-array field of a record value.
    pub(super) fn sub_index_expr(&mut self, ix: &syn::ExprIndex, f: &syn::ExprField) -> Expr {
        let span = ix.span();
        let syn::Member::Named(field) = &f.member else {
            self.err(f.span(), "tuples are not arrays: read `p.0`");
            return self.placeholder(span);
        };
        let rec = self.expr(&f.base);
        let Some(record) = self.record_of(&rec.ty, f.base.span(), "this value") else {
            return self.placeholder(span);
        };
        let idx = self.sub_index(&ix.index);
        let site = self.site(
            format!(
                "load from sub-array `{}[{}]`",
                f.to_token_stream(),
                ix.index.to_token_stream()
            ),
            span,
        );
        let ty = self.types.fresh(Kind::Any, span);
        mk(
            ExprKind::SubIndex {
                rec: Box::new(rec),
                record,
                field: field.clone(),
                idx: Box::new(idx),
                site,
            },
            ty,
            span,
        )
    }

    /// The value assigned to a field place: a bare literal takes the field's type
    /// ([`ExprKind::FieldLit`]), `bytes(b"…")` fills a byte-string field; anything else is an
    /// ordinary value.
    pub(super) fn field_value(
        &mut self,
        place: &Place,
        e: &syn::Expr,
        out: &mut Vec<Stmt>,
    ) -> Expr {
        let Place::Field {
            base, field, sub, ..
        } = place
        else {
            return self.rvalue(e, out);
        };
        if let Some(b) = self.bytes_call(e) {
            if sub.is_some() {
                self.err(
                    e.span(),
                    "a byte string fills a whole `[u8; N]` field: `r.name = bytes(b\"…\")`",
                );
            }
            return b;
        }
        let bty = self.place_ty(base);
        match self.record_of(&bty, e.span(), "this value") {
            Some(record) => self
                .field_literal(e, &record, field)
                .unwrap_or_else(|| self.rvalue(e, out)),
            None => self.rvalue(e, out),
        }
    }

    /// `bytes(b"…")`, if `e` is one.
    fn bytes_call(&mut self, e: &syn::Expr) -> Option<Expr> {
        let syn::Expr::Call(c) = e else { return None };
        let syn::Expr::Path(p) = &*c.func else {
            return None;
        };
        if p.path.segments.last().is_none_or(|s| s.ident != "bytes") {
            return None;
        }
        match (c.args.len(), c.args.first()) {
            (
                1,
                Some(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::ByteStr(b),
                    ..
                })),
            ) => {
                let ty = self.types.error(e.span());
                Some(mk(ExprKind::Bytes(b.value()), ty, e.span()))
            }
            _ => {
                self.err(
                    e.span(),
                    "`bytes` takes a byte-string literal: `bytes(b\"abc\")`",
                );
                Some(self.placeholder(e.span()))
            }
        }
    }

    /// A bare (unsuffixed, possibly negated) numeric literal given to field `field` of record
    /// `record`.
    fn field_literal(&mut self, e: &syn::Expr, record: &str, field: &Ident) -> Option<Expr> {
        let (lit, neg) = match e {
            syn::Expr::Lit(l) => (&l.lit, false),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
                syn::Expr::Lit(l) => (&l.lit, true),
                _ => return None,
            },
            syn::Expr::Paren(p) => return self.field_literal(&p.expr, record, field),
            _ => return None,
        };
        let (text, float) = match lit {
            syn::Lit::Int(i) if i.suffix().is_empty() => (i.base10_digits().to_string(), false),
            syn::Lit::Float(f) if f.suffix().is_empty() => (f.base10_digits().to_string(), true),
            _ => return None,
        };
        // Its type is rustc's (the field's): never reported, never defaulted.
        let ty = self.types.error(e.span());
        Some(mk(
            ExprKind::FieldLit {
                record: record.to_string(),
                field: field.clone(),
                text,
                float,
                neg,
            },
            ty,
            e.span(),
        ))
    }

    /// A record literal `P { x: a, y: b }` (`P { x, y }` for locals of those names).
    pub(super) fn record_literal(&mut self, s: &syn::ExprStruct) -> Expr {
        let span = s.span();
        if let Some(r) = &s.rest {
            self.err(
                r.span(),
                "`..` is not supported in record literals: name every field",
            );
        }
        if s.qself.is_some() || s.path.segments.iter().any(|g| !g.arguments.is_none()) {
            self.err(s.path.span(), "records are not generic: `P { … }`");
            return self.placeholder(span);
        }
        let (key, record) = self.record_use_index(&s.path);
        let c_name = self.records[record].c_name.clone();
        let mut fields = Vec::new();
        for fv in &s.fields {
            let syn::Member::Named(name) = &fv.member else {
                self.err(fv.span(), "records have named fields");
                continue;
            };
            if matches!(fv.expr, syn::Expr::Array(_) | syn::Expr::Repeat(_)) {
                self.err(
                    fv.expr.span(),
                    "a sub-array field cannot be given by a literal: copy the record from an array (`let mut r: P = a[i];`) and set its elements (`r.v[k] = x;`)",
                );
                continue;
            }
            let v = match self.field_literal(&fv.expr, &c_name, name) {
                Some(v) => v,
                None => self.expr(&fv.expr),
            };
            fields.push((name.clone(), v));
        }
        mk(
            ExprKind::RecordLit { record, fields },
            Ty::Record(key),
            span,
        )
    }
}
