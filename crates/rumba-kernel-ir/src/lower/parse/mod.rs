//! From `syn` to the typed IR: the subset check (every refusal a spanned error saying what to
//! write instead, all collected), name resolution, and type inference (see [`infer`](super::infer)).
//!
//! `mod.rs` holds the context, the signature and statements; `expr.rs` the expressions.

mod call;
mod expr;

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span};
use quote::ToTokens;
use syn::spanned::Spanned;

use super::infer::{Kind, Need, Types};
use super::ir::*;
use crate::target::Scalar;

/// What a name in scope is.
#[derive(Debug, Clone)]
enum Binding {
    Local(LocalId),
    Array(ArrayId),
    Thread,
}

/// C identifiers that user names must not take (C, C++, CUDA and OpenCL keywords, types and
/// the builtins the generated code calls). A user name in this list gets a `_` suffix in C.
const RESERVED: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "bool",
    "true",
    "false",
    "class",
    "namespace",
    "template",
    "typename",
    "this",
    "new",
    "delete",
    "operator",
    "private",
    "public",
    "protected",
    "virtual",
    "friend",
    "using",
    "asm",
    "half",
    "uchar",
    "ushort",
    "uint",
    "ulong",
    "size_t",
    "global",
    "local",
    "constant",
    "kernel",
    "read_only",
    "write_only",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "min",
    "max",
    "abs",
    "fabs",
    "sqrt",
    "exp",
    "log",
    "sin",
    "cos",
    "tan",
    "pow",
    "pown",
    "floor",
    "ceil",
    "round",
    "fma",
    "isnan",
    "barrier",
    "mem_fence",
    "dim3",
    "uint3",
    "NAN",
    "INFINITY",
    "atomicAdd",
    "atomic_add",
    "main",
    "fmin",
    "fmax",
    "fmod",
    "select",
    "clamp",
    "mix",
    "sign",
    "step",
    "dot",
    "cross",
    "length",
    "distance",
    "normalize",
    "vload",
    "vstore",
    "convert",
];

/// Whether the body being parsed is a kernel or a device function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FnKind {
    Kernel,
    Device,
}

pub(crate) struct Cx {
    kind: FnKind,
    pub(crate) types: Types,
    errors: Vec<syn::Error>,
    scopes: Vec<HashMap<String, Binding>>,
    c_names: HashSet<String>,
    locals: Vec<Local>,
    arrays: Vec<Array>,
    consts: Vec<ConstUse>,
    devices: Vec<DeviceUse>,
    records: Vec<RecordUse>,
    sites: Vec<Site>,
    thread: Option<Ident>,
    loop_depth: usize,
    ret: Ty,
    /// Fixed index rank per array, with the span that fixed it.
    rank_from: HashMap<ArrayId, Span>,
    array_used_rank: HashSet<ArrayId>,
    /// `a.shape()[k]` on parameters, checked against the final rank.
    pending_axes: Vec<(ArrayId, usize, Span)>,
}

/// A short location string for fault messages: `file:line:col` when the compiler tells it,
/// else `line:col`.
fn location(span: Span) -> String {
    let start = span.start();
    format!("line {}:{}", start.line, start.column + 1)
}

impl Cx {
    fn new(kind: FnKind) -> Self {
        Cx {
            kind,
            types: Types::default(),
            errors: Vec::new(),
            scopes: vec![HashMap::new()],
            c_names: HashSet::new(),
            locals: Vec::new(),
            arrays: Vec::new(),
            consts: Vec::new(),
            devices: Vec::new(),
            records: Vec::new(),
            sites: Vec::new(),
            thread: None,
            loop_depth: 0,
            ret: Ty::Unit,
            rank_from: HashMap::new(),
            array_used_rank: HashSet::new(),
            pending_axes: Vec::new(),
        }
    }

    pub(crate) fn err(&mut self, span: Span, msg: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, msg));
    }

    pub(crate) fn push_err(&mut self, e: syn::Error) {
        self.errors.push(e);
    }

    fn c_name(&mut self, name: &str) -> String {
        let mut base = name.trim_start_matches("r#").to_owned();
        if RESERVED.contains(&base.as_str()) || base.starts_with("rb_") || base.starts_with("dev_")
        {
            base.push('_');
        }
        let mut c = base.clone();
        let mut n = 2;
        while self.c_names.contains(&c) {
            c = format!("{base}_{n}");
            n += 1;
        }
        self.c_names.insert(c.clone());
        c
    }

    fn bind(&mut self, name: &Ident, b: Binding) {
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(name.to_string(), b);
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    pub(crate) fn new_local(&mut self, name: &Ident, ty: Ty, mutable: bool) -> LocalId {
        let c_name = self.c_name(&name.to_string());
        self.locals.push(Local {
            name: name.clone(),
            c_name,
            ty,
            mutable,
        });
        let id = self.locals.len() - 1;
        self.bind(name, Binding::Local(id));
        id
    }

    /// A compiler-made local (`rb_tN`), not bound to any name.
    pub(crate) fn temp_local(&mut self, ty: Ty, span: Span) -> LocalId {
        let n = self.locals.len();
        let ident = Ident::new(&format!("__rumba_t{n}"), span);
        let c_name = format!("rb_t{n}");
        self.c_names.insert(c_name.clone());
        self.locals.push(Local {
            name: ident,
            c_name,
            ty,
            mutable: true,
        });
        n
    }

    pub(crate) fn site(&mut self, what: String, span: Span) -> SiteId {
        self.sites.push(Site {
            what: format!("{what} at {}", location(span)),
        });
        self.sites.len() - 1
    }

    /// Fixes or checks the rank of `array` from an index of `n` components.
    pub(crate) fn use_rank(&mut self, array: ArrayId, n: usize, span: Span) {
        let a = &self.arrays[array];
        let fixed = matches!(a.space, Space::Shared | Space::Local | Space::DynamicShared)
            || self.array_used_rank.contains(&array);
        if fixed {
            if a.rank != n {
                let name = a.name.to_string();
                let rank = a.rank;
                let hint = if rank == 1 {
                    format!("`{name}[i]`")
                } else {
                    format!("`{name}[({})]`", ["i", "j", "k"][..rank.min(3)].join(", "))
                };
                let first = self
                    .rank_from
                    .get(&array)
                    .map(|s| format!(" (first indexed with {rank} at {})", location(*s)))
                    .unwrap_or_default();
                self.err(
                    span,
                    format!("`{name}` has {rank} dimension(s){first} but is indexed with {n} component(s) here: write {hint}"),
                );
            }
        } else {
            self.arrays[array].rank = n;
            self.array_used_rank.insert(array);
            self.rank_from.insert(array, span);
        }
    }

    fn const_use(&mut self, path: &syn::Path, ty: Scalar) -> usize {
        let key = path.to_token_stream().to_string();
        if let Some(i) = self
            .consts
            .iter()
            .position(|c| c.path.to_token_stream().to_string() == key)
        {
            return i;
        }
        let last = path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let mut c_name = last.clone();
        if self.consts.iter().any(|c| c.c_name == c_name) || RESERVED.contains(&last.as_str()) {
            c_name = format!("{last}_{}", self.consts.len());
        }
        self.consts.push(ConstUse {
            path: path.clone(),
            c_name,
            ty,
        });
        self.consts.len() - 1
    }

    fn record_use(&mut self, path: &syn::Path) -> String {
        let key = path.to_token_stream().to_string().replace(' ', "");
        if !self
            .records
            .iter()
            .any(|r| r.path.to_token_stream().to_string().replace(' ', "") == key)
        {
            let c_name = path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            self.records.push(RecordUse {
                path: path.clone(),
                c_name,
            });
        }
        key
    }

    /// A type written in the source: a scalar or a record path.
    pub(crate) fn written_type(&mut self, ty: &syn::Type) -> Option<Ty> {
        if let syn::Type::Path(tp) = ty {
            if tp.qself.is_none() {
                if let Some(id) = tp.path.get_ident() {
                    if let Some(s) = Scalar::from_rust_name(&id.to_string()) {
                        return Some(Ty::Scalar(s));
                    }
                    if id == "Dim3" {
                        return Some(Ty::Dim3);
                    }
                    if matches!(id.to_string().as_str(), "f16" | "char" | "str" | "String") {
                        self.err(ty.span(), format!("`{id}` is not a kernel element type in this version: use `f32`, `f64`, an integer type or `bool`"));
                        return None;
                    }
                }
                if tp.path.segments.iter().all(|s| s.arguments.is_none()) {
                    let key = self.record_use(&tp.path);
                    return Some(Ty::Record(key));
                }
            }
        }
        self.err(
            ty.span(),
            "kernels take element types (`f32`, `u32`, `usize`, …), `#[rumba::record]` structs, `&Arr<T>`, `&mut Arr<T>`, `&ConstArr<T>` and `&Thread`; other types are not supported",
        );
        None
    }

    /// Finishes: defaults, checks, and replaces type variables in the IR.
    fn finish(
        mut self,
        name: Ident,
        params: Vec<Param>,
        mut body: Block,
    ) -> Result<Func, syn::Error> {
        for (a, k, span) in std::mem::take(&mut self.pending_axes) {
            let arr = &self.arrays[a];
            if !self.array_used_rank.contains(&a) {
                // Never indexed: the largest axis asked for fixes the rank.
                let r = arr.rank.max(k + 1);
                self.arrays[a].rank = r;
            } else if k >= arr.rank {
                let msg = format!(
                    "axis {k} does not exist: `{}` is indexed with {} component(s)",
                    arr.name, arr.rank
                );
                self.err(span, msg);
            }
        }
        let mut errors = std::mem::take(&mut self.errors);
        errors.extend(self.types.finish());
        let types = &self.types;
        let zonk = |t: &mut Ty| {
            if let Some(r) = types.resolved(t) {
                *t = r;
            }
        };
        for l in &mut self.locals {
            zonk(&mut l.ty);
        }
        for a in &mut self.arrays {
            zonk(&mut a.elem);
        }
        let mut consts_ty = Vec::new();
        zonk_block(&mut body, &zonk, &mut consts_ty, &mut errors);
        for (ci, ty) in consts_ty {
            if let Some(s) = ty.scalar() {
                self.consts[ci].ty = s;
            }
        }
        // Writes to read-only arrays.
        for a in &self.arrays {
            if a.written {
                match a.space {
                    Space::Global { writable: false } => errors.push(syn::Error::new(
                        a.name.span(),
                        format!("`{}` is written by the kernel: declare it `&mut Arr<{}>`", a.name, super::infer::show(&a.elem)),
                    )),
                    Space::Const => errors.push(syn::Error::new(
                        a.name.span(),
                        format!("`{}` is constant memory and cannot be written: pass a `&mut Arr<{}>` instead", a.name, super::infer::show(&a.elem)),
                    )),
                    _ => {}
                }
            }
        }
        if let Some(first) = errors.into_iter().reduce(|mut a, b| {
            a.combine(b);
            a
        }) {
            return Err(first);
        }
        Ok(Func {
            name,
            is_device: self.kind == FnKind::Device,
            params,
            ret: self.ret,
            body,
            locals: self.locals,
            arrays: self.arrays,
            consts: self.consts,
            devices: self.devices,
            records: self.records,
            sites: self.sites,
            thread: self.thread,
        })
    }
}

type Zonk<'a> = dyn Fn(&mut Ty) + 'a;

fn zonk_expr(
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
        ExprKind::Tuple(v) | ExprKind::Math(_, v) | ExprKind::Call { args: v, .. } => {
            v.iter().collect()
        }
        ExprKind::Atomic { idx, args, .. } => idx.iter().chain(args).collect(),
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
        | ExprKind::Axis(a, _) => zonk_expr(a, z, consts, errors),
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
        ExprKind::Tuple(v) | ExprKind::Math(_, v) | ExprKind::Call { args: v, .. } => {
            v.iter_mut().for_each(|x| zonk_expr(x, z, consts, errors))
        }
        ExprKind::Atomic { idx, args, .. } => idx
            .iter_mut()
            .chain(args.iter_mut())
            .for_each(|x| zonk_expr(x, z, consts, errors)),
        ExprKind::Sync(_, Some(p)) => zonk_expr(p, z, consts, errors),
        _ => {}
    }
}

fn zonk_block(
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
            Stmt::Assign { place, value, .. } => {
                if let Place::Index { idx, .. } = place {
                    idx.iter_mut().for_each(|x| zonk_expr(x, z, consts, errors));
                }
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

/// The array type of a parameter: `&Arr<T>`, `&mut Arr<T>`, `&ConstArr<T>`.
fn array_param(ty: &syn::Type) -> Option<(bool, bool, &syn::Type)> {
    let syn::Type::Reference(r) = ty else {
        return None;
    };
    let syn::Type::Path(tp) = &*r.elem else {
        return None;
    };
    let seg = tp.path.segments.last()?;
    let is_const = match seg.ident.to_string().as_str() {
        "Arr" => false,
        "ConstArr" => true,
        _ => return None,
    };
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    let Some(syn::GenericArgument::Type(elem)) = args.args.first() else {
        return None;
    };
    Some((is_const, r.mutability.is_some(), elem))
}

fn is_thread_param(ty: &syn::Type) -> bool {
    if let syn::Type::Reference(r) = ty {
        if let syn::Type::Path(tp) = &*r.elem {
            return tp
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "Thread" || s.ident == "ThreadCtx");
        }
    }
    false
}

/// Parses and checks a kernel (`FnKind::Kernel`) or device function.
pub(crate) fn parse_fn(item: &syn::ItemFn, kind: FnKind) -> Result<Func, syn::Error> {
    let mut cx = Cx::new(kind);
    let sig = &item.sig;
    if !sig.generics.params.is_empty() {
        cx.err(
            sig.generics.span(),
            "kernels cannot be generic in this version: write one kernel per element type",
        );
    }
    if let Some(w) = &sig.generics.where_clause {
        cx.err(w.span(), "kernels cannot have `where` clauses");
    }
    for (what, present, span) in [
        ("async", sig.asyncness.is_some(), sig.asyncness.span()),
        ("unsafe", sig.unsafety.is_some(), sig.unsafety.span()),
        ("const", sig.constness.is_some(), sig.constness.span()),
        ("extern", sig.abi.is_some(), sig.abi.span()),
    ] {
        if present {
            cx.err(
                span,
                format!(
                    "a {} cannot be `{what}`: remove it",
                    if kind == FnKind::Kernel {
                        "kernel"
                    } else {
                        "device function"
                    }
                ),
            );
        }
    }
    if let Some(v) = &sig.variadic {
        cx.err(v.span(), "variadic functions are not supported");
    }
    match (&sig.output, kind) {
        (syn::ReturnType::Default, _) => {}
        (syn::ReturnType::Type(_, t), FnKind::Kernel) => cx.err(
            t.span(),
            "a kernel returns nothing: write its results into a `&mut Arr<T>` parameter",
        ),
        (syn::ReturnType::Type(_, t), FnKind::Device) => {
            if let Some(ty) = cx.written_type(t) {
                cx.ret = ty;
            }
        }
    }
    let mut params = Vec::new();
    for input in &sig.inputs {
        let syn::FnArg::Typed(pt) = input else {
            cx.err(input.span(), "kernels are free functions: remove `self`");
            continue;
        };
        let (name, mutable) = match &*pt.pat {
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                (pi.ident.clone(), pi.mutability.is_some())
            }
            p => {
                cx.err(
                    p.span(),
                    "parameters must be plain names (`x: f32`): patterns are not supported",
                );
                continue;
            }
        };
        if is_thread_param(&pt.ty) {
            if cx.thread.is_some() {
                cx.err(pt.span(), "only one `&Thread` parameter");
            }
            cx.thread = Some(name.clone());
            cx.bind(&name, Binding::Thread);
            params.push(Param::Thread(name));
        } else if let Some((is_const, is_mut, elem)) = array_param(&pt.ty) {
            if kind == FnKind::Device {
                cx.err(pt.ty.span(), "device functions take scalars and records in this version: pass the array element (`a[i]`) instead of the array");
                continue;
            }
            if is_const && is_mut {
                cx.err(
                    pt.ty.span(),
                    "constant arrays are read-only: write `&ConstArr<T>`",
                );
            }
            let Some(elem) = cx.written_type(elem) else {
                continue;
            };
            if matches!(elem, Ty::Dim3) {
                cx.err(pt.ty.span(), "arrays of `Dim3` are not supported");
            }
            let c_name = cx.c_name(&name.to_string());
            cx.arrays.push(Array {
                name: name.clone(),
                c_name,
                space: if is_const {
                    Space::Const
                } else {
                    Space::Global { writable: is_mut }
                },
                elem,
                rank: 1,
                dims: Vec::new(),
                written: false,
            });
            let id = cx.arrays.len() - 1;
            cx.bind(&name, Binding::Array(id));
            params.push(Param::Array(id));
        } else if let syn::Type::Reference(r) = &*pt.ty {
            cx.err(
                r.span(),
                "parameters are `&Thread`, `&Arr<T>`, `&mut Arr<T>`, `&ConstArr<T>`, or scalars and records by value (`x: f32`)",
            );
        } else if let Some(ty) = cx.written_type(&pt.ty) {
            if matches!(ty, Ty::Dim3) {
                cx.err(
                    pt.ty.span(),
                    "`Dim3` parameters are not supported: pass three `u32`",
                );
            }
            let id = cx.new_local(&name, ty, mutable);
            params.push(Param::Value(id));
        }
    }
    let body = cx.block_stmts(&item.block.stmts, true);
    cx.finish(item.sig.ident.clone(), params, body)
}

impl Cx {
    /// A block in a new scope. `fn_body`: the tail expression is the function's value.
    pub(crate) fn block_stmts(&mut self, stmts: &[syn::Stmt], fn_body: bool) -> Block {
        self.scopes.push(HashMap::new());
        let mut out = Vec::new();
        for (k, s) in stmts.iter().enumerate() {
            let last = k + 1 == stmts.len();
            self.stmt(s, fn_body && last, &mut out);
        }
        self.scopes.pop();
        Block { stmts: out }
    }

    fn stmt(&mut self, s: &syn::Stmt, fn_tail: bool, out: &mut Vec<Stmt>) {
        match s {
            syn::Stmt::Local(l) => self.let_stmt(l, out),
            syn::Stmt::Item(i) => self.err(
                i.span(),
                "items (fn, const, struct, use) cannot be declared inside a kernel: declare them at module level (consts are used by path, helpers are `#[rumba::device]` functions)",
            ),
            syn::Stmt::Macro(m) => self.macro_stmt(&m.mac, out),
            syn::Stmt::Expr(e, semi) => {
                if fn_tail && semi.is_none() && self.kind == FnKind::Device && self.ret != Ty::Unit {
                    // A device function's value.
                    let ret = self.ret.clone();
                    let v = self.rvalue(e, out);
                    self.unify(&v.ty, &ret, e.span(), "the returned value");
                    out.push(Stmt::Return(Some(v), e.span()));
                    return;
                }
                self.stmt_expr(e, out);
            }
        }
    }

    fn macro_stmt(&mut self, mac: &syn::Macro, out: &mut Vec<Stmt>) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if name != "assert" && name != "debug_assert" {
            self.err(
                mac.span(),
                format!("macro `{name}!` is not supported in kernels: only `assert!(condition)` (a fault when false) is"),
            );
            return;
        }
        let args = match mac.parse_body_with(
            syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        ) {
            Ok(a) => a,
            Err(e) => {
                self.push_err(e);
                return;
            }
        };
        let Some(cond) = args.first() else {
            self.err(mac.span(), "`assert!` needs a condition");
            return;
        };
        for extra in args.iter().skip(1) {
            if !matches!(
                extra,
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(_),
                    ..
                })
            ) || args.len() > 2
            {
                self.err(extra.span(), "`assert!` in a kernel takes a condition and at most a plain string message (no format arguments)");
            }
        }
        let c = self.expr(cond);
        let bool_ty = Ty::Scalar(Scalar::Bool);
        if let Err(e) = self
            .types
            .unify(&c.ty, &bool_ty, cond.span(), "the condition of `assert!`")
        {
            self.push_err(e);
        }
        let text = cond.to_token_stream().to_string();
        let site = self.site(format!("`assert!({text})`"), mac.span());
        out.push(Stmt::Assert {
            cond: c,
            site,
            tokens: mac.tokens.clone(),
            span: mac.span(),
        });
    }

    fn let_stmt(&mut self, l: &syn::Local, out: &mut Vec<Stmt>) {
        if let Some(init) = &l.init {
            if let Some((_, div)) = &init.diverge {
                self.err(div.span(), "`let … else` is not supported: use `if`");
                return;
            }
        }
        let (pat, annot) = match &l.pat {
            syn::Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            p => (p, None),
        };
        // In-kernel arrays.
        if let Some(init) = &l.init {
            if let Some(decl) = self.array_decl(&init.expr) {
                let syn::Pat::Ident(pi) = pat else {
                    self.err(
                        pat.span(),
                        "bind an array to a plain name: `let s = t.shared_array::<f32>(16);`",
                    );
                    return;
                };
                if let Some(a) = annot {
                    self.err(a.span(), "remove the annotation: array bindings are typed by the turbofish (`::<f32>`)");
                }
                if let Some((space, elem, dims)) = decl {
                    let c_name = self.c_name(&pi.ident.to_string());
                    let rank = dims.len().max(1);
                    self.arrays.push(Array {
                        name: pi.ident.clone(),
                        c_name,
                        space,
                        elem,
                        rank,
                        dims,
                        written: false,
                    });
                    let id = self.arrays.len() - 1;
                    self.bind(&pi.ident, Binding::Array(id));
                    out.push(Stmt::ArrayDecl {
                        array: id,
                        span: l.span(),
                    });
                }
                return;
            }
        }
        match pat {
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                let ty = match annot {
                    Some(a) => match self.written_type(a) {
                        Some(t) => t,
                        None => return,
                    },
                    None => self.types.fresh(Kind::Any, pi.ident.span()),
                };
                let init = l.init.as_ref().map(|i| {
                    let v = self.rvalue(&i.expr, out);
                    if let Err(e) = self.types.unify(
                        &ty,
                        &v.ty,
                        i.expr.span(),
                        &format!("the initial value of `{}`", pi.ident),
                    ) {
                        self.push_err(e);
                    }
                    v
                });
                if init.is_none() && annot.is_none() {
                    self.err(
                        pi.span(),
                        format!(
                            "`let {}` without a value needs a type: `let {}: f32;`",
                            pi.ident, pi.ident
                        ),
                    );
                }
                let id = self.new_local(&pi.ident, ty, pi.mutability.is_some());
                out.push(Stmt::Let {
                    local: id,
                    init,
                    span: l.span(),
                });
            }
            syn::Pat::Wild(_) => {
                if let Some(i) = &l.init {
                    let v = self.expr(&i.expr);
                    out.push(Stmt::Expr(v));
                }
            }
            syn::Pat::Tuple(pt) => {
                let Some(init) = &l.init else {
                    self.err(pt.span(), "a tuple `let` needs a value");
                    return;
                };
                let mut names = Vec::new();
                for p in &pt.elems {
                    match p {
                        syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                            names.push((pi.ident.clone(), pi.mutability.is_some()))
                        }
                        other => self.err(
                            other.span(),
                            "tuple patterns hold plain names only: `let (x, y) = …;`",
                        ),
                    }
                }
                let v = self.expr(&init.expr);
                let elem_tys: Vec<Ty> = (0..names.len())
                    .map(|_| self.types.fresh(Kind::Any, init.expr.span()))
                    .collect();
                if let Err(e) = self.types.unify(
                    &v.ty,
                    &Ty::Tuple(elem_tys.clone()),
                    init.expr.span(),
                    "this tuple pattern",
                ) {
                    self.push_err(e);
                }
                if let Some(a) = annot {
                    if let syn::Type::Tuple(tt) = a {
                        for (t, et) in tt.elems.iter().zip(&elem_tys) {
                            if let Some(wt) = self.written_type(t) {
                                if let Err(e) =
                                    self.types.unify(et, &wt, t.span(), "the annotation")
                                {
                                    self.push_err(e);
                                }
                            }
                        }
                    } else {
                        self.err(
                            a.span(),
                            "annotate a tuple pattern with a tuple type: `(usize, usize)`",
                        );
                    }
                }
                let locals: Vec<LocalId> = names
                    .iter()
                    .zip(elem_tys)
                    .map(|((n, m), t)| self.new_local(n, t, *m))
                    .collect();
                out.push(Stmt::LetTuple {
                    locals,
                    init: v,
                    span: l.span(),
                });
            }
            other => self.err(
                other.span(),
                "only `let x`, `let mut x`, `let x: T` and flat tuples `let (x, y)` are supported",
            ),
        }
    }

    /// Recognises `t.shared_array::<T>(shape)`, `t.local_array::<T>(shape)` and
    /// `t.dynamic_shared::<T>()`; `Some(None)` when it is one but was refused.
    #[allow(clippy::type_complexity)]
    fn array_decl(&mut self, e: &syn::Expr) -> Option<Option<(Space, Ty, Vec<DimSize>)>> {
        let syn::Expr::MethodCall(m) = e else {
            return None;
        };
        let method = m.method.to_string();
        if !matches!(
            method.as_str(),
            "shared_array" | "local_array" | "dynamic_shared"
        ) {
            return None;
        }
        if !self.is_thread(&m.receiver) {
            return None;
        }
        let elem = match m.turbofish.as_ref().and_then(|t| t.args.first()) {
            Some(syn::GenericArgument::Type(t)) => self.written_type(t),
            _ => {
                self.err(
                    m.method.span(),
                    format!("name the element type: `t.{method}::<f32>(…)`"),
                );
                None
            }
        };
        if self.kind == FnKind::Device && method != "local_array" {
            self.err(
                m.span(),
                "shared memory cannot be declared in a device function: declare it in the kernel",
            );
            return Some(None);
        }
        let elem = elem?;
        if method == "dynamic_shared" {
            if !m.args.is_empty() {
                self.err(m.args.span(), "`dynamic_shared` takes no arguments: its size is the launch's `dynamic_shared_bytes`");
            }
            return Some(Some((Space::DynamicShared, elem, Vec::new())));
        }
        if m.args.len() != 1 {
            self.err(
                m.span(),
                format!("`{method}` takes one shape: a literal, a const, or a tuple of them"),
            );
            return Some(None);
        }
        let shape = &m.args[0];
        let parts: Vec<&syn::Expr> = match shape {
            syn::Expr::Tuple(t) => t.elems.iter().collect(),
            syn::Expr::Paren(p) => vec![&*p.expr],
            e => vec![e],
        };
        if parts.is_empty() || parts.len() > 3 {
            self.err(
                shape.span(),
                "shared and local arrays have 1 to 3 dimensions",
            );
            return Some(None);
        }
        let mut dims = Vec::new();
        for p in parts {
            match p {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => match i.base10_parse::<u64>() {
                    Ok(v) if v > 0 => dims.push(DimSize::Lit(v)),
                    _ => self.err(i.span(), "array dimensions are positive integers"),
                },
                syn::Expr::Path(ep) if ep.qself.is_none() && ep.path.get_ident().is_none_or(|id| self.lookup(&id.to_string()).is_none()) => {
                    let c = self.const_use(&ep.path, Scalar::Usize);
                    dims.push(DimSize::Const(c));
                }
                other => self.err(
                    other.span(),
                    "shared and local array shapes are compile-time constants: integer literals or `const` items by path (not variables or expressions)",
                ),
            }
        }
        let space = if method == "shared_array" {
            Space::Shared
        } else {
            Space::Local
        };
        Some(Some((space, elem, dims)))
    }

    pub(crate) fn is_thread(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|id| matches!(self.lookup(&id.to_string()), Some(Binding::Thread))),
            syn::Expr::Paren(p) => self.is_thread(&p.expr),
            _ => false,
        }
    }

    pub(crate) fn lookup_array(&self, e: &syn::Expr) -> Option<ArrayId> {
        match e {
            syn::Expr::Path(p) => match self.lookup(&p.path.get_ident()?.to_string()) {
                Some(Binding::Array(a)) => Some(a),
                _ => None,
            },
            syn::Expr::Paren(p) => self.lookup_array(&p.expr),
            _ => None,
        }
    }

    pub(crate) fn lookup_local(&self, name: &str) -> Option<LocalId> {
        match self.lookup(name) {
            Some(Binding::Local(l)) => Some(l),
            _ => None,
        }
    }

    pub(crate) fn name_is_bound(&self, name: &str) -> bool {
        self.lookup(name).is_some()
    }

    pub(crate) fn array(&self, a: ArrayId) -> &Array {
        &self.arrays[a]
    }

    pub(crate) fn mark_written(&mut self, a: ArrayId) {
        self.arrays[a].written = true;
    }

    pub(crate) fn device_use(&mut self, path: &syn::Path) -> usize {
        let key = path.to_token_stream().to_string();
        if let Some(i) = self
            .devices
            .iter()
            .position(|d| d.path.to_token_stream().to_string() == key)
        {
            return i;
        }
        let last = path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        self.devices.push(DeviceUse {
            path: path.clone(),
            c_name: format!("dev_{last}"),
        });
        self.devices.len() - 1
    }

    pub(crate) fn const_path(&mut self, path: &syn::Path, span: Span) -> (usize, Ty) {
        let ty = self.types.fresh(Kind::Any, span);
        (self.const_use(path, Scalar::Usize), ty)
    }

    /// A const used only as the operand of `as` (its type stays rustc's).
    pub(crate) fn const_index(&mut self, path: &syn::Path) -> usize {
        self.const_use(path, Scalar::Usize)
    }

    pub(crate) fn fn_kind(&self) -> FnKind {
        self.kind
    }

    pub(crate) fn ret_ty(&self) -> Ty {
        self.ret.clone()
    }

    pub(crate) fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub(crate) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub(crate) fn enter_loop(&mut self) {
        self.loop_depth += 1;
    }

    pub(crate) fn leave_loop(&mut self) {
        self.loop_depth -= 1;
    }

    pub(crate) fn in_loop(&self) -> bool {
        self.loop_depth > 0
    }

    pub(crate) fn need(&mut self, ty: &Ty, need: Need, span: Span, what: impl Into<String>) {
        self.types.need(ty, need, span, what);
    }

    pub(crate) fn unify(&mut self, a: &Ty, b: &Ty, span: Span, what: &str) {
        if let Err(e) = self.types.unify(a, b, span, what) {
            self.push_err(e);
        }
    }

    pub(crate) fn local_ty(&self, l: LocalId) -> Ty {
        self.locals[l].ty.clone()
    }
}
