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

use bytemuck::Pod;

use crate::driver::HostArg;
use crate::driver::engine::wil::own_index_layout;
use crate::kernel::{LaunchConfig, MemorySpace, View};

/// Whether every argument at `positions` is an array the simulator froze for the launch (the
/// block body may then read them all with plain loads).
pub fn frozen_all(args: &[HostArg<'_>], positions: &[usize]) -> bool {
    positions
        .iter()
        .all(|&k| matches!(args.get(k), Some(HostArg::Array(a)) if a.frozen()))
}

/// Whether every argument at `positions` is an array the simulator gave the launch alone, with
/// a layout that takes plain own-index stores in this launch — a contiguous 1-d array in a 1-d
/// launch, or a 2-d array with contiguous, non-overlapping rows in a launch one block and one
/// grid layer deep along z (the block body may then store to them with plain own-index stores).
pub fn exclusive_all(args: &[HostArg<'_>], positions: &[usize], config: &LaunchConfig) -> bool {
    positions.iter().all(|&k| {
        matches!(args.get(k), Some(HostArg::Array(a))
            if a.exclusive() && own_index_layout(a.shape(), a.strides(), a.itemsize(), config))
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
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `#[rumba::record]` struct, which is what kernels take and build",
    label = "not a kernel record",
    note = "declare it with `#[rumba::kernel::record]` (fields of number types or one-dimensional arrays of them)"
)]
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

/// An array a kernel or device function passes to a device function that only reads it (a
/// `&Arr<T>` parameter), or that is read-only where it comes from.
pub struct Ro<'a, T, S>(View<'a, T, S>);

/// An array a kernel or device function passes writable: it may go to a `&mut Arr<T>`
/// parameter as well as to a `&Arr<T>` one.
pub struct Rw<'a, T, S>(View<'a, T, S>);

/// A device function's array parameter `&Arr<T>`: any array of `T`, read-only or writable, in
/// any memory space.
pub trait ArrIn<'a, T: Pod> {
    /// The memory space of the array passed.
    type Space: MemorySpace;
    /// The array's view.
    fn into_view(self) -> View<'a, T, Self::Space>;
}

/// A device function's array parameter `&mut Arr<T>`: a writable array only.
#[diagnostic::on_unimplemented(
    message = "this device function writes its array parameter (`&mut Arr<T>`), but the array passed is read-only",
    label = "a read-only array (a `&Arr<T>` or `&ConstArr<T>` parameter, or a view of one)",
    note = "declare the array `&mut Arr<T>` where it comes from, or make the device function's parameter `&Arr<T>`"
)]
pub trait ArrOut<'a, T: Pod>: ArrIn<'a, T> {}

impl<'a, T: Pod, S: MemorySpace> ArrIn<'a, T> for Ro<'a, T, S> {
    type Space = S;
    #[inline(always)]
    fn into_view(self) -> View<'a, T, S> {
        self.0
    }
}

impl<'a, T: Pod, S: MemorySpace> ArrIn<'a, T> for Rw<'a, T, S> {
    type Space = S;
    #[inline(always)]
    fn into_view(self) -> View<'a, T, S> {
        self.0
    }
}

impl<'a, T: Pod, S: MemorySpace> ArrOut<'a, T> for Rw<'a, T, S> {}

/// A view, or a reference to one (how a kernel body holds its arrays).
pub trait AsView<'a, T, S> {
    /// The view.
    fn as_view(&self) -> View<'a, T, S>;
}

impl<'a, T, S> AsView<'a, T, S> for View<'a, T, S> {
    #[inline(always)]
    fn as_view(&self) -> View<'a, T, S> {
        *self
    }
}

impl<'a, T, S> AsView<'a, T, S> for &View<'a, T, S> {
    #[inline(always)]
    fn as_view(&self) -> View<'a, T, S> {
        **self
    }
}

/// Array `v` passed read-only to a device function.
#[inline(always)]
pub fn ro<'a, T, S, V: AsView<'a, T, S>>(v: &V) -> Ro<'a, T, S> {
    Ro(v.as_view())
}

/// Array `v` passed writable to a device function.
#[inline(always)]
pub fn rw<'a, T, S, V: AsView<'a, T, S>>(v: &V) -> Rw<'a, T, S> {
    Rw(v.as_view())
}

/// A view of field `field` of every record of `v` (what a kernel's `a[i].b = v` stores
/// through): same shape and strides, the field's type. Faults the thread if `field` is not a
/// field of the record (it is: the macro writes `|r| &r.b`).
#[inline(always)]
pub fn field_view<'a, T: Pod, U: Pod, S: MemorySpace, V: AsView<'a, T, S>>(
    v: &V,
    field: fn(&T) -> &U,
) -> View<'a, U, S> {
    v.as_view().project(field)
}

/// A view of the elements of sub-array field `field` of every record of `v`: one more axis,
/// the field's length (what `a[i].v[k] = x` stores through).
#[inline(always)]
pub fn subarray_view<'a, T: Pod, U: Pod, const N: usize, S: MemorySpace, V: AsView<'a, T, S>>(
    v: &V,
    field: fn(&T) -> &[U; N],
) -> View<'a, U, S> {
    v.as_view().project(field).subarray()
}

/// `bytes(b"abc")` for a `[u8; N]` field: the bytes, then zeros (NumPy's `S` dtype). Faults
/// the thread if the string is longer than the field.
pub fn bytes<const N: usize>(b: &[u8]) -> [u8; N] {
    // A panic in a kernel body is the thread's fault.
    assert!(
        b.len() <= N,
        "a byte string of {} bytes does not fit a field of {N}",
        b.len()
    );
    let mut out = [0u8; N];
    out[..b.len()].copy_from_slice(b);
    out
}
