//! What the code `#[rumba::kernel]`, `#[rumba::device]` and `#[rumba::record]` generate calls
//! at run time (hidden from the docs: not an API to call by hand).
//!
//! It finishes the generated C programs when a kernel is first built: `#define`s for the consts
//! the kernel names (values only rustc knows), record `typedef`s, the device functions the
//! kernel calls (each once, callees first), then the kernel; see
//! `rumba_kernel_ir::prelude::assemble`. Touches nothing else.

pub use bytemuck;

use crate::driver::HostArg;
use crate::kernel::LaunchConfig;

/// Whether every argument at `positions` is an array the simulator froze for the launch (the
/// block body may then read them all with plain loads).
pub fn frozen_all(args: &[HostArg<'_>], positions: &[usize]) -> bool {
    positions
        .iter()
        .all(|&k| matches!(args.get(k), Some(HostArg::Array(a)) if a.frozen()))
}

/// Whether every argument at `positions` is a contiguous 1-d array the simulator gave the
/// launch alone, and the launch is 1-d (the block body may then store to them with plain
/// own-index stores).
pub fn exclusive_all(args: &[HostArg<'_>], positions: &[usize], config: &LaunchConfig) -> bool {
    let one_d = |d: crate::kernel::Dim3| d.y == 1 && d.z == 1;
    one_d(config.grid)
        && one_d(config.block)
        && positions.iter().all(|&k| {
            matches!(args.get(k), Some(HostArg::Array(a))
                if a.exclusive() && a.strides().len() == 1 && a.strides()[0] == a.itemsize() as isize)
        })
}
pub use rumba_kernel_ir::target::{CLiteral, RecordField, Scalar, Target, f16_from_f64};

/// The identity, at a type the macro inferred: `ty::<usize>(TPB)` makes rustc check that the
/// macro and rustc agree on `TPB`'s type.
#[inline(always)]
pub fn ty<T>(v: T) -> T {
    v
}

/// The exact C literal of a const, at the const's own type (rustc's).
pub fn c_literal_of<T: CLiteral>(v: T, target: Target) -> String {
    v.c_literal(target)
}

/// A record usable in kernels (implemented by `#[rumba::record]`).
pub trait KernelRecord: bytemuck::Pod {
    /// The C type name.
    const C_NAME: &'static str;
    /// The fields, in order.
    const FIELDS: &'static [RecordField];

    /// The C declaration on `target`.
    fn c_decl(target: Target) -> String {
        rumba_kernel_ir::target::record_decl(Self::C_NAME, Self::FIELDS, target)
    }
}

/// A `#[rumba::device]` function's generated parts.
pub struct DeviceFn {
    /// Its name.
    pub name: &'static str,
    /// Its CUDA C text.
    pub cuda: &'static str,
    /// Its OpenCL C text.
    pub opencl: &'static str,
    /// The `#define`s of the consts it names.
    pub defines: fn(Target) -> Vec<(&'static str, String)>,
    /// The records it names.
    pub records: fn(Target) -> Vec<String>,
    /// The device functions it calls.
    pub deps: fn() -> Vec<&'static DeviceFn>,
}

fn add_device(
    d: &'static DeviceFn,
    seen: &mut Vec<*const DeviceFn>,
    order: &mut Vec<&'static DeviceFn>,
) {
    if seen.contains(&(d as *const DeviceFn)) {
        return;
    }
    seen.push(d);
    for dep in (d.deps)() {
        add_device(dep, seen, order);
    }
    order.push(d);
}

/// The whole program for `target`: prelude, defines, records, device functions (callees
/// first, each once), kernel.
pub fn assemble(
    target: Target,
    kernel: &'static str,
    defines: Vec<(&'static str, String)>,
    records: Vec<String>,
    devices: &[&'static DeviceFn],
) -> String {
    let (mut seen, mut order) = (Vec::new(), Vec::new());
    for d in devices {
        add_device(d, &mut seen, &mut order);
    }
    let mut all_defines = Vec::new();
    let mut all_records = Vec::new();
    let push_define = |d: (&'static str, String), all: &mut Vec<(&'static str, String)>| {
        if !all.iter().any(|(n, _)| *n == d.0) {
            all.push(d);
        }
    };
    for d in &order {
        for def in (d.defines)(target) {
            push_define(def, &mut all_defines);
        }
        for r in (d.records)(target) {
            if !all_records.contains(&r) {
                all_records.push(r);
            }
        }
    }
    for def in defines {
        push_define(def, &mut all_defines);
    }
    for r in records {
        if !all_records.contains(&r) {
            all_records.push(r);
        }
    }
    let program = rumba_kernel_ir::prelude::Program {
        defines: all_defines,
        records: all_records,
        device_fns: order
            .iter()
            .map(|d| match target {
                Target::Cuda => d.cuda,
                Target::OpenCl => d.opencl,
            })
            .collect(),
        kernel,
    };
    rumba_kernel_ir::prelude::assemble(target, &program)
}
