//! OpenCL C has no templates: the view structs, bounds-checked accessors and atomics a kernel
//! uses are generated as text, once per (address space, element type, rank), before the kernel.
//!
//! A view is `{ SPACE T* p; long sh[N]; long st[N]; }` with byte strides, like CUDA's
//! `rumba_array<T, N>`. Accessors check every index in checked mode (the default; define
//! `RUMBA_UNCHECKED` to drop the checks), record the first fault with `rb_oob` and skip the
//! access. Float atomics and CUDA's bounded `inc` / `dec` are compare-and-swap loops on the bits.
//! Float `min` / `max` / `nanmin` / `nanmax` follow Numba's NaN rules (see the simulator's
//! atomics module): they read the element, return it unchanged when no store is due, and
//! otherwise compare-and-swap the operand in, so the stored bits are always `old` or `v`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::target::Scalar;

/// A helper a kernel needs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Need {
    /// A view struct.
    View {
        /// `g` global, `c` constant (global const), `l` local (shared), `p` private, or `$sK$`:
        /// the space of a device function's `K`-th array parameter, filled in by the linker.
        space: String,
        /// Element C type.
        elem: String,
        /// Rank.
        rank: usize,
    },
    /// A constructor of a C-ordered view over fixed memory (shared, local, dynamic shared).
    Fixed {
        /// The view type.
        view: String,
        /// Rank.
        rank: usize,
        /// Element C type.
        elem: String,
    },
    /// An accessor: `ld`, `st` or `atomic_<op>`.
    Access {
        /// Operation.
        op: String,
        /// The view type.
        view: String,
        /// Space tag (as for [`Need::View`]).
        space: String,
        /// Element C type.
        elem: String,
        /// Element scalar (None for records).
        scalar: Option<Scalar>,
        /// Rank.
        rank: usize,
    },
}

/// The address-space qualifier of `space`; for a parameter's placeholder `$sK$`, its own
/// placeholder `$qK$` (the linker fills both in).
fn qual(space: &str) -> String {
    match space.strip_prefix("$s") {
        Some(k) => format!("$q{k}"),
        None => crate::link::opencl_qualifier(space.chars().next().unwrap_or('p')).to_string(),
    }
}

impl Need {
    /// The view type name this need belongs to.
    pub fn name(&self) -> String {
        match self {
            Need::View { space, elem, rank } => {
                format!("rb_{space}_{}_{rank}", elem.replace(' ', "_"))
            }
            Need::Fixed { view, .. } | Need::Access { view, .. } => view.clone(),
        }
    }
}

fn idx_params(rank: usize) -> String {
    (0..rank).map(|k| format!("ulong i{k}, ")).collect()
}

fn check(rank: usize, ret: &str) -> String {
    if rank > 3 {
        let idx: Vec<String> = (0..rank).map(|k| format!("i{k}")).collect();
        return format!(
            "#ifndef RUMBA_UNCHECKED\n    {{\n        ulong rb_i[{rank}] = {{{}}};\n        for (uint k = 0; k < {rank}u; k++) {{\n            if (rb_i[k] >= (ulong)a.sh[k]) {{ rb_oob_nd(rb_f, rb_site, {rank}u, rb_i, a.sh[k], k); {ret} }}\n        }}\n    }}\n#endif\n",
            idx.join(", ")
        );
    }
    let cond: Vec<String> = (0..rank)
        .map(|k| format!("i{k} >= (ulong)a.sh[{k}]"))
        .collect();
    let idx: Vec<String> = (0..3)
        .map(|k| {
            if k < rank {
                format!("i{k}")
            } else {
                "0".into()
            }
        })
        .collect();
    let sh: Vec<String> = (0..3)
        .map(|k| {
            if k < rank {
                format!("a.sh[{k}]")
            } else {
                "0".into()
            }
        })
        .collect();
    format!(
        "#ifndef RUMBA_UNCHECKED\n    if ({}) {{ rb_oob(rb_f, rb_site, {rank}, {}, {}); {ret} }}\n#endif\n",
        cond.join(" || "),
        idx.join(", "),
        sh.join(", ")
    )
}

fn addr(space: &str, elem: &str, rank: usize, volatile: bool) -> String {
    let q = qual(space);
    let v = if volatile { "volatile " } else { "" };
    let off: Vec<String> = (0..rank)
        .map(|k| format!(" + (long)i{k} * a.st[{k}]"))
        .collect();
    let cq = if space == "c" {
        "__global const ".to_string()
    } else {
        q.clone()
    };
    format!("(({v}{q}{elem}*)((({cq}char*)a.p){}))", off.concat())
}

/// The OpenCL integer type with the same bits as a 32- or 64-bit scalar, and its `as_` name.
fn bits_type(s: Scalar) -> (&'static str, &'static str) {
    match s {
        Scalar::I32 => ("int", "int"),
        Scalar::U32 => ("uint", "uint"),
        Scalar::F32 => ("int", "int"),
        Scalar::I64 | Scalar::Isize => ("long", "long"),
        Scalar::F64 => ("long", "long"),
        _ => ("ulong", "ulong"),
    }
}

fn atomic_body(op: &str, space: &str, elem: &str, s: Scalar, rank: usize) -> String {
    let p = addr(space, elem, rank, true);
    let wide = s.size() == 8;
    let direct = |f32name: &str, f64name: &str| {
        let f = if wide { f64name } else { f32name };
        format!("    return {f}({p}, v);\n")
    };
    let (bt, asb) = bits_type(s);
    let ast = match s {
        Scalar::F32 => "float",
        Scalar::F64 => "double",
        other => other.c_name(crate::target::Target::OpenCl),
    };
    let cmpxchg = if wide {
        "atom_cmpxchg"
    } else {
        "atomic_cmpxchg"
    };
    let q = qual(space);
    let cas_loop = |new: &str| {
        format!(
            "    volatile {q}{bt}* q = (volatile {q}{bt}*){p};\n    {bt} old = *q, seen;\n    do {{\n        seen = old;\n        {elem} x = as_{ast}(seen);\n        old = {cmpxchg}(q, seen, as_{asb}(({elem})({new})));\n    }} while (old != seen);\n    return as_{ast}(old);\n"
        )
    };
    // Store `v` while `keep(x)` is false for the element `x` (Numba's float min / max).
    let store_unless = |when: &str| {
        format!(
            "    volatile {q}{bt}* q = (volatile {q}{bt}*){p};\n    {bt} old = *q, seen;\n    for (;;) {{\n        {elem} x = as_{ast}(old);\n        if (!({when})) return x;\n        seen = old;\n        old = {cmpxchg}(q, seen, as_{asb}(v));\n        if (old == seen) return x;\n    }}\n"
        )
    };
    let float = s.is_float();
    match op {
        "add" if !float => direct("atomic_add", "atom_add"),
        "sub" if !float => direct("atomic_sub", "atom_sub"),
        "min" | "nanmin" if !float => direct("atomic_min", "atom_min"),
        "max" | "nanmax" if !float => direct("atomic_max", "atom_max"),
        "and" => direct("atomic_and", "atom_and"),
        "or" => direct("atomic_or", "atom_or"),
        "xor" => direct("atomic_xor", "atom_xor"),
        "exch" if !float => direct("atomic_xchg", "atom_xchg"),
        "exch" if !wide => direct("atomic_xchg", "atom_xchg"),
        "exch" => format!("    return as_double(atom_xchg((volatile {q}long*){p}, as_long(v)));\n"),
        "cas" => format!(
            "    return as_{ast}({cmpxchg}((volatile {q}{bt}*){p}, as_{asb}(expected), as_{asb}(v)));\n"
        ),
        "add" => cas_loop("x + v"),
        "sub" => cas_loop("x - v"),
        "min" => store_unless("v < x"),
        "max" => store_unless("x < v"),
        "nanmin" => store_unless("!isnan(v) && (isnan(x) || v < x)"),
        "nanmax" => store_unless("!isnan(v) && (isnan(x) || x < v)"),
        "inc" => cas_loop("(x >= v) ? 0 : x + 1"),
        "dec" => cas_loop("(x == 0 || x > v) ? v : x - 1"),
        _ => "    return 0;\n".into(),
    }
}

/// `text` between include guards named after `name`, so that a program whose kernel and device
/// functions need one helper defines it once.
pub(crate) fn guarded(name: &str, text: &str) -> String {
    format!("#ifndef RB_H_{name}\n#define RB_H_{name}\n{text}#endif\n")
}

/// The helper definitions for `needs`, views first, each guarded (see `guarded`).
pub fn emit(needs: &BTreeSet<Need>) -> String {
    let mut out = String::new();
    for n in needs {
        if let Need::View { space, elem, rank } = n {
            let decl = format!(
                "typedef struct {{ {}{elem}* p; long sh[{rank}]; long st[{rank}]; }} {};\n",
                qual(space),
                n.name()
            );
            out.push_str(&guarded(&n.name(), &decl));
        }
    }
    for n in needs {
        let mut s = String::new();
        let guard = match n {
            Need::View { .. } => continue,
            Need::Fixed { view, .. } => format!("rb_mk_{}", &view[3..]),
            Need::Access { op, view, .. } => format!("rb_{op}_{}", &view[3..]),
        };
        match n {
            Need::View { .. } => {}
            Need::Fixed { view, rank, elem } => {
                let space = &view[3..4];
                let q = qual(space);
                let dims: Vec<String> = (0..*rank).map(|k| format!("long d{k}")).collect();
                let _ = writeln!(
                    s,
                    "static inline {view} rb_mk_{}({q}{elem}* p, {}) {{",
                    &view[3..],
                    dims.join(", ")
                );
                let _ = writeln!(s, "    {view} a;\n    a.p = p;");
                let mut stride = format!("(long)sizeof({elem})");
                for k in (0..*rank).rev() {
                    let _ = writeln!(s, "    a.sh[{k}] = d{k};\n    a.st[{k}] = {stride};");
                    stride = format!("{stride} * d{k}");
                }
                let _ = writeln!(s, "    return a;\n}}");
            }
            Need::Access {
                op,
                view,
                space,
                elem,
                scalar,
                rank,
            } => {
                let tail = &view[3..];
                let (sig_extra, ret_ty, fail, body) = match op.as_str() {
                    "ld" => (
                        String::new(),
                        elem.clone(),
                        format!("{elem} rb_z = {{0}}; return rb_z;"),
                        format!("    return *{};\n", addr(space, elem, *rank, false)),
                    ),
                    "st" => (
                        format!("{elem} v, "),
                        "void".to_string(),
                        "return;".to_string(),
                        format!("    *{} = v;\n", addr(space, elem, *rank, false)),
                    ),
                    // The checked address (0 when out of bounds), for field stores.
                    "at" => (
                        String::new(),
                        format!("{}{elem}*", qual(space)),
                        "return 0;".to_string(),
                        format!("    return {};\n", addr(space, elem, *rank, false)),
                    ),
                    a => {
                        let aop = a.trim_start_matches("atomic_");
                        let s = scalar.unwrap_or(Scalar::I32);
                        let extra = if aop == "cas" {
                            format!("{elem} expected, {elem} v, ")
                        } else {
                            format!("{elem} v, ")
                        };
                        (
                            extra,
                            elem.clone(),
                            "return 0;".to_string(),
                            atomic_body(aop, space, elem, s, *rank),
                        )
                    }
                };
                let _ = writeln!(
                    s,
                    "static inline {ret_ty} rb_{op}_{tail}({view} a, {}{sig_extra}__global uint* rb_f, uint rb_site) {{",
                    idx_params(*rank)
                );
                s.push_str(&check(*rank, &fail));
                s.push_str(&body);
                s.push_str("}\n");
            }
        }
        out.push_str(&guarded(&guard, &s));
    }
    out
}
