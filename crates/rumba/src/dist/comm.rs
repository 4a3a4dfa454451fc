//! [`Communicator`]: a group of ranks, its transport, its timeout and poisoning, and the loop
//! every operation waits in.
//!
//! A communicator owns duplicates of its MPI communicator, one per kind of traffic, so that
//! nothing of one kind can match a receive of another: collectives, point-to-point headers,
//! their answers, point-to-point data, and control messages (poison notices). Every wait of an
//! operation polls its own requests, advances the communicator's pending `isend`/`irecv`s (as
//! MPI's progress engine would), looks for a poison notice from another rank, and checks the
//! timeout: past it the communicator is poisoned, every other rank is told, and every later
//! operation on it returns the same [`Error::Dist`] at once.

use std::cell::{Cell, RefCell};
use std::ffi::c_int;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mpi::ffi;

use super::p2p::P2p;
use super::pipeline::Target;
use super::raw;
use super::universe::Shared;
use super::wire::{HEADER_BYTES, Header, Op};
use crate::driver::BackendKind;
use crate::error::{Error, Result};
use crate::memory::PinnedPool;
use crate::runtime::backend;
use crate::stream::Stream;

/// How a communicator moves device memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// Through pinned host memory in pipelined chunks (every backend).
    Staged,
    /// Device pointers handed to a CUDA-aware MPI once the stream has reached the operation
    /// (CUDA backend only).
    Direct,
}

/// A group of ranks that device arrays move between.
///
/// Made by [`Universe::world`](super::Universe::world) and [`split`](Self::split). Its
/// operations are ordered on streams: [`on`](Self::on) names the stream; the methods of the
/// communicator itself use the array's bound stream, or the default stream, and return once the
/// result is in place. Not `Send`: one thread uses a communicator.
pub struct Communicator {
    shared: Rc<Shared>,
    /// The communicator splits and the shared-memory split are made from.
    base: ffi::MPI_Comm,
    pub(crate) coll: ffi::MPI_Comm,
    pub(crate) hdr: ffi::MPI_Comm,
    pub(crate) ack: ffi::MPI_Comm,
    pub(crate) data: ffi::MPI_Comm,
    ctl: ffi::MPI_Comm,
    rank: usize,
    size: usize,
    local_rank: usize,
    local_size: usize,
    transport: Transport,
    poison: RefCell<Option<Error>>,
    pools: RefCell<Vec<(usize, Arc<PinnedPool>)>>,
    pub(crate) pending: RefCell<Vec<Rc<RefCell<P2p>>>>,
    next_tag: Cell<u32>,
}

impl std::fmt::Debug for Communicator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Communicator(rank {} of {}, local {} of {}, {:?})",
            self.rank, self.size, self.local_rank, self.local_size, self.transport
        )
    }
}

/// Largest data tag before the counter wraps (MPI guarantees tags up to 32767).
const DATA_TAGS: u32 = 30_000;

impl Communicator {
    /// Duplicates `parent` into a communicator of this layer.
    pub(crate) fn from_parent(
        shared: Rc<Shared>,
        parent: ffi::MPI_Comm,
        rank_hint: usize,
    ) -> Result<Communicator> {
        let base = raw::dup(parent, rank_hint)?;
        let (rank, size) = raw::rank_size(base)?;
        let mut made = vec![base];
        let mut dup = || -> Result<ffi::MPI_Comm> {
            let c = raw::dup(base, rank)?;
            made.push(c);
            Ok(c)
        };
        let comms = (|| Ok::<_, Error>([dup()?, dup()?, dup()?, dup()?, dup()?]))();
        let comms = match comms {
            Ok(c) => c,
            Err(e) => {
                made.into_iter().for_each(raw::free);
                return Err(e);
            }
        };
        let (local_rank, local_size) = match local_split(base, rank) {
            Ok(x) => x,
            Err(e) => {
                made.into_iter().for_each(raw::free);
                return Err(e);
            }
        };
        let transport = match choose_transport(&shared) {
            Ok(t) => t,
            Err(e) => {
                made.into_iter().for_each(raw::free);
                return Err(e);
            }
        };
        let [coll, hdr, ack, data, ctl] = comms;
        Ok(Communicator {
            shared,
            base,
            coll,
            hdr,
            ack,
            data,
            ctl,
            rank,
            size,
            local_rank,
            local_size,
            transport,
            poison: RefCell::new(None),
            pools: RefCell::new(Vec::new()),
            pending: RefCell::new(Vec::new()),
            next_tag: Cell::new(0),
        })
    }

    /// This rank's number, `0..size()`.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Number of ranks.
    pub fn size(&self) -> usize {
        self.size
    }

    /// This rank's number among the ranks of the communicator on the same node (MPI's
    /// shared-memory split).
    pub fn local_rank(&self) -> usize {
        self.local_rank
    }

    /// Number of ranks of the communicator on this node.
    pub fn local_size(&self) -> usize {
        self.local_size
    }

    /// How this communicator moves device memory.
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// Chooses how this communicator moves device memory. Every rank must choose the same.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for [`Transport::Direct`] on a backend other than CUDA (its
    /// device pointers mean nothing to MPI).
    pub fn set_transport(&mut self, transport: Transport) -> Result<()> {
        if transport == Transport::Direct {
            require_cuda()?;
        }
        self.transport = transport;
        Ok(())
    }

    /// Splits the communicator: ranks passing the same `color` form one new communicator,
    /// ordered by `key` (then by their rank here); a rank passing `None` gets `None`. Every rank
    /// must call it (it is a collective).
    ///
    /// # Errors
    /// [`Error::Dist`] when the communicator is poisoned or MPI fails; `color` above
    /// `i32::MAX` is [`Error::InvalidArgument`].
    pub fn split(&self, color: Option<u32>, key: i32) -> Result<Option<Communicator>> {
        self.check_poison("split")?;
        // SAFETY: reading an immutable constant the MPI library exports.
        let undefined = unsafe { ffi::RSMPI_UNDEFINED };
        let color = match color {
            None => undefined,
            Some(c) => c_int::try_from(c).map_err(|_| {
                Error::InvalidArgument(format!("split color {c} is above {}", c_int::MAX))
            })?,
        };
        // SAFETY: reading an immutable constant the MPI library exports.
        let mut out = unsafe { ffi::RSMPI_COMM_NULL };
        // SAFETY: `base` is live; `out` receives the new communicator or COMM_NULL.
        let rc = unsafe { ffi::MPI_Comm_split(self.base, color, key, &mut out) };
        raw::check(rc, self.rank, "split", "MPI_Comm_split")?;
        // SAFETY: as above.
        if out == unsafe { ffi::RSMPI_COMM_NULL } {
            return Ok(None);
        }
        let made = Communicator::from_parent(Rc::clone(&self.shared), out, self.rank);
        raw::free(out);
        let mut c = made?;
        c.transport = self.transport;
        Ok(Some(c))
    }

    /// Operations of this communicator ordered on `stream`: each runs after the work queued
    /// there before it, and the work queued after it sees its result.
    pub fn on<'a>(&'a self, stream: &'a Stream) -> super::OnStream<'a> {
        super::OnStream {
            comm: self,
            stream: Some(stream),
        }
    }

    /// Operations on each array's bound stream, or the default stream, complete on return.
    pub(crate) fn waiting(&self) -> super::OnStream<'_> {
        super::OnStream {
            comm: self,
            stream: None,
        }
    }

    /// The poisoning error, if this communicator was poisoned.
    pub fn poisoned(&self) -> Option<Error> {
        self.poison.borrow().clone()
    }

    pub(crate) fn timeout(&self) -> Option<Duration> {
        self.shared.settings.timeout
    }

    pub(crate) fn chunk_bytes(&self) -> usize {
        self.shared.settings.chunk_bytes
    }

    /// A data tag for one point-to-point transfer.
    pub(crate) fn data_tag(&self) -> u32 {
        let t = self.next_tag.get() % DATA_TAGS;
        self.next_tag.set(t + 1);
        t
    }

    /// The pinned pool of `stream`'s device (one per device, kept for the communicator's life).
    pub(crate) fn target(&self, stream: &Stream) -> Target {
        let ctx = stream.context();
        let device = ctx.device_id();
        let mut pools = self.pools.borrow_mut();
        let pool = match pools.iter().find(|(d, _)| *d == device) {
            Some((_, p)) => Arc::clone(p),
            None => {
                let p = Arc::new(PinnedPool::new(device, ctx.driver().clone()));
                pools.push((device, Arc::clone(&p)));
                p
            }
        };
        Target {
            driver: ctx.driver().clone(),
            device,
            stream: stream.handle(),
            pool,
        }
    }

    /// An error of this rank's own.
    pub(crate) fn err(&self, op: &str, reason: impl Into<String>) -> Error {
        Error::Dist {
            rank: self.rank,
            op: op.into(),
            reason: reason.into(),
        }
    }

    /// Returns the poisoning error if the communicator is poisoned, taking any poison notice
    /// another rank sent.
    pub(crate) fn check_poison(&self, op: &str) -> Result<()> {
        if let Some(e) = self.poison.borrow().clone() {
            return Err(e);
        }
        if *self.shared.finalized.borrow() {
            return Err(self.err(op, "MPI was finalized: the universe was dropped"));
        }
        // SAFETY: reading an immutable constant the MPI library exports.
        let any = unsafe { ffi::RSMPI_ANY_SOURCE };
        if raw::iprobe(any, 0, self.ctl)? {
            let mut buf = [0u8; HEADER_BYTES];
            // SAFETY: MPI_Status is plain integers.
            let mut st: ffi::MPI_Status = unsafe { std::mem::zeroed() };
            // SAFETY: a message is waiting (probed); `buf` holds a header's bytes.
            let rc = unsafe {
                ffi::MPI_Recv(
                    buf.as_mut_ptr().cast(),
                    HEADER_BYTES as c_int,
                    raw::byte(),
                    any,
                    0,
                    self.ctl,
                    &mut st,
                )
            };
            raw::check(rc, self.rank, op, "MPI_Recv")?;
            let h = Header::from_bytes(&buf);
            let e = Error::Dist {
                rank: st.MPI_SOURCE as usize,
                op: op.into(),
                reason: format!(
                    "rank {} poisoned the communicator: {}",
                    st.MPI_SOURCE,
                    h.reason()
                ),
            };
            self.set_poison(e.clone());
            return Err(e);
        }
        Ok(())
    }

    fn set_poison(&self, e: Error) {
        self.poison.borrow_mut().get_or_insert(e.clone());
        self.shared.poisoned.borrow_mut().get_or_insert(e);
    }

    /// Poisons the communicator for `reason` and tells every other rank; returns the error.
    pub(crate) fn poison(&self, op: &str, reason: String) -> Error {
        let e = self.err(op, format!("{reason}; the communicator is poisoned"));
        self.set_poison(e.clone());
        let notice = Header::new(Op::Poison, None, &[], 0).refused(&reason);
        for r in (0..self.size).filter(|&r| r != self.rank) {
            // The notice is never freed: the send may complete after this rank has moved on.
            let buf: &'static [u8] = Box::leak(notice.as_bytes().to_vec().into_boxed_slice());
            let mut req = raw::Request::null();
            // SAFETY: `buf` lives forever and is never written.
            let rc = unsafe { raw::isend(buf.as_ptr(), buf.len(), r, 0, self.ctl, &mut req) };
            if rc == ffi::MPI_SUCCESS as c_int {
                // SAFETY: a request MPI just handed out; freeing it lets the send complete alone.
                unsafe {
                    ffi::MPI_Request_free(req.as_mut_ptr());
                }
            }
        }
        e
    }

    /// Waits until `done` returns true, advancing pending transfers, taking poison notices and
    /// poisoning the communicator when the timeout passes.
    pub(crate) fn wait_until(
        &self,
        op: &str,
        what: &dyn Fn() -> String,
        mut done: impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        let start = Instant::now();
        let timeout = self.timeout();
        let mut spins: u32 = 0;
        if *self.shared.finalized.borrow() {
            return Err(self.err(op, "MPI was finalized: the universe was dropped"));
        }
        loop {
            match done() {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                Err(e @ Error::Dist { .. }) => return Err(e),
                Err(e) => {
                    // A failure in the middle of a transfer (a device copy, MPI): the ranks can
                    // no longer agree on what moved.
                    return Err(self.poison(op, format!("failed while {}: {e}", what())));
                }
            }
            self.progress();
            self.check_poison(op)?;
            if let Some(t) = timeout
                && start.elapsed() > t
            {
                return Err(self.poison(
                    op,
                    format!(
                        "timed out after {:.1} s (RUMBA_DIST_TIMEOUT) while {}",
                        t.as_secs_f64(),
                        what()
                    ),
                ));
            }
            backoff(&mut spins);
        }
    }

    /// Advances the pending `isend`/`irecv`s (those not borrowed by the caller).
    pub(crate) fn progress(&self) {
        let pending: Vec<_> = self.pending.borrow().clone();
        for p in &pending {
            if let Ok(mut m) = p.try_borrow_mut() {
                m.step(self);
            }
        }
        self.pending
            .borrow_mut()
            .retain(|p| p.try_borrow().map_or(true, |m| !m.is_settled()));
    }
}

/// Spins briefly, then yields the processor a few hundred times (ranks often outnumber cores),
/// then sleeps between polls, which leaves the cores to the device's copies and the other ranks.
fn backoff(spins: &mut u32) {
    *spins = spins.saturating_add(1);
    if *spins < 16 {
        std::hint::spin_loop();
    } else if *spins < 300 {
        std::thread::yield_now();
    } else {
        std::thread::sleep(Duration::from_micros(20));
    }
}

fn require_cuda() -> Result<()> {
    match backend()? {
        BackendKind::Cuda => Ok(()),
        other => Err(Error::Unsupported {
            backend: other.to_string(),
            feature: "the direct (CUDA-aware MPI) transport".into(),
            reason: "it moves CUDA device memory; use the staged transport".into(),
        }),
    }
}

fn choose_transport(shared: &Shared) -> Result<Transport> {
    match shared.settings.cuda_aware {
        Some(true) => {
            require_cuda()?;
            Ok(Transport::Direct)
        }
        Some(false) => Ok(Transport::Staged),
        None => {
            let cuda = matches!(backend(), Ok(BackendKind::Cuda));
            Ok(if cuda && shared.cuda_support == Some(true) {
                Transport::Direct
            } else {
                Transport::Staged
            })
        }
    }
}

/// `(local rank, local size)` from MPI's shared-memory split of `comm`.
fn local_split(comm: ffi::MPI_Comm, rank: usize) -> Result<(usize, usize)> {
    // SAFETY: reading immutable constants the MPI library exports.
    let (mut local, kind, info) = unsafe {
        (
            ffi::RSMPI_COMM_NULL,
            ffi::RSMPI_COMM_TYPE_SHARED,
            ffi::RSMPI_INFO_NULL,
        )
    };
    // SAFETY: `comm` is live; `local` receives the new communicator.
    let rc = unsafe { ffi::MPI_Comm_split_type(comm, kind, rank as c_int, info, &mut local) };
    raw::check(rc, rank, "communicator", "MPI_Comm_split_type")?;
    let rs = raw::rank_size(local);
    raw::free(local);
    rs
}

impl Drop for Communicator {
    fn drop(&mut self) {
        // Finish what can finish (the peers may be waiting for it); a poisoned communicator's
        // transfers stay leaked with their buffers.
        if self.poison.borrow().is_none() && !self.pending.borrow().is_empty() {
            let _ = self.wait_until("drop", &|| "finishing pending transfers".into(), || {
                Ok(self.pending.borrow().is_empty())
            });
        }
        if *self.shared.finalized.borrow() {
            return;
        }
        if self.poison.borrow().is_some() {
            // Requests may still name these communicators; MPI_Abort at the universe's drop
            // ends them.
            return;
        }
        for c in [
            self.coll, self.hdr, self.ack, self.data, self.ctl, self.base,
        ] {
            raw::free(c);
        }
    }
}
