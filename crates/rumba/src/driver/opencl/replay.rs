//! Replaying an OpenCL stream graph: the graph's prepared nodes ([`graph_node`](super::graph_node))
//! queued as one batch on the target stream ([`Batch`]), straight to OpenCL — past the safe
//! layers' per-operation work (argument plans, reset-gate leases, holds and their keep-alive
//! callbacks, array checks) and the driver's (range checks, argument setting, per-launch fault
//! records, events), all done once, at capture.
//!
//! One replay queues:
//! 1. one fill that zeroes the graph's fault records (its wait list: the stream's ordering, and
//!    the unfinished launches of its kernels with other grid widths);
//! 2. one command per node, without events: `clEnqueueNDRangeKernel` of the node's own kernel
//!    object, an SVM copy or fill; a repeatable host callback is a marker with its callback;
//! 3. one copy of the records back to the host, whose event ends the replay: one check at the
//!    stream's next synchronization names the first kernel (in capture order) that faulted,
//!    with its block and thread (a host callback in the graph reads the records of the kernels
//!    before it first, so it sees their faults);
//! 4. the end event becomes the record of the graph's events and of its replay chain, and one
//!    host callback after it lets go of what the replay kept alive (the nodes, the records, the
//!    memory the captured work holds).
//!
//! Without fault records, a marker ends the replay. Replays of one graph on different streams
//! run one after the other ([`ReplayChain`](crate::driver::replay_chain)).
//!
//! A replay that fails partway (a command refused: OpenCL out of resources) is not undone: the
//! commands already queued still run, in order, and the error is returned. Nothing stays
//! blocked (a callback that will not run opens its gate), nothing they use is freed under them
//! (what the replay keeps alive is leaked where no callback after them lets go of it), and the
//! stream's next synchronization waits for them (if even the marker after them failed, the
//! stream covers them later: [`stream`](super::stream)).
//!
//! This module touches the capture and graph tables, and the queues through their batches.

use std::any::Any;
use std::ops::Range;
use std::sync::Arc;

use super::batch::Batch;
use super::driver::{OpenClDriver, as_mut};
use super::graph_node::{Body, ClNode, Records};
use super::grid_widths::Slot;
use super::launch::{FAULT_BYTES, record_fault};
use super::raw::ClEvent;
use crate::driver::capture::Captures;
use crate::driver::graph_table::{GraphTable, OwnGraph};
use crate::driver::{EventHandle, GraphHandle, StreamHandle};
use crate::error::{Error, Result};

/// An instantiated graph: the shared bookkeeping, and its fault records.
pub(crate) struct ClGraph {
    pub(crate) own: OwnGraph<Body>,
    pub(crate) records: Option<Arc<Records>>,
}

/// The captures and graphs of one driver.
#[derive(Default)]
pub(crate) struct ClGraphs {
    pub(crate) captures: Captures<ClNode>,
    graphs: GraphTable<ClGraph>,
}

fn unknown_graph(graph: GraphHandle, device: usize) -> Error {
    Error::InvalidHandle {
        kind: "graph",
        handle: graph.0,
        reason: format!("no live graph with this handle on device {device}"),
    }
}

impl ClGraphs {
    /// [`Graphs::end_capture`](crate::driver::Graphs::end_capture): the graph's records are
    /// allocated and the kernels pointed at them before the capture ends.
    ///
    /// # Errors
    /// As there; OpenCL's errors allocating the records or setting the kernels' record arguments,
    /// after which the capture goes on as it was (end it again, or abort it).
    pub(crate) fn end(
        &self,
        drv: &OpenClDriver,
        device: usize,
        stream: StreamHandle,
    ) -> Result<GraphHandle> {
        let (recording, records) = self.captures.end_with(device, stream, |recording| {
            // SAFETY: the driver's context; the recorded kernel objects are the recording's
            // alone (nothing replays a recording before it is a graph).
            unsafe { Records::instantiate(drv.ctx(), &recording.nodes) }
        })?;
        let graph = ClGraph {
            own: OwnGraph::of(recording),
            records,
        };
        Ok(self.graphs.insert(device, graph))
    }

    /// Graph `graph` of `device`.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for a handle of no live graph of `device`.
    pub(crate) fn graph(&self, device: usize, graph: GraphHandle) -> Result<Arc<ClGraph>> {
        self.graphs
            .get(device, graph)
            .ok_or_else(|| unknown_graph(graph, device))
    }

    /// [`Graphs::destroy_graph`](crate::driver::Graphs::destroy_graph).
    pub(crate) fn destroy(
        &self,
        drv: &OpenClDriver,
        device: usize,
        graph: GraphHandle,
    ) -> Result<()> {
        let g = (self.graphs.remove(device, graph)).ok_or_else(|| unknown_graph(graph, device))?;
        g.own.chain.destroy(drv, device);
        Ok(())
    }
}

/// [`Graphs::launch_graph`](crate::driver::Graphs::launch_graph) (see the [module docs](self)).
///
/// Once the first command is queued, the end and the keep-alive are queued after whatever was
/// queued, even when a later command fails; if even that cannot be done, what the replay keeps
/// alive is leaked rather than freed under queued commands. The graph's events and its replay
/// chain are recorded with the end whenever there is one.
///
/// # Errors
/// As there; the first OpenCL error queuing the replay (the commands queued before it still
/// run: see the [module docs](self)).
///
/// # Safety
/// As there.
pub(crate) unsafe fn launch(
    drv: &OpenClDriver,
    device: usize,
    graph: GraphHandle,
    stream: StreamHandle,
) -> Result<()> {
    let g = drv.graphs.graph(device, graph)?;
    let queues = &drv.device(device)?.queues;
    queues.check(stream)?;
    drv.graphs.captures.refuse_graph_launch(device, stream)?;
    // An event the program destroyed since the capture is not recorded.
    let events: Vec<EventHandle> = (g.own.events.iter().copied())
        .filter(|&e| drv.events.check(device, e).is_ok())
        .collect();
    let body = g.own.body();
    let records = g.records.clone();
    let held: Arc<dyn Any + Send + Sync> =
        Arc::new((Arc::clone(&body), records.clone(), Arc::clone(&g.own.keep)));
    g.own.chain.queue_recording(drv, device, stream, |chain| {
        let submitted = queues.submit_batch(stream, |b| {
            // SAFETY: the caller's contract.
            let (end, queued) = unsafe { queue_replay(b, &body, records.as_deref(), &held) };
            Ok((end, queued))
        });
        // `submit_batch`'s own errors come before anything is queued, or after the keep-alive
        // was handed to a callback (which leaks it if it cannot run).
        let (end, queued) = match submitted {
            Ok(r) => r,
            Err(e) => return (Err(e.clone()), Err(e)),
        };
        let end = match end {
            Ok(end) => end,
            Err(e) => {
                let e = queued.err().unwrap_or(e);
                return (Err(e.clone()), Err(e));
            }
        };
        let mut recorded = queued;
        for &e in &events {
            // Outside a capture: an earlier record of the event inside one is forgotten.
            drv.graphs.captures.record_event(device, e, stream);
            recorded = recorded.and(drv.events.set_record(device, e, end.clone()));
        }
        (recorded, drv.events.set_record(device, chain, end))
    })
}

/// Queues one replay of `body` in `b`: its commands, its end and, after the end, a callback that
/// lets go of `held` (what the replay keeps alive). Returns the end (or why there is none) and
/// the first error of the commands and the callback. Whenever a command was queued but the
/// callback was not, `held` is leaked.
///
/// # Safety
/// As [`queue_body`].
unsafe fn queue_replay(
    b: &mut Batch<'_>,
    body: &Arc<Body>,
    records: Option<&Records>,
    held: &Arc<dyn Any + Send + Sync>,
) -> (Result<ClEvent>, Result<()>) {
    // SAFETY: the caller's contract.
    let queued = unsafe { queue_body(b, body, records) };
    let end = b.end();
    let kept = end.as_ref().map_err(Error::clone).and_then(|end| {
        let keep = Arc::clone(held);
        b.callback_after(end.clone(), Box::new(move |_| drop(keep)))
    });
    if kept.is_err() && b.queued() {
        // Commands are queued that use the kept memory, and nothing lets go of it after them:
        // never free it.
        std::mem::forget(Arc::clone(held));
    }
    (end, queued.and(kept))
}

/// Queues the commands of `body` in `b` (see the [module docs](self)), ordered after the
/// unfinished launches of its kernels with other widths.
///
/// # Safety
/// The nodes' ranges are still valid (the graph keeps them) and stay so until the replay has run.
unsafe fn queue_body(b: &mut Batch<'_>, body: &Arc<Body>, records: Option<&Records>) -> Result<()> {
    let widths = (!body.launches.is_empty()).then(|| Slot::take_all(b.context(), &body.launches));
    if let Some(w) = &widths {
        b.wait_also(w.waits());
    }
    // SAFETY: the caller's contract.
    let queued = unsafe { queue_nodes(b, body, records) };
    if let Some(w) = widths {
        // Were even the end refused, no event stands for the launches: the launches of other
        // widths are left as they were (`Slot`'s drop).
        if let Ok(end) = b.end() {
            w.launched(&end);
        }
    }
    queued
}

/// Queues the nodes' commands between the records' zeroing and their reading back.
///
/// # Safety
/// As [`queue_body`].
unsafe fn queue_nodes(
    b: &mut Batch<'_>,
    body: &Arc<Body>,
    records: Option<&Records>,
) -> Result<()> {
    if let Some(r) = records {
        let (ptr, bytes) = r.range();
        // SAFETY: the records are a live SVM allocation the replay keeps.
        unsafe { b.fill(ptr, 0, bytes)? };
    }
    // The first slot whose record is not read back yet, and the slot after the last kernel.
    let (mut read, mut next) = (0, 0);
    for (node, slot) in body.nodes.iter().zip(&body.slots) {
        // SAFETY (every command): the ranges were checked at capture and the graph keeps them;
        // a node's kernel object is set once and never changed.
        match node {
            ClNode::Copy(c) => unsafe { b.copy(as_mut(c.dst), as_mut(c.src), c.bytes)? },
            ClNode::Memset { dst, value, bytes } => unsafe {
                b.fill(as_mut(*dst), *value, *bytes)?
            },
            ClNode::Kernel(k) => unsafe {
                b.kernel(&k.name, k.kernel.raw(), k.dims, &k.global, &k.local)?
            },
            ClNode::Callback(callback) => {
                read_back(b, body, records, read..next)?;
                read = next;
                let marker = b.marker()?;
                let callback = Arc::clone(callback);
                b.callback_after(marker, Box::new(move |status| callback(status)))?;
            }
        }
        if let Some(s) = slot {
            next = s + 1;
        }
    }
    read_back(b, body, records, read..next)
}

/// Copies the records of `slots` back to the host and checks them at the stream's next
/// synchronization: the first record that holds a fault is the error.
fn read_back(
    b: &mut Batch<'_>,
    body: &Body,
    records: Option<&Records>,
    slots: Range<usize>,
) -> Result<()> {
    let Some(records) = records.filter(|_| !slots.is_empty()) else {
        return Ok(());
    };
    let mut host = vec![0u8; slots.len() * FAULT_BYTES].into_boxed_slice();
    let src = records.at(slots.start) as usize as *const u8;
    // SAFETY: the records are a live SVM allocation the replay keeps; `host` is owned by the
    // check below, which runs (or is dropped) only once the copy has completed.
    let event = unsafe { b.copy_evented(host.as_mut_ptr(), src, host.len())? };
    let sites = Arc::clone(&body.sites);
    b.check(
        event,
        Box::new(move || {
            let first = host
                .chunks_exact(FAULT_BYTES)
                .zip(slots)
                .find_map(|(rec, slot)| {
                    let rec: &[u8; FAULT_BYTES] = rec.try_into().ok()?;
                    let site = sites.get(slot)?.as_ref()?;
                    record_fault(&site.kernel, site.abi, rec)
                });
            first.map_or(Ok(()), Err)
        }),
    );
    Ok(())
}
