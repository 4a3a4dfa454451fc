//! The raw vocabulary of the [`Driver`](super::Driver) trait: device pointers, stream and event
//! handles, where a copy or memset runs ([`On`]), host-memory flags and kinds, device facts, and
//! the descriptions of a contiguous and a strided device copy.
//!
//! Plain data and the constants every backend shares: this module touches nothing.

use std::fmt;

use crate::error::Result;

/// A device address. Device pointers are plain integers: host code cannot dereference them.
pub type DevicePtr = u64;

/// Threads per warp on every backend (NVIDIA's width; OpenCL kernels emulate warps of this width
/// in local memory, and the simulator groups threads by it so that `lane_id` and warp-sized
/// tiling behave as on hardware).
///
/// ```
/// assert_eq!(rumba::driver::WARP_SIZE, 32);
/// ```
pub const WARP_SIZE: u32 = 32;

/// A raw stream handle as the backend knows it.
///
/// The three built-in handles are [`StreamHandle::DEFAULT`] (0), [`StreamHandle::LEGACY`] (1) and
/// [`StreamHandle::PER_THREAD`] (2), exactly as in CUDA.
///
/// ```
/// use rumba::driver::StreamHandle;
/// assert_eq!(StreamHandle::LEGACY.0, 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamHandle(pub u64);

impl StreamHandle {
    /// The default stream (handle 0): the legacy default stream, or the calling thread's
    /// per-thread default stream when [`Config::per_thread_default_stream`](crate::Config::per_thread_default_stream) is set.
    pub const DEFAULT: StreamHandle = StreamHandle(0);
    /// The legacy default stream (handle 1), which synchronizes with every blocking stream.
    pub const LEGACY: StreamHandle = StreamHandle(1);
    /// The per-thread default stream (handle 2): one per host thread.
    pub const PER_THREAD: StreamHandle = StreamHandle(2);
}

/// How a copy or memset is ordered with other device work, and when its call returns: the one
/// difference between CUDA's `cuMemcpyHtoD` and `cuMemcpyHtoDAsync` (and every such pair), which
/// the [`Driver`](super::Driver) takes as an argument instead of a second method.
///
/// ```
/// use rumba::driver::{On, Order, StreamHandle};
/// assert_eq!(On::blocking(1).order, Order::Blocking);
/// assert_eq!(On::stream(0, StreamHandle::LEGACY).order.stream(), Some(StreamHandle::LEGACY));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// Synchronous: ordered after earlier work on the device's default stream (the legacy one,
    /// or with per-thread default streams the calling thread's own), and complete when the call
    /// returns.
    Blocking,
    /// Queued on this stream: ordered with its work only; the call returns once it is queued
    /// (or later, where an operation says so).
    Stream(StreamHandle),
}

impl Order {
    /// The stream it is queued on; `None` for [`Order::Blocking`].
    pub fn stream(self) -> Option<StreamHandle> {
        match self {
            Order::Blocking => None,
            Order::Stream(s) => Some(s),
        }
    }
}

/// Where a copy or memset runs: the device whose context issues it, and its [`Order`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct On {
    /// The issuing device (for a peer copy: the destination's).
    pub device: usize,
    /// Blocking, or queued on a stream of `device`.
    pub order: Order,
}

impl On {
    /// Blocking, in `device`'s context.
    pub fn blocking(device: usize) -> On {
        On {
            device,
            order: Order::Blocking,
        }
    }

    /// Queued on `stream` of `device`.
    pub fn stream(device: usize, stream: StreamHandle) -> On {
        On {
            device,
            order: Order::Stream(stream),
        }
    }
}

/// A contiguous copy between device addresses: `bytes` from `src` to `dst`.
///
/// ```
/// use rumba::driver::{DeviceCopy, Driver, On, sim::SimDriver};
/// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
/// let (a, b) = (drv.mem_alloc(0, 4).unwrap(), drv.mem_alloc(0, 4).unwrap());
/// // SAFETY: two fresh 4-byte device allocations that nothing else uses.
/// unsafe { drv.memset(On::blocking(0), a, 3, 4) }.unwrap();
/// unsafe { drv.memcpy_dtod(On::blocking(0), DeviceCopy { dst: b, src: a, bytes: 4 }) }.unwrap();
/// let mut out = [0u8; 4];
/// unsafe { drv.memcpy_dtoh(On::blocking(0), &mut out, b) }.unwrap();
/// assert_eq!(out, [3; 4]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeviceCopy {
    /// Where the bytes go.
    pub dst: DevicePtr,
    /// Where they come from.
    pub src: DevicePtr,
    /// How many.
    pub bytes: usize,
}

/// A raw event handle.
///
/// ```
/// let e = rumba::driver::EventHandle(5);
/// assert_eq!(e.0, 5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventHandle(pub u64);

/// Flags for page-locked host allocations and registrations (CUDA's `CU_MEMHOSTALLOC_*`).
///
/// ```
/// let f = rumba::driver::HostAllocFlags { mapped: true, ..Default::default() };
/// assert!(f.mapped && !f.portable);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct HostAllocFlags {
    /// Usable from every device, not only the one current at allocation.
    pub portable: bool,
    /// Mapped into the device address space (the device reads and writes it directly).
    pub mapped: bool,
    /// Write-combined: fast for the host to write and the device to read, slow for the host to read.
    pub write_combined: bool,
}

impl HostAllocFlags {
    /// Portable and mapped: page-locked memory that every device addresses (what grained and the
    /// sim's managed memory are made of).
    pub(crate) const SHARED: HostAllocFlags = HostAllocFlags {
        portable: true,
        mapped: true,
        write_combined: false,
    };
}

/// Where managed memory is attached when it is allocated (CUDA's `CU_MEM_ATTACH_GLOBAL` /
/// `CU_MEM_ATTACH_HOST`; Numba's `attach_global=True` / `False`).
///
/// ```
/// assert_ne!(rumba::driver::ManagedAttach::Global, rumba::driver::ManagedAttach::Host);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ManagedAttach {
    /// Accessible from any stream on any device.
    Global,
    /// Attached to the host: on devices without concurrent managed access, no device may use it
    /// until it is attached to a stream; on devices with it (and on the sim), it is used like
    /// global memory.
    Host,
}

/// The two kinds of host memory ROC (HSA) lets devices use directly — Numba's `roc.coarsegrain_array`
/// and `roc.finegrain_array`.
///
/// ```
/// assert_eq!(rumba::driver::GrainKind::Fine.to_string(), "fine-grained");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GrainKind {
    /// Coherent between host and device only at synchronization points.
    Coarse,
    /// Coherent while device work runs.
    Fine,
}

impl fmt::Display for GrainKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GrainKind::Coarse => "coarse-grained",
            GrainKind::Fine => "fine-grained",
        })
    }
}

/// Whether the host OS lets this process page-lock memory.
///
/// ```
/// let p = rumba::driver::PageLocking::Refused("RLIMIT_MEMLOCK is 64 KiB".into());
/// assert!(!p.is_available());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageLocking {
    /// `mlock` works: pinned memory is really page-locked.
    Available,
    /// The OS refused; pinned allocations still succeed but are ordinary pageable memory.
    Refused(String),
}

impl PageLocking {
    /// True when host memory can really be page-locked.
    ///
    /// ```
    /// assert!(rumba::driver::PageLocking::Available.is_available());
    /// ```
    pub fn is_available(&self) -> bool {
        matches!(self, PageLocking::Available)
    }
}

/// What a device is, as [`Driver::device_info`](super::Driver::device_info) reports it.
///
/// ```
/// use rumba::driver::{Driver, sim::SimDriver};
/// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
/// let info = drv.device_info(0).unwrap();
/// assert_eq!(info.warp_size, 32);
/// assert!(info.compute_capability.is_none()); // the sim has none
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Device ordinal.
    pub ordinal: usize,
    /// Marketing or simulator name.
    pub name: String,
    /// Total device memory in bytes.
    pub total_memory: usize,
    /// `(major, minor)` on CUDA; `None` on the sim.
    pub compute_capability: Option<(u32, u32)>,
    /// Number of multiprocessors (on the sim: worker threads that run blocks).
    pub multiprocessors: u32,
    /// Threads per warp, as kernels see them (`ThreadCtx::warp_size`, the lanes of warp
    /// operations): 32 on every backend; OpenCL emulates warps over consecutive work-items.
    pub warp_size: u32,
    /// Largest number of threads in one block.
    pub max_threads_per_block: u32,
    /// Largest static + dynamic shared memory per block, in bytes.
    pub max_shared_memory_per_block: usize,
    /// Whether pinned host memory is really page-locked.
    pub page_locking: PageLocking,
}

/// What a strided copy reads: another strided device range, or one element's bytes to broadcast.
///
/// ```
/// let fill = rumba::driver::StridedSource::Fill(&[1, 0, 0, 0]); // the i32 value 1
/// assert!(matches!(fill, rumba::driver::StridedSource::Fill(b) if b.len() == 4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StridedSource<'a> {
    /// Device memory: the address of the element at index 0 and one byte stride per axis
    /// (negative and zero allowed). It may live on another device of the same driver.
    Device {
        /// Address of the element at index `(0, …, 0)`.
        ptr: DevicePtr,
        /// Byte strides, one per axis of [`StridedCopy::shape`].
        strides: &'a [isize],
    },
    /// One element's bytes (`itemsize` of them), written to every destination element.
    Fill(&'a [u8]),
}

/// One strided device operation: for every index `i` of `shape`, the `itemsize` bytes at
/// `dst + Σ i·dst_strides` receive the element `i` of `src`. This is the general device-side copy
/// behind assignment into strided views, broadcasting, transposing copies and gathers; a CUDA
/// backend implements it with one built-in kernel (one thread per element, shape and strides as
/// arguments).
///
/// Source and destination must not overlap unless every element maps onto itself; otherwise the
/// result is unspecified (as for any kernel that reads what it writes). Callers stage through a
/// temporary when they might overlap.
///
/// ```
/// use rumba::driver::{Driver, StreamHandle, StridedCopy, StridedSource, sim::SimDriver};
/// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
/// let p = drv.mem_alloc(0, 8).unwrap();
/// // Every other byte of 8 set to 7: shape (4,), stride 2.
/// let copy = StridedCopy { shape: &[4], itemsize: 1, dst: p, dst_strides: &[2], src: StridedSource::Fill(&[7]) };
/// // SAFETY: `p` is an 8-byte device allocation that nothing else uses.
/// unsafe { drv.copy_strided_async(0, &copy, StreamHandle::LEGACY) }.unwrap();
/// drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
/// let mut out = [0u8; 8];
/// unsafe { drv.memcpy_dtoh(rumba::driver::On::blocking(0), &mut out, p) }.unwrap();
/// assert_eq!(out, [7, 0, 7, 0, 7, 0, 7, 0]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StridedCopy<'a> {
    /// Number of elements along each axis (the same for both sides).
    pub shape: &'a [usize],
    /// Bytes per element (> 0).
    pub itemsize: usize,
    /// Address of the destination element at index `(0, …, 0)`.
    pub dst: DevicePtr,
    /// Destination byte strides, one per axis (negative and zero allowed).
    pub dst_strides: &'a [isize],
    /// What each element receives.
    pub src: StridedSource<'a>,
}

// Only the GPU backends queue plain copies for strided ones (the simulator's loop nest needs
// none), so a build without them leaves these unused.
#[cfg_attr(not(any(feature = "cuda", feature = "opencl")), allow(dead_code))]
impl StridedCopy<'_> {
    /// The copy as one contiguous run of bytes, when it is one: a device source laid out as the
    /// destination is, both dense (see [`dense_bytes`]), and the two ranges apart. C- and
    /// Fortran-ordered copies of whole arrays qualify.
    ///
    /// The GPU backends queue such a copy as a plain device-to-device copy rather than their
    /// strided-copy kernel (the simulator's loop nest reaches the same memmove by itself).
    /// `None` for fills, shapes with a zero extent, layouts that are not dense or differ between
    /// the two sides, and overlapping ranges.
    pub(crate) fn contiguous_run(&self) -> Option<DeviceCopy> {
        let StridedSource::Device { ptr, strides } = self.src else {
            return None;
        };
        let same = strides.len() == self.shape.len()
            && (self.shape.iter().zip(self.dst_strides).zip(strides))
                .all(|((&n, d), s)| n == 1 || d == s);
        let bytes = dense_bytes(self.shape, self.dst_strides, self.itemsize).filter(|_| same)?;
        let end = |p: DevicePtr| p.checked_add(bytes as u64);
        let apart = end(self.dst)? <= ptr || end(ptr)? <= self.dst;
        apart.then_some(DeviceCopy {
            dst: self.dst,
            src: ptr,
            bytes,
        })
    }

    /// The fill as one memset, when it is one: a dense destination (see [`dense_bytes`]) and an
    /// element whose bytes are all the same (zeros, for one): `(dst, byte, bytes)`. The GPU
    /// backends queue it as their memset rather than the strided-copy kernel.
    pub(crate) fn contiguous_fill(&self) -> Option<(DevicePtr, u8, usize)> {
        let StridedSource::Fill(&[byte, ref rest @ ..]) = self.src else {
            return None;
        };
        if rest.iter().any(|&b| b != byte) {
            return None;
        }
        let bytes = dense_bytes(self.shape, self.dst_strides, self.itemsize)?;
        Some((self.dst, byte, bytes))
    }

    /// Queues the copy as [`contiguous_run`](Self::contiguous_run)'s plain copy or
    /// [`contiguous_fill`](Self::contiguous_fill)'s memset through `driver`, when it is one;
    /// `None` (nothing queued) when it is neither. The GPU backends try this before their
    /// strided-copy kernel.
    ///
    /// # Safety
    /// As for [`Driver::copy_strided_async`](crate::driver::Driver::copy_strided_async), and the
    /// ranges checked as that requires.
    pub(crate) unsafe fn queue_plain<D: crate::driver::Driver + ?Sized>(
        &self,
        driver: &D,
        on: On,
    ) -> Option<Result<()>> {
        if let Some(run) = self.contiguous_run() {
            // SAFETY: the copy's own two ranges, which the caller vouches for.
            return Some(unsafe { driver.memcpy_dtod(on, run) });
        }
        let (dst, byte, bytes) = self.contiguous_fill()?;
        // SAFETY: the copy's own destination range, which the caller vouches for.
        Some(unsafe { driver.memset(on, dst, byte, bytes) })
    }
}

/// The bytes a layout covers when it is dense: every byte from its first element to its last
/// belongs to exactly one element, all strides positive (axes of length 1 are ignored, and the
/// axes may come in any order). `None` for zero or negative strides, gaps and overlaps, a shape
/// with a zero extent, or a stride count that does not match the shape (a 0-d shape covers one
/// element).
#[cfg_attr(not(any(feature = "cuda", feature = "opencl")), allow(dead_code))]
fn dense_bytes(shape: &[usize], strides: &[isize], itemsize: usize) -> Option<usize> {
    if strides.len() != shape.len() || itemsize == 0 {
        return None;
    }
    let mut axes = Vec::with_capacity(shape.len());
    for (&n, &d) in shape.iter().zip(strides) {
        match n {
            0 => return None,
            1 => {}
            _ if d <= 0 => return None,
            _ => axes.push((n, d.unsigned_abs())),
        }
    }
    axes.sort_unstable_by_key(|&(_, stride)| std::cmp::Reverse(stride));
    let mut bytes = itemsize;
    for &(n, stride) in axes.iter().rev() {
        if stride != bytes {
            return None;
        }
        bytes = bytes.checked_mul(n)?;
    }
    Some(bytes)
}

/// A function run by a stream once all work queued before it has completed.
///
/// It receives `Ok(())`, or the error of earlier failed work that has not yet been reported. It runs
/// off the calling host thread and must not wait on its own stream.
pub type HostCallback = Box<dyn FnOnce(Result<()>) + Send + 'static>;

#[cfg(test)]
mod tests {
    use super::*;

    fn copy<'a>(shape: &'a [usize], d: &'a [isize], s: &'a [isize]) -> StridedCopy<'a> {
        StridedCopy {
            shape,
            itemsize: 4,
            dst: 0x1000,
            dst_strides: d,
            src: StridedSource::Device {
                ptr: 0x9000,
                strides: s,
            },
        }
    }

    fn run(bytes: usize) -> Option<DeviceCopy> {
        Some(DeviceCopy {
            dst: 0x1000,
            src: 0x9000,
            bytes,
        })
    }

    #[test]
    fn whole_arrays_in_either_order_are_one_run() {
        assert_eq!(copy(&[3, 5], &[20, 4], &[20, 4]).contiguous_run(), run(60));
        assert_eq!(copy(&[3, 5], &[4, 12], &[4, 12]).contiguous_run(), run(60));
        assert_eq!(copy(&[7], &[4], &[4]).contiguous_run(), run(28));
        // Length-1 axes may carry any stride.
        assert_eq!(
            copy(&[1, 6, 1], &[-8, 4, 0], &[99, 4, 3]).contiguous_run(),
            run(24)
        );
        assert_eq!(copy(&[1], &[0], &[5]).contiguous_run(), run(4));
    }

    #[test]
    fn anything_else_is_not() {
        // A gap between rows, a transposing copy, a reversed axis, a broadcast source.
        assert_eq!(copy(&[3, 5], &[24, 4], &[24, 4]).contiguous_run(), None);
        assert_eq!(copy(&[3, 5], &[20, 4], &[4, 12]).contiguous_run(), None);
        assert_eq!(copy(&[5], &[-4], &[-4]).contiguous_run(), None);
        assert_eq!(copy(&[5], &[4], &[0]).contiguous_run(), None);
        // Two axes with one stride overlap each other.
        assert_eq!(copy(&[2, 2], &[4, 4], &[4, 4]).contiguous_run(), None);
        // Empty, a fill, and ranges that overlap.
        assert_eq!(copy(&[0, 5], &[20, 4], &[20, 4]).contiguous_run(), None);
        let fill = StridedCopy {
            src: StridedSource::Fill(&[0; 4]),
            ..copy(&[5], &[4], &[4])
        };
        assert_eq!(fill.contiguous_run(), None);
        let near = StridedCopy {
            dst: 0x9000 - 8,
            ..copy(&[5], &[4], &[4])
        };
        assert_eq!(near.contiguous_run(), None);
        let after = StridedCopy {
            dst: 0x9000 + 20,
            ..copy(&[5], &[4], &[4])
        };
        assert_eq!(after.contiguous_run().map(|c| c.bytes), Some(20));
    }

    #[test]
    fn fills_of_one_repeated_byte_over_dense_layouts_are_memsets() {
        let fill = |shape: &'static [usize], d: &'static [isize], b: &'static [u8]| StridedCopy {
            shape,
            itemsize: 4,
            dst: 0x1000,
            dst_strides: d,
            src: StridedSource::Fill(b),
        };
        let zero = &[0u8; 4];
        assert_eq!(
            fill(&[3, 5], &[20, 4], zero).contiguous_fill(),
            Some((0x1000, 0, 60))
        );
        assert_eq!(
            fill(&[3, 5], &[4, 12], &[0xff; 4]).contiguous_fill(),
            Some((0x1000, 0xff, 60))
        );
        // The f32 1.0 has different bytes; a gap, a broadcast destination, an empty shape.
        assert_eq!(
            fill(&[5], &[4], &[0, 0, 0x80, 0x3f]).contiguous_fill(),
            None
        );
        assert_eq!(fill(&[3, 5], &[24, 4], zero).contiguous_fill(), None);
        assert_eq!(fill(&[5], &[0], zero).contiguous_fill(), None);
        assert_eq!(fill(&[0], &[4], zero).contiguous_fill(), None);
        // A copy is not a fill.
        assert_eq!(copy(&[5], &[4], &[4]).contiguous_fill(), None);
    }
}
