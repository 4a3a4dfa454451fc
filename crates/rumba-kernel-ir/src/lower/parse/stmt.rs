//! Statements: blocks, `let` (plain, annotated, tuple, in-kernel arrays) and `assert!`.

use super::*;

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

    pub(super) fn stmt(&mut self, s: &syn::Stmt, fn_tail: bool, out: &mut Vec<Stmt>) {
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

    pub(super) fn macro_stmt(&mut self, mac: &syn::Macro, out: &mut Vec<Stmt>) {
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
        // The message, when given, is part of what the fault says on every target.
        let text = match args.iter().nth(1) {
            Some(msg) => format!("{}, {}", cond.to_token_stream(), msg.to_token_stream()),
            None => cond.to_token_stream().to_string(),
        };
        let site = self.site(format!("`assert!({text})`"), mac.span());
        out.push(Stmt::Assert {
            cond: c,
            site,
            tokens: mac.tokens.clone(),
            span: mac.span(),
        });
    }

    pub(super) fn let_stmt(&mut self, l: &syn::Local, out: &mut Vec<Stmt>) {
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
        // In-kernel views of arrays.
        if let Some(init) = &l.init {
            if self
                .view_decl(&init.expr, pat, annot, l.span(), out)
                .is_some()
            {
                return;
            }
        }
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
                    // Dynamic shared memory is 1-d; a fixed array has its shape's rank.
                    let rank = if space == Space::DynamicShared {
                        1
                    } else {
                        dims.len()
                    };
                    self.arrays.push(Array {
                        name: pi.ident.clone(),
                        c_name,
                        space,
                        elem,
                        rank,
                        dims,
                        written: false,
                        captured: false,
                        base: None,
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
        if matches!(elem, Ty::Dim3 | Ty::Tuple(_) | Ty::Unit) {
            self.err(
                m.span(),
                "arrays hold element types, complex numbers and records (not `Dim3` or tuples: use a record)",
            );
            return Some(None);
        }
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
        if parts.len() > MAX_RANK {
            self.err(
                shape.span(),
                format!("shared and local arrays have 0 to {MAX_RANK} dimensions (`()` is 0-d)"),
            );
            return Some(None);
        }
        let mut dims = Vec::new();
        let n_parts = parts.len();
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
        // A refused extent (already reported) stands in as 1, so the array keeps the rank its
        // uses are checked against and nothing cascades.
        dims.resize(n_parts, DimSize::Lit(1));
        let space = if method == "shared_array" {
            Space::Shared
        } else {
            Space::Local
        };
        Some(Some((space, elem, dims)))
    }
}
