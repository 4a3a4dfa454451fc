//! The errors of stream graphs: capturing a stream into a graph, replaying it, and updating the
//! arguments of its kernel nodes.

use thiserror::Error;

/// Why a stream-graph operation was refused. Nothing was queued or recorded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GraphError {
    /// An operation that cannot be part of a graph, or that would wait for the host, issued on
    /// (or about) a stream that is being captured: synchronizing, copying to or from host memory,
    /// a one-shot host callback, a kernel launch with host arguments.
    #[error(
        "{operation} is not allowed while stream 0x{stream:x} is being captured into a graph: {reason}; nothing was recorded"
    )]
    Refused {
        /// What was called.
        operation: String,
        /// The capturing stream.
        stream: u64,
        /// Why it cannot be part of a graph.
        reason: &'static str,
    },
    /// Beginning a capture on a stream that is already being captured.
    #[error("stream 0x{stream:x} is already being captured into a graph")]
    AlreadyCapturing {
        /// The stream.
        stream: u64,
    },
    /// Ending a capture on a stream that is not being captured (or that only joined another
    /// stream's capture).
    #[error("stream 0x{stream:x} is not the origin of a graph capture")]
    NotCapturing {
        /// The stream.
        stream: u64,
    },
    /// Waiting, inside a capture, for an event that was last recorded outside it.
    #[error(
        "stream 0x{stream:x} cannot wait for event 0x{event:x} inside a graph capture: the event was last recorded outside the capture"
    )]
    ExternalEvent {
        /// The waiting stream.
        stream: u64,
        /// The event.
        event: u64,
    },
    /// Replaying a graph on a stream of another device.
    #[error(
        "a graph captured on device {graph_device} cannot be launched on a stream of device {stream_device}"
    )]
    OtherDevice {
        /// The device the graph was captured on.
        graph_device: usize,
        /// The device of the stream it was launched on.
        stream_device: usize,
    },
    /// Replaying (or updating) a graph after a reset of its context freed the memory it uses.
    #[error(
        "the graph was captured on device {device} before a reset of its context, which freed the memory it uses: capture it again"
    )]
    Reset {
        /// The device.
        device: usize,
    },
    /// A kernel-node index past the graph's kernel nodes.
    #[error("the graph has {count} kernel node(s); there is no kernel node {node}")]
    NoSuchNode {
        /// The index asked for.
        node: usize,
        /// Kernel nodes in the graph.
        count: usize,
    },
    /// Updating a kernel node with the arguments of another kernel.
    #[error("kernel node {node} launches '{captured}', not '{given}'")]
    OtherKernel {
        /// The node.
        node: usize,
        /// The kernel captured in it.
        captured: String,
        /// The kernel the new arguments are for.
        given: String,
    },
    /// A new argument of a kernel node that differs from the captured one in kind, element size
    /// or shape.
    #[error(
        "argument {position} of kernel node {node} ('{kernel}') was captured as {captured}; the update gives {given}"
    )]
    ArgumentMismatch {
        /// The node.
        node: usize,
        /// Its kernel.
        kernel: String,
        /// The argument's position.
        position: usize,
        /// The captured argument, described.
        captured: String,
        /// The new argument, described.
        given: String,
    },
}
