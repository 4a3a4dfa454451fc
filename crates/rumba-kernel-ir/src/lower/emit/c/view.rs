//! In-kernel views in C ([`Stmt::View`]): a new view struct (`rumba_array<T, N>` on CUDA, the
//! generated `rb_<space>_<elem>_<rank>` struct on OpenCL) filled from its base's pointer, shape
//! and byte strides, with the checks written out in a block beside it: the same code for both
//! targets (no per-type helpers to generate on OpenCL), only the field names differ.
//!
//! A check that fails records the fault (code 6, or code 1 with the index for `row` /
//! `index_axis`) and leaves the view empty (every extent 0), so every later access through it is
//! an out-of-bounds access that checked mode skips: the kernel never returns early.

use super::Printer;
use crate::lower::ir::*;
use crate::target::Scalar;

/// Bytes of an element type whose size the emitter knows (numbers and complex numbers).
fn size_of(ty: &Ty) -> Option<usize> {
    match ty {
        Ty::Scalar(s) => Some(s.size()),
        Ty::Complex(p) => p.scalar().map(|s| 2 * s.size()),
        _ => None,
    }
}

/// The alignment Rust (and C) gives an element type.
fn align_of(ty: &Ty) -> Option<usize> {
    match ty {
        Ty::Scalar(s) => Some(s.size()),
        Ty::Complex(p) => p.scalar().map(|s| s.size()),
        _ => None,
    }
}

impl Printer<'_> {
    /// The pointer type of array `a`'s elements (with its address space and constness).
    fn elem_ptr(&self, a: ArrayId) -> String {
        let arr = &self.f.arrays[a];
        let elem = self.elem_c(arr);
        let q = if self.cuda() {
            if arr.space == Space::Const {
                "const ".to_string()
            } else {
                String::new()
            }
        } else {
            match arr.space {
                Space::Global { .. } => "__global ".into(),
                Space::Const => "__global const ".into(),
                Space::Shared | Space::DynamicShared => "__local ".into(),
                Space::Local => String::new(),
                // Filled in per call by the linker.
                Space::Param { index, .. } => format!("$q{index}$"),
            }
        };
        format!("{q}{elem}*")
    }

    /// `let v = base.reshape(…) / .view::<U>() / .index_axis(k, i)`.
    pub(super) fn view_decl(&mut self, a: ArrayId, base: ArrayId, kind: &ViewKind, site: SiteId) {
        let (p, sh, st) = if self.cuda() {
            ("data", "shape", "strides")
        } else {
            ("p", "sh", "st")
        };
        let l = if self.cuda() { "rumba_index" } else { "long" };
        let u64 = Scalar::U64.c_name(self.target);
        let vt = self.view_type(a);
        let ptr = self.elem_ptr(a);
        let bytes_ptr = ptr.replace(&self.elem_c(&self.f.arrays[a]), "char");
        let (v, b) = (
            self.f.arrays[a].c_name.clone(),
            self.f.arrays[base].c_name.clone(),
        );
        let (vrank, brank) = (self.f.arrays[a].rank, self.f.arrays[base].rank);
        let (velem, belem) = (
            self.elem_c(&self.f.arrays[a]),
            self.elem_c(&self.f.arrays[base]),
        );
        let at = self.at(site);
        let bad = self.fresh("bad");
        self.line(&format!("{vt} {v};"));
        self.line("{");
        self.indent += 1;
        self.line(&format!("int {bad} = 0;"));
        // Whether the base is C-contiguous (axes of extent 1 may have any stride; an empty
        // array is contiguous), as NumPy decides it.
        let contiguous = |s: &mut Self, n: &str| {
            let e = s.fresh("e");
            s.line(&format!("{l} {e} = ({l})sizeof({belem});"));
            for k in (0..brank).rev() {
                s.line(&format!(
                    "if ({b}.{sh}[{k}] != 1 && {b}.{st}[{k}] != {e}) {bad} = 1;"
                ));
                s.line(&format!("{e} *= {b}.{sh}[{k}];"));
            }
            s.line(&format!("if ({n} == 0) {bad} = 0;"));
        };
        let size = |s: &mut Self| -> String {
            let n = s.fresh("n");
            let parts: Vec<String> = (0..brank).map(|k| format!("{b}.{sh}[{k}]")).collect();
            s.line(&format!("{l} {n} = {};", parts.join(" * ")));
            n
        };
        match kind {
            ViewKind::Reshape(dims) => {
                let n = size(self);
                contiguous(self, &n);
                self.line(&format!("{v}.{p} = {b}.{p};"));
                for (k, d) in dims.iter().enumerate() {
                    let d = self.expr(d);
                    self.line(&format!("{v}.{sh}[{k}] = ({l}){d};"));
                }
                self.line(&format!("{v}.{st}[{}] = ({l})sizeof({velem});", vrank - 1));
                for k in (0..vrank - 1).rev() {
                    self.line(&format!(
                        "{v}.{st}[{k}] = {v}.{st}[{}] * {v}.{sh}[{}];",
                        k + 1,
                        k + 1
                    ));
                }
                // The new size must be the old one, without overflowing on the way.
                let (m, zero) = (self.fresh("m"), self.fresh("zero"));
                self.line(&format!("{l} {m} = 1;"));
                self.line(&format!("int {zero} = 0;"));
                for k in 0..vrank {
                    let d = format!("{v}.{sh}[{k}]");
                    self.line(&format!(
                        "if ({d} < 0) {bad} = 1; else if ({d} == 0) {zero} = 1; else if ({m} > {n} / {d}) {bad} |= {n} != 0; else {m} *= {d};"
                    ));
                }
                self.line(&format!("if ({zero} ? {n} != 0 : {m} != {n}) {bad} = 1;"));
                self.fail_empty(&v, vrank, sh, &bad, &at, None);
            }
            ViewKind::Cast => {
                let (ta, tb) = (&self.f.arrays[a].elem, &self.f.arrays[base].elem);
                let (sv, sb) = (size_of(ta).unwrap_or(0), size_of(tb).unwrap_or(0));
                let (av, ab) = (align_of(ta).unwrap_or(1), align_of(tb).unwrap_or(1));
                self.line(&format!("{v}.{p} = ({ptr}){b}.{p};"));
                for k in 0..vrank {
                    self.line(&format!("{v}.{sh}[{k}] = {b}.{sh}[{k}];"));
                    self.line(&format!("{v}.{st}[{k}] = {b}.{st}[{k}];"));
                }
                if sv != sb {
                    // A different item size: a C-contiguous base whose last axis's bytes divide
                    // into the new items.
                    let n = size(self);
                    contiguous(self, &n);
                    let last = vrank - 1;
                    self.line(&format!(
                        "if ({b}.{sh}[{last}] * {sb} % {sv} != 0) {bad} = 1;"
                    ));
                    self.line(&format!(
                        "{v}.{sh}[{last}] = {b}.{sh}[{last}] * {sb} / {sv};"
                    ));
                    self.line(&format!("{v}.{st}[{last}] = {sv};"));
                }
                if av > ab {
                    self.line(&format!("if ((({u64}){v}.{p}) % {av} != 0) {bad} = 1;"));
                    for k in 0..vrank {
                        self.line(&format!(
                            "if ({v}.{sh}[{k}] > 1 && {v}.{st}[{k}] % {av} != 0) {bad} = 1;"
                        ));
                    }
                }
                self.fail_empty(&v, vrank, sh, &bad, &at, None);
            }
            ViewKind::Axis(axis, i) => {
                let i = self.expr(i);
                let ix = self.fresh("i");
                self.line(&format!("{u64} {ix} = {i};"));
                self.line(&format!("if ({ix} >= ({u64}){b}.{sh}[{axis}]) {bad} = 1;"));
                self.line(&format!(
                    "{v}.{p} = ({ptr})(({bytes_ptr}){b}.{p} + ({bad} ? 0 : ({l}){ix} * {b}.{st}[{axis}]));"
                ));
                let kept: Vec<usize> = (0..brank).filter(|k| k != axis).collect();
                for (j, k) in kept.iter().enumerate() {
                    self.line(&format!("{v}.{sh}[{j}] = {b}.{sh}[{k}];"));
                    self.line(&format!("{v}.{st}[{j}] = {b}.{st}[{k}];"));
                }
                let extent = format!("{b}.{sh}[{axis}]");
                self.fail_empty(&v, vrank, sh, &bad, &at, Some((&ix, &extent)));
            }
        }
        self.indent -= 1;
        self.line("}");
    }

    /// On `bad`: record the fault (an out-of-range index when `oob` names it) and empty the view.
    fn fail_empty(
        &mut self,
        v: &str,
        rank: usize,
        sh: &str,
        bad: &str,
        at: &str,
        oob: Option<(&str, &str)>,
    ) {
        let record = match oob {
            Some((i, extent)) => format!("rb_oob({at}, 1, {i}, 0, 0, {extent}, 0, 0);"),
            None => format!("rb_fail({at}, 6);"),
        };
        let zero: Vec<String> = (0..rank).map(|k| format!("{v}.{sh}[{k}] = 0;")).collect();
        self.line(&format!("if ({bad}) {{ {record} {} }}", zero.join(" ")));
    }
}
