//! The backend-neutral description of a kernel launch: what [`Driver::launch_kernel`] receives.
//!
//! A [`KernelFunction`] carries the kernel's code for every backend it can run on: a Rust body
//! for the sim ([`SimKernelFn`]) and, optionally, CUDA C source for NVRTC
//! ([`CudaKernelSource`]). A [`KernelLaunch`] pairs it with the launch geometry and the raw
//! arguments: array arguments as [`KernelArrayArg`] descriptors (device pointer of element 0,
//! shape, **byte** strides, item size) and scalars as their bytes — exactly what a CUDA backend
//! packs into the parameter buffer of `cuLaunchKernel` (a pointer + shape/stride descriptor per
//! array, then the scalars; see the device header), and what the sim resolves to host addresses
//! on the stream worker that runs the kernel.
//!
//! This module touches nothing: it only defines data.
//!
//! [`Driver::launch_kernel`]: super::Driver::launch_kernel

use std::fmt;

use super::DevicePtr;
use super::sim::SimKernelFn;

/// CUDA C/C++ source of a kernel, compiled with NVRTC by the CUDA backend.
///
/// `entry` is the `extern "C" __global__` function to launch. Each array parameter of the entry
/// is a `rumba_array<T, N>` (from the device header: pointer, shape, byte strides); scalars follow
/// as their C types, in argument order. `constants` are `__constant__` globals of the module that
/// the backend fills (by name) when it loads the module.
///
/// ```
/// use rumba::driver::CudaKernelSource;
/// let src = CudaKernelSource::new(
///     r#"extern "C" __global__ void scale(rumba_array<float, 1> x, float k) { }"#,
///     "scale",
/// );
/// assert_eq!(src.entry, "scale");
/// assert!(src.constants.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CudaKernelSource {
    /// The translation unit.
    pub source: String,
    /// Name of the `extern "C" __global__` entry point.
    pub entry: String,
    /// `__constant__` globals to fill when the module is loaded: name and bytes.
    pub constants: Vec<(String, Vec<u8>)>,
}

impl CudaKernelSource {
    /// Source and entry point, without constants.
    ///
    /// ```
    /// let s = rumba::driver::CudaKernelSource::new("/* … */", "k");
    /// assert_eq!(s.source, "/* … */");
    /// ```
    pub fn new(source: impl Into<String>, entry: impl Into<String>) -> Self {
        CudaKernelSource {
            source: source.into(),
            entry: entry.into(),
            constants: Vec::new(),
        }
    }
}

/// A kernel as the driver sees it: a name and its code for each backend.
///
/// Normally built by [`Kernel::new`](crate::kernel::Kernel::new), which wraps a typed Rust body
/// into the sim entry point.
///
/// ```
/// use rumba::kernel::Kernel;
/// let k = Kernel::<()>::new("noop", |_t, ()| {});
/// let f = k.function();
/// assert_eq!(f.name, "noop");
/// assert!(f.sim.is_some() && f.cuda.is_none());
/// ```
#[derive(Clone)]
pub struct KernelFunction {
    /// Name used in errors and traces.
    pub name: String,
    /// The body the simulator runs, if any.
    pub sim: Option<SimKernelFn>,
    /// CUDA C source for the CUDA backend, if any.
    pub cuda: Option<CudaKernelSource>,
}

impl fmt::Debug for KernelFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KernelFunction")
            .field("name", &self.name)
            .field("sim", &self.sim.is_some())
            .field("cuda", &self.cuda.as_ref().map(|c| &c.entry))
            .finish()
    }
}

/// One array argument: where element `(0, …, 0)` is and how the others are laid out.
///
/// An array of size 0 may have `ptr == 0`; it is never dereferenced.
///
/// ```
/// use rumba::driver::KernelArrayArg;
/// let a = KernelArrayArg { ptr: 0x1000, itemsize: 4, shape: vec![2, 3], strides: vec![12, 4], writable: true };
/// assert_eq!(a.size(), 6);
/// assert_eq!(a.byte_extent(), Some((0, 24)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelArrayArg {
    /// Device address of element `(0, …, 0)`.
    pub ptr: DevicePtr,
    /// Bytes per element.
    pub itemsize: usize,
    /// Elements along each axis.
    pub shape: Vec<usize>,
    /// Byte strides, one per axis (negative and zero allowed).
    pub strides: Vec<isize>,
    /// Whether the kernel may write the array.
    pub writable: bool,
}

impl KernelArrayArg {
    /// Number of elements.
    ///
    /// ```
    /// let a = rumba::driver::KernelArrayArg { ptr: 0, itemsize: 1, shape: vec![0, 5], strides: vec![5, 1], writable: false };
    /// assert_eq!(a.size(), 0);
    /// ```
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// The byte range `[lo, hi)` the elements span, relative to `ptr` (`lo <= 0` with negative
    /// strides); `None` for size 0, a shape/stride count mismatch or overflow.
    ///
    /// ```
    /// let a = rumba::driver::KernelArrayArg { ptr: 0x100, itemsize: 8, shape: vec![3], strides: vec![-8], writable: true };
    /// assert_eq!(a.byte_extent(), Some((-16, 8)));
    /// ```
    pub fn byte_extent(&self) -> Option<(isize, isize)> {
        if self.shape.len() != self.strides.len() || self.size() == 0 {
            return None;
        }
        let (mut lo, mut hi) = (0isize, 0isize);
        for (&n, &s) in self.shape.iter().zip(&self.strides) {
            let reach = isize::try_from(n - 1).ok()?.checked_mul(s)?;
            if reach < 0 {
                lo = lo.checked_add(reach)?;
            } else {
                hi = hi.checked_add(reach)?;
            }
        }
        Some((lo, hi.checked_add(isize::try_from(self.itemsize).ok()?)?))
    }
}

/// One raw kernel argument.
///
/// ```
/// use rumba::driver::KernelArg;
/// let k = KernelArg::Scalar(2.5f32.to_ne_bytes().to_vec());
/// assert!(matches!(k, KernelArg::Scalar(ref b) if b.len() == 4));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelArg {
    /// An n-d array in device memory.
    Array(KernelArrayArg),
    /// A scalar, as its native-endian bytes.
    Scalar(Vec<u8>),
}

/// Everything one launch needs: the function, its geometry and its arguments.
///
/// ```
/// use rumba::driver::{KernelLaunch, StreamHandle, Driver};
/// use rumba::kernel::Kernel;
/// let k = Kernel::<()>::new("noop", |_t, ()| {});
/// let launch = KernelLaunch { function: k.function(), grid: [2, 1, 1], block: [32, 1, 1], dynamic_shared_bytes: 0, args: &[] };
/// let drv = rumba::backend_driver().unwrap();
/// // SAFETY: no arguments, so no memory is touched.
/// unsafe { drv.launch_kernel(0, &launch, StreamHandle::LEGACY) }.unwrap();
/// drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
/// ```
#[derive(Debug, Clone, Copy)]
pub struct KernelLaunch<'a> {
    /// The kernel.
    pub function: &'a KernelFunction,
    /// Blocks along x, y, z.
    pub grid: [u32; 3],
    /// Threads per block along x, y, z.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory per block.
    pub dynamic_shared_bytes: usize,
    /// The arguments, in order.
    pub args: &'a [KernelArg],
}
