//! The collectives of [`NcclOnStream`]: NCCL's own (`all_reduce`, `reduce`, `broadcast`,
//! `all_gather`, `reduce_scatter`) and those NCCL builds from grouped sends and receives
//! (`gather`, `scatter`, `all_to_all`: one `ncclGroupStart` … `ncclGroupEnd` of `ncclSend` /
//! `ncclRecv` calls, as NCCL's documentation shows them).

use std::ffi::{c_int, c_void};

use cudarc::nccl::{result as nr, sys};
use ndarray::Dimension;

use super::{Call, NcclOnStream, grouped, types};
use crate::array::DeviceArray;
use crate::dist::job::{Packed, check_root, check_size, order_for};
use crate::dist::reduce::{ReduceOp, Reducible};
use crate::dist::wire::{Header, Op};
use crate::error::{Error, Result};
use crate::layout::Element;

impl NcclOnStream<'_, '_> {
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
        let (call, dt, o) = self.prepared(Op::AllReduce, h, || {
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
            Ok((
                Call {
                    inp: Some(inp),
                    out: Some(out),
                },
                dt,
                o,
            ))
        })?;
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
        let (call, dt, o) = self.prepared(Op::Reduce, h, || {
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
            Ok((
                Call {
                    inp: Some(inp),
                    out,
                },
                dt,
                o,
            ))
        })?;
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
        let call = self.prepared(Op::Broadcast, h, || {
            check_root(self.nccl.mpi, root)?;
            order_for(Some(self.stream), array)?;
            let p = Packed::input(array, self.stream, false)?;
            Ok(Call {
                inp: Some(p.clone()),
                out: Some(p),
            })
        })?;
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
        let call = self.prepared(Op::AllGather, h, || {
            check_size(
                "the array to gather into",
                recv.size(),
                send.size() * self.nccl.size(),
            )?;
            order_for(Some(self.stream), send)?;
            order_for(Some(self.stream), recv)?;
            Ok(Call {
                inp: Some(Packed::input(send, self.stream, false)?),
                out: Some(Packed::output(recv)?),
            })
        })?;
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
        let (call, dt, o) = self.prepared(Op::ReduceScatter, h, || {
            let (dt, o) = types::<T>(op)?;
            check_size(
                "the array to reduce",
                send.size(),
                recv.size() * self.nccl.size(),
            )?;
            order_for(Some(self.stream), send)?;
            order_for(Some(self.stream), recv)?;
            Ok((
                Call {
                    inp: Some(Packed::input(send, self.stream, false)?),
                    out: Some(Packed::output(recv)?),
                },
                dt,
                o,
            ))
        })?;
        let n = recv.size();
        let comm = self.nccl.comm;
        self.enqueue(Op::ReduceScatter, &call, |s, send, recv| {
            // SAFETY: packed arrays of `size() * n` and `n` elements, kept by the stream.
            unsafe { nr::reduce_scatter(send, recv, n, dt, o, comm, s) }.map(|_| ())
        })
    }

    /// Gathers every rank's `send` into `root`'s `recv` (`size()` blocks, block `r` from rank
    /// `r`; other ranks pass `None`), enqueued on the stream.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks disagree (element type, count, root), the
    /// root is out of range, the root passes no `recv` or one of the wrong size, or NCCL fails.
    pub fn gather<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: Option<&DeviceArray<T, E>>,
        root: usize,
    ) -> Result<()> {
        self.rooted(Op::Gather, send, recv, root)
    }

    /// Scatters `root`'s `send` (`size()` blocks; other ranks pass `None`): block `r` to rank
    /// `r`'s `recv`, enqueued on the stream.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks disagree (element type, count, root), the
    /// root is out of range, the root passes no `send` or one of the wrong size, or NCCL fails.
    pub fn scatter<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: Option<&DeviceArray<T, D>>,
        recv: &DeviceArray<T, E>,
        root: usize,
    ) -> Result<()> {
        self.rooted(Op::Scatter, recv, send, root)
    }

    /// Gather ([`Op::Gather`]) or scatter ([`Op::Scatter`]) between every rank's `mine` and the
    /// root's `whole` (`size()` blocks of `mine`'s size): the root receives (sends) one block per
    /// rank and every rank sends (receives) its own, in one NCCL group.
    fn rooted<T: Element, D: Dimension, E: Dimension>(
        &self,
        op: Op,
        mine: &DeviceArray<T, D>,
        whole: Option<&DeviceArray<T, E>>,
        root: usize,
    ) -> Result<()> {
        let gather = op == Op::Gather;
        let n = self.nccl.size();
        let mut h = Header::new(op, Some(T::DTYPE), mine.shape(), mine.size());
        h.root = root as u64;
        let is_root = self.nccl.rank() == root;
        let call = self.prepared(op, h, || {
            check_root(self.nccl.mpi, root)?;
            order_for(Some(self.stream), mine)?;
            let (what, missing) = if gather {
                (
                    "the array to gather into",
                    "the root passed no array to gather into",
                )
            } else {
                (
                    "the array to scatter",
                    "the root passed no array to scatter",
                )
            };
            let whole = match whole {
                Some(w) if is_root => {
                    check_size(what, w.size(), mine.size() * n)?;
                    order_for(Some(self.stream), w)?;
                    Some(w)
                }
                None if is_root => {
                    return Err(Error::Dist {
                        rank: root,
                        op: op.name().into(),
                        reason: missing.into(),
                    });
                }
                _ => None,
            };
            Ok(if gather {
                Call {
                    inp: Some(Packed::input(mine, self.stream, false)?),
                    out: whole.map(Packed::output).transpose()?,
                }
            } else {
                Call {
                    inp: whole
                        .map(|w| Packed::input(w, self.stream, false))
                        .transpose()?,
                    out: Some(Packed::output(mine)?),
                }
            })
        })?;
        let bytes = mine.nbytes();
        let comm = self.nccl.comm;
        self.enqueue(op, &call, |s, send, recv| {
            grouped(|| {
                if is_root {
                    for r in 0..n {
                        let peer = r as c_int;
                        // SAFETY: block `r` of the root's packed array (`n * bytes` bytes), kept
                        // alive by the stream until the group has run.
                        unsafe {
                            if gather {
                                nr::recv(at(recv, r * bytes), bytes, u8_type(), peer, comm, s)
                            } else {
                                nr::send(at(send, r * bytes), bytes, u8_type(), peer, comm, s)
                            }
                        }?;
                    }
                }
                let root = root as c_int;
                // SAFETY: this rank's packed array of `bytes` bytes, kept alive by the stream.
                unsafe {
                    if gather {
                        nr::send(send, bytes, u8_type(), root, comm, s)
                    } else {
                        nr::recv(recv, bytes, u8_type(), root, comm, s)
                    }
                }
                .map(|_| ())
            })
        })
    }

    /// Sends block `r` of every rank's `send` to rank `r`, which receives it as block `q` of its
    /// `recv` (`q` the sender); both arrays have `size()` blocks. Enqueued on the stream.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks disagree (element type, count), `send` and
    /// `recv` differ in size or are not a multiple of `size()`, or NCCL fails.
    pub fn all_to_all<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
    ) -> Result<()> {
        let n = self.nccl.size();
        let block = send.size() / n;
        let h = Header::new(Op::AllToAll, Some(T::DTYPE), send.shape(), block);
        let call = self.prepared(Op::AllToAll, h, || {
            check_size("the array to send", send.size(), block * n)?;
            check_size("the array to receive into", recv.size(), block * n)?;
            order_for(Some(self.stream), send)?;
            order_for(Some(self.stream), recv)?;
            Ok(Call {
                inp: Some(Packed::input(send, self.stream, false)?),
                out: Some(Packed::output(recv)?),
            })
        })?;
        let bytes = block * T::DTYPE.itemsize();
        let comm = self.nccl.comm;
        self.enqueue(Op::AllToAll, &call, |s, send, recv| {
            grouped(|| {
                for r in 0..n {
                    let peer = r as c_int;
                    // SAFETY: block `r` of the packed input and output (`n * bytes` bytes each),
                    // kept alive by the stream until the group has run.
                    unsafe { nr::send(at(send, r * bytes), bytes, u8_type(), peer, comm, s) }?;
                    // SAFETY: as above.
                    unsafe { nr::recv(at(recv, r * bytes), bytes, u8_type(), peer, comm, s) }?;
                }
                Ok(())
            })
        })
    }
}

/// NCCL's byte type: gathers, scatters and exchanges move any element type as bytes.
fn u8_type() -> sys::ncclDataType_t {
    sys::ncclDataType_t::ncclUint8
}

/// `base + offset` bytes (a block of a packed array; only ever handed to NCCL).
fn at<P>(base: *const P, offset: usize) -> *mut c_void {
    base.cast::<u8>()
        .wrapping_add(offset)
        .cast_mut()
        .cast::<c_void>()
}
