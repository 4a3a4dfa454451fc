//! The simulator body: Rust tokens for today's coroutine engine, built on the low-level API
//! (`ThreadCtx`, `View::get` / `set` / `atomic_*`).
//!
//! Every node is emitted with its user span (`quote_spanned!`), and every inferred type is
//! written down (`let x: f32 = …`, literal suffixes, `ty::<T>(…)` around consts, record fields and
//! device-function results), so rustc re-checks the macro's inference at the user's line.
//! Integer `+ - * << >>` and unary `-` are emitted as `wrapping_*` (release-Rust semantics in
//! every profile, the same as the C targets); `/` and `%` panic on zero and overflow, which the
//! engine turns into a kernel fault.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};

mod expr;
mod ops;

use crate::lower::Options;
use crate::lower::ir::*;
use crate::target::Scalar;

/// The emitter. `wil` is `None` for the per-thread body; the work-item-loop emitter
/// ([`super::wil`]) sets it to rename locals and arrays, map thread queries to the region's
/// work-item and substitute own-index windows, and reuses everything else.
pub(crate) struct R<'a> {
    pub(crate) f: &'a Func,
    pub(crate) k: &'a syn::Path,
    pub(crate) thread: Ident,
    pub(crate) wil: Option<&'a dyn Wil>,
}

/// How a local's `let` reads in a work-item-loop body.
pub(crate) enum LetKind {
    /// `let` as written (renamed).
    Declare,
    /// The local is declared elsewhere (a context array loaded at the region's start): assign.
    Assign,
    /// Emit nothing (a recomputed thread-index expression, emitted at each region's start).
    Skip,
}

/// The work-item-loop emitter's hooks into [`R`].
pub(crate) trait Wil {
    /// The identifier of local `l`.
    fn local(&self, l: LocalId) -> Ident;
    /// What `let l = …` becomes.
    fn let_kind(&self, l: LocalId) -> LetKind;
    /// The identifier of array `a`'s accessor.
    fn array(&self, a: ArrayId) -> Ident;
    /// A thread-context query.
    fn thread_query(&self, q: ThreadQuery, span: Span) -> TokenStream;
    /// Whether the code runs inside a region (per work-item) rather than once per block.
    fn in_region(&self) -> bool;
    /// An own-index window read of `a` at `idx`, if the region uses one.
    fn window_get(&self, _a: ArrayId, _idx: &[Expr]) -> Option<TokenStream> {
        None
    }
    /// An own-index window store to `a`, if the region uses one.
    fn window_set(&self, _a: ArrayId, _value: TokenStream) -> Option<TokenStream> {
        None
    }
    /// A comparison known in the region (a bounds guard that a window makes true).
    fn known(&self, _e: &Expr) -> Option<bool> {
        None
    }
    /// What an array declaration becomes in place (zeroing a local array).
    fn array_decl(&self, a: ArrayId) -> TokenStream;
    /// The base of an in-kernel view made from array `a`, when the block body reaches `a`
    /// through a handle other than the per-thread body's view (a block array).
    fn view_base(&self, _a: ArrayId) -> Option<TokenStream> {
        None
    }
    /// What stands for `e` itself, where the body computed it earlier (an element read hoisted
    /// out of a lane loop, `lanes`): matched by identity, not by value.
    fn replaced(&self, _e: &Expr) -> Option<TokenStream> {
        None
    }
}

/// The iterator of a `for` over `s..e` (`s..=e` when `inclusive`), stepped by `step` if any.
pub(crate) fn for_range(
    s: TokenStream,
    e: TokenStream,
    inclusive: bool,
    step: Option<TokenStream>,
) -> TokenStream {
    let range = if inclusive {
        quote!((#s)..=(#e))
    } else {
        quote!((#s)..(#e))
    };
    match step {
        Some(k) => quote!((#range).step_by(#k)),
        None => range,
    }
}

/// The body: for a kernel, the statements of the per-thread closure (scalar parameters are
/// re-bound from the `&T` the engine lends); for a device function, its body.
pub fn body(f: &Func, opts: &Options) -> TokenStream {
    let r = R {
        f,
        k: &opts.krate,
        thread: f
            .thread
            .clone()
            .unwrap_or_else(|| Ident::new("__rumba_thread", Span::call_site())),
        wil: None,
    };
    let mut out = TokenStream::new();
    let k = &opts.krate;
    for p in &f.params {
        match p {
            Param::Value(l) if !f.is_device => {
                let loc = &f.locals[*l];
                let (name, ty) = (&loc.name, r.ty(&loc.ty));
                let m = loc.mutable.then(|| quote!(mut));
                out.extend(quote_spanned!(name.span()=> let #m #name: #ty = *#name;));
            }
            Param::Array(a) if f.is_device => {
                // A device function's array argument (`Ro` / `Rw`) becomes its view.
                let name = &f.arrays[*a].name;
                out.extend(quote_spanned!(name.span()=> let #name = #k::kernel::__macro::ArrIn::into_view(#name);));
            }
            _ => {}
        }
    }
    out.extend(r.block_inner(&f.body));
    out
}

/// The Rust type of a value type.
pub fn ty_tokens(ty: &Ty, krate: &syn::Path) -> TokenStream {
    match ty {
        Ty::Scalar(s) => scalar_tokens(*s, krate, Span::call_site()),
        Ty::Record(path) => path.parse().unwrap_or_else(|_| quote!(())),
        Ty::Complex(p) => {
            let p = ty_tokens(p, krate);
            quote!(#krate::kernel::Complex<#p>)
        }
        Ty::Dim3 => quote!(#krate::kernel::Dim3),
        Ty::Unit | Ty::Var(_) => quote!(()),
        Ty::Tuple(v) => {
            let parts = v.iter().map(|t| ty_tokens(t, krate));
            quote!((#(#parts),*))
        }
    }
}

/// The Rust type of a scalar: its primitive name, or `rumba::kernel::f16` (`half::f16`, which
/// the user's scope may not name).
pub fn scalar_tokens(s: Scalar, krate: &syn::Path, span: Span) -> TokenStream {
    if s.is_f16() {
        let id = Ident::new("f16", span);
        quote_spanned!(span=> #krate::kernel::#id)
    } else {
        let id = Ident::new(s.rust_name(), span);
        quote!(#id)
    }
}

/// The type a kernel's views hold for arrays of element type `ty`: `ty` itself, except `bool`,
/// which device memory holds as `rumba::kernel::DeviceBool` (one byte, read as `!= 0`).
pub fn elem_tokens(ty: &Ty, krate: &syn::Path) -> TokenStream {
    if is_bool(ty) {
        quote!(#krate::kernel::DeviceBool)
    } else {
        ty_tokens(ty, krate)
    }
}

/// Whether `ty` is `bool`.
pub(crate) fn is_bool(ty: &Ty) -> bool {
    ty.scalar() == Some(crate::target::Scalar::Bool)
}

impl R<'_> {
    pub(crate) fn ty(&self, ty: &Ty) -> TokenStream {
        ty_tokens(ty, self.k)
    }

    /// A load from array `a` as the kernel's value (a `DeviceBool` read as `bool`).
    fn loaded(&self, a: ArrayId, load: TokenStream) -> TokenStream {
        if is_bool(&self.f.arrays[a].elem) {
            let k = self.k;
            quote!(#k::kernel::DeviceBool::get(#load))
        } else {
            load
        }
    }

    /// A value to store into array `a` (a `bool` stored as a `DeviceBool`).
    fn to_store(&self, a: ArrayId, v: TokenStream) -> TokenStream {
        if is_bool(&self.f.arrays[a].elem) {
            let k = self.k;
            quote!(#k::kernel::DeviceBool::new(#v))
        } else {
            v
        }
    }

    pub(crate) fn block_inner(&self, b: &Block) -> TokenStream {
        b.stmts.iter().map(|s| self.stmt(s)).collect()
    }

    fn block(&self, b: &Block) -> TokenStream {
        let inner = self.block_inner(b);
        quote!({ #inner })
    }

    fn array(&self, a: ArrayId) -> Ident {
        match self.wil {
            Some(w) => w.array(a),
            None => self.f.arrays[a].rust_ident(),
        }
    }

    /// The identifier of local `l`, at `span`.
    pub(crate) fn local(&self, l: LocalId, span: Span) -> Ident {
        let mut n = match self.wil {
            Some(w) => w.local(l),
            None => self.f.locals[l].name.clone(),
        };
        n.set_span(span);
        n
    }

    pub(crate) fn index(&self, idx: &[Expr]) -> TokenStream {
        let parts: Vec<TokenStream> = idx.iter().map(|e| self.expr(e)).collect();
        if parts.len() == 1 {
            parts[0].clone()
        } else {
            quote!((#(#parts),*))
        }
    }

    pub(crate) fn stmt(&self, s: &Stmt) -> TokenStream {
        let t = &self.thread;
        match s {
            Stmt::Let { local, init, span } => {
                let l = &self.f.locals[*local];
                let (name, ty) = (self.local(*local, l.name.span()), self.ty(&l.ty));
                let m = l.mutable.then(|| quote!(mut));
                match (self.wil.map(|w| w.let_kind(*local)), init) {
                    (Some(LetKind::Skip), _) | (Some(LetKind::Assign), None) => quote!(),
                    (Some(LetKind::Assign), Some(e)) => {
                        let v = self.expr(e);
                        quote_spanned!(*span=> #name = #v;)
                    }
                    (_, Some(e)) => {
                        let v = self.expr(e);
                        quote_spanned!(*span=> let #m #name: #ty = #v;)
                    }
                    (_, None) => quote_spanned!(*span=> let #m #name: #ty;),
                }
            }
            Stmt::LetTuple { locals, init, span } if self.wil.is_some() => {
                // Element by element: each local may be declared, assigned or recomputed.
                if locals
                    .iter()
                    .all(|l| matches!(self.wil.map(|w| w.let_kind(*l)), Some(LetKind::Skip)))
                {
                    return quote!();
                }
                let v = self.expr(init);
                let tys = locals.iter().map(|l| self.ty(&self.f.locals[*l].ty));
                let parts = locals.iter().enumerate().map(|(k, l)| {
                    let loc = &self.f.locals[*l];
                    let n = self.local(*l, loc.name.span());
                    let ty = self.ty(&loc.ty);
                    let m = loc.mutable.then(|| quote!(mut));
                    let k = syn::Index::from(k);
                    match self.wil.map(|w| w.let_kind(*l)) {
                        Some(LetKind::Skip) => quote!(),
                        Some(LetKind::Assign) => quote!(#n = __rumba_tuple.#k;),
                        _ => quote!(let #m #n: #ty = __rumba_tuple.#k;),
                    }
                });
                quote_spanned!(*span=> let __rumba_tuple: (#(#tys),*) = #v; #(#parts)*)
            }
            Stmt::LetTuple { locals, init, span } => {
                let names = locals.iter().map(|l| {
                    let loc = &self.f.locals[*l];
                    let n = &loc.name;
                    if loc.mutable {
                        quote!(mut #n)
                    } else {
                        quote!(#n)
                    }
                });
                let tys = locals.iter().map(|l| self.ty(&self.f.locals[*l].ty));
                let v = self.expr(init);
                quote_spanned!(*span=> let (#(#names),*): (#(#tys),*) = #v;)
            }
            Stmt::ArrayDecl { array, .. } if self.wil.is_some() => {
                self.wil.map(|w| w.array_decl(*array)).unwrap_or_default()
            }
            Stmt::ArrayDecl { array, span } => {
                let a = &self.f.arrays[*array];
                let name = &a.name;
                let elem = elem_tokens(&a.elem, self.k);
                let dims: Vec<TokenStream> = a
                    .dims
                    .iter()
                    .map(|d| match d {
                        DimSize::Lit(v) => {
                            let l = Literal::usize_suffixed(*v as usize);
                            quote!(#l)
                        }
                        DimSize::Const(c) => {
                            let p = &self.f.consts[*c].path;
                            quote!(#p)
                        }
                    })
                    .collect();
                let shape = if dims.len() == 1 {
                    quote!(#(#dims)*)
                } else {
                    quote!((#(#dims),*))
                };
                match a.space {
                    Space::Shared => {
                        quote_spanned!(*span=> let #name = #t.shared_array::<#elem>(#shape);)
                    }
                    Space::Local => {
                        quote_spanned!(*span=> let #name = #t.local_array::<#elem>(#shape);)
                    }
                    _ => quote_spanned!(*span=> let #name = #t.dynamic_shared::<#elem>();),
                }
            }
            Stmt::View {
                array,
                base,
                kind,
                span,
                ..
            } => {
                // `View::reshape` / `view` / `index_axis` (and `ConstView`'s) fault the thread
                // on an incompatible shape, item size or index, as the C targets do.
                let name = self.array(*array);
                let b = match self.wil.and_then(|w| w.view_base(*base)) {
                    Some(b) => b,
                    None => self.array(*base).into_token_stream(),
                };
                let v = match kind {
                    ViewKind::Reshape(dims, None) => {
                        let d = self.index(dims);
                        quote_spanned!(*span=> #b.reshape(#d))
                    }
                    ViewKind::Reshape(dims, Some(axis)) => {
                        let d = self.index(dims);
                        let axis = Literal::usize_suffixed(*axis);
                        quote_spanned!(*span=> #b.reshape_infer(#d, #axis))
                    }
                    ViewKind::Slice(comps) => {
                        let k = self.k;
                        let int = |e: &Expr| {
                            let x = self.expr(e);
                            quote_spanned!(e.span=> ((#x) as isize))
                        };
                        let opt = |e: &Option<Expr>| match e {
                            Some(e) => {
                                let x = int(e);
                                quote!(::core::option::Option::Some(#x))
                            }
                            None => quote!(::core::option::Option::None),
                        };
                        let args = comps.iter().map(|c| match c {
                            SliceComp::Index(e) => {
                                let x = int(e);
                                quote!(#k::kernel::SliceArg::Index(#x))
                            }
                            SliceComp::Range { start, stop, step } => {
                                let (a, b) = (opt(start), opt(stop));
                                let st = match step {
                                    Some(e) => int(e),
                                    None => quote!(1isize),
                                };
                                quote!(#k::kernel::SliceArg::Range(#k::kernel::Slice::new(#a, #b, #st)))
                            }
                        });
                        quote_spanned!(*span=> #b.slice_nd(&[#(#args),*]))
                    }
                    ViewKind::Cast => {
                        let elem = elem_tokens(&self.f.arrays[*array].elem, self.k);
                        quote_spanned!(*span=> #b.view::<#elem>())
                    }
                    ViewKind::Axis(k, i) => {
                        let k = Literal::usize_suffixed(*k);
                        let i = self.expr(i);
                        quote_spanned!(*span=> #b.index_axis(#k, #i))
                    }
                };
                quote_spanned!(*span=> let #name = #v;)
            }
            Stmt::Assign {
                place,
                op,
                value,
                span,
                ..
            } => match place {
                Place::Local(l, lspan) => {
                    let loc = &self.f.locals[*l];
                    let name = self.local(*l, *lspan);
                    let v = self.expr(value);
                    match op {
                        None => quote_spanned!(*span=> #name = #v;),
                        Some(op) => {
                            let cur = quote!(#name);
                            let e = self.binary(*op, &loc.ty, cur, v, *span);
                            quote_spanned!(*span=> #name = #e;)
                        }
                    }
                }
                Place::Index { array, idx, .. } => {
                    let a = self.array(*array);
                    let i = self.index(idx);
                    let v = self.expr(value);
                    let Some(op) = op else {
                        let v = self.to_store(*array, v);
                        if let Some(set) = self.wil.and_then(|w| w.window_set(*array, v.clone())) {
                            return quote_spanned!(*span=> #set;);
                        }
                        return quote_spanned!(*span=> #a.set(#i, #v););
                    };
                    // A read-modify-write: through the region's own-index window when it has
                    // one for the array, else at the index, evaluated once.
                    let elem = self.f.arrays[*array].elem.clone();
                    let ety = self.ty(&value.ty);
                    let updated = |get: TokenStream| {
                        let cur = self.loaded(*array, get);
                        let e = self.binary(*op, &elem, cur, quote!(__rumba_v), *span);
                        self.to_store(*array, e)
                    };
                    let through_window = self.wil.and_then(|w| {
                        let e = updated(w.window_get(*array, idx)?);
                        w.window_set(*array, e)
                    });
                    let (at, set) = match through_window {
                        Some(set) => (TokenStream::new(), set),
                        None => {
                            let e = updated(quote!(#a.get(__rumba_i)));
                            (quote!(let __rumba_i = #i;), quote!(#a.set(__rumba_i, #e)))
                        }
                    };
                    quote_spanned!(*span=> {
                        #at
                        let __rumba_v: #ety = #v;
                        #set;
                    })
                }
                Place::Field {
                    base,
                    field,
                    sub,
                    ty,
                    ..
                } => self.field_assign(
                    base,
                    field,
                    sub.as_ref().map(|(k, _)| &**k),
                    ty,
                    *op,
                    value,
                    *span,
                ),
            },
            Stmt::Expr(e) => {
                let v = self.expr(e);
                quote_spanned!(e.span=> #v;)
            }
            Stmt::If {
                cond,
                then,
                els,
                span,
            } => {
                let c = self.expr(cond);
                let a = self.block(then);
                match els {
                    Some(b) => {
                        let b = self.block(b);
                        quote_spanned!(*span=> if #c #a else #b)
                    }
                    None => quote_spanned!(*span=> if #c #a),
                }
            }
            Stmt::While { cond, body, span } => {
                let c = self.expr(cond);
                let b = self.block(body);
                quote_spanned!(*span=> while #c #b)
            }
            Stmt::Loop { body, span } => {
                let b = self.block(body);
                quote_spanned!(*span=> loop #b)
            }
            Stmt::For {
                var,
                start,
                end,
                inclusive,
                step,
                body,
                span,
            } => {
                let v = self.local(*var, self.f.locals[*var].name.span());
                let (s, e) = (self.expr(start), self.expr(end));
                let it = for_range(s, e, *inclusive, step.as_ref().map(|(k, _)| self.expr(k)));
                let b = self.block(body);
                quote_spanned!(*span=> for #v in #it #b)
            }
            Stmt::Break(span) => quote_spanned!(*span=> break;),
            Stmt::Continue(span) => quote_spanned!(*span=> continue;),
            Stmt::Return(None, span) if self.wil.is_some_and(|w| w.in_region()) => {
                // This work-item returns: it runs no later region.
                quote_spanned!(*span=> { __blk.exit(__w); return; })
            }
            Stmt::Return(v, span) => match v {
                Some(e) => {
                    let e = self.expr(e);
                    quote_spanned!(*span=> return #e;)
                }
                None => quote_spanned!(*span=> return;),
            },
            Stmt::Assert {
                cond, site, span, ..
            } => {
                let c = self.expr(cond);
                let msg = format!("assertion failed: {}", self.f.sites[*site].what);
                quote_spanned!(*span=> if !(#c) { ::core::panic!("{}", #msg) })
            }
            Stmt::Block(b) => self.block(b),
        }
    }
}

/// Sets the span of every token.
fn respan(ts: TokenStream, span: Span) -> TokenStream {
    ts.into_iter()
        .map(|mut tt| {
            tt.set_span(span);
            tt
        })
        .collect()
}
