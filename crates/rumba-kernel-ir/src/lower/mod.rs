//! The front end and the emitters (feature `lower`).
//!
//! [`lower_kernel`] / [`lower_device`] run the whole pipeline on a parsed function:
//! 1. `parse`: the subset check — every construct outside the subset is a spanned
//!    `syn::Error` saying what to write instead, all of them combined — plus name resolution and
//!    type inference ([`infer`]) into the typed IR ([`ir`]);
//! 2. [`analysis`]: block-uniformity of values and barriers, and the locals that live across a
//!    barrier (what a work-item-loop emitter needs);
//! 3. [`emit`]: the simulator's per-thread body and block body (Rust tokens), CUDA C and
//!    OpenCL C.
//!
//! [`math`] is the table of math methods (Numba's `math` list with Rust names, CUDA's integer
//! intrinsics) that parsing, inference and every emitter read.

pub mod analysis;
pub mod emit;
pub mod infer;
pub mod ir;
pub mod math;
mod parse;

use crate::target::Target;

/// Everything generated for one function.
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The typed IR.
    pub func: ir::Func,
    /// The analyses.
    pub analysis: analysis::Analysis,
    /// The per-thread Rust body (a kernel: the closure's statements; a device function: its
    /// body), with the user's spans.
    pub rust_body: proc_macro2::TokenStream,
    /// The block body for the work-item-loop engine (kernels), or why there is none.
    pub wil: Result<emit::wil::WilForm, String>,
    /// The function's CUDA C text (without the prelude the runtime adds: header, `#define`s of
    /// consts, record typedefs, device functions).
    pub cuda: String,
    /// The function's OpenCL C text (same).
    pub opencl: String,
}

impl Lowered {
    /// The C text for `target`.
    pub fn c_text(&self, target: Target) -> &str {
        match target {
            Target::Cuda => &self.cuda,
            Target::OpenCl => &self.opencl,
        }
    }
}

/// Options of the emitters.
#[derive(Debug, Clone)]
pub struct Options {
    /// The path of the `rumba` crate in the generated Rust (`::rumba`).
    pub krate: syn::Path,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            krate: syn::parse_quote!(::rumba),
        }
    }
}

/// A captured device array, declared on the attribute (`capture(NAME: &Arr<T>)`): the function
/// names the `static` cell `NAME` as an array; lowering makes it a trailing array parameter
/// ([`ir::Array::captured`]) that the launch fills from the cell.
#[derive(Debug, Clone)]
pub struct Capture {
    /// The `static`'s name, as the body uses it.
    pub name: proc_macro2::Ident,
    /// The array type as written: `&Arr<T>` or `&mut Arr<T>`.
    pub ty: syn::Type,
}

fn run(
    item: &syn::ItemFn,
    kind: parse::FnKind,
    captures: &[Capture],
    opts: &Options,
) -> syn::Result<Lowered> {
    let func = parse::parse_fn(item, kind, captures)?;
    let analysis = analysis::analyse(&func);
    let rust_body = emit::rust::body(&func, opts);
    let wil = emit::wil::block_form(&func, opts);
    let cuda = emit::c::function(&func, Target::Cuda);
    let opencl = opencl_with_warp_check(emit::c::function(&func, Target::OpenCl), &analysis);
    Ok(Lowered {
        func,
        analysis,
        rust_body,
        wil,
        cuda,
        opencl,
    })
}

/// Lowers a `#[rumba::kernel]` function.
///
/// # Errors
/// Every construct outside the subset and every type conflict, as one combined `syn::Error`
/// (each part spanned at its construct).
pub fn lower_kernel(item: &syn::ItemFn, opts: &Options) -> syn::Result<Lowered> {
    run(item, parse::FnKind::Kernel, &[], opts)
}

/// Lowers a `#[rumba::kernel]` function that captures device arrays: each capture becomes a
/// trailing array parameter, in order, after the written ones.
///
/// # Errors
/// As [`lower_kernel`], plus captures that are not `&Arr<T>` / `&mut Arr<T>`, captured twice or
/// named like a parameter, and writes to a capture declared `&Arr<T>`.
pub fn lower_kernel_captured(
    item: &syn::ItemFn,
    captures: &[Capture],
    opts: &Options,
) -> syn::Result<Lowered> {
    run(item, parse::FnKind::Kernel, captures, opts)
}

/// Lowers a `#[rumba::device]` function.
///
/// # Errors
/// As [`lower_kernel`].
pub fn lower_device(item: &syn::ItemFn, opts: &Options) -> syn::Result<Lowered> {
    run(item, parse::FnKind::Device, &[], opts)
}

/// The OpenCL text, refused at build time when a warp operation sits under thread-dependent
/// control: without subgroups (PoCL has none) warps are emulated with work-group barriers, which
/// every work-item must reach, so such a kernel would be undefined there (a divergent barrier).
/// An `#error` makes the device build fail with this message, which the runtime reports as a
/// typed build error naming the kernel; the simulator and CUDA run the kernel as written.
fn opencl_with_warp_check(text: String, analysis: &analysis::Analysis) -> String {
    let Some(site) = analysis.warp_ops.iter().find(|w| !w.uniform_control) else {
        return text;
    };
    let at = site.span.start();
    format!(
        "#error \"rumba: the warp operation at line {}:{} runs under thread-dependent control; OpenCL devices without subgroups emulate warps with work-group barriers, so every work-item of the group must reach each warp operation (like syncthreads)\"\n{text}",
        at.line,
        at.column + 1
    )
}
