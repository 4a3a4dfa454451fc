//! Kernel launches on the simulated GPU.
//!
//! [`SimDriver::launch_kernel`](crate::driver::Driver::launch_kernel) checks every array argument
//! against the allocation table when it is queued (the whole byte range its layout spans must lie
//! in one live allocation, else [`Error::InvalidAddress`] at once) and keeps the resolved regions
//! in the queued operation, so the memory stays alive until the kernel has run even if it is freed
//! meanwhile. On the stream worker, the regions are turned into host addresses ([`HostArg`]) and
//! the kernel's Rust form ([`HostKernel`]) is run with a [`HostLaunch`]; the form (built by the
//! kernel layer) makes bounds-checked views of them and runs the grid on the engine
//! ([`engine`](super::engine)). Its error — a kernel fault — becomes the stream's error, reported
//! at the next synchronization. A kernel without a Rust form is refused before anything is
//! queued ([`KernelFunction::require`](crate::driver::KernelFunction::require)).
//!
//! This module touches the allocation table (resolution) and the stream queue.

use std::sync::atomic::AtomicU8;

use super::SimDriver;
use super::inflight::{Lease, Touch};
use super::memory::Resolved;
use crate::driver::kernel::UNUSED;
use crate::driver::{
    ArrayUse, BackendKind, HostArg, HostArrayArg, HostEngine, HostKernel, HostLaunch, KernelArg,
    KernelArrayArg, KernelLaunch, StreamHandle,
};
use crate::error::{ArgumentError, Error, Result, StridesError};
use rumba_kernel_ir::abi::{KernelAbi, ParamKind};

/// A dangling, 64-byte-aligned address for arrays without elements.
const EMPTY_ADDR: usize = 64;

/// What a queued launch holds for one argument: the region of an array (kept alive) and the
/// offset of element 0 from the start of the resolved range.
type Held = Option<(Resolved, isize)>;

/// Runs a prepared launch once, given the leases granted to its touches.
pub(super) type LaunchBody = std::sync::Arc<dyn Fn(&[Option<Lease>]) -> Result<()> + Send + Sync>;

impl SimDriver {
    /// Queues `launch` on `stream` (see the module docs).
    pub(super) fn launch(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        let (touches, body) = self.prepare_launch(device, launch)?;
        if let Some(r) = self.captures.capture_node(device, stream, || {
            super::graph::SimNode::kernel(launch, &touches, &body)
        }) {
            return r;
        }
        self.enqueue_touching(device, stream, touches, move |release| {
            Box::new(move || {
                // Leases are decided now that the kernel runs; `release` lives until it is done.
                let grants = release.grant();
                let result = body(&grants);
                drop(release);
                result
            })
        })
        .map(drop)
    }

    /// Checks `launch` against the allocation table and builds what runs it: the touches of its
    /// arguments and the body, which runs the kernel once per call with the leases granted to
    /// those touches (all `None`: no lease).
    pub(super) fn prepare_launch(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
    ) -> Result<(Vec<Touch>, LaunchBody)> {
        let function = launch.function;
        let host = function.require::<HostKernel>(BackendKind::Sim)?.clone();
        let engine = host.engine();
        let mut held = Vec::with_capacity(launch.args.len());
        let mut touches = Vec::new();
        // Per argument: the index of its touch (arrays with elements only) and how it is used.
        let mut plan = Vec::with_capacity(launch.args.len());
        for (k, arg) in launch.args.iter().enumerate() {
            let h = match arg {
                KernelArg::Scalar(_) => None,
                KernelArg::Array(a) => {
                    self.resolve_array(device, a)
                        .map_err(|e| Error::KernelArgument {
                            kernel: function.name.clone(),
                            position: k,
                            parameter: None,
                            problem: ArgumentError::Placement(Box::new(e)),
                        })?
                }
            };
            let array_use = host.array_use(k);
            let touch = h.as_ref().zip(match arg {
                KernelArg::Array(a) => Some(a),
                KernelArg::Scalar(_) => None,
            });
            plan.push((
                touch.map(|((r, _), desc)| {
                    let write = desc.writable && array_use != ArrayUse::Read;
                    let want = match (engine, array_use) {
                        (HostEngine::WorkItemLoops, ArrayUse::Read) => Some(Lease::Frozen),
                        (HostEngine::WorkItemLoops, ArrayUse::OwnIndexStore) => {
                            Some(Lease::Exclusive)
                        }
                        _ => None,
                    };
                    touches.push(Touch::kernel_arg(r, write, want));
                    touches.len() - 1
                }),
                array_use,
            ));
            held.push(h);
        }
        let name = function.name.clone();
        let abi = function.abi();
        let args: Vec<KernelArg> = launch.args.to_vec();
        let (grid, block, dynamic_shared_bytes) =
            (launch.grid, launch.block, launch.dynamic_shared_bytes);
        let body: LaunchBody = std::sync::Arc::new(move |grants: &[Option<Lease>]| {
            let claims: Vec<AtomicU8> = args.iter().map(|_| AtomicU8::new(UNUSED)).collect();
            let resolved: Vec<HostArg<'_>> = args
                .iter()
                .zip(&held)
                .zip(&plan)
                .zip(&claims)
                .map(|(((arg, h), (touch, array_use)), claim)| match arg {
                    KernelArg::Scalar(b) => HostArg::Scalar(b),
                    KernelArg::Array(desc) => {
                        let addr = match h {
                            Some((r, lo)) => r.addr().wrapping_offset(-lo),
                            None => std::ptr::without_provenance_mut(EMPTY_ADDR),
                        };
                        // SAFETY: `addr` is element 0 of the range resolved (and kept alive
                        // by `held`) for exactly this layout, in an allocation others reach
                        // only through the sim's atomic byte movers and kernel views; a
                        // size-0 array gets an aligned dangling address it never reads.
                        let mut a = unsafe { HostArrayArg::new(addr, desc) };
                        if *array_use == ArrayUse::Read {
                            a = a.read_only();
                        }
                        match touch.and_then(|t| grants.get(t).copied().flatten()) {
                            // SAFETY: the tracker granted the frozen lease, held until
                            // `release` drops after the kernel: nothing else writes the
                            // allocation meanwhile (no writer was registered, later ones
                            // wait for us), and the kernel gets the array read-only (its use
                            // is `Read`, the only one that asks).
                            Some(Lease::Frozen) => a = unsafe { a.frozen_for_launch() },
                            // SAFETY: the tracker granted the exclusive lease, held until
                            // `release` drops after the kernel: nothing else touches the
                            // allocation meanwhile, and no other argument of this launch
                            // addresses it.
                            Some(Lease::Exclusive) => a = unsafe { a.exclusive_for_launch(claim) },
                            None => {}
                        }
                        HostArg::Array(a)
                    }
                })
                .collect();
            let launch = HostLaunch::new(&name, grid, block, dynamic_shared_bytes, &resolved);
            let frozen = resolved
                .iter()
                .filter(|a| matches!(a, HostArg::Array(a) if a.frozen()))
                .count();
            let result = host.run(engine, &launch);
            tracing::debug!(
                kernel = %name,
                %engine,
                frozen_inputs = frozen,
                exclusive_outputs = grants.iter().filter(|g| **g == Some(Lease::Exclusive)).count(),
                "kernel engine"
            );
            let result = result.map_err(|e| device_addresses(e, &resolved, abi));
            drop(resolved);
            result
        });
        Ok((touches, body))
    }

    /// Resolves the byte range an array argument spans (`None` for size 0).
    fn resolve_array(&self, device: usize, a: &KernelArrayArg) -> Result<Held> {
        if a.shape.len() != a.strides.len() {
            return Err(StridesError::Count {
                shape: a.shape.clone(),
                strides: a.strides.clone(),
            }
            .into());
        }
        let Some((lo, hi)) = a.byte_extent() else {
            if a.size() == 0 {
                return Ok(None);
            }
            return Err(StridesError::Overflow {
                shape: a.shape.clone(),
                strides: a.strides.clone(),
            }
            .into());
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
/// mean nothing to the caller. An argument that the kernel's signature (`abi`, from
/// `#[rumba::kernel]`) declares `&ConstArr<T>` is named a constant array, as the C targets name
/// it: the engine sees every array argument as global memory.
fn device_addresses(e: Error, args: &[HostArg<'_>], abi: Option<&KernelAbi>) -> Error {
    let Error::KernelFault {
        kernel,
        block,
        thread,
        mut message,
    } = e
    else {
        return e;
    };
    for (k, arg) in args.iter().enumerate() {
        let HostArg::Array(a) = arg else { continue };
        let host = a.addr() as usize;
        let at = format!("global array at {:p}", a.addr());
        if !message.contains(&at) {
            continue;
        }
        let constant = abi
            .and_then(|abi| abi.params.get(k))
            .is_some_and(|p| matches!(p.kind, ParamKind::ConstArray { .. }));
        let space = if constant { "constant" } else { "global" };
        message = message.replace(
            &at,
            &format!("{space} array at device address {:#x}", a.device_ptr()),
        );
        if let Some(start) = message.find("(address 0x") {
            let digits = &message[start + 11..];
            let end = digits.find(')').unwrap_or(digits.len());
            if let Ok(v) = usize::from_str_radix(&digits[..end], 16) {
                let dev = a.device_ptr().wrapping_add(v.wrapping_sub(host) as u64);
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
