//! Declarations and stores in C: in-kernel arrays (shared memory hoisted, local arrays zeroed),
//! assignments to locals and array elements (compound ones as one read-modify-write at one
//! index), and field stores into records (only the field's bytes).

use proc_macro2::Ident;

use super::Printer;
use super::opencl_helpers::Need;
use crate::lower::ir::*;
use crate::target::Scalar;

impl Printer<'_> {
    pub(super) fn array_decl(&mut self, a: ArrayId) {
        let arr = self.f.arrays[a].clone();
        let vt = self.view_type(a);
        let elem = self.elem_c(&arr);
        let n = arr.c_name.clone();
        let mut dims: Vec<String> = arr.dims.iter().map(|d| self.dim(d)).collect();
        if dims.is_empty() && arr.space != Space::DynamicShared {
            // A 0-d array: a 1-d view of its one element.
            dims.push("1".into());
        }
        let mk = if self.cuda() {
            format!("rb_fixed<{elem}>")
        } else {
            self.needs.insert(Need::Fixed {
                view: vt.clone(),
                rank: self.c_rank(a),
                elem: elem.clone(),
            });
            format!("rb_mk_{}", vt.trim_start_matches("rb_"))
        };
        match arr.space {
            Space::Shared => self.line(&format!("{vt} {n} = {mk}({n}_mem, {});", dims.join(", "))),
            Space::Local => {
                let size = self.dims_product(&arr);
                self.line(&format!("{elem} {n}_mem[{size}] = {{0}};"));
                self.line(&format!("{vt} {n} = {mk}({n}_mem, {});", dims.join(", ")));
            }
            _ => {
                let (ptr, bytes) = if self.cuda() {
                    (format!("({elem}*)rb_dyn_shared"), "rb_dyn_shared_bytes()")
                } else {
                    (format!("(__local {elem}*)rb_dyn_shared"), "rb_dyn_bytes")
                };
                self.line(&format!(
                    "{vt} {n} = {mk}({ptr}, {bytes} / sizeof({elem}));"
                ));
            }
        }
    }

    /// `base.field = value` (or `op=`), `base.field[k] = value`, `base.name = bytes(b"…")`:
    /// a local record's field in place, an array element's through its checked address, so
    /// that only the field's bytes are written.
    #[allow(clippy::too_many_arguments)]
    fn field_assign(
        &mut self,
        base: &Place,
        field: &Ident,
        sub: &Option<(Box<Expr>, SiteId)>,
        ty: &Ty,
        op: Option<BinOp>,
        value: &Expr,
        site: Option<SiteId>,
    ) {
        let u64_ = Scalar::U64.c_name(self.target).to_string();
        self.line("{");
        self.indent += 1;
        // The record: a local, or the element's address (0 when out of bounds: nothing is
        // written, the fault is recorded).
        let target = match base {
            Place::Local(l, _) => self.f.locals[*l].c_name.clone(),
            Place::Index {
                array,
                idx,
                site: st,
                ..
            } => {
                let arr = self.f.arrays[*array].clone();
                let at = self.accessor("at", *array);
                let mut names = Vec::new();
                for e in idx {
                    let n = self.fresh("i");
                    let v = self.expr(e);
                    self.line(&format!("{u64_} {n} = {v};"));
                    names.push(n);
                }
                if names.is_empty() {
                    names.push("0".into());
                }
                let p = self.fresh("p");
                let ptr = self.elem_ptr(*array);
                let at_site = self.at(*st);
                self.line(&format!(
                    "{ptr} {p} = {at}({}, {}, {at_site});",
                    arr.c_name,
                    names.join(", ")
                ));
                format!("(*{p})")
            }
            Place::Field { .. } => String::new(),
        };
        // What must hold for the store to happen.
        let mut conds: Vec<String> = match base {
            Place::Index { .. } => vec![
                target
                    .trim_start_matches("(*")
                    .trim_end_matches(')')
                    .to_string(),
            ],
            _ => Vec::new(),
        };
        let guard = |conds: &[String]| {
            if conds.is_empty() {
                String::new()
            } else {
                format!("if ({}) ", conds.join(" && "))
            }
        };
        let dst = format!("{target}.{field}");
        if let ExprKind::Bytes(b) = &value.kind {
            // A byte string into a `[u8; N]` field: its bytes, then zeros (NumPy's `S` dtype); a
            // string longer than the field is a fault, and nothing is written.
            let n = format!("(sizeof({dst}) / sizeof({dst}[0]))");
            let at = self.at(site.unwrap_or(0));
            let g = guard(&conds);
            self.line(&format!(
                "if ({}ul > {n}) rb_fail({at}, 6); else {g}{{",
                b.len()
            ));
            self.indent += 1;
            for (k, byte) in b.iter().enumerate() {
                self.line(&format!("{dst}[{k}] = {byte};"));
            }
            self.line(&format!(
                "for ({u64_} rb_k = {}; rb_k < {n}; rb_k++) {dst}[rb_k] = 0;",
                b.len()
            ));
            self.indent -= 1;
            self.line("}");
            self.indent -= 1;
            self.line("}");
            return;
        }
        let v = self.expr(value);
        // A compound update needs the field's type (its operand fixed it); a plain store does
        // not (a literal's type is the field's, which only rustc knows).
        let vn = match op {
            Some(_) => {
                let vn = self.fresh("v");
                let vty = self.ty(ty);
                self.line(&format!("{vty} {vn} = {v};"));
                vn
            }
            None => v,
        };
        let elem = match sub {
            Some((k, ksite)) => {
                let kk = self.expr(k);
                let kn = self.fresh("k");
                let n = format!("(sizeof({dst}) / sizeof({dst}[0]))");
                let at = self.at(*ksite);
                self.line(&format!("{u64_} {kn} = {kk};"));
                self.line(&format!(
                    "if ({kn} >= {n}) {{ rb_oob({at}, 1, {kn}, 0, 0, (long){n}, 0, 0); {kn} = {n}; }}"
                ));
                // An index out of the field's length writes nothing.
                conds.push(format!("{kn} < {n}"));
                format!("{dst}[{kn}]")
            }
            None => dst,
        };
        let (place, g) = (elem, guard(&conds));
        let e = match op {
            None => vn,
            Some(op) => self.binary(op, ty, &place, &vn, site),
        };
        self.line(&format!("{g}{place} = {e};"));
        self.indent -= 1;
        self.line("}");
    }

    pub(super) fn assign(
        &mut self,
        place: &Place,
        op: Option<BinOp>,
        value: &Expr,
        site: Option<SiteId>,
    ) {
        match place {
            Place::Field {
                base,
                field,
                sub,
                ty,
                ..
            } => self.field_assign(base, field, sub, ty, op, value, site),
            Place::Local(l, _) => {
                let loc = &self.f.locals[*l];
                let (name, ty) = (loc.c_name.clone(), loc.ty.clone());
                let v = self.expr(value);
                match op {
                    None => self.line(&format!("{name} = {v};")),
                    Some(op) => {
                        let e = self.binary(op, &ty, &name, &v, site);
                        self.line(&format!("{name} = {e};"));
                    }
                }
            }
            Place::Index {
                array,
                idx,
                site: st,
                ..
            } => {
                let arr_name = self.f.arrays[*array].c_name.clone();
                let elem = self.f.arrays[*array].elem.clone();
                let store = self.accessor("st", *array);
                let at = self.at(*st);
                match op {
                    None => {
                        let i = self.idx_list(idx);
                        let v = self.expr(value);
                        let v = self.stored(*array, v);
                        self.line(&format!(
                            "{store}({arr_name}, {}, {v}, {at});",
                            i.join(", ")
                        ));
                    }
                    Some(op) => {
                        // Index once, value, then read-modify-write (the Rust body's order).
                        let load = self.accessor("ld", *array);
                        let u64_ = Scalar::Usize.c_name(self.target);
                        self.line("{");
                        self.indent += 1;
                        let mut names = Vec::new();
                        for e in idx {
                            let n = self.fresh("i");
                            let v = self.expr(e);
                            self.line(&format!("{u64_} {n} = {v};"));
                            names.push(n);
                        }
                        if names.is_empty() {
                            names.push("0".into());
                        }
                        let vn = self.fresh("v");
                        let v = self.expr(value);
                        let ety = self.ty(&value.ty);
                        self.line(&format!("{ety} {vn} = {v};"));
                        let i = names.join(", ");
                        let cur = self.loaded(*array, format!("{load}({arr_name}, {i}, {at})"));
                        let e = self.binary(op, &elem, &cur, &vn, site);
                        let e = self.stored(*array, e);
                        self.line(&format!("{store}({arr_name}, {i}, {e}, {at});"));
                        self.indent -= 1;
                        self.line("}");
                    }
                }
            }
        }
    }
}
