//! Putting a generated C program together at run time: the target's prelude, the `#define`s of
//! the consts the kernel names (values only rustc knows), the record `typedef`s, the device
//! functions and the kernel. Used by the `rumba` crate when a macro kernel is first built, and by
//! this crate's tests. No `syn` needed.

use crate::target::Target;

/// The OpenCL C prelude: pragmas, the fault helpers (checked mode, see `ABI.md`), integer
/// division with Rust's faults, and `syncthreads_count/and/or` on a local counter.
pub const OPENCL_PRELUDE: &str = include_str!("prelude.cl");

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
        Target::Cuda => s.push_str("#include \"rumba_device.h\"\n"),
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
