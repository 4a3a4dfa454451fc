//! Collectives on device arrays: barrier, broadcast, all-reduce, reduce, all-gather, gather,
//! scatter, reduce-scatter and all-to-all, in place and out of place.
//!
//! Blocks: operations that give every rank a part of an array (gathers, scatters,
//! reduce-scatter, all-to-all) cut the larger array, in C order, into `size()` equal blocks,
//! block `r` belonging to rank `r`. Every rank passes arrays of the same element type and
//! element count per block; operations with one array per rank (`broadcast`, `all_reduce`,
//! `reduce`) also need the same shape on every rank.

use ndarray::Dimension;

use super::OnStream;
use super::comm::Transport;
use super::job::{Job, Kind, Packed, Placement, check_root, check_size, order_for, run};
use super::pipeline::Spec;
use super::reduce::{ReduceOp, Reducible, check_supported};
use super::wire::{Header, Op};
use crate::array::DeviceArray;
use crate::error::{Error, Result};
use crate::layout::Element;

fn spec(block_elems: usize, itemsize: usize, send: usize, recv: usize, plan: usize) -> Spec {
    Spec {
        plan_blocks: plan,
        block_bytes: block_elems * itemsize,
        itemsize,
        send_blocks: send,
        recv_blocks: recv,
        shared: false,
        input: None,
        output: None,
        chunk_bytes: 0,
    }
}

impl OnStream<'_> {
    fn copy_in_place(&self) -> bool {
        self.comm.transport() == Transport::Direct
    }

    fn placement<T: Element, D: Dimension>(&self, a: &DeviceArray<T, D>) -> Result<Placement> {
        order_for(self.stream, a)
    }

    /// Waits until every rank has called `barrier` (the stream is not involved).
    ///
    /// # Errors
    /// [`Error::Dist`] when the communicator is poisoned, another rank called a different
    /// operation, or the timeout passed.
    pub fn barrier(&self) -> Result<()> {
        self.comm.check_poison("barrier")?;
        let h = Header::new(Op::Barrier, None, &[], 0);
        super::job::agree_headers(self.comm, Op::Barrier, &h, false)
    }

    /// Copies `root`'s `array` into every other rank's `array`, in place.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks pass different roots, element types or
    /// shapes, `root` is out of range, a rank's input is refused, the communicator is poisoned
    /// or the timeout passes.
    pub fn broadcast<T: Element, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        root: usize,
    ) -> Result<()> {
        self.broadcast_impl(None, array, root)
    }

    /// Copies `root`'s `send` into every rank's `recv` (`send` is read on the root only; other
    /// ranks pass `None`).
    ///
    /// # Errors
    /// As [`broadcast`](Self::broadcast); also when the root passes no `send`, or one whose
    /// shape differs from its `recv`.
    pub fn broadcast_into<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: Option<&DeviceArray<T, D>>,
        recv: &DeviceArray<T, E>,
        root: usize,
    ) -> Result<()> {
        let send = send.map(|s| s.clone().into_dyn());
        self.broadcast_impl(send.as_ref(), recv, root)
    }

    fn broadcast_impl<T: Element, E: Dimension>(
        &self,
        send: Option<&DeviceArray<T, ndarray::IxDyn>>,
        recv: &DeviceArray<T, E>,
        root: usize,
    ) -> Result<()> {
        let c = self.comm;
        let mut h = Header::new(Op::Broadcast, Some(T::DTYPE), recv.shape(), recv.size());
        h.root = root as u64;
        let job = (|| {
            check_root(c, root)?;
            let order = self.placement(recv)?;
            let mut sp = spec(recv.size(), T::DTYPE.itemsize(), 1, 1, 1);
            sp.shared = true;
            let out = Packed::output(recv)?;
            let mut inputs = Vec::new();
            let mut outputs = Vec::new();
            if c.rank() == root {
                let inp = match send {
                    Some(s) => {
                        if s.shape() != recv.shape() {
                            return Err(Error::IncompatibleShape {
                                left: recv.shape().to_vec(),
                                right: s.shape().to_vec(),
                            });
                        }
                        outputs.push(out.clone());
                        sp.output = Some(out.side(recv.size())?);
                        Packed::input(s, &order.stream, false)?
                    }
                    None => Packed::input(recv, &order.stream, false)?,
                };
                sp.input = Some(inp.side(recv.size())?);
                inputs.push(inp);
            } else {
                sp.output = Some(out.side(recv.size())?);
                outputs.push(out);
            }
            Ok(Job {
                order,
                spec: sp,
                inputs,
                outputs,
            })
        })();
        run(c, Op::Broadcast, h, job, Kind::Broadcast(root), None, true)
    }

    /// Reduces `array` over every rank with `op`, in place: every rank gets the result.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks pass different operators, element types or
    /// shapes, the element type lacks `op` (complex minima), the communicator is poisoned or
    /// the timeout passes.
    pub fn all_reduce<T: Reducible, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        op: ReduceOp,
    ) -> Result<()> {
        self.reduce_impl(Op::AllReduce, array, array, op, None)
    }

    /// Reduces `send` over every rank with `op` into every rank's `recv` (same element count).
    ///
    /// # Errors
    /// As [`all_reduce`](Self::all_reduce); also when `recv`'s element count differs.
    pub fn all_reduce_into<T: Reducible, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
        op: ReduceOp,
    ) -> Result<()> {
        self.reduce_impl(Op::AllReduce, send, recv, op, None)
    }

    /// Reduces `array` over every rank with `op` into `root`'s `array` (in place on the root;
    /// other ranks' arrays are left alone).
    ///
    /// # Errors
    /// As [`all_reduce`](Self::all_reduce); also for a `root` out of range or differing
    /// between ranks.
    pub fn reduce<T: Reducible, D: Dimension>(
        &self,
        array: &DeviceArray<T, D>,
        op: ReduceOp,
        root: usize,
    ) -> Result<()> {
        self.reduce_impl(Op::Reduce, array, array, op, Some(root))
    }

    /// Reduces `send` over every rank with `op` into `root`'s `recv`; other ranks pass `None`.
    ///
    /// # Errors
    /// As [`reduce`](Self::reduce); also when the root passes no `recv` or one of another
    /// element count.
    pub fn reduce_into<T: Reducible, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: Option<&DeviceArray<T, E>>,
        op: ReduceOp,
        root: usize,
    ) -> Result<()> {
        match recv {
            Some(r) => self.reduce_impl(Op::Reduce, send, r, op, Some(root)),
            None if self.comm.rank() == root => {
                let missing = Err(Error::InvalidArgument(
                    "the root of reduce_into must pass an array to reduce into".into(),
                ));
                self.reduce_refused(send, op, root, missing)
            }
            None => self
                .reduce_impl(Op::Reduce, send, send, op, Some(root))
                .map(|_| ()),
        }
    }

    fn reduce_refused<T: Reducible, D: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        op: ReduceOp,
        root: usize,
        refusal: Result<Job<T>>,
    ) -> Result<()> {
        let mut h = Header::new(Op::Reduce, Some(T::DTYPE), send.shape(), send.size());
        h.root = root as u64;
        h.redop = op.code();
        run(
            self.comm,
            Op::Reduce,
            h,
            refusal,
            Kind::Reduce(root),
            Some(T::mpi(op)),
            true,
        )
    }

    fn reduce_impl<T: Reducible, D: Dimension, E: Dimension>(
        &self,
        which: Op,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
        op: ReduceOp,
        root: Option<usize>,
    ) -> Result<()> {
        let c = self.comm;
        let mut h = Header::new(which, Some(T::DTYPE), send.shape(), send.size());
        h.redop = op.code();
        if let Some(r) = root {
            h.root = r as u64;
        }
        let in_place = send.same_memory(recv) && send.layout() == recv.layout();
        let has_output = root.is_none_or(|r| r == c.rank());
        let job = (|| {
            check_supported::<T>(op).map_err(Error::InvalidArgument)?;
            if let Some(r) = root {
                check_root(c, r)?;
            }
            check_size("the array to reduce into", recv.size(), send.size())?;
            let order = self.placement(send)?;
            if has_output {
                self.placement(recv)?;
            }
            let n = send.size();
            let mut sp = spec(n, T::DTYPE.itemsize(), 1, 1, 1);
            let inp = Packed::input(send, &order.stream, in_place && self.copy_in_place())?;
            let mut outputs = Vec::new();
            if has_output {
                let out = if in_place && !self.copy_in_place() {
                    inp.clone()
                } else {
                    Packed::output(recv)?
                };
                sp.output = Some(out.side(n)?);
                outputs.push(out);
            }
            sp.input = Some(inp.side(n)?);
            Ok(Job {
                order,
                spec: sp,
                inputs: vec![inp],
                outputs,
            })
        })();
        let kind = match root {
            Some(r) => Kind::Reduce(r),
            None => Kind::AllReduce,
        };
        let reduction = T::supports(op).then(|| T::mpi(op));
        let reduction = reduction.or_else(|| Some(T::mpi(ReduceOp::Sum)));
        run(c, which, h, job, kind, reduction, true)
    }

    /// Gathers every rank's `send` into every rank's `recv`, block `r` from rank `r` (`recv`
    /// has `size()` times `send`'s elements).
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks pass different element types or counts, a
    /// `recv` of the wrong size, the communicator is poisoned or the timeout passes.
    pub fn all_gather<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
    ) -> Result<()> {
        self.gather_impl(Some(send.clone().into_dyn()), Some(recv), None)
    }

    /// [`all_gather`](Self::all_gather) in place: this rank's block of `recv` is its input.
    ///
    /// # Errors
    /// As [`all_gather`](Self::all_gather); also when `recv`'s size is not a multiple of
    /// `size()`.
    pub fn all_gather_in_place<T: Element, E: Dimension>(
        &self,
        recv: &DeviceArray<T, E>,
    ) -> Result<()> {
        self.gather_impl(None, Some(recv), None)
    }

    /// Gathers every rank's `send` into `root`'s `recv` (other ranks pass `None`).
    ///
    /// # Errors
    /// As [`all_gather`](Self::all_gather); also for a `root` out of range or differing
    /// between ranks, and when the root passes no `recv`.
    pub fn gather<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: Option<&DeviceArray<T, E>>,
        root: usize,
    ) -> Result<()> {
        self.gather_impl(Some(send.clone().into_dyn()), recv, Some(root))
    }

    fn gather_impl<T: Element, E: Dimension>(
        &self,
        send: Option<DeviceArray<T, ndarray::IxDyn>>,
        recv: Option<&DeviceArray<T, E>>,
        root: Option<usize>,
    ) -> Result<()> {
        let c = self.comm;
        let n = c.size();
        let which = if root.is_some() {
            Op::Gather
        } else {
            Op::AllGather
        };
        let block = match (&send, recv) {
            (Some(s), _) => s.size(),
            (None, Some(r)) => r.size() / n,
            (None, None) => 0,
        };
        let mut h = match &send {
            Some(s) => Header::new(which, Some(T::DTYPE), s.shape(), block),
            None => Header::new(which, Some(T::DTYPE), &[block], block),
        };
        if let Some(r) = root {
            h.root = r as u64;
        }
        let has_output = root.is_none_or(|r| r == c.rank());
        let job = (|| {
            if let Some(r) = root {
                check_root(c, r)?;
            }
            let recv = match recv {
                Some(r) if has_output => Some(r),
                None if has_output => {
                    return Err(Error::InvalidArgument(format!(
                        "the root of {} must pass an array to gather into",
                        which.name()
                    )));
                }
                _ => None,
            };
            if let Some(r) = recv {
                check_size("the array to gather into", r.size(), block * n)?;
            }
            let order = match (&send, recv) {
                (Some(s), _) => self.placement(s)?,
                (None, Some(r)) => self.placement(r)?,
                (None, None) => unreachable!("all_gather_in_place always has recv"),
            };
            let mut sp = spec(
                block,
                T::DTYPE.itemsize(),
                1,
                if has_output { n } else { 0 },
                n,
            );
            let mut inputs = Vec::new();
            let mut outputs = Vec::new();
            if let Some(r) = recv {
                let out = Packed::output(r)?;
                sp.output = Some(out.side(block)?);
                outputs.push(out);
            }
            match &send {
                Some(s) => {
                    let inp = Packed::input(s, &order.stream, false)?;
                    sp.input = Some(inp.side(block)?);
                    inputs.push(inp);
                }
                None => {
                    // In place: the input is this rank's block of the (packed) output.
                    let whole = recv.expect("in place has recv");
                    let inp = Packed::input(whole, &order.stream, self.copy_in_place())?;
                    sp.input = Some(inp.side_at(block, c.rank())?);
                    if !self.copy_in_place() {
                        // Stage out of the same packed copy.
                        sp.output = Some(inp.side(block)?);
                        outputs.clear();
                        outputs.push(inp.clone());
                    }
                    inputs.push(inp);
                }
            }
            Ok(Job {
                order,
                spec: sp,
                inputs,
                outputs,
            })
        })();
        let kind = match root {
            Some(r) => Kind::Gather(r),
            None => Kind::AllGather,
        };
        run(c, which, h, job, kind, None, false)
    }

    /// Scatters `root`'s `send`, block `r` to rank `r`'s `recv` (the root's `send` has
    /// `size()` times `recv`'s elements; other ranks pass `None`).
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks pass different element types, counts or
    /// roots, the root passes no `send` or one of the wrong size, the communicator is poisoned
    /// or the timeout passes.
    pub fn scatter<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: Option<&DeviceArray<T, D>>,
        recv: &DeviceArray<T, E>,
        root: usize,
    ) -> Result<()> {
        let c = self.comm;
        let n = c.size();
        let block = recv.size();
        let mut h = Header::new(Op::Scatter, Some(T::DTYPE), recv.shape(), block);
        h.root = root as u64;
        let is_root = c.rank() == root;
        let job = (|| {
            check_root(c, root)?;
            let order = self.placement(recv)?;
            let mut sp = spec(
                block,
                T::DTYPE.itemsize(),
                if is_root { n } else { 0 },
                1,
                n,
            );
            let out = Packed::output(recv)?;
            sp.output = Some(out.side(block)?);
            let mut inputs = Vec::new();
            if is_root {
                let s = send.ok_or_else(|| {
                    Error::InvalidArgument("the root of scatter must pass an array".into())
                })?;
                check_size("the array to scatter", s.size(), block * n)?;
                self.placement(s)?;
                let inp = Packed::input(s, &order.stream, false)?;
                sp.input = Some(inp.side(block)?);
                inputs.push(inp);
            }
            Ok(Job {
                order,
                spec: sp,
                inputs,
                outputs: vec![out],
            })
        })();
        run(c, Op::Scatter, h, job, Kind::Scatter(root), None, false)
    }

    /// Reduces `send` (`size()` blocks) over every rank with `op` and gives rank `r` block `r`
    /// of the result in `recv`.
    ///
    /// # Errors
    /// As [`all_reduce`](Self::all_reduce); also when `send` does not have `size()` times
    /// `recv`'s elements.
    pub fn reduce_scatter<T: Reducible, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
        op: ReduceOp,
    ) -> Result<()> {
        let c = self.comm;
        let n = c.size();
        let block = recv.size();
        let mut h = Header::new(Op::ReduceScatter, Some(T::DTYPE), recv.shape(), block);
        h.redop = op.code();
        let job = (|| {
            check_supported::<T>(op).map_err(Error::InvalidArgument)?;
            check_size("the array to reduce", send.size(), block * n)?;
            self.blocks(send, recv, block, spec(block, T::DTYPE.itemsize(), n, 1, n))
        })();
        let reduction = Some(T::mpi(if T::supports(op) { op } else { ReduceOp::Sum }));
        run(
            c,
            Op::ReduceScatter,
            h,
            job,
            Kind::ReduceScatter,
            reduction,
            false,
        )
    }

    /// Sends block `r` of every rank's `send` to rank `r`, which receives it as block `s` of
    /// its `recv` (`s` the sender); both arrays have `size()` blocks.
    ///
    /// # Errors
    /// [`Error::Dist`] on every rank when the ranks pass different element types or counts,
    /// `send` and `recv` differ in size or are not a multiple of `size()`, the communicator is
    /// poisoned or the timeout passes.
    pub fn all_to_all<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
    ) -> Result<()> {
        let c = self.comm;
        let n = c.size();
        let block = send.size() / n;
        let h = Header::new(Op::AllToAll, Some(T::DTYPE), send.shape(), block);
        let job = (|| {
            check_size("the array to send", send.size(), block * n)?;
            check_size("the array to receive into", recv.size(), block * n)?;
            self.blocks(send, recv, block, spec(block, T::DTYPE.itemsize(), n, n, n))
        })();
        run(c, Op::AllToAll, h, job, Kind::AllToAll, None, false)
    }

    /// The job of an operation from every rank's `send` to its `recv`, both cut into blocks of
    /// `block` elements (`sp` says how many): ordered on `send`'s stream, the input packed, the
    /// output to be unpacked.
    fn blocks<T: Element, D: Dimension, E: Dimension>(
        &self,
        send: &DeviceArray<T, D>,
        recv: &DeviceArray<T, E>,
        block: usize,
        mut sp: Spec,
    ) -> Result<Job<T>> {
        let order = self.placement(send)?;
        self.placement(recv)?;
        let inp = Packed::input(send, &order.stream, false)?;
        let out = Packed::output(recv)?;
        sp.input = Some(inp.side(block)?);
        sp.output = Some(out.side(block)?);
        Ok(Job {
            order,
            spec: sp,
            inputs: vec![inp],
            outputs: vec![out],
        })
    }
}
