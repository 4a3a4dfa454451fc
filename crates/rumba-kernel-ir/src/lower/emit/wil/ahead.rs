//! Fetching ahead: a block body asks the memory system for the rows of 2-d inputs that the
//! **next** block its OS thread runs will read first, so that they arrive while this block
//! works.
//!
//! A tiled transpose reads, per block, a strip of 32 rows of its input: 32 streams at once, more
//! than a CPU's prefetcher follows, so each row's first cache line is a miss the work-item loop
//! waits for. Measured in plain Rust on this kind of kernel (a 4096² transpose through a shared
//! tile, two threads), prefetching the next block's rows at the top of each block took the time
//! from 24 to 16 ms; prefetching the block's own rows first saved only 2 ms, because by then
//! there is nothing left to overlap them with.
//!
//! What is fetched: each read of a 2-d input in the body's first region — the top-level
//! statements before its first barrier or lifted control — whose row depends on the
//! thread and which is not an own-index or halo read (those are contiguous per block already).
//! Its index must be computable for another block without faulting and without reading memory:
//! built from the thread's index, kernel parameters, shapes, and block-uniform `let`s of the
//! body's top (never reassigned) and recomputed locals, none of which indexes anything (an
//! array, a record's sub-array) or divides by anything but a non-zero constant; and the row
//! must not move with the thread's x index. Only an input whose rows are contiguous is fetched
//! (`prefetch_run` does nothing for another layout).
//!
//! The code re-evaluates those `let`s with `blockIdx` of the next block (the engine's
//! `BlockCtx::next_block_idx`: the next block of the run of blocks the thread claimed) and, for
//! the work-items of `x` 0 (one per row of the block), asks for the `blockDim.x` elements from
//! each such index along the row (`GlobalIn::prefetch_run`): a hint that reads nothing and
//! cannot fault, so it changes no result, only when the lines arrive.
//!
//! In rumba's bench, the 4096² transpose went from 28.3–32.7 ms to 13.4–14.8 ms with it
//! (`rumba bench --only transpose --repeat 15`, three alternating pairs).

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::body::{Body, collect};
use super::names::array_ident;
use super::plan::{
    Reach, Storage, asks_work_item_shape, contains_cut, id, locals_of, own_exprs, value_params,
};
use super::xrange::may_fault_or_write;
use crate::lower::ir::*;

/// At most this many distinct reads are fetched ahead.
const MOST: usize = 4;

impl<'f> Body<'_, 'f> {
    /// The fetch-ahead code for the top of the block body (nothing when no read qualifies).
    pub(super) fn fetch_ahead(&self) -> TokenStream {
        let plan = self.plan;
        let f = plan.f;
        // The first region and the block-uniform `let`s that may be re-evaluated.
        let mut lets: Vec<&'f Stmt> = Vec::new();
        let mut region: Vec<&'f Stmt> = Vec::new();
        for s in &f.body.stmts {
            if !plan.is_lifted(s) {
                region.push(s);
                continue;
            }
            match s {
                Stmt::Let {
                    local,
                    init: Some(init),
                    ..
                } if plan.storage[*local] == Storage::BlockScalar && !contains_cut(init) => {
                    if !may_fault_or_write(init) && !asks_work_item_shape(f, init) {
                        lets.push(s);
                    }
                }
                // Declarations emit nothing here.
                Stmt::ArrayDecl { .. } => {}
                // A barrier (also one whose value a `let` takes), lifted control: the region
                // ends.
                _ => break,
            }
        }
        let params = value_params(f);
        let mut stmts = Vec::new();
        let mut exprs = Vec::new();
        for s in &region {
            collect(s, &mut stmts, &mut exprs);
        }
        let names = self.names(true, HashSet::new());
        let mut reads: Vec<(ArrayId, TokenStream)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut needed_lets: HashSet<usize> = HashSet::new();
        let mut needed_locals: Vec<LocalId> = Vec::new();
        for e in &exprs {
            e.visit(&mut |x| {
                let ExprKind::Index { array, idx, .. } = &x.kind else {
                    return;
                };
                let arr = &f.arrays[*array];
                if plan.reach[*array] != Reach::Input || arr.rank != 2 || reads.len() == MOST {
                    return;
                }
                // Own-index and halo reads are contiguous per block; a row every work-item
                // shares is one stream; a row that moves with the thread's x is not one run of
                // a block row.
                if idx.iter().all(|i| plan.own_offset(i).is_some())
                    || plan.is_block_expr(&idx[0])
                    || self.moves_with_x(&idx[0])
                {
                    return;
                }
                if idx
                    .iter()
                    .any(|i| may_fault_or_write(i) || asks_work_item_shape(f, i))
                {
                    return;
                }
                let mut locals = Vec::new();
                for i in idx {
                    locals_of(i, &mut locals);
                }
                let Some((ls, more)) = self.available(locals, &lets, &params) else {
                    return;
                };
                let i = self.with_r(&names, |r| r.index(idx));
                if seen.insert(format!("{array} {i}")) {
                    reads.push((*array, i));
                    needed_lets.extend(ls);
                    needed_locals.extend(more);
                }
            });
        }
        if reads.is_empty() {
            return TokenStream::new();
        }
        // The `let`s, in the body's order, evaluated for the next block.
        let lets: TokenStream = lets
            .iter()
            .filter(|s| needed_lets.contains(&id(s)))
            .map(|s| {
                let names = self.names(false, HashSet::new());
                self.with_r(&names, |r| r.stmt(s))
            })
            .collect();
        // The recomputed locals, as a region's top computes them.
        let prologue = self.recomputed_prologue(&self.with_recomputed(needed_locals));
        let fetches: TokenStream = reads
            .iter()
            .map(|(a, i)| {
                let n = array_ident(f, *a);
                quote!(#n.prefetch_run(#i, __bdim.x as usize);)
            })
            .collect();
        let k = self.k;
        quote! {
            if let ::core::option::Option::Some(__next) = __blk.next_block_idx() {
                let __bidx = __next;
                #lets
                __blk.each_x(0, 1, #[inline(always)] |__w: u32, __tid: #k::kernel::Dim3| {
                    #prologue
                    #fetches
                });
            }
        }
    }

    /// Whether `locals` (an index's) can be computed for another block at the body's top: the
    /// `let`s among `lets` they need (by statement id) and the locals to recompute, or `None`.
    fn available(
        &self,
        locals: Vec<LocalId>,
        lets: &[&'f Stmt],
        params: &HashSet<LocalId>,
    ) -> Option<(Vec<usize>, Vec<LocalId>)> {
        let plan = self.plan;
        let mut need_lets = Vec::new();
        let mut todo = self.with_recomputed(locals);
        let mut k = 0;
        while k < todo.len() {
            let l = todo[k];
            k += 1;
            if plan.reassigned[l] {
                return None;
            }
            match plan.storage[l] {
                Storage::Recompute => {
                    let s = self.defining_stmt(l)?;
                    let pure = own_exprs(s)
                        .into_iter()
                        .all(|e| !may_fault_or_write(e) && !asks_work_item_shape(plan.f, e));
                    if !pure {
                        return None;
                    }
                }
                Storage::BlockScalar if params.contains(&l) => {}
                Storage::BlockScalar => {
                    let s = lets
                        .iter()
                        .find(|s| matches!(s, Stmt::Let { local, .. } if *local == l))?;
                    need_lets.push(id(s));
                    for e in own_exprs(s) {
                        let mut more = Vec::new();
                        locals_of(e, &mut more);
                        for m in self.with_recomputed(more) {
                            if !todo.contains(&m) {
                                todo.push(m);
                            }
                        }
                    }
                }
                _ => return None,
            }
        }
        Some((need_lets, todo))
    }
}

impl Body<'_, '_> {
    /// Whether `e` may change with the thread's x index (conservatively: any thread query but
    /// the y and z parts of `thread_idx()` and `gridN()`, through recomputed locals).
    fn moves_with_x(&self, e: &Expr) -> bool {
        let plan = self.plan;
        // The thread queries read only for their y or z part.
        let mut other_axis: HashSet<*const Expr> = HashSet::new();
        e.visit(&mut |x| match &x.kind {
            ExprKind::Axis(q, k) if *k > 0 => {
                other_axis.insert(&**q as *const Expr);
            }
            ExprKind::TupleField(t, k)
                if *k > 0 && matches!(t.kind, ExprKind::Thread(ThreadQuery::Grid(_))) =>
            {
                other_axis.insert(&**t as *const Expr);
            }
            _ => {}
        });
        let mut moves = false;
        e.visit(&mut |x| match &x.kind {
            ExprKind::Thread(
                ThreadQuery::ThreadIdx | ThreadQuery::Grid(_) | ThreadQuery::LaneId,
            ) => moves |= !other_axis.contains(&(x as *const Expr)),
            ExprKind::Local(l) if plan.storage[*l] == Storage::Recompute => {
                moves |= match self.defining_stmt(*l) {
                    // `let (x, y) = t.grid2()`: y and z do not move with x.
                    Some(Stmt::LetTuple { locals, init, .. })
                        if matches!(init.kind, ExprKind::Thread(ThreadQuery::Grid(_))) =>
                    {
                        locals.first() == Some(l)
                    }
                    Some(s) => own_exprs(s).into_iter().any(|i| self.moves_with_x(i)),
                    None => true,
                }
            }
            _ => {}
        });
        moves
    }
}
