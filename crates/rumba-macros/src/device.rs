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

use crate::{krate, program_parts, ty_tokens};

/// The Rust parameters (with their patterns) and return type of one instance.
fn rust_signature(f: &ir::Func) -> (Vec<TokenStream2>, TokenStream2) {
    let k = krate();
    let mut params = Vec::new();
    for p in &f.params {
        match p {
            ir::Param::Thread(t) => params.push(quote!(#t: &#k::kernel::ThreadCtx<'_>)),
            ir::Param::Value(lid) => {
                let loc = &f.locals[*lid];
                let (n, t) = (&loc.name, ty_tokens(&loc.ty));
                let m = loc.mutable.then(|| quote!(mut));
                params.push(quote!(#m #n: #t));
            }
            ir::Param::Array(_) => {}
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
        let (params, ret) = rust_signature(&first.func);
        let body = rust_body(first);
        return Ok(quote! {
            #(#attrs)*
            #[inline(always)]
            #[allow(clippy::all, unused_parens, unused_braces)]
            #vis fn #name(#(#params),*) #ret { #body }

            #descriptor
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
    let mut decl_params = Vec::new();
    let mut outer_params = Vec::new();
    let mut args = Vec::new();
    for input in &item.sig.inputs {
        if let syn::FnArg::Typed(pt) = input {
            if let syn::Pat::Ident(pi) = &*pt.pat {
                let (n, ty) = (&pi.ident, &pt.ty);
                decl_params.push(quote!(#n: #ty));
                outer_params.push(quote!(#n: #ty));
                args.push(quote!(#n));
            }
        }
    }
    let written_ret = &item.sig.output;
    let impls = all.instances.iter().map(|inst| {
        let (params, ret) = rust_signature(&inst.lowered.func);
        let body = rust_body(&inst.lowered);
        let concrete = inst
            .types
            .iter()
            .map(|s| rumba_kernel_ir::lower::emit::rust::scalar_tokens(*s, &k, name.span()));
        quote! {
            impl #tr<#(#concrete),*> for #sel {
                #[inline(always)]
                #[allow(clippy::all, unused_parens, unused_braces)]
                fn __call(#(#params),*) #ret { #body }
            }
        }
    });
    Ok(quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis trait #tr<#(#type_idents),*> {
            #[allow(clippy::all)]
            fn __call(#(#decl_params),*) #written_ret;
        }
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #sel;
        #(#impls)*

        #(#attrs)*
        #[inline(always)]
        #[allow(clippy::all, unused_parens, unused_braces)]
        #vis fn #name<#gparams>(#(#outer_params),*) #written_ret
        where
            #sel: #tr<#(#type_idents),*>,
            #where_preds
        {
            <#sel as #tr<#(#type_idents),*>>::__call(#(#args),*)
        }

        #descriptor
    })
}
