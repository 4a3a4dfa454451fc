//! Property test of the lowering's integer and float semantics: random typed expression trees
//! (every integer width, `f32`, `f64`; wrapping `+ - *`, guarded `/ %` including `MIN / -1`
//! and zero divisors, bitwise operators, shifts by any amount, `-`, `!`, `as` between every pair
//! of types including NaN, infinities and out-of-range floats, comparisons, `min max abs`,
//! `wrapping_*`, `sqrt`; float `min`/`max` are left out: their result for ±0 is unspecified in
//! Rust and C alike) are evaluated with Rust's own operators and through the OpenCL C the
//! lowering generates, on a real OpenCL device (PoCL in CI); results must agree bit for bit
//! (NaN agrees with NaN).
//!
//! Without an OpenCL platform the test says so and passes, unless `RUMBA_REQUIRE_OPENCL=1`.

use std::ffi::c_void;
use std::fmt::Write as _;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{CL_DEVICE_TYPE_ALL, CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, Device};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE, ClMem};
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use proptest::prelude::*;
use rumba_kernel_ir::lower::{Options, lower_kernel};
use rumba_kernel_ir::prelude::{Program as CProgram, assemble};
use rumba_kernel_ir::target::{Scalar, Target};

const TYPES: [Scalar; 12] = [
    Scalar::I8,
    Scalar::U8,
    Scalar::I16,
    Scalar::U16,
    Scalar::I32,
    Scalar::U32,
    Scalar::I64,
    Scalar::U64,
    Scalar::Isize,
    Scalar::Usize,
    Scalar::F32,
    Scalar::F64,
];
const N_INPUTS: usize = 6;

/// A value: its type and its bits (zero-extended).
#[derive(Debug, Clone, Copy, PartialEq)]
struct V {
    ty: Scalar,
    bits: u64,
}

trait Prim: Copy {
    fn to_v(self) -> V;
}

macro_rules! prims {
    ($($t:ty => $s:ident, $u:ty);+ $(;)?) => {$(
        impl Prim for $t {
            fn to_v(self) -> V {
                V { ty: Scalar::$s, bits: self as $u as u64 }
            }
        }
    )+};
}
prims!(i8 => I8, u8; u8 => U8, u8; i16 => I16, u16; u16 => U16, u16; i32 => I32, u32; u32 => U32, u32;
    i64 => I64, u64; u64 => U64, u64; isize => Isize, u64; usize => Usize, u64);
impl Prim for f32 {
    fn to_v(self) -> V {
        V {
            ty: Scalar::F32,
            bits: self.to_bits() as u64,
        }
    }
}
impl Prim for f64 {
    fn to_v(self) -> V {
        V {
            ty: Scalar::F64,
            bits: self.to_bits(),
        }
    }
}

/// Calls `$body` with `$x` bound to `v` as its Rust type `$T`.
macro_rules! with {
    ($v:expr, |$x:ident: $T:ident| $body:expr) => {{
        let v = $v;
        match v.ty {
            Scalar::I8 => {
                #[allow(dead_code)]
                type $T = i8;
                let $x = v.bits as u8 as i8;
                $body
            }
            Scalar::U8 => {
                #[allow(dead_code)]
                type $T = u8;
                let $x = v.bits as u8;
                $body
            }
            Scalar::I16 => {
                #[allow(dead_code)]
                type $T = i16;
                let $x = v.bits as u16 as i16;
                $body
            }
            Scalar::U16 => {
                #[allow(dead_code)]
                type $T = u16;
                let $x = v.bits as u16;
                $body
            }
            Scalar::I32 => {
                #[allow(dead_code)]
                type $T = i32;
                let $x = v.bits as u32 as i32;
                $body
            }
            Scalar::U32 => {
                #[allow(dead_code)]
                type $T = u32;
                let $x = v.bits as u32;
                $body
            }
            Scalar::I64 => {
                #[allow(dead_code)]
                type $T = i64;
                let $x = v.bits as i64;
                $body
            }
            Scalar::U64 => {
                #[allow(dead_code)]
                type $T = u64;
                let $x = v.bits;
                $body
            }
            Scalar::Isize => {
                #[allow(dead_code)]
                type $T = isize;
                let $x = v.bits as i64 as isize;
                $body
            }
            Scalar::Usize => {
                #[allow(dead_code)]
                type $T = usize;
                let $x = v.bits as usize;
                $body
            }
            Scalar::F32 | Scalar::F64 | Scalar::Bool | Scalar::F16 => {
                unreachable!("integer expected")
            }
        }
    }};
}

fn cast(v: V, to: Scalar) -> V {
    macro_rules! to {
        ($x:expr) => {
            match to {
                Scalar::I8 => ($x as i8).to_v(),
                Scalar::U8 => ($x as u8).to_v(),
                Scalar::I16 => ($x as i16).to_v(),
                Scalar::U16 => ($x as u16).to_v(),
                Scalar::I32 => ($x as i32).to_v(),
                Scalar::U32 => ($x as u32).to_v(),
                Scalar::I64 => ($x as i64).to_v(),
                Scalar::U64 => ($x as u64).to_v(),
                Scalar::Isize => ($x as isize).to_v(),
                Scalar::Usize => ($x as usize).to_v(),
                Scalar::F32 => ($x as f32).to_v(),
                Scalar::F64 => ($x as f64).to_v(),
                Scalar::Bool | Scalar::F16 => unreachable!(),
            }
        };
    }
    match v.ty {
        Scalar::F32 => to!(f32::from_bits(v.bits as u32)),
        Scalar::F64 => to!(f64::from_bits(v.bits)),
        _ => with!(v, |x: T| to!(x)),
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Min,
    Max,
    Lt,
    Eq,
}

#[derive(Debug, Clone)]
enum E {
    Input(Scalar, usize),
    Lit(V),
    Bin(Op, Box<E>, Box<E>),
    Neg(Box<E>),
    Not(Box<E>),
    Abs(Box<E>),
    Sqrt(Box<E>),
    Cast(Scalar, Box<E>),
}

impl E {
    fn ty(&self) -> Scalar {
        match self {
            E::Input(t, _) => *t,
            E::Lit(v) => v.ty,
            E::Bin(Op::Lt | Op::Eq, ..) => Scalar::U8,
            E::Bin(_, a, _) | E::Neg(a) | E::Not(a) | E::Abs(a) | E::Sqrt(a) => a.ty(),
            E::Cast(t, _) => *t,
        }
    }

    fn rust(&self) -> String {
        match self {
            E::Input(t, k) => format!("in_{}[{k}]", t.rust_name()),
            E::Lit(v) => lit(*v),
            E::Bin(op, a, b) => {
                let (x, y) = (a.rust(), b.rust());
                let t = a.ty();
                match op {
                    Op::Add => format!("({x} + {y})"),
                    Op::Sub => format!("({x} - {y})"),
                    Op::Mul => format!("({x} * {y})"),
                    Op::Div | Op::Rem if t.is_float() => {
                        format!("({x} {} {y})", if *op == Op::Div { "/" } else { "%" })
                    }
                    Op::Div | Op::Rem => {
                        let o = if *op == Op::Div { "/" } else { "%" };
                        let min = if t.is_signed_int() {
                            format!(" && !({x} == {}::MIN && {y} == -1)", t.rust_name())
                        } else {
                            String::new()
                        };
                        format!("(if {y} != 0{min} {{ {x} {o} {y} }} else {{ {x} }})")
                    }
                    Op::And => format!("({x} & {y})"),
                    Op::Or => format!("({x} | {y})"),
                    Op::Xor => format!("({x} ^ {y})"),
                    Op::Shl => format!("({x} << {y})"),
                    Op::Shr => format!("({x} >> {y})"),
                    Op::Min => format!("{x}.min({y})"),
                    Op::Max => format!("{x}.max({y})"),
                    Op::Lt => format!("(({x} < {y}) as u8)"),
                    Op::Eq => format!("(({x} == {y}) as u8)"),
                }
            }
            E::Neg(a) => format!("(-{})", a.rust()),
            E::Not(a) => format!("(!{})", a.rust()),
            E::Abs(a) => format!("{}.abs()", a.rust()),
            E::Sqrt(a) => format!("{}.sqrt()", a.rust()),
            E::Cast(t, a) => format!("({} as {})", a.rust(), t.rust_name()),
        }
    }

    fn eval(&self, inputs: &[Vec<V>]) -> V {
        match self {
            E::Input(t, k) => inputs[TYPES.iter().position(|x| x == t).unwrap()][*k],
            E::Lit(v) => *v,
            E::Bin(op, a, b) => {
                let (x, y) = (a.eval(inputs), b.eval(inputs));
                if x.ty.is_float() {
                    return float_bin(*op, x, y);
                }
                if matches!(op, Op::Shl | Op::Shr) {
                    let amount = with!(y, |s: T| s as u32);
                    return with!(x, |v: T| if *op == Op::Shl {
                        v.wrapping_shl(amount).to_v()
                    } else {
                        v.wrapping_shr(amount).to_v()
                    });
                }
                let yv = y;
                with!(x, |p: T| {
                    let q: T = with!(yv, |r: R| r as T);
                    match op {
                        Op::Add => p.wrapping_add(q).to_v(),
                        Op::Sub => p.wrapping_sub(q).to_v(),
                        Op::Mul => p.wrapping_mul(q).to_v(),
                        Op::Div => p.checked_div(q).unwrap_or(p).to_v(),
                        Op::Rem => p.checked_rem(q).unwrap_or(p).to_v(),
                        Op::And => (p & q).to_v(),
                        Op::Or => (p | q).to_v(),
                        Op::Xor => (p ^ q).to_v(),
                        Op::Min => p.min(q).to_v(),
                        Op::Max => p.max(q).to_v(),
                        Op::Lt => ((p < q) as u8).to_v(),
                        Op::Eq => ((p == q) as u8).to_v(),
                        Op::Shl | Op::Shr => unreachable!(),
                    }
                })
            }
            E::Neg(a) => {
                let x = a.eval(inputs);
                match x.ty {
                    Scalar::F32 => (-f32::from_bits(x.bits as u32)).to_v(),
                    Scalar::F64 => (-f64::from_bits(x.bits)).to_v(),
                    _ => with!(x, |v: T| {
                        let r: T = (0 as T).wrapping_sub(v);
                        r.to_v()
                    }),
                }
            }
            E::Not(a) => with!(a.eval(inputs), |v: T| (!v).to_v()),
            E::Abs(a) => {
                let x = a.eval(inputs);
                match x.ty {
                    Scalar::F32 => f32::from_bits(x.bits as u32).abs().to_v(),
                    Scalar::F64 => f64::from_bits(x.bits).abs().to_v(),
                    _ => with!(x, |v: T| {
                        let zero = 0 as T;
                        let r: T = if v < zero { zero.wrapping_sub(v) } else { v };
                        r.to_v()
                    }),
                }
            }
            E::Sqrt(a) => {
                let x = a.eval(inputs);
                match x.ty {
                    Scalar::F32 => f32::from_bits(x.bits as u32).sqrt().to_v(),
                    _ => f64::from_bits(x.bits).sqrt().to_v(),
                }
            }
            E::Cast(t, a) => cast(a.eval(inputs), *t),
        }
    }
}

fn float_bin(op: Op, x: V, y: V) -> V {
    macro_rules! go {
        ($p:expr, $q:expr) => {{
            let (p, q) = ($p, $q);
            match op {
                Op::Add => (p + q).to_v(),
                Op::Sub => (p - q).to_v(),
                Op::Mul => (p * q).to_v(),
                Op::Div => (p / q).to_v(),
                Op::Rem => (p % q).to_v(),
                Op::Min => p.min(q).to_v(),
                Op::Max => p.max(q).to_v(),
                Op::Lt => ((p < q) as u8).to_v(),
                Op::Eq => ((p == q) as u8).to_v(),
                _ => unreachable!(),
            }
        }};
    }
    if x.ty == Scalar::F32 {
        go!(f32::from_bits(x.bits as u32), f32::from_bits(y.bits as u32))
    } else {
        go!(f64::from_bits(x.bits), f64::from_bits(y.bits))
    }
}

fn lit(v: V) -> String {
    let s = match v.ty {
        Scalar::F32 => {
            let f = f32::from_bits(v.bits as u32);
            if f.is_nan() {
                return "f32::NAN".into();
            }
            if f.is_infinite() {
                return if f > 0.0 {
                    "f32::INFINITY".into()
                } else {
                    "f32::NEG_INFINITY".into()
                };
            }
            format!("{f:?}f32")
        }
        Scalar::F64 => {
            let f = f64::from_bits(v.bits);
            if f.is_nan() {
                return "f64::NAN".into();
            }
            if f.is_infinite() {
                return if f > 0.0 {
                    "f64::INFINITY".into()
                } else {
                    "f64::NEG_INFINITY".into()
                };
            }
            format!("{f:?}f64")
        }
        t => {
            let x = with!(v, |x: T| x as i128);
            if x == t.int_range().0 && x < 0 {
                return format!("{}::MIN", t.rust_name());
            }
            format!("{x}{}", t.rust_name())
        }
    };
    if s.starts_with('-') {
        format!("({s})")
    } else {
        s
    }
}

fn value(ty: Scalar) -> impl Strategy<Value = V> {
    let special_f = prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(-0.0),
        Just(0.0),
        Just(1.0e-310),
        Just(3.0e9),
        Just(-3.0e9),
        Just(1.0e20),
        Just(-1.7),
        Just(2.9),
        Just(255.5),
        Just(-129.0),
        Just(65535.9),
        Just(1.0e-40),
        any::<f64>(),
        -1.0e6..1.0e6f64,
    ];
    match ty {
        Scalar::F32 => special_f.prop_map(|f| (f as f32).to_v()).boxed(),
        Scalar::F64 => special_f.prop_map(|f| f.to_v()).boxed(),
        t => {
            let (lo, hi) = t.int_range();
            prop_oneof![
                Just(lo),
                Just(hi),
                Just(0),
                Just(1),
                Just(-1i128.max(lo)),
                any::<u64>().prop_map(|b| b as i128),
                -300i128..300
            ]
            .prop_map(move |x| {
                cast(
                    V {
                        ty: Scalar::I64,
                        bits: x as i64 as u64,
                    },
                    t,
                )
            })
            .boxed()
        }
    }
}

fn leaf(ty: Scalar) -> BoxedStrategy<E> {
    prop_oneof![
        (0..N_INPUTS).prop_map(move |k| E::Input(ty, k)),
        value(ty).prop_map(E::Lit)
    ]
    .boxed()
}

fn tree(ty: Scalar, depth: u32) -> BoxedStrategy<E> {
    if depth == 0 {
        return leaf(ty);
    }
    let sub = move || tree(ty, depth - 1);
    let float = ty.is_float();
    let mut ops = vec![Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem];
    if !float {
        // Float `min`/`max` of +0.0 and -0.0 may return either zero, in Rust and in C alike:
        // not a property to compare bit for bit.
        ops.extend([Op::Min, Op::Max, Op::And, Op::Or, Op::Xor]);
    }
    let bin = (proptest::sample::select(ops), sub(), sub())
        .prop_map(|(op, a, b)| E::Bin(op, Box::new(a), Box::new(b)));
    let any_ty = proptest::sample::select(TYPES.to_vec());
    let cast = any_ty
        .prop_flat_map(move |from| tree(from, depth - 1))
        .prop_map(move |a| E::Cast(ty, Box::new(a)));
    let mut options: Vec<BoxedStrategy<E>> = vec![leaf(ty), bin.boxed(), cast.boxed()];
    if !float {
        let shift = (
            any::<bool>(),
            sub(),
            proptest::sample::select(TYPES[..10].to_vec())
                .prop_flat_map(move |s| tree(s, depth - 1)),
        )
            .prop_map(|(l, a, b)| {
                E::Bin(if l { Op::Shl } else { Op::Shr }, Box::new(a), Box::new(b))
            });
        options.push(shift.boxed());
        options.push(sub().prop_map(|a| E::Not(Box::new(a))).boxed());
    }
    if float || ty.is_signed_int() {
        options.push(sub().prop_map(|a| E::Neg(Box::new(a))).boxed());
        options.push(sub().prop_map(|a| E::Abs(Box::new(a))).boxed());
    }
    if float {
        options.push(sub().prop_map(|a| E::Sqrt(Box::new(a))).boxed());
    }
    if ty == Scalar::U8 {
        let cmp = (any::<bool>(), proptest::sample::select(TYPES.to_vec()))
            .prop_flat_map(move |(lt, s)| (Just(lt), tree(s, depth - 1), tree(s, depth - 1)))
            .prop_map(|(lt, a, b)| {
                E::Bin(if lt { Op::Lt } else { Op::Eq }, Box::new(a), Box::new(b))
            });
        options.push(cmp.boxed());
    }
    proptest::strategy::Union::new(options).boxed()
}

fn exprs() -> impl Strategy<Value = Vec<E>> {
    proptest::collection::vec(
        proptest::sample::select(TYPES.to_vec()).prop_flat_map(|t| tree(t, 3)),
        24,
    )
}

fn inputs() -> impl Strategy<Value = Vec<Vec<V>>> {
    TYPES
        .iter()
        .map(|&t| proptest::collection::vec(value(t), N_INPUTS))
        .collect::<Vec<_>>()
}

struct Cl {
    context: Context,
    queue: CommandQueue,
    options: String,
}

// SAFETY: OpenCL objects may be used from any thread; every use goes through the mutex below.
unsafe impl Send for Cl {}

/// The one OpenCL device of this test binary (tests run in parallel; they share it).
fn cl() -> Option<std::sync::MutexGuard<'static, Cl>> {
    static CL: std::sync::OnceLock<Result<std::sync::Mutex<Cl>, String>> =
        std::sync::OnceLock::new();
    let open = || -> Result<Cl, String> {
        let platforms = opencl3::platform::get_platforms().map_err(|e| e.to_string())?;
        let id = platforms
            .iter()
            .find_map(|p| p.get_devices(CL_DEVICE_TYPE_ALL).ok()?.first().copied())
            .ok_or("no OpenCL device")?;
        let device = Device::new(id);
        let context = Context::from_device(&device).map_err(|e| e.to_string())?;
        #[allow(deprecated)]
        let queue = CommandQueue::create_default(&context, 0).map_err(|e| e.to_string())?;
        let mut options = String::from("-cl-std=CL1.2");
        if device.single_fp_config().unwrap_or(0) & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT != 0 {
            options.push_str(" -cl-fp32-correctly-rounded-divide-sqrt");
        }
        Ok(Cl {
            context,
            queue,
            options,
        })
    };
    match CL.get_or_init(|| open().map(std::sync::Mutex::new)) {
        Ok(m) => Some(m.lock().unwrap_or_else(|e| e.into_inner())),
        Err(e) => {
            assert!(
                std::env::var("RUMBA_REQUIRE_OPENCL").map_or(true, |v| v != "1"),
                "RUMBA_REQUIRE_OPENCL=1 but OpenCL is unavailable: {e}"
            );
            eprintln!("SKIPPED: OpenCL unavailable ({e})");
            None
        }
    }
}

/// The kernel: one input and one output array per type; expression `k` of type `T` goes to
/// `out_T[slot]`.
fn kernel_source(es: &[E]) -> (String, Vec<(Scalar, usize)>) {
    let mut params = String::from("t: &Thread");
    for t in TYPES {
        let n = t.rust_name();
        let _ = write!(params, ", in_{n}: &Arr<{n}>, out_{n}: &mut Arr<{n}>");
    }
    let mut body = String::new();
    let mut slots = Vec::new();
    let mut count = [0usize; 12];
    for e in es {
        let ty = e.ty();
        let k = TYPES.iter().position(|x| *x == ty).unwrap();
        let _ = writeln!(
            body,
            "    out_{}[{}] = {};",
            ty.rust_name(),
            count[k],
            e.rust()
        );
        slots.push((ty, count[k]));
        count[k] += 1;
    }
    for t in TYPES {
        let n = t.rust_name();
        let _ = writeln!(body, "    out_{n}[63] = in_{n}[0];");
    }
    (
        format!("#[kernel]\nfn props({params}) {{\n    let _ = t.grid1();\n{body}}}\n"),
        slots,
    )
}

fn run(cl: &Cl, es: &[E], inputs: &[Vec<V>]) -> Result<(), String> {
    let (src, slots) = kernel_source(es);
    let item: syn::ItemFn = syn::parse_str(&src).map_err(|e| format!("{e}\n{src}"))?;
    let lowered = lower_kernel(&item, &Options::default())
        .map_err(|e| format!("lowering failed: {e}\n{src}"))?;
    let program = assemble(
        Target::OpenCl,
        &CProgram {
            kernel: &lowered.opencl,
            ..Default::default()
        },
    );
    let prog = Program::create_and_build_from_source(&cl.context, &program, &cl.options)
        .map_err(|l| format!("{l}\n{}", lowered.opencl))?;
    let kernel = Kernel::create(&prog, "props").map_err(|e| e.to_string())?;
    let mut index = 0u32;
    let set = |index: &mut u32, bytes: &[u8]| {
        // SAFETY: `bytes` is the argument's value; OpenCL copies it.
        unsafe {
            cl3::kernel::set_kernel_arg(
                kernel.get(),
                *index,
                bytes.len(),
                bytes.as_ptr() as *const c_void,
            )
        }
        .unwrap();
        *index += 1;
    };
    let mut outs = Vec::new();
    let mut keep = Vec::new();
    for (k, t) in TYPES.iter().enumerate() {
        let size = t.size();
        for (is_out, vals) in [
            (false, inputs[k].clone()),
            (true, vec![V { ty: *t, bits: 0 }; 64]),
        ] {
            let mut bytes = Vec::new();
            for v in &vals {
                bytes.extend_from_slice(&v.bits.to_ne_bytes()[..size]);
            }
            // SAFETY: a fresh buffer, no host pointer.
            let mut buf = unsafe {
                Buffer::<u8>::create(
                    &cl.context,
                    CL_MEM_READ_WRITE,
                    bytes.len(),
                    std::ptr::null_mut(),
                )
            }
            .unwrap();
            // SAFETY: blocking write of the buffer's size.
            unsafe {
                cl.queue
                    .enqueue_write_buffer(&mut buf, CL_BLOCKING, 0, &bytes, &[])
            }
            .unwrap();
            set(&mut index, &(buf.get() as usize).to_ne_bytes());
            set(&mut index, &0i64.to_ne_bytes());
            set(&mut index, &(vals.len() as i64).to_ne_bytes());
            set(&mut index, &(size as i64).to_ne_bytes());
            if is_out {
                outs.push((*t, bytes.len(), keep.len()));
            }
            keep.push(buf);
        }
    }
    // SAFETY: a local argument has a size and no value.
    unsafe { kernel.set_arg_local_buffer(index, 8) }.unwrap();
    index += 1;
    set(&mut index, &0u64.to_ne_bytes());
    // SAFETY: a fresh 128-byte buffer, zeroed below.
    let mut fault =
        unsafe { Buffer::<u8>::create(&cl.context, CL_MEM_READ_WRITE, 128, std::ptr::null_mut()) }
            .unwrap();
    // SAFETY: blocking write of 128 bytes.
    unsafe {
        cl.queue
            .enqueue_write_buffer(&mut fault, CL_BLOCKING, 0, &[0u8; 128], &[])
    }
    .unwrap();
    set(&mut index, &(fault.get() as usize).to_ne_bytes());
    let one = [1usize; 3];
    // SAFETY: all arguments are set as the ABI says.
    unsafe {
        cl.queue.enqueue_nd_range_kernel(
            kernel.get(),
            3,
            std::ptr::null(),
            one.as_ptr(),
            one.as_ptr(),
            &[],
        )
    }
    .unwrap();
    cl.queue.finish().unwrap();
    let mut results = Vec::new();
    for (t, len, b) in outs {
        let mut bytes = vec![0u8; len];
        // SAFETY: blocking read of the buffer's size.
        unsafe {
            cl.queue
                .enqueue_read_buffer(&keep[b], CL_BLOCKING, 0, &mut bytes, &[])
        }
        .unwrap();
        let vals: Vec<V> = bytes
            .chunks_exact(t.size())
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                V {
                    ty: t,
                    bits: u64::from_ne_bytes(w),
                }
            })
            .collect();
        results.push(vals);
    }
    let mut record = [0u8; 128];
    // SAFETY: blocking read of 128 bytes.
    unsafe {
        cl.queue
            .enqueue_read_buffer(&fault, CL_BLOCKING, 0, &mut record, &[])
    }
    .unwrap();
    if record[0] != 0 {
        return Err(format!("unexpected fault record {record:?}\n{src}"));
    }
    for (e, (t, slot)) in es.iter().zip(slots) {
        let want = e.eval(inputs);
        let got = results[TYPES.iter().position(|x| *x == t).unwrap()][slot];
        let nan = |v: V| match v.ty {
            Scalar::F32 => f32::from_bits(v.bits as u32).is_nan(),
            Scalar::F64 => f64::from_bits(v.bits).is_nan(),
            _ => false,
        };
        if want != got && !(nan(want) && nan(got)) {
            return Err(format!(
                "`{}`: Rust {want:?}, OpenCL {got:?}\ninputs {inputs:?}",
                e.rust()
            ));
        }
    }
    Ok(())
}

#[test]
fn expression_trees_agree_between_rust_and_opencl() {
    let Some(cl) = cl() else { return };
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(24),
        ..ProptestConfig::default()
    });
    runner
        .run(&(exprs(), inputs()), |(es, ins)| {
            run(&cl, &es, &ins).map_err(TestCaseError::fail)
        })
        .unwrap();
}

#[test]
fn the_property_can_fail() {
    // A wrong expectation is caught: the harness is not vacuous.
    let Some(cl) = cl() else { return };
    let e = E::Bin(
        Op::Add,
        Box::new(E::Input(Scalar::I32, 0)),
        Box::new(E::Lit(1i32.to_v())),
    );
    let mut ins: Vec<Vec<V>> = TYPES
        .iter()
        .map(|t| vec![V { ty: *t, bits: 0 }; N_INPUTS])
        .collect();
    ins[4][0] = i32::MAX.to_v();
    assert!(
        run(&cl, std::slice::from_ref(&e), &ins).is_ok(),
        "i32::MAX + 1 wraps on both"
    );
    let mut wrong = ins.clone();
    wrong[4][0] = 5i32.to_v();
    // Evaluate against different inputs than the device got: must be reported.
    let (src, _) = kernel_source(std::slice::from_ref(&e));
    assert!(src.contains("out_i32[0] = (in_i32[0] + 1i32);"), "{src}");
    assert_ne!(e.eval(&ins), e.eval(&wrong));
}
