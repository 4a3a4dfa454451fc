//! Graphs for a driver without graphs of its own (OpenCL): each operation queued on a capturing
//! stream is checked as usual and recorded as an owned description of the driver call
//! ([`Reissue`]); a replay issues the recorded calls again on the target stream, straight to the
//! driver — past the safe layers' per-operation work (argument plans, reset-gate leases, holds and
//! their keep-alive callbacks, array checks), which the graph did once, at capture.
//!
//! A replay queues the nodes' commands in order; the captured work's kept values and an updated
//! node's arguments go with one keep-alive after them, so they outlive every replay that uses
//! them. Events recorded inside the capture are recorded after the replay's commands. Replays of
//! one graph on different streams run one after the other ([`ReplayChain`]).
//!
//! This module touches only its own tables and the driver it is handed.

use std::any::Any;
use std::sync::{Arc, Mutex};

use super::capture::Captures;
use super::graph::CapturedNode;
use super::graph_table::{GraphTable, OwnGraph};
use super::{
    DeviceCopy, DevicePtr, Driver, EventHandle, GraphCallback, GraphHandle, KernelFunction,
    KernelLaunch, KernelNode, On, StreamHandle, StridedCopy, StridedSource,
};
use crate::error::{Error, Result};

/// One recorded driver call.
#[derive(Clone)]
pub(crate) enum Reissue {
    /// `memcpy_dtod` on a stream.
    DtoD(DeviceCopy),
    /// `memset` on a stream.
    Memset {
        dst: DevicePtr,
        value: u8,
        bytes: usize,
    },
    /// `copy_strided_async`: shape, item size, destination and its strides, and the source's
    /// pointer and strides (`None`: a fill with `fill`).
    Strided {
        shape: Vec<usize>,
        itemsize: usize,
        dst: DevicePtr,
        dst_strides: Vec<isize>,
        src: Option<(DevicePtr, Vec<isize>)>,
        fill: Vec<u8>,
    },
    /// `launch_kernel`.
    Kernel {
        function: Box<KernelFunction>,
        node: KernelNode,
        /// What keeps an update's arguments alive: held for its drop, never read.
        #[allow(dead_code)]
        keep: Option<Arc<Mutex<Box<dyn Any + Send>>>>,
    },
    /// A repeatable host callback.
    Callback(GraphCallback),
}

impl Reissue {
    /// The node of a strided copy.
    pub(crate) fn strided(copy: &StridedCopy<'_>) -> Reissue {
        let (src, fill) = match copy.src {
            StridedSource::Device { ptr, strides } => (Some((ptr, strides.to_vec())), Vec::new()),
            StridedSource::Fill(b) => (None, b.to_vec()),
        };
        Reissue::Strided {
            shape: copy.shape.to_vec(),
            itemsize: copy.itemsize,
            dst: copy.dst,
            dst_strides: copy.dst_strides.to_vec(),
            src,
            fill,
        }
    }

    /// The node of a kernel launch; `keep` holds the memory of an update's arguments.
    pub(crate) fn kernel(launch: &KernelLaunch<'_>, keep: Option<Box<dyn Any + Send>>) -> Reissue {
        Reissue::Kernel {
            function: Box::new(launch.function.clone()),
            node: KernelNode::of(launch),
            keep: keep.map(|k| Arc::new(Mutex::new(k))),
        }
    }

    /// Issues the call on `stream`.
    ///
    /// # Safety
    /// The ranges must still be valid for the call, as when it was recorded.
    unsafe fn issue(&self, driver: &dyn Driver, device: usize, stream: StreamHandle) -> Result<()> {
        // SAFETY (every arm): the ranges were checked when recorded and are kept by the graph
        // (the caller's contract).
        match self {
            Reissue::DtoD(copy) => unsafe { driver.memcpy_dtod(On::stream(device, stream), *copy) },
            Reissue::Memset { dst, value, bytes } => unsafe {
                driver.memset(On::stream(device, stream), *dst, *value, *bytes)
            },
            Reissue::Strided {
                shape,
                itemsize,
                dst,
                dst_strides,
                src,
                fill,
            } => {
                let src = match src {
                    Some((ptr, strides)) => StridedSource::Device { ptr: *ptr, strides },
                    None => StridedSource::Fill(fill),
                };
                let copy = StridedCopy {
                    shape,
                    itemsize: *itemsize,
                    dst: *dst,
                    dst_strides,
                    src,
                };
                unsafe { driver.copy_strided_async(device, &copy, stream) }
            }
            Reissue::Kernel { function, node, .. } => {
                let launch = KernelLaunch {
                    function,
                    grid: node.grid,
                    block: node.block,
                    dynamic_shared_bytes: node.dynamic_shared_bytes,
                    args: &node.args,
                };
                unsafe { driver.launch_kernel(device, &launch, stream) }
            }
            Reissue::Callback(cb) => {
                let cb = Arc::clone(cb);
                driver.stream_add_callback(device, stream, Box::new(move |status| cb(status)))
            }
        }
    }
}

impl CapturedNode for Reissue {
    fn kernel(&self) -> Option<&KernelNode> {
        match self {
            Reissue::Kernel { node, .. } => Some(node),
            _ => None,
        }
    }
}

/// An instantiated graph: its body is the recorded calls.
type ReissueGraph = OwnGraph<Vec<Reissue>>;

/// The captures and graphs of one driver.
#[derive(Default)]
pub(crate) struct ReissueGraphs {
    pub(crate) captures: Captures<Reissue>,
    graphs: GraphTable<ReissueGraph>,
}

fn unknown_graph(graph: GraphHandle, device: usize) -> Error {
    Error::InvalidHandle {
        kind: "graph",
        handle: graph.0,
        reason: format!("no live graph with this handle on device {device}"),
    }
}

impl ReissueGraphs {
    /// [`Graphs::end_capture`](super::Graphs::end_capture).
    pub(crate) fn end(&self, device: usize, stream: StreamHandle) -> Result<GraphHandle> {
        let recording = self.captures.end(device, stream)?;
        Ok(self.graphs.insert(device, OwnGraph::of(recording)))
    }

    /// Graph `graph` of `device`.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for a handle of no live graph of `device`.
    pub(crate) fn graph(&self, device: usize, graph: GraphHandle) -> Result<Arc<ReissueGraph>> {
        self.graphs
            .get(device, graph)
            .ok_or_else(|| unknown_graph(graph, device))
    }

    /// [`Graphs::launch_graph`](super::Graphs::launch_graph). `alive` says whether an event
    /// recorded in the capture still exists (one the program destroyed since is not recorded).
    ///
    /// Once the first command is queued, the keep-alive is queued after whatever was issued, even
    /// when a later node fails; if even that cannot be queued, the kept values are leaked rather
    /// than freed under queued commands.
    ///
    /// # Safety
    /// As there.
    pub(crate) unsafe fn launch(
        &self,
        driver: &dyn Driver,
        device: usize,
        graph: GraphHandle,
        stream: StreamHandle,
        alive: impl Fn(EventHandle) -> bool,
    ) -> Result<()> {
        let g = self.graph(device, graph)?;
        self.captures.refuse_graph_launch(device, stream)?;
        let events: Vec<EventHandle> = g.events.iter().copied().filter(|&e| alive(e)).collect();
        let nodes = g.body();
        // The nodes (with updated arguments' keeps) and the captured keeps outlive the replay.
        let keep = Arc::new((Arc::clone(&nodes), Arc::clone(&g.keep)));
        g.chain.queue(driver, device, stream, || {
            let mut issued = Ok(());
            for node in nodes.iter() {
                // SAFETY: the caller's contract.
                issued = unsafe { node.issue(driver, device, stream) };
                if issued.is_err() {
                    break;
                }
            }
            if issued.is_ok() {
                for &e in &events {
                    issued = driver.event_record(device, e, stream);
                    if issued.is_err() {
                        break;
                    }
                }
            }
            match driver.stream_keepalive(device, stream, Box::new(Arc::clone(&keep))) {
                Ok(()) => issued,
                Err(e) => {
                    // Commands may be queued that use the kept memory: never free it.
                    std::mem::forget(keep);
                    issued.and(Err(e))
                }
            }
        })
    }

    /// [`Graphs::destroy_graph`](super::Graphs::destroy_graph).
    pub(crate) fn destroy(
        &self,
        driver: &dyn Driver,
        device: usize,
        graph: GraphHandle,
    ) -> Result<()> {
        let g = (self.graphs.remove(device, graph)).ok_or_else(|| unknown_graph(graph, device))?;
        g.chain.destroy(driver, device);
        Ok(())
    }
}
