//! Stream graphs at the driver level: capturing what is queued on a stream into a graph, and
//! replaying it — the capability a driver offers through [`Driver::graphs`].
//!
//! | backend | capture | replay |
//! |---------|---------|--------|
//! | sim | each operation queued on a capturing stream is checked as usual and kept as a node that can run again (its resolved memory held) instead of being queued | one queue entry per launch: the stream worker runs the nodes in order, with no per-node checks, allocation or thread hop |
//! | opencl | the same bookkeeping as the sim; each command checked and prepared once (a kernel gets an object of its own, its arguments set; one fault record array per graph) | one batch of commands on the stream: the records zeroed, one command per node without events, the records read back and checked once, one end event, one keep-alive |
//! | cuda | `cuStreamBeginCapture` / `cuStreamEndCapture`, `cuGraphInstantiate` | `cuGraphLaunch`; kernel nodes updated with `cuGraphExecKernelNodeSetParams` |
//!
//! Graphs follow CUDA's stream capture:
//! - a capture starts on one created stream (its *origin*); another stream **joins** it by
//!   waiting for an event recorded inside the capture, and its later work is captured too;
//! - the nodes of all joined streams run in the order they were queued, which respects every
//!   dependency the capture saw (events recorded inside a capture complete when the replay that
//!   contains them is done);
//! - what waits for the host is refused on a capturing stream with
//!   [`GraphError::Refused`] and nothing is recorded:
//!   synchronizing the stream, its device or an event recorded in the capture, copies to or from
//!   host memory (pinned too: a graph does not own host memory), one-shot host callbacks (a graph runs its callbacks on every replay,
//!   so they are [`GraphCallback`]s);
//! - a replay runs on any stream of the graph's device; kernel nodes take new arguments of the
//!   same kinds, element sizes and shapes between replays.
//!
//! The driver keeps what the captured work keeps alive ([`Driver::stream_keepalive`] values) with
//! the graph until the graph is destroyed and its last replay has run.

use std::any::Any;
use std::sync::Arc;

use super::{Driver, EventHandle, KernelArg, KernelLaunch, StreamHandle};
#[cfg(doc)]
use crate::error::Error;
use crate::error::{GraphError, Result};

/// A raw graph handle (an instantiated graph of one device).
///
/// ```
/// let g = rumba::driver::GraphHandle(3);
/// assert_eq!(g.0, 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GraphHandle(pub u64);

/// A host function that a graph runs on every replay, once the work captured before it is done.
/// It receives `Ok(())`, or the error of earlier failed work of the replay.
pub type GraphCallback = Arc<dyn Fn(Result<()>) + Send + Sync + 'static>;

/// A kernel node of a graph as captured (or last updated): the kernel, its geometry and its
/// arguments.
#[derive(Debug, Clone)]
pub struct KernelNode {
    /// The kernel's name.
    pub name: String,
    /// Blocks along x, y, z.
    pub grid: [u32; 3],
    /// Threads per block along x, y, z.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory per block.
    pub dynamic_shared_bytes: usize,
    /// The arguments, in order.
    pub args: Vec<KernelArg>,
}

impl KernelNode {
    /// The node of `launch`.
    pub fn of(launch: &KernelLaunch<'_>) -> Self {
        KernelNode {
            name: launch.function.name.clone(),
            grid: launch.grid,
            block: launch.block,
            dynamic_shared_bytes: launch.dynamic_shared_bytes,
            args: launch.args.to_vec(),
        }
    }
}

/// The driver-level graph operations (see the [module docs](self)).
///
/// # Safety
/// An implementor promises that a replay touches only the memory its captured operations touched
/// (or, for an updated kernel node, that the update's arguments describe), and that it keeps the
/// values captured with [`Driver::stream_keepalive`] until the graph is destroyed and no replay of
/// it is queued or running.
pub unsafe trait Graphs: Send + Sync {
    /// Starts capturing `stream` (a created stream of `device`): from now on what is queued on it
    /// is recorded, not run.
    ///
    /// # Errors
    /// [`GraphError::AlreadyCapturing`] when the stream is being captured (or joined a capture);
    /// [`GraphError::Refused`] for a default stream; [`Error::InvalidHandle`] for an unknown stream.
    fn begin_capture(&self, device: usize, stream: StreamHandle) -> Result<()>;

    /// Ends the capture that `stream` started and instantiates what it recorded. Streams that
    /// joined it leave it.
    ///
    /// # Errors
    /// [`GraphError::NotCapturing`] when `stream` did not begin a capture; the backend's
    /// instantiation errors ([`Error::Driver`]). After those, on CUDA the capture has ended all
    /// the same (CUDA ends it before instantiating); on OpenCL the capture goes on unchanged
    /// (end it again, or abort it). The simulator has none.
    fn end_capture(&self, device: usize, stream: StreamHandle) -> Result<GraphHandle>;

    /// Ends the capture that `stream` started and drops what it recorded (after an error inside
    /// the capture). Nothing happens when `stream` is not capturing.
    fn abort_capture(&self, device: usize, stream: StreamHandle);

    /// Whether `stream` is being captured (as origin or joined).
    fn is_capturing(&self, device: usize, stream: StreamHandle) -> bool;

    /// Records `callback` on a capturing `stream`: each replay runs it when the work recorded
    /// before it is done.
    ///
    /// # Errors
    /// [`GraphError::Refused`] when `stream` is not being captured; [`Error::InvalidHandle`].
    fn capture_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: GraphCallback,
    ) -> Result<()>;

    /// A program's event record: on a capturing `stream` it becomes part of the graph (each
    /// replay records the event when the work captured before it is done, and other streams join
    /// the capture by waiting for it); otherwise it is [`Driver::event_record`].
    ///
    /// # Errors
    /// As [`Driver::event_record`].
    fn record_event(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()>;

    /// Queues one replay of `graph` on `stream`, a stream of the graph's device.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown graph or stream; [`GraphError::Refused`] when
    /// `stream` is being captured itself (nothing is queued after those); the backend's launch
    /// errors. A replay that fails partway (OpenCL, which queues one command per node, refused
    /// one) is not undone: the nodes already queued still run, in order, and the stream's next
    /// synchronization waits for them; nothing stays blocked, and what they use stays alive (it
    /// may be leaked).
    ///
    /// # Safety
    /// Every device range the graph's nodes touch must still be memory they may touch: the
    /// [device-range rule](super::Driver#device-ranges) holds for the whole replay.
    unsafe fn launch_graph(
        &self,
        device: usize,
        graph: GraphHandle,
        stream: StreamHandle,
    ) -> Result<()>;

    /// The kernel nodes of `graph`, in the order they were captured.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown graph.
    fn kernel_nodes(&self, device: usize, graph: GraphHandle) -> Result<Vec<KernelNode>>;

    /// Gives kernel node `node` (an index into [`kernel_nodes`](Graphs::kernel_nodes)) new
    /// arguments; replays queued after this call use them. The kernel and its geometry stay.
    /// `keep` (what holds the new arguments' memory) stays with the node until it is updated
    /// again and no replay that used it is queued or running; what the node kept before goes
    /// then.
    ///
    /// # Errors
    /// [`GraphError::NoSuchNode`], [`GraphError::OtherKernel`], [`GraphError::ArgumentMismatch`]
    /// (checked with [`check_update`]); the backend's errors; on error the node is unchanged.
    ///
    /// # Safety
    /// Every array argument of `launch` must describe memory that `keep` keeps allocated, as for
    /// [`Driver::launch_kernel`].
    unsafe fn set_kernel_node(
        &self,
        device: usize,
        graph: GraphHandle,
        node: usize,
        launch: &KernelLaunch<'_>,
        keep: Box<dyn Any + Send>,
    ) -> Result<()>;

    /// Destroys `graph`: its memory and kept values go once no replay of it is queued or running.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown graph.
    fn destroy_graph(&self, device: usize, graph: GraphHandle) -> Result<()>;
}

/// One argument in words, for [`GraphError::ArgumentMismatch`].
fn describe(arg: &KernelArg) -> String {
    match arg {
        KernelArg::Scalar(b) => format!("a {}-byte scalar", b.len()),
        KernelArg::Array(a) => format!(
            "an array of {}-byte elements, shape {:?}",
            a.itemsize, a.shape
        ),
    }
}

/// Checks that `launch` may replace the arguments of kernel node `node`, captured as
/// `captured` (`None`: no such node among `count`): the same kernel, and arguments of the same
/// kinds, element sizes and shapes (other arrays and other scalar values are the point).
///
/// # Errors
/// [`GraphError::NoSuchNode`], [`GraphError::OtherKernel`], [`GraphError::ArgumentMismatch`].
///
/// ```
/// use rumba::driver::{KernelArg, KernelArrayArg, check_update, KernelFunction, KernelLaunch};
/// let f = KernelFunction::new("k");
/// let arr = |ptr, n| KernelArg::Array(KernelArrayArg { ptr, itemsize: 4, shape: vec![n], strides: vec![4], writable: true });
/// let captured = vec![arr(0x100, 8), KernelArg::Scalar(vec![0; 4])];
/// let new = [arr(0x900, 8), KernelArg::Scalar(vec![1; 4])];
/// let launch = KernelLaunch { function: &f, grid: [1; 3], block: [1; 3], dynamic_shared_bytes: 0, args: &new };
/// check_update(0, Some(("k", &captured[..])), 1, &launch).unwrap();
/// let bad = [arr(0x900, 9), KernelArg::Scalar(vec![1; 4])];
/// let launch = KernelLaunch { args: &bad, ..launch };
/// assert!(check_update(0, Some(("k", &captured[..])), 1, &launch).is_err());
/// ```
pub fn check_update(
    node: usize,
    captured: Option<(&str, &[KernelArg])>,
    count: usize,
    launch: &KernelLaunch<'_>,
) -> Result<()> {
    let Some((name, args)) = captured else {
        return Err(GraphError::NoSuchNode { node, count }.into());
    };
    if name != launch.function.name {
        return Err(GraphError::OtherKernel {
            node,
            captured: name.to_owned(),
            given: launch.function.name.clone(),
        }
        .into());
    }
    let same = |a: &KernelArg, b: &KernelArg| match (a, b) {
        (KernelArg::Scalar(x), KernelArg::Scalar(y)) => x.len() == y.len(),
        (KernelArg::Array(x), KernelArg::Array(y)) => {
            x.itemsize == y.itemsize && x.shape == y.shape && x.writable == y.writable
        }
        _ => false,
    };
    let n = args.len().max(launch.args.len());
    for position in 0..n {
        let (a, b) = (args.get(position), launch.args.get(position));
        if !matches!((a, b), (Some(a), Some(b)) if same(a, b)) {
            let word = |x: Option<&KernelArg>| x.map_or_else(|| "nothing".to_owned(), describe);
            return Err(GraphError::ArgumentMismatch {
                node,
                kernel: name.to_owned(),
                position,
                captured: word(a),
                given: word(b),
            }
            .into());
        }
    }
    Ok(())
}

/// A captured node, as the kernel-node operations see it.
pub(crate) trait CapturedNode {
    /// The kernel launch this node records, if it records one.
    fn kernel(&self) -> Option<&KernelNode>;
}

/// The kernel nodes among `nodes`, in capture order ([`Graphs::kernel_nodes`]).
pub(crate) fn kernel_nodes<N: CapturedNode>(nodes: &[N]) -> Vec<KernelNode> {
    nodes.iter().filter_map(N::kernel).cloned().collect()
}

/// Where kernel node `node` (an index into [`kernel_nodes`]) stands in `nodes`, once `launch` is
/// known to be a valid update of it ([`check_update`]).
///
/// # Errors
/// As [`check_update`].
pub(crate) fn kernel_position<N: CapturedNode>(
    nodes: &[N],
    node: usize,
    launch: &KernelLaunch<'_>,
) -> Result<usize> {
    let kernels: Vec<(usize, &KernelNode)> = nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.kernel().map(|k| (i, k)))
        .collect();
    let found = kernels.get(node);
    let captured = found.map(|(_, k)| (k.name.as_str(), &k.args[..]));
    check_update(node, captured, kernels.len(), launch)?;
    // `check_update` refuses a node past the kernels, so `found` is there.
    found.map(|&(i, _)| i).ok_or_else(|| {
        GraphError::NoSuchNode {
            node,
            count: kernels.len(),
        }
        .into()
    })
}

/// The refusal of `operation` on capturing `stream`.
pub(crate) fn refused(
    operation: impl Into<String>,
    stream: StreamHandle,
    reason: &'static str,
) -> crate::error::Error {
    GraphError::Refused {
        operation: operation.into(),
        stream: stream.0,
        reason,
    }
    .into()
}

/// The refusal of recording a graph callback on `stream`, which is not being captured.
pub(crate) fn callback_outside_capture(stream: StreamHandle) -> crate::error::Error {
    refused(
        "recording a graph callback",
        stream,
        "the stream is not being captured",
    )
}

/// Why waiting for (or asking about) work of a capturing stream is refused.
pub(crate) const WAITS: &str = "it waits for (or asks about) work that is only recorded, not run";

/// Why a copy between host and device memory is refused on a capturing stream.
pub(crate) const HOST_COPY: &str = "a graph does not own host memory, and a replay would read or write it after the call returned; copy between host and device outside the capture";

/// Why a one-shot callback is refused on a capturing stream.
#[cfg_attr(not(any(feature = "cuda", feature = "opencl")), allow(dead_code))] // GPU backends
pub(crate) const ONE_SHOT: &str =
    "a graph runs its callbacks on every replay; record a repeatable one";

/// Why [`Driver::event_record`] is refused on a capturing stream.
pub(crate) const INTERNAL_EVENT: &str = "only a program's own event records become part of a graph";

/// Refuses `operation` (with `reason`) when `stream` of `device` is being captured.
///
/// # Errors
/// [`GraphError::Refused`] then.
pub(crate) fn refuse_if_capturing(
    driver: &dyn Driver,
    device: usize,
    stream: StreamHandle,
    operation: &str,
    reason: &'static str,
) -> Result<()> {
    match driver.graphs() {
        Some(g) if g.is_capturing(device, stream) => Err(refused(operation, stream, reason)),
        _ => Ok(()),
    }
}

/// The refusal of waiting for `event` recorded outside the capture `stream` belongs to.
pub(crate) fn external_event(stream: StreamHandle, event: EventHandle) -> crate::error::Error {
    GraphError::ExternalEvent {
        stream: stream.0,
        event: event.0,
    }
    .into()
}
