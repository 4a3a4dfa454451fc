//! Generic kernels and device functions: `fn axpy<T: Float>(…)`, `fn tile<const N: usize>(…)`.
//!
//! A type parameter is bounded by rumba's numeric traits (`Number`, `Int`, `SignedInt`,
//! `UnsignedInt`, `Float`, and the engine's `AtomicValue` / `AtomicInteger`), each of which
//! admits a closed set of element types; several bounds admit what all of them admit. The
//! function is lowered once per combination of admitted types (an *instance*), as if the user had
//! written that copy: each instance has its own simulator bodies and C sources, checked by the
//! same rules as any kernel, so a body that some admitted type cannot run (`x.sqrt()` under
//! `T: Number`, which admits `i32`) is a compile error at the construct, naming the instance and
//! the bound to narrow.
//!
//! A const parameter (`const N: usize`, any integer type or `bool`) stays a parameter: the
//! instances are generic over it in Rust, and its C `#define` gets the value the caller chose,
//! like a const item's.

use proc_macro2::Ident;
use syn::spanned::Spanned;

use crate::target::Scalar;

/// The most instances one function may have (the product of the admitted sets of its type
/// parameters): every instance is compiled by rustc and carries its own C sources.
pub const MAX_INSTANCES: usize = 64;

/// A type parameter and the element types its bounds admit.
#[derive(Debug, Clone)]
pub struct TypeParam {
    /// The name (`T`).
    pub name: Ident,
    /// The bounds as written, for messages (`Float`, `Number + AtomicValue`).
    pub bounds: String,
    /// The element types every bound admits, in `Scalar` order.
    pub admitted: Vec<Scalar>,
}

/// A const parameter.
#[derive(Debug, Clone)]
pub struct ConstParam {
    /// The name (`N`).
    pub name: Ident,
    /// Its type.
    pub ty: Scalar,
}

/// The generic parameters of a function.
#[derive(Debug, Clone, Default)]
pub struct Generics {
    /// Type parameters, in order.
    pub types: Vec<TypeParam>,
    /// Const parameters, in order.
    pub consts: Vec<ConstParam>,
}

impl Generics {
    /// Whether the function has any generic parameter.
    pub fn is_generic(&self) -> bool {
        !self.types.is_empty() || !self.consts.is_empty()
    }

    /// Every combination of admitted types (one per instance), the first type parameter
    /// varying slowest; one empty combination for a function without type parameters.
    pub fn combinations(&self) -> Vec<Vec<Scalar>> {
        let mut out = vec![Vec::new()];
        for p in &self.types {
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    p.admitted.iter().map(move |s| {
                        let mut v = prefix.clone();
                        v.push(*s);
                        v
                    })
                })
                .collect();
        }
        out
    }

    /// `T = f32, U = i64` for an instance (for messages).
    pub fn describe(&self, types: &[Scalar]) -> String {
        self.types
            .iter()
            .zip(types)
            .map(|(p, s)| format!("{} = {}", p.name, s.rust_name()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The element types a bound admits, or `None` for a bound that is not one of rumba's numeric
/// traits.
fn admitted_by(bound: &str) -> Option<Vec<Scalar>> {
    use Scalar::*;
    let ints = [I8, U8, I16, U16, I32, U32, I64, U64, Isize, Usize];
    Some(match bound {
        "Number" => ints.iter().copied().chain([F32, F64]).collect(),
        "Int" => ints.to_vec(),
        "SignedInt" => vec![I8, I16, I32, I64, Isize],
        "UnsignedInt" => vec![U8, U16, U32, U64, Usize],
        "Float" => vec![F32, F64],
        "AtomicValue" => vec![I32, U32, I64, U64, F32, F64],
        "AtomicInteger" => vec![I32, U32, I64, U64],
        _ => return None,
    })
}

const BOUNDS_HINT: &str = "type parameters of kernels are bounded by rumba's numeric traits: `Number`, `Int`, `SignedInt`, `UnsignedInt`, `Float` (and `AtomicValue`, `AtomicInteger`), for example `<T: Float>`";

/// Applies the bounds `bounds` to `admitted` (the set so far, `None` before the first bound).
fn apply_bounds<'a>(
    bounds: impl IntoIterator<Item = &'a syn::TypeParamBound>,
    admitted: &mut Option<Vec<Scalar>>,
    written: &mut Vec<String>,
    errors: &mut Vec<syn::Error>,
) {
    for b in bounds {
        let name = match b {
            syn::TypeParamBound::Trait(t)
                if t.lifetimes.is_none()
                    && matches!(t.modifier, syn::TraitBoundModifier::None)
                    && t.path
                        .segments
                        .last()
                        .is_some_and(|s| s.arguments.is_none()) =>
            {
                t.path.segments.last().map(|s| s.ident.to_string())
            }
            _ => None,
        };
        let Some(set) = name.as_deref().and_then(admitted_by) else {
            errors.push(syn::Error::new(b.span(), BOUNDS_HINT));
            continue;
        };
        written.push(name.unwrap_or_default());
        *admitted = Some(match admitted.take() {
            None => set,
            Some(prev) => prev.into_iter().filter(|s| set.contains(s)).collect(),
        });
    }
}

/// Reads the generic parameters of `sig`: type parameters with rumba's numeric bounds (on the
/// parameter or in a `where` clause), const parameters of integer or `bool` type; everything
/// else (lifetimes, other bounds, defaults) is refused at its span.
///
/// # Errors
/// Every refused parameter or bound, combined.
pub fn read(sig: &syn::Signature) -> syn::Result<Generics> {
    let mut errors = Vec::new();
    let mut g = Generics::default();
    let mut sets: Vec<(Option<Vec<Scalar>>, Vec<String>)> = Vec::new();
    for p in &sig.generics.params {
        match p {
            syn::GenericParam::Lifetime(l) => errors.push(syn::Error::new(
                l.span(),
                "kernels and device functions take no lifetime parameters: arrays are `&Arr<T>` without one",
            )),
            syn::GenericParam::Type(t) => {
                if let Some(d) = &t.default {
                    errors.push(syn::Error::new(
                        d.span(),
                        "type parameters of kernels have no defaults",
                    ));
                }
                let (mut admitted, mut written) = (None, Vec::new());
                apply_bounds(&t.bounds, &mut admitted, &mut written, &mut errors);
                g.types.push(TypeParam {
                    name: t.ident.clone(),
                    bounds: String::new(),
                    admitted: Vec::new(),
                });
                sets.push((admitted, written));
            }
            syn::GenericParam::Const(c) => {
                let ty = match &c.ty {
                    syn::Type::Path(tp) if tp.qself.is_none() => tp
                        .path
                        .get_ident()
                        .and_then(|id| Scalar::from_rust_name(&id.to_string()))
                        .filter(|s| s.is_int() || *s == Scalar::Bool),
                    _ => None,
                };
                match ty {
                    Some(ty) => g.consts.push(ConstParam {
                        name: c.ident.clone(),
                        ty,
                    }),
                    None => errors.push(syn::Error::new(
                        c.ty.span(),
                        "const parameters of kernels are integers or `bool` (`const N: usize`)",
                    )),
                }
                if let Some(d) = &c.default {
                    errors.push(syn::Error::new(
                        d.span(),
                        "const parameters of kernels have no defaults",
                    ));
                }
            }
        }
    }
    if let Some(w) = &sig.generics.where_clause {
        for pred in &w.predicates {
            let target = match pred {
                syn::WherePredicate::Type(pt) if pt.lifetimes.is_none() => match &pt.bounded_ty {
                    syn::Type::Path(tp) if tp.qself.is_none() => tp
                        .path
                        .get_ident()
                        .and_then(|id| g.types.iter().position(|p| p.name == *id))
                        .map(|k| (k, pt)),
                    _ => None,
                },
                _ => None,
            };
            match target {
                Some((k, pt)) => {
                    let (admitted, written) = &mut sets[k];
                    apply_bounds(&pt.bounds, admitted, written, &mut errors);
                }
                None => errors.push(syn::Error::new(
                    pred.span(),
                    "`where` clauses of kernels bound their type parameters only: `where T: Float`",
                )),
            }
        }
    }
    for (p, (admitted, written)) in g.types.iter_mut().zip(sets) {
        match admitted {
            None => errors.push(syn::Error::new(
                p.name.span(),
                format!("`{}` needs a bound: {BOUNDS_HINT}", p.name),
            )),
            Some(set) if set.is_empty() => errors.push(syn::Error::new(
                p.name.span(),
                format!(
                    "no element type satisfies every bound of `{}` ({})",
                    p.name,
                    written.join(" + ")
                ),
            )),
            Some(set) => {
                p.admitted = set;
                p.bounds = written.join(" + ");
            }
        }
    }
    let n: usize = g
        .types
        .iter()
        .map(|p| p.admitted.len().max(1))
        .product::<usize>();
    if n > MAX_INSTANCES {
        errors.push(syn::Error::new(
            sig.generics.span(),
            format!(
                "these bounds admit {n} combinations of element types, each compiled separately (at most {MAX_INSTANCES}): narrow the bounds (`Float` admits 2 types, `Int` 10, `Number` 12)"
            ),
        ));
    }
    match errors.into_iter().reduce(|mut a, b| {
        a.combine(b);
        a
    }) {
        Some(e) => Err(e),
        None => Ok(g),
    }
}

/// The substitution of one instance: type parameter names to element types.
pub(crate) fn substitution(g: &Generics, types: &[Scalar]) -> Vec<(String, Scalar)> {
    g.types
        .iter()
        .zip(types)
        .map(|(p, s)| (p.name.to_string(), *s))
        .collect()
}

/// The C-name suffix of an instance (`f32`, `f32_i64`); empty without type parameters.
pub fn instance_tag(types: &[Scalar]) -> String {
    types
        .iter()
        .map(|s| s.rust_name())
        .collect::<Vec<_>>()
        .join("_")
}

/// An identifier for the Rust items of one instance: `__rumba_inst_NAME__f32`.
pub fn instance_ident(name: &Ident, types: &[Scalar]) -> Ident {
    Ident::new(
        &format!("__rumba_inst_{}__{}", name, instance_tag(types)),
        name.span(),
    )
}
