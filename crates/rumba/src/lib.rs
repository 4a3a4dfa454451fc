//! # rumba
//!
//! Numba's GPU memory-management model for Rust: device memory with deferred deallocation and
//! pluggable memory managers, pinned host memory, streams and events, and kernels written once
//! in Rust, on a simulated GPU that really runs asynchronously (the default), on NVIDIA GPUs
//! through CUDA (the `cuda` feature) or on OpenCL devices (the `opencl` feature).
//!
//! A walk through the layers, each step a runnable example on the backend `RUMBA_BACKEND`
//! selects (where a backend lacks a feature, the example shows its typed refusal):
//!
//! 1. Devices and contexts are created lazily; every call works without setup.
//!    ```
//!    let report = rumba::detect().unwrap();
//!    println!("{report}");
//!    let (free, total) = rumba::get_memory_info().unwrap();
//!    assert!(free <= total);
//!    ```
//! 2. Device memory comes from the context's memory manager and returns to it when the last
//!    handle drops; releases are batched in a deferred queue.
//!    ```
//!    let ctx = rumba::current_context().unwrap();
//!    let buf = ctx.memalloc(1 << 20).unwrap();
//!    buf.memset(0).unwrap();
//!    drop(buf);
//!    ctx.flush_deallocations().unwrap();
//!    assert_eq!(ctx.deallocations().memory.count, 0);
//!    ```
//! 3. Streams run work asynchronously; a scope borrows host memory until the work is done.
//!    ```
//!    let s = rumba::stream().unwrap();
//!    let buf = rumba::current_context().unwrap().memalloc(3).unwrap();
//!    let mut out = [0u8; 3];
//!    s.auto_synchronize(|scope| -> rumba::Result<()> {
//!        scope.copy(&buf, &[1, 2, 3])?;
//!        scope.copy(&mut out, &buf)
//!    }).unwrap();
//!    assert_eq!(out, [1, 2, 3]);
//!    ```
//! 4. Events order streams and time them.
//!    ```
//!    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
//!    let e = rumba::event(rumba::EventOptions::new()).unwrap();
//!    e.record(&a).unwrap();
//!    e.wait(&b).unwrap(); // b's later work waits for a's earlier work
//!    b.synchronize().unwrap();
//!    ```
//!
//! 5. Device arrays: n-d views over device memory, copied to and from `ndarray` arrays,
//!    sliced, reshaped and assigned on the device.
//!    ```
//!    use ndarray::{array, s};
//!    let d = rumba::to_device(&array![[1i32, 2, 3], [4, 5, 6]]).unwrap();
//!    d.slice(s![.., ..;2]).unwrap().assign(0).unwrap();
//!    assert_eq!(d.copy_to_host().unwrap(), array![[0, 2, 0], [0, 5, 0]]);
//!    ```
//!
//! 6. Host memory: pinned, mapped and managed arrays, and asynchronous transfers that hand a
//!    pinned buffer back when the stream has reached them.
//!    ```
//!    let s = rumba::stream().unwrap();
//!    let d = rumba::to_device(&[1.0f32, 2.0, 3.0]).unwrap();
//!    let p = rumba::pinned_array::<f32, _>(3, rumba::Order::C).unwrap();
//!    let p = s.download(&d, p).unwrap().wait().unwrap(); // truly asynchronous until `wait`
//!    assert_eq!(p.view().to_vec(), [1.0, 2.0, 3.0]);
//!    let mut m = rumba::mapped_array::<u8, _>(4, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
//!    m.device_mut().memset(7).unwrap();                  // the device writes host memory
//!    assert_eq!(m.view().to_vec(), [7; 4]);
//!    ```
//!
//! 7. Interchange: arrays describe themselves through the CUDA Array Interface, travel to other
//!    processes through IPC handles and to other libraries through DLPack; a `SmartArray` moves
//!    between host and device only when needed.
//!    ```
//!    let d = rumba::to_device(&[1.0f32, 2.0]).unwrap();
//!    assert_eq!(d.cuda_array_interface().typestr, "<f4");
//!    let same = rumba::as_cuda_array::<f32, ndarray::Ix1, _>(d.clone());
//!    let handle = d.get_ipc_handle();
//!    if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
//!        // OpenCL memory means nothing to a CUDA consumer, and OpenCL has no IPC: both refused.
//!        assert!(matches!(same, Err(rumba::Error::Unsupported { .. })));
//!        assert!(matches!(handle, Err(rumba::Error::Unsupported { .. })));
//!    } else {
//!        assert_eq!(same.unwrap().device_ptr(), d.device_ptr());
//!        let text = handle.unwrap().to_string(); // for another process to open
//!        assert!(text.starts_with("rumba-ipc-array"));
//!    }
//!    ```
//!
//! 8. Kernels: one Rust function (`#[rumba::kernel]`, see [`kernel::prelude`]) that the
//!    simulator runs as Rust and CUDA and OpenCL as generated C, launched on a stream with device
//!    arrays, host arrays (copied automatically) and scalars; shared memory and barriers inside.
//!    ```
//!    use rumba::kernel::prelude::*;
//!
//!    #[kernel]
//!    fn scale(t: &Thread, x: &mut Arr<f32>, k: f32) {
//!        let i = t.grid1();
//!        if i < x.len() {
//!            x[i] *= k;
//!        }
//!    }
//!
//!    # fn main() {
//!    let mut host = ndarray::arr1(&[1.0f32, 2.0, 3.0]);
//!    scale().configure(1, 32).launch((&mut host, 2.0)).unwrap(); // in, kernel, back
//!    assert_eq!(host.to_vec(), [2.0, 4.0, 6.0]);
//!    # }
//!    ```
//!
//! Beyond one process, the `mpi` feature adds `rumba::dist`: device arrays sent, received and
//! reduced across MPI ranks in stream order, and, with `nccl`, NCCL collectives on CUDA streams.
//!
//! [`prelude`] brings the items most programs use into scope in one import
//! (`use rumba::prelude::*;`). The crate root is Numba's `cuda` namespace: its functions
//! (`rumba::to_device`, `rumba::pinned_array`, `rumba::stream`, …) and the types they return;
//! guards, reports and the other types a program rarely names live only in their modules
//! ([`context`], [`host`], [`stream`](mod@stream), [`transfer`], [`interop`]).
//!
//! ## Layers
//!
//! The library is built in floors; a module imports only from its own floor and the floors above
//! it in this list (`tests/layers.rs` reads this block and checks every `crate::` path of the
//! library against it, so it stays true):
//!
//! ```text
//! error, test_support           the one error type; the unit tests' shared helpers
//! config, unwind, sync, layout  settings; panic capture; locks; layout arithmetic (no device)
//! driver                        one trait over a device API: sim, cuda, opencl; the kernel engine
//! memory                        memory resources, the default manager, the pool, pinned memory
//! runtime                       devices, contexts, the current device, detect
//! stream                        streams and events
//! array                         DeviceArray: n-d arrays in device memory
//! host                          pinned, mapped, managed and grained host arrays and guards
//! transfer                      copy, the stream scope, owned asynchronous transfers
//! interop                       CUDA Array Interface, IPC, DLPack, SmartArray
//! kernel                        #[rumba::kernel] launches: configuration, arguments, policies
//! dist                          arrays across processes: MPI communicators, NCCL (features mpi, nccl)
//! ```
//!
//! `interop` sits below `kernel` because a kernel argument may be any object that describes itself
//! through the CUDA Array Interface, imported by `interop`; nothing in `interop` needs kernels.
//! Module documentation says what each module is for and points here for where it sits. Code
//! imports a name from the module that owns it (`crate::error::Error`, not `crate::Error`); the
//! crate root and [`prelude`] only re-export. Below the floors, `rumba-kernel-ir` (the kernel
//! language's lowering) and `rumba-macros` (the attributes) are crates of their own.
#![warn(missing_docs)]
// Every fallible public function says which errors it returns and when (CI denies warnings).
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

extern crate self as rumba;

pub mod array;
pub mod config;
#[cfg(feature = "mpi")]
pub mod dist;
pub mod driver;
pub mod error;
pub mod host;
pub mod interop;
pub mod kernel;
pub mod layout;
pub mod memory;
pub mod prelude;
pub mod runtime;
pub mod stream;
mod sync;
#[cfg(test)]
mod test_support;
pub mod transfer;
mod unwind;

// Paths earlier versions had: `rumba::context::Context`, `rumba::event::Event`.
pub use runtime::context;
pub use stream::event;

pub use array::{
    DeviceArray, DeviceRecord, Order, device_array, device_array_like, device_array_with_strides,
    to_device, to_device_alloc, to_device_on,
};
pub use config::Config;
pub use context::Context;
pub use error::{Error, Result};
pub use event::{Event, EventOptions, event, event_elapsed_time};
pub use host::{
    HostArray, ManagedArray, MappedArray, MappedOptions, MappedView, MappedViewMut, PinnedArray,
    coarsegrain_array, coarsegrain_array_like, deregister, finegrain_array, finegrain_array_like,
    managed_array, managed_array_like, mapped, mapped_array, mapped_array_like, pinned,
    pinned_array, pinned_array_like, register,
};
pub use interop::{
    CudaArrayInterface, IpcArrayHandle, SmartArray, as_cuda_array, from_cuda_array_interface,
    from_dlpack, is_cuda_array,
};
pub use kernel::{In, InOut, Kernel, Out, const_array_like};
/// The `ndarray` version rumba's host arrays come from (use it to avoid version mismatches).
pub use ndarray;
/// `#[rumba::kernel]` and `#[rumba::device]`: one Rust kernel source for the simulator, CUDA
/// and OpenCL (see [`kernel::prelude`]; records are `#[rumba::kernel::record]`).
pub use rumba_macros::{device, kernel};
pub use runtime::{
    DetectReport, Device, DeviceGuard, backend, backend_driver, close, configure, current_context,
    current_device, defer_cleanup, detect, empty_cache, get_memory_info, gpus, memory_snapshot,
    memory_stats, runtime_config, select_device, synchronize,
};
pub use stream::{
    Graph, Stream, StreamKind, default_stream, external_stream, legacy_default_stream,
    per_thread_default_stream, stream,
};
pub use transfer::{StreamScope, Transfer, copy};
