//! NCCL collectives on rumba's CUDA streams (feature `nccl`): [`NcclCommunicator`].
//!
//! NCCL (cudarc's `nccl`, loaded at run time, so the crate builds without it) runs collectives
//! as GPU kernels on the stream they are given: [`NcclOnStream`]'s operations are enqueued on
//! rumba's stream and return without waiting for the GPU. The communicator is bootstrapped over
//! MPI: rank 0 makes NCCL's unique id and broadcasts it on the MPI communicator, and every rank
//! joins with its rank and the communicator's size.
//!
//! The operations check their arguments the way the MPI operations do, through the same header
//! agreement over MPI (host traffic only: the GPU is not waited for), so mismatched element
//! types, counts, shapes and roots are [`Error::Dist`] on every rank instead of a hang in a GPU
//! kernel. Strided views are packed into temporaries on the stream and unpacked after.
//!
//! Element types NCCL reduces: `i8`, `u8`, `i32`, `u32`, `i64`, `u64`, `f16`, `f32`, `f64`
//! (`Sum`, `Prod`, `Min`, `Max`; NaN follows NCCL's own rules, and `NanMin`/`NanMax` are refused).
//! Broadcasts, gathers and point-to-point transfers move any element type as bytes.

use std::ffi::{c_int, c_void};

use cudarc::nccl::{result as nr, sys};
use ndarray::Dimension;

use super::comm::Communicator;
use super::job::{Packed, agree_headers, check_root, check_size, order_for};
use super::reduce::{ReduceOp, Reducible};
use super::wire::{Header, Op};
use crate::array::DeviceArray;
use crate::driver::{BackendKind, StreamHandle};
use crate::error::{Error, Result};
use crate::layout::{Element, Kind};
use crate::memory::gate::Lease;
use crate::runtime::backend;
use crate::stream::Stream;

/// NCCL's element type for reductions of `T`, if it has one.
pub fn nccl_datatype(dtype: crate::layout::DType) -> Option<sys::ncclDataType_t> {
    use sys::ncclDataType_t as D;
    Some(match (dtype.kind(), dtype.itemsize()) {
        (Kind::Int, 1) => D::ncclInt8,
        (Kind::Uint, 1) => D::ncclUint8,
        (Kind::Int, 4) => D::ncclInt32,
        (Kind::Uint, 4) => D::ncclUint32,
        (Kind::Int, 8) => D::ncclInt64,
        (Kind::Uint, 8) => D::ncclUint64,
        (Kind::Float, 2) => D::ncclFloat16,
        (Kind::Float, 4) => D::ncclFloat32,
        (Kind::Float, 8) => D::ncclFloat64,
        _ => return None,
    })
}

/// NCCL's operator for `op`, if it has one.
pub fn nccl_op(op: ReduceOp) -> Option<sys::ncclRedOp_t> {
    use sys::ncclRedOp_t as O;
    Some(match op {
        ReduceOp::Sum => O::ncclSum,
        ReduceOp::Prod => O::ncclProd,
        ReduceOp::Min => O::ncclMin,
        ReduceOp::Max => O::ncclMax,
        ReduceOp::NanMin | ReduceOp::NanMax => return None,
    })
}

/// The `cudaStream_t` NCCL is handed for a rumba stream: created streams are their `CUstream`;
/// the default stream is CUDA's legacy (`0x1`) or per-thread (`0x2`) default stream, as rumba
/// resolves it.
pub fn cuda_stream(handle: StreamHandle, per_thread_default: bool) -> sys::cudaStream_t {
    let h = match handle {
        StreamHandle::DEFAULT if per_thread_default => StreamHandle::PER_THREAD,
        StreamHandle::DEFAULT => StreamHandle::LEGACY,
        other => other,
    };
    h.0 as usize as sys::cudaStream_t
}

fn nccl_err(rank: usize, op: &str, call: &str, e: nr::NcclError) -> Error {
    Error::Dist {
        rank,
        op: op.into(),
        reason: format!("{call} failed: NCCL error {:?}", e.0),
    }
}

/// A NCCL communicator over the ranks of an MPI [`Communicator`].
pub struct NcclCommunicator<'m> {
    mpi: &'m Communicator,
    comm: sys::ncclComm_t,
    device: usize,
}

impl std::fmt::Debug for NcclCommunicator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "NcclCommunicator(rank {} of {}, device {})",
            self.mpi.rank(),
            self.mpi.size(),
            self.device
        )
    }
}

impl<'m> NcclCommunicator<'m> {
    /// Joins every rank of `mpi` in a NCCL communicator on the current device. Every rank must
    /// call it (it is a collective).
    ///
    /// # Errors
    /// [`Error::Unsupported`] on a backend other than CUDA (on every rank: they agree first);
    /// [`Error::Dist`] when NCCL is not installed or fails to start on some rank, or the MPI
    /// communicator is poisoned.
    pub fn new(mpi: &'m Communicator) -> Result<Self> {
        let refusal = |backend: BackendKind, reason: &str| Error::Unsupported {
            backend: backend.to_string(),
            feature: "NCCL communicators".into(),
            reason: reason.into(),
        };
        let local = match backend()? {
            BackendKind::Cuda => {
                // SAFETY: probing whether the library loads; no NCCL call is made.
                if unsafe { sys::is_culib_present() } {
                    Ok(())
                } else {
                    Err(refusal(
                        BackendKind::Cuda,
                        "the NCCL library (libnccl.so.2) is not installed",
                    ))
                }
            }
            other => Err(refusal(other, "NCCL runs on the CUDA backend only")),
        };
        let mut h = Header::new(Op::Broadcast, None, &[], 0);
        h.root = 0;
        if let Err(why) = &local {
            h = h.refused(&why.to_string());
        }
        if let Err(e) = agree_headers(mpi, Op::Broadcast, &h, false) {
            return Err(match local {
                Err(why) => why,
                Ok(()) => e,
            });
        }
        // Rank 0's id, or its failure, to every rank.
        let mut msg = [0u8; 129];
        if mpi.rank() == 0 {
            match nr::get_uniqueid() {
                Ok(id) => {
                    msg[0] = 1;
                    for (d, s) in msg[1..].iter_mut().zip(id.internal) {
                        *d = s as u8;
                    }
                }
                Err(e) => msg[0] = e.0 as u8 | 0x80,
            }
        }
        // SAFETY: `msg` holds 129 bytes on every rank; the call completes before it returns.
        let rc = unsafe {
            mpi::ffi::MPI_Bcast(
                msg.as_mut_ptr().cast::<c_void>(),
                msg.len() as c_int,
                super::raw::byte(),
                0,
                mpi.coll,
            )
        };
        super::raw::check(rc, mpi.rank(), "nccl init", "MPI_Bcast")?;
        if msg[0] != 1 {
            return Err(Error::Dist {
                rank: 0,
                op: "nccl init".into(),
                reason: format!("ncclGetUniqueId failed on rank 0 (code {})", msg[0] & 0x7f),
            });
        }
        let mut id = sys::ncclUniqueId { internal: [0; 128] };
        for (d, s) in id.internal.iter_mut().zip(&msg[1..]) {
            *d = *s as std::ffi::c_char;
        }
        let stream = crate::stream::default_stream()?;
        let device = stream.context().device_id();
        // Any driver call binds the device's context on this thread, which NCCL needs.
        stream.query()?;
        let mut comm: sys::ncclComm_t = std::ptr::null_mut();
        // SAFETY: `comm` receives the communicator; the id came from rank 0's NCCL.
        unsafe { nr::comm_init_rank(&mut comm, mpi.size() as c_int, id, mpi.rank() as c_int) }
            .map_err(|e| nccl_err(mpi.rank(), "nccl init", "ncclCommInitRank", e))?;
        Ok(NcclCommunicator { mpi, comm, device })
    }

    /// Operations enqueued on `stream` (no host wait).
    pub fn on<'a>(&'a self, stream: &'a Stream) -> NcclOnStream<'a, 'm> {
        NcclOnStream { nccl: self, stream }
    }

    /// This rank.
    pub fn rank(&self) -> usize {
        self.mpi.rank()
    }

    /// Number of ranks.
    pub fn size(&self) -> usize {
        self.mpi.size()
    }
}

impl Drop for NcclCommunicator<'_> {
    fn drop(&mut self) {
        // SAFETY: the communicator was made by ncclCommInitRank and is destroyed once; NCCL
        // finishes the work already enqueued.
        let _ = unsafe { nr::comm_destroy(self.comm) };
    }
}

/// A [`NcclCommunicator`]'s operations on one stream.
#[derive(Clone, Copy, Debug)]
pub struct NcclOnStream<'a, 'm> {
    nccl: &'a NcclCommunicator<'m>,
    stream: &'a Stream,
}

/// What a NCCL call gets: contiguous device memory of the packed arrays.
struct Call<T: Element> {
    inp: Option<Packed<T>>,
    out: Option<Packed<T>>,
}

impl<T: Element> Call<T> {
    /// The send and receive addresses (null where the call has none), taken under `lease`.
    fn pointers(&self, lease: &Lease) -> Result<(*const c_void, *mut c_void)> {
        let addr = |p: &Option<Packed<T>>| -> Result<usize> {
            p.as_ref()
                .map_or(Ok(0), |p| Ok(p.dense.addr(lease)? as usize))
        };
        Ok((
            addr(&self.inp)? as *const c_void,
            addr(&self.out)? as *mut c_void,
        ))
    }
}

impl NcclOnStream<'_, '_> {
    fn cu(&self) -> sys::cudaStream_t {
        let per_thread = self.stream.context().config().per_thread_default_stream;
        cuda_stream(self.stream.handle(), per_thread)
    }

    fn agree(&self, op: Op, h: Header, local: &Result<()>) -> Result<()> {
        let h = match local {
            Ok(()) => h,
            Err(e) => h.refused(&e.to_string()),
        };
        agree_headers(
            self.nccl.mpi,
            op,
            &h,
            matches!(op, Op::AllReduce | Op::Broadcast),
        )
    }

    /// Enqueues `f` (the NCCL call), then the unpacking of a strided output.
    fn enqueue<T: Element>(
        &self,
        op: Op,
        call: &Call<T>,
        f: impl FnOnce(
            sys::cudaStream_t,
            *const c_void,
            *mut c_void,
        ) -> std::result::Result<(), nr::NcclError>,
    ) -> Result<()> {
        self.stream.query()?; // binds the device's context on this thread
        // No reset between taking the addresses and queuing the collective (Packed refused stale
        // handles before the ranks agreed).
        let lease = Lease::enter()?;
        let (send, recv) = call.pointers(&lease)?;
        f(self.cu(), send, recv)
            .map_err(|e| nccl_err(self.nccl.rank(), op.name(), op.name(), e))?;
        drop(lease);
        // Keep the packed arrays alive until the stream has run the collective.
        let keep: Vec<_> = call
            .inp
            .iter()
            .chain(&call.out)
            .map(Packed::buffer)
            .collect();
        let ctx = self.stream.context();
        ctx.driver()
            .stream_keepalive(ctx.device_id(), self.stream.handle(), Box::new(keep))?;
        if let Some(o) = &call.out {
            o.finish(self.stream)?;
        }
        Ok(())
    }

    /// Sum, product, minimum or maximum of `send` over every rank into every rank's `recv`
    /// (the same array for in place), enqueued on the stream.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks disagree (element type, shape, operator),
    /// the element type or operator has no NCCL form, or NCCL fails.
    pub fn all_reduce<T: Reducible, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
        op: ReduceOp,
    ) -> Result<()> {
        let mut h = Header::new(Op::AllReduce, Some(T::DTYPE), send.shape(), send.size());
        h.redop = op.code();
        let mut call = None;
        let local = (|| {
            let (dt, o) = types::<T>(op)?;
            check_size("the array to reduce into", recv.size(), send.size())?;
            order_for(Some(self.stream), send)?;
            order_for(Some(self.stream), recv)?;
            let inp = Packed::input(send, self.stream, false)?;
            let out = if send.same_memory(recv) && send.layout() == recv.layout() {
                inp.clone()
            } else {
                Packed::output(recv)?
            };
            call = Some((
                Call {
                    inp: Some(inp),
                    out: Some(out),
                },
                dt,
                o,
            ));
            Ok(())
        })();
        self.agree(Op::AllReduce, h, &local)?;
        let (call, dt, o) = call.ok_or_else(|| unprepared(self.nccl.rank()))?;
        let n = send.size();
        let comm = self.nccl.comm;
        self.enqueue(Op::AllReduce, &call, |s, send, recv| {
            // SAFETY: both pointers are packed device arrays of `n` elements kept alive by the
            // stream until the collective has run.
            unsafe { nr::all_reduce(send, recv, n, dt, o, comm, s) }.map(|_| ())
        })
    }

    /// Reduces `send` over every rank into `root`'s `recv` (other ranks' `recv` is left alone;
    /// the same array for in place), enqueued on the stream.
    ///
    /// # Errors
    /// As [`all_reduce`](Self::all_reduce); also for a `root` out of range or differing between
    /// ranks.
    pub fn reduce<T: Reducible, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
        op: ReduceOp,
        root: usize,
    ) -> Result<()> {
        let mut h = Header::new(Op::Reduce, Some(T::DTYPE), send.shape(), send.size());
        h.redop = op.code();
        h.root = root as u64;
        let mut call = None;
        let local = (|| {
            let (dt, o) = types::<T>(op)?;
            check_root(self.nccl.mpi, root)?;
            check_size("the array to reduce into", recv.size(), send.size())?;
            order_for(Some(self.stream), send)?;
            order_for(Some(self.stream), recv)?;
            let inp = Packed::input(send, self.stream, false)?;
            // Only the root's output is written (and unpacked).
            let out = if self.nccl.rank() != root {
                None
            } else if send.same_memory(recv) && send.layout() == recv.layout() {
                Some(inp.clone())
            } else {
                Some(Packed::output(recv)?)
            };
            call = Some((
                Call {
                    inp: Some(inp),
                    out,
                },
                dt,
                o,
            ));
            Ok(())
        })();
        self.agree(Op::Reduce, h, &local)?;
        let (call, dt, o) = call.ok_or_else(|| unprepared(self.nccl.rank()))?;
        let n = send.size();
        let comm = self.nccl.comm;
        self.enqueue(Op::Reduce, &call, |s, send, recv| {
            // SAFETY: both pointers are packed device arrays of `n` elements kept alive by the
            // stream until the collective has run.
            unsafe { nr::reduce(send, recv, n, dt, o, root as c_int, comm, s) }.map(|_| ())
        })
    }

    /// Copies `root`'s `array` to every rank's `array`, enqueued on the stream.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks disagree (element type, shape, root), the
    /// root is out of range, or NCCL fails.
    pub fn broadcast<T: Element, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        root: usize,
    ) -> Result<()> {
        let mut h = Header::new(Op::Broadcast, Some(T::DTYPE), array.shape(), array.size());
        h.root = root as u64;
        let mut call = None;
        let local = (|| {
            check_root(self.nccl.mpi, root)?;
            order_for(Some(self.stream), array)?;
            let p = Packed::input(array, self.stream, false)?;
            call = Some(Call {
                inp: Some(p.clone()),
                out: Some(p),
            });
            Ok(())
        })();
        self.agree(Op::Broadcast, h, &local)?;
        let call = call.ok_or_else(|| unprepared(self.nccl.rank()))?;
        let bytes = array.nbytes();
        let comm = self.nccl.comm;
        self.enqueue(Op::Broadcast, &call, |s, send, recv| {
            // SAFETY: the packed array of `bytes` bytes, kept alive by the stream.
            unsafe {
                nr::broadcast(
                    send,
                    recv,
                    bytes,
                    sys::ncclDataType_t::ncclUint8,
                    root as c_int,
                    comm,
                    s,
                )
            }
            .map(|_| ())
        })
    }

    /// Gathers every rank's `send` into every rank's `recv` (`size()` blocks), enqueued on the
    /// stream.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks disagree (element type, count), `recv` has
    /// the wrong size, or NCCL fails.
    pub fn all_gather<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
    ) -> Result<()> {
        let h = Header::new(Op::AllGather, Some(T::DTYPE), send.shape(), send.size());
        let mut call = None;
        let local = (|| {
            check_size(
                "the array to gather into",
                recv.size(),
                send.size() * self.nccl.size(),
            )?;
            order_for(Some(self.stream), send)?;
            order_for(Some(self.stream), recv)?;
            call = Some(Call {
                inp: Some(Packed::input(send, self.stream, false)?),
                out: Some(Packed::output(recv)?),
            });
            Ok(())
        })();
        self.agree(Op::AllGather, h, &local)?;
        let call = call.ok_or_else(|| unprepared(self.nccl.rank()))?;
        let bytes = send.nbytes();
        let comm = self.nccl.comm;
        self.enqueue(Op::AllGather, &call, |s, send, recv| {
            // SAFETY: packed arrays of `bytes` and `size() * bytes` bytes, kept by the stream.
            unsafe { nr::all_gather(send, recv, bytes, sys::ncclDataType_t::ncclUint8, comm, s) }
                .map(|_| ())
        })
    }

    /// Reduces `send` (`size()` blocks) over every rank and gives rank `r` block `r` in
    /// `recv`, enqueued on the stream.
    ///
    /// # Errors
    /// As [`all_reduce`](Self::all_reduce); also when `send` is not `size()` times `recv`.
    pub fn reduce_scatter<T: Reducible, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
        op: ReduceOp,
    ) -> Result<()> {
        let mut h = Header::new(Op::ReduceScatter, Some(T::DTYPE), recv.shape(), recv.size());
        h.redop = op.code();
        let mut call = None;
        let local = (|| {
            let (dt, o) = types::<T>(op)?;
            check_size(
                "the array to reduce",
                send.size(),
                recv.size() * self.nccl.size(),
            )?;
            order_for(Some(self.stream), send)?;
            order_for(Some(self.stream), recv)?;
            call = Some((
                Call {
                    inp: Some(Packed::input(send, self.stream, false)?),
                    out: Some(Packed::output(recv)?),
                },
                dt,
                o,
            ));
            Ok(())
        })();
        self.agree(Op::ReduceScatter, h, &local)?;
        let (call, dt, o) = call.ok_or_else(|| unprepared(self.nccl.rank()))?;
        let n = recv.size();
        let comm = self.nccl.comm;
        self.enqueue(Op::ReduceScatter, &call, |s, send, recv| {
            // SAFETY: packed arrays of `size() * n` and `n` elements, kept by the stream.
            unsafe { nr::reduce_scatter(send, recv, n, dt, o, comm, s) }.map(|_| ())
        })
    }
}

/// Agreement passed although this rank's preparation did not run (cannot happen: a failed
/// preparation refuses the header).
fn unprepared(rank: usize) -> Error {
    Error::Dist {
        rank,
        op: "nccl".into(),
        reason: "a NCCL operation was agreed on without its arguments".into(),
    }
}

/// NCCL's element type and operator for a reduction of `T` with `op`.
fn types<T: Reducible>(op: ReduceOp) -> Result<(sys::ncclDataType_t, sys::ncclRedOp_t)> {
    let unsupported = |feature: String| Error::Unsupported {
        backend: BackendKind::Cuda.to_string(),
        feature,
        reason: "NCCL has no such reduction".into(),
    };
    let dt = nccl_datatype(T::DTYPE)
        .ok_or_else(|| unsupported(format!("NCCL reductions of {}", T::DTYPE.name())))?;
    let o = nccl_op(op).ok_or_else(|| unsupported(format!("the NCCL {} reduction", op.name())))?;
    Ok((dt, o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_operators_map_to_nccl() {
        use sys::ncclDataType_t as D;
        assert_eq!(nccl_datatype(f32::DTYPE), Some(D::ncclFloat32));
        assert_eq!(nccl_datatype(half::f16::DTYPE), Some(D::ncclFloat16));
        assert_eq!(nccl_datatype(u64::DTYPE), Some(D::ncclUint64));
        assert_eq!(nccl_datatype(i16::DTYPE), None);
        assert_eq!(nccl_datatype(num_complex::Complex32::DTYPE), None);
        assert_eq!(nccl_op(ReduceOp::Max), Some(sys::ncclRedOp_t::ncclMax));
        assert_eq!(nccl_op(ReduceOp::NanMax), None);
        assert!(matches!(
            types::<i16>(ReduceOp::Sum),
            Err(Error::Unsupported { .. })
        ));
        assert!(matches!(
            types::<f32>(ReduceOp::NanMin),
            Err(Error::Unsupported { .. })
        ));
    }

    #[test]
    fn streams_map_to_cuda_handles() {
        let created = StreamHandle(0x7f00_1234_5000);
        assert_eq!(cuda_stream(created, false) as usize, 0x7f00_1234_5000);
        assert_eq!(cuda_stream(StreamHandle::DEFAULT, false) as usize, 1);
        assert_eq!(cuda_stream(StreamHandle::DEFAULT, true) as usize, 2);
        assert_eq!(cuda_stream(StreamHandle::LEGACY, true) as usize, 1);
    }
}
