//! A minimal OpenCL harness on `opencl3`: runs a `#[rumba::kernel]`'s generated OpenCL C on the
//! first OpenCL device (PoCL in CI) following the kernel ABI (`crates/rumba-kernel-ir/ABI.md`),
//! and turns a fault record into the same `Error::KernelFault` the simulator raises.
//!
//! This is the stopgap the research note describes until rumba has an OpenCL backend: host
//! buffers in, one NDRange, buffers and the fault record back. Without an OpenCL platform the
//! tests say so and pass — unless `RUMBA_REQUIRE_OPENCL=1` (set by `.ci/run`), where a missing
//! platform fails, so CI can never skip them silently.
#![allow(dead_code)]

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Mutex, MutexGuard, OnceLock};

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{CL_DEVICE_TYPE_ALL, CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, Device};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE, ClMem};
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use rumba::kernel::{KernelAbi, ParamKind};

pub use crate::macro_corpus::case::HostArg as ClArg;

pub struct Cl {
    context: Context,
    queue: CommandQueue,
    options: String,
    pub device_name: String,
    programs: HashMap<String, Program>,
}

// SAFETY: the OpenCL objects are reference-counted handles that OpenCL allows to use from any
// thread; every use here is serialized by the mutex around `Cl`.
unsafe impl Send for Cl {}

fn open() -> Result<Cl, String> {
    let platforms = opencl3::platform::get_platforms()
        .map_err(|e| format!("no OpenCL library or platform: {e}"))?;
    for p in platforms {
        let Ok(ids) = p.get_devices(CL_DEVICE_TYPE_ALL) else {
            continue;
        };
        let Some(&id) = ids.first() else { continue };
        let device = Device::new(id);
        let context = Context::from_device(&device).map_err(|e| e.to_string())?;
        #[allow(deprecated)]
        let queue = CommandQueue::create_default(&context, 0).map_err(|e| e.to_string())?;
        let mut options = String::from("-cl-std=CL1.2");
        if device.single_fp_config().unwrap_or(0) & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT != 0 {
            options.push_str(" -cl-fp32-correctly-rounded-divide-sqrt");
        }
        let device_name = device.name().unwrap_or_default();
        return Ok(Cl {
            context,
            queue,
            options,
            device_name,
            programs: HashMap::new(),
        });
    }
    Err("no OpenCL device found".into())
}

/// The OpenCL device, or `None` (with a note on stderr) when there is none and
/// `RUMBA_REQUIRE_OPENCL` is not `1`.
pub fn cl() -> Option<MutexGuard<'static, Cl>> {
    static CL: OnceLock<Result<Mutex<Cl>, String>> = OnceLock::new();
    match CL.get_or_init(|| open().map(Mutex::new)) {
        Ok(m) => Some(m.lock().unwrap_or_else(|e| e.into_inner())),
        Err(e) => {
            let required = std::env::var("RUMBA_REQUIRE_OPENCL").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "RUMBA_REQUIRE_OPENCL=1 but OpenCL is unavailable: {e} (install pocl-opencl-icd ocl-icd-libopencl1)"
            );
            eprintln!(
                "SKIPPED: {e}; install pocl-opencl-icd and ocl-icd-libopencl1 to run the OpenCL checks"
            );
            None
        }
    }
}

impl Cl {
    /// Builds (once per source text) and returns the program.
    pub fn program(&mut self, source: &str) -> Result<&Program, String> {
        if !self.programs.contains_key(source) {
            let p = Program::create_and_build_from_source(&self.context, source, &self.options)
                .map_err(|log| format!("OpenCL build failed:\n{log}\n--- source ---\n{source}"))?;
            self.programs.insert(source.to_string(), p);
        }
        Ok(&self.programs[source])
    }

    /// Runs `abi.name` from `source` on `grid` × `block` with `args` (arrays are read back into
    /// their bytes). A recorded fault is returned as the simulator's `Error::KernelFault`.
    pub fn run(
        &mut self,
        source: &str,
        abi: &KernelAbi,
        grid: [usize; 3],
        block: [usize; 3],
        dynamic_shared_bytes: usize,
        args: &mut [ClArg],
    ) -> Result<(), rumba::Error> {
        assert_eq!(
            args.len(),
            abi.params.len(),
            "argument count of {}",
            abi.name
        );
        self.program(source)
            .map_err(rumba::Error::InvalidArgument)?;
        let program = &self.programs[source];
        let context = &self.context;
        let kernel = Kernel::create(program, abi.name).expect("kernel entry");
        let mut buffers: Vec<Option<Buffer<u8>>> = Vec::new();
        let mut index = 0u32;
        let set = |kernel: &Kernel, index: &mut u32, bytes: &[u8]| {
            // SAFETY: `bytes` is exactly the argument's value; OpenCL copies it.
            unsafe {
                cl3::kernel::set_kernel_arg(
                    kernel.get(),
                    *index,
                    bytes.len(),
                    bytes.as_ptr() as *const c_void,
                )
            }
            .expect("set_kernel_arg");
            *index += 1;
        };
        for (arg, p) in args.iter().zip(abi.params) {
            match (arg, p.kind) {
                (
                    ClArg::Array {
                        bytes,
                        offset,
                        shape,
                        strides,
                        ..
                    },
                    ParamKind::Array { rank, .. } | ParamKind::ConstArray { rank },
                ) => {
                    assert_eq!(shape.len(), rank, "rank of `{}`", p.name);
                    // SAFETY: a fresh buffer of at least one byte, no host pointer.
                    let mut buf = unsafe {
                        Buffer::<u8>::create(
                            context,
                            CL_MEM_READ_WRITE,
                            bytes.len().max(1),
                            std::ptr::null_mut(),
                        )
                    }
                    .expect("buffer");
                    if !bytes.is_empty() {
                        // SAFETY: blocking write of `bytes.len()` bytes into a buffer that large.
                        unsafe {
                            self.queue
                                .enqueue_write_buffer(&mut buf, CL_BLOCKING, 0, bytes, &[])
                        }
                        .expect("write");
                    }
                    let mem = buf.get();
                    set(&kernel, &mut index, bytemuck::bytes_of(&(mem as usize)));
                    set(&kernel, &mut index, &(*offset as i64).to_ne_bytes());
                    for &n in shape {
                        set(&kernel, &mut index, &(n as i64).to_ne_bytes());
                    }
                    for &s in strides {
                        set(&kernel, &mut index, &(s as i64).to_ne_bytes());
                    }
                    buffers.push(Some(buf));
                }
                (ClArg::Scalar(bytes), ParamKind::Value) => {
                    set(&kernel, &mut index, bytes);
                    buffers.push(None);
                }
                _ => panic!("argument `{}` of the wrong kind", p.name),
            }
        }
        // Hidden parameters: dynamic shared memory, its size, the fault record.
        // SAFETY: a `__local` argument with a size and no value.
        unsafe { kernel.set_arg_local_buffer(index, dynamic_shared_bytes.max(8)) }
            .expect("local arg");
        index += 1;
        set(
            &kernel,
            &mut index,
            &(dynamic_shared_bytes as u64).to_ne_bytes(),
        );
        // SAFETY: a fresh 128-byte buffer.
        let mut fault =
            unsafe { Buffer::<u8>::create(context, CL_MEM_READ_WRITE, 128, std::ptr::null_mut()) }
                .expect("fault buffer");
        // SAFETY: blocking write of 128 zero bytes.
        unsafe {
            self.queue
                .enqueue_write_buffer(&mut fault, CL_BLOCKING, 0, &[0u8; 128], &[])
        }
        .expect("zero fault");
        set(
            &kernel,
            &mut index,
            bytemuck::bytes_of(&(fault.get() as usize)),
        );
        let global: Vec<usize> = (0..3).map(|k| grid[k] * block[k]).collect();
        // SAFETY: every argument of the kernel is set above, following the ABI.
        unsafe {
            self.queue.enqueue_nd_range_kernel(
                kernel.get(),
                3,
                std::ptr::null(),
                global.as_ptr(),
                block.as_ptr(),
                &[],
            )
        }
        .expect("enqueue");
        self.queue.finish().expect("finish");
        for (arg, buf) in args.iter_mut().zip(&buffers) {
            if let (ClArg::Array { bytes, .. }, Some(buf)) = (arg, buf) {
                if !bytes.is_empty() {
                    // SAFETY: blocking read of `bytes.len()` bytes from a buffer that large.
                    unsafe {
                        self.queue
                            .enqueue_read_buffer(buf, CL_BLOCKING, 0, bytes, &[])
                    }
                    .expect("read");
                }
            }
        }
        let mut record = [0u8; 128];
        // SAFETY: blocking read of the 128-byte fault buffer.
        unsafe {
            self.queue
                .enqueue_read_buffer(&fault, CL_BLOCKING, 0, &mut record, &[])
        }
        .expect("read fault");
        match abi.decode_fault(&record) {
            None => Ok(()),
            Some(f) => Err(rumba::Error::KernelFault {
                kernel: abi.name.to_string(),
                block: f.block,
                thread: f.thread,
                message: f.message,
            }),
        }
    }
}
