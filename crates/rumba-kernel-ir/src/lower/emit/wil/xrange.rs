//! Regions that only some work-items can do anything in: a region whose whole work is one `if`
//! on the thread's x index against a block-uniform bound (`if tid < stride { … }`,
//! `if tid == 0 { … }`) loops only over the work-items whose x index can meet it
//! (`BlockCtx::each_x`), and one whose whole work is `if t.lane_id() == k { … }` only over the
//! work-items of lane `k` (`BlockCtx::each_lane`), instead of visiting every work-item to test
//! the condition.
//!
//! The range is a filter in front of the `if`, which stays in the body: it only has to contain
//! every work-item the condition holds for, so what runs is exactly what ran before. A tree
//! reduction's halving steps are the case it is for: at 256 work-items, eight steps visited
//! 2,048 work-items to add 255 pairs, and a `tid == 0` tail visited 256 to run once. A warp
//! reduction's `lane_id() == 0` step visited 256 to store 8 warp sums.
//!
//! Recognised: `x <op> u` and `u <op> x` for `<`, `<=`, `==`, `>=`, `>`, and `&&` of such terms
//! (either side may be something else: the range of one side contains the work-items of the
//! conjunction). `x` is `t.thread_idx().x`, a widening cast of it, or a never-reassigned local
//! holding one; `u` is an integer expression the block can evaluate once, with no division (so
//! evaluating it early can never fault where the kernel would not have). Lanes: `l == u` and
//! `u == l`, alone or as a side of `&&` as above, where `l` is `t.lane_id()`, a cast of it to any
//! integer type, or a never-reassigned local holding one. A condition that bounds x is narrowed
//! by x; a lane test only otherwise.
//!
//! A skipped work-item must also have had nothing to do *before* the `if` decides: the range of
//! the right side of `a && b` is used only when `a` can neither fault nor write (every work-item
//! evaluates `a`), and no region is narrowed whose top (evaluated by every work-item) may fault:
//! a recomputed local dividing by anything but a constant other than 0 and -1, or a view made
//! again.

use proc_macro2::TokenStream;
use quote::quote;

use super::body::{Body, Item, collect};
use super::plan::{Storage, arrays_of, locals_of, own_exprs, reaches_memory};
use crate::lower::ir::*;
use crate::target::Scalar;

/// A range of x indices as two `i128` expressions: `lo..hi` (`None`: unbounded on that side).
struct Range {
    lo: Option<TokenStream>,
    hi: Option<TokenStream>,
}

/// The work-items a region may be narrowed to, as `i128` expressions of the block.
pub(super) enum Narrow {
    /// Those with `thread_idx.x` in `lo..hi` (`BlockCtx::each_x`).
    X(TokenStream, TokenStream),
    /// Those of one warp lane (`BlockCtx::each_lane`).
    Lane(TokenStream),
}

impl Body<'_, '_> {
    /// The work-items the region of `items` may be narrowed to, when its only work is an `if`
    /// without `else` whose condition bounds the x index or names one lane.
    pub(super) fn narrow(&self, items: &[Item<'_>]) -> Option<Narrow> {
        let mut work = items.iter().filter(|it| !self.is_noop(it));
        let (
            Some(Item::Stmt(Stmt::If {
                cond, els: None, ..
            })),
            None,
        ) = (work.next(), work.next())
        else {
            return None;
        };
        if self.prologue_may_fault(items) {
            return None;
        }
        let Some(r) = self.range_of(cond) else {
            return self.lane_of(cond).map(Narrow::Lane);
        };
        let lo = r.lo.unwrap_or_else(|| quote!(0i128));
        let hi = r.hi.unwrap_or_else(|| quote!(::core::primitive::i128::MAX));
        Some(Narrow::X(lo, hi))
    }

    /// The one lane `cond` can hold for, where it names one: `lane_id() == u`, either way round,
    /// or a side of `&&` (the right one only when the left can neither fault nor write).
    fn lane_of(&self, cond: &Expr) -> Option<TokenStream> {
        let ExprKind::Binary(op, a, b, _) = &cond.kind else {
            return None;
        };
        match op {
            BinOp::And => self
                .lane_of(a)
                .or_else(|| (!may_fault_or_write(a)).then(|| self.lane_of(b))?),
            BinOp::Eq => {
                let u = if self.is_lane(a) {
                    b
                } else if self.is_lane(b) {
                    a
                } else {
                    return None;
                };
                if !self.is_bound(u) {
                    return None;
                }
                let u = self.block_expr(u);
                Some(quote!(((#u) as i128)))
            }
            _ => None,
        }
    }

    /// The x indices `cond` can hold for, where it bounds them.
    fn range_of(&self, cond: &Expr) -> Option<Range> {
        let ExprKind::Binary(op, a, b, _) = &cond.kind else {
            return None;
        };
        if *op == BinOp::And {
            // Every work-item evaluates `a`; `b` only where `a` holds. So `b`'s range may skip
            // work-items only when evaluating `a` does nothing a skipped one would miss.
            let right = if may_fault_or_write(a) {
                None
            } else {
                self.range_of(b)
            };
            return match (self.range_of(a), right) {
                (Some(x), Some(y)) => Some(Range {
                    lo: tighter(x.lo, y.lo, quote!(max)),
                    hi: tighter(x.hi, y.hi, quote!(min)),
                }),
                (x, y) => x.or(y),
            };
        }
        // `x op u`, or `u op x` read as `x op' u`.
        let (op, u) = if self.is_thread_x(a) {
            (*op, b)
        } else if self.is_thread_x(b) {
            (mirror(*op)?, a)
        } else {
            return None;
        };
        if !self.is_bound(u) {
            return None;
        }
        let u = self.block_expr(u);
        let u = quote!(((#u) as i128));
        Some(match op {
            BinOp::Lt => Range {
                lo: None,
                hi: Some(u),
            },
            BinOp::Le => Range {
                lo: None,
                hi: Some(quote!(#u + 1)),
            },
            BinOp::Eq => Range {
                lo: Some(u.clone()),
                hi: Some(quote!(#u + 1)),
            },
            BinOp::Ge => Range {
                lo: Some(u),
                hi: None,
            },
            BinOp::Gt => Range {
                lo: Some(quote!(#u + 1)),
                hi: None,
            },
            _ => return None,
        })
    }

    /// Whether `e` is the thread's x index, unchanged in value.
    fn is_thread_x(&self, e: &Expr) -> bool {
        let x = |e: &Expr| {
            matches!(&e.kind, ExprKind::Axis(q, 0)
                if matches!(q.kind, ExprKind::Thread(ThreadQuery::ThreadIdx)))
        };
        // Every type at least 32 bits wide holds any x index unchanged.
        self.holds(e, &x, wide_int)
    }

    /// Whether `e` is the thread's lane, unchanged in value.
    fn is_lane(&self, e: &Expr) -> bool {
        let lane = |e: &Expr| matches!(e.kind, ExprKind::Thread(ThreadQuery::LaneId));
        // A lane (0 to 31) keeps its value in every integer type.
        self.holds(e, &lane, wide_or_narrow_int)
    }

    /// Whether `e` is a value `is` recognises, unchanged: itself, a cast of one to a type
    /// `keeps` accepts, or a never-reassigned local holding one.
    fn holds(&self, e: &Expr, is: &dyn Fn(&Expr) -> bool, keeps: fn(Scalar) -> bool) -> bool {
        match &e.kind {
            _ if is(e) => true,
            ExprKind::Cast(inner, s) => keeps(*s) && self.holds(inner, is, keeps),
            ExprKind::Local(l) => {
                self.plan.storage[*l] == Storage::Recompute
                    && matches!(
                        self.defining_stmt(*l),
                        Some(Stmt::Let { init: Some(init), .. }) if self.holds(init, is, keeps)
                    )
            }
            _ => false,
        }
    }

    /// Whether `u` is an integer the block can evaluate before the region, with nothing in it
    /// that can fault.
    fn is_bound(&self, u: &Expr) -> bool {
        u.ty.scalar().is_some_and(wide_or_narrow_int)
            && self.plan.is_block_expr(u)
            && !may_fault_or_write(u)
    }

    /// Whether what each work-item of the region of `items` evaluates at the region's top,
    /// skipped or not, may fault: a recomputed local it uses or declares, or a view it makes
    /// again.
    pub(super) fn prologue_may_fault(&self, items: &[Item<'_>]) -> bool {
        let (mut stmts, mut exprs) = (Vec::new(), Vec::new());
        for it in items {
            if let Item::Stmt(s) = it {
                collect(s, &mut stmts, &mut exprs);
            }
        }
        // The views a region uses are made again at its top, checked, by every work-item.
        let mut arrays = Vec::new();
        for s in &stmts {
            arrays_of(s, &mut arrays);
        }
        if arrays.iter().any(|&a| self.plan.f.arrays[a].base.is_some()) {
            return true;
        }
        let mut locals = Vec::new();
        for e in &exprs {
            locals_of(e, &mut locals);
        }
        // A recomputed local the region declares is computed at its top even where unused.
        for s in &stmts {
            match s {
                Stmt::Let { local, .. } => locals.push(*local),
                Stmt::LetTuple { locals: ls, .. } => locals.extend(ls),
                _ => {}
            }
        }
        let recomputed = self
            .with_recomputed(locals)
            .into_iter()
            .filter(|&l| self.plan.storage[l] == Storage::Recompute);
        recomputed
            .flat_map(|l| self.defining_stmt(l).into_iter().flat_map(own_exprs))
            .any(may_fault_or_write)
    }
}

/// Whether evaluating `e` may fault or write memory: an element access (of an array, or of a
/// record value's sub-array field), an atomic, a call, a barrier, fence or warp operation, or an
/// integer division by anything but a constant other than 0 and -1.
pub(super) fn may_fault_or_write(e: &Expr) -> bool {
    let mut may = false;
    e.visit(&mut |x| match &x.kind {
        _ if reaches_memory(x) => may = true,
        ExprKind::SubIndex { .. } => may = true,
        ExprKind::Binary(BinOp::Div | BinOp::Rem, _, d, _) => {
            may |= !matches!(d.kind, ExprKind::Int(v) if v != 0 && v != -1);
        }
        _ => {}
    });
    may
}

/// The tighter of two optional bounds (`max` of lower bounds, `min` of upper ones).
fn tighter(
    x: Option<TokenStream>,
    y: Option<TokenStream>,
    pick: TokenStream,
) -> Option<TokenStream> {
    match (x, y) {
        (Some(x), Some(y)) => Some(quote!(::core::cmp::#pick(#x, #y))),
        (x, y) => x.or(y),
    }
}

/// `u op x` as `x op' u`.
fn mirror(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        BinOp::Eq => BinOp::Eq,
        _ => return None,
    })
}

/// An integer type of at least 32 bits.
fn wide_int(s: Scalar) -> bool {
    matches!(
        s,
        Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64 | Scalar::Isize | Scalar::Usize
    )
}

/// Any integer type (a bound of any width converts to `i128` exactly).
fn wide_or_narrow_int(s: Scalar) -> bool {
    wide_int(s) || matches!(s, Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16)
}
