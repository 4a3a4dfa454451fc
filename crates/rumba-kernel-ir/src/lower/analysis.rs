//! Analyses over the IR that a work-item-loop emitter (issue #12) builds on.
//!
//! - **Uniformity**: a local is *uniform* when every value it is given is computed from
//!   parameters, consts, literals, `block_idx` / `block_dim` / `grid_dim`, array shapes (not
//!   those of in-kernel views, which each thread makes), `syncthreads_*` results and other
//!   uniform locals, at a point reached by every thread of the block; otherwise *varying* (thread indices, memory loads, atomics, anything assigned under a
//!   varying condition or after a varying `return`). Loads are varying because memory can
//!   change between them.
//! - **Barriers**: each `syncthreads*` with whether its control path is uniform (every
//!   enclosing condition, loop bound and exit decision uniform). A barrier under varying control
//!   is not an error (the simulator checks divergence at run time) but the loop form must keep
//!   the decision per thread and check it.
//! - **Warp operations**: each with whether its control path is uniform. OpenCL without
//!   subgroups emulates them with work-group barriers, so there only uniform ones can run.
//! - **Liveness across barriers**: the locals defined before a barrier and used after it (or,
//!   for a barrier in a loop, used anywhere in that loop): these need per-thread storage when
//!   the body is cut at its barriers.
//!
//! The analyses are conservative approximations: "uniform" is a proof, "varying" is not.
//!
//! [`analyse`] counts the shape of every in-kernel view as varying (the loop form never names a
//! view in block code). [`barrier_control`] tracks view shapes: a reshape's shape is its
//! arguments', a cast's and an axis view's follow from the base's (the index of `row(i)` does
//! not change the row's length), so a loop over `tile.row(i).len()` around a barrier is
//! uniform there. The OpenCL form refuses a barrier that even that finds under varying
//! control.

use proc_macro2::Span;

use super::ir::*;

/// One barrier site.
#[derive(Debug, Clone)]
pub struct BarrierSite {
    /// Where it is.
    pub span: Span,
    /// Which barrier.
    pub kind: SyncKind,
    /// Whether every enclosing decision is uniform.
    pub uniform_control: bool,
    /// Position in statement order (pre-order numbering).
    pub position: usize,
}

/// One warp operation (`syncwarp`, a vote, a shuffle, `activemask`).
#[derive(Debug, Clone)]
pub struct WarpSite {
    /// Where it is.
    pub span: Span,
    /// Whether every enclosing decision is uniform (the whole block reaches it together).
    pub uniform_control: bool,
}

/// The results.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    /// Every warp operation.
    pub warp_ops: Vec<WarpSite>,
    /// Per local: whether it may differ between the threads of a block.
    pub varying: Vec<bool>,
    /// Every barrier.
    pub barriers: Vec<BarrierSite>,
    /// Locals live across at least one barrier (sorted).
    pub live_across_barrier: Vec<LocalId>,
}

impl Analysis {
    /// A one-line-per-fact summary (for golden files and debugging).
    pub fn summary(&self, f: &Func) -> String {
        let mut s = String::new();
        for (k, l) in f.locals.iter().enumerate() {
            s.push_str(&format!(
                "local {}: {}\n",
                l.c_name,
                if self.varying[k] {
                    "varying"
                } else {
                    "uniform"
                }
            ));
        }
        for b in &self.barriers {
            s.push_str(&format!(
                "barrier {:?} at #{}: {} control\n",
                b.kind,
                b.position,
                if b.uniform_control {
                    "uniform"
                } else {
                    "varying"
                }
            ));
        }
        let live: Vec<&str> = self
            .live_across_barrier
            .iter()
            .map(|&l| f.locals[l].c_name.as_str())
            .collect();
        s.push_str(&format!("live across barriers: [{}]\n", live.join(", ")));
        s
    }
}

struct Uni<'a> {
    f: &'a Func,
    varying: Vec<bool>,
    /// Per array, whether its shape may differ between threads; `None`: every view's may.
    view_shapes: Option<Vec<bool>>,
    changed: bool,
}

/// Calls `f` on `e` and its sub-expressions, except a barrier's predicate: a barrier's value is
/// the same in every thread whatever the predicates were.
fn visit_values(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Sync(..) => {}
        ExprKind::Unary(_, a) | ExprKind::Cast(a, _) | ExprKind::Field(a, _) => visit_values(a, f),
        ExprKind::Axis(a, _) | ExprKind::TupleField(a, _) => visit_values(a, f),
        ExprKind::Binary(_, a, b, _) => {
            visit_values(a, f);
            visit_values(b, f);
        }
        ExprKind::Select(c, a, b) => {
            visit_values(c, f);
            visit_values(a, f);
            visit_values(b, f);
        }
        ExprKind::Index { idx, .. } => idx.iter().for_each(|x| visit_values(x, f)),
        ExprKind::Tuple(v)
        | ExprKind::Complex(v)
        | ExprKind::Math(_, v)
        | ExprKind::Call { args: v, .. } => v.iter().for_each(|x| visit_values(x, f)),
        ExprKind::Atomic { idx, args, .. } => {
            idx.iter().chain(args).for_each(|x| visit_values(x, f));
        }
        ExprKind::RecordLit { fields, .. } => fields.iter().for_each(|(_, x)| visit_values(x, f)),
        ExprKind::SubIndex { rec, idx, .. } => {
            visit_values(rec, f);
            visit_values(idx, f);
        }
        _ => {}
    }
}

impl Uni<'_> {
    fn expr_varying(&self, e: &Expr) -> bool {
        let mut v = false;
        visit_values(e, &mut |x| match &x.kind {
            ExprKind::Local(l) => v |= self.varying[*l],
            ExprKind::Thread(q) => {
                v |= matches!(
                    q,
                    ThreadQuery::ThreadIdx | ThreadQuery::Grid(_) | ThreadQuery::LaneId
                )
            }
            ExprKind::Index { .. } | ExprKind::Atomic { .. } | ExprKind::Warp(..) => v = true,
            // A device function that takes the thread context, or an array (whose memory it
            // reads), may give each thread its own value.
            ExprKind::Call {
                pass_thread, args, ..
            } => v |= *pass_thread || args.iter().any(|a| matches!(a.kind, ExprKind::ArrayRef(_))),
            // An in-kernel view's shape may come from a thread's values (`a.reshape((n, i))`),
            // and the view is made by each thread: its shape counts as varying.
            ExprKind::Len(a) | ExprKind::Size(a) | ExprKind::Shape(a, _) => {
                v |= match &self.view_shapes {
                    Some(shapes) => shapes[*a],
                    None => self.f.arrays[*a].base.is_some(),
                }
            }
            _ => {}
        });
        v
    }

    fn set(&mut self, l: LocalId) {
        if !self.varying[l] {
            self.varying[l] = true;
            self.changed = true;
        }
    }

    /// Returns whether the block may end with some threads having left (varying jump).
    fn block(&mut self, b: &Block, mut ctl: bool) -> bool {
        let mut jumped = false;
        for s in &b.stmts {
            let j = self.stmt(s, ctl);
            if j {
                jumped = true;
                // After a varying return/break/continue, the rest runs for some threads only.
                ctl = true;
            }
        }
        jumped
    }

    fn stmt(&mut self, s: &Stmt, ctl: bool) -> bool {
        match s {
            Stmt::Let { local, init, .. } => {
                if ctl || init.as_ref().is_some_and(|e| self.expr_varying(e)) {
                    self.set(*local);
                }
                false
            }
            Stmt::LetTuple { locals, init, .. } => {
                let v = ctl || self.expr_varying(init);
                if let ExprKind::Tuple(parts) = &init.kind {
                    for (l, p) in locals.iter().zip(parts) {
                        if ctl || self.expr_varying(p) {
                            self.set(*l);
                        }
                    }
                } else if v {
                    locals.iter().for_each(|l| self.set(*l));
                }
                false
            }
            Stmt::Assign { place, value, .. } => {
                if let Some(l) = place.local() {
                    let idx_varying = place.exprs().iter().any(|e| self.expr_varying(e));
                    if ctl || self.expr_varying(value) || idx_varying {
                        self.set(l);
                    }
                }
                false
            }
            Stmt::If {
                cond, then, els, ..
            } => {
                let c = ctl || self.expr_varying(cond);
                let a = self.block(then, c);
                let b = els.as_ref().is_some_and(|e| self.block(e, c));
                (a || b) && c
            }
            Stmt::While { cond, body, .. } => {
                let mut c = ctl || self.expr_varying(cond);
                if self.block(body, c) {
                    c = true;
                    self.block(body, c);
                }
                let _ = c;
                false
            }
            Stmt::Loop { body, .. } | Stmt::Block(body) => {
                if self.block(body, ctl) {
                    self.block(body, true);
                }
                false
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let c = ctl
                    || self.expr_varying(start)
                    || self.expr_varying(end)
                    || step.as_ref().is_some_and(|(s, _)| self.expr_varying(s));
                if c {
                    self.set(*var);
                }
                if self.block(body, c) {
                    self.set(*var);
                    self.block(body, true);
                }
                false
            }
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(..) => ctl,
            Stmt::View {
                array, base, kind, ..
            } => {
                let varies = match kind {
                    ViewKind::Reshape(dims, _) => dims.iter().any(|d| self.expr_varying(d)),
                    // A slice's extents come from its ranges (an index only drops an axis).
                    ViewKind::Slice(comps) => comps.iter().any(|c| match c {
                        SliceComp::Index(_) => false,
                        SliceComp::Range { start, stop, step } => [start, stop, step]
                            .into_iter()
                            .flatten()
                            .any(|e| self.expr_varying(e)),
                    }),
                    ViewKind::Cast | ViewKind::Axis(..) => false,
                };
                if let Some(shapes) = &mut self.view_shapes {
                    if (varies || shapes[*base]) && !shapes[*array] {
                        shapes[*array] = true;
                        self.changed = true;
                    }
                }
                false
            }
            Stmt::ArrayDecl { .. } | Stmt::Expr(_) | Stmt::Assert { .. } => false,
        }
    }
}

struct Walk<'a> {
    varying: &'a [bool],
    pos: usize,
    barriers: Vec<BarrierSite>,
    warp_ops: Vec<WarpSite>,
    /// (local, position) of definitions and uses.
    defs: Vec<(LocalId, usize)>,
    uses: Vec<(LocalId, usize)>,
    /// Position ranges of loops.
    loops: Vec<(usize, usize)>,
}

impl Walk<'_> {
    fn expr(&mut self, e: &Expr, ctl: bool) {
        let pos = self.pos;
        let varying = self.varying;
        let mut found = Vec::new();
        e.visit(&mut |x| match &x.kind {
            ExprKind::Local(l) => found.push(*l),
            ExprKind::Sync(k, _) => self.barriers.push(BarrierSite {
                span: x.span,
                kind: *k,
                uniform_control: !ctl,
                position: pos,
            }),
            ExprKind::Warp(..) => self.warp_ops.push(WarpSite {
                span: x.span,
                uniform_control: !ctl,
            }),
            _ => {}
        });
        let _ = varying;
        self.uses.extend(found.into_iter().map(|l| (l, pos)));
    }

    fn uni(&self, e: &Expr) -> bool {
        let mut v = false;
        visit_values(e, &mut |x| match &x.kind {
            ExprKind::Local(l) => v |= self.varying[*l],
            ExprKind::Thread(
                ThreadQuery::ThreadIdx | ThreadQuery::Grid(_) | ThreadQuery::LaneId,
            )
            | ExprKind::Index { .. }
            | ExprKind::Atomic { .. } => v = true,
            _ => {}
        });
        !v
    }

    fn block(&mut self, b: &Block, ctl: bool) {
        let mut ctl = ctl;
        for s in &b.stmts {
            self.pos += 1;
            ctl |= self.stmt(s, ctl);
        }
    }

    fn stmt(&mut self, s: &Stmt, ctl: bool) -> bool {
        match s {
            Stmt::Let { local, init, .. } => {
                if let Some(e) = init {
                    self.expr(e, ctl);
                }
                self.defs.push((*local, self.pos));
            }
            Stmt::LetTuple { locals, init, .. } => {
                self.expr(init, ctl);
                self.defs.extend(locals.iter().map(|l| (*l, self.pos)));
            }
            Stmt::Assign { place, value, .. } => {
                self.expr(value, ctl);
                for e in place.exprs() {
                    self.expr(e, ctl);
                }
                if let Some(l) = place.local() {
                    if matches!(place, Place::Field { .. }) {
                        // A field assignment keeps the rest of the record: a use, too.
                        self.uses.push((l, self.pos));
                    }
                    self.defs.push((l, self.pos));
                }
            }
            Stmt::Expr(e) | Stmt::Assert { cond: e, .. } => self.expr(e, ctl),
            Stmt::Return(e, _) => {
                if let Some(e) = e {
                    self.expr(e, ctl);
                }
                return ctl;
            }
            Stmt::Break(_) | Stmt::Continue(_) => return ctl,
            Stmt::If {
                cond, then, els, ..
            } => {
                self.expr(cond, ctl);
                let c = ctl || !self.uni(cond);
                self.block(then, c);
                if let Some(e) = els {
                    self.block(e, c);
                }
            }
            Stmt::While { cond, body, .. } => {
                let start = self.pos;
                self.expr(cond, ctl);
                let c = ctl || !self.uni(cond);
                self.block(body, c);
                self.loops.push((start, self.pos));
            }
            Stmt::Loop { body, .. } => {
                let start = self.pos;
                self.block(body, ctl);
                self.loops.push((start, self.pos));
            }
            Stmt::Block(body) => self.block(body, ctl),
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
                ..
            } => {
                let p = self.pos;
                self.expr(start, ctl);
                self.expr(end, ctl);
                if let Some((s, _)) = step {
                    self.expr(s, ctl);
                }
                self.defs.push((*var, p));
                let c = ctl || self.varying[*var];
                self.block(body, c);
                self.loops.push((p, self.pos));
            }
            Stmt::ArrayDecl { .. } => {}
            Stmt::View { kind, .. } => kind.exprs().into_iter().for_each(|e| self.expr(e, ctl)),
        }
        false
    }
}

/// Runs the analyses.
pub fn analyse(f: &Func) -> Analysis {
    analyse_with(f, None)
}

/// The barriers with whether their control is uniform, tracking the shapes of in-kernel views
/// (see the module docs): what the OpenCL form refuses.
pub fn barrier_control(f: &Func) -> Vec<BarrierSite> {
    analyse_with(f, Some(vec![false; f.arrays.len()])).barriers
}

fn analyse_with(f: &Func, view_shapes: Option<Vec<bool>>) -> Analysis {
    let mut u = Uni {
        f,
        varying: vec![false; f.locals.len()],
        view_shapes,
        changed: true,
    };
    // Value parameters are uniform; everything else starts uniform and only ever turns varying,
    // so the fixpoint terminates.
    while u.changed {
        u.changed = false;
        u.block(&f.body, false);
    }
    let _ = u.f;
    let varying = u.varying;
    let mut w = Walk {
        varying: &varying,
        pos: 0,
        barriers: Vec::new(),
        warp_ops: Vec::new(),
        defs: Vec::new(),
        uses: Vec::new(),
        loops: Vec::new(),
    };
    w.block(&f.body, false);
    let mut live = Vec::new();
    for l in 0..f.locals.len() {
        let first_def = w.defs.iter().filter(|d| d.0 == l).map(|d| d.1).min();
        let Some(def) = first_def else { continue };
        let uses: Vec<usize> = w.uses.iter().filter(|u| u.0 == l).map(|u| u.1).collect();
        let across = w.barriers.iter().any(|b| {
            if def >= b.position {
                // Defined after the barrier: live across it only through a loop around both.
                return w.loops.iter().any(|&(s, e)| {
                    s <= b.position
                        && b.position <= e
                        && s < def
                        && def <= e
                        && uses.iter().any(|&u| s <= u && u <= e && u < def)
                });
            }
            uses.iter().any(|&u| u > b.position)
                || w.loops.iter().any(|&(s, e)| {
                    s <= b.position
                        && b.position <= e
                        && def <= s
                        && uses.iter().any(|&u| s <= u && u <= e)
                })
        });
        if across {
            live.push(l);
        }
    }
    let barriers = std::mem::take(&mut w.barriers);
    Analysis {
        warp_ops: std::mem::take(&mut w.warp_ops),
        varying,
        barriers,
        live_across_barrier: live,
    }
}
