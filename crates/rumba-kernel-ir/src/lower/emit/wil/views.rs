//! In-kernel views in a region (see the module docs of [`super`]): which arrays a region
//! reaches, counting the roots of its views, and which views it did not make itself and so
//! makes again at its top, from the same never-reassigned arguments (`plan::normalise`).

use std::collections::HashSet;

use proc_macro2::TokenStream;

use super::body::Body;
use super::plan::{arrays_of, root, view_args};
use crate::lower::ir::*;

impl Body<'_, '_> {
    /// The arrays a region made of `stmts` (nested ones included) and `exprs` reaches, with the
    /// root of every view among them, and the views it reaches without making them (bases
    /// first); the arguments of those views are added to `used`.
    pub(super) fn region_arrays(
        &self,
        stmts: &[&Stmt],
        exprs: &[&Expr],
        used: &mut Vec<LocalId>,
    ) -> (Vec<ArrayId>, Vec<ArrayId>) {
        let f = self.plan.f;
        let mut arrays: Vec<ArrayId> = Vec::new();
        for s in stmts {
            arrays_of(s, &mut arrays);
            if let Stmt::ArrayDecl { array, .. } = s {
                arrays.push(*array);
            }
        }
        for e in exprs {
            e.visit(&mut |x| match &x.kind {
                ExprKind::Index { array, .. }
                | ExprKind::Atomic { array, .. }
                | ExprKind::Len(array)
                | ExprKind::Size(array)
                | ExprKind::Shape(array, _)
                | ExprKind::ArrayRef(array) => arrays.push(*array),
                _ => {}
            });
        }
        let made: HashSet<ArrayId> = stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::View { array, .. } => Some(*array),
                _ => None,
            })
            .collect();
        let mut remake: Vec<ArrayId> = Vec::new();
        for a in arrays.clone() {
            let mut v = a;
            while let Some(b) = f.arrays[v].base {
                if !made.contains(&v) {
                    remake.push(v);
                    view_args(&self.plan.views, v, used);
                }
                v = b;
            }
            arrays.push(root(f, a));
        }
        // A view's id is above its base's (a base exists before its views are made).
        remake.sort_unstable();
        remake.dedup();
        (arrays, remake)
    }

    /// The `let`s that make the views `remake` again at the top of a region, in order.
    pub(super) fn remade_views(&self, remake: &[ArrayId]) -> TokenStream {
        let names = self.names(true, HashSet::new());
        let mut out = TokenStream::new();
        for &v in remake {
            if let Some(s) = self.plan.view_stmt(v) {
                out.extend(self.with_r(&names, |r| r.stmt(s)));
            }
        }
        out
    }
}
