//! Stream graphs on OpenCL ([`Graphs`]): rumba's own capture, replayed by issuing the recorded
//! commands again ([`replay`](crate::driver::replay)). The driver calls check every command when
//! it is captured (ranges against the allocation table, the kernel's form and geometry); a
//! kernel is compiled at its first replay, as at its first launch.
//!
//! This module touches the capture and graph tables and, through the driver's calls, the queues.

use super::OpenClDriver;
use super::launch::{Target, check_geometry};
use super::strided::check_range;
use crate::driver::replay::Reissue;
use crate::driver::{
    BackendKind, EventHandle, GraphCallback, GraphHandle, Graphs, KernelArg, KernelLaunch,
    KernelNode, OpenClKernelSource, StreamHandle,
};
use crate::error::{ArgumentError, Error, Result};

impl OpenClDriver {
    /// Checks `launch` and records it if `stream` is being captured (`None`: not capturing).
    pub(super) fn capture_launch(
        &self,
        t: &Target<'_>,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Option<Result<()>> {
        if !self.graphs.captures.is_capturing(t.device, stream) {
            return None;
        }
        if let Err(e) = check_launch(t, launch) {
            return Some(Err(e));
        }
        self.graphs
            .captures
            .capture_node(t.device, stream, || Reissue::kernel(launch, None))
    }
}

/// What a launch checks before anything is queued: the kernel's OpenCL form, its geometry, and
/// every array argument's range.
fn check_launch(t: &Target<'_>, launch: &KernelLaunch<'_>) -> Result<()> {
    launch
        .function
        .require::<OpenClKernelSource>(BackendKind::OpenCl)?;
    check_geometry(launch, t.survey)?;
    for (i, a) in launch.args.iter().enumerate() {
        if let KernelArg::Array(arr) = a {
            if arr.size() > 0 {
                check_range(t.table, arr.ptr, &arr.shape, &arr.strides, arr.itemsize).map_err(
                    |e| Error::KernelArgument {
                        kernel: launch.function.name.clone(),
                        position: i,
                        parameter: None,
                        problem: ArgumentError::Placement(Box::new(e)),
                    },
                )?;
            }
        }
    }
    Ok(())
}

// SAFETY: a replay issues the recorded driver calls, which touch what they touched when recorded
// (or, for an updated node, what the checked update describes); the recorded keep-alive values go
// with a keep-alive queued after every replay, and the graph holds them until destroyed.
unsafe impl Graphs for OpenClDriver {
    fn begin_capture(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.device(device)?.queues.query(stream)?; // an unknown stream is an error
        self.graphs.captures.begin(device, stream)
    }

    fn end_capture(&self, device: usize, stream: StreamHandle) -> Result<GraphHandle> {
        self.graphs.end(device, stream)
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
            .capture_callback(device, stream, || Reissue::Callback(callback))
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
        unsafe {
            self.graphs.launch(self, device, graph, stream, |e| {
                self.events.check(device, e).is_ok()
            })
        }
    }

    fn kernel_nodes(&self, device: usize, graph: GraphHandle) -> Result<Vec<KernelNode>> {
        Ok(self.graphs.graph(device, graph)?.kernel_nodes())
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
        // The driver's own checks of the new launch, after `update_kernel`'s and before anything
        // changes.
        self.graphs
            .graph(device, graph)?
            .update_kernel(node, launch, || {
                check_launch(&target, launch)?;
                Ok(Reissue::kernel(launch, Some(keep)))
            })
    }

    fn destroy_graph(&self, device: usize, graph: GraphHandle) -> Result<()> {
        self.graphs.destroy(self, device, graph)
    }
}
