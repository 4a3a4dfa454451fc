//! Arrays and places of the IR: where an array lives ([`Space`]), what it is ([`Array`]), how an
//! in-kernel view is made ([`ViewKind`], [`SliceComp`]), what an assignment writes ([`Place`])
//! and what a device call is passed ([`ArrayArg`]).

use proc_macro2::{Ident, Span};

use super::{ArrayId, Expr, LocalId, SiteId, Ty};

/// Where an array lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Space {
    /// A kernel parameter `&Arr<T>` (read-only) or `&mut Arr<T>`.
    Global {
        /// `&mut`.
        writable: bool,
    },
    /// A kernel parameter `&ConstArr<T>`.
    Const,
    /// `t.shared_array::<T>(shape)`.
    Shared,
    /// `t.dynamic_shared::<T>()`.
    DynamicShared,
    /// `t.local_array::<T>(shape)`.
    Local,
    /// The `index`-th array parameter of a device function (`&Arr<T>`, `&mut Arr<T>`,
    /// `&ConstArr<T>`): its memory is the caller's argument's, in whatever space that lives
    /// (global, constant, shared, local), so the C text names the space by placeholder and the
    /// linker specialises it per call (`crate::link`).
    Param {
        /// Position among the function's array parameters.
        index: usize,
        /// `&mut Arr<T>`.
        writable: bool,
    },
}

impl Space {
    /// Whether memory in this space may be written (every space but read-only parameters and
    /// constant memory).
    pub fn writable(&self) -> bool {
        !matches!(
            self,
            Space::Global { writable: false }
                | Space::Const
                | Space::Param {
                    writable: false,
                    ..
                }
        )
    }
}

/// One dimension of a fixed-shape (shared or local) array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DimSize {
    /// A literal.
    Lit(u64),
    /// A const item by path (its `#define` name).
    Const(usize),
}

/// An array: a parameter or an in-kernel allocation.
#[derive(Debug, Clone)]
pub struct Array {
    /// The Rust name.
    pub name: Ident,
    /// The C name (unique in the function).
    pub c_name: String,
    /// Memory space.
    pub space: Space,
    /// Element type.
    pub elem: Ty,
    /// Number of index components (fixed-shape arrays: their dimensions).
    pub rank: usize,
    /// Fixed shape (shared and local arrays).
    pub dims: Vec<DimSize>,
    /// Whether the kernel writes it.
    pub written: bool,
    /// A captured device array (`#[rumba::kernel(capture(NAME: &Arr<T>))]`): a trailing
    /// parameter the launch fills from the `static` cell `NAME`, which the body names directly.
    pub captured: bool,
    /// For an in-kernel view (`reshape`, `view::<U>()`, `row` / `index_axis`): the array it
    /// views. Its [`space`](Self::space) is then the space of the memory it reaches (the root
    /// of the chain), so everything that depends on the space (atomics, address qualifiers,
    /// read-only refusals) treats a view exactly like its root.
    pub base: Option<ArrayId>,
}

impl Array {
    /// The identifier the generated Rust binds the array to: its name, except for a capture,
    /// whose name is the `static`'s (a binding cannot shadow a `static`), so it is bound as
    /// `__rumba_cap_NAME` (with the name's span).
    pub fn rust_ident(&self) -> Ident {
        if self.captured {
            Ident::new(&format!("__rumba_cap_{}", self.name), self.name.span())
        } else {
            self.name.clone()
        }
    }
}

/// How an in-kernel view is made from its base ([`Stmt::View`](super::Stmt::View)).
#[derive(Debug, Clone)]
pub enum ViewKind {
    /// `a.reshape((d0, d1))`: a C-ordered view of a contiguous base with this run-time shape
    /// (`usize` expressions, 0 to `MAX_RANK` of them); the sizes must agree. The second field
    /// is the axis written `-1` (NumPy's inferred extent; its expression is a placeholder 0).
    Reshape(Vec<Expr>, Option<usize>),
    /// `a.view::<U>()`: the same bytes as elements of the view's type (Numba's itemsize
    /// rules: a different item size needs a C-contiguous base, and the last axis's bytes
    /// must divide evenly).
    Cast,
    /// `a.index_axis(k, i)` (`a.row(i)` is axis 0): axis `k` dropped at index `i`.
    Axis(usize, Box<Expr>),
    /// `a.slice(s![i, lo..hi, ..;k])`: NumPy's basic slicing, one component per leading axis.
    Slice(Vec<SliceComp>),
}

/// One component of an in-kernel slice (`isize` expressions; `usize` ones are converted).
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // a tree built once per macro expansion
pub enum SliceComp {
    /// An index, which drops its axis (negative counts from the end; out of bounds faults).
    Index(Expr),
    /// `start..stop;step` with Python's rules (each part optional).
    Range {
        /// Start.
        start: Option<Expr>,
        /// Stop (exclusive).
        stop: Option<Expr>,
        /// Step (not 0).
        step: Option<Expr>,
    },
}

impl SliceComp {
    fn exprs(&self) -> Vec<&Expr> {
        match self {
            SliceComp::Index(e) => vec![e],
            SliceComp::Range { start, stop, step } => {
                [start, stop, step].into_iter().flatten().collect()
            }
        }
    }

    fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            SliceComp::Index(e) => vec![e],
            SliceComp::Range { start, stop, step } => {
                [start, stop, step].into_iter().flatten().collect()
            }
        }
    }
}

/// An array passed to a device function.
#[derive(Debug, Clone)]
pub struct ArrayArg {
    /// Index into [`Func::devices`](super::Func::devices).
    pub device: usize,
    /// The position of the argument among the callee's parameters (the thread context not
    /// counted).
    pub position: usize,
    /// The array passed.
    pub array: ArrayId,
    /// Where.
    pub span: Span,
}

/// An assignable place.
#[derive(Debug, Clone)]
pub enum Place {
    /// A local.
    Local(LocalId, Span),
    /// An array element.
    Index {
        /// The array.
        array: ArrayId,
        /// Index components (`usize`).
        idx: Vec<Expr>,
        /// Fault site.
        site: SiteId,
        /// Span.
        span: Span,
    },
    /// A field of a record place (`a[i].b`, `r.b`), or an element of a sub-array field
    /// (`a[i].v[k]`): only the field's bytes are written, as Numba writes them.
    Field {
        /// The record: a local or an array element.
        base: Box<Place>,
        /// The field.
        field: Ident,
        /// For a sub-array element: its index (`usize`) and fault site.
        sub: Option<(Box<Expr>, SiteId)>,
        /// The type written (a type variable during inference: the field's type is rustc's).
        ty: Ty,
        /// Span.
        span: Span,
    },
}

impl Place {
    /// The expressions the place evaluates (indices), in order.
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Place::Local(..) => Vec::new(),
            Place::Index { idx, .. } => idx.iter().collect(),
            Place::Field { base, sub, .. } => {
                let mut v = base.exprs();
                v.extend(sub.iter().map(|(k, _)| &**k));
                v
            }
        }
    }

    /// As [`exprs`](Self::exprs), mutably.
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Place::Local(..) => Vec::new(),
            Place::Index { idx, .. } => idx.iter_mut().collect(),
            Place::Field { base, sub, .. } => {
                let mut v = base.exprs_mut();
                v.extend(sub.iter_mut().map(|(k, _)| &mut **k));
                v
            }
        }
    }

    /// The local the place is (a whole local) or is part of (a field of a local record).
    pub fn local(&self) -> Option<LocalId> {
        match self {
            Place::Local(l, _) => Some(*l),
            Place::Index { .. } => None,
            Place::Field { base, .. } => base.local(),
        }
    }

    /// The array the place is an element (or a field of an element) of.
    pub fn array(&self) -> Option<ArrayId> {
        match self {
            Place::Local(..) => None,
            Place::Index { array, .. } => Some(*array),
            Place::Field { base, .. } => base.array(),
        }
    }
}

impl ViewKind {
    /// The expressions it evaluates (shape components or the index), in order.
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            ViewKind::Reshape(d, _) => d.iter().collect(),
            ViewKind::Cast => Vec::new(),
            ViewKind::Axis(_, i) => vec![i],
            ViewKind::Slice(c) => c.iter().flat_map(SliceComp::exprs).collect(),
        }
    }

    /// As [`exprs`](Self::exprs), mutably.
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            ViewKind::Reshape(d, _) => d.iter_mut().collect(),
            ViewKind::Cast => Vec::new(),
            ViewKind::Axis(_, i) => vec![&mut **i],
            ViewKind::Slice(c) => c.iter_mut().flat_map(SliceComp::exprs_mut).collect(),
        }
    }
}
