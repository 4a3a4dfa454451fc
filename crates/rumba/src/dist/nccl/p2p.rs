//! Point to point on NCCL: [`send`](NcclOnStream::send), [`recv`](NcclOnStream::recv) and
//! [`sendrecv`](NcclOnStream::sendrecv).
//!
//! Before any data, the two ranks shake hands over MPI as rumba's MPI point to point does: the
//! sender's header (element type, shape) goes to the receiver, which compares it with its own
//! array and answers. A mismatch (or a sender of the other communicator kind) is
//! [`Error::Dist`] on both ranks with nothing enqueued; otherwise `ncclSend` / `ncclRecv` go on
//! the stream (one NCCL group for `sendrecv`, so a ring exchange cannot deadlock) and the host
//! does not wait for the GPU. The handshake is host traffic only; it obeys the communicator's
//! timeout and poison like every other wait.

use ndarray::Dimension;

use super::{Call, NcclOnStream, grouped};
use crate::array::DeviceArray;
use crate::dist::comm::Communicator;
use crate::dist::job::{Packed, order_for};
use crate::dist::p2p::{Offer, PostFailed, answer, check_peer, expect_header};
use crate::dist::raw::Request as RawRequest;
use crate::dist::wire::{HEADER_BYTES, Header, Op};
use crate::error::{Error, Result};
use crate::layout::Element;

/// The receiving side of a handshake in flight: the sender's header in, then this side's answer
/// out.
struct Expect {
    peer: usize,
    mine: Header,
    header: Box<[u8; HEADER_BYTES]>,
    header_req: RawRequest,
    reply: Option<(Box<Header>, RawRequest)>,
    refused: Option<String>,
}

/// Both sides of one rank's handshakes, in flight until every request has completed.
struct Handshake {
    offer: Option<Offer>,
    expect: Option<Expect>,
}

impl Handshake {
    /// Starts the requests: the sender's answer is posted before its header leaves.
    fn start(
        comm: &Communicator,
        op: &str,
        offer: Option<(usize, Header)>,
        expect: Option<(usize, Header)>,
        tag: u32,
    ) -> Result<Handshake> {
        let mut hs = Handshake {
            offer: None,
            expect: None,
        };
        if let Some((peer, mine)) = expect {
            let (header, header_req) = expect_header(comm, op, peer, tag)?;
            hs.expect = Some(Expect {
                peer,
                mine,
                header,
                header_req,
                reply: None,
                refused: None,
            });
        }
        if let Some((peer, mine)) = offer {
            match Offer::post(comm, op, mine, peer, tag, tag) {
                Ok(offer) => hs.offer = Some(offer),
                Err(PostFailed::Receive(e) | PostFailed::Send(e)) => {
                    // `post` leaked the offer; the rest may be posted too (see `abandon`).
                    hs.abandon();
                    return Err(comm.poison(op, e.to_string()));
                }
            }
        }
        Ok(hs)
    }

    /// Advances every request once; `true` when all have completed.
    fn step(&mut self, comm: &Communicator, op: &str) -> Result<bool> {
        let me = comm.rank();
        let mut done = true;
        if let Some(o) = &mut self.offer {
            done &= o.step(me, op)?;
        }
        if let Some(x) = &mut self.expect {
            if x.reply.is_none() {
                if x.header_req.test(me, op)? {
                    let theirs = Header::from_bytes(&x.header[..]);
                    let (refused, answer, req) = answer(comm, op, &theirs, &x.mine, x.peer)?;
                    x.refused = refused;
                    x.reply = Some((answer, req));
                } else {
                    done = false;
                }
            }
            if let Some((_, req)) = &mut x.reply {
                done &= req.test(me, op)?;
            }
        }
        Ok(done)
    }

    /// Leaks the buffers of requests that may not have completed (MPI may still write them).
    fn abandon(self) {
        std::mem::forget(self);
    }

    /// The outcome once every request has completed: the receiver's refusal, or this side's.
    fn outcome(&self, me: usize, op: &str) -> Result<()> {
        if let Some(o) = &self.offer {
            o.answered(op)?;
        }
        if let Some(x) = &self.expect
            && let Some(reason) = &x.refused
        {
            return Err(Error::Dist {
                rank: me,
                op: op.into(),
                reason: reason.clone(),
            });
        }
        Ok(())
    }

    /// Runs the handshake to its end under the communicator's timeout and poison.
    fn run(mut self, comm: &Communicator, op: &str) -> Result<()> {
        let peers = (
            self.offer.as_ref().map(|o| o.peer),
            self.expect.as_ref().map(|x| x.peer),
        );
        let what = || match peers {
            (Some(d), Some(s)) => format!("agreeing with ranks {d} and {s} before NCCL"),
            (Some(p), None) | (None, Some(p)) => format!("agreeing with rank {p} before NCCL"),
            (None, None) => "agreeing before NCCL".into(),
        };
        match comm.wait_until(op, &what, || self.step(comm, op)) {
            Ok(()) => self.outcome(comm.rank(), op),
            Err(e) => {
                self.abandon();
                Err(e)
            }
        }
    }
}

/// The header a NCCL transfer of `array` carries.
fn header<T: Element, D: Dimension>(array: &DeviceArray<T, D>, tag: u32) -> Header {
    let mut h = Header::new(Op::NcclSend, Some(T::DTYPE), array.shape(), array.size());
    h.tag = tag;
    h
}

impl NcclOnStream<'_, '_> {
    /// Sends `array` (any layout; strided views are packed on the stream first) to rank `dest`
    /// with `tag`: once the receiver has agreed, `ncclSend` is enqueued on the stream and this
    /// returns without waiting for the GPU. The receiver calls [`recv`](Self::recv) (or
    /// [`sendrecv`](Self::sendrecv)) on its NCCL communicator.
    ///
    /// # Errors
    /// [`Error::Dist`]: `dest` out of range or `tag` above [`MAX_TAG`](crate::dist::MAX_TAG);
    /// the receiver's array has another element type or shape, or it receives through MPI (on
    /// both ranks, nothing enqueued); a poisoned communicator; the timeout; NCCL fails.
    pub fn send<T: Element, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        dest: usize,
        tag: u32,
    ) -> Result<()> {
        self.transfer(
            Some((array, dest)),
            None::<(&DeviceArray<T, D>, usize)>,
            tag,
        )
    }

    /// Receives from rank `source` with `tag` into `array`, which must have the element type
    /// and shape the sender sent: `ncclRecv` (and the unpacking of a strided view) enqueued on
    /// the stream.
    ///
    /// # Errors
    /// [`Error::Dist`]: `source` out of range or `tag` above [`MAX_TAG`](crate::dist::MAX_TAG);
    /// the sender's array differs, or it sends through MPI (on both ranks; `array` is left
    /// unchanged); a poisoned communicator; the timeout; NCCL fails.
    pub fn recv<T: Element, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        source: usize,
        tag: u32,
    ) -> Result<()> {
        self.transfer(
            None::<(&DeviceArray<T, D>, usize)>,
            Some((array, source)),
            tag,
        )
    }

    /// Sends `send` to `dest` and receives `recv` from `source` in one NCCL group (a ring or
    /// halo exchange without deadlock), both with `tag`.
    ///
    /// # Errors
    /// As [`send`](Self::send) and [`recv`](Self::recv): the first error of the two, and nothing
    /// enqueued when either side is refused.
    pub fn sendrecv<T: Element, D: Dimension, U: Element, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        dest: usize,
        recv: &DeviceArray<U, E>,
        source: usize,
        tag: u32,
    ) -> Result<()> {
        self.transfer(Some((send, dest)), Some((recv, source)), tag)
    }

    /// The three operations: check, shake hands, then enqueue the NCCL calls in one group.
    fn transfer<T: Element, D: Dimension, U: Element, E: Dimension>(
        &self,
        send: Option<(&DeviceArray<T, D>, usize)>,
        recv: Option<(&DeviceArray<U, E>, usize)>,
        tag: u32,
    ) -> Result<()> {
        let mpi = self.nccl.mpi;
        let op = match (&send, &recv) {
            (Some(_), Some(_)) => "sendrecv",
            (Some(_), None) => "send",
            _ => "recv",
        };
        mpi.check_poison(op)?;
        // Everything refusable is refused before any message leaves.
        let mut call = Call::<T, U> {
            inp: None,
            out: None,
        };
        let (mut sent, mut got) = (0, 0);
        if let Some((a, dest)) = send {
            check_peer(mpi, op, dest, tag)?;
            order_for(Some(self.stream), a).map_err(|e| mpi.err(op, e.to_string()))?;
            call.inp = Some(Packed::input(a, self.stream, false)?);
            sent = a.nbytes();
        }
        if let Some((a, source)) = recv {
            check_peer(mpi, op, source, tag)?;
            order_for(Some(self.stream), a).map_err(|e| mpi.err(op, e.to_string()))?;
            call.out = Some(Packed::output(a)?);
            got = a.nbytes();
        }
        let offer = send.map(|(a, dest)| (dest, header(a, tag)));
        let expect = recv.map(|(a, source)| (source, header(a, tag)));
        Handshake::start(mpi, op, offer, expect, tag)?.run(mpi, op)?;
        let (dest, source) = (send.map(|(_, d)| d), recv.map(|(_, s)| s));
        self.enqueue(Op::NcclSend, &call, |l| {
            grouped(|| {
                if let Some(d) = dest {
                    // SAFETY: the packed input of `sent` bytes, kept alive by the stream until
                    // the group has run.
                    unsafe { l.send_bytes(0, sent, d) }?;
                }
                if let Some(r) = source {
                    // SAFETY: the packed output of `got` bytes, kept alive by the stream.
                    unsafe { l.recv_bytes(0, got, r) }?;
                }
                Ok(())
            })
        })
    }
}
