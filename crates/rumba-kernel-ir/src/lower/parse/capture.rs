//! Captured device arrays (`capture(NAME: &Arr<T>)` on the attribute): trailing array
//! parameters bound to the `static`'s name, and the hint for a `static` indexed without one.

use syn::spanned::Spanned;

use super::{Cx, FnKind, array_param};
use crate::lower::Capture;
use crate::lower::ir::Param;

impl Cx {
    /// A captured device array: a trailing array parameter bound to the `static`'s name.
    pub(super) fn capture(&mut self, cap: &Capture, params: &mut Vec<Param>) {
        let what = if self.kind == FnKind::Kernel {
            "kernel"
        } else {
            "device function"
        };
        if self.lookup(&cap.name.to_string()).is_some() {
            self.err(
                cap.name.span(),
                format!("`{}` is already a parameter or capture of this {what}: capture each array once, under the name of its `static`", cap.name),
            );
            return;
        }
        match array_param(&cap.ty) {
            Some((false, is_mut, elem)) => {
                let id = self.array_param(&cap.name, false, is_mut, elem, &cap.ty, true);
                params.push(Param::Array(id));
            }
            _ => self.err(
                cap.ty.span(),
                format!("a captured device array is `&Arr<T>` (read) or `&mut Arr<T>` (written): `capture({}: &Arr<f32>)`", cap.name),
            ),
        }
    }

    /// The error for indexing `e`, which is not an array (`ty`: the parameter type to suggest).
    /// An upper-case name the function does not bind is probably a `static` cell of a device
    /// array: say how to capture it.
    pub(crate) fn not_an_array(&mut self, e: &syn::Expr, ty: &str) {
        let unbound = match e {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .filter(|id| {
                    let n = id.to_string();
                    self.lookup(&n).is_none() && !n.chars().any(|c| c.is_lowercase())
                })
                .cloned(),
            _ => None,
        };
        let msg = match (unbound, self.kind) {
            (Some(id), FnKind::Kernel) => format!(
                "`{id}` is not an array of this kernel: to use the device array of a `static` cell (`static {id}: Captured<T>`), capture it: `#[rumba::kernel(capture({id}: {ty}))]`"
            ),
            (Some(id), FnKind::Device) => format!(
                "`{id}` is not an array of this device function: capture it on the kernel (`#[rumba::kernel(capture({id}: {ty}))]`) and pass it to the device function as an array parameter (`fn f(table: {ty})`, called `f({id})`)"
            ),
            (None, _) => {
                format!("only arrays can be indexed: parameters `{ty}`, shared and local arrays")
            }
        };
        self.err(e.span(), msg);
    }
}
