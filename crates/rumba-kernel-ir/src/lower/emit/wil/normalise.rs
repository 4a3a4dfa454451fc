//! Normalisation before planning: tuple `let`s of tuple values become one `let` per element;
//! every barrier becomes either a statement of its own or the initialiser of a fresh local
//! (`x = t.syncthreads_count(p)` is `let __rumba_bv3 = t.syncthreads_count(p); x =
//! __rumba_bv3;`); and the shape and index arguments of every in-kernel view that are not
//! literals, consts or never-reassigned locals become fresh locals (`let __rumba_va7 = i + 1;
//! let r = m.row(__rumba_va7);`), so that a region can make a view made in an earlier one
//! again. A barrier anywhere else makes the kernel run on coroutines only ([`normalise`] says
//! why).

use std::collections::HashSet;

use proc_macro2::{Ident, Span};

use super::plan::{contains_sync, own_exprs, walk};
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
    if let ExprKind::Sync(_, Some(p)) = &e.kind {
        if contains_sync(p) {
            return Err("a barrier inside a barrier's predicate".into());
        }
    }
    let (ty, span) = (e.ty.clone(), e.span);
    let l = fresh(locals, "__rumba_bv", ty.clone(), span);
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

fn normalise_stmt(s: Stmt, locals: &mut Vec<Local>, out: &mut Vec<Stmt>) -> Result<(), String> {
    let nested = || {
        Err("a barrier inside an expression other than a statement, a `let` or an assignment's value".to_string())
    };
    match s {
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
        Stmt::Expr(e) if matches!(e.kind, ExprKind::Sync(..)) => {
            if let ExprKind::Sync(_, Some(p)) = &e.kind {
                if contains_sync(p) {
                    return nested();
                }
            }
            out.push(Stmt::Expr(e));
        }
        Stmt::Let {
            local,
            init: Some(e),
            span,
        } if matches!(e.kind, ExprKind::Sync(..)) => {
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
        } if matches!(value.kind, ExprKind::Sync(..)) => {
            let idx_sync = place.exprs().into_iter().any(contains_sync);
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
            if contains_sync(&cond) {
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
            if contains_sync(&cond) {
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
            if contains_sync(&start)
                || contains_sync(&end)
                || step.as_ref().is_some_and(|(k, _)| contains_sync(k))
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
            if own_exprs(&other).into_iter().any(contains_sync) {
                return nested();
            }
            out.push(other);
        }
    }
    Ok(())
}
