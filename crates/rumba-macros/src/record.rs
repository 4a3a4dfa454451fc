//! `#[rumba::record]`: a `repr(C)`, `Pod` struct that kernels take by value and hold in arrays,
//! with the field list the C targets declare it from.

use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use rumba_kernel_ir::target::Scalar;
use syn::spanned::Spanned;

use crate::krate;

fn field_type(ty: &syn::Type) -> Option<(Scalar, usize)> {
    match ty {
        syn::Type::Path(p) => {
            Scalar::from_rust_name(&p.path.get_ident()?.to_string()).map(|s| (s, 0))
        }
        syn::Type::Array(a) => {
            // One dimension: `[T; N]` of an element type (not an array of arrays).
            let (s, inner) = field_type(&a.elem)?;
            if inner != 0 {
                return None;
            }
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

pub(crate) fn expand_record(item: &syn::ItemStruct) -> syn::Result<TokenStream2> {
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
            Some((Scalar::Bool, _)) => {
                let e = syn::Error::new(
                    fld.ty.span(),
                    "`bool` record fields are not supported (device memory may hold any byte, and a `bool` other than 0 or 1 is undefined in Rust): store it as `u8`",
                );
                match &mut errors {
                    Some(all) => all.combine(e),
                    None => errors = Some(e),
                }
            }
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
                    "record fields are number types (`f32`, `u64`, …) or one-dimensional arrays of them (`[f32; 3]`, and `[u8; N]` for a byte string)",
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
