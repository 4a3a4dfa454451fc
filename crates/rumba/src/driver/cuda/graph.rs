//! Stream graphs on CUDA ([`Graphs`]): `cuStreamBeginCapture` (relaxed mode: `cuMemAlloc` and
//! `cuMemFree` stay allowed while a stream captures) and `cuStreamEndCapture`,
//! `cuGraphInstantiateWithFlags`, `cuGraphLaunch`, and kernel-node updates with
//! `cuGraphExecKernelNodeSetParams`. Launches of one executable graph and updates of its nodes
//! are serialized (one lock), as CUDA requires; CUDA runs the launches of one executable graph one
//! after the other, whatever their streams.
//!
//! Events recorded inside a capture are recorded again on the stream after every
//! `cuGraphLaunch` (a capture turns them into edges, not nodes), so they complete when the replay
//! has. Memory of the stream-ordered pool is neither taken nor given back on a capturing stream
//! (the CUDA pool module allocates with `cuMemAlloc` there, and gives pool memory back once the
//! capture has ended). A replaced kernel node's arguments go with the next replay's keep-alive:
//! that replay runs after every earlier one.
//!
//! rumba keeps the same bookkeeping beside CUDA's capture as the other backends
//! ([`Captures`]): which streams capture (origin and joined), which events were recorded inside,
//! the kernel nodes in capture order (each found with `cuStreamGetCaptureInfo` right after its
//! launch) and the values the captured work keeps alive — on CUDA a keep-alive must not become a
//! host node, which would drop its value on every replay. So the refusals are the same typed
//! errors on every backend, before CUDA would refuse with its own codes.
//!
//! Kernels launched inside a capture get no fault record (a NULL record, as hand-written
//! kernels): a replay's out-of-bounds accesses are still skipped, but not reported.
//!
//! Executable graphs are destroyed (`cuGraphExecDestroy`, `cuGraphDestroy`) once the graph is
//! destroyed and its last queued replay has run — on the next graph call of a host thread, since
//! no CUDA call may run on the callback thread where the last replay may let it go.
//!
//! This module touches CUDA's capture and graph objects and its own tables.

use std::any::Any;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use cudarc::driver::sys;

use super::CudaDriver;
use super::error::check;
use super::launch::{Param, pack_args};
use crate::driver::capture::{Captures, Recording};
use crate::driver::graph::{
    CapturedNode, callback_outside_capture, kernel_nodes, kernel_position, refused,
};
use crate::driver::graph_table::GraphTable;
use crate::driver::{
    Driver, GraphCallback, GraphHandle, Graphs, KernelLaunch, KernelNode, StreamHandle,
};
use crate::error::{Error, Result};
use crate::sync::lock;

/// A kernel launched inside a capture.
pub(crate) struct CapturedKernel {
    /// Its `CUgraphNode`.
    node: usize,
    /// Its `CUfunction`.
    function: usize,
    info: KernelNode,
    /// What keeps an update's arguments alive: held for its drop, never read.
    #[allow(dead_code)]
    keep: Option<Box<dyn Any + Send>>,
}

impl CapturedNode for CapturedKernel {
    fn kernel(&self) -> Option<&KernelNode> {
        Some(&self.info)
    }
}

/// An instantiated graph: `CUgraphExec` and `CUgraph`, destroyed when the last holder lets go.
struct CudaGraph {
    exec: usize,
    graph: usize,
    /// The kernel nodes; the lock also serializes `cuGraphLaunch` with node updates.
    kernels: Mutex<Vec<CapturedKernel>>,
    /// Replaced kernel-node keeps, until the next replay takes them (a queued replay may use
    /// them; the next one runs after it).
    retired: Mutex<Vec<Box<dyn Any + Send>>>,
    /// Events recorded inside the capture: recorded again after every launch.
    events: Vec<crate::driver::EventHandle>,
    #[allow(dead_code)]
    keep: Vec<Box<dyn Any + Send>>,
    reap: Arc<Mutex<Vec<(usize, usize)>>>,
}

impl Drop for CudaGraph {
    fn drop(&mut self) {
        // Destroyed by the next graph call on a host thread (this may be a callback thread).
        lock(&self.reap).push((self.exec, self.graph));
    }
}

/// The captures and graphs of the CUDA driver.
#[derive(Default)]
pub(crate) struct CudaGraphs {
    pub(crate) captures: Captures<CapturedKernel>,
    graphs: GraphTable<CudaGraph>,
    reap: Arc<Mutex<Vec<(usize, usize)>>>,
    /// Pool memory freed on a capturing stream: `(device, stream, pointer)`, given back on that
    /// stream once its capture has ended.
    pub(crate) frees: Mutex<Vec<(usize, StreamHandle, crate::driver::DevicePtr)>>,
}

// SAFETY: the raw CUDA handles are plain numbers here, used only through the thread-safe driver
// API; every mutable part is behind a lock.
unsafe impl Send for CapturedKernel {}
// SAFETY: as above.
unsafe impl Sync for CudaGraph {}
// SAFETY: as above.
unsafe impl Send for CudaGraph {}

/// Runs a graph callback (a `CUhostFn`).
unsafe extern "C" fn graph_callback_trampoline(user: *mut c_void) {
    // SAFETY: `user` is a `GraphCallback` boxed by `capture_callback`, which the graph keeps
    // (with its own keep-alives) for as long as a replay may run this host node.
    let cb = unsafe { &*(user as *const GraphCallback) };
    crate::driver::callback::mark_thread();
    if let Err(panic) = crate::unwind::catch(|| cb(Ok(()))) {
        tracing::error!("a graph callback panicked: {panic}");
    }
}

impl CudaDriver {
    /// Destroys the executable graphs whose last holder has gone.
    fn reap_graphs(&self) {
        let dead = std::mem::take(&mut *lock(&self.graphs.reap));
        for (exec, graph) in dead {
            // SAFETY: handles of an instantiated graph nothing uses any more.
            let _ = unsafe { sys::cuGraphExecDestroy(exec as sys::CUgraphExec) };
            // SAFETY: as above.
            let _ = unsafe { sys::cuGraphDestroy(graph as sys::CUgraph) };
        }
    }

    fn cuda_graph(&self, device: usize, graph: GraphHandle) -> Result<Arc<CudaGraph>> {
        (self.graphs.graphs.get(device, graph)).ok_or_else(|| unknown_graph(graph, device))
    }

    /// Launches a kernel on a capturing stream and records its node (`None`: not capturing).
    ///
    /// # Safety
    /// As [`Driver::launch_kernel`].
    pub(super) unsafe fn capture_launch(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
        f: sys::CUfunction,
        s: sys::CUstream,
    ) -> Option<Result<()>> {
        if !self.graphs.captures.is_capturing(device, stream) {
            return None;
        }
        let captured = (|| {
            // SAFETY: forwarded from the caller; no fault record inside a graph.
            unsafe { super::launch::launch(f, launch, s, 0) }?;
            let mut status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
            let mut deps: *const sys::CUgraphNode = std::ptr::null();
            let mut count = 0usize;
            // SAFETY: writes the capture's status and its current dependencies (the node just
            // added); the other outputs are not asked for.
            check("cuStreamGetCaptureInfo", unsafe {
                sys::cuStreamGetCaptureInfo_v3(
                    s,
                    &mut status,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    &mut deps,
                    std::ptr::null_mut(),
                    &mut count,
                )
            })?;
            if deps.is_null() || count == 0 {
                return Err(Error::Driver {
                    call: "cuStreamGetCaptureInfo".into(),
                    code: 0,
                    name: "CUDA_SUCCESS".into(),
                    message: "the captured launch left no node behind".into(),
                });
            }
            // SAFETY: CUDA returned `count` nodes at `deps`; the last is the launch.
            let node = unsafe { *deps.add(count - 1) } as usize;
            Ok(node)
        })();
        Some(captured.and_then(|node| {
            self.graphs
                .captures
                .record(device, stream, |rec| {
                    rec.nodes.push(CapturedKernel {
                        node,
                        function: f as usize,
                        info: KernelNode::of(launch),
                        keep: None,
                    })
                })
                .ok_or_else(|| refused("a kernel launch", stream, "the capture ended meanwhile"))
        }))
    }
}

// SAFETY: CUDA runs the instantiated graph; the values the captured work kept and every updated
// node's keep live with the graph, which every queued replay holds (a keep-alive after it).
unsafe impl Graphs for CudaDriver {
    fn begin_capture(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.reap_graphs();
        let s = self.stream(stream)?;
        self.bind(device)?;
        self.graphs.captures.begin(device, stream)?;
        // SAFETY: a live stream of the current context.
        let r = check("cuStreamBeginCapture", unsafe {
            sys::cuStreamBeginCapture_v2(
                s,
                sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED,
            )
        });
        if r.is_err() {
            let _ = self.graphs.captures.end(device, stream);
        }
        r
    }

    fn end_capture(&self, device: usize, stream: StreamHandle) -> Result<GraphHandle> {
        let s = self.stream(stream)?;
        self.bind(device)?;
        let Recording {
            nodes,
            keep,
            events,
            ..
        } = self.graphs.captures.end(device, stream)?;
        let mut graph: sys::CUgraph = std::ptr::null_mut();
        // SAFETY: the stream began a capture; writes the captured graph.
        let ended = check("cuStreamEndCapture", unsafe {
            sys::cuStreamEndCapture(s, &mut graph)
        });
        self.free_after_captures();
        ended?;
        let mut exec: sys::CUgraphExec = std::ptr::null_mut();
        // SAFETY: a complete graph; writes the executable.
        let r = check("cuGraphInstantiate", unsafe {
            sys::cuGraphInstantiateWithFlags(&mut exec, graph, 0)
        });
        if let Err(e) = r {
            // SAFETY: the graph is ours and unused.
            let _ = unsafe { sys::cuGraphDestroy(graph) };
            return Err(e);
        }
        let g = CudaGraph {
            exec: exec as usize,
            graph: graph as usize,
            kernels: Mutex::new(nodes),
            retired: Mutex::new(Vec::new()),
            events,
            keep,
            reap: Arc::clone(&self.graphs.reap),
        };
        Ok(self.graphs.graphs.insert(device, g))
    }

    fn abort_capture(&self, device: usize, stream: StreamHandle) {
        if self.graphs.captures.end(device, stream).is_err() {
            return;
        }
        if let (Ok(s), Ok(_)) = (self.stream(stream), self.bind(device)) {
            let mut graph: sys::CUgraph = std::ptr::null_mut();
            // SAFETY: ends the capture; a graph it hands back is destroyed unused.
            unsafe {
                let _ = sys::cuStreamEndCapture(s, &mut graph);
                if !graph.is_null() {
                    let _ = sys::cuGraphDestroy(graph);
                }
            }
        }
        self.free_after_captures();
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
        let s = self.stream(stream)?;
        self.bind(device)?;
        if !self.graphs.captures.is_capturing(device, stream) {
            return Err(callback_outside_capture(stream));
        }
        let boxed: Box<GraphCallback> = Box::new(callback);
        let user = &*boxed as *const GraphCallback as *mut c_void;
        // SAFETY: the host node calls the trampoline with `user`, which the capture keeps (below)
        // for as long as the graph lives.
        check("cuLaunchHostFunc", unsafe {
            sys::cuLaunchHostFunc(s, Some(graph_callback_trampoline), user)
        })?;
        if let Err(value) = self
            .graphs
            .captures
            .keep(device, stream, Box::new(SendBox(boxed)))
        {
            // The capture ended meanwhile, and the host node (in whatever graph CUDA made of it)
            // points at the callback: never free it.
            std::mem::forget(value);
        }
        Ok(())
    }

    fn record_event(
        &self,
        device: usize,
        event: crate::driver::EventHandle,
        stream: StreamHandle,
    ) -> Result<()> {
        let (e, s) = (self.event(event)?, self.stream(stream)?);
        self.bind(device)?;
        if !self.graphs.captures.is_capturing(device, stream) {
            return crate::driver::Driver::event_record(self, device, event, stream);
        }
        // SAFETY: valid handles; inside the capture the record becomes part of the graph.
        check("cuEventRecord", unsafe { sys::cuEventRecord(e, s) })?;
        self.note_recorded(event);
        self.graphs.captures.record_event(device, event, stream);
        Ok(())
    }

    unsafe fn launch_graph(
        &self,
        device: usize,
        graph: GraphHandle,
        stream: StreamHandle,
    ) -> Result<()> {
        self.reap_graphs();
        let g = self.cuda_graph(device, graph)?;
        let s = self.stream(stream)?;
        self.bind(device)?;
        self.graphs.captures.refuse_graph_launch(device, stream)?;
        // Serialized with node updates (CUDA requires callers to serialize use of one exec).
        let kernels = lock(&g.kernels);
        // SAFETY: an instantiated graph of this context; its memory is the caller's contract.
        check("cuGraphLaunch", unsafe {
            sys::cuGraphLaunch(g.exec as sys::CUgraphExec, s)
        })?;
        // Replaced arguments go with this replay, which runs after every replay that used them.
        let retired = Arc::new(Mutex::new(std::mem::take(&mut *lock(&g.retired))));
        drop(kernels);
        // Events recorded in the capture complete when this replay has (one destroyed since is
        // skipped).
        let mut recorded = Ok(());
        for &e in &g.events {
            if self.event(e).is_ok() {
                recorded =
                    recorded.and(crate::driver::Driver::event_record(self, device, e, stream));
            }
        }
        let kept = self.stream_keepalive(device, stream, Box::new((g, Arc::clone(&retired))));
        if kept.is_err() {
            // The replay is queued and may use them: never free them.
            std::mem::forget(retired);
        }
        kept.and(recorded)
    }

    fn kernel_nodes(&self, device: usize, graph: GraphHandle) -> Result<Vec<KernelNode>> {
        let g = self.cuda_graph(device, graph)?;
        Ok(kernel_nodes(&lock(&g.kernels)))
    }

    unsafe fn set_kernel_node(
        &self,
        device: usize,
        graph: GraphHandle,
        node: usize,
        launch: &KernelLaunch<'_>,
        keep: Box<dyn Any + Send>,
    ) -> Result<()> {
        let g = self.cuda_graph(device, graph)?;
        self.bind(device)?;
        let mut kernels = lock(&g.kernels);
        let at = kernel_position(&kernels, node, launch)?;
        let k = &mut kernels[at];
        let mut params: Vec<Param> = pack_args(launch.args, 0);
        let mut ptrs: Vec<*mut c_void> = params.iter_mut().map(Param::as_mut_ptr).collect();
        let [gx, gy, gz] = launch.grid;
        let [bx, by, bz] = launch.block;
        let p = sys::CUDA_KERNEL_NODE_PARAMS {
            func: k.function as sys::CUfunction,
            gridDimX: gx,
            gridDimY: gy,
            gridDimZ: gz,
            blockDimX: bx,
            blockDimY: by,
            blockDimZ: bz,
            sharedMemBytes: launch.dynamic_shared_bytes as u32,
            kernelParams: ptrs.as_mut_ptr(),
            extra: std::ptr::null_mut(),
            kern: std::ptr::null_mut(),
            ctx: std::ptr::null_mut(),
        };
        // SAFETY: a kernel node of this executable graph; the parameter buffers outlive the call
        // (CUDA copies the values); the arrays' memory is held by `keep` from now on.
        check("cuGraphExecKernelNodeSetParams", unsafe {
            sys::cuGraphExecKernelNodeSetParams_v2(
                g.exec as sys::CUgraphExec,
                k.node as sys::CUgraphNode,
                &p,
            )
        })?;
        k.info = KernelNode::of(launch);
        if let Some(old) = k.keep.replace(keep) {
            lock(&g.retired).push(old);
        }
        Ok(())
    }

    fn destroy_graph(&self, device: usize, graph: GraphHandle) -> Result<()> {
        // The table lets go here; the graph is destroyed once no queued replay holds it.
        (self.graphs.graphs.remove(device, graph)).ok_or_else(|| unknown_graph(graph, device))?;
        self.reap_graphs();
        Ok(())
    }
}

fn unknown_graph(graph: GraphHandle, device: usize) -> Error {
    Error::InvalidHandle {
        kind: "graph",
        handle: graph.0,
        reason: format!("no live graph with this handle on CUDA device {device}"),
    }
}

/// Owns a boxed graph callback for the capture's keep list.
struct SendBox(#[allow(dead_code)] Box<GraphCallback>);
