//! Device arrays across processes: MPI communicators (feature `mpi`) and, on CUDA, NCCL
//! collectives (feature `nccl`).
//!
//! One process per device, launched by `mpirun` or a cluster scheduler. [`init`] starts MPI and
//! selects this rank's device; [`Universe::world`] is the communicator of every rank, and
//! [`Communicator::split`] makes smaller ones. A communicator moves [`DeviceArray`]s: point to
//! point ([`send`](OnStream::send), [`recv`](OnStream::recv) into an existing array,
//! [`sendrecv`](OnStream::sendrecv), [`isend`](OnStream::isend)/[`irecv`](OnStream::irecv) with
//! a [`Request`]) and collectives ([`barrier`](OnStream::barrier),
//! [`broadcast`](OnStream::broadcast), [`all_reduce`](OnStream::all_reduce),
//! [`reduce`](OnStream::reduce), [`all_gather`](OnStream::all_gather),
//! [`gather`](OnStream::gather), [`scatter`](OnStream::scatter),
//! [`reduce_scatter`](OnStream::reduce_scatter), [`all_to_all`](OnStream::all_to_all)).
//!
//! ```no_run
//! use rumba::dist::ReduceOp;
//! let universe = rumba::dist::init().unwrap();
//! let world = universe.world().unwrap();
//! let grad = rumba::to_device(&vec![world.rank() as f32; 1024]).unwrap();
//! world.all_reduce(&grad, ReduceOp::Sum).unwrap();          // complete on return
//! let s = rumba::stream().unwrap();
//! world.on(&s).all_reduce(&grad, ReduceOp::Max).unwrap();   // ordered on `s`
//! ```
//!
//! **Stream order**, as NCCL has it: an operation ordered on a stream (`comm.on(&stream)`) runs
//! after the work queued on that stream before it, and work queued there after it sees its
//! result. The communicator's own methods use the array's bound stream, or the default stream,
//! and return once the result is in place. The host waits for the MPI part of an operation (MPI
//! is driven from the host); the copies into the destination are queued on the stream.
//!
//! **Transports**, per communicator ([`Transport`]):
//! - staged (the default, every backend): device → pinned host slot (a [`PinnedPool`] of the
//!   communicator) → MPI → pinned slot → device, in chunks of `RUMBA_DIST_CHUNK` bytes, three
//!   in flight, so the device copies of one chunk overlap the MPI transfer of another and a
//!   256 MiB all-reduce needs 24 MiB of pinned memory, not 256;
//! - direct: a CUDA-aware MPI gets device pointers once the stream has reached the operation
//!   (CUDA backend; `RUMBA_DIST_CUDA_AWARE=1`, or detected through `MPIX_Query_cuda_support`).
//!
//! **Agreement before data.** Every operation first exchanges a small header per rank (operation,
//! element type, shape, root, reduction operator, chunk size, and whether the rank refused its
//! own input). Mismatched counts, element types, shapes or roots, a root or peer out of range,
//! and an input refused on one rank (a wrong output size, an allocation that failed) become the
//! same [`Error::Dist`](crate::Error::Dist) on every rank taking part, before any data moves:
//! never a hang, never bytes read as another type.
//!
//! **Failure.** With `RUMBA_DIST_TIMEOUT` set, an operation not complete after that many seconds
//! poisons its communicator: the rank tells every other rank, each of them fails its current
//! or next operation on it with the same error, and every later operation fails at once.
//! Dropping the [`Universe`] of a poisoned communicator calls `MPI_Abort` with a message (MPI
//! cannot be finalized while operations may never complete). Without a timeout, a rank that
//! stops calling makes the others wait, as MPI does.
//!
//! Settings: see [`DistSettings`]. Reduction operators and their NaN rules: see [`ReduceOp`].
//!
//! [`DeviceArray`]: crate::DeviceArray
//! [`PinnedPool`]: crate::memory::PinnedPool

mod collective;
mod comm;
mod job;
#[cfg(feature = "nccl")]
pub mod nccl;
mod p2p;
mod pipeline;
mod raw;
mod reduce;
mod settings;
mod universe;
mod wire;

use ndarray::Dimension;

pub use comm::{Communicator, Transport};
pub use p2p::{MAX_TAG, Request};
pub use reduce::{ReduceOp, Reducible};
pub use settings::{DEFAULT_CHUNK, DeviceChoice, DistSettings};
pub use universe::{Universe, init};

use crate::array::DeviceArray;
use crate::error::Result;
use crate::layout::Element;
use crate::stream::Stream;

/// A communicator's operations ordered on a stream ([`Communicator::on`]), or, made by the
/// communicator's own methods, on each array's bound stream or the default stream and complete
/// on return.
#[derive(Clone, Copy, Debug)]
pub struct OnStream<'a> {
    comm: &'a Communicator,
    stream: Option<&'a Stream>,
}

/// Declares the communicator's own methods: each is [`OnStream`]'s method of the same name on
/// the array's bound stream or the default stream (`Communicator::waiting`), with its summary
/// (the words after the link) and its errors.
macro_rules! complete_on_return {
    ($(
        $summary:literal
        fn $name:ident $(<$($g:ident: $bound:ident),*>)? ($($arg:ident: $ty:ty),*) -> $ret:ty;
    )*) => {
        /// The communicator's own methods: [`OnStream`]'s, on the array's bound stream or the
        /// default stream, complete when they return.
        impl Communicator {$(
            #[doc = concat!("[`OnStream::", stringify!($name), "`]", $summary)]
            ///
            /// # Errors
            #[doc = concat!("As [`OnStream::", stringify!($name), "`].")]
            pub fn $name $(<$($g: $bound),*>)? (&self, $($arg: $ty),*) -> $ret {
                self.waiting().$name($($arg),*)
            }
        )*}
    };
}

complete_on_return! {
    "."
    fn barrier() -> Result<()>;
    ", complete on return."
    fn broadcast<T: Element, D: Dimension>(array: &DeviceArray<T, D>, root: usize) -> Result<()>;
    ", complete on return."
    fn all_reduce<T: Reducible, D: Dimension>(array: &DeviceArray<T, D>, op: ReduceOp)
        -> Result<()>;
    ", complete on return."
    fn all_reduce_into<T: Reducible, D: Dimension, E: Dimension>(
        send: &DeviceArray<T, D>, recv: &DeviceArray<T, E>, op: ReduceOp) -> Result<()>;
    ", complete on return."
    fn reduce<T: Reducible, D: Dimension>(array: &DeviceArray<T, D>, op: ReduceOp, root: usize)
        -> Result<()>;
    ", complete on return."
    fn all_gather<T: Element, D: Dimension, E: Dimension>(
        send: &DeviceArray<T, D>, recv: &DeviceArray<T, E>) -> Result<()>;
    ", complete on return."
    fn gather<T: Element, D: Dimension, E: Dimension>(
        send: &DeviceArray<T, D>, recv: Option<&DeviceArray<T, E>>, root: usize) -> Result<()>;
    ", complete on return."
    fn scatter<T: Element, D: Dimension, E: Dimension>(
        send: Option<&DeviceArray<T, D>>, recv: &DeviceArray<T, E>, root: usize) -> Result<()>;
    ", complete on return."
    fn reduce_scatter<T: Reducible, D: Dimension, E: Dimension>(
        send: &DeviceArray<T, D>, recv: &DeviceArray<T, E>, op: ReduceOp) -> Result<()>;
    ", complete on return."
    fn all_to_all<T: Element, D: Dimension, E: Dimension>(
        send: &DeviceArray<T, D>, recv: &DeviceArray<T, E>) -> Result<()>;
    ", complete on return."
    fn send<T: Element, D: Dimension>(array: &DeviceArray<T, D>, dest: usize, tag: u32)
        -> Result<()>;
    ", complete on return."
    fn recv<T: Element, D: Dimension>(array: &DeviceArray<T, D>, source: usize, tag: u32)
        -> Result<()>;
    ", complete on return."
    fn sendrecv<T: Element, D: Dimension, U: Element, E: Dimension>(
        send: &DeviceArray<T, D>, dest: usize, recv: &DeviceArray<U, E>, source: usize, tag: u32)
        -> Result<()>;
    "; waiting on the request completes it."
    fn isend<T: Element, D: Dimension>(array: &DeviceArray<T, D>, dest: usize, tag: u32)
        -> Result<Request<'_>>;
    "; waiting on the request completes it."
    fn irecv<T: Element, D: Dimension>(array: &DeviceArray<T, D>, source: usize, tag: u32)
        -> Result<Request<'_>>;
}
