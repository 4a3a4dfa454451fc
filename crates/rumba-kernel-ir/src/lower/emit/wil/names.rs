//! The names and substitutions the per-thread emitter ([`R`](crate::lower::emit::rust::R)) uses inside a block body: which
//! identifier a local, an array or an own-index window has, whether a local is declared again in a
//! region's prologue, and what a thread query becomes at block level or inside a region.

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::plan::{Plan, Reach, Storage};
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
        }
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

    fn window_get(&self, a: ArrayId, _idx: &[Expr]) -> Option<TokenStream> {
        self.windows.contains(&a).then(|| {
            let w = window_ident(self.plan.f, a);
            quote!(#w.at(__w))
        })
    }

    fn window_set(&self, a: ArrayId, value: TokenStream) -> Option<TokenStream> {
        self.windows.contains(&a).then(|| {
            let w = window_ident(self.plan.f, a);
            quote!(#w.set(__w, #value))
        })
    }

    fn known(&self, e: &Expr) -> Option<bool> {
        if self.windows.is_empty() {
            return None;
        }
        let ExprKind::Binary(op, x, y, _) = &e.kind else {
            return None;
        };
        let bound = |b: &Expr| match &b.kind {
            ExprKind::Len(a) | ExprKind::Size(a) | ExprKind::Shape(a, 0) => {
                self.windows.contains(a)
            }
            _ => false,
        };
        // In a full block, the own index is below the length of every windowed array.
        if self.plan.is_own_index(x) && bound(y) {
            return match op {
                BinOp::Lt => Some(true),
                BinOp::Ge => Some(false),
                _ => None,
            };
        }
        if bound(x) && self.plan.is_own_index(y) {
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
