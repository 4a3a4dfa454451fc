//! Stream graphs: [`Stream::capture`] records what is queued on a stream into a [`Graph`], and
//! [`Graph::launch`] replays it, as often as wanted, on any stream of the same device.
//!
//! What is recorded: copies between device arrays, memsets, strided copies, kernel launches with
//! device-array arguments, event records and waits, repeatable host callbacks
//! ([`Stream::add_graph_callback`]), and the memory this work keeps alive — including arrays
//! allocated inside the capture, which thereby belong to the graph: valid on every replay, and
//! freed (by the deferred-deallocation rules) once the graph is dropped and its last replay has
//! run. Another stream joins the capture by waiting for an event recorded inside it; its work is
//! recorded too.
//!
//! What is refused inside a capture, with
//! [`GraphError::Refused`] naming the operation and the stream, and nothing recorded:
//! synchronizing the stream, the device or an event recorded in the capture, every copy between
//! host and device memory (pageable, pinned or borrowed: a graph does not own host memory, and a
//! replay would touch it after the call returned — [`Stream::upload`], [`Stream::download`],
//! [`Stream::auto_synchronize`] and array copies alike), one-shot callbacks
//! ([`Stream::add_callback`]), and kernel launches with host arguments (refused before anything
//! is uploaded or allocated). An error inside [`Stream::capture`]'s closure ends
//! the capture and drops what it recorded: the stream is usable again at once; so does dropping
//! the program's last handle to the stream that began the capture.
//!
//! Replays of one graph run one after the other, also when queued on different streams. Memory
//! the graph holds is its own: an allocation short of memory does not wait for it (it comes
//! free when the graph is dropped and its last replay has run), and what is allocated inside a
//! capture never reuses at once a block freed on the capturing stream.
//!
//! Kernel nodes take new arguments between replays
//! ([`Kernel::update_graph_node`](crate::kernel::Kernel::update_graph_node)): other arrays of the
//! same shape and element type, other scalar values. The node holds the arrays it was given
//! until it is updated again and no replay that used them is queued or running.
//!
//! A context reset is refused while a stream of its device is being captured
//! ([`Error::ResetRefused`]); a replay checks, under the reset gate, that no reset of the context
//! has freed the memory the graph uses since its capture began ([`GraphError::Reset`]).
//!
//! | backend | how |
//! |---------|-----|
//! | sim | rumba's own capture; a replay is one queue entry that runs the recorded nodes |
//! | opencl | rumba's own capture; a replay issues the recorded driver calls again, past the safe layers' per-operation work |
//! | cuda | `cuStreamBeginCapture` / `cuStreamEndCapture`, `cuGraphInstantiate`, `cuGraphLaunch`, `cuGraphExecKernelNodeSetParams` |

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use super::Stream;
use crate::driver::{GraphCallback, GraphHandle, Graphs, KernelNode};
#[cfg(doc)]
use crate::error::Error;
use crate::error::{GraphError, Result};
use crate::memory::gate::{self, Lease};
use crate::memory::resource::driver_id;
use crate::runtime::context::Context;

/// A captured, replayable sequence of stream work. Dropping it releases its memory once its
/// last replay has run.
///
/// ```
/// let s = rumba::stream().unwrap();
/// let buf = s.memalloc(64).unwrap();
/// let graph = s.capture(|s| s.memset(&buf, 7)).unwrap();
/// for _ in 0..3 {
///     graph.launch(&s).unwrap();
/// }
/// let mut out = [0u8; 64];
/// s.synchronize().unwrap();
/// buf.copy_to_host(&mut out).unwrap();
/// assert_eq!(out, [7; 64]);
/// ```
pub struct Graph {
    ctx: Context,
    handle: GraphHandle,
    origin: Stream,
    resets: u64,
}

impl fmt::Debug for Graph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Graph")
            .field("handle", &self.handle.0)
            .field("device", &self.ctx.device_id())
            .finish()
    }
}

/// The driver's graph capability, or why there is none.
fn graphs(ctx: &Context) -> Result<&dyn Graphs> {
    ctx.driver()
        .graphs()
        .ok_or_else(|| ctx.driver().backend().unsupported("stream graphs"))
}

/// Ends a capture that did not finish (an error or a panic inside the closure).
struct Abort<'a>(Option<&'a Stream>);

impl Drop for Abort<'_> {
    fn drop(&mut self) {
        if let Some(s) = self.0 {
            if let Ok(g) = graphs(s.context()) {
                g.abort_capture(s.device(), s.handle());
            }
        }
    }
}

impl Stream {
    /// Records what `work` queues on this stream (and on streams that join the capture) into a
    /// [`Graph`], without running it. An error (or panic) inside `work`, or an error making the
    /// graph, ends the capture and drops what was recorded.
    ///
    /// # Errors
    /// [`GraphError::AlreadyCapturing`]; [`GraphError::Refused`] for a default stream (only created
    /// streams are captured); [`Error::Unsupported`] on a backend without graphs; the error
    /// `work` returned (a refusal inside the capture is a [`GraphError::Refused`]).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let buf = s.memalloc(16).unwrap();
    /// let err = s.capture(|s| s.synchronize()).unwrap_err();
    /// assert!(matches!(err, rumba::Error::Graph(rumba::error::GraphError::Refused { .. })));
    /// assert!(!s.is_capturing());
    /// s.memset(&buf, 1).unwrap(); // the stream runs work again
    /// s.synchronize().unwrap();
    /// ```
    pub fn capture<F>(&self, work: F) -> Result<Graph>
    where
        F: FnOnce(&Stream) -> Result<()>,
    {
        self.begin_capture()?;
        let mut abort = Abort(Some(self));
        work(self)?;
        let graph = self.end_capture()?;
        abort.0 = None;
        Ok(graph)
    }

    /// Starts capturing this stream: what is queued on it from now on is recorded, not run,
    /// until [`end_capture`](Stream::end_capture). Prefer [`capture`](Stream::capture), which
    /// also ends the capture after an error.
    ///
    /// # Errors
    /// As [`capture`](Stream::capture), before any work.
    pub fn begin_capture(&self) -> Result<()> {
        // Under a lease of the reset gate: a reset either finished before the capture began (and
        // the count below is after it) or sees the capture and is refused.
        let _lease = Lease::enter()?;
        let ctx = self.context();
        let resets = gate::resets(driver_id(ctx.driver()), ctx.device_id());
        graphs(ctx)?.begin_capture(self.device(), self.handle())?;
        self.inner
            .capture_resets
            .store(resets, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }

    /// Ends the capture this stream began and makes the graph of what it recorded.
    ///
    /// # Errors
    /// [`GraphError::NotCapturing`] when the stream did not begin a capture; the backend's
    /// errors instantiating the graph ([`Error::Driver`]): on CUDA the capture has ended then;
    /// on OpenCL it goes on with nothing lost (call this again; [`capture`](Stream::capture)
    /// ends it).
    pub fn end_capture(&self) -> Result<Graph> {
        let ctx = self.context().clone();
        let handle = graphs(&ctx)?.end_capture(self.device(), self.handle())?;
        let resets = self
            .inner
            .capture_resets
            .load(std::sync::atomic::Ordering::SeqCst);
        Ok(Graph {
            ctx,
            handle,
            origin: self.clone(),
            resets,
        })
    }

    /// Whether this stream is being captured (it began a capture or joined one).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// assert!(!s.is_capturing());
    /// s.capture(|s| { assert!(s.is_capturing()); Ok(()) }).unwrap();
    /// ```
    pub fn is_capturing(&self) -> bool {
        graphs(self.context()).is_ok_and(|g| g.is_capturing(self.device(), self.handle()))
    }

    /// Records `callback` into the graph this stream is captured into: every replay runs it once
    /// the work recorded before it is done, with `Ok(())` or the error of that work. Outside a
    /// capture it is queued once, like [`add_callback`](Stream::add_callback).
    ///
    /// # Errors
    /// [`Error::Unsupported`] on a backend without graphs (inside a capture); the errors of
    /// [`add_callback`](Stream::add_callback).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// let s = rumba::stream().unwrap();
    /// let runs = Arc::new(AtomicUsize::new(0));
    /// let r = Arc::clone(&runs);
    /// let g = s.capture(|s| s.add_graph_callback(move |_| { r.fetch_add(1, Ordering::SeqCst); })).unwrap();
    /// g.launch(&s).unwrap();
    /// g.launch(&s).unwrap();
    /// s.synchronize().unwrap();
    /// assert_eq!(runs.load(Ordering::SeqCst), 2);
    /// ```
    pub fn add_graph_callback<F>(&self, callback: F) -> Result<()>
    where
        F: Fn(Result<()>) + Send + Sync + 'static,
    {
        if self.is_capturing() {
            let callback: GraphCallback = Arc::new(callback);
            return graphs(self.context())?.capture_callback(
                self.device(),
                self.handle(),
                callback,
            );
        }
        self.add_callback(move |_, status| callback(status))
    }
}

impl Graph {
    /// Queues one replay of the graph on `stream`, a stream of the graph's device (it may be
    /// another stream than the one captured).
    ///
    /// # Errors
    /// [`GraphError::OtherDevice`] for a stream of another device (or driver);
    /// [`GraphError::Reset`] after a reset of the graph's context; [`GraphError::Refused`] when
    /// `stream` is being captured; [`Error::ResetInProgress`] on a callback thread during a reset;
    /// the backend's launch errors. A replay that fails partway (on OpenCL, which queues a
    /// command per node) is not undone: the nodes already queued still run, in order, and the
    /// stream's next synchronization waits for them; nothing stays blocked.
    pub fn launch(&self, stream: &Stream) -> Result<()> {
        let sctx = stream.context();
        if sctx.device_id() != self.ctx.device_id()
            || !Arc::ptr_eq(sctx.driver(), self.ctx.driver())
        {
            return Err(GraphError::OtherDevice {
                graph_device: self.ctx.device_id(),
                stream_device: sctx.device_id(),
            }
            .into());
        }
        let _lease = self.lease()?;
        // SAFETY: the graph's memory is alive: captured work keeps its buffers with the graph
        // (driver keep-alives), updates' buffers are in `held`, and no reset freed them (checked
        // under the lease, which keeps a reset out until the replay is queued).
        unsafe {
            graphs(&self.ctx)?.launch_graph(self.ctx.device_id(), self.handle, stream.handle())
        }
    }

    /// The kernel nodes, in the order they were captured (the index is what
    /// [`Kernel::update_graph_node`](crate::kernel::Kernel::update_graph_node) takes).
    ///
    /// # Errors
    /// The backend's errors.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let g = s.capture(|_| Ok(())).unwrap();
    /// assert!(g.kernel_nodes().unwrap().is_empty());
    /// ```
    pub fn kernel_nodes(&self) -> Result<Vec<KernelNode>> {
        graphs(&self.ctx)?.kernel_nodes(self.ctx.device_id(), self.handle)
    }

    /// The context the graph was captured in.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// The raw handle.
    pub fn handle(&self) -> GraphHandle {
        self.handle
    }

    /// The stream the capture began on.
    pub(crate) fn origin(&self) -> &Stream {
        &self.origin
    }

    /// A lease of the reset gate, after checking that no reset freed the graph's memory.
    pub(crate) fn lease(&self) -> Result<Lease> {
        let lease = Lease::enter()?;
        let device = self.ctx.device_id();
        if gate::resets(driver_id(self.ctx.driver()), device) != self.resets {
            return Err(GraphError::Reset { device }.into());
        }
        Ok(lease)
    }

    /// Gives kernel node `node` the arguments of `launch`; `keep` (their memory) stays with the
    /// node until it is updated again and no replay that used it is queued or running.
    ///
    /// # Safety
    /// As [`Graphs::set_kernel_node`]; the caller holds a [`lease`](Graph::lease).
    pub(crate) unsafe fn set_kernel_node(
        &self,
        node: usize,
        launch: &crate::driver::KernelLaunch<'_>,
        keep: Box<dyn Any + Send>,
    ) -> Result<()> {
        // SAFETY: forwarded; `keep` holds the arguments' memory with the node.
        unsafe {
            graphs(&self.ctx)?.set_kernel_node(
                self.ctx.device_id(),
                self.handle,
                node,
                launch,
                keep,
            )
        }
    }
}

impl Drop for Graph {
    fn drop(&mut self) {
        let (driver, device, handle) = (
            Arc::clone(self.ctx.driver()),
            self.ctx.device_id(),
            self.handle,
        );
        self.ctx.release_or_defer(
            format!("graph 0x{:x}", handle.0),
            Box::new(move || match driver.graphs() {
                Some(g) => g.destroy_graph(device, handle),
                None => Ok(()),
            }),
        );
    }
}
