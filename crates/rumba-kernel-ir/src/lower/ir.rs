//! The typed IR: a structured tree close to the Rust it came from (every node keeps its span),
//! with names resolved (locals, arrays, consts, device functions, records), all types known and
//! every checked operation numbered as a fault site.
//!
//! Built by `lower::parse` (private), read by the analyses and the emitters. Block-valued
//! expressions that contain statements are already desugared into a `let` without initialiser
//! plus assignments, so expressions are side-effect-ordered trees the C emitters can print as
//! C expressions.

use proc_macro2::{Ident, Span};

use crate::target::Scalar;

mod array;
mod ops;
pub use array::*;
pub use ops::*;

/// The most dimensions a kernel array has (0 to 6, everywhere an array is).
pub const MAX_RANK: usize = 6;

/// Index of a local variable in [`Func::locals`].
pub type LocalId = usize;
/// Index of an array in [`Func::arrays`].
pub type ArrayId = usize;
/// Index of a fault site in [`Func::sites`].
pub type SiteId = usize;

/// A value type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// An element type.
    Scalar(Scalar),
    /// A record (`#[rumba::record]` struct), by its Rust path as written.
    Record(String),
    /// `Complex<f32>` / `Complex<f64>` (`num_complex::Complex`, re-exported by the prelude): the
    /// part type, an `f32` or `f64` (a float type variable during inference).
    Complex(Box<Ty>),
    /// `Dim3` (`t.thread_idx()` and friends): three `u32`.
    Dim3,
    /// No value.
    Unit,
    /// A tuple (a device function's parameter or result, a local, `let (a, b) = …`).
    Tuple(Vec<Ty>),
    /// A type variable; exists only during inference (never in a finished [`Func`]).
    Var(u32),
}

impl Ty {
    /// The scalar, if this is one.
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Ty::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// The part type (`f32` or `f64`) of a resolved complex type.
    pub fn complex_part(&self) -> Option<Scalar> {
        match self {
            Ty::Complex(p) => p.scalar(),
            _ => None,
        }
    }
}

/// A local variable (scalars, records, `Dim3`).
#[derive(Debug, Clone)]
pub struct Local {
    /// The Rust name.
    pub name: Ident,
    /// The C name (unique in the function: shadowing renames).
    pub c_name: String,
    /// Type.
    pub ty: Ty,
    /// `let mut`.
    pub mutable: bool,
}

/// A const item named by path.
#[derive(Debug, Clone)]
pub struct ConstUse {
    /// The path as written (`TPB`, `crate::cfg::N`).
    pub path: syn::Path,
    /// Its `#define` name in C.
    pub c_name: String,
    /// Its type as inferred (rustc checks it).
    pub ty: Scalar,
}

/// A `#[rumba::device]` function called by path.
#[derive(Debug, Clone)]
pub struct DeviceUse {
    /// The path as written.
    pub path: syn::Path,
    /// The C name of the function (`dev_` + last segment).
    pub c_name: String,
}

/// A record type named in the function.
#[derive(Debug, Clone)]
pub struct RecordUse {
    /// The Rust path as written.
    pub path: syn::Path,
    /// The C type name (last segment).
    pub c_name: String,
}

/// What a fault site is (for messages).
#[derive(Debug, Clone)]
pub struct Site {
    /// Description: the operation, the array, the source text and location.
    pub what: String,
}

/// A function parameter.
#[derive(Debug, Clone)]
pub enum Param {
    /// `t: &Thread` (not passed to C).
    Thread(Ident),
    /// An array parameter.
    Array(ArrayId),
    /// A scalar or record by value (the local it binds).
    Value(LocalId),
}

/// A lowered kernel or device function.
#[derive(Debug, Clone)]
pub struct Func {
    /// Name.
    pub name: Ident,
    /// Whether this is a `#[rumba::device]` function.
    pub is_device: bool,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// Return type (device functions; `Unit` for kernels).
    pub ret: Ty,
    /// The body.
    pub body: Block,
    /// Locals.
    pub locals: Vec<Local>,
    /// Arrays.
    pub arrays: Vec<Array>,
    /// Consts named by path.
    pub consts: Vec<ConstUse>,
    /// Device functions called.
    pub devices: Vec<DeviceUse>,
    /// Records named.
    pub records: Vec<RecordUse>,
    /// Fault sites.
    pub sites: Vec<Site>,
    /// Every array passed to a device function, where (the ranks must agree: the macro checks
    /// them at compile time against the callee's).
    pub array_args: Vec<ArrayArg>,
    /// The `&Thread` parameter's name, if any.
    pub thread: Option<Ident>,
    /// The function's const generic parameters (`const N: usize`), in order: the Rust items
    /// generated for it are generic over them.
    pub const_params: Vec<(Ident, Scalar)>,
}

/// A block of statements.
#[derive(Debug, Clone)]
pub struct Block {
    /// Statements in order.
    pub stmts: Vec<Stmt>,
}

/// A statement.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // a tree built once per macro expansion
pub enum Stmt {
    /// `let` of one local (tuple patterns become several, initialised from a tuple value).
    Let {
        /// The local.
        local: LocalId,
        /// Initial value.
        init: Option<Expr>,
        /// Span of the `let`.
        span: Span,
    },
    /// `let (a, b) = <tuple-valued expression>` (e.g. `t.grid2()`), element by element.
    LetTuple {
        /// The locals, in order.
        locals: Vec<LocalId>,
        /// The tuple value.
        init: Expr,
        /// Span.
        span: Span,
    },
    /// An in-kernel array: `let s = t.shared_array::<f32>((16, 16));`.
    ArrayDecl {
        /// The array.
        array: ArrayId,
        /// Span.
        span: Span,
    },
    /// An in-kernel view: `let m = a.reshape((4, 8));`, `let w = a.view::<u32>();`,
    /// `let r = a.row(i);` / `a.index_axis(k, i)`.
    View {
        /// The view (its [`Array::base`] is `base`).
        array: ArrayId,
        /// The array it views.
        base: ArrayId,
        /// How.
        kind: ViewKind,
        /// Fault site (an incompatible shape or item size, a non-contiguous base, an index
        /// out of range).
        site: SiteId,
        /// Span.
        span: Span,
    },
    /// `place = value` or `place op= value`.
    Assign {
        /// Target.
        place: Place,
        /// Compound operator.
        op: Option<BinOp>,
        /// Value.
        value: Expr,
        /// Fault site of a compound integer `/=` or `%=`.
        site: Option<SiteId>,
        /// Span.
        span: Span,
    },
    /// An expression evaluated for its effect.
    Expr(Expr),
    /// `if` / `else`.
    If {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then: Block,
        /// Else branch.
        els: Option<Block>,
        /// Span.
        span: Span,
    },
    /// `while cond { … }`.
    While {
        /// Condition.
        cond: Expr,
        /// Body.
        body: Block,
        /// Span.
        span: Span,
    },
    /// `loop { … }`.
    Loop {
        /// Body.
        body: Block,
        /// Span.
        span: Span,
    },
    /// `for var in start..end` / `..=` / `(start..end).step_by(step)`.
    For {
        /// Loop variable.
        var: LocalId,
        /// Start.
        start: Expr,
        /// End.
        end: Expr,
        /// `..=`.
        inclusive: bool,
        /// `step_by` argument (`usize`) and its fault site.
        step: Option<(Expr, SiteId)>,
        /// Body.
        body: Block,
        /// Span.
        span: Span,
    },
    /// `break`.
    Break(Span),
    /// `continue`.
    Continue(Span),
    /// `return` / `return v`.
    Return(Option<Expr>, Span),
    /// `assert!(cond)`.
    Assert {
        /// Condition.
        cond: Expr,
        /// Fault site.
        site: SiteId,
        /// The tokens as written, for the Rust output.
        tokens: proc_macro2::TokenStream,
        /// Span.
        span: Span,
    },
    /// A nested block.
    Block(Block),
}

/// Which of the thread-context queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadQuery {
    /// `t.thread_idx()`
    ThreadIdx,
    /// `t.block_idx()`
    BlockIdx,
    /// `t.block_dim()`
    BlockDim,
    /// `t.grid_dim()`
    GridDim,
    /// `t.grid1()` … `t.grid3()` (1 to 3)
    Grid(u8),
    /// `t.gridsize1()` … `t.gridsize3()`
    GridSize(u8),
    /// `t.warp_size()`
    WarpSize,
    /// `t.lane_id()`
    LaneId,
}

/// Barriers with a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncKind {
    /// `syncthreads()`
    Plain,
    /// `syncthreads_count(p)`
    Count,
    /// `syncthreads_and(p)`
    And,
    /// `syncthreads_or(p)`
    Or,
}

/// Warp-level operations (`ThreadCtx::syncwarp` and friends). Arguments, in order: the mask
/// (`u32`, none for `activemask`), then the predicate or value, then the lane argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarpKind {
    /// `syncwarp(mask)` (and `wavebarrier()`, with the full mask)
    Sync,
    /// `all_sync(mask, p)`
    All,
    /// `any_sync(mask, p)`
    Any,
    /// `ballot_sync(mask, p)`
    Ballot,
    /// `shfl_sync(mask, v, src_lane)`
    Shfl,
    /// `shfl_up_sync(mask, v, delta)`
    ShflUp,
    /// `shfl_down_sync(mask, v, delta)`
    ShflDown,
    /// `shfl_xor_sync(mask, v, lane_mask)`
    ShflXor,
    /// `activemask()`
    ActiveMask,
}

impl WarpKind {
    /// The `ThreadCtx` method name.
    pub fn name(self) -> &'static str {
        match self {
            WarpKind::Sync => "syncwarp",
            WarpKind::All => "all_sync",
            WarpKind::Any => "any_sync",
            WarpKind::Ballot => "ballot_sync",
            WarpKind::Shfl => "shfl_sync",
            WarpKind::ShflUp => "shfl_up_sync",
            WarpKind::ShflDown => "shfl_down_sync",
            WarpKind::ShflXor => "shfl_xor_sync",
            WarpKind::ActiveMask => "activemask",
        }
    }
}

/// Fences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenceKind {
    /// `threadfence()`
    Device,
    /// `threadfence_block()`
    Block,
    /// `threadfence_system()`
    System,
}

/// Atomic operations (the `View::atomic_*` methods).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp {
    /// `atomic_add`
    Add,
    /// `atomic_sub`
    Sub,
    /// `atomic_min`: Numba's `atomic.min` (a stored NaN stays, a NaN operand changes nothing)
    Min,
    /// `atomic_max`: Numba's `atomic.max` (a stored NaN stays, a NaN operand changes nothing)
    Max,
    /// `atomic_nanmin`: NaN is missing data
    NanMin,
    /// `atomic_nanmax`: NaN is missing data
    NanMax,
    /// `atomic_and`
    And,
    /// `atomic_or`
    Or,
    /// `atomic_xor`
    Xor,
    /// `atomic_exch`
    Exch,
    /// `atomic_cas` (two value arguments)
    Cas,
    /// `atomic_inc` (bound)
    Inc,
    /// `atomic_dec` (bound)
    Dec,
}

impl AtomicOp {
    /// The method-name suffix (`add`, `cas`, …).
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Min => "min",
            AtomicOp::Max => "max",
            AtomicOp::NanMin => "nanmin",
            AtomicOp::NanMax => "nanmax",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::Exch => "exch",
            AtomicOp::Cas => "cas",
            AtomicOp::Inc => "inc",
            AtomicOp::Dec => "dec",
        }
    }

    /// Whether only integer element types have it.
    pub fn int_only(self) -> bool {
        matches!(
            self,
            AtomicOp::And | AtomicOp::Or | AtomicOp::Xor | AtomicOp::Inc | AtomicOp::Dec
        )
    }
}

pub use super::math::{MathArg, MathDomain, MathFn, MathRet};

/// A typed expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its type (resolved).
    pub ty: Ty,
    /// Where it was written.
    pub span: Span,
}

/// Expression kinds.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// An integer literal (the value, already negated for `-lit`).
    Int(i128),
    /// A float literal.
    Float(f64),
    /// `true` / `false`.
    Bool(bool),
    /// A local.
    Local(LocalId),
    /// A const item.
    Const(usize),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation; `site` for integer `/` and `%`.
    Binary(BinOp, Box<Expr>, Box<Expr>, Option<SiteId>),
    /// `e as T`.
    Cast(Box<Expr>, Scalar),
    /// `if c { a } else { b }` with pure branches.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// An array element.
    Index {
        /// The array.
        array: ArrayId,
        /// Index components.
        idx: Vec<Expr>,
        /// Fault site.
        site: SiteId,
    },
    /// `a.len()`
    Len(ArrayId),
    /// `a.size()`
    Size(ArrayId),
    /// `a.shape()[k]`
    Shape(ArrayId, usize),
    /// `r.field`
    Field(Box<Expr>, Ident),
    /// `d.x` / `.y` / `.z` of a `Dim3`.
    Axis(Box<Expr>, u8),
    /// A tuple value.
    Tuple(Vec<Expr>),
    /// Element `k` of a tuple (`p.0`).
    TupleField(Box<Expr>, usize),
    /// An array passed as a whole to a device function (`f(a)`, `f(&s)`); no value of its own.
    ArrayRef(ArrayId),
    /// `Complex::new(re, im)`: the two parts, in order.
    Complex(Vec<Expr>),
    /// A thread-context query.
    Thread(ThreadQuery),
    /// A barrier (returns `i32` except the plain one).
    Sync(SyncKind, Option<Box<Expr>>),
    /// A fence.
    Fence(FenceKind),
    /// A warp-level operation and its arguments ([`WarpKind`]).
    Warp(WarpKind, Vec<Expr>),
    /// A math method: the receiver and the other arguments.
    Math(MathFn, Vec<Expr>),
    /// An atomic read-modify-write.
    Atomic {
        /// Operation.
        op: AtomicOp,
        /// The array.
        array: ArrayId,
        /// Index components.
        idx: Vec<Expr>,
        /// Value arguments (1, or 2 for `cas`).
        args: Vec<Expr>,
        /// Fault site.
        site: SiteId,
    },
    /// A record literal `P { x: a, y: b }`: the record (index into [`Func::records`]) and the
    /// fields as written (rustc checks that they are all there, of their types).
    RecordLit {
        /// Index into [`Func::records`].
        record: usize,
        /// `(field, value)` in written order.
        fields: Vec<(Ident, Expr)>,
    },
    /// An element of a sub-array field of a record value: `r.v[k]`, `a[i].v[k]`.
    SubIndex {
        /// The record value.
        rec: Box<Expr>,
        /// The record's C name.
        record: String,
        /// The sub-array field.
        field: Ident,
        /// The index (`usize`).
        idx: Box<Expr>,
        /// Fault site (an index out of the field's length).
        site: SiteId,
    },
    /// A numeric literal whose type is a record field's, which only rustc knows: Rust writes it
    /// unsuffixed (rustc gives it the field's type), C through the record's literal macro
    /// (`RB_F_<record>_<field>(1.5)` appends `f` for an `f32` field), so both read the digits
    /// once, correctly rounded to the field's type.
    FieldLit {
        /// The record's C name.
        record: String,
        /// The field.
        field: Ident,
        /// The digits as written (no sign, no suffix).
        text: String,
        /// A float literal (else an integer).
        float: bool,
        /// Negated (`-1.5`).
        neg: bool,
    },
    /// `bytes(b"…")`: a byte string for a `[u8; N]` field, padded with zeros (NumPy's `S`
    /// dtype). Only the value of a field assignment.
    Bytes(Vec<u8>),
    /// A call of a `#[rumba::device]` function.
    Call {
        /// Index into [`Func::devices`].
        func: usize,
        /// Whether the thread context is passed first.
        pass_thread: bool,
        /// Arguments.
        args: Vec<Expr>,
    },
}

impl Expr {
    /// Whether evaluating this may have an effect other than a fault (atomics, barriers, fences).
    pub fn has_effect(&self) -> bool {
        let mut found = false;
        self.visit(&mut |e| {
            if matches!(
                e.kind,
                ExprKind::Atomic { .. }
                    | ExprKind::Sync(..)
                    | ExprKind::Fence(_)
                    | ExprKind::Warp(..)
            ) {
                found = true;
            }
        });
        found
    }

    /// Calls `f` on this expression and every sub-expression (pre-order).
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Unary(_, a) | ExprKind::Cast(a, _) | ExprKind::Field(a, _) => a.visit(f),
            ExprKind::Axis(a, _) | ExprKind::TupleField(a, _) => a.visit(f),
            ExprKind::Binary(_, a, b, _) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Select(c, a, b) => {
                c.visit(f);
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Index { idx, .. } => idx.iter().for_each(|e| e.visit(f)),
            ExprKind::Tuple(v)
            | ExprKind::Complex(v)
            | ExprKind::Math(_, v)
            | ExprKind::Warp(_, v)
            | ExprKind::Call { args: v, .. } => v.iter().for_each(|e| e.visit(f)),
            ExprKind::Atomic { idx, args, .. } => {
                idx.iter().chain(args).for_each(|e| e.visit(f));
            }
            ExprKind::Sync(_, Some(p)) => p.visit(f),
            ExprKind::RecordLit { fields, .. } => fields.iter().for_each(|(_, e)| e.visit(f)),
            ExprKind::SubIndex { rec, idx, .. } => {
                rec.visit(f);
                idx.visit(f);
            }
            _ => {}
        }
    }
}
