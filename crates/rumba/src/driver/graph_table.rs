//! The instantiated graphs of a driver, by handle ([`GraphTable`], every backend's), and the graph
//! of a driver that replays its captures itself ([`OwnGraph`], the sim's and OpenCL's).
//!
//! A graph belongs to one device: a handle looked up with another device finds nothing. The
//! table hands out `Arc`s, so a replay queued before the graph was destroyed keeps it until the
//! replay has run.
//!
//! This module touches only its own tables.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::capture::Recording;
use super::graph::{CapturedNode, kernel_nodes, kernel_position};
use super::replay_chain::ReplayChain;
use super::{EventHandle, GraphHandle, KernelLaunch, KernelNode};
use crate::error::Result;
use crate::sync::lock;

/// The live graphs of one driver: handle → (device, graph).
pub(crate) struct GraphTable<G> {
    graphs: Mutex<HashMap<u64, (usize, Arc<G>)>>,
    next: AtomicU64,
}

impl<G> Default for GraphTable<G> {
    fn default() -> Self {
        GraphTable {
            graphs: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
        }
    }
}

impl<G> GraphTable<G> {
    /// Adds `graph`, a graph of `device`, under a new handle.
    pub(crate) fn insert(&self, device: usize, graph: G) -> GraphHandle {
        let handle = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        lock(&self.graphs).insert(handle, (device, Arc::new(graph)));
        GraphHandle(handle)
    }

    /// Graph `handle` of `device`, if it is live.
    pub(crate) fn get(&self, device: usize, handle: GraphHandle) -> Option<Arc<G>> {
        lock(&self.graphs)
            .get(&handle.0)
            .filter(|(d, _)| *d == device)
            .map(|(_, g)| Arc::clone(g))
    }

    /// Takes graph `handle` of `device` out of the table, if it is live (replays queued before
    /// hold it still).
    pub(crate) fn remove(&self, device: usize, handle: GraphHandle) -> Option<Arc<G>> {
        let mut graphs = lock(&self.graphs);
        match graphs.get(&handle.0) {
            Some((d, _)) if *d == device => graphs.remove(&handle.0).map(|(_, g)| g),
            _ => None,
        }
    }
}

/// What a replay of an [`OwnGraph`] runs: made of the recorded nodes, which it gives back.
pub(crate) trait GraphBody {
    /// A recorded node.
    type Node: CapturedNode + Clone;
    /// The body of `nodes`.
    fn of(nodes: Vec<Self::Node>) -> Arc<Self>;
    /// Its nodes, in capture order.
    fn nodes(&self) -> &[Self::Node];
}

/// The recorded nodes themselves, run in order.
impl<N: CapturedNode + Clone> GraphBody for Vec<N> {
    type Node = N;
    fn of(nodes: Vec<N>) -> Arc<Self> {
        Arc::new(nodes)
    }
    fn nodes(&self) -> &[N] {
        self
    }
}

/// A graph that its driver replays itself.
pub(crate) struct OwnGraph<B> {
    /// What a replay runs. An update of a kernel node swaps in a new body; replays already
    /// queued keep the one they started with (and with it what it holds).
    pub(crate) body: Mutex<Arc<B>>,
    /// Events recorded inside the capture: each replay records them after its work.
    pub(crate) events: Vec<EventHandle>,
    /// What the captured work keeps alive; every queued replay holds it too.
    pub(crate) keep: Arc<Mutex<Vec<Box<dyn Any + Send>>>>,
    /// The order of the graph's replays.
    pub(crate) chain: ReplayChain,
}

impl<B: GraphBody> OwnGraph<B> {
    /// The graph of what a capture recorded.
    pub(crate) fn of(recording: Recording<B::Node>) -> Self {
        let Recording {
            nodes,
            keep,
            events,
            ..
        } = recording;
        OwnGraph {
            body: Mutex::new(B::of(nodes)),
            events,
            keep: Arc::new(Mutex::new(keep)),
            chain: ReplayChain::default(),
        }
    }

    /// The body that replays queued from now on run.
    pub(crate) fn body(&self) -> Arc<B> {
        Arc::clone(&lock(&self.body))
    }

    /// The kernel nodes, in capture order ([`Graphs::kernel_nodes`](super::Graphs::kernel_nodes)).
    pub(crate) fn kernel_nodes(&self) -> Vec<KernelNode> {
        kernel_nodes(self.body().nodes())
    }

    /// Replaces kernel node `node` (an index into [`kernel_nodes`](Self::kernel_nodes)) with the
    /// node `make` builds from the current one, once `launch` is known to be a valid update of it
    /// ([`check_update`](super::check_update)) and `make` succeeded; the graph is unchanged
    /// otherwise. `make` runs under the graph's lock, so concurrent updates see each other's
    /// nodes. Replays queued from now on run the new node; those already queued keep the body
    /// they started with (and with it the old node and what it holds).
    ///
    /// # Errors
    /// As [`check_update`](super::check_update); `make`'s error.
    pub(crate) fn update_kernel(
        &self,
        node: usize,
        launch: &KernelLaunch<'_>,
        make: impl FnOnce(&B::Node) -> Result<B::Node>,
    ) -> Result<()> {
        let mut current = lock(&self.body);
        let at = kernel_position(current.nodes(), node, launch)?;
        let new = make(&current.nodes()[at])?;
        let mut nodes = current.nodes().to_vec();
        nodes[at] = new;
        *current = B::of(nodes);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_is_found_on_its_own_device_only_until_removed() {
        let t: GraphTable<&str> = GraphTable::default();
        let a = t.insert(0, "a");
        let b = t.insert(1, "b");
        assert_ne!(a, b);
        assert_eq!(t.get(0, a).as_deref(), Some(&"a"));
        assert!(t.get(1, a).is_none(), "another device's handle");
        assert!(t.remove(0, b).is_none(), "removed through another device");
        assert_eq!(t.remove(1, b).as_deref(), Some(&"b"));
        assert!(t.get(1, b).is_none() && t.remove(1, b).is_none());
    }
}
