//! `#[rumba::device]`: the Rust function kernels call on the simulator, and the descriptor
//! (`__rumba_device_NAME`) of its C instances that the program linker resolves calls to
//! (`rumba_kernel_ir::link`).
//!
//! A generic device function (`fn dot<T: Float>(…)`) is lowered once per instance of its type
//! parameters. In Rust each instance is an impl of a hidden trait `__rumba_dev_NAME<T>` on a
//! hidden selector type, and the function itself calls the impl of its type arguments; since
//! every caller of a device function is an instance of a kernel or device function, whose types
//! are concrete, the impl is always there.

use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use rumba_kernel_ir::lower::{self, Lowered, Options, ir};
use syn::spanned::Spanned;

use crate::{krate, program_parts, rank_checks, ty_tokens};

/// The array parameters of a device function: for each, the generic parameter it is taken as
/// (`__A0: ArrIn<'__a, f32>` — any array of `f32`, read-only or writable, in any space — or
/// `ArrOut` for `&mut Arr<T>`), and whether the body uses atomics on it (then its space must be
/// an atomic one).
struct ArrayParams {
    /// `(parameter name, generic ident, bound tokens with the element type elem)`.
    generics: Vec<TokenStream2>,
    /// Where-clause predicates.
    preds: Vec<TokenStream2>,
    /// Per array parameter: its generic ident.
    idents: Vec<syn::Ident>,
}

/// `elem` is the element type tokens of each array parameter, in order.
fn array_params(f: &ir::Func, elems: &[TokenStream2]) -> ArrayParams {
    let k = krate();
    let mut out = ArrayParams {
        generics: Vec::new(),
        preds: Vec::new(),
        idents: Vec::new(),
    };
    let mut n = 0;
    for p in &f.params {
        let ir::Param::Array(a) = p else { continue };
        let arr = &f.arrays[*a];
        let g = format_ident!("__A{}", n);
        let elem = &elems[n];
        let tr = if arr.space.writable() {
            quote!(ArrOut)
        } else {
            quote!(ArrIn)
        };
        out.generics
            .push(quote!(#g: #k::kernel::__macro::#tr<'__a, #elem>));
        if uses_atomics(f, *a) {
            out.preds.push(quote!(<#g as #k::kernel::__macro::ArrIn<'__a, #elem>>::Space: #k::kernel::AtomicSpace));
        }
        out.idents.push(g);
        n += 1;
    }
    out
}

/// Whether the body makes an atomic update of array `a` (or of a view of it).
fn uses_atomics(f: &ir::Func, a: ir::ArrayId) -> bool {
    let root = |mut x: ir::ArrayId| {
        while let Some(b) = f.arrays[x].base {
            x = b;
        }
        x
    };
    let mut found = false;
    rumba_kernel_ir::lower::emit::c::visit_exprs(&f.body, &mut |e| {
        if let ir::ExprKind::Atomic { array, .. } = e.kind {
            found |= root(array) == a;
        }
    });
    found
}

/// The element types of the array parameters of one instance (concrete).
fn concrete_elems(f: &ir::Func) -> Vec<TokenStream2> {
    f.params
        .iter()
        .filter_map(|p| match p {
            ir::Param::Array(a) => Some(rumba_kernel_ir::lower::emit::rust::elem_tokens(
                &f.arrays[*a].elem,
                &krate(),
            )),
            _ => None,
        })
        .collect()
}

/// The Rust parameters (with their patterns) and return type of one instance; array parameters
/// take the generic idents of `arrays`.
fn rust_signature(f: &ir::Func, arrays: &ArrayParams) -> (Vec<TokenStream2>, TokenStream2) {
    let k = krate();
    let mut params = Vec::new();
    let mut n = 0;
    for p in &f.params {
        match p {
            ir::Param::Thread(t) => params.push(quote!(#t: &#k::kernel::ThreadCtx<'_>)),
            ir::Param::Value(lid) => {
                let loc = &f.locals[*lid];
                let (n, t) = (&loc.name, ty_tokens(&loc.ty));
                let m = loc.mutable.then(|| quote!(mut));
                params.push(quote!(#m #n: #t));
            }
            ir::Param::Array(a) => {
                let (name, g) = (&f.arrays[*a].name, &arrays.idents[n]);
                params.push(quote!(#name: #g));
                n += 1;
            }
        }
    }
    let ret = match &f.ret {
        ir::Ty::Unit => quote!(),
        t => {
            let t = ty_tokens(t);
            quote!(-> #t)
        }
    };
    (params, ret)
}

/// The generic parameter list of a device function with array parameters: `'__a` and one type
/// per array.
fn array_generics(arrays: &ArrayParams) -> TokenStream2 {
    if arrays.idents.is_empty() {
        return quote!();
    }
    let g = &arrays.generics;
    quote!('__a, #(#g),*)
}

/// The body of one instance: a stack check first when it calls device functions (only such a
/// function can take part in recursion, the one way a kernel can exhaust a stack; the check
/// turns runaway recursion into a kernel fault on the simulator; leaf functions stay check-free
/// and vectorisable in work-item loops).
fn rust_body(l: &Lowered) -> TokenStream2 {
    let k = krate();
    let check = (!l.func.devices.is_empty()).then(|| quote!(#k::kernel::check_stack();));
    let body = &l.rust_body;
    quote!(#check #body)
}

pub(crate) fn expand_device(item: &syn::ItemFn) -> syn::Result<TokenStream2> {
    let k = krate();
    let all = lower::lower_device_instances(item, &Options { krate: k.clone() })?;
    if let Some(c) = item.sig.generics.const_params().next() {
        return Err(syn::Error::new(
            c.span(),
            "device functions take type parameters only: a const parameter's C `#define` would be one value for the whole program; pass the value as an argument",
        ));
    }
    let name = &item.sig.ident;
    let vis = &item.vis;
    let attrs = &item.attrs;
    let desc = format_ident!("__rumba_device_{}", name);
    let name_str = name.to_string();
    let first = &all.instances[0].lowered;
    let (defines, records, devices) = program_parts(&first.func);
    let instances = all.instances.iter().map(|inst| {
        let tag = rumba_kernel_ir::lower::generics::instance_tag(&inst.types);
        let sig = rumba_kernel_ir::lower::emit::c::param_signature(&inst.lowered.func);
        let (cuda, opencl) = (&inst.lowered.cuda, &inst.lowered.opencl);
        quote!(#k::kernel::__macro::DeviceInstance { tag: #tag, sig: #sig, cuda: #cuda, opencl: #opencl })
    });
    // The rank of each parameter (0 for a value), which callers check theirs against at
    // compile time.
    let rank_list = first.func.params.iter().filter_map(|p| match p {
        ir::Param::Thread(_) => None,
        ir::Param::Array(a) => Some(first.func.arrays[*a].rank),
        ir::Param::Value(_) => Some(0),
    });
    let ranks_ident = format_ident!("__rumba_ranks_{}", name);
    let checks = rank_checks(&first.func);
    let ranks = quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #vis const #ranks_ident: &[usize] = &[#(#rank_list),*];
        #checks
    };
    let descriptor = quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #vis static #desc: #k::kernel::__macro::DeviceFn = #k::kernel::__macro::DeviceFn {
            name: #name_str,
            instances: &[#(#instances),*],
            defines: |target| ::std::vec![#(#defines),*],
            records: |target| ::std::vec![#(#records),*],
            deps: || ::std::vec![#(#devices),*],
        };
    };
    if !all.generics.is_generic() {
        let arrays = array_params(&first.func, &concrete_elems(&first.func));
        let (params, ret) = rust_signature(&first.func, &arrays);
        let generics_ = array_generics(&arrays);
        let preds = &arrays.preds;
        let body = rust_body(first);
        return Ok(quote! {
            #(#attrs)*
            #[inline(always)]
            #[allow(clippy::all, unused_parens, unused_braces)]
            #vis fn #name<#generics_>(#(#params),*) #ret where #(#preds),* { #body }

            #descriptor
            #ranks
        });
    }
    // Generic: a hidden trait with one impl per instance.
    let tr = format_ident!("__rumba_dev_{}", name);
    let sel = format_ident!("__rumba_sel_{}", name);
    let type_idents: Vec<&syn::Ident> = item.sig.generics.type_params().map(|t| &t.ident).collect();
    let gparams = &item.sig.generics.params;
    let where_preds = item
        .sig
        .generics
        .where_clause
        .as_ref()
        .map(|w| &w.predicates);
    // The written signature, with the patterns reduced to names (a method without a body takes
    // no patterns) and, for the call, the names alone.
    // Array parameters are generic in every form; their element types as written (`T`).
    let written_elems: Vec<TokenStream2> = item
        .sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(pt) => written_array_elem(&pt.ty),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let warrays = array_params(&first.func, &written_elems);
    let mut decl_params = Vec::new();
    let mut args = Vec::new();
    let mut n_array = 0;
    for input in &item.sig.inputs {
        if let syn::FnArg::Typed(pt) = input {
            if let syn::Pat::Ident(pi) = &*pt.pat {
                let (n, ty) = (&pi.ident, &pt.ty);
                if written_array_elem(ty).is_some() {
                    let g = &warrays.idents[n_array];
                    decl_params.push(quote!(#n: #g));
                    n_array += 1;
                } else {
                    decl_params.push(quote!(#n: #ty));
                }
                args.push(quote!(#n));
            }
        }
    }
    let outer_params = decl_params.clone();
    let wgen = array_generics(&warrays);
    let wpreds = &warrays.preds;
    let written_ret = &item.sig.output;
    // Lifetimes first: `'__a`, the array parameters, then the user's.
    let comma = (!warrays.idents.is_empty()).then(|| quote!(,));
    let impls = all.instances.iter().map(|inst| {
        let arrays = array_params(&inst.lowered.func, &concrete_elems(&inst.lowered.func));
        let (params, ret) = rust_signature(&inst.lowered.func, &arrays);
        let generics_ = array_generics(&arrays);
        let preds = &arrays.preds;
        let body = rust_body(&inst.lowered);
        let concrete = inst
            .types
            .iter()
            .map(|s| rumba_kernel_ir::lower::emit::rust::scalar_tokens(*s, &k, name.span()));
        quote! {
            impl #tr<#(#concrete),*> for #sel {
                #[inline(always)]
                #[allow(clippy::all, unused_parens, unused_braces)]
                fn __call<#generics_>(#(#params),*) #ret where #(#preds),* { #body }
            }
        }
    });
    Ok(quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis trait #tr<#gparams> where #where_preds {
            #[allow(clippy::all)]
            fn __call<#wgen>(#(#decl_params),*) #written_ret where #(#wpreds),*;
        }
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #sel;
        #(#impls)*

        #(#attrs)*
        #[inline(always)]
        #[allow(clippy::all, unused_parens, unused_braces)]
        #vis fn #name<#wgen #comma #gparams>(#(#outer_params),*) #written_ret
        where
            #sel: #tr<#(#type_idents),*>,
            #(#wpreds,)*
            #where_preds
        {
            <#sel as #tr<#(#type_idents),*>>::__call(#(#args),*)
        }

        #descriptor
        #ranks
    })
}

/// The element type of a written array parameter type (`&Arr<T>`, `&mut Arr<T>`,
/// `&ConstArr<T>`) as the views hold it (`bool` is `DeviceBool`).
fn written_array_elem(ty: &syn::Type) -> Option<TokenStream2> {
    let syn::Type::Reference(r) = ty else {
        return None;
    };
    let syn::Type::Path(tp) = &*r.elem else {
        return None;
    };
    let seg = tp.path.segments.last()?;
    if seg.ident != "Arr" && seg.ident != "ConstArr" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    let Some(syn::GenericArgument::Type(elem)) = args.args.first() else {
        return None;
    };
    if matches!(elem, syn::Type::Path(p) if p.path.is_ident("bool")) {
        let k = krate();
        return Some(quote!(#k::kernel::DeviceBool));
    }
    Some(quote!(#elem))
}
