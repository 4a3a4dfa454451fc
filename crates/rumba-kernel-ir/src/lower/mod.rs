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
pub mod generics;
pub mod infer;
pub mod ir;
pub mod math;
mod parse;

use syn::spanned::Spanned;

use crate::target::{Scalar, Target};

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

/// One instance of a (possibly generic) function: the element types of its type parameters,
/// and everything generated for it.
#[derive(Debug, Clone)]
pub struct Instance {
    /// The element type of each type parameter, in order (empty when there are none).
    pub types: Vec<Scalar>,
    /// The lowering of this instance.
    pub lowered: Lowered,
}

/// A function lowered once per instance of its type parameters.
#[derive(Debug, Clone)]
pub struct LoweredFn {
    /// The generic parameters.
    pub generics: generics::Generics,
    /// The instances, in the order of [`generics::Generics::combinations`] (one for a function
    /// without type parameters).
    pub instances: Vec<Instance>,
}

fn lower_all(
    item: &syn::ItemFn,
    kind: parse::FnKind,
    captures: &[Capture],
    opts: &Options,
) -> syn::Result<LoweredFn> {
    let g = generics::read(&item.sig)?;
    let mut instances = Vec::new();
    for types in g.combinations() {
        match parse::parse_fn(item, kind, captures, &g, &types) {
            Ok(func) => instances.push(Instance {
                lowered: finish(func, opts),
                types,
            }),
            Err(e) if g.types.is_empty() => return Err(e),
            Err(e) => {
                // The first instance that does not lower: its errors, each saying which instance
                // and which bound admitted it.
                let bounds: Vec<String> = g
                    .types
                    .iter()
                    .map(|p| format!("`{}: {}`", p.name, p.bounds))
                    .collect();
                let note = format!(
                    " (in the instance `{}` of this generic function, which {} admit{}: narrow the bound or write what every admitted type has)",
                    g.describe(&types),
                    bounds.join(" and "),
                    if bounds.len() == 1 { "s" } else { "" }
                );
                let all = e
                    .into_iter()
                    .map(|one| syn::Error::new(one.span(), format!("{one}{note}")))
                    .reduce(|mut a, b| {
                        a.combine(b);
                        a
                    });
                return Err(all.expect("at least one error"));
            }
        }
    }
    Ok(LoweredFn {
        generics: g,
        instances,
    })
}

fn run(
    item: &syn::ItemFn,
    kind: parse::FnKind,
    captures: &[Capture],
    opts: &Options,
) -> syn::Result<Lowered> {
    let mut all = lower_all(item, kind, captures, opts)?;
    if all.generics.is_generic() {
        return Err(syn::Error::new(
            item.sig.generics.span(),
            "a generic function has one lowering per instance: use `lower_kernel_instances` / `lower_device_instances`",
        ));
    }
    Ok(all.instances.remove(0).lowered)
}

fn finish(func: ir::Func, opts: &Options) -> Lowered {
    let analysis = analysis::analyse(&func);
    let rust_body = emit::rust::body(&func, opts);
    let wil = emit::wil::block_form(&func, opts);
    let cuda = emit::c::function(&func, Target::Cuda);
    let opencl = opencl_with_control_check(
        emit::c::function(&func, Target::OpenCl),
        &analysis::barrier_control(&func),
        &analysis,
    );
    Lowered {
        func,
        analysis,
        rust_body,
        wil,
        cuda,
        opencl,
    }
}

/// Lowers a `#[rumba::kernel]` function, generic or not, once per instance (see
/// [`generics`]); captures as for [`lower_kernel_captured`].
///
/// # Errors
/// As [`lower_kernel_captured`], plus refused generic parameters and bounds; for a generic
/// kernel, the errors of the first instance that does not lower, each naming the instance.
pub fn lower_kernel_instances(
    item: &syn::ItemFn,
    captures: &[Capture],
    opts: &Options,
) -> syn::Result<LoweredFn> {
    lower_all(item, parse::FnKind::Kernel, captures, opts)
}

/// Lowers a `#[rumba::device]` function, generic or not, once per instance.
///
/// # Errors
/// As [`lower_kernel_instances`].
pub fn lower_device_instances(item: &syn::ItemFn, opts: &Options) -> syn::Result<LoweredFn> {
    lower_all(item, parse::FnKind::Device, &[], opts)
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

/// The OpenCL text, refused at build time when a barrier or a warp operation sits under
/// thread-dependent control (as the uniformity analysis sees it).
///
/// - A barrier (`syncthreads*`) that only some work-items of a group reach is undefined in
///   OpenCL, and PoCL's work-item loops crash on it (SIGSEGV) rather than fault. The simulator
///   reports it at run time as a divergent-barrier fault naming block and thread; an OpenCL
///   device cannot, so the kernel is refused before it runs.
/// - Without subgroups (PoCL has none) warps are emulated with work-group barriers, which every
///   work-item must reach, so a warp operation under such control is the same case.
///
/// An `#error` makes the device build fail with the message, which the runtime reports as the
/// build error naming the kernel; the simulator and CUDA run the kernel as written. The analysis
/// is conservative: control it cannot prove uniform counts as thread-dependent (compute a loop
/// bound or a condition from parameters, block indices and shapes, not from loaded values).
fn opencl_with_control_check(
    text: String,
    barriers: &[analysis::BarrierSite],
    analysis: &analysis::Analysis,
) -> String {
    if let Some(site) = barriers.iter().find(|b| !b.uniform_control) {
        let at = site.span.start();
        return format!(
            "#error \"rumba: the barrier at line {}:{} runs under thread-dependent control; a barrier must be reached by every work-item of the group or by none, and an OpenCL device cannot report a divergent barrier (the simulator reports it as a fault): make the condition, loop bound or early return around it uniform across the block\"\n{text}",
            at.line,
            at.column + 1
        );
    }
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
