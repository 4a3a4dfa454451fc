//! The names and substitutions the per-thread emitter ([`R`](crate::lower::emit::rust::R)) uses inside a block body: which
//! identifier a local, an array, an own-index window or a value loaded from a halo window has,
//! whether a local is declared again in a region's prologue, what a thread query becomes at block
//! level or inside a region, and which bounds guards a region's windows make true.

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

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
        }
    }

    /// The names of the interior body of a region split by its halo windows.
    pub(super) fn inside(mut self) -> Self {
        self.inside = true;
        self
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
        if f.arrays[a].rank == 2 {
            // A halo window: the value loaded at the top of the work-item's turn.
            let (y, x) = (self.plan.own_offset(&idx[0])?, self.plan.own_offset(&idx[1])?);
            let h = halo_ident(f, a, y.1, x.1);
            return Some(quote!(#h));
        }
        let w = window_ident(f, a);
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
        // In a full block, the own index is below every extent of a windowed array: `i` below
        // a 1-d array's length, `y` below a 2-d array's rows, `x` below its columns.
        let below = |i: &Expr, n: &Expr| {
            let (Some(own), Some((a, axis))) = (self.plan.own_of(i), self.plan.extent(n)) else {
                return false;
            };
            self.windows.contains(&a)
                && matches!(
                    (self.plan.f.arrays[a].rank, axis, own),
                    (1, 0, Own::Linear) | (2, 0, Own::Y) | (2, 1, Own::X)
                )
        };
        if below(x, y) {
            return match op {
                BinOp::Lt => Some(true),
                BinOp::Ge => Some(false),
                _ => None,
            };
        }
        if below(y, x) {
            return match op {
                BinOp::Gt => Some(true),
                BinOp::Le => Some(false),
                _ => None,
            };
        }
        None
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

pub(crate) fn context_ident(f: &Func, l: LocalId) -> Ident {
    format_ident!("__ctx_{}", f.locals[l].c_name)
}
