//! Stream graphs on the simulated GPU ([`Graphs`]).
//!
//! Capture: each operation queued on a capturing stream is checked and resolved exactly as when
//! it is queued (a bad range is refused at once), and then kept as a [`SimNode`] — the body that
//! does its work, which can run any number of times, and the allocations it touches (the
//! resolutions keep them alive) — instead of going to the stream worker. Values that the captured
//! work keeps alive go to the recording.
//!
//! Replay: one queue entry per launch. The entry registers the graph's allocations with the
//! in-flight tracker once (merged: one user per allocation) and, on the stream worker, runs the
//! nodes in order: no per-node check, allocation or thread hop. After the first failing node the
//! remaining work nodes are skipped and callbacks receive the error, as on a stream. Events
//! recorded inside the capture are recorded after the entry, so they complete when the replay has.
//! Replays of one graph on different streams run one after the other ([`ReplayChain`]).
//! Kernels of a replay run without frozen or exclusive leases (the engine's atomics keep them
//! correct).
//!
//! An updated kernel node is prepared like a launch and swapped into a new copy of the node list;
//! replays already queued keep the list they started with (and with it the memory it resolved).
//!
//! This module touches the capture table, the graph table and the stream queue.

use std::any::Any;
use std::sync::{Arc, Mutex};

use super::inflight::Touch;
use super::launch::LaunchBody;
use super::{SimDriver, invalid_handle};
use crate::driver::graph::CapturedNode;
use crate::driver::graph_table::{GraphBody, GraphTable, OwnGraph};
use crate::driver::{
    EventHandle, GraphCallback, GraphHandle, Graphs, KernelLaunch, KernelNode, StreamHandle,
};
use crate::error::{Error, Result};
use crate::unwind;

/// Work that runs again on every replay.
pub(super) type RunBody = Arc<dyn Fn() -> Result<()> + Send + Sync>;

/// One recorded operation.
#[derive(Clone)]
pub(crate) enum SimNode {
    /// A copy, memset or strided copy.
    Run { touches: Vec<Touch>, run: RunBody },
    /// A kernel launch, with what its arguments were (for updates).
    Kernel {
        node: KernelNode,
        touches: Vec<Touch>,
        body: LaunchBody,
        /// What keeps an update's arguments alive.
        keep: Option<Arc<Mutex<Box<dyn Any + Send>>>>,
    },
    /// A host function.
    Callback(GraphCallback),
}

impl SimNode {
    /// The node of a prepared launch.
    pub(super) fn kernel(launch: &KernelLaunch<'_>, touches: &[Touch], body: &LaunchBody) -> Self {
        SimNode::Kernel {
            node: KernelNode::of(launch),
            touches: touches.iter().map(Touch::without_lease).collect(),
            body: Arc::clone(body),
            keep: None,
        }
    }

    fn touches(&self) -> &[Touch] {
        match self {
            SimNode::Run { touches, .. } | SimNode::Kernel { touches, .. } => touches,
            SimNode::Callback(_) => &[],
        }
    }
}

impl CapturedNode for SimNode {
    fn kernel(&self) -> Option<&KernelNode> {
        match self {
            SimNode::Kernel { node, .. } => Some(node),
            _ => None,
        }
    }
}

/// What one replay runs: the nodes and the merged touches of all of them.
struct Body {
    nodes: Vec<SimNode>,
    touches: Vec<Touch>,
}

impl GraphBody for Body {
    type Node = SimNode;

    fn of(nodes: Vec<SimNode>) -> Arc<Body> {
        let touches = Touch::merge(nodes.iter().flat_map(SimNode::touches));
        Arc::new(Body { nodes, touches })
    }

    fn nodes(&self) -> &[SimNode] {
        &self.nodes
    }
}

impl Body {
    /// Runs every node in order (on the stream worker).
    fn run(&self) -> Result<()> {
        let mut failure: Option<Error> = None;
        for node in &self.nodes {
            let result = match node {
                SimNode::Run { run, .. } if failure.is_none() => run(),
                SimNode::Kernel { body, .. } if failure.is_none() => body(&[]),
                SimNode::Run { .. } | SimNode::Kernel { .. } => Ok(()),
                SimNode::Callback(callback) => {
                    let status = failure.clone().map_or(Ok(()), Err);
                    if let Err(panic) = unwind::catch(|| callback(status)) {
                        tracing::error!("a graph callback panicked: {panic}");
                    }
                    Ok(())
                }
            };
            if let Err(e) = result {
                failure = Some(e);
            }
        }
        failure.map_or(Ok(()), Err)
    }
}

/// An instantiated graph.
type SimGraph = OwnGraph<Body>;

/// The sim's graphs: the table of instantiated ones.
#[derive(Default)]
pub(crate) struct SimGraphs {
    graphs: GraphTable<SimGraph>,
}

impl SimDriver {
    /// Records work on `stream` if it is being captured (`Ok(result)`); otherwise gives the work
    /// back (`Err`) to be queued.
    #[allow(clippy::type_complexity)]
    pub(super) fn capture_run<F>(
        &self,
        device: usize,
        stream: StreamHandle,
        touches: Vec<Touch>,
        run: F,
    ) -> std::result::Result<Result<()>, (Vec<Touch>, F)>
    where
        F: Fn() -> Result<()> + Send + Sync + 'static,
    {
        if !self.captures.is_capturing(device, stream) {
            return Err((touches, run));
        }
        let mut parts = Some((touches, run));
        let recorded = self.captures.record(device, stream, |rec| {
            let (touches, run) = parts.take().expect("taken once");
            rec.nodes.push(SimNode::Run {
                touches,
                run: Arc::new(run),
            });
        });
        match (recorded, parts) {
            (Some(()), _) => Ok(Ok(())),
            (None, Some(parts)) => Err(parts),
            (None, None) => unreachable!("the parts are only taken when recorded"),
        }
    }

    fn graph(&self, device: usize, graph: GraphHandle) -> Result<Arc<SimGraph>> {
        self.graphs
            .graphs
            .get(device, graph)
            .ok_or_else(|| invalid_handle("graph", graph.0, device))
    }
}

// SAFETY: a replay runs the bodies its capture built, over the ranges they resolved (kept alive
// by the resolutions), or an updated kernel body over ranges its launch resolved; kept values
// live in `keep`, which every queued replay holds until it has run.
unsafe impl Graphs for SimDriver {
    fn begin_capture(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.stream(device, stream)?;
        self.captures.begin(device, stream)
    }

    fn end_capture(&self, device: usize, stream: StreamHandle) -> Result<GraphHandle> {
        let recording = self.captures.end(device, stream)?;
        let graph = OwnGraph::of(recording);
        Ok(self.graphs.graphs.insert(device, graph))
    }

    fn abort_capture(&self, device: usize, stream: StreamHandle) {
        let _ = self.captures.end(device, stream);
    }

    fn is_capturing(&self, device: usize, stream: StreamHandle) -> bool {
        self.captures.is_capturing(device, stream)
    }

    fn capture_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: GraphCallback,
    ) -> Result<()> {
        self.stream(device, stream)?;
        self.captures
            .capture_callback(device, stream, || SimNode::Callback(callback))
    }

    fn record_event(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()> {
        self.event(device, event)?;
        self.stream(device, stream)?;
        if self.captures.record_event(device, event, stream) {
            return Ok(()); // recorded by each replay of the graph
        }
        crate::driver::Driver::event_record(self, device, event, stream)
    }

    unsafe fn launch_graph(
        &self,
        device: usize,
        graph: GraphHandle,
        stream: StreamHandle,
    ) -> Result<()> {
        let g = self.graph(device, graph)?;
        self.captures.refuse_graph_launch(device, stream)?;
        // An event the program destroyed since the capture is not recorded.
        let events: Vec<_> = g
            .events
            .iter()
            .filter_map(|&e| self.event(device, e).ok())
            .collect();
        let body = g.body();
        let keep = Arc::clone(&g.keep);
        let dev = self.device(device)?;
        g.chain.queue(self, device, stream, || {
            let (s, _) = self.enqueue(
                device,
                stream,
                body.touches.clone(),
                Box::new(move || {
                    let _keep = keep;
                    body.run()
                }),
            )?;
            for ev in events {
                let deps = dev.ordering_deps(&s);
                ev.record(&s, deps);
            }
            Ok(())
        })
    }

    fn kernel_nodes(&self, device: usize, graph: GraphHandle) -> Result<Vec<KernelNode>> {
        Ok(self.graph(device, graph)?.kernel_nodes())
    }

    unsafe fn set_kernel_node(
        &self,
        device: usize,
        graph: GraphHandle,
        node: usize,
        launch: &KernelLaunch<'_>,
        keep: Box<dyn Any + Send>,
    ) -> Result<()> {
        self.graph(device, graph)?.update_kernel(node, launch, |_| {
            let (touches, body) = self.prepare_launch(device, launch)?;
            let mut new = SimNode::kernel(launch, &touches, &body);
            if let SimNode::Kernel { keep: k, .. } = &mut new {
                *k = Some(Arc::new(Mutex::new(keep)));
            }
            Ok(new)
        })
    }

    fn destroy_graph(&self, device: usize, graph: GraphHandle) -> Result<()> {
        // Queued replays hold the body and the kept values; they go when the last one has run.
        let g = (self.graphs.graphs.remove(device, graph))
            .ok_or_else(|| invalid_handle("graph", graph.0, device))?;
        g.chain.destroy(self, device);
        Ok(())
    }
}

/// Touch helpers for graphs.
impl Touch {
    /// The same touch, asking for no lease (replays run without them).
    pub(crate) fn without_lease(&self) -> Touch {
        self.with_lease(None)
    }
}
