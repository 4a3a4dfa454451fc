//! `#[rumba::kernel]`: the kernel object, its sources and its signature.
//!
//! A kernel without generic parameters is one function returning its cached `Kernel` and a
//! module of the same name with `CUDA_SOURCE`, `OPENCL_SOURCE`, `ABI` and `ENTRY`. A generic
//! kernel (`fn axpy<T: Float>`) is lowered once per instance of its type parameters: each
//! instance gets its own function building its `Kernel` (its own simulator bodies, CUDA C and
//! OpenCL C), and `axpy::<T>()` picks the instance by `TypeId` and caches it per type (and
//! const-parameter values); the module then has `cuda_source::<T>()`, `opencl_source::<T>()`
//! and `abi::<T>()`.

use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote, quote_spanned};
use rumba_kernel_ir::lower::{self, Lowered, Options, generics::Generics, ir};
use syn::spanned::Spanned;

use crate::{krate, program_parts, rank_checks, ty_tokens};

/// The parts of one instance (or of a plain kernel).
struct Parts {
    /// The parameter tuple type `P` of `Kernel<P>`.
    params_ty: TokenStream2,
    /// An expression building the `Kernel<P>` (uncached).
    make: TokenStream2,
    /// The `KernelAbi` initialiser.
    abi: TokenStream2,
    /// The source builder function (item).
    builder: TokenStream2,
}

/// Everything of one instance but its names: `source` is the path of the builder function
/// (with its generic arguments), `abi_path` an expression of the `&'static KernelAbi`.
fn parts(
    item: &syn::ItemFn,
    captures: &[lower::Capture],
    l: &Lowered,
    concrete: bool,
    builder: &syn::Ident,
    abi_ref: &TokenStream2,
    fastmath: bool,
) -> Parts {
    let k = krate();
    let fast = fastmath.then(|| quote!(.with_fast_math()));
    let f = &l.func;
    let name = &item.sig.ident;
    let name_str = name.to_string();
    let mut param_types = Vec::new();
    let mut pats = Vec::new();
    let mut abi_params = Vec::new();
    // The types as the user wrote them (so the user's imports are what names them), except in
    // an instance of a generic kernel, whose types are the IR's concrete ones.
    let written: Vec<&syn::Type> = item
        .sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(pt) => Some(&*pt.ty),
            syn::FnArg::Receiver(_) => None,
        })
        .chain(captures.iter().map(|c| &c.ty))
        .collect();
    let mut thread_ty = quote!(#k::kernel::ThreadCtx<'_>);
    let mut capture_refs = Vec::new();
    let mut full_types = Vec::new();
    for (p, wty) in f.params.iter().zip(&written) {
        let unref = match wty {
            syn::Type::Reference(r) => &*r.elem,
            t => t,
        };
        let unref = quote!(#unref);
        match p {
            ir::Param::Thread(_) => thread_ty = unref,
            ir::Param::Array(a) => {
                let arr = &f.arrays[*a];
                let n = &arr.name;
                let rank = arr.rank;
                let n_str = n.to_string();
                let elem = ty_tokens(&arr.elem);
                let ty = if !concrete {
                    unref
                } else if arr.space == ir::Space::Const {
                    quote!(#k::kernel::ConstArr<#elem>)
                } else {
                    quote!(#k::kernel::Arr<#elem>)
                };
                match arr.space {
                    ir::Space::Const => {
                        param_types.push(ty);
                        abi_params.push(quote!(#k::kernel::ParamAbi { name: #n_str, kind: #k::kernel::ParamKind::ConstArray { rank: #rank } }));
                    }
                    _ if arr.captured => {
                        let writes = arr.written;
                        full_types.push(ty);
                        abi_params.push(quote!(#k::kernel::ParamAbi { name: #n_str, kind: #k::kernel::ParamKind::Array { rank: #rank, writes: #writes } }));
                        // The cell's element type must be the capture's: `Captured::<T>` on
                        // the static is a type error at the declared type otherwise.
                        let sp = wty.span();
                        capture_refs.push(quote_spanned!(sp=> #k::kernel::Captured::<#elem>::capture(&#n, #n_str, #rank)));
                    }
                    _ => {
                        let writes = arr.written;
                        param_types.push(ty);
                        abi_params.push(quote!(#k::kernel::ParamAbi { name: #n_str, kind: #k::kernel::ParamKind::Array { rank: #rank, writes: #writes } }));
                    }
                }
                let pat = arr.rust_ident();
                pats.push(quote!(#pat));
            }
            ir::Param::Value(lid) => {
                let loc = &f.locals[*lid];
                let n = &loc.name;
                let n_str = n.to_string();
                let ty = if concrete { ty_tokens(&loc.ty) } else { unref };
                match &loc.ty {
                    ir::Ty::Record(_) => param_types.push(quote!(#k::kernel::Scalar<#ty>)),
                    _ => param_types.push(ty),
                }
                abi_params.push(quote!(#k::kernel::ParamAbi { name: #n_str, kind: #k::kernel::ParamKind::Value }));
                pats.push(quote!(#n));
            }
        }
    }
    let thread = f
        .thread
        .clone()
        .unwrap_or_else(|| syn::Ident::new("__rumba_thread", Span::call_site()));
    let body = &l.rust_body;
    let sites = f.sites.iter().map(|s| s.what.as_str());
    let uses_dyn = f.arrays.iter().any(|a| a.space == ir::Space::DynamicShared);
    let (defines, records, devices) = program_parts(f);
    let (cuda, opencl) = (&l.cuda, &l.opencl);
    // The block body for the work-item-loop engine, when the kernel has one (else it runs on
    // coroutines; `Kernel::engine()` says which).
    let block_form = match &l.wil {
        Ok(w) => {
            let uses = w.uses.iter().map(|u| format_ident!("{}", u));
            let grid = &w.grid;
            quote!(.with_work_item_loop([#(#k::driver::ArrayUse::#uses),*], #grid))
        }
        Err(_) => quote!(),
    };
    let params_ty = quote!((#(#param_types,)*));
    // Warp operations need every lane of a warp on a coroutine: no fast path.
    let warp = rumba_kernel_ir::lower::emit::wil::uses_warp_ops(f);
    let (constructor, options) = if !capture_refs.is_empty() {
        // The body sees the written parameters and then the captures.
        let opts = if warp {
            quote!(#k::kernel::ExecOptions { fast_path: false, parallel: true })
        } else {
            quote!(#k::kernel::ExecOptions::default())
        };
        (
            quote!(new_with_captures::<(#(#param_types,)* #(#full_types,)*), _>),
            vec![opts, quote!(::std::vec![#(#capture_refs),*])],
        )
    } else if warp {
        (
            quote!(new_with_options),
            vec![quote!(#k::kernel::ExecOptions { fast_path: false, parallel: true })],
        )
    } else {
        (quote!(new), Vec::new())
    };
    // The const parameters, passed on to the builder.
    let cparams: Vec<&proc_macro2::Ident> = f.const_params.iter().map(|(n, _)| n).collect();
    let cdecl: Vec<TokenStream2> = f
        .const_params
        .iter()
        .map(|(n, s)| {
            let t = ty_tokens(&ir::Ty::Scalar(*s));
            quote!(const #n: #t)
        })
        .collect();
    let source = quote!(#builder::<#(#cparams),*>);
    let make = quote! {
        #k::kernel::Kernel::<#params_ty>::#constructor(#name_str, #(#options,)* |#thread: &#thread_ty, (#(#pats,)*)| { #body })
            #block_form
            .with_cuda_source(#k::driver::CudaKernelSource::new(#source(#k::kernel::__macro::Target::Cuda), #name_str) #fast)
            .with_opencl_source(#k::driver::OpenClKernelSource::new(#source(#k::kernel::__macro::Target::OpenCl), #name_str) #fast)
            .with_abi(#abi_ref)
    };
    let abi = quote! {
        #k::kernel::KernelAbi {
            name: #name_str,
            params: &[#(#abi_params),*],
            uses_dynamic_shared: #uses_dyn,
            sites: &[#(#sites),*],
        }
    };
    let checks = rank_checks(f);
    let builder = quote! {
        #checks
        #[doc(hidden)]
        #[allow(non_snake_case)]
        fn #builder<#(#cdecl),*>(target: #k::kernel::__macro::Target) -> ::std::string::String {
            let kernel = match target {
                #k::kernel::__macro::Target::Cuda => #cuda,
                #k::kernel::__macro::Target::OpenCl => #opencl,
            };
            #k::kernel::__macro::assemble(
                target,
                kernel,
                ::std::vec![#(#defines),*],
                ::std::vec![#(#records),*],
                &[#(#devices),*],
            )
        }
    };
    Parts {
        params_ty,
        make,
        abi,
        builder,
    }
}

pub(crate) fn expand_kernel(
    item: &syn::ItemFn,
    captures: &[lower::Capture],
    fastmath: bool,
) -> syn::Result<TokenStream2> {
    let k = krate();
    let all = lower::lower_kernel_instances(item, captures, &Options { krate: k.clone() })?;
    if all.generics.is_generic() {
        return Ok(generic_kernel(item, captures, &all, fastmath));
    }
    let l = &all.instances[0].lowered;
    let name = &item.sig.ident;
    let name_str = name.to_string();
    let vis = &item.vis;
    let attrs: Vec<&syn::Attribute> = item.attrs.iter().collect();
    let builder = format_ident!("__rumba_{}_source", name);
    let p = parts(
        item,
        captures,
        l,
        false,
        &builder,
        &quote!(&#name::ABI),
        fastmath,
    );
    let Parts {
        params_ty,
        make,
        abi,
        builder: builder_fn,
    } = p;
    let doc = format!("Generated sources and signature of the kernel [`{name_str}()`].");
    // A capture is bound as `__rumba_cap_NAME` (NAME: the static's, upper case).
    let snake = (!captures.is_empty()).then(|| quote!(non_snake_case,));
    Ok(quote! {
        #(#attrs)*
        #[allow(#snake clippy::all, unused_parens, unused_braces)]
        #vis fn #name() -> #k::kernel::Kernel<#params_ty> {
            static KERNEL: ::std::sync::OnceLock<#k::kernel::Kernel<#params_ty>> = ::std::sync::OnceLock::new();
            KERNEL
                .get_or_init(|| #make)
                .clone()
        }

        #[doc = #doc]
        #[allow(non_snake_case, dead_code)]
        #vis mod #name {
            /// The kernel's parameters, dynamic-shared use and fault sites.
            pub static ABI: #k::kernel::KernelAbi = #abi;
            /// The C entry point.
            pub const ENTRY: &str = #name_str;
            /// Whether the C forms are compiled with the targets' fast-math options
            /// (`#[rumba::kernel(fastmath)]`).
            pub const FASTMATH: bool = #fastmath;
            /// The CUDA C translation unit (for NVRTC with `--fmad=false`).
            pub static CUDA_SOURCE: ::std::sync::LazyLock<::std::string::String> =
                ::std::sync::LazyLock::new(|| super::#builder(#k::kernel::__macro::Target::Cuda));
            /// The OpenCL C translation unit.
            pub static OPENCL_SOURCE: ::std::sync::LazyLock<::std::string::String> =
                ::std::sync::LazyLock::new(|| super::#builder(#k::kernel::__macro::Target::OpenCl));
            /// [`CUDA_SOURCE`] as a `&str`.
            pub fn cuda_source() -> &'static str {
                &CUDA_SOURCE
            }
            /// [`OPENCL_SOURCE`] as a `&str`.
            pub fn opencl_source() -> &'static str {
                &OPENCL_SOURCE
            }
        }

        #builder_fn
    })
}

/// The generic parameters as declared (`<T: Float, const N: usize>`), the arguments
/// (`<T, N>`), and the type parameters' idents.
fn generic_lists(
    item: &syn::ItemFn,
) -> (
    TokenStream2,
    TokenStream2,
    Vec<&syn::Ident>,
    Vec<&syn::Ident>,
) {
    let g = &item.sig.generics;
    let params = &g.params;
    let types: Vec<&syn::Ident> = g.type_params().map(|t| &t.ident).collect();
    let consts: Vec<&syn::Ident> = g.const_params().map(|c| &c.ident).collect();
    let args: Vec<TokenStream2> = g
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => {
                let i = &t.ident;
                Some(quote!(#i))
            }
            syn::GenericParam::Const(c) => {
                let i = &c.ident;
                Some(quote!(#i))
            }
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    (quote!(<#params>), quote!(<#(#args),*>), types, consts)
}

/// `if TypeId::of::<(T, U)>() == TypeId::of::<(f32, i64)>() { EXPR(instance) } else if …`
fn dispatch(
    generics: &Generics,
    type_idents: &[&syn::Ident],
    arms: Vec<(Vec<rumba_kernel_ir::target::Scalar>, TokenStream2)>,
) -> TokenStream2 {
    let k = krate();
    let mut out = quote!(::core::unreachable!(
        "the sealed bounds admit only the instanced element types"
    ));
    for (types, expr) in arms.into_iter().rev() {
        let concrete = types
            .iter()
            .map(|s| rumba_kernel_ir::lower::emit::rust::scalar_tokens(*s, &k, Span::call_site()));
        out = quote! {
            if ::std::any::TypeId::of::<(#(#type_idents,)*)>() == ::std::any::TypeId::of::<(#(#concrete,)*)>() {
                #expr
            } else {
                #out
            }
        };
    }
    let _ = generics;
    out
}

fn generic_kernel(
    item: &syn::ItemFn,
    captures: &[lower::Capture],
    all: &lower::LoweredFn,
    fastmath: bool,
) -> TokenStream2 {
    let k = krate();
    let name = &item.sig.ident;
    let name_str = name.to_string();
    let vis = &item.vis;
    let attrs: Vec<&syn::Attribute> = item.attrs.iter().collect();
    let (gdecl, gargs, type_idents, const_idents) = generic_lists(item);
    let where_clause = item
        .sig
        .generics
        .where_clause
        .as_ref()
        .map(|w| &w.predicates);
    // The user's parameter tuple, from the first instance's IR and the written types.
    let first = &all.instances[0].lowered;
    let written = parts(
        item,
        captures,
        first,
        false,
        &format_ident!("__unused"),
        &quote!(()),
        fastmath,
    )
    .params_ty;
    let mut items = Vec::new();
    let mut make_arms = Vec::new();
    let mut cuda_arms = Vec::new();
    let mut opencl_arms = Vec::new();
    let mut abi_arms = Vec::new();
    for inst in &all.instances {
        let base = rumba_kernel_ir::lower::generics::instance_ident(name, &inst.types);
        let builder = format_ident!("{}_source", base);
        let abi_static = format_ident!("{}_ABI", base.to_string().to_uppercase());
        let p = parts(
            item,
            captures,
            &inst.lowered,
            true,
            &builder,
            &quote!(&#abi_static),
            fastmath,
        );
        let Parts {
            params_ty,
            make,
            abi,
            builder: builder_fn,
        } = p;
        let cdecl: Vec<TokenStream2> = inst
            .lowered
            .func
            .const_params
            .iter()
            .map(|(n, s)| {
                let t = ty_tokens(&ir::Ty::Scalar(*s));
                quote!(const #n: #t)
            })
            .collect();
        let doc = format!(
            "The `{}` instance of the kernel `{name_str}`.",
            all.generics.describe(&inst.types)
        );
        items.push(quote! {
            #[doc = #doc]
            #[doc(hidden)]
            #[allow(non_snake_case, non_upper_case_globals, clippy::all, unused_parens, unused_braces)]
            #vis fn #base<#(#cdecl),*>() -> #k::kernel::Kernel<#params_ty> {
                #make
            }
            #[doc(hidden)]
            #[allow(non_upper_case_globals)]
            #vis static #abi_static: #k::kernel::KernelAbi = #abi;
            #builder_fn
        });
        make_arms.push((
            inst.types.clone(),
            quote!(#k::kernel::__macro::same_type(::std::boxed::Box::new(super::#base::<#(#const_idents),*>()))),
        ));
        cuda_arms.push((
            inst.types.clone(),
            quote!(super::#builder::<#(#const_idents),*>(#k::kernel::__macro::Target::Cuda)),
        ));
        opencl_arms.push((
            inst.types.clone(),
            quote!(super::#builder::<#(#const_idents),*>(#k::kernel::__macro::Target::OpenCl)),
        ));
        abi_arms.push((inst.types.clone(), quote!(&super::#abi_static)));
    }
    let make = dispatch(&all.generics, &type_idents, make_arms);
    let cuda = dispatch(&all.generics, &type_idents, cuda_arms);
    let opencl = dispatch(&all.generics, &type_idents, opencl_arms);
    let abi = dispatch(&all.generics, &type_idents, abi_arms);
    let doc = format!(
        "Generated sources and signature of each instance of the generic kernel [`{name_str}()`]."
    );
    // Every bound implies `'static` (the numeric traits and the atomics' are `Pod`), which
    // `TypeId` needs.
    let snake = (!captures.is_empty()).then(|| quote!(non_snake_case,));
    let key_params = quote!(#gdecl);
    quote! {
        #(#attrs)*
        #[allow(#snake clippy::all, unused_parens, unused_braces)]
        #vis fn #name #gdecl() -> #k::kernel::Kernel<#written>
        where
            #written: #k::kernel::Params,
            #where_clause
        {
            #[allow(non_camel_case_types, dead_code)]
            struct __RumbaInstance #key_params (::core::marker::PhantomData<fn() -> (#(#type_idents,)*)>)
            where #where_clause;
            #k::kernel::__macro::instance::<__RumbaInstance #gargs, #k::kernel::Kernel<#written>>(|| #name::__make::#gargs())
        }

        #[doc = #doc]
        #[allow(non_snake_case, dead_code)]
        #vis mod #name {
            #[allow(unused_imports)]
            use super::*;
            /// The C entry point (every instance's).
            pub const ENTRY: &str = #name_str;
            /// Whether the C forms are compiled with the targets' fast-math options
            /// (`#[rumba::kernel(fastmath)]`).
            pub const FASTMATH: bool = #fastmath;
            #[doc(hidden)]
            #[allow(unused_parens, clippy::all)]
            pub fn __make #gdecl() -> #k::kernel::Kernel<#written>
            where #written: #k::kernel::Params, #where_clause
            {
                #make
            }
            /// The CUDA C translation unit of one instance (for NVRTC with `--fmad=false`).
            pub fn cuda_source #gdecl() -> ::std::string::String where #where_clause {
                #cuda
            }
            /// The OpenCL C translation unit of one instance.
            pub fn opencl_source #gdecl() -> ::std::string::String where #where_clause {
                #opencl
            }
            /// The parameters, dynamic-shared use and fault sites of one instance.
            pub fn abi #gdecl() -> &'static #k::kernel::KernelAbi where #where_clause {
                #abi
            }
        }

        #(#items)*
    }
}
