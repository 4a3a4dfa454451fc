//! The C forms of a kernel: CUDA C for NVRTC and OpenCL C for an OpenCL compiler, each a
//! translation unit, the entry point to launch and the constant data to fill by name.
//!
//! Both are plain descriptions: the backend that runs a form decides how it compiles the source
//! and how the named constants reach the device (the CUDA backend fills `__constant__` module
//! globals when it loads the module).
//!
//! This module touches nothing: it only defines data.

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
    /// Compile with NVRTC's `--use_fast_math` (approximate division, square root and
    /// transcendentals, flush-to-zero, contraction) instead of rumba's IEEE options
    /// (`#[rumba::kernel(fastmath)]`).
    pub fast_math: bool,
}

/// OpenCL C source of a kernel, for an OpenCL backend to build and run.
///
/// `entry` is the `__kernel` function to launch; its parameters follow the kernel's argument
/// order. `constants` are the kernel's constant data (Numba's `cuda.const.array_like`), each
/// under the name the source refers to it by, as its bytes; how they reach the device is the
/// OpenCL backend's to define.
///
/// ```
/// use rumba::driver::OpenClKernelSource;
/// let src = OpenClKernelSource::new("__kernel void fill(__global float *x) { }", "fill");
/// assert_eq!(src.entry, "fill");
/// assert!(src.constants.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OpenClKernelSource {
    /// The program source.
    pub source: String,
    /// Name of the `__kernel` entry point.
    pub entry: String,
    /// Constant data the source names: name and bytes.
    pub constants: Vec<(String, Vec<u8>)>,
    /// Build with `-cl-fast-relaxed-math` instead of rumba's IEEE options
    /// (`#[rumba::kernel(fastmath)]`).
    pub fast_math: bool,
}

// Both forms are built the same way: source and entry point, fast math on request.
macro_rules! source_constructors {
    ($($form:ident),*) => {$(
        impl $form {
            /// Source and entry point, without constants.
            ///
            /// ```
            #[doc = concat!("let s = rumba::driver::", stringify!($form), "::new(\"/* … */\", \"k\");")]
            /// assert_eq!(s.source, "/* … */");
            /// assert!(s.constants.is_empty() && !s.fast_math);
            /// ```
            pub fn new(source: impl Into<String>, entry: impl Into<String>) -> Self {
                $form {
                    source: source.into(),
                    entry: entry.into(),
                    constants: Vec::new(),
                    fast_math: false,
                }
            }

            /// The same source compiled with the target's fast-math options (see
            /// [`fast_math`](Self::fast_math)).
            ///
            /// ```
            #[doc = concat!("let s = rumba::driver::", stringify!($form), "::new(\"/* … */\", \"k\").with_fast_math();")]
            /// assert!(s.fast_math);
            /// ```
            pub fn with_fast_math(mut self) -> Self {
                self.fast_math = true;
                self
            }
        }
    )*};
}

source_constructors!(CudaKernelSource, OpenClKernelSource);
