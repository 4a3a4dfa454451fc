//! In-kernel array views: `let m = a.reshape((4, 8));`, `let w = a.view::<u32>();`,
//! `let r = a.row(i);` and `let p = a.index_axis(k, i);`.
//!
//! A view is a new array bound to a plain name, whose [`Array::base`] is the array it views and
//! whose [`Space`] is the space of the memory it reaches, so every rule that depends on the
//! space (atomics, read-only refusals, address qualifiers) applies to it unchanged. Writes
//! through a view mark its base (and the base's base) written at the end of parsing, and a write
//! through a view of a `&Arr` / `&ConstArr` is refused at the view's name.
//!
//! Ranks. A view's rank comes from how it is made: a `reshape` has the rank of its shape; a
//! `view::<U>()` has its base's; a `row` / `index_axis` one less. A parameter's rank is only
//! known from use, and may be fixed after the view is made (or only by indexing the view), so
//! the ranks of `view` and `index_axis` views of parameters are reconciled with their bases in
//! [`Cx::reconcile_views`] once the body is parsed. A `reshape` needs no rank of its base: it
//! reads the base's whole shape, of the rank the base is indexed with elsewhere (1 when it is
//! only reshaped).
//!
//! What is checked where: shapes and indices are run-time values, so a size mismatch, a
//! non-contiguous base, a last axis whose bytes do not divide into the new item size, a
//! misaligned base and an index out of range are faults at run time on every target (the
//! simulator's fault, the fault record on CUDA and OpenCL, naming kernel, block and thread).
//! A `reshape` of a shared or local array with literal dimensions to a literal shape of another
//! size is a compile error.

use super::*;

const USIZE: Ty = Ty::Scalar(Scalar::Usize);

/// A deferred rank relation: `view` has `base`'s rank minus `dropped` (0 or 1).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RankLink {
    pub(crate) view: ArrayId,
    pub(crate) base: ArrayId,
    /// `Some(k)` for `index_axis(k, …)`.
    pub(crate) axis: Option<usize>,
    pub(crate) span: Span,
}

impl Cx {
    /// Recognises `base.reshape(…)` / `base.view::<U>()` / `base.row(i)` /
    /// `base.index_axis(k, i)` on an array binding. `None` when `e` is none of them.
    pub(super) fn view_decl(
        &mut self,
        e: &syn::Expr,
        pat: &syn::Pat,
        annot: Option<&syn::Type>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Option<()> {
        let syn::Expr::MethodCall(m) = e else {
            return None;
        };
        let method = m.method.to_string();
        if !matches!(method.as_str(), "reshape" | "view" | "row" | "index_axis") {
            return None;
        }
        let base = self.lookup_array(&m.receiver)?;
        let syn::Pat::Ident(pi) = pat else {
            self.err(
                pat.span(),
                format!("bind a view to a plain name: `let v = a.{method}(…);`"),
            );
            return Some(());
        };
        if pi.mutability.is_some() || pi.by_ref.is_some() {
            self.err(
                pi.span(),
                "a view is bound once, to a plain name: remove `mut` (writing its elements needs no `mut`)",
            );
        }
        if let Some(a) = annot {
            self.err(
                a.span(),
                "remove the annotation: a view's type follows from its base",
            );
        }
        let b = self.arrays[base].clone();
        let base_fixed = self.rank_is_fixed(base);
        let (kind, elem, rank, fixed, link_axis) = match method.as_str() {
            "reshape" => {
                if m.turbofish.is_some() || m.args.len() != 1 {
                    self.err(
                        m.span(),
                        "`reshape` takes one shape: `a.reshape((rows, cols))` (1 to 3 `usize` dimensions)",
                    );
                    return Some(());
                }
                let parts: Vec<&syn::Expr> = match &m.args[0] {
                    syn::Expr::Tuple(t) => t.elems.iter().collect(),
                    syn::Expr::Paren(p) => vec![&*p.expr],
                    e => vec![e],
                };
                if parts.is_empty() || parts.len() > 3 {
                    self.err(m.args[0].span(), "kernel arrays have 1 to 3 dimensions");
                    return Some(());
                }
                let dims: Vec<Expr> = parts.into_iter().map(|p| self.usize_arg(p)).collect();
                self.check_literal_reshape(&b, &dims, m.args[0].span());
                let n = dims.len();
                (ViewKind::Reshape(dims), b.elem.clone(), n, true, None)
            }
            "view" => {
                if !m.args.is_empty() {
                    self.err(
                        m.args.span(),
                        "`view` takes no arguments: `a.view::<u32>()`",
                    );
                }
                let ty = match m
                    .turbofish
                    .as_ref()
                    .map(|t| t.args.iter().collect::<Vec<_>>())
                {
                    Some(args) if args.len() == 1 => match args[0] {
                        syn::GenericArgument::Type(t) => {
                            self.written_type(t).map(|ty| (ty, t.span()))
                        }
                        other => {
                            self.err(other.span(), "name the element type: `a.view::<u32>()`");
                            None
                        }
                    },
                    _ => {
                        self.err(m.method.span(), "name the element type: `a.view::<u32>()`");
                        None
                    }
                };
                let (ty, tspan) = ty?;
                if matches!(ty, Ty::Record(_)) || matches!(b.elem, Ty::Record(_)) {
                    self.err(
                        tspan,
                        "`view::<U>()` reinterprets numbers and complex numbers only (records have no portable layout): copy the fields instead",
                    );
                    return Some(());
                }
                (ViewKind::Cast, ty, b.rank, base_fixed, Some(None))
            }
            _ => {
                let (axis, index) = if method == "row" {
                    if m.args.len() != 1 {
                        self.err(m.span(), "`row` takes one index: `a.row(i)`");
                        return Some(());
                    }
                    (0, &m.args[0])
                } else {
                    if m.args.len() != 2 {
                        self.err(
                            m.span(),
                            "`index_axis` takes an axis and an index: `a.index_axis(0, i)`",
                        );
                        return Some(());
                    }
                    let k = match &m.args[0] {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Int(i),
                            ..
                        }) => i.base10_parse::<usize>().ok(),
                        _ => None,
                    };
                    let Some(k) = k else {
                        self.err(
                            m.args[0].span(),
                            "the axis of `index_axis` is an integer literal",
                        );
                        return Some(());
                    };
                    (k, &m.args[1])
                };
                if m.turbofish.is_some() {
                    self.err(
                        m.method.span(),
                        format!("`{method}` takes no type arguments"),
                    );
                }
                let i = self.usize_arg(index);
                if base_fixed && (b.rank < 2 || axis >= b.rank) {
                    let what = if b.rank < 2 {
                        format!(
                            "`{}` has {} dimension(s): index its elements instead",
                            b.name, b.rank
                        )
                    } else {
                        format!(
                            "axis {axis} does not exist: `{}` has {} dimension(s)",
                            b.name, b.rank
                        )
                    };
                    self.err(
                        m.span(),
                        format!(
                            "`{method}` drops an axis of an array of 2 or 3 dimensions; {what}"
                        ),
                    );
                    return Some(());
                }
                let rank = if base_fixed {
                    b.rank - 1
                } else {
                    (axis + 1).max(1)
                };
                (
                    ViewKind::Axis(axis, Box::new(i)),
                    b.elem.clone(),
                    rank,
                    base_fixed,
                    Some(Some(axis)),
                )
            }
        };
        let c_name = self.c_name(&pi.ident.to_string());
        self.arrays.push(Array {
            name: pi.ident.clone(),
            c_name,
            space: b.space.clone(),
            elem,
            rank,
            dims: Vec::new(),
            written: false,
            captured: false,
            base: Some(base),
        });
        let id = self.arrays.len() - 1;
        if fixed {
            self.array_used_rank.insert(id);
            self.rank_from.insert(id, span);
        } else if let Some(axis) = link_axis {
            self.rank_links.push(RankLink {
                view: id,
                base,
                axis,
                span,
            });
        }
        self.bind(&pi.ident, Binding::Array(id));
        let site = self.site(format!("`{}` = {}", pi.ident, e.to_token_stream()), span);
        out.push(Stmt::View {
            array: id,
            base,
            kind,
            site,
            span,
        });
        Some(())
    }

    /// Whether `a`'s rank is known now: a shared, local or dynamic shared array and every view
    /// of one; a parameter (or a view of one) once indexed or made.
    fn rank_is_fixed(&self, a: ArrayId) -> bool {
        matches!(
            self.arrays[a].space,
            Space::Shared | Space::Local | Space::DynamicShared
        ) || self.array_used_rank.contains(&a)
    }

    /// A `usize` argument (a shape or an index).
    fn usize_arg(&mut self, p: &syn::Expr) -> Expr {
        let x = self.expr(p);
        if self
            .types
            .unify(&x.ty, &USIZE, p.span(), "a view's shape or index")
            .is_err()
        {
            let shown = crate::lower::infer::show(&self.types.shallow(&x.ty));
            self.err(
                p.span(),
                format!(
                    "view shapes and indices are `usize`, this is `{shown}`: write `{} as usize`",
                    p.to_token_stream()
                ),
            );
        }
        x
    }

    /// A `reshape` whose base and shape are literal sizes: the sizes must agree.
    fn check_literal_reshape(&mut self, b: &Array, dims: &[Expr], span: Span) {
        if b.base.is_some() || b.dims.is_empty() {
            return;
        }
        let from: Option<u128> = b.dims.iter().try_fold(1u128, |acc, d| match d {
            DimSize::Lit(v) => acc.checked_mul(*v as u128),
            DimSize::Const(_) => None,
        });
        let to: Option<u128> = dims.iter().try_fold(1u128, |acc, d| match d.kind {
            ExprKind::Int(v) if v >= 0 => acc.checked_mul(v as u128),
            _ => None,
        });
        if let (Some(from), Some(to)) = (from, to) {
            if from != to {
                self.err(
                    span,
                    format!(
                        "cannot reshape `{}` of {from} elements into a shape of {to} elements: the sizes must be equal",
                        b.name
                    ),
                );
            }
        }
    }

    /// Once the body is parsed: the ranks of `view` / `index_axis` views of parameters and their
    /// bases (a view indexed with `n` components gives its base `n` (+1) unless the base is
    /// indexed itself, then they must agree); writes through views mark their bases; a write
    /// through a view of read-only memory is refused at the view.
    pub(super) fn reconcile_views(&mut self) {
        let links = std::mem::take(&mut self.rank_links);
        let drop_of = |l: &RankLink| usize::from(l.axis.is_some());
        // Later views first: a view indexed with n components fixes its base.
        for l in links.iter().rev() {
            if self.array_used_rank.contains(&l.view) && !self.array_used_rank.contains(&l.base) {
                self.arrays[l.base].rank = self.arrays[l.view].rank + drop_of(l);
                self.array_used_rank.insert(l.base);
                if let Some(s) = self.rank_from.get(&l.view).copied() {
                    self.rank_from.insert(l.base, s);
                }
            }
        }
        for l in &links {
            let d = drop_of(l);
            if let Some(k) = l.axis {
                if !self.array_used_rank.contains(&l.base) {
                    // Neither is indexed: the base has the axis and one more.
                    self.arrays[l.base].rank = self.arrays[l.base].rank.max(k + 2);
                }
            }
            let (brank, bname) = (
                self.arrays[l.base].rank,
                self.arrays[l.base].name.to_string(),
            );
            if let Some(k) = l.axis {
                if brank < 2 || k >= brank {
                    self.err(
                        l.span,
                        format!("`index_axis({k}, …)` needs an array of {} or more dimensions, but `{bname}` has {brank}", (k + 1).max(2)),
                    );
                    continue;
                }
            }
            let want = brank - d;
            if self.array_used_rank.contains(&l.view) {
                let vrank = self.arrays[l.view].rank;
                if vrank != want {
                    let vname = self.arrays[l.view].name.to_string();
                    self.err(
                        l.span,
                        format!("`{vname}` is indexed with {vrank} component(s), but as a view of `{bname}` ({brank} dimension(s)) it has {want}"),
                    );
                }
            } else {
                self.arrays[l.view].rank = want;
                self.array_used_rank.insert(l.view);
            }
        }
        // Writes through views reach their bases (views come after their bases).
        for a in (0..self.arrays.len()).rev() {
            if let (true, Some(b)) = (self.arrays[a].written, self.arrays[a].base) {
                self.arrays[b].written = true;
                let arr = &self.arrays[a];
                let what = match arr.space {
                    Space::Global { writable: false } => {
                        Some("read-only: declare the root array `&mut Arr<…>`")
                    }
                    Space::Const => Some(
                        "constant memory, which kernels cannot write: pass a `&mut Arr<…>` instead",
                    ),
                    Space::Param {
                        writable: false, ..
                    } => Some("read-only: declare the parameter `&mut Arr<…>`"),
                    _ => None,
                };
                if let Some(what) = what {
                    let msg = format!(
                        "`{}` is written by the kernel, but it is a view of `{}`, which is {what}",
                        arr.name, self.arrays[b].name
                    );
                    self.err(arr.name.span(), msg);
                }
            }
        }
    }
}
