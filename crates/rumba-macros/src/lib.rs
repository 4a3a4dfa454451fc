//! `#[rumba::kernel]`, `#[rumba::device]` and `#[rumba::record]`: one Rust source for the
//! simulated GPU, CUDA and OpenCL. Use them through the `rumba` crate (`rumba::kernel::prelude`);
//! the lowering itself is `rumba-kernel-ir`, this crate only turns its output into items.
//!
//! For `#[rumba::kernel] fn matmul(t: &Thread, a: &Arr<f32>, …) { … }` the macro emits:
//! - `fn matmul() -> rumba::kernel::Kernel<(Arr<f32>, …)>`: the kernel object (built once, then
//!   cloned), whose simulator body is the lowered Rust and which carries the CUDA C and OpenCL C
//!   sources and the kernel's signature ([`KernelAbi`](../rumba_kernel_ir/abi/struct.KernelAbi.html));
//! - `mod matmul` with `CUDA_SOURCE`, `OPENCL_SOURCE` (lazily assembled `String`s: the
//!   `#define`s of the consts the kernel names get rustc's values at run time), `ABI` and
//!   `ENTRY`.
//!
//! `#[rumba::kernel(capture(TABLE: &Arr<f32>))]` adds the device array of the `static` cell
//! `TABLE` (a `rumba::kernel::Captured<f32>`) as a trailing parameter the caller does not pass:
//! the kernel object reads the cell at each launch (`Kernel::new_with_captures`), and the body
//! binds it as `__rumba_cap_TABLE` (a binding cannot shadow a `static`), `cap_TABLE` in C.
//!
//! A fn and a module of the same name live in different namespaces, so both are `matmul`. The
//! kernel must be declared at module level (the generated module reaches the kernel's consts,
//! records and device functions through `super::`).

// Every fallible public function says which errors it returns and when (CI denies warnings).
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote, quote_spanned};
use rumba_kernel_ir::lower::{self, Options, ir};
use rumba_kernel_ir::target::Scalar;
use syn::spanned::Spanned;

fn krate() -> syn::Path {
    syn::parse_quote!(::rumba)
}

/// `#[rumba::device]` takes no arguments; `capture(…)` gets a message saying what to write.
fn device_args(attr: TokenStream) -> Result<(), syn::Error> {
    let ts = TokenStream2::from(attr.clone());
    if let Some(proc_macro2::TokenTree::Ident(id)) = ts.clone().into_iter().next() {
        if id == "capture" {
            return Err(syn::Error::new(
                ts.span(),
                "device functions cannot capture device arrays in this version: capture the array on the kernel (`#[rumba::kernel(capture(NAME: &Arr<T>))]`) and pass the device function the elements it needs (`f(NAME[i])`)",
            ));
        }
    }
    no_args(attr, "device")
}

fn no_args(attr: TokenStream, what: &str) -> Result<(), syn::Error> {
    if attr.is_empty() {
        Ok(())
    } else {
        Err(syn::Error::new(
            TokenStream2::from(attr).span(),
            format!("`#[rumba::{what}]` takes no arguments"),
        ))
    }
}

/// `capture(NAME: &Arr<T>, …)`: the device arrays a kernel captures from `static` cells;
/// `fastmath`: compile the C forms with the targets' fast-math options.
struct KernelAttr {
    captures: Vec<lower::Capture>,
    fastmath: bool,
}

impl syn::parse::Parse for KernelAttr {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let mut captures: Vec<lower::Capture> = Vec::new();
        let mut fastmath = false;
        while !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            if key == "fastmath" {
                fastmath = true;
                if !input.is_empty() {
                    let _: syn::Token![,] = input.parse()?;
                }
                continue;
            }
            if key != "capture" {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown `#[rumba::kernel]` argument `{key}`: the arguments are `capture(NAME: &Arr<T>, …)`, the device arrays of `static` cells the kernel uses, and `fastmath`"
                    ),
                ));
            }
            let inner;
            syn::parenthesized!(inner in input);
            let list = inner.parse_terminated(
                |p: syn::parse::ParseStream<'_>| {
                    let name: syn::Ident = p.parse()?;
                    let _: syn::Token![:] = p.parse()?;
                    let ty: syn::Type = p.parse()?;
                    Ok(lower::Capture { name, ty })
                },
                syn::Token![,],
            )?;
            captures.extend(list);
            if !input.is_empty() {
                let _: syn::Token![,] = input.parse()?;
            }
        }
        Ok(KernelAttr { captures, fastmath })
    }
}

/// Compiles a Rust function in the kernel subset for the simulator, CUDA and OpenCL.
/// See `rumba::kernel::prelude` for the surface and the rules; `capture(NAME: &Arr<T>, …)`
/// declares device arrays of `static` cells (`rumba::kernel::Captured`) the body names;
/// `fastmath` compiles the C forms with the targets' fast-math options (Numba's `fastmath=True`).
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemFn);
    match syn::parse::<KernelAttr>(attr).and_then(|a| expand_kernel(&item, &a.captures, a.fastmath))
    {
        Ok(ts) => ts.into(),
        Err(e) => {
            // Keep the name defined so one error does not cascade into "cannot find `k`".
            let name = &item.sig.ident;
            let vis = &item.vis;
            let err = e.into_compile_error();
            quote!(#err #[allow(dead_code)] #vis fn #name() -> ! { ::core::unreachable!() }).into()
        }
    }
}

/// A helper function in the kernel subset, inlined into every target.
#[proc_macro_attribute]
pub fn device(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemFn);
    match device_args(attr).and_then(|()| expand_device(&item)) {
        Ok(ts) => ts.into(),
        Err(e) => e.into_compile_error().into(),
    }
}

/// A struct passed to kernels by value (and usable as an array element): makes it `#[repr(C)]`,
/// `Copy`, `bytemuck::Pod` (fields must be element types or arrays of them, without padding) and
/// describes its fields to the C targets.
#[proc_macro_attribute]
pub fn record(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemStruct);
    match no_args(attr, "record").and_then(|()| expand_record(&item)) {
        Ok(ts) => ts.into(),
        Err(e) => e.into_compile_error().into(),
    }
}

fn ty_tokens(t: &ir::Ty) -> TokenStream2 {
    lower::emit::rust::ty_tokens(t, &krate())
}

/// `(name, literal)` pushes for the consts, record decls and device-function adds of a function.
fn program_parts(f: &ir::Func) -> (Vec<TokenStream2>, Vec<TokenStream2>, Vec<TokenStream2>) {
    let k = krate();
    let defines = f
        .consts
        .iter()
        .map(|c| {
            let (name, path) = (&c.c_name, &c.path);
            quote!((#name, #k::kernel::__macro::c_literal_of(#path, target)))
        })
        .collect();
    let records = f
        .records
        .iter()
        .map(|r| {
            let p = &r.path;
            quote!(<#p as #k::kernel::__macro::KernelRecord>::c_decl(target))
        })
        .collect();
    let devices = f
        .devices
        .iter()
        .map(|d| {
            let mut p = d.path.clone();
            if let Some(last) = p.segments.last_mut() {
                last.ident = format_ident!("__rumba_device_{}", last.ident);
            }
            quote!(&#p)
        })
        .collect();
    (defines, records, devices)
}

fn expand_kernel(
    item: &syn::ItemFn,
    captures: &[lower::Capture],
    fastmath: bool,
) -> syn::Result<TokenStream2> {
    let k = krate();
    let l = lower::lower_kernel_captured(item, captures, &Options { krate: k.clone() })?;
    let f = &l.func;
    let name = &item.sig.ident;
    let name_str = name.to_string();
    let vis = &item.vis;
    let attrs: Vec<&syn::Attribute> = item.attrs.iter().collect();
    let mut param_types = Vec::new();
    let mut pats = Vec::new();
    let mut abi_params = Vec::new();
    // The types as the user wrote them (so the user's imports are what names them).
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
    // The captured arrays: trailing parameters the launch fills from the cells.
    let mut capture_refs = Vec::new();
    let mut full_types = Vec::new();
    for (p, wty) in f.params.iter().zip(&written) {
        let unref = match wty {
            syn::Type::Reference(r) => &*r.elem,
            t => t,
        };
        match p {
            ir::Param::Thread(_) => thread_ty = quote!(#unref),
            ir::Param::Array(a) => {
                let arr = &f.arrays[*a];
                let n = &arr.name;
                let rank = arr.rank;
                let n_str = n.to_string();
                match arr.space {
                    ir::Space::Const => {
                        param_types.push(quote!(#unref));
                        abi_params.push(quote!(#k::kernel::ParamAbi { name: #n_str, kind: #k::kernel::ParamKind::ConstArray { rank: #rank } }));
                    }
                    _ if arr.captured => {
                        let writes = arr.written;
                        full_types.push(quote!(#unref));
                        abi_params.push(quote!(#k::kernel::ParamAbi { name: #n_str, kind: #k::kernel::ParamKind::Array { rank: #rank, writes: #writes } }));
                        // The cell's element type must be the capture's: `Captured::<T>` on
                        // the static is a type error at the declared type otherwise.
                        let elem = ty_tokens(&arr.elem);
                        let sp = wty.span();
                        capture_refs.push(quote_spanned!(sp=> #k::kernel::Captured::<#elem>::capture(&#n, #n_str, #rank)));
                    }
                    _ => {
                        let writes = arr.written;
                        param_types.push(quote!(#unref));
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
                match &loc.ty {
                    ir::Ty::Record(_) => param_types.push(quote!(#k::kernel::Scalar<#unref>)),
                    _ => param_types.push(quote!(#unref)),
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
    let builder = format_ident!("__rumba_{}_source", name);
    let fast = fastmath.then(|| quote!(.with_fast_math()));
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
    let doc = format!("Generated sources and signature of the kernel [`{name_str}()`].");
    // A capture is bound as `__rumba_cap_NAME` (NAME: the static's, upper case).
    let snake = (!capture_refs.is_empty()).then(|| quote!(non_snake_case,));
    Ok(quote! {
        #(#attrs)*
        #[allow(#snake clippy::all, unused_parens, unused_braces)]
        #vis fn #name() -> #k::kernel::Kernel<#params_ty> {
            static KERNEL: ::std::sync::OnceLock<#k::kernel::Kernel<#params_ty>> = ::std::sync::OnceLock::new();
            KERNEL
                .get_or_init(|| {
                    #k::kernel::Kernel::<#params_ty>::#constructor(#name_str, #(#options,)* |#thread: &#thread_ty, (#(#pats,)*)| { #body })
                        #block_form
                        .with_cuda_source(#k::driver::CudaKernelSource::new(#name::cuda_source(), #name_str) #fast)
                        .with_opencl_source(#k::driver::OpenClKernelSource::new(#name::opencl_source(), #name_str) #fast)
                        .with_abi(&#name::ABI)
                })
                .clone()
        }

        #[doc = #doc]
        #[allow(non_snake_case, dead_code)]
        #vis mod #name {
            /// The kernel's parameters, dynamic-shared use and fault sites.
            pub static ABI: #k::kernel::KernelAbi = #k::kernel::KernelAbi {
                name: #name_str,
                params: &[#(#abi_params),*],
                uses_dynamic_shared: #uses_dyn,
                sites: &[#(#sites),*],
            };
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

        #[doc(hidden)]
        #[allow(non_snake_case)]
        fn #builder(target: #k::kernel::__macro::Target) -> ::std::string::String {
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
    })
}

fn expand_device(item: &syn::ItemFn) -> syn::Result<TokenStream2> {
    let k = krate();
    let l = lower::lower_device(item, &Options { krate: k.clone() })?;
    let f = &l.func;
    let name = &item.sig.ident;
    let vis = &item.vis;
    let attrs = &item.attrs;
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
    let body = &l.rust_body;
    // Only a device function that calls device functions can take part in recursion (the
    // only way a kernel of the kernel language can exhaust a stack): it starts with a stack
    // check, which turns runaway recursion into a kernel fault on the simulator. Leaf functions
    // stay check-free (and vectorisable in work-item loops).
    let check = (!f.devices.is_empty()).then(|| quote!(#k::kernel::check_stack();));
    let desc = format_ident!("__rumba_device_{}", name);
    let name_str = name.to_string();
    let (cuda, opencl) = (&l.cuda, &l.opencl);
    let (defines, records, devices) = program_parts(f);
    Ok(quote! {
        #(#attrs)*
        #[inline(always)]
        #[allow(clippy::all, unused_parens, unused_braces)]
        #vis fn #name(#(#params),*) #ret { #check #body }

        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #vis static #desc: #k::kernel::__macro::DeviceFn = #k::kernel::__macro::DeviceFn {
            name: #name_str,
            cuda: #cuda,
            opencl: #opencl,
            defines: |target| ::std::vec![#(#defines),*],
            records: |target| ::std::vec![#(#records),*],
            deps: || ::std::vec![#(#devices),*],
        };
    })
}

fn field_type(ty: &syn::Type) -> Option<(Scalar, usize)> {
    match ty {
        syn::Type::Path(p) => {
            Scalar::from_rust_name(&p.path.get_ident()?.to_string()).map(|s| (s, 0))
        }
        syn::Type::Array(a) => {
            let (s, _) = field_type(&a.elem)?;
            match &a.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(i),
                    ..
                }) => Some((s, i.base10_parse::<usize>().ok()?)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn expand_record(item: &syn::ItemStruct) -> syn::Result<TokenStream2> {
    let k = krate();
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new(
            item.generics.span(),
            "records cannot be generic",
        ));
    }
    let syn::Fields::Named(fields) = &item.fields else {
        return Err(syn::Error::new(
            item.fields.span(),
            "a record has named fields: `struct P { x: f32, y: f32 }`",
        ));
    };
    let mut errors: Option<syn::Error> = None;
    let mut descs = Vec::new();
    let mut sizes = Vec::new();
    for fld in &fields.named {
        let fname = fld.ident.as_ref().expect("named").to_string();
        match field_type(&fld.ty) {
            Some((Scalar::F16, _)) => {
                let e = syn::Error::new(
                    fld.ty.span(),
                    "`f16` record fields are not supported (OpenCL C has no `half` struct members without `cl_khr_fp16`): store the bits as `u16` (`f16::to_bits`) or use `f32`",
                );
                match &mut errors {
                    Some(all) => all.combine(e),
                    None => errors = Some(e),
                }
            }
            Some((s, len)) => {
                let ty = format_ident!("{}", format!("{s:?}"));
                descs.push(quote!(#k::kernel::__macro::RecordField { name: #fname, ty: #k::kernel::__macro::Scalar::#ty, len: #len }));
                let t = &fld.ty;
                sizes.push(quote!(::core::mem::size_of::<#t>()));
            }
            None => {
                let e = syn::Error::new(
                    fld.ty.span(),
                    "record fields are element types (`f32`, `u64`, …) or fixed arrays of them (`[f32; 3]`)",
                );
                match &mut errors {
                    Some(all) => all.combine(e),
                    None => errors = Some(e),
                }
            }
        }
    }
    if let Some(e) = errors {
        return Err(e);
    }
    let name = &item.ident;
    let name_str = name.to_string();
    let attrs = &item.attrs;
    let vis = &item.vis;
    let fields_def = &item.fields;
    Ok(quote! {
        #(#attrs)*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, PartialEq)]
        #vis struct #name #fields_def

        // No padding: every byte of the record is a byte of a field, so any bit pattern is valid.
        const _: () = ::core::assert!(
            ::core::mem::size_of::<#name>() == 0 #(+ #sizes)*,
            "a #[rumba::record] must have no padding: order the fields from the largest type to the smallest",
        );
        // SAFETY: `repr(C)`, no padding (asserted above), and every field is a plain number type
        // (or an array of one) for which the all-zero pattern and every bit pattern are valid.
        unsafe impl #k::kernel::__macro::bytemuck::Zeroable for #name {}
        // SAFETY: as for `Zeroable`; the struct is `Copy` and `'static`.
        unsafe impl #k::kernel::__macro::bytemuck::Pod for #name {}
        impl #k::layout::element::Record for #name {
            const NAME: &'static str = #name_str;
        }
        impl #k::kernel::__macro::KernelRecord for #name {
            const C_NAME: &'static str = #name_str;
            const FIELDS: &'static [#k::kernel::__macro::RecordField] = &[#(#descs),*];
        }
    })
}
