//! The last step of parsing: every type variable replaced by its type, and the check that at
//! most one operand of an operation has effects.

use super::*;

pub(super) type Zonk<'a> = dyn Fn(&mut Ty) + 'a;

pub(super) fn zonk_expr(
    e: &mut Expr,
    z: &Zonk<'_>,
    consts: &mut Vec<(usize, Ty)>,
    errors: &mut Vec<syn::Error>,
) {
    z(&mut e.ty);
    if let ExprKind::Const(c) = e.kind {
        consts.push((c, e.ty.clone()));
    }
    // At most one operand of an operation may have effects: C leaves their order open.
    let operands: Vec<&Expr> = match &e.kind {
        ExprKind::Binary(op, a, b, _) if !matches!(op, BinOp::And | BinOp::Or) => vec![a, b],
        ExprKind::Index { idx, .. } => idx.iter().collect(),
        ExprKind::Tuple(v)
        | ExprKind::Complex(v)
        | ExprKind::Math(_, v)
        | ExprKind::Warp(_, v)
        | ExprKind::Call { args: v, .. } => v.iter().collect(),
        ExprKind::Atomic { idx, args, .. } => idx.iter().chain(args).collect(),
        ExprKind::RecordLit { fields, .. } => fields.iter().map(|(_, e)| e).collect(),
        ExprKind::SubIndex { rec, idx, .. } => vec![&**rec, &**idx],
        _ => Vec::new(),
    };
    if operands.iter().filter(|o| o.has_effect()).count() > 1 {
        errors.push(syn::Error::new(
            e.span,
            "two operands of this operation have effects (atomics or barriers) whose order C does not fix: bind one to a `let` first",
        ));
    }
    match &mut e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a, _)
        | ExprKind::Field(a, _)
        | ExprKind::Axis(a, _)
        | ExprKind::TupleField(a, _) => zonk_expr(a, z, consts, errors),
        ExprKind::Binary(_, a, b, _) => {
            zonk_expr(a, z, consts, errors);
            zonk_expr(b, z, consts, errors);
        }
        ExprKind::Select(c, a, b) => {
            for x in [c, a, b] {
                zonk_expr(x, z, consts, errors);
            }
        }
        ExprKind::Index { idx, .. } => idx.iter_mut().for_each(|x| zonk_expr(x, z, consts, errors)),
        ExprKind::Tuple(v)
        | ExprKind::Complex(v)
        | ExprKind::Math(_, v)
        | ExprKind::Warp(_, v)
        | ExprKind::Call { args: v, .. } => {
            v.iter_mut().for_each(|x| zonk_expr(x, z, consts, errors))
        }
        ExprKind::Atomic { idx, args, .. } => idx
            .iter_mut()
            .chain(args.iter_mut())
            .for_each(|x| zonk_expr(x, z, consts, errors)),
        ExprKind::Sync(_, Some(p)) => zonk_expr(p, z, consts, errors),
        ExprKind::RecordLit { fields, .. } => fields
            .iter_mut()
            .for_each(|(_, x)| zonk_expr(x, z, consts, errors)),
        ExprKind::SubIndex { rec, idx, .. } => {
            zonk_expr(rec, z, consts, errors);
            zonk_expr(idx, z, consts, errors);
        }
        _ => {}
    }
}

pub(super) fn zonk_block(
    b: &mut Block,
    z: &Zonk<'_>,
    consts: &mut Vec<(usize, Ty)>,
    errors: &mut Vec<syn::Error>,
) {
    for s in &mut b.stmts {
        match s {
            Stmt::Let { init, .. } => {
                if let Some(e) = init {
                    zonk_expr(e, z, consts, errors)
                }
            }
            Stmt::LetTuple { init, .. } | Stmt::Expr(init) => zonk_expr(init, z, consts, errors),
            Stmt::ArrayDecl { .. } | Stmt::Break(_) | Stmt::Continue(_) => {}
            Stmt::View { kind, .. } => kind
                .exprs_mut()
                .into_iter()
                .for_each(|x| zonk_expr(x, z, consts, errors)),
            Stmt::Assign { place, value, .. } => {
                if let Place::Field { ty, .. } = place {
                    z(ty);
                }
                place
                    .exprs_mut()
                    .into_iter()
                    .for_each(|x| zonk_expr(x, z, consts, errors));
                zonk_expr(value, z, consts, errors);
            }
            Stmt::If {
                cond, then, els, ..
            } => {
                zonk_expr(cond, z, consts, errors);
                zonk_block(then, z, consts, errors);
                if let Some(e) = els {
                    zonk_block(e, z, consts, errors);
                }
            }
            Stmt::While { cond, body, .. } => {
                zonk_expr(cond, z, consts, errors);
                zonk_block(body, z, consts, errors);
            }
            Stmt::Loop { body, .. } | Stmt::Block(body) => zonk_block(body, z, consts, errors),
            Stmt::For {
                start,
                end,
                step,
                body,
                ..
            } => {
                zonk_expr(start, z, consts, errors);
                zonk_expr(end, z, consts, errors);
                if let Some((s, _)) = step {
                    zonk_expr(s, z, consts, errors);
                }
                zonk_block(body, z, consts, errors);
            }
            Stmt::Return(Some(e), _) | Stmt::Assert { cond: e, .. } => {
                zonk_expr(e, z, consts, errors)
            }
            Stmt::Return(None, _) => {}
        }
    }
}
