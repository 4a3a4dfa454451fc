//! Point to point: `send`, `recv` into an existing array, `sendrecv`, and the nonblocking
//! `isend`/`irecv` whose [`Request`] is waited on or tested.
//!
//! A transfer is a small protocol: the sender posts a header (element type, shape, the data tag
//! and chunk size it will use); the receiver compares it with its own array and answers; only an
//! accepted transfer moves data, in pipelined chunks on the data communicator. A mismatch is
//! therefore an [`Error::Dist`] on both ranks, naming both sides, and nothing is written. Each
//! transfer is a state machine ([`P2p`]) advanced by whoever waits on the communicator, so a
//! rank waiting in one operation still answers the headers of its pending `isend`/`irecv`s.
//! Point-to-point transfers always stage through pinned memory, whatever the communicator's
//! transport (their chunks are bounded by the receiver's answer either way).

use std::cell::RefCell;
use std::ffi::c_int;
use std::rc::Rc;

use ndarray::Dimension;

use super::OnStream;
use super::comm::Communicator;
use super::job::{Packed, order_for};
use super::pipeline::{Exchange, Pipeline, SLOTS, Side, Spec};
use super::raw::{self, Request as RawRequest};
use super::wire::{HEADER_BYTES, Header, Op};
use crate::array::DeviceArray;
use crate::error::{Error, Result};
use crate::layout::Element;
use crate::memory::DeviceBuffer;

/// Largest user tag (MPI guarantees at least 32767).
pub const MAX_TAG: u32 = 32_767;

/// A received region to make valid for its element type: the function, the bytes, their count.
type Normalize = (fn(&mut [u8]), *mut u8, usize);

/// Moves one chunk of a point-to-point transfer on the data communicator.
struct Chunk {
    send: bool,
    peer: usize,
    tag: c_int,
    comm: mpi::ffi::MPI_Comm,
    rank: usize,
    op: &'static str,
    /// One request per pipeline slot.
    req: Vec<RawRequest>,
    /// Per slot: the received region to normalize once complete.
    normalize: Vec<Option<Normalize>>,
    normalizer: Option<fn(&mut [u8])>,
}

impl Exchange for Chunk {
    unsafe fn start(
        &mut self,
        slot: usize,
        send: *const u8,
        recv: *mut u8,
        len: usize,
    ) -> Result<()> {
        let req = &mut self.req[slot];
        // SAFETY: the pipeline lends the regions until this exchange completes. Chunks are
        // started in order on both sides, and MPI matches the messages of one source and tag
        // in order, so chunk c meets chunk c.
        let rc = unsafe {
            if self.send {
                raw::isend(send, len, self.peer, self.tag, self.comm, req)
            } else {
                raw::irecv(recv, len, self.peer, self.tag, self.comm, req)
            }
        };
        self.normalize[slot] = self.normalizer.map(|f| (f, recv, len));
        raw::check(rc, self.rank, self.op, "MPI_Isend/MPI_Irecv")
    }

    fn poll(&mut self, slot: usize) -> Result<bool> {
        let done = self.req[slot].test(self.rank, self.op)?;
        if done
            && !self.send
            && let Some((f, p, len)) = self.normalize[slot].take()
        {
            // SAFETY: the receive completed into the pipeline's pinned region of `len` bytes,
            // which nothing else touches before its stage-out is queued.
            f(unsafe { std::slice::from_raw_parts_mut(p, len) });
        }
        Ok(done)
    }
}

type Finish = Box<dyn FnMut() -> Result<()>>;

enum State {
    AwaitAck(Offer),
    AwaitHeader {
        hdr: Box<[u8; HEADER_BYTES]>,
        hdr_req: RawRequest,
    },
    Refusing {
        /// Kept until its send completes.
        _ack: Box<Header>,
        ack_req: RawRequest,
        err: Error,
    },
    Data {
        pipeline: Box<Pipeline>,
        /// A small send still in flight (the sender's header, the receiver's answer).
        small: Option<(Box<Header>, RawRequest)>,
    },
    Done,
    Failed(Error),
}

/// One point-to-point transfer in progress.
pub(crate) struct P2p {
    op: &'static str,
    peer: usize,
    rank: usize,
    state: State,
    /// Sender: its header; receiver: the header of its own array (for comparison).
    mine: Header,
    side: Side,
    itemsize: usize,
    keep: Vec<DeviceBuffer>,
    target: super::pipeline::Target,
    data: mpi::ffi::MPI_Comm,
    normalizer: Option<fn(&mut [u8])>,
    finish: Finish,
}

impl P2p {
    pub(crate) fn is_settled(&self) -> bool {
        matches!(self.state, State::Done | State::Failed(_))
    }

    fn fail(&mut self, e: Error) {
        // Buffers an MPI request may still use are leaked, never freed.
        let old = std::mem::replace(&mut self.state, State::Failed(e));
        std::mem::forget(old);
    }

    fn pipeline(&self, chunk: usize, tag: u32, send: bool) -> Result<Pipeline> {
        let spec = Spec {
            block_bytes: self.mine.count as usize * self.itemsize,
            itemsize: self.itemsize,
            send_blocks: usize::from(send),
            recv_blocks: usize::from(!send),
            shared: false,
            plan_blocks: 1,
            input: send.then_some(self.side),
            output: (!send).then_some(self.side),
            chunk_bytes: chunk,
        };
        let ex = Chunk {
            send,
            peer: self.peer,
            tag: tag as c_int,
            comm: self.data,
            rank: self.rank,
            op: self.op,
            req: (0..SLOTS).map(|_| RawRequest::null()).collect(),
            normalize: vec![None; SLOTS],
            normalizer: self.normalizer,
        };
        // SAFETY: the side addresses the packed array whose buffer is in `keep`.
        unsafe { Pipeline::new(self.target.clone(), spec, Box::new(ex), self.keep.clone()) }
    }

    /// Advances the transfer as far as it goes without waiting.
    pub(crate) fn step(&mut self, comm: &Communicator) {
        if let Err(e) = self.try_step(comm) {
            self.fail(e);
        }
    }

    fn try_step(&mut self, comm: &Communicator) -> Result<()> {
        loop {
            match &mut self.state {
                State::AwaitAck(offer) => {
                    if !offer.step(self.rank, self.op)? {
                        return Ok(());
                    }
                    if let Err(e) = offer.answered(self.op) {
                        self.state = State::Failed(e);
                        return Ok(());
                    }
                    let p = self.pipeline(self.mine.root as usize, self.mine.tag, true)?;
                    self.state = State::Data {
                        pipeline: Box::new(p),
                        small: None,
                    };
                }
                State::AwaitHeader { hdr, hdr_req } => {
                    if !hdr_req.test(self.rank, self.op)? {
                        return Ok(());
                    }
                    let theirs = Header::from_bytes(&hdr[..]);
                    let (mismatch, answer, req) =
                        answer(comm, self.op, &theirs, &self.mine, self.peer)?;
                    self.state = match mismatch {
                        Some(reason) => State::Refusing {
                            _ack: answer,
                            ack_req: req,
                            err: Error::Dist {
                                rank: self.rank,
                                op: self.op.into(),
                                reason,
                            },
                        },
                        None => State::Data {
                            pipeline: Box::new(self.pipeline(
                                theirs.root as usize,
                                theirs.tag,
                                false,
                            )?),
                            small: Some((answer, req)),
                        },
                    };
                }
                State::Refusing { ack_req, err, .. } => {
                    if !ack_req.test(self.rank, self.op)? {
                        return Ok(());
                    }
                    let e = err.clone();
                    self.state = State::Failed(e);
                    return Ok(());
                }
                State::Data { pipeline, small } => {
                    if let Some((_, req)) = small {
                        if req.test(self.rank, self.op)? {
                            *small = None;
                        }
                    }
                    if !pipeline.step()? || small.is_some() {
                        return Ok(());
                    }
                    (self.finish)()?;
                    self.state = State::Done;
                    return Ok(());
                }
                State::Done | State::Failed(_) => return Ok(()),
            }
        }
    }

    /// `Ok(true)` once done; the transfer's error once failed.
    fn outcome(&self) -> Result<bool> {
        match &self.state {
            State::Done => Ok(true),
            State::Failed(e) => Err(e.clone()),
            _ => Ok(false),
        }
    }
}

impl Drop for P2p {
    fn drop(&mut self) {
        if !self.is_settled() {
            // Abandoned in flight (a poisoned communicator): MPI may still use its buffers.
            let old = std::mem::replace(&mut self.state, State::Done);
            std::mem::forget(old);
        }
    }
}

/// Why [`Offer::post`] failed (the offer itself is leaked either way).
pub(crate) enum PostFailed {
    /// MPI refused the receive of the answer.
    Receive(Error),
    /// MPI refused the send of the header (the answer's receive is posted).
    Send(Error),
}

/// The sender's side of the handshake in flight: its header out to `peer`, the receiver's answer
/// in. Both boxes stay until their requests complete (or are leaked with the offer).
pub(crate) struct Offer {
    pub(crate) peer: usize,
    /// Kept until its send completes.
    _header: Box<Header>,
    header_req: RawRequest,
    answer: Box<[u8; HEADER_BYTES]>,
    answer_req: RawRequest,
}

impl Offer {
    /// Posts the receive of `peer`'s answer (on `answer_tag`), then sends `header` to `peer` with
    /// `tag`: the answer's receive is waiting before the header can be answered.
    ///
    /// # Errors
    /// [`PostFailed`]: MPI refusing the receive or the send. The offer is leaked then: MPI does
    /// not promise that a call which returned an error posted nothing, so its boxes may still be
    /// read or written.
    pub(crate) fn post(
        comm: &Communicator,
        op: &str,
        header: Header,
        peer: usize,
        tag: u32,
        answer_tag: u32,
    ) -> std::result::Result<Offer, PostFailed> {
        let mut offer = Offer {
            peer,
            _header: Box::new(header),
            header_req: RawRequest::null(),
            answer: Box::new([0u8; HEADER_BYTES]),
            answer_req: RawRequest::null(),
        };
        // SAFETY: the answer's box lives in the offer until the receive completes (or is leaked
        // with it).
        let rc = unsafe {
            raw::irecv(
                offer.answer.as_mut_ptr(),
                HEADER_BYTES,
                peer,
                answer_tag as c_int,
                comm.ack,
                &mut offer.answer_req,
            )
        };
        if let Err(e) = raw::check(rc, comm.rank(), op, "MPI_Irecv") {
            std::mem::forget(offer);
            return Err(PostFailed::Receive(e));
        }
        let b = offer._header.as_bytes();
        // SAFETY: the header's box lives in the offer until the send completes (or is leaked
        // with it).
        let rc = unsafe {
            raw::isend(
                b.as_ptr(),
                b.len(),
                peer,
                tag as c_int,
                comm.hdr,
                &mut offer.header_req,
            )
        };
        match raw::check(rc, comm.rank(), op, "MPI_Isend") {
            Ok(()) => Ok(offer),
            Err(e) => {
                std::mem::forget(offer);
                Err(PostFailed::Send(e))
            }
        }
    }

    /// Advances both requests; `true` once the header has left and the answer has arrived.
    pub(crate) fn step(&mut self, me: usize, op: &str) -> Result<bool> {
        let sent = self.header_req.test(me, op)?;
        let answered = self.answer_req.test(me, op)?;
        Ok(sent && answered)
    }

    /// The receiver's answer, once [`step`](Self::step) said it arrived: its refusal, if it
    /// refused.
    pub(crate) fn answered(&self, op: &str) -> Result<()> {
        let answer = Header::from_bytes(&self.answer[..]);
        if answer.status != 0 {
            return Err(Error::Dist {
                rank: self.peer,
                op: op.into(),
                reason: answer.reason(),
            });
        }
        Ok(())
    }
}

/// The receiver's side of the handshake, first step: posts the receive of `source`'s header with
/// `tag`. The caller keeps the box with its transfer until the receive completes (or leaks it).
///
/// # Errors
/// MPI refusing to start the receive.
pub(crate) fn expect_header(
    comm: &Communicator,
    op: &str,
    source: usize,
    tag: u32,
) -> Result<(Box<[u8; HEADER_BYTES]>, RawRequest)> {
    let mut header = Box::new([0u8; HEADER_BYTES]);
    let mut req = RawRequest::null();
    // SAFETY: the box goes to the caller, which keeps it until the receive completes (or leaks
    // it).
    let rc = unsafe {
        raw::irecv(
            header.as_mut_ptr(),
            HEADER_BYTES,
            source,
            tag as c_int,
            comm.hdr,
            &mut req,
        )
    };
    raw::check(rc, comm.rank(), op, "MPI_Irecv")?;
    Ok((header, req))
}

/// The receiver's side of the handshake once the sender's header `theirs` has arrived: compares
/// it with `mine` and starts sending the answer (a refusal saying why, or an acceptance) to
/// `peer`, on the tag the sender listens on. Returns the refusal's reason, and the boxed answer
/// with its request, which the caller keeps until the send completes (or leaks).
pub(crate) fn answer(
    comm: &Communicator,
    op: &str,
    theirs: &Header,
    mine: &Header,
    peer: usize,
) -> Result<(Option<String>, Box<Header>, RawRequest)> {
    let mismatch = compare(theirs, mine, peer, comm.rank());
    let mut answer = Header::new(Op::Send, None, &[], 0);
    if let Some(why) = &mismatch {
        answer = answer.refused(why);
    }
    let answer = Box::new(answer);
    let mut req = RawRequest::null();
    let bytes = answer.as_bytes();
    // SAFETY: `answer` is boxed and handed to the caller, which keeps it until the send
    // completes (or leaks it).
    let rc = unsafe {
        raw::isend(
            bytes.as_ptr(),
            bytes.len(),
            peer,
            theirs.tag as c_int,
            comm.ack,
            &mut req,
        )
    };
    raw::check(rc, comm.rank(), op, "MPI_Isend")?;
    Ok((mismatch, answer, req))
}

/// Why the receiver refuses the sender's header, if it does. `mine.op` says through what this
/// side receives ([`Op::Send`]: MPI; [`Op::NcclSend`]: NCCL); a sender of the other kind is
/// refused, as its data would never arrive where this side waits for it.
pub(crate) fn compare(theirs: &Header, mine: &Header, source: usize, me: usize) -> Option<String> {
    let through = |op: u32| {
        if op == Op::NcclSend as u32 {
            "NCCL"
        } else {
            "MPI"
        }
    };
    let p2p = |op: u32| op == Op::Send as u32 || op == Op::NcclSend as u32;
    if !theirs.is_valid() || !p2p(theirs.op) {
        return Some(format!(
            "rank {source} sent a message this receive cannot read (not a rumba array)"
        ));
    }
    if theirs.op != mine.op {
        return Some(format!(
            "rank {source} sends through {}, rank {me} receives through {}: both sides of a transfer use the same kind of communicator",
            through(theirs.op),
            through(mine.op)
        ));
    }
    let same = theirs.dtype_name() == mine.dtype_name()
        && theirs.itemsize == mine.itemsize
        && theirs.count == mine.count
        && theirs.ndim == mine.ndim
        && theirs.shape == mine.shape;
    (!same).then(|| {
        format!(
            "rank {source} sent {}, rank {me} receives into {}",
            theirs.describe(),
            mine.describe()
        )
    })
}

/// A pending [`isend`](OnStream::isend) or [`irecv`](OnStream::irecv).
///
/// It advances whenever its communicator waits (in any operation), and when tested or waited
/// on. Dropping it does not cancel it: the communicator finishes it as it makes progress (the
/// peer is waiting for it), and at the latest when the communicator is dropped.
pub struct Request<'c> {
    comm: &'c Communicator,
    inner: Rc<RefCell<P2p>>,
}

impl std::fmt::Debug for Request<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = self.inner.borrow();
        write!(f, "Request({} with rank {})", m.op, m.peer)
    }
}

impl Request<'_> {
    /// Advances the transfer without waiting: `Ok(true)` once it is complete (its data sent, or
    /// received and queued on the stream).
    ///
    /// # Errors
    /// The transfer's [`Error::Dist`] (a refused header, a poisoned communicator).
    pub fn test(&self) -> Result<bool> {
        self.comm.check_poison(self.inner.borrow().op)?;
        self.inner.borrow_mut().step(self.comm);
        self.inner.borrow().outcome()
    }

    /// Waits until the transfer is complete.
    ///
    /// # Errors
    /// As [`test`](Self::test); also when the timeout passes.
    pub fn wait(self) -> Result<()> {
        let op = self.inner.borrow().op;
        let peer = self.inner.borrow().peer;
        self.comm
            .wait_until(op, &|| format!("waiting for rank {peer}"), || {
                self.inner.borrow_mut().step(self.comm);
                self.inner.borrow().outcome()
            })
    }
}

pub(crate) fn check_peer(comm: &Communicator, op: &str, peer: usize, tag: u32) -> Result<()> {
    if peer >= comm.size() {
        return Err(comm.err(
            op,
            format!("rank {peer} is out of range for {} ranks", comm.size()),
        ));
    }
    if tag > MAX_TAG {
        return Err(comm.err(op, format!("tag {tag} is above the largest tag {MAX_TAG}")));
    }
    Ok(())
}

impl<'a> OnStream<'a> {
    /// Starts a send of `array` to `peer` (`send`), or a receive from `peer` into it: every
    /// refusal before any message leaves, then the sender's offer or the receiver's expectation
    /// of a header.
    fn start<T: Element, D: Dimension>(
        &self,
        send: bool,
        array: &DeviceArray<T, D>,
        peer: usize,
        tag: u32,
    ) -> Result<P2p> {
        let c = self.comm;
        let op = if send { "send" } else { "recv" };
        c.check_poison(op)?;
        check_peer(c, op, peer, tag)?;
        let order = order_for(self.stream, array).map_err(|e| c.err(op, e.to_string()))?;
        let packed = if send {
            Packed::input(array, &order.stream, false)?
        } else {
            Packed::output(array)?
        };
        let side = packed.side(array.size())?;
        let mut mine = Header::new(Op::Send, Some(T::DTYPE), array.shape(), array.size());
        let state = if send {
            mine.tag = c.data_tag();
            mine.root = c.chunk_bytes() as u64;
            match Offer::post(c, op, mine, peer, tag, mine.tag) {
                Ok(offer) => State::AwaitAck(offer),
                Err(PostFailed::Receive(e)) => return Err(e),
                Err(PostFailed::Send(e)) => return Err(c.poison(op, e.to_string())),
            }
        } else {
            let (hdr, hdr_req) = expect_header(c, op, peer, tag)?;
            State::AwaitHeader { hdr, hdr_req }
        };
        let wait = order.wait;
        let stream = order.stream.clone();
        // A receive unpacks a strided array once its data is in.
        let unpack = (!send).then(|| packed.clone());
        Ok(P2p {
            op,
            peer,
            rank: c.rank(),
            state,
            mine,
            side,
            itemsize: T::DTYPE.itemsize(),
            keep: vec![packed.buffer()],
            target: c.target(&order.stream),
            data: c.data,
            normalizer: (!send && !T::ANY_BIT_PATTERN)
                .then_some(T::normalize_bytes as fn(&mut [u8])),
            finish: Box::new(move || {
                if let Some(unpack) = &unpack {
                    unpack.finish(&stream)?;
                }
                if wait { stream.synchronize() } else { Ok(()) }
            }),
        })
    }

    fn wait_one(&self, p: P2p) -> Result<()> {
        let cell = RefCell::new(p);
        let (op, peer) = (cell.borrow().op, cell.borrow().peer);
        self.comm
            .wait_until(op, &|| format!("waiting for rank {peer}"), || {
                cell.borrow_mut().step(self.comm);
                cell.borrow().outcome()
            })
    }

    /// Sends `array` (any layout; strided views are packed on the device first) to rank `dest`
    /// with `tag`, once the stream has reached this point. Returns when the data has left.
    ///
    /// # Errors
    /// [`Error::Dist`]: `dest` out of range or `tag` above [`MAX_TAG`]; the receiver's array
    /// has another element type or shape (on both ranks); a poisoned communicator; the timeout.
    pub fn send<T: Element, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        dest: usize,
        tag: u32,
    ) -> Result<()> {
        let p = self.start(true, array, dest, tag)?;
        self.wait_one(p)
    }

    /// Receives from rank `source` with `tag` into `array`, which must have the element type
    /// and shape the sender sent; the copy into `array` is queued on the stream.
    ///
    /// # Errors
    /// [`Error::Dist`]: `source` out of range or `tag` above [`MAX_TAG`]; the sender's array
    /// differs (on both ranks; `array` is left unchanged); a poisoned communicator; the timeout.
    pub fn recv<T: Element, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        source: usize,
        tag: u32,
    ) -> Result<()> {
        let p = self.start(false, array, source, tag)?;
        self.wait_one(p)
    }

    /// Sends `send` to `dest` and receives `recv` from `source` at the same time (a halo
    /// exchange without deadlock), both with `tag`.
    ///
    /// # Errors
    /// As [`send`](Self::send) and [`recv`](Self::recv); the first error of the two.
    pub fn sendrecv<T: Element, D: Dimension, U: Element, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        dest: usize,
        recv: &DeviceArray<U, E>,
        source: usize,
        tag: u32,
    ) -> Result<()> {
        let s = RefCell::new(self.start(true, send, dest, tag)?);
        let r = match self.start(false, recv, source, tag) {
            Ok(r) => RefCell::new(r),
            Err(e) => {
                // The send is under way; let the communicator finish it.
                self.comm.pending.borrow_mut().push(Rc::new(s));
                return Err(e);
            }
        };
        self.comm.wait_until(
            "sendrecv",
            &|| format!("exchanging with ranks {dest} and {source}"),
            || {
                s.borrow_mut().step(self.comm);
                r.borrow_mut().step(self.comm);
                Ok(s.borrow().outcome()? & r.borrow().outcome()?)
            },
        )
    }

    /// Starts sending `array` to `dest`; the [`Request`] completes it.
    ///
    /// # Errors
    /// As [`send`](Self::send), for what can be checked before the receiver answers.
    pub fn isend<T: Element, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        dest: usize,
        tag: u32,
    ) -> Result<Request<'a>> {
        let p = self.start(true, array, dest, tag)?;
        Ok(self.register(p))
    }

    /// Starts receiving from `source` into `array`; the [`Request`] completes it.
    ///
    /// # Errors
    /// As [`recv`](Self::recv), for what can be checked before the sender's header arrives.
    pub fn irecv<T: Element, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        source: usize,
        tag: u32,
    ) -> Result<Request<'a>> {
        let p = self.start(false, array, source, tag)?;
        Ok(self.register(p))
    }

    fn register(&self, p: P2p) -> Request<'a> {
        let inner = Rc::new(RefCell::new(p));
        self.comm.pending.borrow_mut().push(Rc::clone(&inner));
        Request {
            comm: self.comm,
            inner,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receivers_refuse_other_shapes_and_the_other_communicator_kind() {
        let mpi = Header::new(Op::Send, Some(f32::DTYPE), &[4], 4);
        let nccl = {
            let mut h = mpi;
            h.op = Op::NcclSend as u32;
            h
        };
        assert_eq!(compare(&mpi, &mpi, 0, 1), None);
        assert_eq!(compare(&nccl, &nccl, 0, 1), None);
        let why = compare(&nccl, &mpi, 0, 1).unwrap();
        assert!(
            why.contains("sends through NCCL, rank 1 receives through MPI"),
            "{why}"
        );
        let why = compare(&mpi, &nccl, 3, 2).unwrap();
        assert!(
            why.contains("sends through MPI, rank 2 receives through NCCL"),
            "{why}"
        );
        let other = Header::new(Op::Send, Some(f32::DTYPE), &[5], 5);
        let why = compare(&other, &mpi, 0, 1).unwrap();
        assert!(why.contains("rank 0 sent 5 float32 of shape (5)"), "{why}");
        let garbage = Header::new(Op::Barrier, None, &[], 0);
        assert!(
            compare(&garbage, &mpi, 0, 1)
                .unwrap()
                .contains("cannot read")
        );
    }
}
