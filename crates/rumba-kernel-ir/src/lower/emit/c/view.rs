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
    pub(super) fn elem_ptr(&self, a: ArrayId) -> String {
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

    /// `let v = base.reshape(…) / .view::<U>() / .index_axis(k, i) / .slice(s![…])`.
    ///
    /// A 0-d array is held in C as a 1-d view of one element (see `Printer::c_rank`): its
    /// extent 1 (0 when the view could not be made), its stride the item size.
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
        // The C ranks (a 0-d array is one element of a 1-d view).
        let (vrank, brank) = (self.c_rank(a), self.c_rank(base));
        let (vzero, bzero) = (self.f.arrays[a].rank == 0, self.f.arrays[base].rank == 0);
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
        // A 0-d view: its one element at `{v}.p`.
        let one = |s: &mut Self| {
            s.line(&format!("{v}.{sh}[0] = 1;"));
            s.line(&format!("{v}.{st}[0] = ({l})sizeof({velem});"));
        };
        match kind {
            ViewKind::Reshape(dims, infer) => {
                let n = size(self);
                contiguous(self, &n);
                self.line(&format!("{v}.{p} = {b}.{p};"));
                if vzero {
                    one(self);
                    self.line(&format!("if ({n} != 1) {bad} = 1;"));
                    self.fail_empty(&v, vrank, sh, &bad, &at, None);
                } else {
                    for (k, d) in dims.iter().enumerate() {
                        if Some(k) == *infer {
                            continue;
                        }
                        let d = self.expr(d);
                        self.line(&format!("{v}.{sh}[{k}] = ({l}){d};"));
                    }
                    if let Some(ax) = infer {
                        // NumPy's `-1`: the size over the product of the other extents, which
                        // must be positive and divide it.
                        let m = self.fresh("m");
                        let others: Vec<String> = (0..vrank)
                            .filter(|k| k != ax)
                            .map(|k| format!("{v}.{sh}[{k}]"))
                            .collect();
                        let prod = if others.is_empty() {
                            "1".to_string()
                        } else {
                            others.join(" * ")
                        };
                        self.line(&format!("{l} {m} = {prod};"));
                        self.line(&format!(
                            "if ({m} <= 0 || {n} % {m} != 0) {{ {bad} = 1; {v}.{sh}[{ax}] = 0; }} else {v}.{sh}[{ax}] = {n} / {m};"
                        ));
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
                if sv != sb && bzero {
                    // NumPy cannot change the item size of a 0-d array.
                    self.line(&format!("{bad} = 1;"));
                } else if sv != sb {
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
                if vzero {
                    one(self);
                } else {
                    let kept: Vec<usize> = (0..brank).filter(|k| k != axis).collect();
                    for (j, k) in kept.iter().enumerate() {
                        self.line(&format!("{v}.{sh}[{j}] = {b}.{sh}[{k}];"));
                        self.line(&format!("{v}.{st}[{j}] = {b}.{st}[{k}];"));
                    }
                }
                let extent = format!("{b}.{sh}[{axis}]");
                self.fail_empty(&v, vrank, sh, &bad, &at, Some((&ix, &extent)));
            }
            ViewKind::Slice(comps) => self.slice_decl(a, base, comps, &bad, &at),
        }
        self.indent -= 1;
        self.line("}");
    }

    /// NumPy's basic slicing in C: each index drops its axis (negative from the end, out of
    /// bounds records a fault with the index), each range keeps it with Python's clamping rules
    /// (a zero step records a fault), the axes after the components are kept whole. A failed
    /// slice is an empty view, like every view.
    fn slice_decl(
        &mut self,
        arr: ArrayId,
        base: ArrayId,
        comps: &[SliceComp],
        bad: &str,
        at: &str,
    ) {
        let (p, sh, st) = if self.cuda() {
            ("data", "shape", "strides")
        } else {
            ("p", "sh", "st")
        };
        let l = if self.cuda() { "rumba_index" } else { "long" };
        let (v, b) = (
            self.f.arrays[arr].c_name.clone(),
            self.f.arrays[base].c_name.clone(),
        );
        let vzero = self.f.arrays[arr].rank == 0;
        let brank = self.f.arrays[base].rank;
        let vrank = self.c_rank(arr);
        let ptr = self.elem_ptr(arr);
        let bytes_ptr = ptr.replace(&self.elem_c(&self.f.arrays[arr]), "char");
        let velem = self.elem_c(&self.f.arrays[arr]);
        let off = self.fresh("off");
        let (oob_i, oob_n) = (self.fresh("oi"), self.fresh("on"));
        self.line(&format!("{l} {off} = 0, {oob_i} = 0, {oob_n} = 0;"));
        self.line(&format!("int {}_oob = 0;", bad));
        let mut out = 0;
        for (k, c) in comps.iter().enumerate() {
            let n = format!("{b}.{sh}[{k}]");
            match c {
                SliceComp::Index(e) => {
                    let x = self.expr(e);
                    let i = self.fresh("i");
                    self.line(&format!("{l} {i} = ({l})({x});"));
                    self.line(&format!(
                        "if ({i} < 0) {i} += {n}; if ({i} < 0 || {i} >= {n}) {{ if (!{bad}) {{ {oob_i} = ({l})({x}); {oob_n} = {n}; {bad}_oob = 1; }} {bad} = 1; }} else {off} += {i} * {b}.{st}[{k}];"
                    ));
                }
                SliceComp::Range { start, stop, step } => {
                    let stp = self.fresh("step");
                    let step_v = match step {
                        Some(e) => {
                            let x = self.expr(e);
                            format!("({l})({x})")
                        }
                        None => "1".into(),
                    };
                    self.line(&format!("{l} {stp} = {step_v};"));
                    let (lo, hi, cnt) = (self.fresh("lo"), self.fresh("hi"), self.fresh("cnt"));
                    let bound = |s: &mut Self, e: &Option<Expr>| -> Option<String> {
                        e.as_ref().map(|e| {
                            let x = s.expr(e);
                            format!("({l})({x})")
                        })
                    };
                    let (sa, sb) = (bound(self, start), bound(self, stop));
                    // Python's rules (`slice.indices`): clamp into the axis in the step's direction.
                    let clamp_up = |x: &str| {
                        format!(
                            "({x} < 0 ? ({x} + {n} < 0 ? 0 : {x} + {n}) : ({x} > {n} ? {n} : {x}))"
                        )
                    };
                    let clamp_down = |x: &str| {
                        format!(
                            "({x} < 0 ? ({x} + {n} < -1 ? -1 : {x} + {n}) : ({x} > {n} - 1 ? {n} - 1 : {x}))"
                        )
                    };
                    self.line(&format!("{l} {lo}, {hi}, {cnt} = 0;"));
                    self.line(&format!(
                        "if ({stp} == 0) {{ {bad} = 1; }} else if ({stp} > 0) {{"
                    ));
                    self.indent += 1;
                    self.line(&format!(
                        "{lo} = {}; {hi} = {};",
                        sa.as_deref().map_or("0".to_string(), clamp_up),
                        sb.as_deref().map_or(n.clone(), clamp_up)
                    ));
                    self.line(&format!(
                        "if ({hi} > {lo}) {cnt} = ({hi} - {lo} + {stp} - 1) / {stp};"
                    ));
                    self.indent -= 1;
                    self.line("} else {");
                    self.indent += 1;
                    self.line(&format!(
                        "{lo} = {}; {hi} = {};",
                        sa.as_deref().map_or(format!("{n} - 1"), clamp_down),
                        sb.as_deref().map_or("-1".to_string(), clamp_down)
                    ));
                    self.line(&format!(
                        "if ({lo} > {hi}) {cnt} = ({lo} - {hi} - {stp} - 1) / (-{stp});"
                    ));
                    self.indent -= 1;
                    self.line("}");
                    self.line(&format!("if ({cnt} > 0) {off} += {lo} * {b}.{st}[{k}];"));
                    self.line(&format!("{v}.{sh}[{out}] = {cnt};"));
                    self.line(&format!("{v}.{st}[{out}] = {b}.{st}[{k}] * {stp};"));
                    out += 1;
                }
            }
        }
        for k in comps.len()..brank {
            self.line(&format!("{v}.{sh}[{out}] = {b}.{sh}[{k}];"));
            self.line(&format!("{v}.{st}[{out}] = {b}.{st}[{k}];"));
            out += 1;
        }
        if vzero {
            self.line(&format!("{v}.{sh}[0] = 1;"));
            self.line(&format!("{v}.{st}[0] = ({l})sizeof({velem});"));
        }
        self.line(&format!(
            "{v}.{p} = ({ptr})(({bytes_ptr}){b}.{p} + ({bad} ? 0 : {off}));"
        ));
        // An index out of bounds is code 1 with the index (as NumPy's IndexError); a zero step
        // is an invalid view (code 6).
        let zero: Vec<String> = (0..vrank).map(|k| format!("{v}.{sh}[{k}] = 0;")).collect();
        self.line(&format!(
            "if ({bad}) {{ if ({bad}_oob) rb_oob({at}, 1, ({u})({oob_i}), 0, 0, {oob_n}, 0, 0); else rb_fail({at}, 6); {} }}",
            zero.join(" "),
            u = Scalar::U64.c_name(self.target)
        ));
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
