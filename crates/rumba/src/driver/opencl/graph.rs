//! Stream graphs on OpenCL ([`Graphs`]): rumba's own capture — every command checked when it is
//! captured (ranges against the allocation table, the kernel's form, geometry, build and
//! parameters) and prepared as a node ([`graph_node`](super::graph_node)) — replayed as one batch
//! of commands ([`replay`](super::replay)).
//!
//! This module touches the capture and graph tables and, through the driver's calls, the queues.

use super::OpenClDriver;
use super::graph_node::{ClNode, NodeKernel};
use super::launch::{Target, check_launch};
use super::replay;
use crate::driver::{
    EventHandle, GraphCallback, GraphHandle, Graphs, KernelLaunch, KernelNode, StreamHandle,
};
use crate::error::{GraphError, Result};
use std::sync::Arc;

impl OpenClDriver {
    /// Checks and prepares `launch` and records it if `stream` is being captured (`None`: not
    /// capturing).
    pub(super) fn capture_launch(
        &self,
        t: &Target<'_>,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Option<Result<()>> {
        if !self.graphs.captures.is_capturing(t.device, stream) {
            return None;
        }
        let node = check_launch(t, launch).and_then(|c| NodeKernel::launch(launch, &c, None));
        match node {
            Ok(node) => self
                .graphs
                .captures
                .capture_node(t.device, stream, || ClNode::Kernel(Arc::new(node))),
            Err(e) => Some(Err(e)),
        }
    }
}

// SAFETY: a replay queues the recorded commands, which touch what they touched when recorded
// (or, for an updated node, what the checked update describes) and the graph's fault records;
// the recorded keep-alive values go with a keep-alive queued after every replay, and the graph
// holds them until destroyed.
unsafe impl Graphs for OpenClDriver {
    fn begin_capture(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.device(device)?.queues.query(stream)?; // an unknown stream is an error
        self.graphs.captures.begin(device, stream)
    }

    fn end_capture(&self, device: usize, stream: StreamHandle) -> Result<GraphHandle> {
        self.graphs.end(self, device, stream)
    }

    fn abort_capture(&self, device: usize, stream: StreamHandle) {
        let _ = self.graphs.captures.end(device, stream);
    }

    fn is_capturing(&self, device: usize, stream: StreamHandle) -> bool {
        self.graphs.captures.is_capturing(device, stream)
    }

    fn capture_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: GraphCallback,
    ) -> Result<()> {
        self.device(device)?;
        self.graphs
            .captures
            .capture_callback(device, stream, || ClNode::Callback(callback))
    }

    fn record_event(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()> {
        self.events.check(device, event)?;
        if self.graphs.captures.record_event(device, event, stream) {
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
        // SAFETY: forwarded from the caller.
        unsafe { replay::launch(self, device, graph, stream) }
    }

    fn kernel_nodes(&self, device: usize, graph: GraphHandle) -> Result<Vec<KernelNode>> {
        Ok(self.graphs.graph(device, graph)?.own.kernel_nodes())
    }

    unsafe fn set_kernel_node(
        &self,
        device: usize,
        graph: GraphHandle,
        node: usize,
        launch: &KernelLaunch<'_>,
        keep: Box<dyn std::any::Any + Send>,
    ) -> Result<()> {
        let target = self.launch_target(device)?;
        let g = self.graphs.graph(device, graph)?;
        // The driver's own checks of the new launch, after `update_kernel`'s and before anything
        // changes; under the graph's lock, so the slot is the current node's.
        g.own.update_kernel(node, launch, |old| {
            let checked = check_launch(&target, launch)?;
            let new = NodeKernel::launch(launch, &checked, Some(keep))?;
            // The node's fault record slot: its own, fixed when the graph was instantiated.
            let slot = match old {
                ClNode::Kernel(k) => k.slot(),
                _ => None,
            };
            match (&g.records, slot) {
                // SAFETY: the object is new and ours alone; the records live as long as the
                // graph, and every replay holds them.
                (Some(records), Some(slot)) => unsafe { new.set_record(records, slot)? },
                _ if new.has_record() => {
                    // One name, two forms: the captured one reports no faults, the new one does.
                    let name = &launch.function.name;
                    return Err(GraphError::OtherKernel {
                        node,
                        captured: format!("{name} (a form without a fault record)"),
                        given: format!("{name} (a form with one)"),
                    }
                    .into());
                }
                _ => {}
            }
            Ok(ClNode::Kernel(Arc::new(new)))
        })
    }

    fn destroy_graph(&self, device: usize, graph: GraphHandle) -> Result<()> {
        self.graphs.destroy(self, device, graph)
    }
}
