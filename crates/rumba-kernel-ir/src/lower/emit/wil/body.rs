//! The block body of a planned kernel: lifted statements as Rust run once per block, runs of
//! per-work-item statements as regions (`__blk.each(|__w, __tid| …)`), barriers and decisions
//! between them. Per-work-item statements are printed by the per-thread emitter ([`R`]) with the
//! hooks of [`Names`].

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::names::{Names, array_ident, context_ident, halo_ident, local_ident, window_ident};
use super::plan::{Own, Plan, Reach, Storage, id, locals_of, own_exprs};
use super::xrange::Narrow;
use crate::lower::emit::rust::{R, for_range};
use crate::lower::ir::*;

/// One item of a region: a statement, or a per-work-item addition the planner made (a
/// decision's value, a barrier's predicate).
pub(super) enum Item<'f> {
    Stmt(&'f Stmt),
    /// `array.set(w, value)`: a warp operation's operand (`true`: a predicate, stored as 0/1).
    Operand(Ident, &'f Expr, bool),
    /// `decision.see(w, value)`.
    See(Ident, Vec<&'f Expr>),
    /// `trues += (pred) as u32`.
    Count(Ident, &'f Expr),
}

/// The emitter of one body.
pub(crate) struct Body<'p, 'f> {
    pub(crate) plan: &'p Plan<'f>,
    pub(crate) k: &'p syn::Path,
    counter: Cell<usize>,
    /// `const` site items, emitted at the top of the body.
    pub(crate) sites: RefCell<Vec<TokenStream>>,
    /// Block memory the steps need (warp operands), declared at the top of the body.
    pub(crate) top: RefCell<Vec<TokenStream>>,
}

impl<'p, 'f> Body<'p, 'f> {
    pub(crate) fn new(plan: &'p Plan<'f>, k: &'p syn::Path) -> Self {
        Body {
            plan,
            k,
            counter: Cell::new(0),
            sites: RefCell::new(Vec::new()),
            top: RefCell::new(Vec::new()),
        }
    }

    pub(super) fn fresh(&self, what: &str) -> Ident {
        let n = self.counter.get();
        self.counter.set(n + 1);
        format_ident!("__{}{}", what, n)
    }

    pub(super) fn names(&self, in_region: bool, windows: HashSet<ArrayId>) -> Names<'p, 'f> {
        Names::new(self.plan, in_region, windows)
    }

    pub(super) fn with_r<T>(&self, names: &Names<'_, '_>, g: impl FnOnce(&R<'_>) -> T) -> T {
        let r = R {
            f: self.plan.f,
            k: self.k,
            thread: Ident::new("__rumba_thread", Span::call_site()),
            wil: Some(names),
        };
        g(&r)
    }

    /// An expression evaluated once per block.
    pub(super) fn block_expr(&self, e: &Expr) -> TokenStream {
        let names = self.names(false, HashSet::new());
        self.with_r(&names, |r| r.expr(e))
    }

    /// A statement run once per block (a block-scalar `let` or assignment).
    fn block_stmt(&self, s: &Stmt) -> TokenStream {
        let names = self.names(false, HashSet::new());
        self.with_r(&names, |r| r.stmt(s))
    }

    /// A lifted block: runs of per-work-item statements become regions.
    pub(crate) fn block(&self, b: &'f Block) -> TokenStream {
        let mut out = TokenStream::new();
        let mut pending: Vec<Item<'f>> = Vec::new();
        for s in &b.stmts {
            if !self.plan.is_lifted(s) {
                pending.push(Item::Stmt(s));
                continue;
            }
            out.extend(self.lifted(s, &mut pending));
        }
        out.extend(self.flush(&mut pending));
        out
    }

    /// A lifted statement; `pending` is the open region before it (flushed here, possibly with
    /// this statement's per-work-item part appended).
    fn lifted(&self, s: &'f Stmt, pending: &mut Vec<Item<'f>>) -> TokenStream {
        let k = self.k;
        let wil = quote!(#k::kernel::wil);
        match s {
            // A barrier, and a barrier whose value a (fresh) local takes.
            Stmt::Expr(
                e @ Expr {
                    kind: ExprKind::Sync(..),
                    ..
                },
            ) => self.barrier(e, None, pending),
            Stmt::Let {
                local,
                init:
                    Some(
                        e @ Expr {
                            kind: ExprKind::Sync(..),
                            ..
                        },
                    ),
                ..
            } => self.barrier(e, Some(*local), pending),
            // A warp operation, and one whose value a (fresh) local takes.
            Stmt::Expr(
                e @ Expr {
                    kind: ExprKind::Warp(..),
                    ..
                },
            ) => self.warp(e, None, pending),
            Stmt::Let {
                local,
                init:
                    Some(
                        e @ Expr {
                            kind: ExprKind::Warp(..),
                            ..
                        },
                    ),
                ..
            } => self.warp(e, Some(*local), pending),
            Stmt::Let { .. } | Stmt::LetTuple { .. } | Stmt::Assign { .. } => {
                let mut out = self.flush(pending);
                out.extend(self.block_stmt(s));
                out
            }
            Stmt::Break(span) => {
                let mut out = self.flush(pending);
                out.extend(quote_spanned!(*span=> break;));
                out
            }
            Stmt::Continue(span) => {
                let mut out = self.flush(pending);
                out.extend(quote_spanned!(*span=> continue;));
                out
            }
            Stmt::Block(b) => {
                let mut out = self.flush(pending);
                let inner = self.block(b);
                out.extend(quote!({ #inner }));
                out
            }
            Stmt::Loop { body, span } => {
                let mut out = self.flush(pending);
                let inner = self.block(body);
                out.extend(quote_spanned!(*span=> loop { #inner }));
                out
            }
            Stmt::If {
                cond,
                then,
                els,
                span,
            } => {
                let (mut out, c) = self.decide(cond, "the condition of this `if`", *span, pending);
                let a = self.block(then);
                let b = els.as_ref().map(|b| {
                    let b = self.block(b);
                    quote!(else { #b })
                });
                out.extend(quote_spanned!(*span=> if #c { #a } #b));
                out
            }
            Stmt::While { cond, body, span } => {
                let mut out = self.flush(pending);
                let inner = self.block(body);
                if self.plan.is_block_expr(cond) {
                    let c = self.block_expr(cond);
                    out.extend(quote_spanned!(*span=> while #c { #inner }));
                } else {
                    let mut head = Vec::new();
                    let (decide, c) =
                        self.decide(cond, "the condition of this `while`", *span, &mut head);
                    out.extend(quote_spanned!(*span=> loop {
                        #decide
                        if !#c { break; }
                        #inner
                    }));
                }
                out
            }
            Stmt::For {
                var,
                start,
                end,
                inclusive,
                step,
                body,
                span,
            } => {
                let v = local_ident(self.plan.f, *var);
                let uniform = self.plan.is_block_expr(start)
                    && self.plan.is_block_expr(end)
                    && step
                        .as_ref()
                        .is_none_or(|(x, _)| self.plan.is_block_expr(x));
                let (mut out, (s, e, kk)) = if uniform {
                    let out = self.flush(pending);
                    (
                        out,
                        (
                            self.block_expr(start),
                            self.block_expr(end),
                            step.as_ref().map(|(x, _)| self.block_expr(x)),
                        ),
                    )
                } else {
                    // The bounds, decided per work-item and checked equal.
                    let d = self.fresh("bounds");
                    let mut parts: Vec<&Expr> = vec![start, end];
                    parts.extend(step.as_ref().map(|(x, _)| x));
                    let tys: Vec<TokenStream> = parts
                        .iter()
                        .map(|x| {
                            let names = self.names(false, HashSet::new());
                            self.with_r(&names, |r| r.ty(&x.ty))
                        })
                        .collect();
                    let site = self.decision_site("the bounds of this `for`", *span);
                    pending.push(Item::See(d.clone(), parts.clone()));
                    let mut out = quote!(let mut #d = #wil::Decision::<(#(#tys,)*)>::new(););
                    out.extend(self.flush(pending));
                    let names: Vec<Ident> = (0..parts.len())
                        .map(|i| format_ident!("{}_{}", d, i))
                        .collect();
                    out.extend(quote_spanned!(*span=>
                        let (#(#names,)*) = match __blk.uniform(#d, &#site) {
                            ::core::option::Option::Some(v) => v,
                            ::core::option::Option::None => return,
                        };
                    ));
                    let (a, b) = (&names[0], &names[1]);
                    (
                        out,
                        (quote!(#a), quote!(#b), names.get(2).map(|n| quote!(#n))),
                    )
                };
                let it = for_range(s, e, *inclusive, kk);
                let inner = self.block(body);
                out.extend(quote_spanned!(*span=> for #v in #it { #inner }));
                out
            }
            // Leaves are lifted only through what they contain: none is left.
            _ => {
                pending.push(Item::Stmt(s));
                TokenStream::new()
            }
        }
    }

    /// A `DecisionSite` const for `what` at `span`.
    fn decision_site(&self, what: &str, span: Span) -> Ident {
        let k = self.k;
        let n = self.fresh("DS");
        self.sites.borrow_mut().push(quote_spanned!(span=>
            const #n: #k::kernel::wil::DecisionSite =
                #k::kernel::wil::DecisionSite::new(#what, ::core::file!(), ::core::line!(), ::core::column!());
        ));
        n
    }

    /// A condition taken once per block: directly when it is block-uniform, else gathered in the
    /// pending region and checked equal across work-items. Returns the code up to the decision
    /// and the decided value's tokens.
    fn decide(
        &self,
        cond: &'f Expr,
        what: &str,
        span: Span,
        pending: &mut Vec<Item<'f>>,
    ) -> (TokenStream, TokenStream) {
        if self.plan.is_block_expr(cond) {
            let out = self.flush(pending);
            return (out, self.block_expr(cond));
        }
        let k = self.k;
        let d = self.fresh("decision");
        let c = self.fresh("taken");
        let site = self.decision_site(what, span);
        pending.push(Item::See(d.clone(), vec![cond]));
        let mut out = quote!(let mut #d = #k::kernel::wil::Decision::<bool>::new(););
        out.extend(self.flush(pending));
        out.extend(quote_spanned!(span=>
            let #c: bool = match __blk.uniform(#d, &#site) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
        ));
        (out, quote!(#c))
    }

    /// A barrier (`syncthreads*`), its predicate counted in the pending region; `into` is the
    /// fresh local that takes its value.
    fn barrier(
        &self,
        e: &'f Expr,
        into: Option<LocalId>,
        pending: &mut Vec<Item<'f>>,
    ) -> TokenStream {
        let k = self.k;
        let ExprKind::Sync(kind, pred) = &e.kind else {
            return TokenStream::new();
        };
        let span = e.span;
        let kind_tokens = match kind {
            SyncKind::Plain => quote!(Sync),
            SyncKind::Count => quote!(Count),
            SyncKind::And => quote!(And),
            SyncKind::Or => quote!(Or),
        };
        let site = self.fresh("BS");
        self.sites.borrow_mut().push(quote_spanned!(span=>
            const #site: #k::kernel::wil::BarrierSite = #k::kernel::wil::BarrierSite::new(
                #k::kernel::wil::BarrierKind::#kind_tokens, ::core::file!(), ::core::line!(), ::core::column!());
        ));
        let trues = self.fresh("trues");
        let mut out = TokenStream::new();
        match pred {
            Some(p) => {
                out.extend(quote!(let mut #trues: u32 = 0;));
                pending.push(Item::Count(trues.clone(), p));
            }
            None => out.extend(quote!(let #trues: u32 = 0;)),
        }
        out.extend(self.flush(pending));
        let value = quote_spanned!(span=> match __blk.barrier(&#site, #trues) {
            ::core::option::Option::Some(v) => v,
            ::core::option::Option::None => return,
        });
        match into {
            Some(l) => {
                let n = local_ident(self.plan.f, l);
                out.extend(quote_spanned!(span=> let #n: i32 = #value;));
            }
            None => out.extend(quote_spanned!(span=> let _ = #value;)),
        }
        out
    }

    /// Emits the pending items as one region (nothing when there are none).
    pub(super) fn flush(&self, pending: &mut Vec<Item<'f>>) -> TokenStream {
        if pending.is_empty() {
            return TokenStream::new();
        }
        let items = std::mem::take(pending);
        let f = self.plan.f;
        // Declarations that emit nothing in a region (recomputed locals, shared arrays) need none.
        if items.iter().all(|it| self.is_noop(it)) {
            return TokenStream::new();
        }
        // What the region reads and writes.
        let mut exprs: Vec<&Expr> = Vec::new();
        let mut stmts: Vec<&Stmt> = Vec::new();
        for it in &items {
            match it {
                Item::Stmt(s) => collect(s, &mut stmts, &mut exprs),
                Item::See(_, v) => exprs.extend(v.iter().copied()),
                Item::Count(_, p) | Item::Operand(_, p, _) => exprs.push(p),
            }
        }
        let mut used: Vec<LocalId> = Vec::new();
        let mut assigned: Vec<LocalId> = Vec::new();
        for e in &exprs {
            locals_of(e, &mut used);
        }
        for s in &stmts {
            match s {
                Stmt::Let { local, .. } => assigned.push(*local),
                Stmt::LetTuple { locals, .. } => assigned.extend(locals),
                Stmt::Assign { place, .. } => assigned.extend(place.local()),
                _ => {}
            }
        }
        let returns = stmts.iter().any(|s| matches!(s, Stmt::Return(..)));
        let (mut arrays, remake) = self.region_arrays(&stmts, &exprs, &mut used);
        // Prologue: recomputed locals (with what they depend on), context loads, local arrays,
        // views.
        let needed = self.with_recomputed(used.iter().chain(&assigned).copied().collect());
        let mut prologue = self.recomputed_prologue(&needed);
        // … and the context loads (neither depends on the other).
        for &l in &needed {
            if self.plan.storage[l] == Storage::Context {
                let n = local_ident(f, l);
                let ty = self.with_r(&self.names(true, HashSet::new()), |r| r.ty(&f.locals[l].ty));
                let get = context_get(f, l, quote!(__w as usize));
                prologue.extend(quote!(let mut #n: #ty = #get;));
            }
        }
        arrays.sort_unstable();
        arrays.dedup();
        for &a in &arrays {
            if self.plan.reach[a] == Reach::Local {
                let (n, l) = (
                    array_ident(f, a),
                    format_ident!("__loc_{}", f.arrays[a].c_name),
                );
                prologue.extend(quote!(let #n = #l.of(__w);));
            }
        }
        prologue.extend(self.remade_views(&remake));
        let mut epilogue = TokenStream::new();
        assigned.sort_unstable();
        assigned.dedup();
        for &l in &assigned {
            if self.plan.storage[l] == Storage::Context {
                let n = local_ident(f, l);
                epilogue.extend(context_set(f, l, quote!(__w as usize), quote!(#n)));
            }
        }
        // Own-index windows: arrays every access of which in this region is at the own index
        // (for 2-d inputs: at constant offsets from it, read from a halo window).
        let mut halos: Vec<(ArrayId, isize, isize)> = Vec::new();
        let windows: HashSet<ArrayId> = arrays
            .iter()
            .copied()
            .filter(|&a| self.windowable(a, &exprs, &mut halos))
            .collect();
        halos.sort_unstable();
        halos.dedup();
        let body = |names: &Names<'_, '_>| -> TokenStream {
            self.with_r(names, |r| {
                let mut t = TokenStream::new();
                for it in &items {
                    match it {
                        Item::Stmt(s) => t.extend(r.stmt(s)),
                        Item::See(d, v) => {
                            let vals: Vec<TokenStream> = v.iter().map(|e| r.expr(e)).collect();
                            if vals.len() == 1 {
                                let v = &vals[0];
                                t.extend(quote!(#d.see(__w, #v);));
                            } else {
                                t.extend(quote!(#d.see(__w, (#(#vals,)*));));
                            }
                        }
                        Item::Operand(c, e, pred) => {
                            let v = r.expr(e);
                            let v = match (pred, e.ty.scalar()) {
                                (false, _) => v,
                                (true, Some(s)) if s.is_int() => quote!(((#v) != 0) as u8),
                                (true, _) => quote!((#v) as u8),
                            };
                            t.extend(quote!(#c.set(__w as usize, #v);));
                        }
                        Item::Count(c, p) => {
                            let v = r.expr(p);
                            let truth = match p.ty.scalar() {
                                Some(s) if s.is_int() => quote!(((#v) != 0) as u32),
                                _ => quote!((#v) as u32),
                            };
                            t.extend(quote!(#c += #truth;));
                        }
                    }
                }
                t
            })
        };
        let k = self.k;
        // Only the work-items whose x index or lane can meet the region's one condition
        // (`xrange`).
        let (each, range) = match self.narrow(&items) {
            Some(Narrow::X(lo, hi)) => (quote!(each_x), quote!(#lo, #hi,)),
            Some(Narrow::Lane(lane)) => (quote!(each_lane), quote!(#lane,)),
            None => (quote!(each), TokenStream::new()),
        };
        let closure = |loads: TokenStream, inner: TokenStream| {
            quote!(#[inline(always)] |__w: u32, __tid: #k::kernel::Dim3| {
                #loads
                #prologue
                #inner
                #epilogue
            })
        };
        let checked = closure(TokenStream::new(), body(&self.names(true, HashSet::new())));
        // A loop whose work-items can run side by side, a group of lanes at a time (`lanes`).
        if windows.is_empty() {
            if let Some(lane) = self.lane_loop(&items) {
                return self.lane_region(&lane, checked);
            }
        }
        let mut out = if windows.is_empty() {
            quote!(__blk.#each(#range #checked);)
        } else {
            let mut ws: Vec<ArrayId> = windows.iter().copied().collect();
            ws.sort_unstable();
            let pats = ws.iter().map(|&a| {
                let w = window_ident(f, a);
                quote!(::core::option::Option::Some(#w))
            });
            let makes = ws.iter().map(|&a| match self.plan.reach[a] {
                Reach::OwnOut => {
                    let o = format_ident!("__out_{}", f.arrays[a].c_name);
                    quote!(#o.own_window(__blk))
                }
                _ if f.arrays[a].rank == 2 => {
                    let n = array_ident(f, a);
                    let m = usize_lit(margin_of(&halos, a));
                    quote!(#n.halo_window::<#m, _>(__blk))
                }
                _ => {
                    let n = array_ident(f, a);
                    quote!(#n.own_window(__blk))
                }
            });
            // A halo window's reads cannot fault and its input is frozen: each is loaded once,
            // before the statements (so that a branch between them need not guard a load).
            let loads: TokenStream = halos
                .iter()
                .map(|&(a, dy, dx)| {
                    let (w, h) = (window_ident(f, a), halo_ident(f, a, dy, dx));
                    let (dy, dx) = (isize_lit(dy), isize_lit(dx));
                    quote!(let #h = #w.at::<#dy, #dx>(__in);)
                })
                .collect();
            // With halo windows, only the block's interior (where every halo read is in
            // bounds) takes the fast body, the rest the checked one.
            let mut halo_arrays: Vec<ArrayId> = halos.iter().map(|h| h.0).collect();
            halo_arrays.dedup();
            let run = match halo_arrays.split_first() {
                None => {
                    let fast = closure(TokenStream::new(), body(&self.names(true, windows)));
                    quote!(__blk.#each(#range #fast);)
                }
                Some((first, rest)) => {
                    let margins = halo_arrays
                        .iter()
                        .map(|&a| (a, margin_of(&halos, a)))
                        .collect();
                    let inner = body(&self.names(true, windows).inside(margins));
                    let fast = quote!(#[inline(always)] |__w: u32, __in: #k::kernel::wil::Inside| {
                        let __tid: #k::kernel::Dim3 = __in.tid();
                        #loads
                        #prologue
                        #inner
                        #epilogue
                    });
                    let first = window_ident(f, *first);
                    let rest = rest.iter().map(|&a| window_ident(f, a));
                    quote!(__blk.each_split(
                        #first.interior()#(.and(#rest.interior()))*,
                        #fast,
                        #checked,
                    );)
                }
            };
            quote!(if let (#(#pats,)*) = (#(#makes,)*) { #run } else { __blk.#each(#range #checked); })
        };
        if returns {
            out.extend(quote!(if __blk.all_exited() {
                return;
            }));
        }
        out
    }

    /// Whether `it` emits nothing in a region: a declaration of recomputed locals or of a
    /// shared array.
    pub(super) fn is_noop(&self, it: &Item<'_>) -> bool {
        match it {
            Item::Stmt(Stmt::Let { local, .. }) => self.plan.storage[*local] == Storage::Recompute,
            Item::Stmt(Stmt::LetTuple { locals, .. }) => locals
                .iter()
                .all(|l| self.plan.storage[*l] == Storage::Recompute),
            Item::Stmt(Stmt::ArrayDecl { array, .. }) => self.plan.reach[*array] != Reach::Local,
            _ => false,
        }
    }

    /// Whether array `a` can be reached through the block's own-index window in a region that
    /// evaluates `exprs`: an own-index output; a 1-d input read only at the own linear index; a
    /// 2-d input read only at `(y + dy, x + dx)` with `(x, y) = t.grid2()` and constant offsets
    /// (each offset pair is added to `halos`).
    fn windowable(
        &self,
        a: ArrayId,
        exprs: &[&Expr],
        halos: &mut Vec<(ArrayId, isize, isize)>,
    ) -> bool {
        let rank = self.plan.f.arrays[a].rank;
        match self.plan.reach[a] {
            Reach::OwnOut => true,
            Reach::Input if rank == 1 || rank == 2 => {
                let mut ok = true;
                let mut at = Vec::new();
                for e in exprs {
                    e.visit(&mut |x| match &x.kind {
                        ExprKind::Index { array, idx, .. } if *array == a => {
                            let offs: Vec<_> =
                                idx.iter().map(|i| self.plan.own_offset(i)).collect();
                            match offs[..] {
                                [Some((Own::Linear, 0))] if rank == 1 => at.push((a, 0, 0)),
                                [Some((Own::Y, dy)), Some((Own::X, dx))] if rank == 2 => {
                                    at.push((a, dy, dx))
                                }
                                _ => ok = false,
                            }
                        }
                        ExprKind::Atomic { array, .. } | ExprKind::ArrayRef(array)
                            if *array == a =>
                        {
                            ok = false
                        }
                        _ => {}
                    });
                }
                let read = !at.is_empty();
                if ok && read && rank == 2 {
                    halos.extend(at);
                }
                ok && read
            }
            _ => false,
        }
    }

    /// The statements that compute the recomputed locals among `locals` (each defining
    /// statement once, in `locals`' order), as a region's top does.
    pub(super) fn recomputed_prologue(&self, locals: &[LocalId]) -> TokenStream {
        let mut out = TokenStream::new();
        let mut declared: HashSet<usize> = HashSet::new();
        for &l in locals {
            if self.plan.storage[l] != Storage::Recompute {
                continue;
            }
            if let Some(s) = self.defining_stmt(l).filter(|s| declared.insert(id(s))) {
                let mut names = self.names(true, HashSet::new());
                names.set_prologue(true);
                out.extend(self.with_r(&names, |r| r.stmt(s)));
            }
        }
        out
    }

    /// `locals` and every local the defining statements of the recomputed ones among them
    /// reach, transitively — what a region's top computes for them — sorted.
    pub(super) fn with_recomputed(&self, mut locals: Vec<LocalId>) -> Vec<LocalId> {
        let mut k = 0;
        while k < locals.len() {
            let l = locals[k];
            k += 1;
            if self.plan.storage[l] != Storage::Recompute {
                continue;
            }
            let mut more = Vec::new();
            for e in self.defining_stmt(l).into_iter().flat_map(own_exprs) {
                locals_of(e, &mut more);
            }
            for m in more {
                if !locals.contains(&m) {
                    locals.push(m);
                }
            }
        }
        locals.sort_unstable();
        locals.dedup();
        locals
    }

    /// The statement that declares local `l`.
    pub(super) fn defining_stmt(&self, l: LocalId) -> Option<&'f Stmt> {
        fn find(b: &Block, l: LocalId) -> Option<&Stmt> {
            for s in &b.stmts {
                let hit = match s {
                    Stmt::Let { local, .. } => *local == l,
                    Stmt::LetTuple { locals, .. } => locals.contains(&l),
                    _ => false,
                };
                if hit {
                    return Some(s);
                }
                let inner = match s {
                    Stmt::If { then, els, .. } => {
                        find(then, l).or_else(|| els.as_ref().and_then(|e| find(e, l)))
                    }
                    Stmt::While { body, .. } | Stmt::Loop { body, .. } | Stmt::For { body, .. } => {
                        find(body, l)
                    }
                    Stmt::Block(b) => find(b, l),
                    _ => None,
                };
                if inner.is_some() {
                    return inner;
                }
            }
            None
        }
        find(&self.plan.f.body, l)
    }
}

/// The statements and expressions of `s` and everything nested in it.
pub(super) fn collect<'a>(s: &'a Stmt, stmts: &mut Vec<&'a Stmt>, exprs: &mut Vec<&'a Expr>) {
    stmts.push(s);
    exprs.extend(own_exprs(s));
    let children: Vec<&Block> = match s {
        Stmt::If { then, els, .. } => std::iter::once(then).chain(els.as_ref()).collect(),
        Stmt::While { body, .. } | Stmt::Loop { body, .. } | Stmt::For { body, .. } => {
            vec![body]
        }
        Stmt::Block(b) => vec![b],
        _ => Vec::new(),
    };
    for b in children {
        for c in &b.stmts {
            collect(c, stmts, exprs);
        }
    }
}

/// Work-item `at`'s value of context local `l` (a `bool` is kept as a byte).
pub(super) fn context_get(f: &Func, l: LocalId, at: TokenStream) -> TokenStream {
    let c = context_ident(f, l);
    if is_bool(&f.locals[l].ty) {
        quote!(#c.get(#at) != 0)
    } else {
        quote!(#c.get(#at))
    }
}

/// Stores `value` (a name or an element, so that `as` binds to all of it) as work-item `at`'s
/// value of context local `l`.
pub(super) fn context_set(
    f: &Func,
    l: LocalId,
    at: TokenStream,
    value: TokenStream,
) -> TokenStream {
    let c = context_ident(f, l);
    if is_bool(&f.locals[l].ty) {
        quote!(#c.set(#at, #value as u8);)
    } else {
        quote!(#c.set(#at, #value);)
    }
}

pub(crate) fn is_bool(t: &Ty) -> bool {
    matches!(t, Ty::Scalar(s) if s.rust_name() == "bool")
}

/// The margin of array `a`'s halo window: its reads' largest offset from the own index.
fn margin_of(halos: &[(ArrayId, isize, isize)], a: ArrayId) -> usize {
    halos
        .iter()
        .filter(|h| h.0 == a)
        .map(|h| h.1.unsigned_abs().max(h.2.unsigned_abs()))
        .max()
        .unwrap_or(0)
}

/// An `isize` literal (a negative one as a block, for a const generic argument).
fn isize_lit(v: isize) -> TokenStream {
    let l = Literal::isize_suffixed(v);
    if v < 0 { quote!({ #l }) } else { quote!(#l) }
}

/// A `usize` literal.
pub(crate) fn usize_lit(v: usize) -> Literal {
    Literal::usize_suffixed(v)
}
