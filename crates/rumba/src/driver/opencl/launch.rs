//! User kernels on OpenCL: the OpenCL C form of a kernel built once per device and source,
//! arguments packed per the kernel ABI (`crates/rumba-kernel-ir/ABI.md` §3), the fault record
//! read back and turned into [`Error::KernelFault`] at the stream's next synchronization.
//!
//! Argument layouts, chosen by the number of parameters the built kernel declares
//! (`CL_KERNEL_NUM_ARGS`):
//! - **generated** (what `#[rumba::kernel]` emits): each array as `2N + 2` arguments (SVM
//!   pointer of element (0,…,0), byte offset 0, N extents, N byte strides), each scalar or record
//!   by value, then the hidden `__local` dynamic shared memory, its size in bytes, and the
//!   128-byte fault record;
//! - the same **without the hidden parameters** (hand-written kernels that need no shared
//!   memory and report no faults);
//! - **pointers only**: each array as its SVM pointer alone, scalars by value (the simplest
//!   hand-written form, `__global float *a`).
//!
//! Launch geometry: global size `grid × block`, local size `block`, checked against the device's
//! work-group limits and local memory before anything is queued.
//!
//! This module touches the kernel objects it builds and the streams it queues on.

use std::collections::HashMap;
use std::ffi::c_void;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use opencl3::command_queue::{enqueue_nd_range_kernel, enqueue_svm_mem_cpy, enqueue_svm_mem_fill};
use opencl3::kernel::{
    CL_KERNEL_LOCAL_MEM_SIZE, CL_KERNEL_NUM_ARGS, get_kernel_info, get_kernel_work_group_info,
    set_kernel_arg, set_kernel_arg_svm_pointer,
};
use opencl3::memory::{CL_MEM_READ_WRITE, svm_alloc, svm_free};
use opencl3::types::{CL_NON_BLOCKING, cl_context, cl_device_id, cl_kernel, cl_mem};

use super::builtin::{BUILD_OPTIONS, Built, FAST_MATH_OPTIONS, build, kernel};
use super::error::check;
use super::grid_widths::Slot;
use super::memory::Table;
use super::platform::DeviceSurvey;
use super::raw::{ClEvent, ClKernel};
use super::stream::{DeviceQueues, wait_ptr};
use super::strided::check_range;
use crate::driver::kernel::device_fault;
use crate::driver::{KernelArg, KernelLaunch, OpenClKernelSource, StreamHandle};
use crate::error::{ArgumentError, Error, Result, StridesError};
use crate::sync::lock;
use rumba_kernel_ir::abi::KernelAbi;

/// Bytes of the fault record (ABI §5).
pub(crate) const FAULT_BYTES: usize = 128;

/// How a built kernel takes its arguments (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    Generated,
    NoHidden,
    Pointers,
}

/// The layout for a kernel declaring `declared` parameters, given the launch's arguments.
pub(crate) fn layout(name: &str, declared: usize, args: &[KernelArg]) -> Result<Layout> {
    let flat: usize = args
        .iter()
        .map(|a| match a {
            KernelArg::Array(arr) => 2 + 2 * arr.shape.len(),
            KernelArg::Scalar(_) => 1,
        })
        .sum();
    if declared == flat + 3 {
        Ok(Layout::Generated)
    } else if declared == flat {
        Ok(Layout::NoHidden)
    } else if declared == args.len() {
        Ok(Layout::Pointers)
    } else {
        Err(Error::KernelParameters {
            kernel: name.to_owned(),
            declared,
            arguments: args.len(),
            generated: flat + 3,
            flat,
            plain: args.len(),
        })
    }
}

/// Checks grid, block and dynamic local memory against the device.
pub(crate) fn check_geometry(launch: &KernelLaunch<'_>, d: &DeviceSurvey) -> Result<()> {
    let name = &launch.function.name;
    let refuse = |reason: String| Error::InvalidLaunch {
        grid: launch.grid,
        block: launch.block,
        dynamic_shared_bytes: launch.dynamic_shared_bytes,
        reason,
    };
    if launch.grid.contains(&0) || launch.block.contains(&0) {
        return Err(refuse(format!(
            "kernel '{name}': every grid and block dimension must be at least 1"
        )));
    }
    let threads: u64 = launch.block.iter().map(|&b| b as u64).product();
    if threads > d.max_work_group {
        return Err(refuse(format!(
            "kernel '{name}': a block of {threads} threads exceeds the device's largest work-group ({})",
            d.max_work_group
        )));
    }
    for (axis, (&b, &max)) in launch.block.iter().zip(&d.max_work_item_sizes).enumerate() {
        if b as u64 > max {
            return Err(refuse(format!(
                "kernel '{name}': block dimension {axis} is {b}, the device allows {max}"
            )));
        }
    }
    if launch.dynamic_shared_bytes as u64 > d.local_memory {
        return Err(refuse(format!(
            "kernel '{name}': {} bytes of dynamic shared memory exceed the device's {} bytes of local memory",
            launch.dynamic_shared_bytes, d.local_memory
        )));
    }
    Ok(())
}

/// Checks the kernel's own local memory and the launch's dynamic shared memory together against
/// the device's local memory per work-group: the rule of every backend (static plus dynamic
/// shared memory per block within the device's limit). PoCL runs a kernel beyond it without a
/// word.
fn check_local_memory(
    launch: &KernelLaunch<'_>,
    static_local: u64,
    d: &DeviceSurvey,
) -> Result<()> {
    let dynamic = launch.dynamic_shared_bytes as u64;
    if static_local.saturating_add(dynamic) > d.local_memory {
        return Err(Error::InvalidLaunch {
            grid: launch.grid,
            block: launch.block,
            dynamic_shared_bytes: launch.dynamic_shared_bytes,
            reason: format!(
                "kernel '{}': {static_local} bytes of static and {dynamic} bytes of dynamic shared memory, more than the device's {} bytes per block",
                launch.function.name, d.local_memory
            ),
        });
    }
    Ok(())
}

/// The decoded fault record, or `None` when no thread faulted (ABI §5).
pub(crate) fn decode_fault(kernel: &str, rec: &[u8; FAULT_BYTES]) -> Option<Error> {
    let u32_at = |o: usize| u32::from_ne_bytes([rec[o], rec[o + 1], rec[o + 2], rec[o + 3]]);
    let u64_at = |o: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&rec[o..o + 8]);
        u64::from_ne_bytes(b)
    };
    if u32_at(0) == 0 {
        return None;
    }
    let code = u32_at(4);
    let site = u32_at(8);
    let ndim = (u32_at(12) as usize).min(3);
    let block = [u32_at(16), u32_at(20), u32_at(24)];
    let thread = [u32_at(28), u32_at(32), u32_at(36)];
    let index: Vec<u64> = (0..ndim).map(|k| u64_at(40 + 8 * k)).collect();
    let shape: Vec<u64> = (0..ndim).map(|k| u64_at(64 + 8 * k)).collect();
    let tuple = |v: &[u64]| {
        let items: Vec<String> = v.iter().map(|x| (*x as i64).to_string()).collect();
        if items.len() == 1 {
            format!("({},)", items[0])
        } else {
            format!("({})", items.join(", "))
        }
    };
    let what = match code {
        1 => format!(
            "index {} is out of bounds for shape {}",
            tuple(&index),
            tuple(&shape)
        ),
        2 => "integer division by zero".to_string(),
        3 => "integer division overflow (MIN / -1)".to_string(),
        4 => "assertion failed".to_string(),
        5 => "step_by(0)".to_string(),
        6 => "invalid array view".to_string(),
        other => format!("fault code {other}"),
    };
    Some(Error::KernelFault {
        kernel: kernel.to_string(),
        block,
        thread,
        message: format!("{what} (fault site {site})"),
    })
}

/// The fault a kernel's record holds, if any: decoded with the kernel's own site table when it
/// has one (a macro kernel's names the array, operation and source line).
pub(crate) fn record_fault(
    kernel: &str,
    abi: Option<&KernelAbi>,
    rec: &[u8; FAULT_BYTES],
) -> Option<Error> {
    match abi {
        Some(abi) => device_fault(kernel, abi, &rec[..]),
        None => decode_fault(kernel, rec),
    }
}

/// The build options of a user kernel: OpenCL C 1.2 with correctly rounded `/` and `sqrt`
/// where the device offers them, or `-cl-fast-relaxed-math` for a `fastmath` kernel.
fn build_options(fast_math: bool, exact_f32_divide: bool) -> String {
    let mut options = BUILD_OPTIONS.to_string();
    if fast_math {
        options.push(' ');
        options.push_str(FAST_MATH_OPTIONS);
    } else if exact_f32_divide {
        options.push_str(" -cl-fp32-correctly-rounded-divide-sqrt");
    }
    options
}

/// The key of a built kernel: the device and a hash of what the build depends on. Taken at every
/// launch, over sources of several KiB, so with rustc-hash's FxHasher rather than SipHash (which
/// took about an eighth of an OpenCL launch's host time); the sources are the program's own, so
/// flooding resistance buys nothing.
fn cache_key(device: usize, src: &OpenClKernelSource) -> (usize, u64) {
    let mut h = rustc_hash::FxHasher::default();
    src.source.hash(&mut h);
    src.entry.hash(&mut h);
    src.fast_math.hash(&mut h);
    (device, h.finish())
}

/// A built user kernel, how many parameters it declares and its static local memory.
pub(crate) struct UserKernel {
    built: Built,
    declared: usize,
    /// Bytes of `__local` memory the kernel declares itself (`CL_KERNEL_LOCAL_MEM_SIZE` before
    /// any argument is set): with the launch's dynamic shared memory, what a block needs.
    static_local: u64,
    /// What it was built from (source, entry point, fast math): a hit of the cache is checked
    /// against it, so two sources whose hashes collide never share a kernel.
    from: (String, String, bool),
}

/// Built user kernels per (device, source) and reusable fault records.
#[derive(Default)]
pub(crate) struct UserKernels {
    built: Mutex<HashMap<(usize, u64), Arc<UserKernel>>>,
    /// Fault records (128-byte SVM allocations) free for reuse.
    records: Arc<Mutex<Vec<usize>>>,
}

impl UserKernels {
    fn get(
        &self,
        context: cl_context,
        device: usize,
        device_id: cl_device_id,
        survey: &DeviceSurvey,
        src: &OpenClKernelSource,
    ) -> Result<Arc<UserKernel>> {
        let key = cache_key(device, src);
        let from = |k: &UserKernel| {
            k.from.0 == src.source && k.from.1 == src.entry && k.from.2 == src.fast_math
        };
        if let Some(k) = lock(&self.built).get(&key).filter(|k| from(k)) {
            return Ok(Arc::clone(k));
        }
        let options = build_options(src.fast_math, survey.exact_f32_divide);
        let program = build(context, device_id, &src.entry, &src.source, &options)?;
        let k = kernel(&program, &src.entry)?;
        let declared = check(
            "clGetKernelInfo(CL_KERNEL_NUM_ARGS)",
            get_kernel_info(k.raw(), CL_KERNEL_NUM_ARGS),
        )?
        .to_uint() as usize;
        let static_local = check(
            "clGetKernelWorkGroupInfo(CL_KERNEL_LOCAL_MEM_SIZE)",
            get_kernel_work_group_info(k.raw(), device_id, CL_KERNEL_LOCAL_MEM_SIZE),
        )?
        .to_ulong();
        let uk = Arc::new(UserKernel {
            built: Built::new(program, k),
            declared,
            static_local,
            from: (src.source.clone(), src.entry.clone(), src.fast_math),
        });
        lock(&self.built).insert(key, Arc::clone(&uk));
        Ok(uk)
    }

    fn record(&self, context: cl_context) -> Result<usize> {
        if let Some(p) = lock(&self.records).pop() {
            return Ok(p);
        }
        // SAFETY: plain coarse-grained SVM for a context whose devices all offer it.
        let p = unsafe { svm_alloc(context, CL_MEM_READ_WRITE, FAULT_BYTES, 0) }
            .map_err(|code| super::error::map("clSVMAlloc(fault record)", code))?;
        Ok(p as usize)
    }

    /// Frees every cached fault record (the driver is going away).
    pub(crate) fn release(&self, context: cl_context) {
        for p in lock(&self.records).drain(..) {
            // SAFETY: allocated by clSVMAlloc in `context`; no queued work uses a free record.
            unsafe {
                let _ = svm_free(context, p as *mut c_void);
            }
        }
    }
}

/// Everything a launch needs from the driver.
pub(crate) struct Target<'a> {
    pub(crate) context: cl_context,
    pub(crate) device: usize,
    pub(crate) device_id: cl_device_id,
    pub(crate) survey: &'a DeviceSurvey,
    pub(crate) queues: &'a Arc<DeviceQueues>,
    pub(crate) table: &'a Table,
    pub(crate) kernels: &'a UserKernels,
}

/// Sets argument `idx` to an SVM pointer (or a null global pointer).
///
/// # Safety
/// `ptr` lies in a live SVM allocation of the kernel's context, or is 0.
unsafe fn set_pointer(k: cl_kernel, idx: u32, ptr: u64) -> Result<()> {
    if ptr == 0 {
        // SAFETY: a NULL arg value sets a NULL memory-object argument.
        check("clSetKernelArg(null array)", unsafe {
            set_kernel_arg(k, idx, std::mem::size_of::<cl_mem>(), std::ptr::null())
        })
    } else {
        // SAFETY: forwarded from the caller.
        check("clSetKernelArgSVMPointer", unsafe {
            set_kernel_arg_svm_pointer(k, idx, ptr as usize as *const c_void)
        })
    }
}

/// Sets a by-value argument.
///
/// # Safety
/// `k` is a kernel whose argument `idx` has `bytes.len()` bytes.
unsafe fn set_value(k: cl_kernel, idx: u32, bytes: &[u8], what: &str) -> Result<()> {
    // SAFETY: OpenCL copies `bytes.len()` bytes from the slice.
    check(what, unsafe {
        set_kernel_arg(k, idx, bytes.len(), bytes.as_ptr().cast())
    })
}

/// A launch that passed every check ([`check_launch`]): its kernel, built for the device, and
/// how the kernel takes its arguments.
pub(crate) struct Checked {
    pub(crate) kernel: Arc<UserKernel>,
    pub(crate) layout: Layout,
}

/// Everything a launch checks before anything is queued: the kernel's OpenCL form (and that it
/// names no program-global constants), the geometry, every array argument's strides and range,
/// the kernel itself (built on first use), its local memory with the launch's, and the layout of
/// its parameters.
///
/// # Errors
/// The launch's [`Error::InvalidLaunch`], [`Error::KernelArgument`], [`Error::KernelParameters`],
/// [`Error::Unsupported`], or the build's error.
pub(crate) fn check_launch(t: &Target<'_>, launch: &KernelLaunch<'_>) -> Result<Checked> {
    let name = &launch.function.name;
    let src = launch
        .function
        .require::<OpenClKernelSource>(crate::driver::BackendKind::OpenCl)?;
    if !src.constants.is_empty() {
        return Err(Error::Unsupported {
            backend: "opencl".into(),
            feature: "constants as program globals".into(),
            reason: format!(
                "kernel '{name}' names {} constant(s); the OpenCL backend passes constant data as read-only array arguments (as #[rumba::kernel] does)",
                src.constants.len()
            ),
        });
    }
    check_geometry(launch, t.survey)?;
    for (i, a) in launch.args.iter().enumerate() {
        if let KernelArg::Array(arr) = a {
            if arr.shape.len() != arr.strides.len() {
                return Err(Error::KernelArgument {
                    kernel: name.clone(),
                    position: i,
                    parameter: None,
                    problem: ArgumentError::Layout(Box::new(
                        StridesError::Count {
                            shape: arr.shape.clone(),
                            strides: arr.strides.clone(),
                        }
                        .into(),
                    )),
                });
            }
            if arr.size() > 0 {
                // Worded as the simulator words it, so a caller sees one message on both.
                check_range(t.table, arr.ptr, &arr.shape, &arr.strides, arr.itemsize).map_err(
                    |e| Error::KernelArgument {
                        kernel: name.clone(),
                        position: i,
                        parameter: None,
                        problem: ArgumentError::Placement(Box::new(e)),
                    },
                )?;
            }
        }
    }
    let kernel = t
        .kernels
        .get(t.context, t.device, t.device_id, t.survey, src)?;
    check_local_memory(launch, kernel.static_local, t.survey)?;
    let layout = layout(name, kernel.declared, launch.args)?;
    Ok(Checked { kernel, layout })
}

impl UserKernel {
    /// A new kernel object of the built program, owned by the caller alone.
    pub(crate) fn new_kernel(&self) -> Result<ClKernel> {
        self.built.new_kernel(&self.from.1)
    }
}

/// The global and local sizes of `launch`: `grid × block` and `block`.
pub(crate) fn sizes(launch: &KernelLaunch<'_>) -> ([usize; 3], [usize; 3]) {
    let local = launch.block.map(|b| b as usize);
    let global = std::array::from_fn(|k| launch.grid[k] as usize * local[k]);
    (global, local)
}

/// Sets every argument of `launch` on `k` in `layout` except the fault record; returns the
/// index of the fault record's parameter when the layout has one.
///
/// # Safety
/// Nothing else sets `k`'s arguments meanwhile; every array argument was checked
/// ([`check_launch`]).
pub(crate) unsafe fn set_args(
    k: cl_kernel,
    launch: &KernelLaunch<'_>,
    layout: Layout,
) -> Result<Option<u32>> {
    let mut idx = 0u32;
    for a in launch.args {
        match a {
            KernelArg::Array(arr) => {
                let ptr = if arr.size() == 0 { 0 } else { arr.ptr };
                // SAFETY: `ptr` was checked against the table (or is 0 for size 0).
                unsafe { set_pointer(k, idx, ptr)? };
                idx += 1;
                if layout != Layout::Pointers {
                    let longs = std::iter::once(0i64)
                        .chain(arr.shape.iter().map(|&n| n as i64))
                        .chain(arr.strides.iter().map(|&s| s as i64));
                    for v in longs {
                        // SAFETY: ABI §3: `long` offset, extents and strides.
                        unsafe {
                            set_value(k, idx, &v.to_ne_bytes(), "clSetKernelArg(array layout)")?
                        };
                        idx += 1;
                    }
                }
            }
            KernelArg::Scalar(bytes) => {
                // SAFETY: a scalar or record by value, in argument order.
                unsafe { set_value(k, idx, bytes, "clSetKernelArg(scalar)")? };
                idx += 1;
            }
        }
    }
    if layout != Layout::Generated {
        return Ok(None);
    }
    let dyn_bytes = launch.dynamic_shared_bytes.max(8);
    // SAFETY: a `__local` argument: size only, no value.
    check("clSetKernelArg(rb_dyn_shared)", unsafe {
        set_kernel_arg(k, idx, dyn_bytes, std::ptr::null())
    })?;
    // SAFETY: `ulong rb_dyn_bytes`.
    unsafe {
        set_value(
            k,
            idx + 1,
            &(launch.dynamic_shared_bytes as u64).to_ne_bytes(),
            "clSetKernelArg(rb_dyn_bytes)",
        )?
    };
    Ok(Some(idx + 2))
}

/// Sets the fault record parameter `idx` of `k` to the record at `rec`.
///
/// # Safety
/// Nothing else sets `k`'s arguments meanwhile; `rec` is a live SVM allocation of at least
/// [`FAULT_BYTES`] bytes in the kernel's context.
pub(crate) unsafe fn set_record(k: cl_kernel, idx: u32, rec: u64) -> Result<()> {
    // SAFETY: forwarded from the caller.
    unsafe { set_pointer(k, idx, rec) }
}

/// Queues `launch` on `stream`.
///
/// # Safety
/// Every array argument describes device memory (or mapped host memory no Rust reference uses
/// while the kernel runs) that stays allocated until the stream has run the kernel.
pub(crate) unsafe fn launch(
    t: &Target<'_>,
    launch: &KernelLaunch<'_>,
    stream: StreamHandle,
) -> Result<()> {
    let name = &launch.function.name;
    let Checked { kernel: uk, layout } = check_launch(t, launch)?;
    let record = if layout == Layout::Generated {
        Some(t.kernels.record(t.context)?)
    } else {
        None
    };
    let mut host_record: Box<[u8; FAULT_BYTES]> = Box::new([0u8; FAULT_BYTES]);
    let host_ptr = host_record.as_mut_ptr();
    let (global, local) = sizes(launch);
    let op = |q, deps: &[_]| -> Result<ClEvent> {
        let guard = lock(&uk.built.kernel);
        let k = guard.raw();
        // SAFETY: the kernel's lock is held; the arguments were checked.
        let record_param = unsafe { set_args(k, launch, layout)? };
        let mut fill_event = None;
        if let (Some(rec), Some(idx)) = (record, record_param) {
            // SAFETY: the record is a live 128-byte SVM allocation; the kernel's lock is held.
            unsafe { set_record(k, idx, rec as u64)? };
            let zero = [0u8];
            // SAFETY: zeroes the record before the kernel, in queue order.
            let f = check("clEnqueueSVMMemFill(fault record)", unsafe {
                enqueue_svm_mem_fill(
                    q,
                    rec as *mut c_void,
                    zero.as_ptr().cast(),
                    1,
                    FAULT_BYTES,
                    deps.len() as u32,
                    wait_ptr(deps),
                )
            })?;
            // SAFETY: we own the fill's event.
            fill_event = Some(unsafe { ClEvent::from_raw(f) });
        }
        // Ordered after running launches of this kernel with another grid width (PoCL's cache of
        // work-group functions, see `grid_widths`).
        let slot = Slot::take(t.queues.context(), name, &global, &local);
        let wait = slot.wait_list(if fill_event.is_some() { &[] } else { deps });
        // SAFETY: every argument is set; sizes are three-dimensional arrays; the wait list holds
        // live events.
        let e = check(&format!("clEnqueueNDRangeKernel({name})"), unsafe {
            enqueue_nd_range_kernel(
                q,
                k,
                3,
                std::ptr::null(),
                global.as_ptr(),
                local.as_ptr(),
                wait.len() as u32,
                wait_ptr(&wait),
            )
        })?;
        // SAFETY: we own the launch's event.
        let e = unsafe { ClEvent::from_raw(e) };
        slot.launched(&e);
        drop(guard);
        let Some(rec) = record else {
            return Ok(e);
        };
        // SAFETY: copies the record into `host_record`, which the check below keeps alive until
        // the copy has completed (see `stream::Slot`'s drop).
        let c = check("clEnqueueSVMMemcpy(fault record)", unsafe {
            enqueue_svm_mem_cpy(
                q,
                CL_NON_BLOCKING,
                host_ptr.cast(),
                rec as *const c_void,
                FAULT_BYTES,
                0,
                std::ptr::null(),
            )
        })?;
        // SAFETY: we own the copy's event.
        Ok(unsafe { ClEvent::from_raw(c) })
    };
    match record {
        None => {
            t.queues.submit(stream, op)?;
        }
        Some(rec) => {
            let records = Arc::clone(&t.kernels.records);
            let kernel_name = name.clone();
            // A macro kernel's own site table names the array, operation and source line.
            let abi = launch.function.abi();
            let result = t.queues.submit_checked(
                stream,
                op,
                Box::new(move || {
                    let fault = record_fault(&kernel_name, abi, &host_record);
                    lock(&records).push(rec);
                    fault.map_or(Ok(()), Err)
                }),
            );
            if result.is_err() {
                // Not queued: the record is free again (the check, never registered, is gone).
                lock(&t.kernels.records).push(rec);
            }
            result?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::kernel::fault_parts;

    #[test]
    fn fastmath_kernels_build_with_relaxed_math_and_others_exactly() {
        assert_eq!(
            build_options(false, true),
            "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt"
        );
        assert_eq!(
            build_options(true, true),
            "-cl-std=CL1.2 -cl-fast-relaxed-math"
        );
        let a = OpenClKernelSource::new("k", "k");
        assert_ne!(cache_key(0, &a), cache_key(0, &a.clone().with_fast_math()));
    }
    use crate::driver::KernelArrayArg;

    fn arr(ndim: usize) -> KernelArg {
        KernelArg::Array(KernelArrayArg {
            ptr: 0x1000,
            itemsize: 4,
            shape: vec![2; ndim],
            strides: vec![4; ndim],
            writable: true,
        })
    }

    #[test]
    fn the_layout_follows_the_declared_parameter_count() {
        let args = [arr(1), KernelArg::Scalar(vec![0; 4]), arr(2)];
        // 1-d: 4, scalar: 1, 2-d: 6 → 11 flat, 14 with the hidden three.
        assert_eq!(layout("k", 14, &args).unwrap(), Layout::Generated);
        assert_eq!(layout("k", 11, &args).unwrap(), Layout::NoHidden);
        assert_eq!(layout("k", 3, &args).unwrap(), Layout::Pointers);
        let e = layout("k", 7, &args).unwrap_err().to_string();
        assert!(e.contains("declares 7") && e.contains("14"), "{e}");
    }

    #[test]
    fn fault_records_decode_to_kernel_faults() {
        let mut rec = [0u8; FAULT_BYTES];
        assert!(decode_fault("k", &rec).is_none());
        let put32 = |r: &mut [u8; FAULT_BYTES], o: usize, v: u32| {
            r[o..o + 4].copy_from_slice(&v.to_ne_bytes())
        };
        put32(&mut rec, 0, 1);
        put32(&mut rec, 4, 1);
        put32(&mut rec, 8, 3);
        put32(&mut rec, 12, 1);
        put32(&mut rec, 16, 2);
        put32(&mut rec, 28, 5);
        rec[40..48].copy_from_slice(&7u64.to_ne_bytes());
        rec[64..72].copy_from_slice(&4u64.to_ne_bytes());
        let e = decode_fault("vadd", &rec).unwrap();
        let (kernel, block, thread, message) = fault_parts(&e);
        assert_eq!((kernel, block, thread), ("vadd", [2, 0, 0], [5, 0, 0]));
        assert!(
            message.contains("index (7,) is out of bounds for shape (4,)"),
            "{message}"
        );
    }
}
