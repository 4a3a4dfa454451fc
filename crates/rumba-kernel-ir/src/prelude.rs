//! Putting a generated C program together at run time: the target's prelude, the `#define`s of
//! the consts the kernel names (values only rustc knows), the record `typedef`s, the device
//! functions and the kernel. Used by the `rumba` crate when a macro kernel is first built, and by
//! this crate's tests. No `syn` needed.

use crate::target::Target;

/// The OpenCL C prelude: pragmas, the fault helpers (checked mode, see `ABI.md`), integer
/// division with Rust's faults, and `syncthreads_count/and/or` on a local counter.
pub const OPENCL_PRELUDE: &str = include_str!("prelude.cl");

/// What a CUDA program that uses `f16` adds after the device header: `rb_f16` (an `f16`'s bits)
/// and its conversions. NVRTC has no built-in cuda_fp16.h (the pip package ships none), so these
/// use the PTX instructions cuda_fp16.h itself uses (`cvt.f32.f16`, `cvt.rn.f16.f32`), which
/// every architecture has; an operation is `rb_f2h(rb_h2f(a) op rb_h2f(b))`, bit for bit what
/// `__hadd` / `__hsub` / `__hmul` give (correctly rounded). `f64` to `f16` rounds once (to odd
/// on the way to `float`, then to nearest even), as `__double2half` does.
pub const CUDA_F16: &str = r#"
typedef struct __align__(2) { unsigned short bits; } rb_f16;
__device__ __forceinline__ rb_f16 rb_hbits(unsigned short b) { rb_f16 h; h.bits = b; return h; }
__device__ __forceinline__ float rb_h2f(rb_f16 h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
    return f;
}
__device__ __forceinline__ rb_f16 rb_f2h(float f) {
    rb_f16 h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(f));
    return h;
}
__device__ __forceinline__ rb_f16 rb_d2h(double x) {
    float f = (float)x;
    if (isnan(f) || (double)f == x) return rb_f2h(f);
    unsigned int b = __float_as_uint(f);
    if (fabs((double)f) > fabs(x)) b -= 1u;
    return rb_f2h(__uint_as_float(b | 1u));
}
__device__ __forceinline__ rb_f16 rb_hneg(rb_f16 a) { return rb_hbits((unsigned short)(a.bits ^ 0x8000u)); }
__device__ __forceinline__ rb_f16 rb_hmax(rb_f16 a, rb_f16 b) {
    float x = rb_h2f(a), y = rb_h2f(b);
    return (isnan(x) || y > x) ? b : a;
}
__device__ __forceinline__ rb_f16 rb_hmin(rb_f16 a, rb_f16 b) {
    float x = rb_h2f(a), y = rb_h2f(b);
    return (isnan(x) || y < x) ? b : a;
}
"#;

/// The parts of one program.
#[derive(Debug, Clone, Default)]
pub struct Program<'a> {
    /// `(name, C literal)` of each const, in order.
    pub defines: Vec<(&'a str, String)>,
    /// Record declarations (`target::record_decl`), each once.
    pub records: Vec<String>,
    /// Device functions' C text, callees before callers, each once.
    pub device_fns: Vec<&'a str>,
    /// The kernel's C text.
    pub kernel: &'a str,
}

/// The whole translation unit for `target`. On CUDA it starts with `#include "rumba_device.h"`
/// (the CUDA backend inlines the header before NVRTC sees it).
///
/// ```
/// use rumba_kernel_ir::prelude::{assemble, Program};
/// use rumba_kernel_ir::target::Target;
/// let p = Program { defines: vec![("TPB", "16ull".into())], kernel: "/* k */", ..Default::default() };
/// let src = assemble(Target::Cuda, &p);
/// assert!(src.starts_with("#include \"rumba_device.h\"\n"));
/// assert!(src.contains("#define TPB 16ull\n"));
/// ```
pub fn assemble(target: Target, p: &Program<'_>) -> String {
    let mut s = String::new();
    match target {
        Target::Cuda => {
            s.push_str("#include \"rumba_device.h\"\n");
            let uses = |t: &str| t.contains("rb_f16") || t.contains("rb_hbits");
            let half = uses(p.kernel)
                || p.device_fns.iter().any(|d| uses(d))
                || p.defines.iter().any(|(_, v)| uses(v));
            if half {
                s.push_str(CUDA_F16);
            }
        }
        Target::OpenCl => s.push_str(OPENCL_PRELUDE),
    }
    if !p.defines.is_empty() {
        s.push('\n');
        for (name, value) in &p.defines {
            s.push_str(&format!("#define {name} {value}\n"));
        }
    }
    for r in &p.records {
        s.push('\n');
        s.push_str(r);
    }
    for d in &p.device_fns {
        s.push('\n');
        s.push_str(d);
    }
    s.push('\n');
    s.push_str(p.kernel);
    s
}
