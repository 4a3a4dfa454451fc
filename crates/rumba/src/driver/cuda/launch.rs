//! `launch_kernel` on CUDA: user kernels' CUDA C form ([`CudaKernelSource`], taken from the
//! kernel with [`KernelFunction::require`](crate::driver::KernelFunction::require)) compiled by
//! NVRTC (cached per device and source), `__constant__` globals filled when the module loads,
//! and the parameter buffer packed the way the device header's `rumba_array<T, N>` expects.
//!
//! Packing is pure code and unit-tested: an array argument becomes the bytes of
//! `struct { T* data; long long shape[N]; long long strides[N]; }` (byte strides), a scalar its own
//! bytes; each parameter sits in its own 16-byte-aligned buffer, and `cuLaunchKernel` receives one
//! pointer per parameter. After the arguments comes the hidden `rumba_fault* rb_fault` parameter
//! of macro kernels (`crates/rumba-kernel-ir/ABI.md`): the launch's record from `faults.rs`, or
//! NULL inside a graph capture (`graph.rs`), where the generated checks still skip out-of-bounds
//! accesses but nothing is recorded (a hand-written kernel that does not declare the parameter
//! ignores it: CUDA reads only the declared parameters).
//!
//! This module touches NVRTC and the driver's module and launch calls.

use std::ffi::{CString, c_void};
use std::hash::{Hash, Hasher};

use cudarc::driver::sys;

use super::builtin::load_module;
use super::error::{check, map};
use super::loaded::Loaded;
use crate::driver::{CudaKernelSource, DevicePtr, KernelArg, KernelLaunch};
use crate::error::{Error, Result};

/// One packed kernel parameter, 16-byte aligned.
pub(crate) struct Param(Vec<u128>);

impl Param {
    fn from_bytes(bytes: &[u8]) -> Param {
        let mut words = vec![0u128; bytes.len().div_ceil(16).max(1)];
        // SAFETY: `words` spans at least `bytes.len()` bytes; u128 has no invalid bit patterns.
        let dst = unsafe {
            std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), words.len() * 16)
        };
        dst[..bytes.len()].copy_from_slice(bytes);
        Param(words)
    }

    /// The parameter's bytes (padded to 16).
    #[cfg(test)]
    fn bytes(&self) -> &[u8] {
        // SAFETY: reading the initialised words as bytes.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast::<u8>(), self.0.len() * 16) }
    }

    pub(crate) fn as_mut_ptr(&mut self) -> *mut c_void {
        self.0.as_mut_ptr().cast()
    }
}

/// Packs the arguments of a launch, in order, then the fault record's address (0: NULL).
pub(crate) fn pack_args(args: &[KernelArg], fault_record: DevicePtr) -> Vec<Param> {
    let mut params: Vec<Param> = args
        .iter()
        .map(|a| match a {
            KernelArg::Array(arr) => {
                let mut b = Vec::with_capacity(8 + 16 * arr.shape.len());
                b.extend_from_slice(&arr.ptr.to_ne_bytes());
                for &n in &arr.shape {
                    b.extend_from_slice(&(n as i64).to_ne_bytes());
                }
                for &s in &arr.strides {
                    b.extend_from_slice(&(s as i64).to_ne_bytes());
                }
                Param::from_bytes(&b)
            }
            KernelArg::Scalar(bytes) => Param::from_bytes(bytes),
        })
        .collect();
    params.push(Param::from_bytes(&fault_record.to_ne_bytes()));
    params
}

/// Checks a launch's geometry against CUDA's limits before anything is compiled.
pub(crate) fn check_geometry(launch: &KernelLaunch<'_>) -> Result<()> {
    let refuse = |reason: String| Error::InvalidLaunch {
        grid: launch.grid,
        block: launch.block,
        dynamic_shared_bytes: launch.dynamic_shared_bytes,
        reason,
    };
    let name = &launch.function.name;
    if launch.grid.contains(&0) || launch.block.contains(&0) {
        return Err(refuse(format!(
            "kernel '{name}': every grid and block dimension must be at least 1"
        )));
    }
    u32::try_from(launch.dynamic_shared_bytes).map_err(|_| {
        refuse(format!(
            "kernel '{name}': more dynamic shared memory than a launch can ask for (4 GiB)"
        ))
    })?;
    Ok(())
}

/// Refuses a launch whose static shared memory (`declared`: what the compiled kernel declares,
/// read once when it is loaded) and dynamic shared memory together exceed `limit`, the device's
/// shared memory per block: CUDA would refuse it with a bare `CUDA_ERROR_INVALID_VALUE`, the
/// other backends name the figures.
pub(crate) fn check_shared(launch: &KernelLaunch<'_>, declared: usize, limit: usize) -> Result<()> {
    let dynamic = launch.dynamic_shared_bytes;
    if declared.saturating_add(dynamic) > limit {
        return Err(Error::InvalidLaunch {
            grid: launch.grid,
            block: launch.block,
            dynamic_shared_bytes: dynamic,
            reason: format!(
                "kernel '{}': {declared} bytes of static and {dynamic} bytes of dynamic shared memory exceed the device's {limit} bytes per block",
                launch.function.name
            ),
        });
    }
    Ok(())
}

fn cache_key(device: usize, src: &CudaKernelSource) -> (usize, u64) {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    src.hash(&mut h);
    (device, h.finish())
}

/// Loaded user kernels per (device, source): the function (a `CUfunction` as an integer) and the
/// static shared memory it declares.
#[derive(Default)]
pub(crate) struct UserKernels {
    functions: Loaded<(usize, u64), (usize, usize)>,
}

impl UserKernels {
    /// The entry function of `src` in the current context (which is `device`'s, of compute
    /// capability `cc`) and the bytes of static shared memory it declares, compiling and loading
    /// the module, and filling its constants, on first use (while it loads, launches of other
    /// kernels go on: `loaded.rs`).
    pub(crate) fn function(
        &self,
        device: usize,
        cc: (u32, u32),
        src: &CudaKernelSource,
    ) -> Result<(sys::CUfunction, usize)> {
        let key = cache_key(device, src);
        let (f, declared) = self
            .functions
            .get_or_load(key, || load_user_kernel(cc, src))?;
        Ok((f as sys::CUfunction, declared))
    }
}

/// Compiles and loads `src`'s module in the current context, fills its constants and finds its
/// entry function: the function (as an integer) and its static shared memory.
fn load_user_kernel(cc: (u32, u32), src: &CudaKernelSource) -> Result<(usize, usize)> {
    let module = load_module(&src.entry, &src.source, cc, src.fast_math)?;
    if !src.constants.is_empty() {
        fill_constants(module, &src.constants)?;
    }
    let entry = CString::new(src.entry.as_str())
        .map_err(|_| Error::interior_nul("entry name", &src.entry))?;
    let mut f = std::ptr::null_mut();
    // SAFETY: `module` is loaded and never unloaded while the driver lives.
    match unsafe { sys::cuModuleGetFunction(&mut f, module, entry.as_ptr()) } {
        sys::CUresult::CUDA_SUCCESS => {}
        r => {
            let mut e = map("cuModuleGetFunction", r);
            if let Error::Driver { message, .. } = &mut e {
                message.push_str(&format!(
                    " (is `{}` declared extern \"C\" __global__?)",
                    src.entry
                ));
            }
            return Err(e);
        }
    }
    let mut declared = 0i32;
    // SAFETY: writes one int for a function of a loaded module.
    check("cuFuncGetAttribute", unsafe {
        sys::cuFuncGetAttribute(
            &mut declared,
            sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
            f,
        )
    })?;
    Ok((f as usize, usize::try_from(declared).unwrap_or(0)))
}

/// Copies each constant's bytes into the module's global of that name, on a non-blocking stream
/// of its own, and waits for them: a synchronous copy would go through the legacy default stream
/// and so wait for every blocking stream of the context, one held back by a host callback
/// included.
fn fill_constants(module: sys::CUmodule, constants: &[(String, Vec<u8>)]) -> Result<()> {
    let mut s = std::ptr::null_mut();
    // SAFETY: writes one stream handle; a context is current.
    check("cuStreamCreate(constants)", unsafe {
        sys::cuStreamCreate(&mut s, sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32)
    })?;
    let queued = constants
        .iter()
        .try_for_each(|(name, bytes)| queue_constant(module, name, bytes, s));
    // Waited for whether or not every copy was queued: those queued read `constants`, borrowed
    // until this returns.
    // SAFETY: the stream just made.
    let waited = check("cuStreamSynchronize(constants)", unsafe {
        sys::cuStreamSynchronize(s)
    });
    // SAFETY: the stream just made, idle; destroyed once.
    let destroyed = check("cuStreamDestroy(constants)", unsafe {
        sys::cuStreamDestroy_v2(s)
    });
    queued.and(waited).and(destroyed)
}

/// Queues the copy of `bytes` into `module`'s global `name` on `s`, refusing a constant larger
/// than the module declares.
fn queue_constant(module: sys::CUmodule, name: &str, bytes: &[u8], s: sys::CUstream) -> Result<()> {
    let cname = CString::new(name).map_err(|_| Error::interior_nul("constant name", name))?;
    let (mut dptr, mut size) = (0, 0);
    // SAFETY: `module` is loaded; writes a pointer and a size.
    check("cuModuleGetGlobal", unsafe {
        sys::cuModuleGetGlobal_v2(&mut dptr, &mut size, module, cname.as_ptr())
    })?;
    if bytes.len() > size {
        return Err(Error::InvalidArgument(format!(
            "constant '{name}' has {} bytes but the module declares {size}",
            bytes.len()
        )));
    }
    // SAFETY: `dptr` is the module global of `size` ≥ `bytes.len()` bytes; the caller waits for
    // `s` while `bytes` is still borrowed.
    check("cuMemcpyHtoDAsync(constant)", unsafe {
        sys::cuMemcpyHtoDAsync_v2(dptr, bytes.as_ptr().cast(), bytes.len(), s)
    })
}

/// Launches `f` with the packed arguments and the fault record at `fault_record` (0: none) on
/// `stream`.
///
/// # Safety
/// The arguments must match the kernel's parameters and satisfy
/// [`Driver::launch_kernel`](crate::driver::Driver::launch_kernel)'s contract; a non-zero
/// `fault_record` is 128 zeroed bytes of device memory that nothing else uses until the launch
/// has run.
pub(crate) unsafe fn launch(
    f: sys::CUfunction,
    launch: &KernelLaunch<'_>,
    stream: sys::CUstream,
    fault_record: DevicePtr,
) -> Result<()> {
    let mut params = pack_args(launch.args, fault_record);
    let mut ptrs: Vec<*mut c_void> = params.iter_mut().map(Param::as_mut_ptr).collect();
    let [gx, gy, gz] = launch.grid;
    let [bx, by, bz] = launch.block;
    // SAFETY: one pointer per parameter, each to a buffer that outlives the call (the launch
    // copies the parameter values); the rest is the caller's contract.
    check(
        &format!("cuLaunchKernel({})", launch.function.name),
        unsafe {
            sys::cuLaunchKernel(
                f,
                gx,
                gy,
                gz,
                bx,
                by,
                bz,
                launch.dynamic_shared_bytes as u32,
                stream,
                ptrs.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::KernelArrayArg;

    #[test]
    fn static_and_dynamic_shared_memory_are_held_to_the_limit_together() {
        let f = crate::driver::KernelFunction::new("both_shared");
        let launch = |dynamic| KernelLaunch {
            function: &f,
            grid: [1, 1, 1],
            block: [32, 1, 1],
            dynamic_shared_bytes: dynamic,
            args: &[],
        };
        let limit = 48 << 10;
        assert!(
            check_shared(&launch(limit - 1024), 1024, limit).is_ok(),
            "exactly the limit"
        );
        let err = check_shared(&launch(limit - 1023), 1024, limit).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, Error::InvalidLaunch { .. }), "{text}");
        assert!(
            text.contains("1024 bytes of static and 48129 bytes of dynamic shared memory"),
            "{text}"
        );
        assert!(
            text.contains("both_shared") && text.contains("49152 bytes per block"),
            "{text}"
        );
        assert!(
            check_shared(&launch(usize::MAX), 1, limit).is_err(),
            "no overflow"
        );
    }

    #[test]
    fn arrays_pack_as_pointer_shape_and_byte_strides() {
        let args = [
            KernelArg::Array(KernelArrayArg {
                ptr: 0x1000,
                itemsize: 4,
                shape: vec![2, 3],
                strides: vec![12, -4],
                writable: true,
            }),
            KernelArg::Scalar(2.5f32.to_ne_bytes().to_vec()),
        ];
        let p = pack_args(&args, 0);
        assert_eq!(
            p.len(),
            3,
            "two arguments and the hidden fault-record pointer"
        );
        assert_eq!(&p[2].bytes()[..8], &[0u8; 8], "no fault record: NULL");
        let with = pack_args(&args, 0x7000_0080);
        assert_eq!(
            &with[2].bytes()[..8],
            &0x7000_0080u64.to_ne_bytes(),
            "the record's address is the last parameter"
        );
        let a = p[0].bytes();
        let word = |i: usize| i64::from_ne_bytes(a[i * 8..i * 8 + 8].try_into().unwrap());
        assert_eq!(
            (word(0), word(1), word(2), word(3), word(4)),
            (0x1000, 2, 3, 12, -4)
        );
        assert_eq!(&p[1].bytes()[..4], &2.5f32.to_ne_bytes());
        assert_eq!(p[0].0.as_ptr() as usize % 16, 0, "16-byte aligned");
    }

    #[test]
    fn sources_are_cached_per_device_and_text() {
        let a = CudaKernelSource::new("A", "k");
        let b = CudaKernelSource::new("B", "k");
        assert_eq!(cache_key(0, &a), cache_key(0, &a.clone()));
        assert_ne!(cache_key(0, &a), cache_key(0, &b));
        assert_ne!(cache_key(0, &a), cache_key(1, &a));
    }
}
