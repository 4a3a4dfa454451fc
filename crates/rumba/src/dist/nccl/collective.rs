//! The collectives of [`NcclOnStream`]: NCCL's own (`all_reduce`, `reduce`, `broadcast`,
//! `all_gather`, `reduce_scatter`) and those NCCL builds from grouped sends and receives
//! (`gather`, `scatter`, `all_to_all`: one `ncclGroupStart` … `ncclGroupEnd` of `ncclSend` /
//! `ncclRecv` calls, as NCCL's documentation shows them).

use std::ffi::c_int;

use cudarc::nccl::result as nr;
use ndarray::Dimension;

use super::{Call, NcclOnStream, grouped, types, u8_type};
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
        self.reduction(send, recv, op, None)
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
        self.reduction(send, recv, op, Some(root))
    }

    /// An all-reduce (`root` `None`) or a reduce to `root`: every rank's `recv` is written, or
    /// the root's alone.
    fn reduction<T: Reducible, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
        op: ReduceOp,
        root: Option<usize>,
    ) -> Result<()> {
        let which = if root.is_some() {
            Op::Reduce
        } else {
            Op::AllReduce
        };
        let mut h = Header::new(which, Some(T::DTYPE), send.shape(), send.size());
        h.redop = op.code();
        if let Some(r) = root {
            h.root = r as u64;
        }
        let has_output = root.is_none_or(|r| r == self.nccl.rank());
        let (call, (dt, o)) = self.prepared(which, h, || {
            let types = types::<T>(op)?;
            if let Some(r) = root {
                check_root(self.nccl.mpi, r)?;
            }
            check_size("the array to reduce into", recv.size(), send.size())?;
            order_for(Some(self.stream), send)?;
            order_for(Some(self.stream), recv)?;
            let inp = Packed::input(send, self.stream, false)?;
            // Only the root's output is written (and unpacked) by a reduce.
            let out = if !has_output {
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
                types,
            ))
        })?;
        let n = send.size();
        self.enqueue(which, &call, |l| match root {
            // SAFETY: both pointers are packed device arrays of `n` elements kept alive by the
            // stream until the collective has run.
            None => unsafe { nr::all_reduce(l.send, l.recv, n, dt, o, l.comm, l.stream) },
            // SAFETY: as above.
            Some(r) => unsafe {
                nr::reduce(l.send, l.recv, n, dt, o, r as c_int, l.comm, l.stream)
            },
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
        self.enqueue(Op::Broadcast, &call, |l| {
            let root = root as c_int;
            // SAFETY: the packed array of `bytes` bytes, kept alive by the stream.
            unsafe { nr::broadcast(l.send, l.recv, bytes, u8_type(), root, l.comm, l.stream) }
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
            self.pair(send, recv)
        })?;
        let bytes = send.nbytes();
        self.enqueue(Op::AllGather, &call, |l| {
            // SAFETY: packed arrays of `bytes` and `size() * bytes` bytes, kept by the stream.
            unsafe { nr::all_gather(l.send, l.recv, bytes, u8_type(), l.comm, l.stream) }
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
            Ok((self.pair(send, recv)?, dt, o))
        })?;
        let n = recv.size();
        self.enqueue(Op::ReduceScatter, &call, |l| {
            // SAFETY: packed arrays of `size() * n` and `n` elements, kept by the stream.
            unsafe { nr::reduce_scatter(l.send, l.recv, n, dt, o, l.comm, l.stream) }
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
        self.enqueue(op, &call, |l| {
            grouped(|| {
                if is_root {
                    for r in 0..n {
                        // SAFETY: block `r` of the root's packed array (`n * bytes` bytes), kept
                        // alive by the stream until the group has run.
                        unsafe {
                            if gather {
                                l.recv_bytes(r * bytes, bytes, r)
                            } else {
                                l.send_bytes(r * bytes, bytes, r)
                            }
                        }?;
                    }
                }
                // SAFETY: this rank's packed array of `bytes` bytes, kept alive by the stream.
                unsafe {
                    if gather {
                        l.send_bytes(0, bytes, root)
                    } else {
                        l.recv_bytes(0, bytes, root)
                    }
                }
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
            self.pair(send, recv)
        })?;
        let bytes = block * T::DTYPE.itemsize();
        self.enqueue(Op::AllToAll, &call, |l| {
            grouped(|| {
                for r in 0..n {
                    // SAFETY: block `r` of the packed input and output (`n * bytes` bytes each),
                    // kept alive by the stream until the group has run.
                    unsafe { l.send_bytes(r * bytes, bytes, r) }?;
                    // SAFETY: as above.
                    unsafe { l.recv_bytes(r * bytes, bytes, r) }?;
                }
                Ok(())
            })
        })
    }

    /// The call of an operation from `send` to `recv`, both ordered on the stream: the input
    /// packed, the output to be unpacked.
    fn pair<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
    ) -> Result<Call<T>> {
        order_for(Some(self.stream), send)?;
        order_for(Some(self.stream), recv)?;
        Ok(Call {
            inp: Some(Packed::input(send, self.stream, false)?),
            out: Some(Packed::output(recv)?),
        })
    }
}
