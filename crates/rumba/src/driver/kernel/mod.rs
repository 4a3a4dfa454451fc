//! The backend-neutral description of a kernel launch: what [`Driver::launch_kernel`] receives.
//!
//! A [`KernelFunction`] is one kernel: a name and its code in every form it has been given. A
//! form is the kernel in the language one kind of backend runs ([`KernelForm`]):
//!
//! | form | language | run by |
//! |---|---|---|
//! | [`HostKernel`] | Rust, run on the host against resolved arguments ([`HostLaunch`]) | the simulator's engine |
//! | [`CudaKernelSource`] | CUDA C, with named `__constant__` data | the CUDA backend, through NVRTC |
//! | [`OpenClKernelSource`] | OpenCL C, with named constant data | an OpenCL backend |
//!
//! The layer above builds one `KernelFunction` (today [`Kernel`](crate::kernel::Kernel) does,
//! from a Rust body plus any sources attached to it) and never says which backend it is for.
//! Each backend takes its own form with [`KernelFunction::require`], which refuses a kernel
//! lacking it with [`Error::Unsupported`] naming the kernel, the backend, the forms it has and
//! how to give it the missing one — at launch, before anything is queued.
//!
//! Why forms keyed by type rather than one field per backend: a form is a language, not a
//! backend (another host engine would run the same Rust form; a second OpenCL platform the same
//! OpenCL C), adding a form or a backend changes this module and the backend alone, and the one
//! `require` gives every backend the same refusal. The fields stay private so a form can grow —
//! [`HostKernel`] is where a second Rust form (a whole-block work-item loop) joins the
//! per-thread one, with the simulator choosing between them.
//!
//! A [`KernelLaunch`] pairs the function with the launch geometry and the raw arguments: array
//! arguments as [`KernelArrayArg`] descriptors (device pointer of element 0, shape, **byte**
//! strides, item size) and scalars as their bytes — exactly what a CUDA backend packs into the
//! parameter buffer of `cuLaunchKernel` (a pointer + shape/stride descriptor per array, then the
//! scalars; see the device header), and what the simulator resolves to host addresses on the
//! stream worker that runs the kernel ([`HostArg`]).
//!
//! This module touches nothing: it only defines data.
//!
//! [`Driver::launch_kernel`]: super::Driver::launch_kernel

mod host;
mod source;

use std::fmt;

pub(crate) use host::UNUSED;
pub use host::{ArrayUse, HostArg, HostArrayArg, HostEngine, HostKernel, HostKernelFn, HostLaunch};
pub use source::{CudaKernelSource, OpenClKernelSource};

use super::{BackendKind, DevicePtr};
use crate::error::{Error, Result};
use rumba_kernel_ir::abi::KernelAbi;

mod sealed {
    pub trait Sealed {}
}

/// One form of a kernel: its code in the language one kind of backend runs; a backend takes
/// its form with [`KernelFunction::require`]. Sealed: the forms are [`HostKernel`] (Rust, run on
/// the host by the simulator's engine), [`CudaKernelSource`] and [`OpenClKernelSource`].
///
/// ```
/// use rumba::driver::{CudaKernelSource, HostKernel, KernelForm, OpenClKernelSource};
/// assert_eq!(CudaKernelSource::WHAT, "CUDA C source");
/// assert_eq!(OpenClKernelSource::WHAT, "OpenCL C source");
/// assert!(HostKernel::HOW.contains("Kernel::new"));
/// ```
pub trait KernelForm: sealed::Sealed + Clone + Send + Sync + 'static {
    /// What the form is, in words, for messages.
    const WHAT: &'static str;
    /// How a kernel is given this form, for messages.
    const HOW: &'static str;

    /// The form's slot in a kernel.
    #[doc(hidden)]
    fn slot(function: &KernelFunction) -> &Option<Self>;

    /// The form's slot in a kernel, to fill or change.
    #[doc(hidden)]
    fn slot_mut(function: &mut KernelFunction) -> &mut Option<Self>;
}

macro_rules! form {
    ($ty:ty, $field:ident, $what:expr, $how:expr) => {
        impl sealed::Sealed for $ty {}
        impl KernelForm for $ty {
            const WHAT: &'static str = $what;
            const HOW: &'static str = $how;

            fn slot(function: &KernelFunction) -> &Option<Self> {
                &function.$field
            }

            fn slot_mut(function: &mut KernelFunction) -> &mut Option<Self> {
                &mut function.$field
            }
        }
    };
}

form!(
    HostKernel,
    host,
    "Rust body",
    "write the kernel with #[rumba::kernel], or define it from a Rust closure with Kernel::new"
);
form!(
    CudaKernelSource,
    cuda,
    "CUDA C source",
    "write the kernel with #[rumba::kernel], or attach the source with Kernel::with_cuda_source"
);
form!(
    OpenClKernelSource,
    opencl,
    "OpenCL C source",
    "write the kernel with #[rumba::kernel], or attach the source with Kernel::with_opencl_source"
);

/// A kernel as the driver sees it: a name and its code in each [`KernelForm`] it has.
///
/// Normally built by [`Kernel::new`](crate::kernel::Kernel::new), which wraps a typed Rust body
/// into a [`HostKernel`]; sources are attached with
/// [`Kernel::with_cuda_source`](crate::kernel::Kernel::with_cuda_source) and
/// [`Kernel::with_opencl_source`](crate::kernel::Kernel::with_opencl_source).
///
/// ```
/// use rumba::driver::{CudaKernelSource, HostKernel, OpenClKernelSource};
/// use rumba::kernel::Kernel;
/// let k = Kernel::<()>::new("noop", |_t, ()| {});
/// let f = k.function();
/// assert_eq!(f.name, "noop");
/// assert!(f.form::<HostKernel>().is_some() && f.form::<CudaKernelSource>().is_none());
/// assert_eq!(f.forms(), ["Rust body"]);
/// ```
#[derive(Clone)]
pub struct KernelFunction {
    /// Name used in errors and traces.
    pub name: String,
    host: Option<HostKernel>,
    cuda: Option<CudaKernelSource>,
    opencl: Option<OpenClKernelSource>,
    abi: Option<&'static KernelAbi>,
}

impl KernelFunction {
    /// A kernel named `name` with no form yet; add them with [`with_form`](Self::with_form).
    ///
    /// ```
    /// let f = rumba::driver::KernelFunction::new("k");
    /// assert!(f.forms().is_empty());
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        KernelFunction {
            name: name.into(),
            host: None,
            cuda: None,
            opencl: None,
            abi: None,
        }
    }

    /// This kernel with `form` (replacing a form of the same kind).
    ///
    /// ```
    /// use rumba::driver::{CudaKernelSource, KernelFunction};
    /// let f = KernelFunction::new("k").with_form(CudaKernelSource::new("/* … */", "k"));
    /// assert_eq!(f.form::<CudaKernelSource>().unwrap().entry, "k");
    /// ```
    pub fn with_form<F: KernelForm>(mut self, form: F) -> Self {
        self.set_form(form);
        self
    }

    /// Gives the kernel `form` (replacing a form of the same kind).
    ///
    /// ```
    /// use rumba::driver::{KernelFunction, OpenClKernelSource};
    /// let mut f = KernelFunction::new("k");
    /// f.set_form(OpenClKernelSource::new("__kernel void k() {}", "k"));
    /// assert_eq!(f.forms(), ["OpenCL C source"]);
    /// ```
    pub fn set_form<F: KernelForm>(&mut self, form: F) {
        *F::slot_mut(self) = Some(form);
    }

    /// The kernel's form `F`, if it has one.
    ///
    /// ```
    /// use rumba::driver::{HostKernel, KernelFunction};
    /// assert!(KernelFunction::new("k").form::<HostKernel>().is_none());
    /// ```
    pub fn form<F: KernelForm>(&self) -> Option<&F> {
        F::slot(self).as_ref()
    }

    /// The signature `#[rumba::kernel]` generated (parameter kinds and ranks, the fault-site
    /// table and the fault-record decoder of `crates/rumba-kernel-ir/ABI.md`); `None` for
    /// kernels not made by the macro.
    ///
    /// ```
    /// assert!(rumba::driver::KernelFunction::new("k").abi().is_none());
    /// ```
    pub fn abi(&self) -> Option<&'static KernelAbi> {
        self.abi
    }

    /// Attaches the generated signature (see [`abi`](Self::abi)).
    ///
    /// ```
    /// use rumba::kernel::KernelAbi;
    /// static ABI: KernelAbi = KernelAbi { name: "k", params: &[], uses_dynamic_shared: false, sites: &[] };
    /// let mut f = rumba::driver::KernelFunction::new("k");
    /// f.set_abi(&ABI);
    /// assert_eq!(f.abi().unwrap().name, "k");
    /// ```
    pub fn set_abi(&mut self, abi: &'static KernelAbi) {
        self.abi = Some(abi);
    }

    /// The kernel's form `F`, to change, if it has one.
    ///
    /// ```
    /// use rumba::driver::{CudaKernelSource, KernelFunction};
    /// let mut f = KernelFunction::new("k").with_form(CudaKernelSource::new("", "k"));
    /// f.form_mut::<CudaKernelSource>().unwrap().source.push_str("/* more */");
    /// assert_eq!(f.form::<CudaKernelSource>().unwrap().source, "/* more */");
    /// ```
    pub fn form_mut<F: KernelForm>(&mut self) -> Option<&mut F> {
        F::slot_mut(self).as_mut()
    }

    /// The form `F` that `backend` runs, for a backend to take at launch.
    ///
    /// # Errors
    /// [`Error::MissingKernelForm`] when the kernel has no such form, naming the kernel, the backend,
    /// the forms it has and how to give it the missing one.
    ///
    /// ```
    /// use rumba::driver::{BackendKind, CudaKernelSource, HostKernel, KernelFunction};
    /// let f = KernelFunction::new("saxpy").with_form(CudaKernelSource::new("/* … */", "saxpy"));
    /// assert_eq!(f.require::<CudaKernelSource>(BackendKind::Cuda).unwrap().entry, "saxpy");
    /// let e = f.require::<HostKernel>(BackendKind::Sim).unwrap_err();
    /// assert!(matches!(e, rumba::Error::MissingKernelForm { form: "Rust body", .. }));
    /// assert_eq!(
    ///     e.to_string(),
    ///     "kernel 'saxpy' has no Rust body, which the sim backend runs (it has: \
    ///      CUDA C source); write the kernel with #[rumba::kernel], or define it from a Rust \
    ///      closure with Kernel::new"
    /// );
    /// ```
    pub fn require<F: KernelForm>(&self, backend: BackendKind) -> Result<&F> {
        self.form::<F>().ok_or_else(|| {
            let has = self.forms();
            let has = if has.is_empty() {
                "no form at all".to_owned()
            } else {
                has.join(", ")
            };
            Error::MissingKernelForm {
                kernel: self.name.clone(),
                form: F::WHAT,
                backend: backend.to_string(),
                has,
                hint: F::HOW,
            }
        })
    }

    /// The forms the kernel has, in words ([`KernelForm::WHAT`]).
    ///
    /// ```
    /// use rumba::driver::{CudaKernelSource, KernelFunction, OpenClKernelSource};
    /// let f = KernelFunction::new("k")
    ///     .with_form(OpenClKernelSource::new("", "k"))
    ///     .with_form(CudaKernelSource::new("", "k"));
    /// assert_eq!(f.forms(), ["CUDA C source", "OpenCL C source"]);
    /// ```
    pub fn forms(&self) -> Vec<&'static str> {
        let mut forms = Vec::new();
        if self.host.is_some() {
            forms.push(HostKernel::WHAT);
        }
        if self.cuda.is_some() {
            forms.push(CudaKernelSource::WHAT);
        }
        if self.opencl.is_some() {
            forms.push(OpenClKernelSource::WHAT);
        }
        forms
    }
}

impl fmt::Debug for KernelFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KernelFunction")
            .field("name", &self.name)
            .field("host", &self.host.is_some())
            .field("cuda", &self.cuda.as_ref().map(|c| &c.entry))
            .field("opencl", &self.opencl.as_ref().map(|c| &c.entry))
            .field("abi", &self.abi.is_some())
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
/// use rumba::kernel::prelude::*;
/// #[kernel]
/// fn noop(_t: &Thread) {}
///
/// # fn main() {
/// let k = noop(); // every backend finds the form it runs in `k.function()`
/// let launch = KernelLaunch { function: k.function(), grid: [2, 1, 1], block: [32, 1, 1], dynamic_shared_bytes: 0, args: &[] };
/// let drv = rumba::backend_driver().unwrap();
/// // SAFETY: no arguments, so no memory is touched.
/// unsafe { drv.launch_kernel(0, &launch, StreamHandle::LEGACY) }.unwrap();
/// drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
/// assert!(drv.stream_query(0, StreamHandle::LEGACY).unwrap());
/// # }
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

/// The launch error that a checked kernel's fault record holds, read back from a device and
/// decoded with the kernel's `abi`; `None` when no work-item faulted.
#[cfg_attr(not(any(feature = "cuda", feature = "opencl")), allow(dead_code))] // GPU backends
pub(crate) fn device_fault(kernel: &str, abi: &KernelAbi, record: &[u8]) -> Option<Error> {
    let f = abi.decode_fault(record)?;
    Some(Error::KernelFault {
        kernel: kernel.to_owned(),
        block: f.block,
        thread: f.thread,
        message: f.message,
    })
}

/// The kernel, block, thread and message of a [`Error::KernelFault`]; panics on another error.
#[cfg(test)]
#[cfg_attr(not(any(feature = "cuda", feature = "opencl")), allow(dead_code))] // GPU backends
pub(crate) fn fault_parts(e: &Error) -> (&str, [u32; 3], [u32; 3], &str) {
    match e {
        Error::KernelFault {
            kernel,
            block,
            thread,
            message,
        } => (kernel, *block, *thread, message),
        other => panic!("not a kernel fault: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_backend_finds_its_own_form_and_only_it() {
        let f = KernelFunction::new("k")
            .with_form(CudaKernelSource::new("cuda", "k_cuda"))
            .with_form(OpenClKernelSource::new("cl", "k_cl"));
        let cuda = f.require::<CudaKernelSource>(BackendKind::Cuda).unwrap();
        assert_eq!(
            (cuda.source.as_str(), cuda.entry.as_str()),
            ("cuda", "k_cuda")
        );
        assert_eq!(f.form::<OpenClKernelSource>().unwrap().entry, "k_cl");
        let e = f.require::<HostKernel>(BackendKind::Sim).unwrap_err();
        let m = e.to_string();
        assert!(
            matches!(&e, Error::MissingKernelForm { kernel, form: "Rust body", backend, has, .. }
                if kernel == "k" && backend == "sim" && has == "CUDA C source, OpenCL C source"),
            "{e:?}"
        );
        for part in [
            "kernel 'k'",
            "no Rust body",
            "sim backend",
            "CUDA C source, OpenCL C source",
            "#[rumba::kernel]",
            "Kernel::new",
        ] {
            assert!(m.contains(part), "{m:?} lacks {part:?}");
        }
    }

    #[test]
    fn a_kernel_without_forms_says_so() {
        let e = KernelFunction::new("empty")
            .require::<CudaKernelSource>(BackendKind::Cuda)
            .unwrap_err()
            .to_string();
        assert!(e.contains("(it has: no form at all)"), "{e}");
        assert!(e.contains("Kernel::with_cuda_source"), "{e}");
    }

    #[test]
    fn a_form_replaces_one_of_its_kind() {
        let f = KernelFunction::new("k")
            .with_form(OpenClKernelSource::new("a", "k"))
            .with_form(OpenClKernelSource::new("b", "k"));
        assert_eq!(f.form::<OpenClKernelSource>().unwrap().source, "b");
        assert_eq!(f.forms(), ["OpenCL C source"]);
    }
}
