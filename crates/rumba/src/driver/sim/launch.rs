//! Kernel launches on the simulated GPU.
//!
//! [`SimDriver::launch_kernel`](crate::driver::Driver::launch_kernel) checks every array argument
//! against the allocation table when it is queued (the whole byte range its layout spans must lie
//! in one live allocation, else [`Error::InvalidAddress`] at once) and keeps the resolved regions
//! in the queued operation, so the memory stays alive until the kernel has run even if it is freed
//! meanwhile. On the stream worker, the regions are turned into host addresses and the kernel's
//! [`SimKernelFn`] is called with a [`SimLaunch`]; the body (built by the kernel layer) makes
//! bounds-checked views of them and runs the grid on rayon's pool. Its error — a kernel fault —
//! becomes the stream's error, reported at the next synchronization.
//!
//! This module touches the allocation table (resolution) and the stream queue.

use std::sync::Arc;

use super::SimDriver;
use super::memory::Resolved;
use crate::driver::{KernelArg, KernelArrayArg, KernelLaunch, StreamHandle};
use crate::error::{Error, Result};

/// The sim entry point of a kernel: called once per launch, on the stream worker, with the
/// resolved arguments. It runs the whole grid and returns its outcome.
pub type SimKernelFn = Arc<dyn Fn(&SimLaunch<'_>) -> Result<()> + Send + Sync>;

/// One launch as the sim body sees it: name, geometry and resolved arguments.
///
/// Only the simulator creates these; see [`Kernel::new`](crate::kernel::Kernel::new) for the
/// typed way to write a body.
///
/// ```
/// use rumba::driver::sim::SimLaunch;
/// fn grid_of(l: &SimLaunch<'_>) -> [u32; 3] { l.grid() }
/// ```
pub struct SimLaunch<'a> {
    name: &'a str,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_shared_bytes: usize,
    args: &'a [SimArg<'a>],
}

impl<'a> SimLaunch<'a> {
    /// The kernel's name.
    ///
    /// ```
    /// fn name<'a>(l: &'a rumba::driver::sim::SimLaunch<'a>) -> &'a str { l.name() }
    /// ```
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// Blocks along x, y, z.
    ///
    /// ```
    /// fn g(l: &rumba::driver::sim::SimLaunch<'_>) -> u32 { l.grid()[0] }
    /// ```
    pub fn grid(&self) -> [u32; 3] {
        self.grid
    }

    /// Threads per block along x, y, z.
    ///
    /// ```
    /// fn b(l: &rumba::driver::sim::SimLaunch<'_>) -> u32 { l.block()[0] }
    /// ```
    pub fn block(&self) -> [u32; 3] {
        self.block
    }

    /// Bytes of dynamic shared memory per block.
    ///
    /// ```
    /// fn d(l: &rumba::driver::sim::SimLaunch<'_>) -> usize { l.dynamic_shared_bytes() }
    /// ```
    pub fn dynamic_shared_bytes(&self) -> usize {
        self.dynamic_shared_bytes
    }

    /// The arguments, in order.
    ///
    /// ```
    /// fn n(l: &rumba::driver::sim::SimLaunch<'_>) -> usize { l.args().len() }
    /// ```
    pub fn args(&self) -> &'a [SimArg<'a>] {
        self.args
    }
}

/// A resolved kernel argument.
///
/// ```
/// use rumba::driver::sim::SimArg;
/// fn is_array(a: &SimArg<'_>) -> bool { matches!(a, SimArg::Array(_)) }
/// ```
#[derive(Clone, Copy)]
pub enum SimArg<'a> {
    /// An array, resolved to host memory.
    Array(SimArray<'a>),
    /// A scalar's native-endian bytes.
    Scalar(&'a [u8]),
}

/// An array argument resolved to the host memory behind it.
///
/// **Guarantee** (upheld by the simulator, the only place these are made): every element the
/// layout addresses — `addr() + Σ i_k·strides()[k]` for in-bounds indices, `itemsize()` bytes
/// each — lies inside one live allocation that stays alive for `'a`, is writable memory reached
/// with write permission, and is accessed by everyone else only through atomics (the sim's byte
/// movers and kernel views). `addr()` is aligned as the launch layer arranged. For size 0,
/// `addr()` is a dangling pointer aligned to 64 bytes.
///
/// ```
/// fn size(a: &rumba::driver::sim::SimArray<'_>) -> usize { a.shape().iter().product() }
/// ```
#[derive(Clone, Copy)]
pub struct SimArray<'a> {
    addr: *mut u8,
    desc: &'a KernelArrayArg,
}

impl<'a> SimArray<'a> {
    /// Host address of element `(0, …, 0)`.
    ///
    /// ```
    /// fn p(a: &rumba::driver::sim::SimArray<'_>) -> *mut u8 { a.addr() }
    /// ```
    pub fn addr(&self) -> *mut u8 {
        self.addr
    }

    /// Elements along each axis.
    ///
    /// ```
    /// fn s<'a>(a: &rumba::driver::sim::SimArray<'a>) -> &'a [usize] { a.shape() }
    /// ```
    pub fn shape(&self) -> &'a [usize] {
        &self.desc.shape
    }

    /// Byte strides.
    ///
    /// ```
    /// fn s<'a>(a: &rumba::driver::sim::SimArray<'a>) -> &'a [isize] { a.strides() }
    /// ```
    pub fn strides(&self) -> &'a [isize] {
        &self.desc.strides
    }

    /// Bytes per element.
    ///
    /// ```
    /// fn s(a: &rumba::driver::sim::SimArray<'_>) -> usize { a.itemsize() }
    /// ```
    pub fn itemsize(&self) -> usize {
        self.desc.itemsize
    }

    /// Whether the kernel may write it.
    ///
    /// ```
    /// fn w(a: &rumba::driver::sim::SimArray<'_>) -> bool { a.writable() }
    /// ```
    pub fn writable(&self) -> bool {
        self.desc.writable
    }
}

/// A dangling, 64-byte-aligned address for arrays without elements.
const EMPTY_ADDR: usize = 64;

/// What a queued launch holds for one argument: the region of an array (kept alive) and the
/// offset of element 0 from the start of the resolved range.
type Held = Option<(Resolved, isize)>;

impl SimDriver {
    /// Queues `launch` on `stream` (see the module docs).
    pub(super) fn launch(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        let function = launch.function;
        let sim = function.sim.clone().ok_or_else(|| {
            Error::Unsupported(format!(
                "kernel '{}' has no simulator body (it only has CUDA source)",
                function.name
            ))
        })?;
        let mut held = Vec::with_capacity(launch.args.len());
        for (k, arg) in launch.args.iter().enumerate() {
            held.push(match arg {
                KernelArg::Scalar(_) => None,
                KernelArg::Array(a) => self.resolve_array(device, a).map_err(|e| {
                    Error::InvalidArgument(format!(
                        "argument {k} of kernel '{}' does not fit its device memory: {e}",
                        function.name
                    ))
                })?,
            });
        }
        let name = function.name.clone();
        let args: Vec<KernelArg> = launch.args.to_vec();
        let (grid, block, dynamic_shared_bytes) =
            (launch.grid, launch.block, launch.dynamic_shared_bytes);
        self.enqueue(
            device,
            stream,
            Box::new(move || {
                let resolved: Vec<SimArg<'_>> = args
                    .iter()
                    .zip(&held)
                    .map(|(arg, h)| match arg {
                        KernelArg::Scalar(b) => SimArg::Scalar(b),
                        KernelArg::Array(desc) => SimArg::Array(SimArray {
                            addr: match h {
                                Some((r, lo)) => r.addr().wrapping_offset(-lo),
                                None => std::ptr::without_provenance_mut(EMPTY_ADDR),
                            },
                            desc,
                        }),
                    })
                    .collect();
                let result = sim(&SimLaunch {
                    name: &name,
                    grid,
                    block,
                    dynamic_shared_bytes,
                    args: &resolved,
                });
                result.map_err(|e| device_addresses(e, &resolved))
            }),
        )
        .map(drop)
    }

    /// Resolves the byte range an array argument spans (`None` for size 0).
    fn resolve_array(&self, device: usize, a: &KernelArrayArg) -> Result<Held> {
        if a.shape.len() != a.strides.len() {
            return Err(Error::InvalidArgument(format!(
                "{} dimension(s) but {} stride(s)",
                a.shape.len(),
                a.strides.len()
            )));
        }
        let Some((lo, hi)) = a.byte_extent() else {
            if a.size() == 0 {
                return Ok(None);
            }
            return Err(Error::InvalidArgument(format!(
                "the layout (shape {:?}, strides {:?}) overflows the address space",
                a.shape, a.strides
            )));
        };
        let start = a
            .ptr
            .checked_add_signed(lo as i64)
            .ok_or(Error::InvalidAddress {
                ptr: a.ptr,
                len: (hi - lo) as usize,
                reason: "the layout reaches below address 0".into(),
            })?;
        let r = self.resolve(device, start, (hi - lo) as usize)?;
        Ok(Some((r, lo)))
    }
}

/// Rewrites the host addresses of a fault on an array argument into device addresses: the
/// kernel layer names the view's base and the offending element by their host addresses, which
/// mean nothing to the caller.
fn device_addresses(e: Error, args: &[SimArg<'_>]) -> Error {
    let Error::KernelFault {
        kernel,
        block,
        thread,
        mut message,
    } = e
    else {
        return e;
    };
    for arg in args {
        let SimArg::Array(a) = arg else { continue };
        let host = a.addr() as usize;
        let at = format!("global array at {:p}", a.addr());
        if !message.contains(&at) {
            continue;
        }
        message = message.replace(
            &at,
            &format!("global array at device address {:#x}", a.desc.ptr),
        );
        if let Some(start) = message.find("(address 0x") {
            let digits = &message[start + 11..];
            let end = digits.find(')').unwrap_or(digits.len());
            if let Ok(v) = usize::from_str_radix(&digits[..end], 16) {
                let dev = a.desc.ptr.wrapping_add(v.wrapping_sub(host) as u64);
                message.replace_range(
                    start..start + 11 + end,
                    &format!("(device address {dev:#x}"),
                );
            }
        }
        break;
    }
    Error::KernelFault {
        kernel,
        block,
        thread,
        message,
    }
}
