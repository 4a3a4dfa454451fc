//! NCCL collectives on rumba's CUDA streams (feature `nccl`): [`NcclCommunicator`].
//!
//! NCCL (cudarc's `nccl`, loaded at run time, so the crate builds without it) runs collectives
//! as GPU kernels on the stream they are given: [`NcclOnStream`]'s operations are enqueued on
//! rumba's stream and return without waiting for the GPU. The communicator is bootstrapped over
//! MPI: rank 0 makes NCCL's unique id and broadcasts it on the MPI communicator, and every rank
//! joins with its rank and the communicator's size.
//!
//! Operations (on [`NcclOnStream`], from [`NcclCommunicator::on`]): the collectives NCCL has
//! (`all_reduce`, `reduce`, `broadcast`, `all_gather`, `reduce_scatter`), those it builds from
//! grouped sends and receives (`gather`, `scatter`, `all_to_all`), and point to point (`send`,
//! `recv`, `sendrecv`, after a handshake over MPI; see `p2p.rs`).
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

mod collective;
mod p2p;

use super::comm::Communicator;
use super::job::{Packed, agree_headers};
use super::reduce::{ReduceOp, Reducible};
use super::wire::{Header, Op};
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

/// What NCCL's calls return, their status dropped.
type NcclResult = std::result::Result<(), nr::NcclError>;

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

/// What a NCCL call gets: contiguous device memory of the packed arrays (the input's and the
/// output's element types differ only in a `sendrecv`).
struct Call<T: Element, U: Element = T> {
    inp: Option<Packed<T>>,
    out: Option<Packed<U>>,
}

impl<T: Element, U: Element> Call<T, U> {
    /// The send and receive addresses (null where the call has none), taken under `lease`.
    fn pointers(&self, lease: &Lease) -> Result<(*const c_void, *mut c_void)> {
        let send = match &self.inp {
            Some(p) => p.dense.addr(lease)? as usize,
            None => 0,
        };
        let recv = match &self.out {
            Some(p) => p.dense.addr(lease)? as usize,
            None => 0,
        };
        Ok((send as *const c_void, recv as *mut c_void))
    }
}

/// What a NCCL call is enqueued with: the communicator, the stream, and the packed input's and
/// output's device addresses (null where the call has none).
#[derive(Clone, Copy)]
struct Launch {
    comm: sys::ncclComm_t,
    stream: sys::cudaStream_t,
    send: *const c_void,
    recv: *mut c_void,
}

impl Launch {
    /// Enqueues `ncclSend` of `bytes` bytes of the input, from byte `offset` on, to `peer` (a
    /// byte copy: gathers, scatters and exchanges move any element type as bytes).
    ///
    /// # Safety
    /// The range lies in the packed input, which the stream keeps alive until the call has run.
    unsafe fn send_bytes(&self, offset: usize, bytes: usize, peer: usize) -> NcclResult {
        let at = self.send.cast::<u8>().wrapping_add(offset).cast::<c_void>();
        // SAFETY: the caller's promise on the range.
        unsafe { nr::send(at, bytes, u8_type(), peer as c_int, self.comm, self.stream) }.map(|_| ())
    }

    /// Enqueues `ncclRecv` of `bytes` bytes into the output, from byte `offset` on, from `peer`.
    ///
    /// # Safety
    /// The range lies in the packed output, which the stream keeps alive until the call has run.
    unsafe fn recv_bytes(&self, offset: usize, bytes: usize, peer: usize) -> NcclResult {
        let at = self.recv.cast::<u8>().wrapping_add(offset).cast::<c_void>();
        // SAFETY: the caller's promise on the range.
        unsafe { nr::recv(at, bytes, u8_type(), peer as c_int, self.comm, self.stream) }.map(|_| ())
    }
}

/// NCCL's byte type.
fn u8_type() -> sys::ncclDataType_t {
    sys::ncclDataType_t::ncclUint8
}

impl NcclOnStream<'_, '_> {
    fn cu(&self) -> sys::cudaStream_t {
        let per_thread = self.stream.context().config().per_thread_default_stream;
        cuda_stream(self.stream.handle(), per_thread)
    }

    /// Prepares this rank's part of `op` and agrees on `h` with every rank (the header refused
    /// with the preparation's error when it failed, so every rank hears of it); the prepared call
    /// once every rank agreed.
    fn prepared<C>(&self, op: Op, h: Header, prepare: impl FnOnce() -> Result<C>) -> Result<C> {
        let local = prepare();
        let h = match &local {
            Ok(_) => h,
            Err(e) => h.refused(&e.to_string()),
        };
        agree_headers(
            self.nccl.mpi,
            op,
            &h,
            matches!(op, Op::AllReduce | Op::Broadcast),
        )?;
        local
    }

    /// Enqueues `f` (the NCCL call, given the stream and the call's addresses), then the
    /// unpacking of a strided output.
    fn enqueue<T: Element, U: Element, R>(
        &self,
        op: Op,
        call: &Call<T, U>,
        f: impl FnOnce(Launch) -> std::result::Result<R, nr::NcclError>,
    ) -> Result<()> {
        self.stream.query()?; // binds the device's context on this thread
        // No reset between taking the addresses and queuing the collective (Packed refused stale
        // handles before the ranks agreed).
        let lease = Lease::enter()?;
        let (send, recv) = call.pointers(&lease)?;
        let launch = Launch {
            comm: self.nccl.comm,
            stream: self.cu(),
            send,
            recv,
        };
        let queued = f(launch);
        drop(lease);
        // Keep the packed arrays alive until the stream has run the collective.
        let keep: Vec<_> = call
            .inp
            .iter()
            .map(Packed::buffer)
            .chain(call.out.iter().map(Packed::buffer))
            .collect();
        if let Err(e) = queued {
            // A failed call may still have queued work that uses them (a group ends even when
            // one of its calls fails): they are leaked rather than freed under it.
            std::mem::forget(keep);
            return Err(nccl_err(self.nccl.rank(), op.name(), op.name(), e));
        }
        let ctx = self.stream.context();
        ctx.driver()
            .stream_keepalive(ctx.device_id(), self.stream.handle(), Box::new(keep))?;
        if let Some(o) = &call.out {
            o.finish(self.stream)?;
        }
        Ok(())
    }
}

/// Runs `calls` (NCCL operations) between `ncclGroupStart` and `ncclGroupEnd`: NCCL launches
/// them together, which is what lets a rank send and receive in one step. The group is ended
/// even when a call in it fails.
fn grouped(calls: impl FnOnce() -> NcclResult) -> NcclResult {
    nr::group_start()?;
    let made = calls();
    let ended = nr::group_end();
    made.and(ended.map(|_| ()))
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
