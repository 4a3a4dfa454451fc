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

mod device;
mod kernel;
mod record;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote, quote_spanned};
use rumba_kernel_ir::lower::{self, ir};
use syn::spanned::Spanned;

pub(crate) fn krate() -> syn::Path {
    syn::parse_quote!(::rumba)
}

/// `#[rumba::device]` takes no arguments; `capture(…)` gets a message saying what to write.
fn device_args(attr: TokenStream) -> Result<(), syn::Error> {
    let ts = TokenStream2::from(attr.clone());
    if let Some(proc_macro2::TokenTree::Ident(id)) = ts.clone().into_iter().next() {
        if id == "capture" {
            return Err(syn::Error::new(
                ts.span(),
                "device functions do not capture device arrays: capture the array on the kernel (`#[rumba::kernel(capture(NAME: &Arr<T>))]`) and pass it to the device function as an array parameter (`fn f(table: &Arr<T>)`, called `f(NAME)`)",
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
    match syn::parse::<KernelAttr>(attr)
        .and_then(|a| kernel::expand_kernel(&item, &a.captures, a.fastmath))
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
    match device_args(attr).and_then(|()| device::expand_device(&item)) {
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
    match no_args(attr, "record").and_then(|()| record::expand_record(&item)) {
        Ok(ts) => ts.into(),
        Err(e) => e.into_compile_error().into(),
    }
}

pub(crate) fn ty_tokens(t: &ir::Ty) -> TokenStream2 {
    lower::emit::rust::ty_tokens(t, &krate())
}

/// `(name, literal)` pushes for the consts, record decls and device-function adds of a function.
pub(crate) fn program_parts(
    f: &ir::Func,
) -> (Vec<TokenStream2>, Vec<TokenStream2>, Vec<TokenStream2>) {
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
                // One descriptor serves every instance: no generic arguments.
                last.arguments = syn::PathArguments::None;
            }
            quote!(&#p)
        })
        .collect();
    (defines, records, devices)
}

/// Compile-time checks that every array passed to a device function has the rank the callee
/// indexes it with (the callee's `__rumba_ranks_NAME`): neither macro sees the other's function.
pub(crate) fn rank_checks(f: &ir::Func) -> TokenStream2 {
    let checks = f.array_args.iter().map(|a| {
        let d = &f.devices[a.device];
        let mut p = d.path.clone();
        let callee = p
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if let Some(last) = p.segments.last_mut() {
            last.ident = format_ident!("__rumba_ranks_{}", last.ident);
            last.arguments = syn::PathArguments::None;
        }
        let arr = &f.arrays[a.array];
        let (rank, pos) = (arr.rank, a.position);
        let msg = format!(
            "`{}` has {rank} dimension(s) here, but `{callee}` indexes its parameter {pos} with another number of components: index the array alike in both functions",
            arr.name
        );
        quote_spanned!(a.span=> const _: () = ::core::assert!(#p[#pos] == #rank, #msg);)
    });
    quote!(#(#checks)*)
}
