//! Warp operations in the block body: which kernels may have them there ([`check`]), and the
//! warp step a lifted warp operation becomes ([`Body::warp`]).
//!
//! A warp operation cuts the body like a barrier does: the region before it stores each
//! work-item's operands (predicate, or value and lane argument) in context arrays declared at the
//! top of the body; the step (`BlockCtx::warp_shfl` and friends) completes the operation warp by
//! warp and writes each work-item's result into the context array of the fresh local the
//! normalisation bound it to, which later regions read.
//!
//! The coroutine engine lets the lanes of a warp meet at a warp operation while the other warps
//! — and the lanes outside the mask — are elsewhere; a block body runs every work-item up to the
//! same point. The two agree exactly when every live lane of each warp reaches the operation
//! together with the same mask, so a kernel gets a block body only when
//! * every warp operation is reached under block-uniform control: each enclosing `if`
//!   condition and loop bound is block-uniform, and no enclosing loop contains a `break` or
//!   `continue` under thread-dependent control (a thread-dependent `return` before it is fine:
//!   returned lanes count as exited on both engines);
//! * every mask is block-uniform and cannot fault (no array read, call, or integer division).
//!
//! Otherwise [`check`] says why and the kernel runs on coroutines, as before.

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::body::{Body, Item};
use super::names::context_ident;
use super::plan::Storage;
use crate::lower::ir::*;

/// Whether the value of `e` may differ between the work-items of a block (conservative: reads
/// of memory, thread indices, warp results, calls and varying locals).
fn varying_expr(f: &Func, varying: &[bool], e: &Expr) -> bool {
    let mut v = false;
    e.visit(&mut |x| match &x.kind {
        ExprKind::Local(l) => v |= varying[*l],
        ExprKind::Thread(q) => {
            v |= matches!(
                q,
                ThreadQuery::ThreadIdx | ThreadQuery::Grid(_) | ThreadQuery::LaneId
            )
        }
        ExprKind::Index { .. }
        | ExprKind::Atomic { .. }
        | ExprKind::Warp(..)
        | ExprKind::Call { .. } => v = true,
        ExprKind::Len(a) | ExprKind::Size(a) | ExprKind::Shape(a, _) => {
            v |= f.arrays[*a].base.is_some()
        }
        _ => {}
    });
    v
}

/// Whether evaluating `e` may fault (an integer division or remainder, an array access, a call).
fn may_fault(e: &Expr) -> bool {
    let mut v = false;
    e.visit(&mut |x| match &x.kind {
        ExprKind::Binary(_, _, _, Some(_))
        | ExprKind::Index { .. }
        | ExprKind::Atomic { .. }
        | ExprKind::Call { .. } => v = true,
        _ => {}
    });
    v
}

/// Whether block `b` holds a `break` or `continue` under thread-dependent control (at any depth).
fn varying_jump(f: &Func, varying: &[bool], b: &Block, ctl: bool) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Break(_) | Stmt::Continue(_) => ctl,
        Stmt::If {
            cond, then, els, ..
        } => {
            let c = ctl || varying_expr(f, varying, cond);
            varying_jump(f, varying, then, c)
                || els.as_ref().is_some_and(|e| varying_jump(f, varying, e, c))
        }
        Stmt::While { cond, body, .. } => {
            varying_jump(f, varying, body, ctl || varying_expr(f, varying, cond))
        }
        Stmt::For {
            start,
            end,
            step,
            body,
            ..
        } => {
            let c = ctl
                || varying_expr(f, varying, start)
                || varying_expr(f, varying, end)
                || step
                    .as_ref()
                    .is_some_and(|(k, _)| varying_expr(f, varying, k));
            varying_jump(f, varying, body, c)
        }
        Stmt::Loop { body, .. } | Stmt::Block(body) => varying_jump(f, varying, body, ctl),
        _ => false,
    })
}

/// Checks that the normalised kernel `f` (with `varying` from the analysis of `f`) may run its
/// warp operations in a block body (see the module docs); `Err` says why not.
pub(crate) fn check(f: &Func, varying: &[bool]) -> Result<(), String> {
    check_block(f, varying, &f.body, false)
}

fn check_block(f: &Func, varying: &[bool], b: &Block, ctl: bool) -> Result<(), String> {
    let v = |e: &Expr| varying_expr(f, varying, e);
    for s in &b.stmts {
        match s {
            Stmt::If {
                cond, then, els, ..
            } => {
                let c = ctl || v(cond);
                check_block(f, varying, then, c)?;
                if let Some(e) = els {
                    check_block(f, varying, e, c)?;
                }
            }
            Stmt::While { cond, body, .. } => {
                let c = ctl || v(cond) || varying_jump(f, varying, body, false);
                check_block(f, varying, body, c)?;
            }
            Stmt::Loop { body, .. } => {
                let c = ctl || varying_jump(f, varying, body, false);
                check_block(f, varying, body, c)?;
            }
            Stmt::For {
                start,
                end,
                step,
                body,
                ..
            } => {
                let c = ctl
                    || v(start)
                    || v(end)
                    || step.as_ref().is_some_and(|(k, _)| v(k))
                    || varying_jump(f, varying, body, false);
                check_block(f, varying, body, c)?;
            }
            Stmt::Block(body) => check_block(f, varying, body, ctl)?,
            Stmt::Expr(e) | Stmt::Let { init: Some(e), .. } => {
                if let ExprKind::Warp(kind, args) = &e.kind {
                    if ctl {
                        return Err(format!(
                            "`{}` runs under thread-dependent control (the lanes of a warp may meet there while others are elsewhere, which coroutines do)",
                            kind.name()
                        ));
                    }
                    if *kind != WarpKind::ActiveMask {
                        let mask = &args[0];
                        if v(mask) || may_fault(mask) {
                            return Err(format!(
                                "the mask of `{}` is not block-uniform (lanes of one warp may pass different masks, which coroutines resolve)",
                                kind.name()
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

impl<'f> Body<'_, 'f> {
    /// A warp step for warp operation `e` (a lifted statement of its own, or the initialiser of
    /// the fresh local `into`): its operands gathered in the pending region, then the step.
    pub(super) fn warp(
        &self,
        e: &'f Expr,
        into: Option<LocalId>,
        pending: &mut Vec<Item<'f>>,
    ) -> TokenStream {
        let ExprKind::Warp(kind, args) = &e.kind else {
            return TokenStream::new();
        };
        let (k, f, span) = (self.k, self.plan.f, e.span);
        let wil = quote!(#k::kernel::wil);
        let kind_tokens = Ident::new(
            match kind {
                WarpKind::Sync => "Sync",
                WarpKind::All => "All",
                WarpKind::Any => "Any",
                WarpKind::Ballot => "Ballot",
                WarpKind::Shfl => "Shfl",
                WarpKind::ShflUp => "ShflUp",
                WarpKind::ShflDown => "ShflDown",
                WarpKind::ShflXor => "ShflXor",
                WarpKind::ActiveMask => "ActiveMask",
            },
            Span::call_site(),
        );
        let site = self.fresh("WS");
        self.sites.borrow_mut().push(quote_spanned!(span=>
            const #site: #wil::WarpSite = #wil::WarpSite::new(
                #wil::WarpKind::#kind_tokens, ::core::file!(), ::core::line!(), ::core::column!());
        ));
        let ty = self.with_r(&self.names(false, HashSet::new()), |r| r.ty(&e.ty));
        // Where the results go: the fresh local's context array, or a scratch one.
        let out = match into {
            Some(l) if self.plan.storage[l] == Storage::Context => context_ident(f, l),
            _ => {
                let o = format_ident!("__wo{}", site);
                if *kind != WarpKind::Sync {
                    self.top
                        .borrow_mut()
                        .push(quote!(let #o = __blk.context::<#ty>();));
                }
                o
            }
        };
        let operand = |what: &str, elem: TokenStream| -> Ident {
            let c = format_ident!("__w{}{}", what, site);
            self.top
                .borrow_mut()
                .push(quote!(let #c = __blk.context::<#elem>();));
            c
        };
        let mask = || self.block_expr(&args[0]);
        match kind {
            WarpKind::Sync => {
                let out = self.flush(pending);
                let m = mask();
                quote_spanned!(span=> #out __blk.warp_sync(&#site, #m);)
            }
            WarpKind::All | WarpKind::Any | WarpKind::Ballot => {
                let p = operand("p", quote!(u8));
                pending.push(Item::Operand(p.clone(), &args[1], true));
                let flushed = self.flush(pending);
                let m = mask();
                let method = if *kind == WarpKind::Ballot {
                    quote!(warp_ballot)
                } else {
                    quote!(warp_vote)
                };
                quote_spanned!(span=> #flushed __blk.#method(&#site, #m, #p, #out);)
            }
            WarpKind::ActiveMask => {
                let flushed = self.flush(pending);
                quote_spanned!(span=> #flushed __blk.warp_activemask(&#site, #out);)
            }
            _ => {
                // The value: the context array of the local it is, when it is one (the region
                // before stored it there), else each work-item's operand.
                let v = match args[1].kind {
                    ExprKind::Local(l) if self.plan.storage[l] == Storage::Context => {
                        context_ident(f, l)
                    }
                    _ => {
                        let v = operand("v", ty.clone());
                        pending.push(Item::Operand(v.clone(), &args[1], false));
                        v
                    }
                };
                if self.plan.is_block_expr(&args[2]) && !may_fault(&args[2]) {
                    let flushed = self.flush(pending);
                    let (m, a) = (mask(), self.block_expr(&args[2]));
                    quote_spanned!(span=> #flushed __blk.warp_shfl_uniform::<#ty>(&#site, #m, #v, #a, #out);)
                } else {
                    let a = operand("a", quote!(u32));
                    pending.push(Item::Operand(a.clone(), &args[2], false));
                    let flushed = self.flush(pending);
                    let m = mask();
                    quote_spanned!(span=> #flushed __blk.warp_shfl::<#ty>(&#site, #m, #v, #a, #out);)
                }
            }
        }
    }
}
