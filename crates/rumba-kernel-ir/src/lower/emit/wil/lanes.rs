//! Regions whose whole work is one loop over a block-uniform range that reads memory only at
//! block-uniform places and writes none, run with the loop outside and the work-items inside,
//! [`LANES`] at a time (`BlockCtx::each_lanes`). n-body's force loop is the case it is for:
//!
//! ```text
//! for k in 0..TILE {                       for k in 0..TILE {
//!     let dx = sp[(k, 0)] - px;                let s0 = sp[(k, 0)]; …    (once for 16 lanes)
//!     …                              →         for l in 0..16 {
//!     ax += dx * f;                                let dx = s0 - px[l]; … ax[l] += dx * f;
//! }                                            }
//!                                          }
//! ```
//!
//! Each work-item's values live in a small array of lanes for the group, so the inner loop is
//! straight-line arithmetic over sixteen independent lanes, which the compiler turns into SIMD
//! instructions — what a GPU's warp does, and what PoCL's work-group vectoriser does. Per
//! work-item, the loop did one scalar square root and division per pair of bodies; per group
//! it does one vector instruction of each for four lanes (SSE). Sixteen lanes measured faster
//! than eight (whose straight-line form the compiler packs badly) and no slower than 32 or 64.
//!
//! Why the order may change. Nothing the loop does is visible to another work-item: it writes no
//! memory (only locals: ones it declares and ones that live in context arrays), and it reads
//! memory only at indices every work-item computes alike (from block-uniform values and the loop
//! variable), so every work-item reads the same element in the same iteration, and nothing in
//! the region writes it. What a lane computes cannot fault: integer arithmetic wraps, an integer
//! division needs a constant divisor other than 0 and -1, a math function takes a float (or is
//! one of the wrapping, `min`, `max` and `abs` ones). So the only faults are those of the reads,
//! their indices, the range and the block-uniform `let`s before the loop, which fault alike for
//! every work-item, in the same iteration and at the same point: the first work-item meets it
//! first in either order, and the group names it (`each_lanes` records its first work-item). A
//! read is hoisted to the top of its iteration only from where every work-item evaluates it (not
//! under `&&`, `||` or a select's branch), so it faults only where it would have. No region is
//! taken whose top may fault (a recomputed local the loop does not use, which the per-work-item
//! form evaluates anyway). A block some of whose work-items have exited takes the region's
//! ordinary per-work-item form.
//!
//! Not recognised (left to the per-work-item loop): a loop whose body has control flow, calls,
//! atomics, warp operations, stores or a compound `/=` or `%=`; a read whose index depends on
//! the thread; a local of the thread's index the region recomputes (`tid`, `i`), which a lane
//! would have to compute for itself; a `let` before the loop of a value that varies per
//! work-item or lives on after the region; records and tuples.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::body::{Body, Item, collect, context_get, context_set};
use super::names::local_ident;
use super::plan::{Reach, Storage, asks_work_item_shape, locals_of};
use super::xrange::may_fault_or_write;
use crate::lower::emit::rust::for_range;
use crate::lower::ir::*;

/// Work-items a group runs together: sixteen `f32` lanes (four SSE or two AVX registers).
pub(super) const LANES: usize = 16;

/// A region [`Body::lane_loop`] accepted: its loop, and what the groups carry.
pub(super) struct LaneLoop<'f> {
    /// The defining `let`s of the block-uniform locals the region recomputes.
    recomputed: Vec<&'f Stmt>,
    /// The block-uniform `let`s before the loop.
    before: Vec<&'f Stmt>,
    /// The `for` statement.
    stmt: &'f Stmt,
    /// The element reads to hoist to the top of each iteration, in evaluation order.
    reads: Vec<&'f Expr>,
    /// Context locals the loop reads or writes (loaded into lanes).
    contexts: Vec<LocalId>,
    /// The ones it writes (stored back).
    written: Vec<LocalId>,
}

/// What a lane loop's body may name, gathered while checking it.
struct Scope<'f> {
    /// The uniform locals before the loop, and the loop variable.
    uniform: Vec<LocalId>,
    /// Region locals the body declares.
    declared: Vec<LocalId>,
    reads: Vec<&'f Expr>,
    contexts: Vec<LocalId>,
    written: Vec<LocalId>,
}

impl<'f> Body<'_, 'f> {
    /// The region of `items` as a lane loop, when its only work is a loop the module docs
    /// describe.
    pub(super) fn lane_loop(&self, items: &[Item<'f>]) -> Option<LaneLoop<'f>> {
        // The per-work-item form evaluates every recomputed local of the region at its top,
        // used by the loop or not; the lane form only those the loop uses.
        if self.prologue_may_fault(items) {
            return None;
        }
        let mut work: Vec<&'f Stmt> = Vec::new();
        for it in items.iter().filter(|it| !self.is_noop(it)) {
            let Item::Stmt(s) = it else {
                return None;
            };
            work.push(s);
        }
        // The group has no work-item's local array or view to ask its shape (bounds are printed
        // as block code, which has the set of local arrays; the rest is printed in the group).
        let (mut stmts, mut exprs) = (Vec::new(), Vec::new());
        for s in &work {
            collect(s, &mut stmts, &mut exprs);
        }
        if exprs.iter().any(|e| asks_work_item_shape(self.plan.f, e)) {
            return None;
        }
        let (stmt, before) = work.split_last()?;
        // Block-uniform locals the region recomputes or declares before the loop, computed once
        // per group.
        let (recomputed, mut uniform) = self.uniform_recomputed(&exprs);
        for s in before {
            let Stmt::Let {
                local,
                init: Some(init),
                ..
            } = s
            else {
                return None;
            };
            let ok = self.plan.storage[*local] == Storage::RegionLocal
                && self.plan.is_uniform_with(init, &uniform)
                && !may_fault_or_write(init);
            if !ok {
                return None;
            }
            uniform.push(*local);
        }
        let Stmt::For {
            var,
            start,
            end,
            step,
            body,
            ..
        } = stmt
        else {
            return None;
        };
        let bounds = [Some(start), Some(end), step.as_ref().map(|s| &s.0)];
        if !bounds
            .into_iter()
            .flatten()
            .all(|x| self.plan.is_uniform_with(x, &uniform))
        {
            return None;
        }
        uniform.push(*var);
        let mut scope = Scope {
            uniform,
            declared: Vec::new(),
            reads: Vec::new(),
            contexts: Vec::new(),
            written: Vec::new(),
        };
        for s in &body.stmts {
            let (l, value) = match s {
                Stmt::Let {
                    local,
                    init: Some(v),
                    ..
                } => (*local, v),
                Stmt::Assign {
                    place: Place::Local(l, _),
                    value,
                    site: None,
                    ..
                } => (*l, value),
                _ => return None,
            };
            if !self.lane_expr(value, &mut scope, false) {
                return None;
            }
            let scalar = self.plan.f.locals[l].ty.scalar().is_some();
            match (s, self.plan.storage[l]) {
                (_, Storage::Context) if scalar => {
                    push_new(&mut scope.contexts, l);
                    push_new(&mut scope.written, l);
                }
                (Stmt::Let { .. }, Storage::RegionLocal) if scalar => scope.declared.push(l),
                (Stmt::Assign { .. }, Storage::RegionLocal) if scope.declared.contains(&l) => {}
                _ => return None,
            }
        }
        Some(LaneLoop {
            recomputed,
            before: before.to_vec(),
            stmt,
            reads: scope.reads,
            contexts: scope.contexts,
            written: scope.written,
        })
    }

    /// The recomputed locals `exprs` reach (directly or through other recomputed ones) that
    /// are block-uniform and cannot fault: their defining `let`s in declaration order, and the
    /// locals.
    fn uniform_recomputed(&self, exprs: &[&Expr]) -> (Vec<&'f Stmt>, Vec<LocalId>) {
        let mut reached = Vec::new();
        for e in exprs {
            locals_of(e, &mut reached);
        }
        let (mut lets, mut uniform) = (Vec::new(), Vec::new());
        for l in self.with_recomputed(reached) {
            if self.plan.storage[l] != Storage::Recompute {
                continue;
            }
            if let Some(
                s @ Stmt::Let {
                    init: Some(init), ..
                },
            ) = self.defining_stmt(l)
            {
                if self.plan.is_uniform_with(init, &uniform) && !may_fault_or_write(init) {
                    lets.push(s);
                    uniform.push(l);
                }
            }
        }
        (lets, uniform)
    }

    /// Whether a lane can evaluate `e` (see the module docs), noting the reads to hoist and the
    /// context locals it uses; `cond`: `e` is evaluated only under a condition.
    fn lane_expr(&self, e: &'f Expr, scope: &mut Scope<'f>, cond: bool) -> bool {
        let float = |x: &Expr| x.ty.scalar().is_some_and(|s| s.is_float());
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Const(_) => true,
            ExprKind::Local(l) => {
                let l = *l;
                if scope.uniform.contains(&l) || scope.declared.contains(&l) {
                    return true;
                }
                match self.plan.storage[l] {
                    Storage::BlockScalar => true,
                    Storage::Context if self.plan.f.locals[l].ty.scalar().is_some() => {
                        push_new(&mut scope.contexts, l);
                        true
                    }
                    _ => false,
                }
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(a, _) | ExprKind::Axis(a, _) => {
                self.lane_expr(a, scope, cond)
            }
            ExprKind::Binary(op, a, b, _) => {
                let int = a.ty.scalar().is_some_and(|s| s.is_int());
                if int && matches!(op, BinOp::Div | BinOp::Rem) && !safe_divisor(b) {
                    return false;
                }
                let later = cond || matches!(op, BinOp::And | BinOp::Or);
                self.lane_expr(a, scope, cond) && self.lane_expr(b, scope, later)
            }
            ExprKind::Select(c, a, b) => {
                self.lane_expr(c, scope, cond)
                    && self.lane_expr(a, scope, true)
                    && self.lane_expr(b, scope, true)
            }
            ExprKind::Index { array, idx, .. } => {
                let f = self.plan.f;
                let plain = f.arrays[*array].base.is_none()
                    && matches!(self.plan.reach[*array], Reach::Shared | Reach::Input);
                let uniform = idx
                    .iter()
                    .all(|i| self.plan.is_uniform_with(i, &scope.uniform));
                if cond || !plain || !uniform {
                    return false;
                }
                scope.reads.push(e);
                true
            }
            ExprKind::Len(_) | ExprKind::Size(_) | ExprKind::Shape(..) | ExprKind::Thread(_) => {
                self.plan.is_block_expr(e)
            }
            ExprKind::Math(m, args) => {
                // Integer `abs` is emitted as `wrapping_abs`; these cannot fault on integers.
                let exact = matches!(
                    m,
                    MathFn::Min
                        | MathFn::Max
                        | MathFn::Abs
                        | MathFn::WrappingAdd
                        | MathFn::WrappingSub
                        | MathFn::WrappingMul
                        | MathFn::WrappingNeg
                );
                (exact || args.first().is_some_and(float))
                    && args.iter().all(|a| self.lane_expr(a, scope, cond))
            }
            _ => false,
        }
    }

    /// The region of `lane` as `__blk.each_lanes(group, single)`: `single` is the region's
    /// ordinary per-work-item closure, for blocks some of whose work-items have exited.
    pub(super) fn lane_region(&self, lane: &LaneLoop<'f>, single: TokenStream) -> TokenStream {
        let f = self.plan.f;
        let Stmt::For {
            var,
            start,
            end,
            inclusive,
            step,
            body,
            span,
        } = lane.stmt
        else {
            return TokenStream::new();
        };
        let n = Literal::usize_unsuffixed(LANES);
        let lanes_of = |l: LocalId| format_ident!("__lanes_{}", f.locals[l].c_name);
        let region = self.names(true, Default::default());
        let ty_of = |l: LocalId| self.with_r(&region, |r| r.ty(&f.locals[l].ty));
        // Each context local's lanes, loaded from the context array.
        let mut load = TokenStream::new();
        let mut fill = TokenStream::new();
        let mut enter = TokenStream::new();
        for &l in &lane.contexts {
            let (x, ty) = (lanes_of(l), ty_of(l));
            let get = context_get(f, l, quote!(__w0 as usize + __l));
            load.extend(
                quote!(let mut #x: [#ty; #n] = [<#ty as ::core::default::Default>::default(); #n];),
            );
            fill.extend(quote!(#x[__l] = #get;));
            let v = local_ident(f, l);
            enter.extend(quote!(let mut #v: #ty = #x[__l];));
        }
        let (mut leave, mut store) = (TokenStream::new(), TokenStream::new());
        for &l in &lane.written {
            let (x, v) = (lanes_of(l), local_ident(f, l));
            leave.extend(quote!(#x[__l] = #v;));
            store.extend(context_set(
                f,
                l,
                quote!(__w0 as usize + __l),
                quote!(#x[__l]),
            ));
        }
        // The reads, once per iteration for the group.
        let hoisted: Vec<(&Expr, Ident)> = lane
            .reads
            .iter()
            .map(|&e| (e, self.fresh("read")))
            .collect();
        let reads: TokenStream = hoisted
            .iter()
            .map(|(e, h)| {
                let (v, ty) = self.with_r(&region, |r| (r.expr(e), r.ty(&e.ty)));
                quote!(let #h: #ty = #v;)
            })
            .collect();
        let names = self.names(true, Default::default()).hoisting(&hoisted);
        let stmts = self.with_r(&names, |r| {
            body.stmts
                .iter()
                .map(|s| r.stmt(s))
                .collect::<TokenStream>()
        });
        let (s, e) = (self.block_expr(start), self.block_expr(end));
        let step = step.as_ref().map(|(x, _)| self.block_expr(x));
        let it = for_range(s, e, *inclusive, step);
        let v = local_ident(f, *var);
        let mut prologue = self.names(true, Default::default());
        prologue.set_prologue(true);
        let mut before = self.with_r(&prologue, |r| {
            lane.recomputed
                .iter()
                .map(|s| r.stmt(s))
                .collect::<TokenStream>()
        });
        before.extend(self.with_r(&region, |r| {
            lane.before
                .iter()
                .map(|s| r.stmt(s))
                .collect::<TokenStream>()
        }));
        let group = quote_spanned!(*span=> #[inline(always)] |__w0: u32, __n: usize| {
            let __n = __n.min(#n);
            #before
            #load
            for __l in 0..__n {
                #fill
            }
            for #v in #it {
                #reads
                for __l in 0..__n {
                    #enter
                    #stmts
                    #leave
                }
            }
            for __l in 0..__n {
                #store
            }
        });
        quote!(__blk.each_lanes::<#n, _, _>(#group, #single);)
    }
}

/// Pushes `l` unless `v` has it.
fn push_new(v: &mut Vec<LocalId>, l: LocalId) {
    if !v.contains(&l) {
        v.push(l);
    }
}

/// Whether an integer division by `d` cannot fault: a constant other than 0 and -1.
fn safe_divisor(d: &Expr) -> bool {
    matches!(d.kind, ExprKind::Int(v) if v != 0 && v != -1)
}
