//! The nodes of an OpenCL stream graph ([`ClNode`]): each operation queued on a capturing stream,
//! checked as when it is queued and prepared so that a replay queues it as one command with
//! nothing left to decide.
//!
//! - A kernel — a program's, or the built-in strided copy — gets a kernel object of its own
//!   ([`NodeKernel`]) with its arguments set when it is captured. New arguments for the node make
//!   a new object: arguments are captured when a launch is queued, so a replay already queued
//!   keeps what it was queued with, and no object's arguments are ever set by two threads.
//! - A generated kernel's fault record is a slot of one array per graph ([`Records`]): the graph
//!   numbers those kernels in order when it is instantiated, and each node's record argument is
//!   set to its slot, which the node keeps. A node's slot never changes: an update gives the new
//!   object the old node's slot (still reserved when the new form has no record, and never
//!   handed to another node), so the slot that each object writes and the kernel that a slot
//!   names stay the same for the life of the graph.
//! - Copies and memsets keep their checked ranges; repeatable host callbacks their function.
//!
//! [`Body`] is what a replay runs: the nodes, each one's record slot, the kernel and site table
//! that name a slot's fault, and the kernels' launch widths for PoCL's work-group function cache
//! ([`grid_widths`](super::grid_widths)).
//!
//! This module touches the kernel objects and the record array it creates.

use std::any::Any;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use opencl3::memory::{CL_MEM_READ_WRITE, svm_alloc, svm_free};
use opencl3::types::cl_context;
use rumba_kernel_ir::abi::KernelAbi;

use super::builtin::Built;
use super::grid_widths::Launches;
use super::inject::{Point, injected};
use super::launch::{Checked, FAULT_BYTES, set_args, set_record, sizes};
use super::raw::{ClContext, ClKernel};
use super::strided;
use crate::driver::graph::CapturedNode;
use crate::driver::graph_table::GraphBody;
use crate::driver::strided_pack::StridedCopyParams;
use crate::driver::{DeviceCopy, DevicePtr, GraphCallback, KernelLaunch, KernelNode};
use crate::error::Result;

/// One recorded operation.
#[derive(Clone)]
pub(crate) enum ClNode {
    /// `memcpy_dtod` on a stream.
    Copy(DeviceCopy),
    /// `memset` on a stream.
    Memset {
        dst: DevicePtr,
        value: u8,
        bytes: usize,
    },
    /// A kernel launch or a strided copy.
    Kernel(Arc<NodeKernel>),
    /// A repeatable host callback.
    Callback(GraphCallback),
}

/// A kernel with an object of its own, its arguments set.
pub(crate) struct NodeKernel {
    pub(crate) kernel: ClKernel,
    /// The kernel's name (errors; PoCL's cache is keyed by it).
    pub(crate) name: String,
    /// Dimensions used of `global` and `local`.
    pub(crate) dims: u32,
    pub(crate) global: [usize; 3],
    pub(crate) local: [usize; 3],
    /// The index of the fault record parameter (generated kernels).
    record_param: Option<u32>,
    /// The node's fault record slot in its graph's [`Records`] ([`NO_SLOT`]: none yet).
    slot: AtomicUsize,
    /// The launch as captured or last updated (`None`: the built-in strided copy).
    launch: Option<KernelNode>,
    /// The kernel's site table, which names what a fault did.
    abi: Option<&'static KernelAbi>,
    /// What keeps an update's arguments alive: held for its drop, never read (the mutex only
    /// makes it `Sync`).
    _keep: Option<Mutex<Box<dyn Any + Send>>>,
}

impl NodeKernel {
    /// The node of `launch`, which passed `checked`; `keep` holds an update's arguments. The
    /// fault record is set later ([`set_record`](Self::set_record)).
    ///
    /// # Errors
    /// OpenCL's errors creating the object and setting its arguments.
    pub(crate) fn launch(
        launch: &KernelLaunch<'_>,
        checked: &Checked,
        keep: Option<Box<dyn Any + Send>>,
    ) -> Result<NodeKernel> {
        let kernel = checked.kernel.new_kernel()?;
        // SAFETY: the object is new and ours alone; the launch was checked.
        let record_param = unsafe { set_args(kernel.raw(), launch, checked.layout)? };
        let (global, local) = sizes(launch);
        Ok(NodeKernel {
            kernel,
            name: launch.function.name.clone(),
            dims: 3,
            global,
            local,
            record_param,
            slot: AtomicUsize::new(NO_SLOT),
            launch: Some(KernelNode::of(launch)),
            abi: launch.function.abi(),
            _keep: keep.map(Mutex::new),
        })
    }

    /// The node of a strided copy with `params` (from [`strided::prepare`]).
    ///
    /// # Errors
    /// OpenCL's errors creating the object and setting its arguments.
    pub(crate) fn strided(
        built: &Built,
        params: &StridedCopyParams,
        max_work_group: usize,
    ) -> Result<NodeKernel> {
        let kernel = built.new_kernel(strided::ENTRY)?;
        // SAFETY: the object is new and ours alone; `params` was prepared.
        unsafe { strided::set_args(kernel.raw(), params)? };
        let (global, local) = strided::sizes(params, max_work_group);
        Ok(NodeKernel {
            kernel,
            name: strided::ENTRY.to_owned(),
            dims: 1,
            global: [global, 1, 1],
            local: [local, 1, 1],
            record_param: None,
            slot: AtomicUsize::new(NO_SLOT),
            launch: None,
            abi: None,
            _keep: None,
        })
    }

    /// Gives the node record slot `slot` of `records`, and points the kernel's fault record
    /// argument at it (a kernel without one keeps the slot reserved).
    ///
    /// # Errors
    /// `clSetKernelArg`'s error (the slot is not stored then).
    ///
    /// # Safety
    /// Nothing else uses the object yet (it is not in a graph that can be replayed); `records`
    /// outlive the object's launches (the graph and every replay hold them).
    pub(crate) unsafe fn set_record(&self, records: &Records, slot: usize) -> Result<()> {
        if let Some(idx) = self.record_param {
            // SAFETY: the caller's contract; the slot is [`FAULT_BYTES`] bytes of the live array.
            unsafe { set_record(self.kernel.raw(), idx, records.at(slot))? };
        }
        self.slot.store(slot, Ordering::Relaxed);
        Ok(())
    }

    /// The node's fault record slot, reserved for it even when this form has no record.
    pub(crate) fn slot(&self) -> Option<usize> {
        Some(self.slot.load(Ordering::Relaxed)).filter(|&s| s != NO_SLOT)
    }

    /// Whether the kernel takes a fault record.
    pub(crate) fn has_record(&self) -> bool {
        self.record_param.is_some()
    }

    /// The slot the kernel writes its faults to, if it has a record.
    fn record_slot(&self) -> Option<usize> {
        self.slot().filter(|_| self.has_record())
    }
}

/// [`NodeKernel`]'s slot before it has one.
const NO_SLOT: usize = usize::MAX;

impl ClNode {
    /// Whether the node is a kernel with a fault record.
    fn has_record(&self) -> bool {
        matches!(self, ClNode::Kernel(k) if k.has_record())
    }
}

impl CapturedNode for ClNode {
    fn kernel(&self) -> Option<&KernelNode> {
        match self {
            ClNode::Kernel(k) => k.launch.as_ref(),
            _ => None,
        }
    }
}

/// What names the fault in one record slot: the kernel and its site table.
pub(crate) struct FaultSite {
    pub(crate) kernel: String,
    pub(crate) abi: Option<&'static KernelAbi>,
}

/// What a replay runs (see the [module docs](self)).
pub(crate) struct Body {
    pub(crate) nodes: Vec<ClNode>,
    /// Each node's fault record slot (kernels with a record).
    pub(crate) slots: Vec<Option<usize>>,
    /// Per slot, what names its fault (`None`: a slot reserved for a kernel form without one).
    pub(crate) sites: Arc<[Option<FaultSite>]>,
    /// The kernels and widths the replay launches.
    pub(crate) launches: Launches,
}

impl GraphBody for Body {
    type Node = ClNode;

    /// The body of `nodes`, each kernel with the slot it was given ([`NodeKernel::set_record`]);
    /// nothing is renumbered.
    fn of(nodes: Vec<ClNode>) -> Arc<Body> {
        let slots: Vec<Option<usize>> = (nodes.iter())
            .map(|n| match n {
                ClNode::Kernel(k) => k.record_slot(),
                _ => None,
            })
            .collect();
        let count = slots.iter().flatten().map(|s| s + 1).max().unwrap_or(0);
        let mut sites: Vec<Option<FaultSite>> = (0..count).map(|_| None).collect();
        for (n, s) in nodes.iter().zip(&slots) {
            if let (ClNode::Kernel(k), Some(s)) = (n, s) {
                sites[*s] = Some(FaultSite {
                    kernel: k.name.clone(),
                    abi: k.abi,
                });
            }
        }
        let launches = Launches::of(nodes.iter().filter_map(|n| match n {
            ClNode::Kernel(k) => Some((k.name.as_str(), &k.global[..], &k.local[..])),
            _ => None,
        }));
        Arc::new(Body {
            nodes,
            slots,
            sites: sites.into(),
            launches,
        })
    }

    fn nodes(&self) -> &[ClNode] {
        &self.nodes
    }
}

/// The fault records of one graph: one SVM array, a [`FAULT_BYTES`] slot per generated kernel.
/// Replays of one graph never run at once ([`ReplayChain`](crate::driver::replay_chain)), so they
/// share it; each zeroes it first.
pub(crate) struct Records {
    ptr: usize,
    count: usize,
    /// Its own reference: the array may outlive the driver's (a queued replay's keep-alive).
    context: ClContext,
}

impl Records {
    /// The records of the kernels among `nodes` (none when no kernel has one): each kernel with a
    /// record gets the next slot, in order, and its argument pointed at it. Failing, it can be
    /// called again for the same nodes (with the same numbering).
    ///
    /// # Errors
    /// OpenCL's errors allocating the array or setting an argument.
    ///
    /// # Safety
    /// `context` is the kernels' live context; nothing else uses the nodes' kernel objects yet.
    pub(crate) unsafe fn instantiate(
        context: cl_context,
        nodes: &[ClNode],
    ) -> Result<Option<Arc<Records>>> {
        let count = nodes.iter().filter(|n| n.has_record()).count();
        if count == 0 {
            return Ok(None);
        }
        // SAFETY: the caller vouches for the context; the reference is ours.
        let context = unsafe { ClContext::retain(context)? };
        let ptr = match injected(Point::Records) {
            Some(code) => Err(code),
            // SAFETY: plain coarse-grained SVM for a context whose devices all offer it.
            None => unsafe { svm_alloc(context.raw(), CL_MEM_READ_WRITE, count * FAULT_BYTES, 0) },
        }
        .map_err(|code| super::error::map("clSVMAlloc(fault records)", code))?;
        let records = Records {
            ptr: ptr as usize,
            count,
            context,
        };
        let kernels = nodes.iter().filter_map(|n| match n {
            ClNode::Kernel(k) if n.has_record() => Some(k),
            _ => None,
        });
        for (slot, k) in kernels.enumerate() {
            // SAFETY: the caller's contract; the slot lies in the array, which the graph keeps.
            unsafe { k.set_record(&records, slot)? };
        }
        Ok(Some(Arc::new(records)))
    }

    /// The device address of `slot`.
    pub(crate) fn at(&self, slot: usize) -> u64 {
        (self.ptr + slot * FAULT_BYTES) as u64
    }

    /// The array's start and size in bytes.
    pub(crate) fn range(&self) -> (*mut u8, usize) {
        (self.ptr as *mut u8, self.count * FAULT_BYTES)
    }
}

impl Drop for Records {
    fn drop(&mut self) {
        // SAFETY: allocated by clSVMAlloc in `context`; the graph and every queued replay hold
        // the array, so no queued command uses it any more.
        if let Err(code) = unsafe { svm_free(self.context.raw(), self.ptr as *mut c_void) } {
            tracing::warn!("{}", super::error::map("clSVMFree(fault records)", code));
        }
    }
}
