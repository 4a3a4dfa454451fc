//! The names and substitutions the per-thread emitter ([`R`](crate::lower::emit::rust::R)) uses inside a block body: which
//! identifier a local, an array, an own-index window or a value loaded from a halo window has,
//! whether a local is declared again in a region's prologue, what a thread query becomes at block
//! level or inside a region, which bounds guards a region's windows make true, and which element
//! reads a lane loop hoisted (`lanes`).

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};

use super::plan::{Own, Plan, Reach, Storage};
use crate::lower::emit::rust::{LetKind, Wil};
use crate::lower::ir::*;

/// The names and substitutions of one context (block level, or one region with or without
/// own-index windows).
pub(crate) struct Names<'p, 'f> {
    plan: &'p Plan<'f>,
    in_region: bool,
    /// The region's prologue: recomputed locals are declared, everything else skipped.
    prologue: bool,
    /// Arrays read or stored through the block's own-index window in this region.
    windows: HashSet<ArrayId>,
    /// The region's body runs for the interior work-items of `each_split` (`__in`), whose 2-d
    /// windows are reached through that token.
    inside: bool,
    /// In the interior, the margin of each halo-windowed input: every work-item's own `(y, x)`
    /// lies at least that far inside it.
    margins: Vec<(ArrayId, usize)>,
    /// Element reads a lane loop hoisted (`lanes`), by address, and the locals holding them.
    hoisted: Vec<(*const Expr, Ident)>,
}

impl<'p, 'f> Names<'p, 'f> {
    /// The names of a context: block level (`in_region` false) or a region reading and storing
    /// `windows` through the block's own-index window.
    pub(super) fn new(plan: &'p Plan<'f>, in_region: bool, windows: HashSet<ArrayId>) -> Self {
        Names {
            plan,
            in_region,
            prologue: false,
            windows,
            inside: false,
            margins: Vec::new(),
            hoisted: Vec::new(),
        }
    }

    /// The names of a lane loop's body, where each of `hoisted` (an expression of the kernel,
    /// by identity) is the local paired with it.
    pub(super) fn hoisting(mut self, hoisted: &[(&Expr, Ident)]) -> Self {
        self.hoisted = hoisted
            .iter()
            .map(|(e, n)| (*e as *const Expr, n.clone()))
            .collect();
        self
    }

    /// The names of the interior body of a region split by its halo windows of `margins`
    /// (array and margin).
    pub(super) fn inside(mut self, margins: Vec<(ArrayId, usize)>) -> Self {
        self.inside = true;
        self.margins = margins;
        self
    }

    /// The margin of windowed array `a` in this body (0 unless a halo in the interior).
    fn margin(&self, a: ArrayId) -> usize {
        self.margins.iter().find(|m| m.0 == a).map_or(0, |m| m.1)
    }

    /// Whether windowed array `a` bounds own-index component `o` along `axis`.
    fn bounds(&self, a: ArrayId, axis: usize, o: Own) -> bool {
        self.windows.contains(&a)
            && matches!(
                (self.plan.f.arrays[a].rank, axis, o),
                (1, 0, Own::Linear) | (2, 0, Own::Y) | (2, 1, Own::X)
            )
    }

    /// The least value own-index component `o` takes in this body: the largest margin of a
    /// halo that bounds it.
    fn least(&self, o: Own) -> i128 {
        self.margins
            .iter()
            .filter(|&&(a, _)| {
                let axis = if o == Own::X { 1 } else { 0 };
                self.bounds(a, axis, o)
            })
            .map(|m| m.1 as i128)
            .max()
            .unwrap_or(0)
    }

    /// A comparison operand as a linear term.
    fn term(&self, e: &Expr) -> Option<Term> {
        if let Some((o, c)) = self.plan.own_offset(e) {
            // `i - c` must not wrap: `i` is at least its least value here.
            return (c >= 0 || (c as i128) + self.least(o) >= 0).then_some(Term::Own(o, c as i128));
        }
        if let ExprKind::Int(v) = e.kind {
            return Some(Term::Const(v));
        }
        if let Some((a, k)) = self.plan.extent(e) {
            return Some(Term::Extent(a, k, 0));
        }
        let ExprKind::Binary(BinOp::Add, x, y, _) = &e.kind else {
            return None;
        };
        match (&x.kind, &y.kind) {
            (_, ExprKind::Int(c)) | (ExprKind::Int(c), _) if *c >= 0 => {
                let n = if matches!(x.kind, ExprKind::Int(_)) {
                    y
                } else {
                    x
                };
                self.plan.extent(n).map(|(a, k)| Term::Extent(a, k, *c))
            }
            _ => None,
        }
    }

    /// Bounds `(lo, hi)` of `x - y` in this body, where known.
    fn difference(&self, x: &Expr, y: &Expr) -> Option<(Option<i128>, Option<i128>)> {
        let axis = |o: Own| if o == Own::X { 1 } else { 0 };
        Some(match (self.term(x)?, self.term(y)?) {
            (Term::Own(o, c1), Term::Const(c2)) => (Some(self.least(o) + c1 - c2), None),
            (Term::Const(c1), Term::Own(o, c2)) => (None, Some(c1 - c2 - self.least(o))),
            // `i <= extent - 1 - margin` for a windowed array that bounds `i`.
            (Term::Own(o, c1), Term::Extent(a, k, c2)) if k == axis(o) && self.bounds(a, k, o) => {
                (None, Some(c1 - c2 - 1 - self.margin(a) as i128))
            }
            (Term::Extent(a, k, c1), Term::Own(o, c2)) if k == axis(o) && self.bounds(a, k, o) => {
                (Some(c1 - c2 + 1 + self.margin(a) as i128), None)
            }
            _ => return None,
        })
    }

    /// Whether statements printed from now on belong to the region's prologue.
    pub(super) fn set_prologue(&mut self, prologue: bool) {
        self.prologue = prologue;
    }
}

pub(crate) fn local_ident(f: &Func, l: LocalId) -> Ident {
    Ident::new(&f.locals[l].c_name, Span::call_site())
}

pub(crate) fn array_ident(f: &Func, a: ArrayId) -> Ident {
    Ident::new(&f.arrays[a].c_name, Span::call_site())
}

pub(super) fn window_ident(f: &Func, a: ArrayId) -> Ident {
    format_ident!("__win_{}", f.arrays[a].c_name)
}

/// The local that holds the element of 2-d input `a` at offset `(dy, dx)` from the own index,
/// loaded from its halo window at the top of a work-item's turn in the region.
pub(super) fn halo_ident(f: &Func, a: ArrayId, dy: isize, dx: isize) -> Ident {
    let sign = |d: isize| {
        if d < 0 {
            format!("m{}", d.unsigned_abs())
        } else {
            format!("p{d}")
        }
    };
    format_ident!("__h_{}_{}_{}", f.arrays[a].c_name, sign(dy), sign(dx))
}

impl Wil for Names<'_, '_> {
    fn local(&self, l: LocalId) -> Ident {
        local_ident(self.plan.f, l)
    }

    fn let_kind(&self, l: LocalId) -> LetKind {
        match (self.plan.storage[l], self.prologue) {
            (Storage::Recompute, true) => LetKind::Declare,
            (_, true) | (Storage::Recompute, false) => LetKind::Skip,
            (Storage::Context, false) => LetKind::Assign,
            _ => LetKind::Declare,
        }
    }

    fn array(&self, a: ArrayId) -> Ident {
        // Block code has no work-item's local array, only the set of them, which answers for
        // their (common) shape.
        if !self.in_region && self.plan.reach[a] == Reach::Local {
            return format_ident!("__loc_{}", self.plan.f.arrays[a].c_name);
        }
        array_ident(self.plan.f, a)
    }

    fn thread_query(&self, q: ThreadQuery, span: Span) -> TokenStream {
        let axis = |n: u8| {
            let ax = Ident::new(["x", "y", "z"][n as usize], span);
            quote_spanned!(span=> (__bidx.#ax as usize * __bdim.#ax as usize + __tid.#ax as usize))
        };
        let size = |n: u8| {
            let ax = Ident::new(["x", "y", "z"][n as usize], span);
            quote_spanned!(span=> (__gdim.#ax as usize * __bdim.#ax as usize))
        };
        match q {
            ThreadQuery::ThreadIdx => quote_spanned!(span=> __tid),
            ThreadQuery::BlockIdx => quote_spanned!(span=> __bidx),
            ThreadQuery::BlockDim => quote_spanned!(span=> __bdim),
            ThreadQuery::GridDim => quote_spanned!(span=> __gdim),
            ThreadQuery::Grid(1) => axis(0),
            ThreadQuery::Grid(2) => {
                let (x, y) = (axis(0), axis(1));
                quote_spanned!(span=> (#x, #y))
            }
            ThreadQuery::Grid(_) => {
                let (x, y, z) = (axis(0), axis(1), axis(2));
                quote_spanned!(span=> (#x, #y, #z))
            }
            ThreadQuery::GridSize(1) => size(0),
            ThreadQuery::GridSize(2) => {
                let (x, y) = (size(0), size(1));
                quote_spanned!(span=> (#x, #y))
            }
            ThreadQuery::GridSize(_) => {
                let (x, y, z) = (size(0), size(1), size(2));
                quote_spanned!(span=> (#x, #y, #z))
            }
            ThreadQuery::WarpSize => quote_spanned!(span=> 32u32),
            ThreadQuery::LaneId => quote_spanned!(span=> (__w % 32u32)),
        }
    }

    fn in_region(&self) -> bool {
        self.in_region
    }

    fn window_get(&self, a: ArrayId, idx: &[Expr]) -> Option<TokenStream> {
        if !self.windows.contains(&a) {
            return None;
        }
        let f = self.plan.f;
        let w = window_ident(f, a);
        if self.plan.reach[a] == Reach::OwnOut {
            // The work-item's own element (the plan admits no other index).
            return Some(if f.arrays[a].rank == 1 {
                quote!(#w.at(__w))
            } else if self.inside {
                quote!(#w.get_inside(__in))
            } else {
                quote!(#w.get(__tid))
            });
        }
        if f.arrays[a].rank == 2 {
            // A halo window: the value loaded at the top of the work-item's turn.
            let (y, x) = (
                self.plan.own_offset(&idx[0])?,
                self.plan.own_offset(&idx[1])?,
            );
            let h = halo_ident(f, a, y.1, x.1);
            return Some(quote!(#h));
        }
        Some(quote!(#w.at(__w)))
    }

    fn window_set(&self, a: ArrayId, value: TokenStream) -> Option<TokenStream> {
        self.windows.contains(&a).then(|| {
            let w = window_ident(self.plan.f, a);
            if self.plan.f.arrays[a].rank == 2 {
                if self.inside {
                    quote!(#w.set_inside(__in, #value))
                } else {
                    quote!(#w.set(__tid, #value))
                }
            } else {
                quote!(#w.set(__w, #value))
            }
        })
    }

    fn known(&self, e: &Expr) -> Option<bool> {
        if self.windows.is_empty() {
            return None;
        }
        let ExprKind::Binary(op, x, y, _) = &e.kind else {
            return None;
        };
        // A full block's own index lies below every extent of a windowed array (`i < a.len()`,
        // `y < a.shape()[0]`, `x < cols`); in a halo's interior it lies `margin` inside the
        // array (`x == 0` and `x + 1 == cols` are false for a margin of 1).
        let (lo, hi) = self.difference(x, y)?;
        let (pos, nonneg) = (lo.is_some_and(|l| l > 0), lo.is_some_and(|l| l >= 0));
        let (neg, nonpos) = (hi.is_some_and(|h| h < 0), hi.is_some_and(|h| h <= 0));
        match op {
            BinOp::Lt if neg || nonneg => Some(neg),
            BinOp::Le if nonpos || pos => Some(nonpos),
            BinOp::Gt if pos || nonpos => Some(pos),
            BinOp::Ge if nonneg || neg => Some(nonneg),
            BinOp::Eq if pos || neg => Some(false),
            BinOp::Ne if pos || neg => Some(true),
            _ => None,
        }
    }

    fn array_decl(&self, a: ArrayId) -> TokenStream {
        // Shared arrays are declared once at the top; a local array is zeroed where declared.
        match self.plan.reach[a] {
            Reach::Local => {
                let n = array_ident(self.plan.f, a);
                quote!(#n.zero();)
            }
            _ => quote!(),
        }
    }

    fn replaced(&self, e: &Expr) -> Option<TokenStream> {
        let at = e as *const Expr;
        self.hoisted
            .iter()
            .find(|h| std::ptr::eq(h.0, at))
            .map(|h| h.1.to_token_stream())
    }

    fn view_base(&self, a: ArrayId) -> Option<TokenStream> {
        // A view of block memory starts from the block array's view of the same elements.
        let n = array_ident(self.plan.f, a);
        match self.plan.reach[a] {
            Reach::Shared => Some(quote!(#n.shared_view())),
            Reach::Local => Some(quote!(#n.local_view())),
            _ => None,
        }
    }
}

/// A comparison operand the windows bound: an own-index component plus a constant, a constant,
/// or a windowed array's extent plus a non-negative constant.
#[derive(Clone, Copy)]
enum Term {
    Own(Own, i128),
    Const(i128),
    Extent(ArrayId, usize, i128),
}

pub(crate) fn context_ident(f: &Func, l: LocalId) -> Ident {
    format_ident!("__ctx_{}", f.locals[l].c_name)
}
