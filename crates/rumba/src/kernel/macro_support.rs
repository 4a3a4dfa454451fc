//! What the code `#[rumba::kernel]`, `#[rumba::device]` and `#[rumba::record]` generate calls
//! at run time (hidden from the docs: not an API to call by hand).
//!
//! It finishes the generated C programs when a kernel is first built: `#define`s for the consts
//! the kernel names (values only rustc knows), record `typedef`s, the device functions the
//! kernel calls (each once, callees first), then the kernel; see
//! `rumba_kernel_ir::prelude::assemble`. Touches nothing else.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

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

pub use rumba_kernel_ir::link::{DeviceFn, DeviceInstance};

/// The whole program for `target`: prelude, defines, records, the device-function instances the
/// kernel reaches (callees first, each once; see `rumba_kernel_ir::link`), kernel.
pub fn assemble(
    target: Target,
    kernel: &'static str,
    defines: Vec<(&'static str, String)>,
    records: Vec<String>,
    devices: &[&'static DeviceFn],
) -> String {
    let linked = rumba_kernel_ir::link::link(target, kernel, devices);
    let mut all_defines = Vec::new();
    let mut all_records = Vec::new();
    let push_define = |d: (&'static str, String), all: &mut Vec<(&'static str, String)>| {
        if !all.iter().any(|(n, _)| *n == d.0) {
            all.push(d);
        }
    };
    for d in &linked.reached {
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
        device_fns: linked.device_fns.iter().map(String::as_str).collect(),
        kernel: &linked.text,
    };
    rumba_kernel_ir::prelude::assemble(target, &program)
}

/// The instances of generic kernels, made once per key type `K` (a type generated per kernel,
/// generic over the kernel's parameters) and cloned out afterwards.
pub fn instance<K: 'static, V: Clone + Send + Sync + 'static>(make: impl FnOnce() -> V) -> V {
    type Map = HashMap<TypeId, Box<dyn Any + Send + Sync>>;
    static INSTANCES: OnceLock<Mutex<Map>> = OnceLock::new();
    let map = INSTANCES.get_or_init(Default::default);
    let key = TypeId::of::<K>();
    let found = map
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&key)
        .and_then(|v| v.downcast_ref::<V>().cloned());
    if let Some(v) = found {
        return v;
    }
    // Made outside the lock (making a kernel assembles its sources); the first one stored wins.
    let made = make();
    let mut m = map.lock().unwrap_or_else(|e| e.into_inner());
    m.entry(key)
        .or_insert_with(|| Box::new(made))
        .downcast_ref::<V>()
        .cloned()
        .expect("one value type per key")
}

/// `v` as the generic type `T` it is (a generic kernel's instance, chosen by `TypeId`).
///
/// # Panics
/// If `v` is not a `T` (the generated dispatch compares the same types first).
pub fn same_type<T: 'static>(v: Box<dyn Any>) -> T {
    *v.downcast::<T>()
        .expect("the instance has the generic function's types")
}
