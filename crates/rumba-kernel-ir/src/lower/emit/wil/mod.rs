//! The fourth emitter: the kernel as a **block body** for the simulator's work-item-loop engine
//! (`rumba::kernel::wil`, issue #12), next to the per-thread body ([`super::rust`]).
//!
//! The body is cut at its barriers (`plan`): statements that contain a barrier, define a
//! block-uniform value or leave a loop that contains one run once per block, as ordinary Rust
//! ("lifted"); every run of other statements becomes a region, one loop over the block's
//! work-items (`__blk.each(|__w, __tid| …)`). A lifted `if` / `while` / `for` whose condition or
//! bounds depend on the thread has them evaluated per work-item in the region before it and
//! checked equal at run time (`Decision` / `BlockCtx::uniform`: a mismatch is the
//! divergent-barrier fault naming block and thread). Block-uniform locals are block scalars;
//! thread-varying locals live across regions in context arrays, except pure thread-index
//! expressions, which each region recomputes; shared arrays are declared once per block, local
//! arrays once per work-item.
//!
//! A region whose global accesses are at the thread's **own index** runs through the block's
//! own-index windows in full blocks (no bounds checks against the arrays, so it vectorises) and
//! checked otherwise. The own index is the linear `t.grid1()` for 1-d arrays and `(y, x)` with
//! `(x, y) = t.grid2()` for 2-d ones (or locals that only ever hold them, `plan`); a 1-d input
//! read only there gets a window indexed by work-item, an own-index output (a `&mut Arr` stored
//! to, compound-assigned and read only at the own index) a window indexed by work-item (1-d) or
//! `threadIdx` (2-d, each block row a contiguous run of the output). A 2-d
//! input read only at constant offsets from `(y, x)` (a stencil) gets a halo window, which exists
//! only for a frozen input and serves the block's interior: the work-items whose reads, up to the
//! largest offset (the margin) away, stay inside the array. Such a region runs as `each_split`:
//! its interior through the windows (reached with the `Inside` token), each halo read loaded once
//! at the top of the work-item's turn (it cannot fault and nothing writes the input, so a branch
//! need not guard it), the other work-items checked. In a windowed region, a comparison of an own
//! index component (plus a constant) with a constant or with an extent of a windowed array
//! (`i < a.len()`, `y < a.shape()[0]`, `x + 1 == cols` with `let cols = a.shape()[1]`) is decided
//! where the windows decide it: the own index lies below every such extent, and in a halo's
//! interior at least the margin inside it (`x == 0` and `x + 1 == cols` are false there for a
//! margin of 1), so a stencil's boundary test folds away.
//!
//! A region whose only work is an `if` on the thread's x index against a block-uniform bound
//! (`if tid < stride`), or on its lane (`if t.lane_id() == 0`), visits only the work-items that
//! can meet it (`xrange`).
//!
//! A body whose first region reads a 2-d input at rows that depend on the thread's y (a tiled
//! transpose's strip of 32 rows) first asks for those rows of the next block its thread will run,
//! so that they arrive while this block works (`ahead`).
//!
//! A region whose only work is a loop over a block-uniform range that writes no memory and reads
//! it only at block-uniform indices (n-body's force loop over a shared tile) runs with the loop
//! outside and sixteen work-items inside, so that their arithmetic becomes SIMD (`lanes`).
//!
//! The generated grid function picks, per launch, plain or atomic global reads (plain when the
//! simulator froze every read-only argument) and plain or atomic own-index stores (plain when it
//! gave every own-index output to the launch alone, and the layouts and the launch let blocks own
//! disjoint elements: a contiguous 1-d array in a 1-d launch, a 2-d array with contiguous rows in
//! a launch without a z extent), then the block shape: `(256, 1, 1)` and,
//! for kernels with barriers, `(16, 16, 1)` and `(32, 32, 1)` compiled for that shape, any other
//! shape at run time.
//!
//! In-kernel views (`reshape`, `view::<U>()`, `row`, `index_axis`) are made per work-item, in
//! the region that runs their `let`, with the per-thread body's own methods (so they check and
//! fault exactly as on coroutines). Their shape and index arguments are never-reassigned locals
//! (bound to fresh ones first where needed, `plan::normalise`), so a later region that uses a
//! view makes it again at its top from the same values (context-stored when they vary per
//! work-item): a view is a handle, not plain data, and never itself lives across a barrier.
//! The memory rules stay those of the arrays viewed: a view of a shared or local array starts
//! from the block array's non-`Send` view of the same arena memory
//! (`BlockArray::shared_view` / `local_view`: one OS thread, its plain and atomic accesses
//! sequenced); a view of a global parameter starts from the per-thread body's `GlobalView` of
//! it (relaxed atomic words, or plain loads of an argument the simulator froze), so such a
//! parameter is never an own-index output nor read through a plain own-index window. A view's
//! shape counts as varying: block code never names a view, and a lifted loop bound or
//! condition on it is decided per work-item and checked equal.
//!
//! Warp operations (`syncwarp`, votes, shuffles, `activemask`) cut the body as barriers do: the
//! region before stores each work-item's operands, a warp step completes the operation warp by
//! warp, and later regions read each work-item's result (`warp`).
//!
//! What the loop form cannot express makes [`block_form`] return `Err` with the reason; the
//! kernel then runs on coroutines only: a `#[rumba::device]` function that takes the thread
//! context, a barrier or warp operation inside an expression other than a statement, a `let` or
//! an assignment's value, a by-value parameter reassigned under thread-dependent control, a value
//! live across a barrier whose type is not a number or record, a warp operation under
//! thread-dependent control or with a mask that is not block-uniform (the lanes of a warp then
//! meet there while others are elsewhere, which coroutines do).

mod ahead;
mod body;
mod lanes;
mod names;
mod normalise;
mod plan;
mod views;
mod warp;
mod xrange;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::lower::Options;
use crate::lower::emit::rust::{elem_tokens, ty_tokens};
use crate::lower::ir::*;
use body::{Body, is_bool, usize_lit};
use names::{array_ident, context_ident, local_ident};
use normalise::normalise;
use plan::{Plan, Reach, Storage};

/// The block form of one kernel.
#[derive(Debug, Clone)]
pub struct WilForm {
    /// How the kernel uses each argument, by position: `"Read"`, `"OwnIndexStore"` or
    /// `"ReadWrite"` (`rumba::driver::ArrayUse` variant names).
    pub uses: Vec<&'static str>,
    /// The grid function: a closure `|launch: &HostLaunch| -> rumba::Result<()>`.
    pub grid: TokenStream,
}

/// Emits the block form of kernel `f`.
///
/// # Errors
/// The reason the loop form cannot express the kernel (see the module docs).
pub fn block_form(f: &Func, opts: &Options) -> Result<WilForm, String> {
    if f.is_device {
        return Err("a device function has no block form".into());
    }
    let norm = normalise(f)?;
    if uses_warp_ops(&norm) {
        warp::check(&norm, &crate::lower::analysis::analyse(&norm).varying)?;
    }
    let plan = Plan::new(&norm)?;
    let mut unplaced = None;
    plan::walk(&norm.body, &mut Vec::new(), &mut |s, _| {
        if let Stmt::Let {
            local,
            init:
                Some(Expr {
                    kind: ExprKind::Warp(..),
                    ..
                }),
            ..
        } = s
        {
            if plan.storage[*local] != Storage::Context {
                unplaced = Some(norm.locals[*local].name.to_string());
            }
        }
    });
    if let Some(n) = unplaced {
        return Err(format!(
            "the result of a warp operation (`{n}`) has no per-thread slot"
        ));
    }
    let k = &opts.krate;
    let b = Body::new(&plan, k);
    let ahead = b.fetch_ahead();
    let main = b.block(&norm.body);
    let sites = b.sites.borrow().clone();
    let top = b.top.borrow().clone();
    let f = &norm;
    let wil = quote!(#k::kernel::wil);
    // The kernel's const generic parameters reach the nested functions as their own.
    let cdecl: Vec<TokenStream> = f
        .const_params
        .iter()
        .map(|(n, s)| {
            let t = ty_tokens(&Ty::Scalar(*s), k);
            quote!(, const #n: #t)
        })
        .collect();
    let cargs: Vec<TokenStream> = f.const_params.iter().map(|(n, _)| quote!(, #n)).collect();

    // Parameters of the body, of the shape dispatch, and how each argument is built.
    let mut body_params = Vec::new();
    let mut rebind = Vec::new();
    let mut build = Vec::new();
    let mut pass = Vec::new();
    let mut uses = Vec::new();
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut position = 0usize;
    for p in &f.params {
        let pos = usize_lit(position);
        match p {
            Param::Thread(_) => continue,
            Param::Array(a) => {
                let arr = &f.arrays[*a];
                let (n, elem) = (array_ident(f, *a), elem_tokens(&arr.elem, k));
                let arr_elem = ty_tokens(&arr.elem, k);
                let rank = usize_lit(arr.rank);
                match plan.reach[*a] {
                    Reach::Input => {
                        body_params.push(quote!(#n: &#wil::GlobalIn<'_, #elem, #rank, __R>));
                        rebind.push(quote!(let #n = *#n;));
                        build.push(quote!(let #n = #wil::GlobalIn::<#elem, #rank, __R>::from_arg(&__args[#pos], #pos)?;));
                        pass.push(quote!(&#n));
                        uses.push("Read");
                        inputs.push(pos);
                    }
                    Reach::OwnOut => {
                        let o = format_ident!("__out_{}", arr.c_name);
                        body_params.push(quote!(#o: &#wil::OwnOut<'_, #elem, __W, #rank>));
                        rebind.push(quote!(let #n = #o.block(__blk);));
                        build.push(quote!(let #o = #wil::OwnOut::<#elem, __W, #rank>::from_arg(&__args[#pos], #pos, &__cfg)?;));
                        pass.push(quote!(&#o));
                        uses.push("OwnIndexStore");
                        outputs.push(pos);
                    }
                    reach => {
                        let param = match arr.space {
                            Space::Const => quote!(#k::kernel::ConstArr<#arr_elem>),
                            _ => quote!(#k::kernel::Arr<#arr_elem>),
                        };
                        body_params.push(quote!(#n: &#k::kernel::GlobalView<'_, #elem>));
                        rebind.push(quote!(let #n = *#n;));
                        build.push(quote!(let #n = <#param as #k::kernel::Param>::view(&__args[#pos], #pos)?;));
                        pass.push(quote!(&#n));
                        uses.push(if reach == Reach::ViewedIn {
                            "Read"
                        } else {
                            "ReadWrite"
                        });
                    }
                }
            }
            Param::Value(l) => {
                let loc = &f.locals[*l];
                let (n, ty) = (local_ident(f, *l), ty_tokens(&loc.ty, k));
                let pty = match &loc.ty {
                    Ty::Record(_) => quote!(#k::kernel::Scalar<#ty>),
                    _ => ty.clone(),
                };
                body_params.push(quote!(#n: #ty));
                if loc.mutable {
                    rebind.push(quote!(let mut #n = #n;));
                }
                build.push(
                    quote!(let #n: #ty = <#pty as #k::kernel::Param>::view(&__args[#pos], #pos)?;),
                );
                pass.push(quote!(#n));
                uses.push("ReadWrite");
            }
        }
        position += 1;
    }

    // Block memory, declared once at the top.
    let mut decls = Vec::new();
    for (a, arr) in f.arrays.iter().enumerate() {
        if arr.base.is_some() {
            // A view has no memory of its own: it is made in the regions (`body`).
            continue;
        }
        let (n, elem) = (array_ident(f, a), elem_tokens(&arr.elem, k));
        let dims = || -> Vec<TokenStream> {
            arr.dims
                .iter()
                .map(|d| match d {
                    DimSize::Lit(v) => {
                        let l = usize_lit(*v as usize);
                        quote!(#l)
                    }
                    DimSize::Const(c) => {
                        let p = &f.consts[*c].path;
                        quote!(#p)
                    }
                })
                .collect()
        };
        let rank = usize_lit(arr.dims.len());
        match (&arr.space, plan.reach[a]) {
            (Space::Shared, _) => {
                let d = dims();
                decls.push(quote!(let #n = __blk.shared_array::<#elem, #rank>([#(#d),*]);));
            }
            (Space::DynamicShared, _) => {
                decls.push(quote!(let #n = __blk.dynamic_shared::<#elem>();));
            }
            (Space::Local, _) => {
                let d = dims();
                let l = format_ident!("__loc_{}", arr.c_name);
                decls.push(quote!(let #l = __blk.local_arrays::<#elem, #rank>([#(#d),*]);));
            }
            _ => {}
        }
    }
    for (l, s) in plan.storage.iter().enumerate() {
        if *s == Storage::Context {
            let c = context_ident(f, l);
            let ty = if is_bool(&f.locals[l].ty) {
                quote!(u8)
            } else {
                ty_tokens(&f.locals[l].ty, k)
            };
            decls.push(quote!(let #c = __blk.context::<#ty>();));
        }
    }

    let mut shapes = vec![(256u32, 1u32, 1u32)];
    if plan.has_barrier {
        shapes.extend([(16, 16, 1), (32, 32, 1)]);
    }
    let arms = shapes.iter().map(|&(x, y, z)| {
        let (x, y, z) = (lit_u32(x), lit_u32(y), lit_u32(z));
        quote!([#x, #y, #z] => #wil::run_blocks::<#wil::Fixed<#x, #y, #z>, _>(
            __launch.name(), &__cfg, |__blk| __body::<_, __R, __W #(#cargs)*>(__blk, #(#pass),*)
        ),)
    });
    let frozen = quote!(#k::kernel::__macro::frozen_all(__launch.args(), &[#(#inputs),*]));
    let exclusive =
        quote!(#k::kernel::__macro::exclusive_all(__launch.args(), &[#(#outputs),*], &__cfg));
    let modes = |any: bool| -> Vec<TokenStream> {
        if any {
            vec![quote!(#wil::Plain), quote!(#wil::Atomic)]
        } else {
            vec![quote!(#wil::Atomic)]
        }
    };
    let (rs, ws) = (modes(!inputs.is_empty()), modes(!outputs.is_empty()));
    let mut dispatch = Vec::new();
    for (i, r) in rs.iter().enumerate() {
        for (j, w) in ws.iter().enumerate() {
            let (pr, pw) = (rs.len() == 2 && i == 0, ws.len() == 2 && j == 0);
            let (pr, pw) = (
                if rs.len() == 2 {
                    quote!(#pr)
                } else {
                    quote!(_)
                },
                if ws.len() == 2 {
                    quote!(#pw)
                } else {
                    quote!(_)
                },
            );
            dispatch.push(quote!((#pr, #pw) => __run::<#r, #w #(#cargs)*>(__launch),));
        }
    }
    let bidx = Ident::new("__bidx", proc_macro2::Span::call_site());

    let grid = quote! {
        move |__launch: &#k::driver::HostLaunch<'_>| -> #k::Result<()> {
            #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
            #[inline(always)]
            fn __body<__S: #wil::BlockShape, __R: #wil::Access, __W: #wil::Access #(#cdecl)*>(
                __blk: &#wil::BlockCtx<'_, __S>,
                #(#body_params),*
            ) {
                #(#sites)*
                let #bidx = __blk.block_idx();
                let __bdim = __blk.block_dim();
                let __gdim = __blk.grid_dim();
                #(#rebind)*
                #(#decls)*
                #(#top)*
                #ahead
                #main
            }
            #[allow(unused, clippy::all)]
            fn __run<__R: #wil::Access, __W: #wil::Access #(#cdecl)*>(
                __launch: &#k::driver::HostLaunch<'_>,
            ) -> #k::Result<()> {
                let __args = __launch.args();
                let __cfg = #k::kernel::LaunchConfig::new(__launch.grid(), __launch.block())
                    .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
                #(#build)*
                match __cfg.block.to_array() {
                    #(#arms)*
                    _ => #wil::run_blocks::<#wil::Dyn, _>(
                        __launch.name(), &__cfg, |__blk| __body::<_, __R, __W #(#cargs)*>(__blk, #(#pass),*)
                    ),
                }
            }
            let __cfg = #k::kernel::LaunchConfig::new(__launch.grid(), __launch.block());
            match (#frozen, #exclusive) {
                #(#dispatch)*
            }
        }
    };
    Ok(WilForm { uses, grid })
}

fn lit_u32(v: u32) -> proc_macro2::Literal {
    proc_macro2::Literal::u32_suffixed(v)
}

/// Whether kernel `f` calls a warp-level operation (`syncwarp`, votes, shuffles, `activemask`).
/// Such kernels run on coroutines without the engine's fast path.
pub fn uses_warp_ops(f: &Func) -> bool {
    let mut found = false;
    crate::lower::emit::c::visit_exprs(&f.body, &mut |e| {
        found |= matches!(e.kind, ExprKind::Warp(..));
    });
    found
}
