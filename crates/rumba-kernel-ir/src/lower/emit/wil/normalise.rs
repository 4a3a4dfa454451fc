//! Normalisation before planning: tuple `let`s of tuple values become one `let` per element;
//! every barrier and every warp operation (the points where the body is cut) becomes either a
//! statement of its own or the initialiser of a fresh local (`x = t.syncthreads_count(p)` is
//! `let __rumba_bv3 = t.syncthreads_count(p); x = __rumba_bv3;`, and `v += t.shfl_down_sync(m,
//! v, d)` is `let __rumba_bv4 = t.shfl_down_sync(m, v, d); v += __rumba_bv4;`: Rust evaluates
//! the right-hand side of a compound assignment to a number first); and the shape and index arguments of every in-kernel view that are not
//! literals, consts or never-reassigned locals become fresh locals (`let __rumba_va7 = i + 1;
//! let r = m.row(__rumba_va7);`), so that a region can make a view made in an earlier one
//! again. A barrier or warp operation anywhere else makes the kernel run on coroutines only
//! ([`normalise`] says why).

use std::collections::HashSet;

use proc_macro2::{Ident, Span};

use super::plan::{contains_cut, is_cut, own_exprs, walk};
use crate::lower::ir::*;

/// Rewrites the function so that barriers are statements of their own (see the module docs);
/// `Err` names a construct the loop form does not support.
pub(crate) fn normalise(f: &Func) -> Result<Func, String> {
    let mut f = f.clone();
    let mut locals = std::mem::take(&mut f.locals);
    let body = std::mem::replace(&mut f.body, Block { stmts: Vec::new() });
    let mut body = normalise_block(body, &mut locals)?;
    let mut reassigned = HashSet::new();
    walk(&body, &mut Vec::new(), &mut |s, _| {
        if let Stmt::Assign { place, .. } = s {
            reassigned.extend(place.local());
        }
    });
    bind_view_args(&mut body, &mut locals, &reassigned);
    f.body = body;
    f.locals = locals;
    Ok(f)
}

/// Binds each view's shape and index arguments to fresh locals that are never reassigned, so
/// that a later region can make the same view again from them (a literal, a const, or a local
/// that is never reassigned is kept as it is: within the view's scope it holds one value).
fn bind_view_args(b: &mut Block, locals: &mut Vec<Local>, reassigned: &HashSet<LocalId>) {
    for mut s in std::mem::take(&mut b.stmts) {
        match &mut s {
            Stmt::If { then, els, .. } => {
                bind_view_args(then, locals, reassigned);
                if let Some(e) = els {
                    bind_view_args(e, locals, reassigned);
                }
            }
            Stmt::While { body, .. }
            | Stmt::Loop { body, .. }
            | Stmt::For { body, .. }
            | Stmt::Block(body) => bind_view_args(body, locals, reassigned),
            Stmt::View { kind, .. } => {
                for e in kind.exprs_mut() {
                    let kept = match e.kind {
                        ExprKind::Int(_) | ExprKind::Const(_) => true,
                        ExprKind::Local(l) => !reassigned.contains(&l),
                        _ => false,
                    };
                    if kept {
                        continue;
                    }
                    let (ty, at) = (e.ty.clone(), e.span);
                    let l = fresh(locals, "__rumba_va", ty.clone(), at);
                    let value = std::mem::replace(
                        e,
                        Expr {
                            kind: ExprKind::Local(l),
                            ty,
                            span: at,
                        },
                    );
                    b.stmts.push(Stmt::Let {
                        local: l,
                        init: Some(value),
                        span: at,
                    });
                }
            }
            _ => {}
        }
        b.stmts.push(s);
    }
}

fn fresh(locals: &mut Vec<Local>, prefix: &str, ty: Ty, span: Span) -> LocalId {
    let n = format!("{prefix}{}", locals.len());
    locals.push(Local {
        name: Ident::new(&n, span),
        c_name: n,
        ty,
        mutable: false,
    });
    locals.len() - 1
}

fn normalise_block(b: Block, locals: &mut Vec<Local>) -> Result<Block, String> {
    let mut out = Vec::with_capacity(b.stmts.len());
    for s in b.stmts {
        normalise_stmt(s, locals, &mut out)?;
    }
    Ok(Block { stmts: out })
}

fn barrier_let(e: Expr, locals: &mut Vec<Local>, out: &mut Vec<Stmt>) -> Result<Expr, String> {
    let inner = match &e.kind {
        ExprKind::Sync(_, Some(p)) => contains_cut(p),
        ExprKind::Warp(_, args) => args.iter().any(contains_cut),
        _ => false,
    };
    if inner {
        return Err("a barrier or warp operation inside a barrier's predicate or a warp operation's operands".into());
    }
    let (ty, span) = (e.ty.clone(), e.span);
    let prefix = match e.kind {
        ExprKind::Warp(..) => "__rumba_wv",
        _ => "__rumba_bv",
    };
    let l = fresh(locals, prefix, ty.clone(), span);
    out.push(Stmt::Let {
        local: l,
        init: Some(e),
        span,
    });
    Ok(Expr {
        kind: ExprKind::Local(l),
        ty,
        span,
    })
}

/// Whether `e` is an `if` expression whose branches (not its condition) contain a barrier or warp
/// operation: it becomes an `if` statement, each branch assigning its value.
fn is_cut_select(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Select(c, a, b) => !contains_cut(c) && (contains_cut(a) || contains_cut(b)),
        _ => false,
    }
}

/// `place op= if c { a } else { b }` as `if c { place op= a } else { place op= b }` (the same
/// order of evaluation: the condition, the chosen value, then the place).
fn select_to_if(
    place: Place,
    op: Option<BinOp>,
    value: Expr,
    site: Option<SiteId>,
    span: Span,
) -> Stmt {
    let ExprKind::Select(c, a, b) = value.kind else {
        unreachable!("only `if` expressions are rewritten")
    };
    let assign = |value: Expr| Block {
        stmts: vec![Stmt::Assign {
            place: place.clone(),
            op,
            value,
            site,
            span,
        }],
    };
    Stmt::If {
        cond: *c,
        then: assign(*a),
        els: Some(assign(*b)),
        span,
    }
}

/// Whether the barriers and warp operations inside `e` (not `e` itself) may be evaluated first,
/// each into a fresh local, without changing what the statement does: everything else in the
/// expression has no effect and cannot fault (no array access, call, atomic or integer
/// division), and no cut sits where it is evaluated only conditionally (an `if` branch, the
/// right of `&&` / `||`). The place of an assignment is stored to after its value, as before.
fn hoistable(e: &Expr, place: Option<&Place>) -> bool {
    fn pure(e: &Expr) -> bool {
        if is_cut(e) {
            // Its operands are evaluated where it is, before the step.
            return match &e.kind {
                ExprKind::Sync(_, Some(p)) => !contains_cut(p),
                ExprKind::Warp(_, args) => !args.iter().any(contains_cut),
                _ => true,
            };
        }
        match &e.kind {
            ExprKind::Index { .. }
            | ExprKind::Atomic { .. }
            | ExprKind::Call { .. }
            | ExprKind::Fence(_)
            | ExprKind::Binary(_, _, _, Some(_)) => false,
            ExprKind::Binary(BinOp::And | BinOp::Or, a, b, _) => {
                pure(a) && !contains_cut(b) && {
                    let mut ok = true;
                    b.visit(&mut |x| {
                        ok &= !matches!(
                            x.kind,
                            ExprKind::Index { .. }
                                | ExprKind::Atomic { .. }
                                | ExprKind::Call { .. }
                                | ExprKind::Fence(_)
                                | ExprKind::Binary(_, _, _, Some(_))
                        )
                    });
                    ok
                }
            }
            ExprKind::Select(c, a, b) => {
                pure(c) && !contains_cut(a) && !contains_cut(b) && pure(a) && pure(b)
            }
            ExprKind::Unary(_, a)
            | ExprKind::Cast(a, _)
            | ExprKind::Field(a, _)
            | ExprKind::Axis(a, _) => pure(a),
            ExprKind::Binary(_, a, b, _) => pure(a) && pure(b),
            ExprKind::Tuple(v) | ExprKind::Complex(v) | ExprKind::Math(_, v) => v.iter().all(pure),
            _ => true,
        }
    }
    let place_ok = match place {
        Some(Place::Index { idx, .. }) => idx.iter().all(|i| !contains_cut(i) && pure(i)),
        _ => true,
    };
    !is_cut(e) && contains_cut(e) && place_ok && pure(e)
}

/// Replaces every outermost barrier or warp operation in `e`, in evaluation order, by a fresh
/// local bound to it just before (`hoistable` holds).
fn hoist(e: &mut Expr, locals: &mut Vec<Local>, out: &mut Vec<Stmt>) -> Result<(), String> {
    if is_cut(e) {
        let placeholder = Expr {
            kind: ExprKind::Bool(false),
            ty: e.ty.clone(),
            span: e.span,
        };
        let cut = std::mem::replace(e, placeholder);
        *e = barrier_let(cut, locals, out)?;
        return Ok(());
    }
    match &mut e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a, _)
        | ExprKind::Field(a, _)
        | ExprKind::Axis(a, _) => hoist(a, locals, out),
        ExprKind::Binary(_, a, b, _) => {
            hoist(a, locals, out)?;
            hoist(b, locals, out)
        }
        ExprKind::Select(c, _, _) => hoist(c, locals, out),
        ExprKind::Tuple(v) | ExprKind::Complex(v) | ExprKind::Math(_, v) => {
            v.iter_mut().try_for_each(|x| hoist(x, locals, out))
        }
        _ => Ok(()),
    }
}

fn normalise_stmt(s: Stmt, locals: &mut Vec<Local>, out: &mut Vec<Stmt>) -> Result<(), String> {
    let s = match s {
        Stmt::Let {
            local,
            init: Some(mut e),
            span,
        } if hoistable(&e, None) => {
            hoist(&mut e, locals, out)?;
            Stmt::Let {
                local,
                init: Some(e),
                span,
            }
        }
        Stmt::Assign {
            place,
            op,
            mut value,
            site,
            span,
        } if hoistable(&value, Some(&place)) => {
            hoist(&mut value, locals, out)?;
            Stmt::Assign {
                place,
                op,
                value,
                site,
                span,
            }
        }
        Stmt::Expr(mut e) if hoistable(&e, None) => {
            hoist(&mut e, locals, out)?;
            Stmt::Expr(e)
        }
        s => s,
    };
    let nested = || {
        Err("a barrier or warp operation inside an expression other than a statement, a `let` or an assignment's value".to_string())
    };
    match s {
        Stmt::Let {
            local,
            init: Some(e),
            span,
        } if is_cut_select(&e) => {
            out.push(Stmt::Let {
                local,
                init: None,
                span,
            });
            let place = Place::Local(local, span);
            normalise_stmt(select_to_if(place, None, e, None, span), locals, out)?;
        }
        Stmt::Assign {
            place,
            op,
            value,
            site,
            span,
        } if is_cut_select(&value) => {
            normalise_stmt(select_to_if(place, op, value, site, span), locals, out)?;
        }
        Stmt::LetTuple {
            locals: ls,
            init:
                Expr {
                    kind: ExprKind::Tuple(parts),
                    ..
                },
            span,
        } if ls.len() == parts.len() => {
            for (l, e) in ls.into_iter().zip(parts) {
                normalise_stmt(
                    Stmt::Let {
                        local: l,
                        init: Some(e),
                        span,
                    },
                    locals,
                    out,
                )?;
            }
        }
        Stmt::Expr(e) if is_cut(&e) => {
            let inner = match &e.kind {
                ExprKind::Sync(_, Some(p)) => contains_cut(p),
                ExprKind::Warp(_, args) => args.iter().any(contains_cut),
                _ => false,
            };
            if inner {
                return nested();
            }
            out.push(Stmt::Expr(e));
        }
        Stmt::Let {
            local,
            init: Some(e),
            span,
        } if is_cut(&e) => {
            let v = barrier_let(e, locals, out)?;
            out.push(Stmt::Let {
                local,
                init: Some(v),
                span,
            });
        }
        Stmt::Assign {
            place,
            op,
            value,
            site,
            span,
        } if is_cut(&value) => {
            let idx_sync = place.exprs().into_iter().any(contains_cut);
            if idx_sync {
                return nested();
            }
            let v = barrier_let(value, locals, out)?;
            out.push(Stmt::Assign {
                place,
                op,
                value: v,
                site,
                span,
            });
        }
        Stmt::If {
            cond,
            then,
            els,
            span,
        } => {
            if contains_cut(&cond) {
                return nested();
            }
            out.push(Stmt::If {
                cond,
                then: normalise_block(then, locals)?,
                els: els.map(|b| normalise_block(b, locals)).transpose()?,
                span,
            });
        }
        Stmt::While { cond, body, span } => {
            if contains_cut(&cond) {
                return nested();
            }
            out.push(Stmt::While {
                cond,
                body: normalise_block(body, locals)?,
                span,
            });
        }
        Stmt::Loop { body, span } => out.push(Stmt::Loop {
            body: normalise_block(body, locals)?,
            span,
        }),
        Stmt::Block(b) => out.push(Stmt::Block(normalise_block(b, locals)?)),
        Stmt::For {
            var,
            start,
            end,
            inclusive,
            step,
            body,
            span,
        } => {
            if contains_cut(&start)
                || contains_cut(&end)
                || step.as_ref().is_some_and(|(k, _)| contains_cut(k))
            {
                return nested();
            }
            out.push(Stmt::For {
                var,
                start,
                end,
                inclusive,
                step,
                body: normalise_block(body, locals)?,
                span,
            });
        }
        other => {
            if own_exprs(&other).into_iter().any(contains_cut) {
                return nested();
            }
            out.push(other);
        }
    }
    Ok(())
}
