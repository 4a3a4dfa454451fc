//! CUDA C and OpenCL C from the IR (one printer, the differences behind [`Target`]).
//!
//! Lowering rules (docs/design/kernels.md §3), spelled out in the generated text:
//! - integer `+ - *` and unary `-` are computed in the unsigned type of at least 32 bits and
//!   cast back (`(int)((unsigned int)a + (unsigned int)b)`): Rust's wrapping, never C's signed
//!   overflow, never `int` promotion overflow of narrow types;
//! - shift amounts are masked to the width (`a << (b & 31)`), left shifts done unsigned;
//! - integer `/` and `%` go through `rb_div` / `rb_rem`, which record a fault for a zero
//!   divisor and `MIN / -1` and yield 0;
//! - float to integer `as` saturates with NaN to 0 (`rb_sat_*` on CUDA, `convert_*_sat_rtz` on
//!   OpenCL);
//! - every array access goes through a view (`rumba_array<T, N>` on CUDA, a generated
//!   `rb_<space>_<T>_<N>` struct on OpenCL) and `rb_ld` / `rb_st` / `rb_atomic_*`, which check
//!   the index in checked mode, record the first fault and skip the access (no early exit);
//! - shared arrays are hoisted to the top of the kernel (OpenCL requires `__local` at kernel
//!   scope), local arrays are zeroed like the simulator's.
//!
//! OpenCL C has no templates and no overloading, so the OpenCL printer collects the view types,
//! accessors and atomics a kernel uses and emits them before it ([`super::opencl_helpers`]).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

mod expr;
mod store;
mod view;

use super::opencl_helpers::{self, Need};
use crate::lower::ir::*;
use crate::target::{Scalar, Target};

/// The C text of one function (kernel or device function), preceded on OpenCL by the helpers
/// it needs.
pub fn function(f: &Func, target: Target) -> String {
    let mut p = Printer {
        f,
        target,
        out: String::new(),
        indent: 1,
        counter: 0,
        needs: BTreeSet::new(),
        tuples: RefCell::new(BTreeMap::new()),
    };
    let body = p.body();
    let sig = p.signature();
    let mut s = String::new();
    for decl in p.tuples.borrow().values() {
        s.push_str(decl);
    }
    if target == Target::OpenCl && !p.needs.is_empty() {
        s.push_str(&opencl_helpers::emit(&p.needs));
    }
    s.push_str(&sig);
    s.push_str(" {\n");
    s.push_str(&body);
    s.push_str("}\n");
    s
}

pub(super) struct Printer<'a> {
    f: &'a Func,
    target: Target,
    out: String,
    indent: usize,
    counter: usize,
    needs: BTreeSet<Need>,
    /// The tuple structs the function uses: name → declaration.
    tuples: RefCell<BTreeMap<String, String>>,
}

/// The C type of a value type.
pub fn c_type(ty: &Ty, target: Target) -> String {
    match ty {
        Ty::Scalar(s) => s.c_name(target).into(),
        Ty::Record(path) => path.rsplit("::").next().unwrap_or(path).trim().to_string(),
        Ty::Complex(p) => complex_c_type(p.scalar().unwrap_or(Scalar::F64)).into(),
        Ty::Dim3 => "uint3".into(),
        Ty::Tuple(parts) => tuple_c_name(parts),
        _ => "void".into(),
    }
}

/// The C struct of a tuple type: `rb_tup_` and its parts (`rb_tup_f32_i64`).
pub fn tuple_c_name(parts: &[Ty]) -> String {
    let names: Vec<String> = parts
        .iter()
        .map(|p| match p {
            Ty::Scalar(s) => s.rust_name().to_string(),
            Ty::Complex(q) => {
                if q.scalar() == Some(Scalar::F32) {
                    "c32".into()
                } else {
                    "c64".into()
                }
            }
            Ty::Record(path) => path.rsplit("::").next().unwrap_or(path).trim().to_string(),
            _ => "x".into(),
        })
        .collect();
    format!("rb_tup_{}", names.join("_"))
}

/// The declaration of a tuple struct and its constructor `NAME_new(a0, a1, …)`, guarded (a
/// kernel and its device functions may each declare it).
fn tuple_decl(parts: &[Ty], target: Target) -> String {
    let name = tuple_c_name(parts);
    let tys: Vec<String> = parts.iter().map(|p| c_type(p, target)).collect();
    let fields: String = tys
        .iter()
        .enumerate()
        .map(|(k, t)| format!(" {t} f{k};"))
        .collect();
    let args: Vec<String> = tys
        .iter()
        .enumerate()
        .map(|(k, t)| format!("{t} a{k}"))
        .collect();
    let sets: String = (0..parts.len())
        .map(|k| format!(" t.f{k} = a{k};"))
        .collect();
    let text = match target {
        Target::Cuda => format!(
            "struct {name} {{{fields} }};\n__device__ __forceinline__ {name} {name}_new({}) {{ {name} t;{sets} return t; }}\n",
            args.join(", ")
        ),
        Target::OpenCl => format!(
            "typedef struct {{{fields} }} {name};\nstatic inline {name} {name}_new({}) {{ {name} t;{sets} return t; }}\n",
            args.join(", ")
        ),
    };
    opencl_helpers::guarded(&name, &text)
}

/// The C struct of a complex type (`rb_c32` / `rb_c64`, defined by the device header and the
/// OpenCL prelude with the functions `rb_c64_add`, … that give num-complex's results).
pub fn complex_c_type(part: Scalar) -> &'static str {
    if part == Scalar::F32 {
        "rb_c32"
    } else {
        "rb_c64"
    }
}

/// The space tag of the OpenCL helpers and of call markers (`crate::link`): `g`, `c`, `l`, `p`,
/// or a device function's placeholder `$sK$` for its `K`-th array parameter.
pub(super) fn space_tag(s: &Space) -> String {
    match s {
        Space::Global { .. } => "g".into(),
        Space::Const => "c".into(),
        Space::Shared | Space::DynamicShared => "l".into(),
        Space::Local => "p".into(),
        Space::Param { index, .. } => format!("$s{index}$"),
    }
}

impl Printer<'_> {
    pub(super) fn cuda(&self) -> bool {
        self.target == Target::Cuda
    }

    pub(super) fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    pub(super) fn fresh(&mut self, base: &str) -> String {
        self.counter += 1;
        format!("rb_{base}{}", self.counter)
    }

    pub(super) fn ty(&self, ty: &Ty) -> String {
        if let Ty::Tuple(parts) = ty {
            self.tuples
                .borrow_mut()
                .entry(tuple_c_name(parts))
                .or_insert_with(|| tuple_decl(parts, self.target));
        }
        c_type(ty, self.target)
    }

    /// The C element type of array `a`: a `bool` element is a byte (`unsigned char` / `uchar`;
    /// OpenCL C allows no `bool` in buffers), read as `!= 0` and stored as 0 or 1.
    /// An `f16` element on OpenCL is its `ushort` bits (OpenCL C without `cl_khr_fp16` has no
    /// `half` values, only `vload_half` / `vstore_half`).
    pub(super) fn elem_c(&self, a: &Array) -> String {
        if a.elem.scalar() == Some(Scalar::Bool) {
            Scalar::U8.c_name(self.target).to_string()
        } else if a.elem.scalar() == Some(Scalar::F16) && !self.cuda() {
            Scalar::U16.c_name(self.target).to_string()
        } else {
            self.ty(&a.elem)
        }
    }

    /// A load from array `a` as the kernel's value (a byte read as `bool`).
    pub(super) fn loaded(&self, a: ArrayId, load: String) -> String {
        match self.f.arrays[a].elem.scalar() {
            Some(Scalar::Bool) => format!("({load} != 0)"),
            Some(Scalar::F16) if !self.cuda() => format!("rb_h2f({load})"),
            _ => load,
        }
    }

    /// A value to store into array `a` (an OpenCL `f16` as its bits, `vstore_half`'s rounding).
    pub(super) fn stored(&self, a: ArrayId, v: String) -> String {
        match self.f.arrays[a].elem.scalar() {
            Some(Scalar::F16) if !self.cuda() => format!("rb_f2h({v})"),
            _ => v,
        }
    }

    /// The rank of array `a`'s C view: its rank, except that a 0-d array is held as a 1-d
    /// view of its one element (extent 1, or 0 when a view could not be made, so that checked
    /// accesses skip it), indexed at 0.
    pub(super) fn c_rank(&self, a: ArrayId) -> usize {
        self.f.arrays[a].rank.max(1)
    }

    /// The type name of an array's view.
    pub(super) fn view_type(&mut self, a: ArrayId) -> String {
        let rank = self.c_rank(a);
        let arr = &self.f.arrays[a];
        let elem = self.elem_c(arr);
        if self.cuda() {
            let elem = if arr.space == Space::Const {
                format!("const {elem}")
            } else {
                elem
            };
            format!("rumba_array<{elem}, {rank}>")
        } else {
            let need = Need::View {
                space: space_tag(&arr.space),
                elem: elem.clone(),
                rank,
            };
            let name = need.name();
            self.needs.insert(need);
            name
        }
    }

    /// The name of accessor `op` (`ld`, `st`, `atomic_add`, …) for array `a`.
    pub(super) fn accessor(&mut self, op: &str, a: ArrayId) -> String {
        let view = self.view_type(a);
        if self.cuda() {
            format!("rb_{op}")
        } else {
            let arr = &self.f.arrays[a];
            // `isize`/`i64` (and `usize`/`u64`) share a C type: one helper serves both.
            let elem = arr.elem.scalar().map(|s| match s {
                Scalar::Isize => Scalar::I64,
                Scalar::Usize => Scalar::U64,
                // `f16` elements are `ushort` bits: the `u16` helpers serve them.
                Scalar::F16 => Scalar::U16,
                s => s,
            });
            self.needs.insert(Need::Access {
                op: op.to_string(),
                view: view.clone(),
                space: space_tag(&arr.space),
                elem: self.elem_c(arr),
                scalar: elem,
                rank: self.c_rank(a),
            });
            format!("rb_{op}_{}", view.trim_start_matches("rb_"))
        }
    }

    fn signature(&mut self) -> String {
        let f = self.f;
        let mut params: Vec<String> = Vec::new();
        if f.is_device {
            params.push(if self.cuda() {
                "rumba_fault* rb_fault".into()
            } else {
                "__global uint* rb_fault".into()
            });
        }
        for p in &f.params {
            match p {
                Param::Thread(_) => {}
                Param::Value(l) => {
                    let loc = &f.locals[*l];
                    if self.opencl_f16_param(loc) {
                        // Passed as its 2 bytes; `body` converts it.
                        params.push(format!("ushort {}_bits", loc.c_name));
                    } else {
                        params.push(format!("{} {}", self.ty(&loc.ty), loc.c_name));
                    }
                }
                Param::Array(a) if self.cuda() && !f.is_device && f.arrays[*a].rank == 0 => {
                    // A 0-d argument is its element's address alone (`body` makes its view).
                    let arr = &f.arrays[*a];
                    let elem = self.elem_c(arr);
                    let cst = if arr.space == Space::Const {
                        "const "
                    } else {
                        ""
                    };
                    params.push(format!("rumba_array0<{cst}{elem}> {}_arg", arr.c_name));
                }
                Param::Array(a) => {
                    let arr = &f.arrays[*a];
                    if self.cuda() || f.is_device {
                        // A device function takes the caller's view (on OpenCL, of a struct
                        // type per space: `rb_$sK$_…`, which the linker fills in).
                        let vt = self.view_type(*a);
                        params.push(format!("{vt} {}", arr.c_name));
                    } else {
                        let elem = self.elem_c(arr);
                        let cst = if arr.space == Space::Const {
                            "const "
                        } else {
                            ""
                        };
                        params.push(format!("__global {cst}{elem}* {}_ptr", arr.c_name));
                        params.push(format!("long {}_off", arr.c_name));
                        for k in 0..arr.rank {
                            params.push(format!("long {}_sh{k}", arr.c_name));
                        }
                        for k in 0..arr.rank {
                            params.push(format!("long {}_st{k}", arr.c_name));
                        }
                    }
                }
            }
        }
        let name = f.name.to_string();
        if f.is_device {
            // The linker names each instance (`crate::link`).
            let ret = self.ty(&f.ret);
            let params = params.join(", ");
            if self.cuda() {
                format!("__device__ __forceinline__ {ret} @self@({params})")
            } else {
                format!("static inline {ret} @self@({params})")
            }
        } else if self.cuda() {
            params.push("rumba_fault* rb_fault".into());
            format!("extern \"C\" __global__ void {name}({})", params.join(", "))
        } else {
            params.push("__local ulong* rb_dyn_shared".into());
            params.push("ulong rb_dyn_bytes".into());
            params.push("__global uint* rb_fault".into());
            format!("__kernel void {name}({})", params.join(", "))
        }
    }

    /// An `f16` kernel parameter on OpenCL: C has no `half` parameters without `cl_khr_fp16`.
    fn opencl_f16_param(&self, loc: &Local) -> bool {
        !self.cuda() && !self.f.is_device && loc.ty == Ty::Scalar(Scalar::F16)
    }

    fn body(&mut self) -> String {
        let f = self.f;
        for p in &f.params {
            if let Param::Value(l) = p {
                let loc = &f.locals[*l];
                if self.opencl_f16_param(loc) {
                    let n = &loc.c_name;
                    self.line(&format!("float {n} = rb_h2f({n}_bits);"));
                }
            }
        }
        if !f.is_device {
            // CUDA: the views of 0-d array parameters.
            if self.cuda() {
                for p in &f.params {
                    if let Param::Array(a) = p {
                        let arr = &f.arrays[*a];
                        if arr.rank == 0 {
                            let vt = self.view_type(*a);
                            let n = &arr.c_name;
                            self.line(&format!("{vt} {n} = rb_fixed({n}_arg.data, 1);"));
                        }
                    }
                }
            }
            // OpenCL: build the views of the array parameters.
            if !self.cuda() {
                for p in &f.params {
                    if let Param::Array(a) = p {
                        let arr = &f.arrays[*a];
                        let vt = self.view_type(*a);
                        let elem = self.elem_c(arr);
                        let cst = if arr.space == Space::Const {
                            "const "
                        } else {
                            ""
                        };
                        let n = &arr.c_name;
                        let (sh, st): (Vec<String>, Vec<String>) = if arr.rank == 0 {
                            (vec!["1".into()], vec![format!("(long)sizeof({elem})")])
                        } else {
                            (
                                (0..arr.rank).map(|k| format!("{n}_sh{k}")).collect(),
                                (0..arr.rank).map(|k| format!("{n}_st{k}")).collect(),
                            )
                        };
                        self.line(&format!(
                            "{vt} {n} = {{(__global {cst}{elem}*)((__global {cst}char*){n}_ptr + {n}_off), {{{}}}, {{{}}}}};",
                            sh.join(", "),
                            st.join(", ")
                        ));
                    }
                }
            }
            // Shared memory lives at kernel scope.
            for arr in &f.arrays {
                if arr.space == Space::Shared && arr.base.is_none() {
                    let elem = self.elem_c(arr);
                    let size = self.dims_product(arr);
                    let q = if self.cuda() { "__shared__" } else { "__local" };
                    self.line(&format!("{q} {elem} {}_mem[{size}];", arr.c_name));
                }
            }
            if self.cuda() && f.arrays.iter().any(|a| a.space == Space::DynamicShared) {
                self.line("extern __shared__ unsigned long long rb_dyn_shared[];");
            }
            if !self.cuda() && uses_sync_value(&f.body) {
                self.line("__local int rb_sync[RB_SYNC_LEN];");
            }
            if !self.cuda() && crate::lower::emit::wil::uses_warp_ops(f) {
                // Warp operations exchange values through one 64-bit word per work-item.
                self.line("__local ulong rb_warp[1024];");
            }
        }
        let b = &f.body;
        self.stmts(b);
        std::mem::take(&mut self.out)
    }

    pub(super) fn dims_product(&self, arr: &Array) -> String {
        if arr.dims.is_empty() {
            // A 0-d array: one element.
            return "1".into();
        }
        arr.dims
            .iter()
            .map(|d| self.dim(d))
            .collect::<Vec<_>>()
            .join(" * ")
    }

    /// The C index components of an element of array `a` (a 0-d array's one element is at 0).
    pub(super) fn idx_list(&mut self, idx: &[Expr]) -> Vec<String> {
        if idx.is_empty() {
            return vec!["0".into()];
        }
        idx.iter().map(|e| self.expr(e)).collect()
    }

    pub(super) fn dim(&self, d: &DimSize) -> String {
        match d {
            DimSize::Lit(v) => v.to_string(),
            DimSize::Const(c) => self.f.consts[*c].c_name.clone(),
        }
    }

    pub(super) fn at(&self, site: SiteId) -> String {
        if self.f.is_device {
            "RB_AT(0xffffffffu)".into()
        } else {
            format!("RB_AT({site})")
        }
    }

    fn stmts(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    fn block(&mut self, head: &str, b: &Block) {
        self.line(&format!("{head} {{"));
        self.indent += 1;
        self.stmts(b);
        self.indent -= 1;
        self.line("}");
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let { local, init, .. } => {
                let l = &self.f.locals[*local];
                let (ty, name) = (self.ty(&l.ty), l.c_name.clone());
                match init {
                    Some(e) => {
                        let v = self.expr(e);
                        self.line(&format!("{ty} {name} = {v};"));
                    }
                    None => self.line(&format!("{ty} {name};")),
                }
            }
            Stmt::LetTuple { locals, init, .. } => {
                let parts: Vec<String> = match &init.kind {
                    ExprKind::Tuple(v) => v.iter().map(|e| self.expr(e)).collect(),
                    ExprKind::Thread(ThreadQuery::Grid(n)) => {
                        (0..*n).map(|k| self.grid(k, false)).collect()
                    }
                    ExprKind::Thread(ThreadQuery::GridSize(n)) => {
                        (0..*n).map(|k| self.grid(k, true)).collect()
                    }
                    ExprKind::Math(f @ (MathFn::Frexp | MathFn::Modf), args)
                        if locals.len() == 2 =>
                    {
                        // C's `frexp(x, &e)` / `modf(x, &ip)`: the second part is written
                        // through a pointer to its local, declared first.
                        let x = self.expr(&args[0]);
                        let (l0, l1) = (&self.f.locals[locals[0]], &self.f.locals[locals[1]]);
                        let (t0, t1) = (self.ty(&l0.ty), self.ty(&l1.ty));
                        let cuda = self.target == Target::Cuda;
                        let name = match (f, cuda && args[0].ty.scalar() == Some(Scalar::F32)) {
                            (MathFn::Frexp, true) => "frexpf",
                            (MathFn::Frexp, false) => "frexp",
                            (_, true) => "modff",
                            _ => "modf",
                        };
                        let (n0, n1) = (l0.c_name.clone(), l1.c_name.clone());
                        self.line(&format!("{t1} {n1};"));
                        self.line(&format!("{t0} {n0} = {name}({x}, &{n1});"));
                        return;
                    }
                    // Any other tuple value (a device function's result, a tuple local): once,
                    // then element by element.
                    _ => {
                        let t = self.fresh("tup");
                        let ty = self.ty(&init.ty);
                        let v = self.expr(init);
                        self.line(&format!("{ty} {t} = {v};"));
                        (0..locals.len()).map(|k| format!("{t}.f{k}")).collect()
                    }
                };
                for (l, v) in locals.iter().zip(parts) {
                    let loc = &self.f.locals[*l];
                    let ty = self.ty(&loc.ty);
                    self.line(&format!("{ty} {} = {v};", loc.c_name));
                }
            }
            Stmt::ArrayDecl { array, .. } => self.array_decl(*array),
            Stmt::View {
                array,
                base,
                kind,
                site,
                ..
            } => self.view_decl(*array, *base, kind, *site),
            Stmt::Assign {
                place,
                op,
                value,
                site,
                ..
            } => self.assign(place, *op, value, *site),
            Stmt::Expr(e) => {
                let v = self.expr(e);
                self.line(&format!("{v};"));
            }
            Stmt::If {
                cond, then, els, ..
            } => {
                let c = self.expr(cond);
                self.line(&format!("if ({c}) {{"));
                self.indent += 1;
                self.stmts(then);
                self.indent -= 1;
                match els {
                    Some(b) => {
                        self.line("} else {");
                        self.indent += 1;
                        self.stmts(b);
                        self.indent -= 1;
                        self.line("}");
                    }
                    None => self.line("}"),
                }
            }
            Stmt::While { cond, body, .. } => {
                let c = self.expr(cond);
                self.block(&format!("while ({c})"), body);
            }
            Stmt::Loop { body, .. } => self.block("for (;;)", body),
            Stmt::For {
                var,
                start,
                end,
                inclusive,
                step,
                body,
                ..
            } => {
                let loc = &self.f.locals[*var];
                let (ty, v) = (self.ty(&loc.ty), loc.c_name.clone());
                let s = loc.ty.scalar().unwrap_or(Scalar::I32);
                let (a, b) = (self.expr(start), self.expr(end));
                let e = self.fresh("end");
                match (step, inclusive) {
                    (None, false) => self.block(
                        &format!("for ({ty} {v} = {a}, {e} = {b}; {v} < {e}; {v}++)"),
                        body,
                    ),
                    (None, true) => {
                        let go = self.fresh("go");
                        self.block(
                            &format!("for ({ty} {v} = {a}, {e} = {b}, {go} = ({v} <= {e}); {go}; {go} = ({v} != {e}), {v} += {go})"),
                            body,
                        )
                    }
                    (Some((k, site)), inc) => {
                        let kk = self.expr(k);
                        let kn = self.fresh("step");
                        let w = s.c_work_unsigned().c_name(self.target);
                        let u64_ = Scalar::U64.c_name(self.target);
                        let at = self.at(*site);
                        self.line("{");
                        self.indent += 1;
                        self.line(&format!("{u64_} {kn} = {kk};"));
                        self.line(&format!("if ({kn} == 0) rb_fail({at}, 5); else"));
                        let cmp = if *inc { "<=" } else { "<" };
                        // Advance without overflow: stop at the end when the step would pass it.
                        let next = if *inc {
                            let go = self.fresh("go");
                            let head = format!(
                                "for ({ty} {v} = {a}, {e} = {b}, {go} = ({v} {cmp} {e}); {go}; {go} = (({u64_})(({w}){e} - ({w}){v}) >= {kn}), {v} = {go} ? ({ty})(({w}){v} + ({w}){kn}) : {v})"
                            );
                            head
                        } else {
                            format!(
                                "for ({ty} {v} = {a}, {e} = {b}; {v} {cmp} {e}; {v} = (({u64_})(({w}){e} - ({w}){v}) > {kn}) ? ({ty})(({w}){v} + ({w}){kn}) : {e})"
                            )
                        };
                        self.block(&next, body);
                        self.indent -= 1;
                        self.line("}");
                    }
                }
            }
            Stmt::Break(_) => self.line("break;"),
            Stmt::Continue(_) => self.line("continue;"),
            Stmt::Return(v, _) => match v {
                Some(e) => {
                    let e = self.expr(e);
                    self.line(&format!("return {e};"));
                }
                None => self.line("return;"),
            },
            Stmt::Assert { cond, site, .. } => {
                let c = self.expr(cond);
                let at = self.at(*site);
                self.line(&format!("if (!({c})) rb_fail({at}, 4);"));
            }
            Stmt::Block(b) => self.block("", b),
        }
    }
}

fn uses_sync_value(b: &Block) -> bool {
    let mut found = false;
    visit_exprs(b, &mut |e| {
        if let ExprKind::Sync(k, _) = e.kind {
            found |= k != SyncKind::Plain;
        }
    });
    found
}

/// Calls `f` on every expression of a block.
pub fn visit_exprs(b: &Block, f: &mut dyn FnMut(&Expr)) {
    for s in &b.stmts {
        match s {
            Stmt::Let { init, .. } => {
                if let Some(e) = init {
                    e.visit(f)
                }
            }
            Stmt::LetTuple { init: e, .. } | Stmt::Expr(e) | Stmt::Assert { cond: e, .. } => {
                e.visit(f)
            }
            Stmt::Return(e, _) => {
                if let Some(e) = e {
                    e.visit(f)
                }
            }
            Stmt::Assign { place, value, .. } => {
                place.exprs().into_iter().for_each(|e| e.visit(f));
                value.visit(f);
            }
            Stmt::If {
                cond, then, els, ..
            } => {
                cond.visit(f);
                visit_exprs(then, f);
                if let Some(e) = els {
                    visit_exprs(e, f);
                }
            }
            Stmt::While { cond, body, .. } => {
                cond.visit(f);
                visit_exprs(body, f);
            }
            Stmt::Loop { body, .. } | Stmt::Block(body) => visit_exprs(body, f),
            Stmt::For {
                start,
                end,
                step,
                body,
                ..
            } => {
                start.visit(f);
                end.visit(f);
                if let Some((k, _)) = step {
                    k.visit(f);
                }
                visit_exprs(body, f);
            }
            Stmt::ArrayDecl { .. } | Stmt::Break(_) | Stmt::Continue(_) => {}
            Stmt::View { kind, .. } => kind.exprs().into_iter().for_each(|e| e.visit(f)),
        }
    }
}

/// The signature of a device function's parameters (see [`crate::link::signature`]).
pub fn param_signature(f: &Func) -> String {
    let parts: Vec<String> = f
        .params
        .iter()
        .filter_map(|p| match p {
            Param::Thread(_) => None,
            Param::Value(l) => Some(expr::sig_part(&f.locals[*l].ty)),
            Param::Array(a) => Some(expr::array_sig(&f.arrays[*a])),
        })
        .collect();
    crate::link::signature(&parts)
}

/// Whether a function uses `f64` anywhere (OpenCL needs `cl_khr_fp64`).
pub fn uses_f64(f: &Func) -> bool {
    let is = |t: &Ty| t == &Ty::Scalar(Scalar::F64);
    let mut found =
        f.locals.iter().any(|l| is(&l.ty)) || f.arrays.iter().any(|a| is(&a.elem)) || is(&f.ret);
    visit_exprs(&f.body, &mut |e| found |= is(&e.ty));
    found
}
