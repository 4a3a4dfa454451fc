//! In-kernel array views: `let m = a.reshape((4, 8));` (one extent may be `-1`),
//! `let w = a.view::<u32>();`, `let r = a.row(i);`, `let p = a.index_axis(k, i);` and
//! `let s = a.slice(s![i, lo..hi, ..;2]);` (NumPy's basic slicing).
//!
//! A view is a new array bound to a plain name, whose [`Array::base`] is the array it views and
//! whose [`Space`] is the space of the memory it reaches, so every rule that depends on the
//! space (atomics, read-only refusals, address qualifiers) applies to it unchanged. Writes
//! through a view mark its base (and the base's base) written at the end of parsing, and a write
//! through a view of a `&Arr` / `&ConstArr` is refused at the view's name.
//!
//! Ranks. A view's rank comes from how it is made: a `reshape` has the rank of its shape (0 to
//! 6); a `view::<U>()` has its base's; a `row` / `index_axis` one less; a `slice` one less per
//! index component. A parameter's rank is only known from use, and may be fixed after the view
//! is made (or only by indexing the view), so the ranks of views of parameters are reconciled
//! with their bases in [`Cx::reconcile_views`] once the body is parsed. A `reshape` needs no
//! rank of its base: it reads the base's whole shape, of the rank the base is indexed with
//! elsewhere (1 when it is only reshaped).
//!
//! What is checked where: shapes and indices are run-time values, so a size mismatch, a
//! non-contiguous base, a last axis whose bytes do not divide into the new item size, a
//! misaligned base, an index out of range and a zero slice step are faults at run time on
//! every target (the simulator's fault, the fault record on CUDA and OpenCL, naming kernel,
//! block and thread). A `reshape` of a shared or local array with literal dimensions to a
//! literal shape of another size is a compile error, and so is a slice with more components
//! than its array has dimensions.

use super::expr::mk;
use super::*;

const USIZE: Ty = Ty::Scalar(Scalar::Usize);

/// A deferred rank relation: `view` has `base`'s rank minus `dropped`, and `base` needs at
/// least `min_base` dimensions.
#[derive(Debug, Clone)]
pub(crate) struct RankLink {
    pub(crate) view: ArrayId,
    pub(crate) base: ArrayId,
    /// Axes the view drops (0 for `view::<U>()`, 1 for `index_axis`, the index components of
    /// a slice).
    pub(crate) dropped: usize,
    /// The fewest dimensions the base may have.
    pub(crate) min_base: usize,
    /// What the view is, for messages (`index_axis(1, …)`, `slice`).
    pub(crate) what: String,
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
        if !matches!(
            method.as_str(),
            "reshape" | "view" | "row" | "index_axis" | "slice"
        ) {
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
                        format!("`reshape` takes one shape: `a.reshape((rows, cols))` (0 to {MAX_RANK} `usize` extents, one of them may be `-1`)"),
                    );
                    return Some(());
                }
                let parts: Vec<&syn::Expr> = match &m.args[0] {
                    syn::Expr::Tuple(t) => t.elems.iter().collect(),
                    syn::Expr::Paren(p) => vec![&*p.expr],
                    e => vec![e],
                };
                if parts.len() > MAX_RANK {
                    self.err(
                        m.args[0].span(),
                        format!("kernel arrays have 0 to {MAX_RANK} dimensions"),
                    );
                    return Some(());
                }
                // NumPy's `-1`: the one extent inferred from the size.
                let mut infer = None;
                let mut dims = Vec::new();
                for (k, p) in parts.into_iter().enumerate() {
                    if is_minus_one(p) {
                        if infer.is_some() {
                            self.err(p.span(), "only one extent of a `reshape` can be `-1`");
                        }
                        infer = Some(k);
                        dims.push(mk(ExprKind::Int(0), USIZE, p.span()));
                    } else {
                        dims.push(self.usize_arg(p));
                    }
                }
                if infer.is_none() {
                    self.check_literal_reshape(&b, &dims, m.args[0].span());
                }
                let n = dims.len();
                (
                    ViewKind::Reshape(dims, infer),
                    b.elem.clone(),
                    n,
                    true,
                    None,
                )
            }
            "slice" => {
                let Some(comps) = self.slice_comps(m) else {
                    return Some(());
                };
                let n = comps.len();
                let dropped = comps
                    .iter()
                    .filter(|c| matches!(c, SliceComp::Index(_)))
                    .count();
                if base_fixed && n > b.rank {
                    self.err(
                        m.args.span(),
                        format!(
                            "too many indices: `{}` has {} dimension(s) and the slice has {n} component(s)",
                            b.name, b.rank
                        ),
                    );
                    return Some(());
                }
                let rank = if base_fixed {
                    b.rank - dropped
                } else {
                    n - dropped
                };
                (
                    ViewKind::Slice(comps),
                    b.elem.clone(),
                    rank,
                    base_fixed,
                    Some((dropped, n, "slice".to_string())),
                )
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
                if matches!(ty, Ty::Record(_) | Ty::Tuple(_) | Ty::Dim3 | Ty::Unit)
                    || matches!(b.elem, Ty::Record(_))
                {
                    self.err(
                        tspan,
                        "`view::<U>()` reinterprets numbers and complex numbers only (records have no portable layout): copy the fields instead",
                    );
                    return Some(());
                }
                (
                    ViewKind::Cast,
                    ty,
                    b.rank,
                    base_fixed,
                    Some((0, 0, "view".to_string())),
                )
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
                if base_fixed && axis >= b.rank {
                    self.err(
                        m.span(),
                        format!(
                            "`{method}` drops an axis; axis {axis} does not exist: `{}` has {} dimension(s)",
                            b.name, b.rank
                        ),
                    );
                    return Some(());
                }
                let rank = if base_fixed { b.rank - 1 } else { axis };
                (
                    ViewKind::Axis(axis, Box::new(i)),
                    b.elem.clone(),
                    rank,
                    base_fixed,
                    Some((1, axis + 1, format!("index_axis({axis}, …)"))),
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
        } else if let Some((dropped, min_base, what)) = link_axis {
            self.rank_links.push(RankLink {
                view: id,
                base,
                dropped,
                min_base,
                what,
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

    /// The components of `a.slice(s![…])`: integer indices and ranges `lo..hi`, `lo..`, `..hi`,
    /// `..`, each range with an optional step (`..;2`, `1..;-1`). `None` when refused.
    fn slice_comps(&mut self, m: &syn::ExprMethodCall) -> Option<Vec<SliceComp>> {
        let usage = "`slice` takes NumPy's indices through ndarray's `s!` macro: `a.slice(s![i, lo..hi, ..;2])`";
        let mac = match (m.args.len(), m.args.first()) {
            (1, Some(syn::Expr::Macro(mm)))
                if mm.mac.path.segments.last().is_some_and(|s| s.ident == "s") =>
            {
                &mm.mac
            }
            _ => {
                self.err(m.span(), usage);
                return None;
            }
        };
        if m.turbofish.is_some() {
            self.err(m.method.span(), "`slice` takes no type arguments");
        }
        let parsed = mac.parse_body_with(|input: syn::parse::ParseStream<'_>| {
            let mut items = Vec::new();
            while !input.is_empty() {
                let e: syn::Expr = input.parse()?;
                let step = if input.peek(syn::Token![;]) {
                    let _: syn::Token![;] = input.parse()?;
                    Some(input.parse::<syn::Expr>()?)
                } else {
                    None
                };
                items.push((e, step));
                if input.is_empty() {
                    break;
                }
                let _: syn::Token![,] = input.parse()?;
            }
            Ok(items)
        });
        let items = match parsed {
            Ok(items) => items,
            Err(e) => {
                self.push_err(e);
                return None;
            }
        };
        if items.len() > MAX_RANK {
            self.err(
                mac.span(),
                format!("kernel arrays have at most {MAX_RANK} dimensions"),
            );
            return None;
        }
        let mut comps = Vec::new();
        for (e, step) in &items {
            match e {
                syn::Expr::Range(r) => {
                    if matches!(r.limits, syn::RangeLimits::Closed(_)) {
                        self.err(r.span(), "slices are half-open, as in NumPy: `lo..hi`");
                    }
                    let start = r.start.as_deref().map(|x| self.slice_int(x));
                    let stop = r.end.as_deref().map(|x| self.slice_int(x));
                    let step = step.as_ref().map(|x| self.slice_int(x));
                    comps.push(SliceComp::Range { start, stop, step });
                }
                e => {
                    if let Some(st) = step {
                        self.err(st.span(), "a step belongs to a range: `lo..hi;step`");
                    }
                    comps.push(SliceComp::Index(self.slice_int(e)));
                }
            }
        }
        Some(comps)
    }

    /// An index, bound or step of a slice: an `isize` or `usize` expression (a literal is an
    /// `isize`, so `-1` counts from the end).
    fn slice_int(&mut self, p: &syn::Expr) -> Expr {
        let x = self.expr(p);
        if matches!(x.kind, ExprKind::Int(_)) {
            self.unify(&x.ty, &Ty::Scalar(Scalar::Isize), p.span(), "a slice index");
        }
        self.need(&x.ty, Need::SliceIndex, p.span(), "slice indices");
        x
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
        // Later views first: a view indexed with n components fixes its base.
        for l in links.iter().rev() {
            if self.array_used_rank.contains(&l.view) && !self.array_used_rank.contains(&l.base) {
                self.arrays[l.base].rank = self.arrays[l.view].rank + l.dropped;
                self.array_used_rank.insert(l.base);
                if let Some(s) = self.rank_from.get(&l.view).copied() {
                    self.rank_from.insert(l.base, s);
                }
            }
        }
        for l in &links {
            if !self.array_used_rank.contains(&l.base) {
                // Neither is indexed: the base has what the view needs.
                self.arrays[l.base].rank = self.arrays[l.base].rank.max(l.min_base);
            }
            let (brank, bname) = (
                self.arrays[l.base].rank,
                self.arrays[l.base].name.to_string(),
            );
            if brank < l.min_base {
                self.err(
                    l.span,
                    format!(
                        "`{}` needs an array of {} or more dimensions, but `{bname}` has {brank}",
                        l.what, l.min_base
                    ),
                );
                continue;
            }
            let want = brank - l.dropped;
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

/// Whether `e` is the literal `-1` (a `reshape`'s inferred extent).
fn is_minus_one(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => matches!(
            &*u.expr,
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) if i.base10_digits() == "1"
        ),
        syn::Expr::Paren(p) => is_minus_one(&p.expr),
        _ => false,
    }
}
