//! What every collective does around its data: choose the stream, pack strided views on the
//! device, agree with the other ranks through their headers, run the pipeline (or hand device
//! pointers to a CUDA-aware MPI), and unpack.

use ndarray::{Dimension, IxDyn};

use super::comm::{Communicator, Transport};
use super::pipeline::{Exchange, Pipeline, SLOTS, Side, Spec};
use super::raw::{self, Request};
use super::wire::{HEADER_BYTES, Header, Op, agree};
use crate::array::{DeviceArray, Order, device_array};
use crate::error::{Error, Result};
use crate::layout::Element;
use crate::memory::DeviceBuffer;
use crate::memory::gate::Lease;
use crate::stream::{Stream, default_stream};

use mpi::ffi;
use std::ffi::{c_int, c_void};

/// The stream an operation is ordered on, and whether it completes before returning.
pub(crate) struct Placement {
    pub stream: Stream,
    pub wait: bool,
}

/// Chooses the stream: the explicit one, else the array's bound one, else the default stream.
pub(crate) fn order_for<T: Element, D: Dimension>(
    explicit: Option<&Stream>,
    a: &DeviceArray<T, D>,
) -> Result<Placement> {
    let (stream, wait) = match explicit {
        Some(s) => (s.clone(), false),
        None => match a.stream() {
            Some(s) => (s.clone(), true),
            None => (default_stream()?, true),
        },
    };
    let device = stream.context().device_id();
    if a.size() > 0 && a.buffer().device() != device {
        return Err(Error::WrongDevice {
            what: "the array".into(),
            expected: device,
            found: a.buffer().device(),
        });
    }
    Ok(Placement { stream, wait })
}

/// A device array's elements as one C-ordered contiguous range: the array itself when it is
/// C-contiguous, else a temporary packed (or to be unpacked) on the device.
#[derive(Clone)]
pub(crate) struct Packed<T: Element> {
    pub dense: DeviceArray<T, IxDyn>,
    original: DeviceArray<T, IxDyn>,
    temporary: bool,
}

impl<T: Element> Packed<T> {
    /// For reading: strided views are copied into the temporary on `stream`; `copy` forces a
    /// temporary (a CUDA-aware MPI cannot send and receive the same buffer).
    pub(crate) fn input<D: Dimension>(
        a: &DeviceArray<T, D>,
        stream: &Stream,
        copy: bool,
    ) -> Result<Self> {
        let p = Packed::new(a, copy)?;
        if p.temporary {
            p.dense.assign_on(&p.original, stream)?;
        }
        Ok(p)
    }

    /// For writing: the temporary is unpacked by [`finish`](Self::finish).
    pub(crate) fn output<D: Dimension>(a: &DeviceArray<T, D>) -> Result<Self> {
        Packed::new(a, false)
    }

    fn new<D: Dimension>(a: &DeviceArray<T, D>, copy: bool) -> Result<Self> {
        // A handle from before a context reset is refused here, before the ranks agree, so that
        // every rank hears of it.
        a.addr(&Lease::enter()?)?;
        let original = a.clone().into_dyn();
        if a.is_c_contiguous() && !copy {
            return Ok(Packed {
                dense: original.clone(),
                original,
                temporary: false,
            });
        }
        let dense = device_array::<T, _>(IxDyn(a.shape()), Order::C)?;
        Ok(Packed {
            dense,
            original,
            temporary: true,
        })
    }

    /// Blocks of `block` elements, one after another. The address is taken under a lease; the
    /// pipeline and the direct transport check the buffers again under the lease that covers
    /// each use (see [`crate::memory::gate`]).
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when a context reset freed the array's memory.
    pub(crate) fn side(&self, block: usize) -> Result<Side> {
        let lease = Lease::enter()?;
        Ok(Side {
            ptr: self.dense.addr(&lease)?,
            stride: block * T::DTYPE.itemsize(),
        })
    }

    /// The range of block `b` alone.
    pub(crate) fn side_at(&self, block: usize, b: usize) -> Result<Side> {
        let s = self.side(block)?;
        Ok(Side {
            ptr: s.ptr + (b * s.stride) as u64,
            stride: s.stride,
        })
    }

    pub(crate) fn buffer(&self) -> DeviceBuffer {
        self.dense.buffer().clone()
    }

    /// Queues the copy of the temporary back into a strided output.
    pub(crate) fn finish(&self, stream: &Stream) -> Result<()> {
        if self.temporary {
            self.original.assign_on(&self.dense, stream)?;
        }
        Ok(())
    }
}

/// Which MPI collective moves a chunk.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    AllReduce,
    Reduce(usize),
    Broadcast(usize),
    AllGather,
    Gather(usize),
    Scatter(usize),
    AllToAll,
    ReduceScatter,
}

/// One collective's exchange of a chunk through MPI's nonblocking collectives.
pub(crate) struct CollEx {
    pub comm: ffi::MPI_Comm,
    pub rank: usize,
    pub op: &'static str,
    pub kind: Kind,
    pub datatype: ffi::MPI_Datatype,
    pub mpi_op: Option<ffi::MPI_Op>,
    /// Bytes per element of `datatype`.
    pub unit: usize,
    /// One request per pipeline slot.
    pub req: Vec<Request>,
    /// Applied to received bytes for element types with invalid bit patterns (`bool`).
    pub normalize: Option<fn(&mut [u8])>,
    /// Blocks in the recv region (for `normalize`).
    pub recv_blocks: usize,
    /// Per slot: the recv region of the chunk in flight.
    pub recv: Vec<(*mut u8, usize)>,
}

impl Exchange for CollEx {
    unsafe fn start(
        &mut self,
        slot: usize,
        send: *const u8,
        recv: *mut u8,
        block_len: usize,
    ) -> Result<()> {
        let n = raw::count(block_len / self.unit);
        let (s, r) = (send.cast::<c_void>(), recv.cast::<c_void>());
        let (dt, c, q) = (self.datatype, self.comm, self.req[slot].as_mut_ptr());
        let op = self.mpi_op;
        // SAFETY: the buffers are the pipeline's to lend until this exchange completes
        // (`Exchange::start`'s contract); counts and types describe exactly those regions.
        let rc = unsafe {
            match self.kind {
                Kind::AllReduce => ffi::MPI_Iallreduce(s, r, n, dt, op.expect("reduction"), c, q),
                Kind::Reduce(root) => {
                    ffi::MPI_Ireduce(s, r, n, dt, op.expect("reduction"), root as c_int, c, q)
                }
                Kind::Broadcast(root) => ffi::MPI_Ibcast(r, n, dt, root as c_int, c, q),
                Kind::AllGather => ffi::MPI_Iallgather(s, n, dt, r, n, dt, c, q),
                Kind::Gather(root) => ffi::MPI_Igather(s, n, dt, r, n, dt, root as c_int, c, q),
                Kind::Scatter(root) => ffi::MPI_Iscatter(s, n, dt, r, n, dt, root as c_int, c, q),
                Kind::AllToAll => ffi::MPI_Ialltoall(s, n, dt, r, n, dt, c, q),
                Kind::ReduceScatter => {
                    ffi::MPI_Ireduce_scatter_block(s, r, n, dt, op.expect("reduction"), c, q)
                }
            }
        };
        self.recv[slot] = (recv, block_len * self.recv_blocks);
        raw::check(rc, self.rank, self.op, "a nonblocking collective")
    }

    fn poll(&mut self, slot: usize) -> Result<bool> {
        let done = self.req[slot].test(self.rank, self.op)?;
        if done && let Some(f) = self.normalize {
            let (p, len) = std::mem::replace(&mut self.recv[slot], (std::ptr::null_mut(), 0));
            if !p.is_null() && len > 0 {
                // SAFETY: the exchange completed; the recv region is the pipeline's pinned
                // memory, at least `len` bytes, unaccessed by anything else until stage-out.
                f(unsafe { std::slice::from_raw_parts_mut(p, len) });
            }
        }
        Ok(done)
    }
}

/// Gathers every rank's header and compares them; the same [`Error::Dist`] on every rank when
/// they differ or some rank refused its input.
pub(crate) fn agree_headers(
    comm: &Communicator,
    op: Op,
    mine: &Header,
    shapes_must_match: bool,
) -> Result<()> {
    let mut all = vec![0u8; HEADER_BYTES * comm.size()];
    let mut req = Request::null();
    let mine = *mine;
    // SAFETY: `mine` and `all` outlive the wait below, or are leaked with the request if it
    // never completes (see the end of this function).
    let rc = unsafe {
        ffi::MPI_Iallgather(
            mine.as_bytes().as_ptr().cast(),
            HEADER_BYTES as c_int,
            raw::byte(),
            all.as_mut_ptr().cast(),
            HEADER_BYTES as c_int,
            raw::byte(),
            comm.coll,
            req.as_mut_ptr(),
        )
    };
    raw::check(rc, comm.rank(), op.name(), "MPI_Iallgather")?;
    let waited = comm.wait_until(
        op.name(),
        &|| format!("agreeing on a {} with the other ranks", op.name()),
        || req.test(comm.rank(), op.name()),
    );
    if let Err(e) = waited {
        // The gather may still write `all` and read `mine`: never free them.
        std::mem::forget(all);
        let mine = Box::new(mine);
        std::mem::forget(mine);
        return Err(e);
    }
    let headers: Vec<Header> = all.chunks(HEADER_BYTES).map(Header::from_bytes).collect();
    agree(&headers, shapes_must_match).map_err(|(rank, reason)| Error::Dist {
        rank,
        op: op.name().into(),
        reason,
    })
}

/// A collective ready to run on this rank.
pub(crate) struct Job<T: Element> {
    pub order: Placement,
    pub spec: Spec,
    pub inputs: Vec<Packed<T>>,
    pub outputs: Vec<Packed<T>>,
}

/// Agrees with the other ranks on `header` (refused if `job` is an error), runs the job, and
/// unpacks its outputs.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<T: Element>(
    comm: &Communicator,
    op: Op,
    header: Header,
    job: Result<Job<T>>,
    kind: Kind,
    reduction: Option<(ffi::MPI_Datatype, ffi::MPI_Op)>,
    shapes_must_match: bool,
) -> Result<()> {
    comm.check_poison(op.name())?;
    let mut header = header;
    header.tag = comm.chunk_bytes() as u32;
    let header = match &job {
        Ok(_) => header,
        Err(e) => header.refused(&e.to_string()),
    };
    agree_headers(comm, op, &header, shapes_must_match)?;
    let job = job.map_err(|e| comm.err(op.name(), e.to_string()))?;
    if job.spec.block_bytes > 0 {
        let (datatype, mpi_op, unit) = match reduction {
            Some((dt, o)) => (dt, Some(o), T::DTYPE.itemsize()),
            None => (raw::byte(), None, 1),
        };
        let ex = CollEx {
            comm: comm.coll,
            rank: comm.rank(),
            op: op.name(),
            kind,
            datatype,
            mpi_op,
            unit,
            req: (0..SLOTS).map(|_| Request::null()).collect(),
            normalize: (!T::ANY_BIT_PATTERN).then_some(T::normalize_bytes as fn(&mut [u8])),
            recv_blocks: if job.spec.output.is_some() {
                job.spec.recv_blocks
            } else {
                0
            },
            recv: vec![(std::ptr::null_mut(), 0); SLOTS],
        };
        let keep: Vec<DeviceBuffer> = job
            .inputs
            .iter()
            .chain(&job.outputs)
            .map(Packed::buffer)
            .collect();
        match comm.transport() {
            Transport::Staged => {
                let t = comm.target(&job.order.stream);
                let mut spec = job.spec;
                spec.chunk_bytes = comm.chunk_bytes();
                // SAFETY: every side of the spec addresses a packed array of `keep`.
                let mut p = unsafe { Pipeline::new(t, spec, Box::new(ex), keep) }
                    .map_err(|e| comm.poison(op.name(), format!("staging failed: {e}")))?;
                comm.wait_until(
                    op.name(),
                    &|| format!("moving {} bytes per rank", job.spec.block_bytes),
                    || p.step(),
                )?;
            }
            Transport::Direct => direct(comm, op, &job, ex)?,
        }
    }
    for o in &job.outputs {
        o.finish(&job.order.stream)?;
    }
    if job.order.wait {
        job.order.stream.synchronize()?;
    }
    Ok(())
}

/// Hands device pointers to a CUDA-aware MPI once the stream has reached the operation.
fn direct<T: Element>(comm: &Communicator, op: Op, job: &Job<T>, mut ex: CollEx) -> Result<()> {
    job.order.stream.synchronize()?;
    // No reset while MPI holds the addresses: the buffers are checked under a lease that lasts
    // until the exchange is over.
    let lease = Lease::enter()?;
    for p in job.inputs.iter().chain(&job.outputs) {
        p.dense.addr(&lease)?;
    }
    let spec = &job.spec;
    let send = spec
        .input
        .map_or(std::ptr::null(), |s| s.ptr as usize as *const u8);
    let recv = match (spec.shared, spec.input, spec.output) {
        (true, Some(i), _) => i.ptr as usize as *mut u8,
        (_, _, Some(o)) => o.ptr as usize as *mut u8,
        _ => std::ptr::null_mut(),
    };
    ex.normalize = None; // device memory: not readable here (bool arrays are checked by dtype)
    // SAFETY: the pointers are CUDA device memory of the packed arrays, alive for this call;
    // the stream has reached the operation and nothing else is queued on them before it ends.
    unsafe { ex.start(0, send, recv, spec.block_bytes)? };
    let waited = comm.wait_until(op.name(), &|| "waiting for a CUDA-aware MPI".into(), || {
        ex.poll(0)
    });
    if waited.is_err() {
        // MPI may still use the device memory: keep it forever.
        for p in job.inputs.iter().chain(&job.outputs) {
            std::mem::forget(p.buffer());
        }
    }
    waited?;
    if spec.shared
        && let (Some(_), Some(out), Some(inp)) =
            (spec.input, job.outputs.first(), job.inputs.first())
        && out.dense.addr(&lease)? != inp.dense.addr(&lease)?
    {
        out.dense.assign_on(&inp.dense, &job.order.stream)?;
    }
    Ok(())
}

/// `Some(root)` checked against the communicator's size.
pub(crate) fn check_root(comm: &Communicator, root: usize) -> Result<()> {
    if root >= comm.size() {
        return Err(Error::InvalidArgument(format!(
            "root {root} is out of range for {} ranks",
            comm.size()
        )));
    }
    Ok(())
}

/// The refusal of an array whose element count is not what the operation needs.
pub(crate) fn check_size(what: &str, got: usize, want: usize) -> Result<()> {
    if got != want {
        return Err(Error::InvalidArgument(format!(
            "{what} has {got} elements, the operation needs {want}"
        )));
    }
    Ok(())
}
