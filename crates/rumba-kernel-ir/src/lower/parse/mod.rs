//! From `syn` to the typed IR: the subset check (every refusal a spanned error saying what to
//! write instead, all collected), name resolution, and type inference (see [`infer`](super::infer)).
//!
//! `mod.rs` holds the context, the signature and statements; `expr.rs` the expressions.

mod call;
mod capture;
mod control;
mod expr;
mod finish;
mod record;
mod sig;
mod stmt;
mod view;

use finish::zonk_block;
pub(crate) use sig::parse_fn;
use sig::{array_param, complex_part};

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span};
use quote::ToTokens;
use syn::spanned::Spanned;

use super::Capture;
use super::generics::Generics;
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
    /// The function's own name (a call to it is recursion, which the subset refuses).
    pub(crate) own_name: String,
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
    /// Rank relations of views whose base's rank was not known where they were made.
    rank_links: Vec<view::RankLink>,
    /// The instance's type parameters and the element types they stand for.
    subst: Vec<(String, Scalar)>,
    /// The function's const parameters and their types.
    const_params: Vec<(String, Scalar)>,
    /// Array parameters declared so far (device functions number them).
    param_arrays: usize,
    /// Arrays passed to device functions.
    array_args: Vec<ArrayArg>,
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
            own_name: String::new(),
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
            rank_links: Vec::new(),
            subst: Vec::new(),
            const_params: Vec::new(),
            param_arrays: 0,
            array_args: Vec::new(),
        }
    }

    /// The element type a written type name stands for: a type parameter of the instance being
    /// lowered, or a scalar's own name.
    pub(crate) fn scalar_named(&self, name: &str) -> Option<Scalar> {
        self.subst
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
            .or_else(|| Scalar::from_rust_name(name))
    }

    /// `path` with the instance's type parameters replaced in its generic arguments
    /// (`dot::<T>` is `dot::<f32>` in the `T = f32` instance).
    pub(crate) fn subst_path(&self, path: &syn::Path) -> syn::Path {
        let mut p = path.clone();
        if self.subst.is_empty() {
            return p;
        }
        for seg in &mut p.segments {
            if let syn::PathArguments::AngleBracketed(args) = &mut seg.arguments {
                for a in &mut args.args {
                    if let syn::GenericArgument::Type(syn::Type::Path(tp)) = a {
                        let hit = tp
                            .path
                            .get_ident()
                            .and_then(|id| self.subst.iter().find(|(n, _)| id == n));
                        if let Some((_, s)) = hit {
                            let id = Ident::new(s.rust_name(), tp.path.segments[0].ident.span());
                            *a = syn::GenericArgument::Type(syn::parse_quote!(#id));
                        }
                    }
                }
            }
        }
        p
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
        self.record_use_index(path).0
    }

    /// The key of the record type at `path` and its index in [`Func::records`].
    pub(crate) fn record_use_index(&mut self, path: &syn::Path) -> (String, usize) {
        let key = path.to_token_stream().to_string().replace(' ', "");
        if let Some(i) = self
            .records
            .iter()
            .position(|r| r.path.to_token_stream().to_string().replace(' ', "") == key)
        {
            return (key, i);
        }
        let c_name = path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        self.records.push(RecordUse {
            path: path.clone(),
            c_name,
        });
        (key, self.records.len() - 1)
    }

    /// A type written in the source: a scalar or a record path.
    pub(crate) fn written_type(&mut self, ty: &syn::Type) -> Option<Ty> {
        if let syn::Type::Tuple(t) = ty {
            if t.elems.is_empty() {
                return Some(Ty::Unit);
            }
            let parts: Option<Vec<Ty>> = t.elems.iter().map(|e| self.written_type(e)).collect();
            let parts = parts?;
            if parts
                .iter()
                .any(|p| matches!(p, Ty::Tuple(_) | Ty::Dim3 | Ty::Unit))
            {
                self.err(
                    ty.span(),
                    "tuples hold element types, complex numbers and records (no nested tuples, no `Dim3`)",
                );
                return None;
            }
            return Some(Ty::Tuple(parts));
        }
        if let syn::Type::Paren(p) = ty {
            return self.written_type(&p.elem);
        }
        if let syn::Type::Path(tp) = ty {
            if tp.qself.is_none() {
                if let Some(id) = tp.path.get_ident() {
                    if let Some(s) = self.scalar_named(&id.to_string()) {
                        return Some(Ty::Scalar(s));
                    }
                    if id == "Dim3" {
                        return Some(Ty::Dim3);
                    }
                    if matches!(id.to_string().as_str(), "char" | "str" | "String") {
                        self.err(ty.span(), format!("`{id}` is not a kernel element type: use `f32`, `f64`, `f16`, an integer type or `bool`"));
                        return None;
                    }
                }
                if let Some(part) = complex_part(&tp.path, |n| self.scalar_named(n)) {
                    return match part {
                        Some(s) => Some(Ty::Complex(Box::new(Ty::Scalar(s)))),
                        None => {
                            self.err(
                                ty.span(),
                                "complex element types are `Complex<f32>` and `Complex<f64>`",
                            );
                            None
                        }
                    };
                }
                if tp.path.segments.iter().all(|s| s.arguments.is_none()) {
                    let key = self.record_use(&tp.path);
                    return Some(Ty::Record(key));
                }
            }
        }
        self.err(
            ty.span(),
            "kernels take element types (`f32`, `u32`, `usize`, …, `Complex<f32>`, `Complex<f64>`), `#[rumba::record]` structs, `&Arr<T>`, `&mut Arr<T>`, `&ConstArr<T>` and `&Thread`; other types are not supported",
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
        self.reconcile_views();
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
            // Views: refused at the view (`reconcile_views`); their roots are refused here.
            if a.written && a.base.is_none() {
                match a.space {
                    Space::Global { writable: false } if a.captured => errors.push(syn::Error::new(
                        a.name.span(),
                        format!("`{}` is written by the {}: capture it as `&mut Arr<{}>` (`capture({}: &mut Arr<{}>)`)", a.name, if self.kind == FnKind::Kernel { "kernel" } else { "device function" }, super::infer::show(&a.elem), a.name, super::infer::show(&a.elem)),
                    )),
                    Space::Global { writable: false } => errors.push(syn::Error::new(
                        a.name.span(),
                        format!("`{}` is written by the kernel: declare it `&mut Arr<{}>`", a.name, super::infer::show(&a.elem)),
                    )),
                    Space::Const => errors.push(syn::Error::new(
                        a.name.span(),
                        format!("`{}` is constant memory and cannot be written: pass a `&mut Arr<{}>` instead", a.name, super::infer::show(&a.elem)),
                    )),
                    Space::Param { writable: false, .. } => errors.push(syn::Error::new(
                        a.name.span(),
                        format!("`{}` is written by the device function: declare it `&mut Arr<{}>`", a.name, super::infer::show(&a.elem)),
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
            array_args: self.array_args,
            thread: self.thread,
            const_params: self
                .const_params
                .iter()
                .map(|(n, s)| (Ident::new(n, Span::call_site()), *s))
                .collect(),
        })
    }
}

impl Cx {
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
        let path = &self.subst_path(path);
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
        // A const parameter has the type it is declared with.
        let declared = path.get_ident().and_then(|id| {
            self.const_params
                .iter()
                .find(|(n, _)| id == n)
                .map(|(_, s)| *s)
        });
        let ty = match declared {
            Some(s) => Ty::Scalar(s),
            None => self.types.fresh(Kind::Any, span),
        };
        (self.const_use(path, declared.unwrap_or(Scalar::Usize)), ty)
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
