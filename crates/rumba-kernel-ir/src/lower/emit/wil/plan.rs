//! The plan of a work-item-loop body: which statements run once per block ("lifted": they
//! contain a barrier, define a block-uniform value, or `break`/`continue` a lifted loop) and
//! which per work-item inside regions; where each local lives; how each array parameter is
//! reached; which locals are the thread's own index (its linear index `t.grid1()`, or a
//! component of `t.grid2()`) or an array's extent.
//!
//! The planned function is normalised first ([`normalise`](super::normalise)). A device
//! function that takes the thread context, or a value live across barriers whose type is not
//! plain data, makes the kernel run on coroutines only ([`Plan::new`] says why).

use std::collections::{HashMap, HashSet};

use crate::lower::analysis;
use crate::lower::ir::*;

/// Where a local lives in the block body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Storage {
    /// One value per block: a `let` of the block body (uniform, used across regions).
    BlockScalar,
    /// Used inside one region only: a `let` of the region closure.
    RegionLocal,
    /// A pure function of the thread's indices and block scalars, live across regions:
    /// recomputed at the start of every region that uses it.
    Recompute,
    /// Varies per work-item and lives across regions: a context array indexed by work-item.
    Context,
}

/// How the body reaches an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// A read-only parameter (`&Arr`, `&ConstArr`): `GlobalIn`, plain or atomic reads.
    Input,
    /// A 1-d `&mut Arr` parameter read and stored to only at the thread's own linear index, or
    /// a 2-d one only at `(y, x)` with `(x, y) = t.grid2()`: `OwnOut`.
    OwnOut,
    /// Any other `&mut Arr` parameter: a `GlobalView` (atomic).
    View,
    /// Shared or dynamic shared memory: a block array declared once at the top.
    Shared,
    /// A local array: one per work-item.
    Local,
    /// A read-only parameter (`&Arr`, `&ConstArr`) that in-kernel views are made of: the
    /// per-thread body's `GlobalView`, so that its views read, check and fault as there.
    ViewedIn,
    /// An in-kernel view: made where the kernel makes it, in the region that runs that
    /// statement, and made again from the same arguments at the top of every later region
    /// that uses it.
    Derived,
}

/// A component of the thread's own index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Own {
    /// The linear index `t.grid1()`.
    Linear,
    /// `t.grid2().0`, the column of a 2-d own index `(y, x)`.
    X,
    /// `t.grid2().1`, the row.
    Y,
}

/// A statement's identity (its address in the normalised function, which is not moved while
/// planned).
pub(crate) fn id(s: &Stmt) -> usize {
    s as *const Stmt as usize
}

/// The plan.
pub(crate) struct Plan<'f> {
    pub(crate) f: &'f Func,
    pub(crate) lifted: HashSet<usize>,
    pub(crate) storage: Vec<Storage>,
    pub(crate) reach: Vec<Reach>,
    /// Locals holding a component of the thread's own index (`t.grid1()`, `t.grid2()`), never
    /// reassigned.
    pub(crate) own_index: Vec<Option<Own>>,
    /// Locals holding an extent of a parameter array (`let n = a.shape()[k]`, `a.len()`),
    /// never reassigned: the array and the axis.
    pub(crate) extent: Vec<Option<(ArrayId, usize)>>,
    /// Whether the kernel has a barrier.
    pub(crate) has_barrier: bool,
    /// The statement that makes each in-kernel view.
    pub(crate) views: HashMap<ArrayId, &'f Stmt>,
    /// Whether each local is assigned after its declaration.
    pub(crate) reassigned: Vec<bool>,
}

/// One frame of a statement's position: the block, the index in it, the statement.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    block: usize,
    index: usize,
    stmt: usize,
}

/// Where a local is defined and used.
#[derive(Default, Clone)]
struct Occurrences {
    /// Paths of the statements that define it (let, assignment).
    defs: Vec<Vec<Frame>>,
    /// Paths of the statements that use it.
    uses: Vec<Vec<Frame>>,
    /// The `let` (or the `for` of a loop variable).
    decl: Option<Vec<Frame>>,
    /// Whether it is a `for` loop variable (and of which statement).
    for_of: Option<usize>,
    /// Whether it is assigned after its declaration.
    assigned: bool,
}

fn child_blocks(s: &Stmt) -> Vec<&Block> {
    match s {
        Stmt::If { then, els, .. } => std::iter::once(then).chain(els.as_ref()).collect(),
        Stmt::While { body, .. } | Stmt::Loop { body, .. } | Stmt::For { body, .. } => {
            vec![body]
        }
        Stmt::Block(b) => vec![b],
        _ => Vec::new(),
    }
}

/// The expressions a statement evaluates itself (not those of its child blocks).
pub(crate) fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    match s {
        Stmt::Let { init, .. } => init.iter().collect(),
        Stmt::LetTuple { init, .. } => vec![init],
        Stmt::Assign { place, value, .. } => {
            let mut v = vec![value];
            v.extend(place.exprs());
            v
        }
        Stmt::Expr(e) | Stmt::Assert { cond: e, .. } => vec![e],
        Stmt::If { cond, .. } | Stmt::While { cond, .. } => vec![cond],
        Stmt::For {
            start, end, step, ..
        } => {
            let mut v = vec![start, end];
            v.extend(step.as_ref().map(|(k, _)| k));
            v
        }
        Stmt::Return(e, _) => e.iter().collect(),
        Stmt::View { kind, .. } => kind.exprs(),
        _ => Vec::new(),
    }
}

/// The arrays statement `s` reaches itself (not through its child blocks): indexed, asked
/// its shape, stored to, or made a view of.
pub(crate) fn arrays_of(s: &Stmt, out: &mut Vec<ArrayId>) {
    for e in own_exprs(s) {
        e.visit(&mut |x| match &x.kind {
            ExprKind::Index { array, .. }
            | ExprKind::Atomic { array, .. }
            | ExprKind::Len(array)
            | ExprKind::Size(array)
            | ExprKind::Shape(array, _)
            | ExprKind::ArrayRef(array) => out.push(*array),
            _ => {}
        });
    }
    match s {
        Stmt::Assign { place, .. } if place.array().is_some() => {
            out.extend(place.array());
        }
        Stmt::View { base, .. } => out.push(*base),
        _ => {}
    }
}

/// The locals view `a` (and every view it is made of) is made from; nothing for an array that
/// is not a view.
pub(crate) fn view_args(views: &HashMap<ArrayId, &Stmt>, a: ArrayId, out: &mut Vec<LocalId>) {
    let mut next = Some(a);
    while let Some(v) = next {
        next = None;
        if let Some(Stmt::View { base, kind, .. }) = views.get(&v) {
            for e in kind.exprs() {
                locals_of(e, out);
            }
            next = Some(*base);
        }
    }
}

/// The array at the end of `a`'s chain of bases (`a` itself when it is not a view).
pub(crate) fn root(f: &Func, mut a: ArrayId) -> ArrayId {
    while let Some(b) = f.arrays[a].base {
        a = b;
    }
    a
}

/// Calls `f` on every statement with its path (outermost first, the statement last).
pub(super) fn walk<'a>(b: &'a Block, path: &mut Vec<Frame>, f: &mut dyn FnMut(&'a Stmt, &[Frame])) {
    for (index, s) in b.stmts.iter().enumerate() {
        path.push(Frame {
            block: b as *const Block as usize,
            index,
            stmt: id(s),
        });
        f(s, path);
        for c in child_blocks(s) {
            walk(c, path, f);
        }
        path.pop();
    }
}

/// Whether `e` is a barrier or a warp operation: a point where the body is cut.
pub(super) fn is_cut(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Sync(..) | ExprKind::Warp(..))
}

/// Whether node `e` (not its operands) reaches memory or the other work-items: an element
/// access, an atomic, a call, a barrier, a fence or a warp operation. An expression without such
/// a node is a pure function of its locals, parameters and thread queries.
pub(super) fn reaches_memory(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Index { .. }
            | ExprKind::Atomic { .. }
            | ExprKind::Call { .. }
            | ExprKind::Sync(..)
            | ExprKind::Fence(_)
            | ExprKind::Warp(..)
    )
}

/// Whether `e` contains a barrier or a warp operation.
pub(super) fn contains_cut(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= is_cut(x));
    found
}

/// The locals an expression reads.
pub(crate) fn locals_of(e: &Expr, out: &mut Vec<LocalId>) {
    e.visit(&mut |x| {
        if let ExprKind::Local(l) = x.kind {
            out.push(l);
        }
    });
}

impl<'f> Plan<'f> {
    /// Plans the normalised function `f`; `Err` says why the loop form cannot express it.
    pub(crate) fn new(f: &'f Func) -> Result<Plan<'f>, String> {
        let an = analysis::analyse(f);
        let varying = an.varying;
        let has_barrier = !an.barriers.is_empty();
        let mut blocks: HashMap<usize, &Block> = HashMap::new();
        blocks.insert(&f.body as *const Block as usize, &f.body);
        let mut occ: Vec<Occurrences> = vec![Occurrences::default(); f.locals.len()];
        let mut syncs: Vec<Vec<Frame>> = Vec::new();
        let mut jumps: Vec<Vec<Frame>> = Vec::new();
        let mut loops: HashSet<usize> = HashSet::new();
        let mut thread_calls = false;
        let mut views: HashMap<ArrayId, &Stmt> = HashMap::new();
        walk(&f.body, &mut Vec::new(), &mut |s, _| {
            if let Stmt::View { array, .. } = s {
                views.insert(*array, s);
            }
        });
        walk(&f.body, &mut Vec::new(), &mut |s, path| {
            for c in child_blocks(s) {
                blocks.insert(c as *const Block as usize, c);
            }
            let path = path.to_vec();
            let mut used = Vec::new();
            for e in own_exprs(s) {
                locals_of(e, &mut used);
                e.visit(&mut |x| {
                    if let ExprKind::Call {
                        pass_thread: true, ..
                    } = x.kind
                    {
                        thread_calls = true;
                    }
                });
                if contains_cut(e) {
                    syncs.push(path.clone());
                }
            }
            // Reaching a view uses what it is made from: a region that does not make it makes
            // it again.
            let mut reached = Vec::new();
            arrays_of(s, &mut reached);
            for a in reached {
                view_args(&views, a, &mut used);
            }
            for l in used {
                occ[l].uses.push(path.clone());
            }
            match s {
                Stmt::Let { local, .. } => {
                    occ[*local].decl = Some(path.clone());
                    occ[*local].defs.push(path.clone());
                }
                Stmt::LetTuple { locals: ls, .. } => {
                    for l in ls {
                        occ[*l].decl = Some(path.clone());
                        occ[*l].defs.push(path.clone());
                    }
                }
                Stmt::Assign { place, .. } if place.local().is_some() => {
                    let l = &place.local().expect("checked");
                    if matches!(place, Place::Field { .. }) {
                        // The rest of the record is kept: a use as well.
                        occ[*l].uses.push(path.clone());
                    }
                    occ[*l].defs.push(path.clone());
                    occ[*l].assigned = true;
                }
                Stmt::For { var, .. } => {
                    occ[*var].decl = Some(path.clone());
                    occ[*var].for_of = Some(id(s));
                    loops.insert(id(s));
                }
                Stmt::While { .. } | Stmt::Loop { .. } => {
                    loops.insert(id(s));
                }
                Stmt::Break(_) | Stmt::Continue(_) => jumps.push(path.clone()),
                _ => {}
            }
        });
        if thread_calls {
            return Err(
                "it calls a #[rumba::device] function that takes the thread context".into(),
            );
        }
        let params = value_params(f);
        if params.iter().any(|l| varying[*l]) {
            return Err("a by-value parameter is reassigned under thread-dependent control".into());
        }

        // The lifting fixpoint (see the module docs).
        let ancestors = |p: &[Frame], set: &mut HashSet<usize>| {
            for fr in p {
                set.insert(fr.stmt);
            }
        };
        let mut lifted: HashSet<usize> = HashSet::new();
        for p in &syncs {
            ancestors(p, &mut lifted);
        }
        let mut storage;
        loop {
            storage = classify(f, &varying, &occ, &params, &lifted, &blocks);
            let mut next = lifted.clone();
            for (l, o) in occ.iter().enumerate() {
                if storage[l] == Storage::BlockScalar && o.for_of.is_none() && !params.contains(&l)
                {
                    for p in &o.defs {
                        ancestors(p, &mut next);
                    }
                }
            }
            for p in &jumps {
                // The innermost loop around the jump: if it is lifted, so is the path to it.
                if let Some(k) = p.iter().rposition(|fr| loops.contains(&fr.stmt)) {
                    if next.contains(&p[k].stmt) {
                        for fr in &p[k..] {
                            next.insert(fr.stmt);
                        }
                    }
                }
            }
            if next == lifted {
                break;
            }
            lifted = next;
        }
        for (l, s) in storage.iter().enumerate() {
            if *s == Storage::Context
                && !matches!(
                    f.locals[l].ty,
                    Ty::Scalar(_) | Ty::Record(_) | Ty::Complex(_)
                )
            {
                return Err(format!(
                    "`{}` (not a number or record) lives across a barrier",
                    f.locals[l].name
                ));
            }
        }

        // The thread's own index — `t.grid1()`, the components of `t.grid2()` — or an array's
        // extent, in a local that only ever holds it (declaration order: what one is made of
        // is decided first).
        let mut own_index = vec![None; f.locals.len()];
        let mut extent = vec![None; f.locals.len()];
        walk(&f.body, &mut Vec::new(), &mut |s, _| {
            let once = |l: LocalId| {
                let o = &occ[l];
                o.defs.len() == 1 && !o.assigned && o.for_of.is_none()
            };
            match s {
                Stmt::Let {
                    local,
                    init: Some(e),
                    ..
                } if once(*local) => {
                    own_index[*local] = own_of(e, &own_index);
                    extent[*local] = extent_of(f, e, &extent);
                }
                Stmt::LetTuple {
                    locals: ls,
                    init:
                        Expr {
                            kind: ExprKind::Thread(ThreadQuery::Grid(2)),
                            ..
                        },
                    ..
                } if ls.len() == 2 => {
                    for (l, o) in ls.iter().zip([Own::X, Own::Y]) {
                        if once(*l) {
                            own_index[*l] = Some(o);
                        }
                    }
                }
                _ => {}
            }
        });

        // Arrays that in-kernel views are made of, or that pass to device functions, are reached
        // through the per-thread body's views (the callee and the view methods take those).
        // … and arrays whose elements' fields are stored (through a view of the field).
        let mut field_stores = Vec::new();
        walk(&f.body, &mut Vec::new(), &mut |s, _| {
            if let Stmt::Assign {
                place: Place::Field { base, .. },
                ..
            } = s
            {
                field_stores.extend(base.array());
            }
        });
        let roots: HashSet<ArrayId> = views
            .keys()
            .map(|&v| root(f, v))
            .chain(f.array_args.iter().map(|a| root(f, a.array)))
            .chain(field_stores.into_iter().map(|a| root(f, a)))
            .collect();
        let reach = f
            .arrays
            .iter()
            .enumerate()
            .map(|(a, arr)| match arr.space {
                _ if arr.base.is_some() => Reach::Derived,
                Space::Global { writable: false } | Space::Const if roots.contains(&a) => {
                    Reach::ViewedIn
                }
                Space::Global { writable: false } | Space::Const => Reach::Input,
                Space::Global { writable: true } => {
                    if (arr.rank == 1 || arr.rank == 2)
                        && !roots.contains(&a)
                        && only_own_accesses(f, a, &own_index)
                    {
                        Reach::OwnOut
                    } else {
                        Reach::View
                    }
                }
                Space::Shared | Space::DynamicShared => Reach::Shared,
                Space::Local => Reach::Local,
                // Device functions have no block form.
                Space::Param { .. } => Reach::View,
            })
            .collect();

        Ok(Plan {
            f,
            lifted,
            storage,
            reach,
            own_index,
            extent,
            has_barrier,
            views,
            reassigned: occ.iter().map(|o| o.assigned).collect(),
        })
    }

    /// Whether `s` runs once per block.
    pub(crate) fn is_lifted(&self, s: &Stmt) -> bool {
        self.lifted.contains(&id(s))
    }

    /// Whether `e` can be evaluated once per block (it reads only block scalars, parameters,
    /// consts, shapes and block-uniform thread queries).
    pub(crate) fn is_block_expr(&self, e: &Expr) -> bool {
        self.is_uniform_with(e, &[])
    }

    /// Whether `e` is the same for every work-item of a block where the locals `also` are (a
    /// lane loop's variable and the uniform locals before it, `lanes`):
    /// [`is_block_expr`](Self::is_block_expr) reading those as block scalars.
    pub(crate) fn is_uniform_with(&self, e: &Expr, also: &[LocalId]) -> bool {
        let mut ok = true;
        e.visit(&mut |x| match &x.kind {
            ExprKind::Local(l) => {
                ok &= also.contains(l) || self.storage[*l] == Storage::BlockScalar;
            }
            ExprKind::Thread(q) => {
                ok &= !matches!(
                    q,
                    ThreadQuery::ThreadIdx | ThreadQuery::Grid(_) | ThreadQuery::LaneId
                )
            }
            // A view is made per work-item, in regions only.
            ExprKind::Len(a) | ExprKind::Size(a) | ExprKind::Shape(a, _) => {
                ok &= self.f.arrays[*a].base.is_none()
            }
            _ if reaches_memory(x) => ok = false,
            _ => {}
        });
        ok
    }

    /// The statement that makes view `a`.
    pub(crate) fn view_stmt(&self, a: ArrayId) -> Option<&'f Stmt> {
        self.views.get(&a).copied()
    }

    /// Which component of the thread's own index `e` is.
    pub(crate) fn own_of(&self, e: &Expr) -> Option<Own> {
        own_of(e, &self.own_index)
    }

    /// A component of the thread's own index plus a constant: `i`, `i + c`, `c + i`, `i - c`
    /// (`i` the component, `c` an integer literal).
    pub(crate) fn own_offset(&self, e: &Expr) -> Option<(Own, isize)> {
        if let Some(o) = self.own_of(e) {
            return Some((o, 0));
        }
        let ExprKind::Binary(op, a, b, _) = &e.kind else {
            return None;
        };
        let lit = |x: &Expr| match x.kind {
            ExprKind::Int(v) => isize::try_from(v)
                .ok()
                .filter(|v| v.unsigned_abs() <= 1 << 16),
            _ => None,
        };
        match op {
            BinOp::Add => match (self.own_of(a), lit(b), self.own_of(b), lit(a)) {
                (Some(o), Some(c), ..) | (.., Some(o), Some(c)) => Some((o, c)),
                _ => None,
            },
            BinOp::Sub => Some((self.own_of(a)?, -lit(b)?)),
            _ => None,
        }
    }

    /// The parameter array and axis whose extent `e` is (`a.len()`, `a.shape()[k]`, a 1-d
    /// `a.size()`, or a local holding one).
    pub(crate) fn extent(&self, e: &Expr) -> Option<(ArrayId, usize)> {
        extent_of(self.f, e, &self.extent)
    }
}

fn own_of(e: &Expr, own: &[Option<Own>]) -> Option<Own> {
    match &e.kind {
        ExprKind::Thread(ThreadQuery::Grid(1)) => Some(Own::Linear),
        ExprKind::TupleField(t, k) if matches!(t.kind, ExprKind::Thread(ThreadQuery::Grid(2))) => {
            [Own::X, Own::Y].get(*k).copied()
        }
        ExprKind::Local(l) => own[*l],
        _ => None,
    }
}

fn extent_of(f: &Func, e: &Expr, extent: &[Option<(ArrayId, usize)>]) -> Option<(ArrayId, usize)> {
    let (a, k) = match &e.kind {
        ExprKind::Len(a) => (*a, 0),
        ExprKind::Shape(a, k) => (*a, *k),
        ExprKind::Size(a) if f.arrays[*a].rank == 1 => (*a, 0),
        ExprKind::Local(l) => return extent[*l],
        _ => return None,
    };
    // A view's extent is made per work-item; parameters' are the launch's.
    f.arrays[a].base.is_none().then_some((a, k))
}

/// Whether `e` asks the shape of an array each work-item has its own handle on — a local array
/// or an in-kernel view — which block code (and a lane group) cannot name.
pub(super) fn asks_work_item_shape(f: &Func, e: &Expr) -> bool {
    let mut hit = false;
    e.visit(&mut |x| {
        if let ExprKind::Len(a) | ExprKind::Size(a) | ExprKind::Shape(a, _) = &x.kind {
            let arr = &f.arrays[*a];
            hit |= arr.base.is_some() || arr.space == Space::Local;
        }
    });
    hit
}

/// The locals of `f`'s by-value parameters.
pub(super) fn value_params(f: &Func) -> HashSet<LocalId> {
    f.params
        .iter()
        .filter_map(|p| match p {
            Param::Value(l) => Some(*l),
            _ => None,
        })
        .collect()
}

/// Whether array `a` is stored to (`=` or a compound `op=`) and read only at the own index —
/// `i` (1-d) or `(y, x)` (2-d) — and otherwise only asked its length or shape.
fn only_own_accesses(f: &Func, a: ArrayId, own: &[Option<Own>]) -> bool {
    let at_own = |idx: &[Expr]| {
        let at: Vec<Option<Own>> = idx.iter().map(|e| own_of(e, own)).collect();
        match f.arrays[a].rank {
            1 => at == [Some(Own::Linear)],
            2 => at == [Some(Own::Y), Some(Own::X)],
            _ => false,
        }
    };
    let mut ok = true;
    let mut stored = false;
    walk(&f.body, &mut Vec::new(), &mut |s, _| {
        if let Stmt::Assign {
            place: Place::Field { .. },
            ..
        } = s
        {
            // A field store writes part of an element.
            ok &= s_array(s) != Some(a);
        }
        if let Stmt::Assign {
            place: Place::Index { array, idx, .. },
            ..
        } = s
        {
            if *array == a {
                stored = true;
                ok &= at_own(idx);
            }
        }
        for e in own_exprs(s) {
            e.visit(&mut |x| match &x.kind {
                ExprKind::Index { array, idx, .. } if *array == a => ok &= at_own(idx),
                ExprKind::Atomic { array, .. } | ExprKind::ArrayRef(array) => ok &= *array != a,
                _ => {}
            });
        }
    });
    ok && stored
}

/// The array an assignment stores to, if any.
fn s_array(s: &Stmt) -> Option<ArrayId> {
    match s {
        Stmt::Assign { place, .. } => place.array(),
        _ => None,
    }
}

/// Storage of every local under the lifted set `lifted`.
fn classify(
    f: &Func,
    varying: &[bool],
    occ: &[Occurrences],
    params: &HashSet<LocalId>,
    lifted: &HashSet<usize>,
    blocks: &HashMap<usize, &Block>,
) -> Vec<Storage> {
    let n = f.locals.len();
    let mut st = vec![Storage::RegionLocal; n];
    for l in 0..n {
        let o = &occ[l];
        st[l] = if params.contains(&l) {
            Storage::BlockScalar
        } else if let Some(fs) = o.for_of {
            if lifted.contains(&fs) {
                Storage::BlockScalar
            } else {
                Storage::RegionLocal
            }
        } else if region_local(o, lifted, blocks) {
            Storage::RegionLocal
        } else if !varying[l] {
            Storage::BlockScalar
        } else {
            Storage::Context
        };
    }
    // Recompute pure thread-index expressions instead of storing them (in declaration order,
    // so that what one depends on is decided first).
    for l in 0..n {
        if st[l] != Storage::Context || occ[l].assigned || occ[l].defs.len() != 1 {
            continue;
        }
        let Some(init) = let_init(f, &occ[l]) else {
            continue;
        };
        let mut pure = true;
        init.visit(&mut |x| match &x.kind {
            ExprKind::Local(m) => {
                pure &= st[*m] == Storage::Recompute
                    || (st[*m] == Storage::BlockScalar && !occ[*m].assigned)
            }
            // Recomputed locals come before the views of a region's prologue.
            ExprKind::Len(a) | ExprKind::Size(a) | ExprKind::Shape(a, _)
                if f.arrays[*a].base.is_some() =>
            {
                pure = false
            }
            _ if reaches_memory(x) => pure = false,
            _ => {}
        });
        if pure {
            st[l] = Storage::Recompute;
        }
    }
    st
}

/// The initialiser of the `let` of a local (a plain `let` or a tuple `let` of a thread query).
fn let_init<'a>(f: &'a Func, o: &Occurrences) -> Option<&'a Expr> {
    let def = o.decl.as_ref()?.last()?.stmt;
    let mut found = None;
    walk(&f.body, &mut Vec::new(), &mut |s, _| {
        if id(s) == def {
            found = match s {
                Stmt::Let { init, .. } => init.as_ref(),
                Stmt::LetTuple { init, .. } => Some(init),
                _ => None,
            };
        }
    });
    found
}

/// Whether every occurrence of a local lies in one region: from its `let` to its last use in
/// the `let`'s block, no statement is lifted.
fn region_local(o: &Occurrences, lifted: &HashSet<usize>, blocks: &HashMap<usize, &Block>) -> bool {
    let Some(decl) = &o.decl else { return false };
    let Some(home) = decl.last() else {
        return false;
    };
    let mut last = home.index;
    for p in o.uses.iter().chain(&o.defs) {
        match p.iter().find(|fr| fr.block == home.block) {
            Some(fr) => last = last.max(fr.index),
            None => return false,
        }
    }
    let Some(b) = blocks.get(&home.block) else {
        return false;
    };
    b.stmts[home.index..=last]
        .iter()
        .all(|s| !lifted.contains(&id(s)))
}
