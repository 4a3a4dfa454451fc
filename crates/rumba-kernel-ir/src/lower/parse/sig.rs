//! The signature: generic instance, parameters (the thread context, arrays, values), return
//! type, and the function as a whole ([`parse_fn`]).

use super::*;

/// The array type of a parameter: `&Arr<T>`, `&mut Arr<T>`, `&ConstArr<T>`.
pub(super) fn array_param(ty: &syn::Type) -> Option<(bool, bool, &syn::Type)> {
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

/// For a path ending in `Complex<…>` (`Complex<f32>`, `num_complex::Complex<f64>`): its part
/// type, `None` inside when that is not `f32` or `f64`.
pub(crate) fn complex_part(
    path: &syn::Path,
    scalar_named: impl Fn(&str) -> Option<Scalar>,
) -> Option<Option<Scalar>> {
    let last = path.segments.last()?;
    if last.ident != "Complex" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return Some(None);
    };
    let part = match args.args.first() {
        Some(syn::GenericArgument::Type(syn::Type::Path(p))) if args.args.len() == 1 => p
            .path
            .get_ident()
            .and_then(|id| scalar_named(&id.to_string())),
        _ => None,
    };
    Some(part.filter(|s| s.is_float()))
}

/// Parses and checks a kernel (`FnKind::Kernel`) or device function: the instance of its
/// generic parameters `generics` where the type parameters are `types`.
pub(crate) fn parse_fn(
    item: &syn::ItemFn,
    kind: FnKind,
    captures: &[Capture],
    generics: &Generics,
    types: &[Scalar],
) -> Result<Func, syn::Error> {
    let mut cx = Cx::new(kind);
    let sig = &item.sig;
    cx.own_name = sig.ident.to_string();
    cx.subst = crate::lower::generics::substitution(generics, types);
    cx.const_params = generics
        .consts
        .iter()
        .map(|c| (c.name.to_string(), c.ty))
        .collect();
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
    // A kernel keeps its name as the C entry point (the backends look it up by that name), so
    // unlike other user names it cannot be renamed in C: a reserved one is refused here.
    let name = sig.ident.to_string();
    let name = name.trim_start_matches("r#");
    if kind == FnKind::Kernel
        && (RESERVED.contains(&name) || name.starts_with("rb_") || name.starts_with("dev_"))
    {
        cx.err(
            sig.ident.span(),
            format!(
                "`{name}` is reserved in CUDA C or OpenCL C (a keyword, a type, a builtin, or a prefix of generated names), and a kernel's name is its C entry point: rename the kernel, for example `{}_kernel`",
                name.trim_start_matches("rb_").trim_start_matches("dev_")
            ),
        );
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
            if is_const && is_mut {
                cx.err(
                    pt.ty.span(),
                    "constant arrays are read-only: write `&ConstArr<T>`",
                );
            }
            let id = cx.array_param(&name, is_const, is_mut, elem, &pt.ty, false);
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
    for cap in captures {
        cx.capture(cap, &mut params);
    }
    let body = cx.block_stmts(&item.block.stmts, true);
    cx.finish(item.sig.ident.clone(), params, body)
}

impl Cx {
    /// Declares an array parameter (or a capture) and binds its name.
    pub(super) fn array_param(
        &mut self,
        name: &Ident,
        is_const: bool,
        is_mut: bool,
        elem: &syn::Type,
        ty: &syn::Type,
        captured: bool,
    ) -> ArrayId {
        // A refused element type still binds the array (so its uses report nothing more).
        let elem = self
            .written_type(elem)
            .unwrap_or_else(|| self.types.error(elem.span()));
        if matches!(elem, Ty::Dim3 | Ty::Tuple(_) | Ty::Unit) {
            self.err(
                ty.span(),
                "arrays hold element types, complex numbers and records (not `Dim3` or tuples: use a record)",
            );
        }
        // A capture's C name cannot collide with the user's names (`cap_` + the static's).
        let c_name = if captured {
            self.c_name(&format!("cap_{name}"))
        } else {
            self.c_name(&name.to_string())
        };
        let space = if self.kind == FnKind::Device && !captured {
            // A device function's array lives wherever its caller's does.
            self.param_arrays += 1;
            Space::Param {
                index: self.param_arrays - 1,
                writable: is_mut && !is_const,
            }
        } else if is_const {
            Space::Const
        } else {
            Space::Global { writable: is_mut }
        };
        self.arrays.push(Array {
            name: name.clone(),
            c_name,
            space,
            elem,
            rank: 1,
            dims: Vec::new(),
            written: false,
            captured,
            base: None,
        });
        let id = self.arrays.len() - 1;
        self.bind(name, Binding::Array(id));
        id
    }
}
