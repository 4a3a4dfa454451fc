//! One test case: a macro kernel, its inputs as raw host arguments, its geometry — runnable on the
//! current backend through the driver (so the same case runs wherever the runtime runs) and,
//! through `opencl_common`, on OpenCL.

use rumba::driver::{KernelArg, KernelArrayArg, KernelFunction, KernelLaunch, On, StreamHandle};
use rumba::kernel::KernelAbi;

/// One kernel argument, host side.
#[derive(Debug, Clone, PartialEq)]
pub enum HostArg {
    /// An array: its bytes (read back after the launch), item size, the byte offset of element
    /// (0, …, 0), shape and byte strides.
    Array {
        bytes: Vec<u8>,
        itemsize: usize,
        offset: usize,
        shape: Vec<usize>,
        strides: Vec<isize>,
    },
    /// A scalar or record by value.
    Scalar(Vec<u8>),
}

impl HostArg {
    /// A C-ordered array of `data` with `shape`.
    pub fn array<T: bytemuck::Pod>(data: &[T], shape: &[usize]) -> HostArg {
        let item = size_of::<T>() as isize;
        let mut strides = vec![0isize; shape.len()];
        let mut acc = item;
        for k in (0..shape.len()).rev() {
            strides[k] = acc;
            acc *= shape[k] as isize;
        }
        HostArg::Array {
            bytes: bytemuck::cast_slice(data).to_vec(),
            itemsize: size_of::<T>(),
            offset: 0,
            shape: shape.to_vec(),
            strides,
        }
    }

    /// A 1-d array of `n` zeros.
    pub fn zeros<T: bytemuck::Pod>(n: usize) -> HostArg {
        HostArg::array(&vec![T::zeroed(); n], &[n])
    }

    /// A scalar or record.
    pub fn scalar<T: bytemuck::Pod>(v: T) -> HostArg {
        HostArg::Scalar(bytemuck::bytes_of(&v).to_vec())
    }

    /// The array's bytes as `T`s.
    pub fn values<T: bytemuck::Pod>(&self) -> Vec<T> {
        match self {
            HostArg::Array { bytes, .. } => bytes
                .chunks_exact(size_of::<T>())
                .map(bytemuck::pod_read_unaligned)
                .collect(),
            HostArg::Scalar(_) => panic!("not an array"),
        }
    }
}

/// How two runs' outputs must agree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Agree {
    /// Byte for byte.
    Exact,
    /// `f32` outputs within this many units in the last place.
    UlpF32(u32),
}

/// A kernel, inputs and geometry.
pub struct Case {
    pub name: &'static str,
    pub function: KernelFunction,
    pub abi: &'static KernelAbi,
    pub opencl: &'static str,
    pub cuda: &'static str,
    pub grid: [usize; 3],
    pub block: [usize; 3],
    pub dynamic_shared_bytes: usize,
    pub args: Vec<HostArg>,
    pub agree: Agree,
}

/// Runs `case` on the runtime's backend (the simulator unless `RUMBA_TEST_BACKEND` says
/// otherwise) through the raw driver API; returns the arguments after the launch.
pub fn run_backend(case: &Case) -> Result<Vec<HostArg>, rumba::Error> {
    let drv = rumba::backend_driver()?;
    let dev = 0;
    let mut ptrs = Vec::new();
    let mut raw = Vec::new();
    for a in &case.args {
        match a {
            HostArg::Array {
                bytes,
                itemsize,
                offset,
                shape,
                strides,
            } => {
                let p = drv.mem_alloc(dev, bytes.len().max(1))?;
                // SAFETY: `p` is a fresh allocation of at least `bytes.len()` bytes.
                unsafe { drv.memcpy_htod(On::blocking(dev), p, &bytes[..]) }?;
                ptrs.push(Some(p));
                raw.push(KernelArg::Array(KernelArrayArg {
                    ptr: p + *offset as u64,
                    itemsize: *itemsize,
                    shape: shape.clone(),
                    strides: strides.clone(),
                    writable: true,
                }));
            }
            HostArg::Scalar(b) => {
                ptrs.push(None);
                raw.push(KernelArg::Scalar(b.clone()));
            }
        }
    }
    let to3 = |v: [usize; 3]| v.map(|x| x as u32);
    let launch = KernelLaunch {
        function: &case.function,
        grid: to3(case.grid),
        block: to3(case.block),
        dynamic_shared_bytes: case.dynamic_shared_bytes,
        args: &raw,
    };
    // SAFETY: every array argument describes memory allocated above, live until freed below
    // after the stream has run the kernel.
    let launched = unsafe { drv.launch_kernel(dev, &launch, StreamHandle::LEGACY) };
    let synced = launched.and_then(|()| drv.stream_synchronize(dev, StreamHandle::LEGACY));
    let mut out = case.args.clone();
    for (a, p) in out.iter_mut().zip(&ptrs) {
        if let (HostArg::Array { bytes, .. }, Some(p)) = (a, p) {
            // SAFETY: `p` holds `bytes.len()` bytes; the stream is idle.
            unsafe { drv.memcpy_dtoh(On::blocking(dev), &mut bytes[..], *p) }?;
            drv.mem_free(dev, *p)?;
        }
    }
    synced.map(|()| out)
}

/// Checks that two runs' outputs agree as `agree` says.
pub fn assert_agree(name: &str, agree: Agree, a: &[HostArg], b: &[HostArg]) {
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        match agree {
            Agree::Exact => assert_eq!(x, y, "{name}: argument {k} differs"),
            Agree::UlpF32(ulps) => {
                let (u, v) = (x.values::<f32>(), y.values::<f32>());
                for (i, (p, q)) in u.iter().zip(&v).enumerate() {
                    let d = (p.to_bits() as i64 - q.to_bits() as i64).unsigned_abs();
                    assert!(
                        (p.is_nan() && q.is_nan()) || d <= ulps as u64,
                        "{name}: argument {k}[{i}]: {p} vs {q} ({d} ulp > {ulps})"
                    );
                }
            }
        }
    }
}

/// A [`Case`] of the `#[rumba::kernel]` at path `$k` (named by its last segment), without
/// dynamic shared memory, whose backends must agree exactly.
macro_rules! exact_case {
    ($($k:ident)::+, $grid:expr, $block:expr, $args:expr) => {
        $crate::macro_corpus::case::Case {
            name: $crate::macro_corpus::case::last_segment(stringify!($($k)::+)),
            function: $($k)::+().function().clone(),
            abi: &$($k)::+::ABI,
            opencl: $($k)::+::opencl_source(),
            cuda: $($k)::+::cuda_source(),
            grid: $grid,
            block: $block,
            dynamic_shared_bytes: 0,
            args: $args,
            agree: $crate::macro_corpus::case::Agree::Exact,
        }
    };
}
pub(crate) use exact_case;

/// The last segment of a path as `stringify!` writes it (`"own :: own2_index"` → `"own2_index"`).
pub fn last_segment(path: &'static str) -> &'static str {
    path.rsplit([' ', ':']).next().unwrap_or(path)
}
