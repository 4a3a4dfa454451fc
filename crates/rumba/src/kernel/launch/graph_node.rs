//! Kernel launches and stream graphs: the refusal of a launch that would wait inside a capture,
//! and new arguments for a graph's kernel node ([`Kernel::update_graph_node`]).

use super::args::{LaunchArgs, Plan};
use super::kernel::{Kernel, check_signature};
use super::params::Params;
use crate::driver::KernelLaunch;
use crate::driver::graph::refused;
use crate::error::{GraphError, Result};
use crate::stream::{Graph, Stream};

/// A launch that waits for its kernel (host-array arguments copied back, or addressed directly)
/// cannot be captured: refused before it is queued.
pub(super) fn refuse_waiting_launch(kernel: &str, plan: &Plan<'_>, stream: &Stream) -> Result<()> {
    if (plan.wait || !plan.after.is_empty()) && stream.is_capturing() {
        return Err(refused(
            format!("the launch of kernel '{kernel}' with host arrays"),
            stream.handle(),
            "the launch waits for the kernel; pass device arrays",
        ));
    }
    Ok(())
}

impl<P: Params> Kernel<P> {
    /// Gives kernel node `node` of `graph` (an index into [`Graph::kernel_nodes`]) new
    /// arguments: other device arrays of the same shapes and element types, other scalar values.
    /// Replays queued from now on use them; the node holds the new arrays (and lets the old ones
    /// go once the replays that used them have run). The kernel's geometry stays as captured.
    ///
    /// # Errors
    /// [`GraphError::NoSuchNode`]; [`GraphError::OtherKernel`] when the node launches another
    /// kernel; [`GraphError::ArgumentMismatch`] naming the argument, what was captured and what
    /// was given; [`GraphError::Refused`] for host-array arguments; [`GraphError::Reset`] after a
    /// reset of the graph's context; the argument errors of a launch. After an error the node is
    /// unchanged.
    ///
    /// ```
    /// use rumba::kernel::prelude::*;
    /// #[kernel]
    /// fn fill(t: &Thread, out: &mut Arr<f32>, v: f32) {
    ///     let i = t.grid1();
    ///     if i < out.len() { out[i] = v; }
    /// }
    /// # fn main() {
    /// let s = rumba::stream().unwrap();
    /// let (a, b) = (rumba::device_array::<f32, _>(8, rumba::Order::C).unwrap(),
    ///               rumba::device_array::<f32, _>(8, rumba::Order::C).unwrap());
    /// let k = fill();
    /// let g = s.capture(|s| k.configure(1, 8).stream(s).launch((&a, 1.0f32))).unwrap();
    /// k.update_graph_node(&g, 0, (&b, 2.0f32)).unwrap();
    /// g.launch(&s).unwrap();
    /// s.synchronize().unwrap();
    /// assert_eq!(b.copy_to_host().unwrap().to_vec(), [2.0; 8]);
    /// let short = rumba::device_array::<f32, _>(4, rumba::Order::C).unwrap();
    /// assert!(k.update_graph_node(&g, 0, (&short, 2.0f32)).is_err());
    /// # }
    /// ```
    pub fn update_graph_node<A: LaunchArgs<P>>(
        &self,
        graph: &Graph,
        node: usize,
        args: A,
    ) -> Result<()> {
        let nodes = graph.kernel_nodes()?;
        let count = nodes.len();
        let captured = nodes
            .into_iter()
            .nth(node)
            .ok_or(GraphError::NoSuchNode { node, count })?;
        if captured.name != self.function.name {
            return Err(GraphError::OtherKernel {
                node,
                captured: captured.name,
                given: self.function.name.clone(),
            }
            .into());
        }
        let stream = graph.origin().clone();
        let device = stream.context().device_id();
        let captured_arrays = self
            .captures
            .iter()
            .map(|c| c.take(&self.function.name, device))
            .collect::<Result<Vec<_>>>()?;
        let mut plan =
            Plan::new(&stream, self.transfer, self.function.abi())?.device_only(format!(
                "the update of kernel node {node} ('{}')",
                self.function.name
            ));
        args.prepare_all(&mut plan)?;
        for t in &captured_arrays {
            t.add_to(&mut plan)?;
        }
        if plan.wait || !plan.after.is_empty() {
            return Err(refused(
                format!("a host array as an argument of kernel node {node}"),
                stream.handle(),
                "a graph's kernel takes device arrays",
            ));
        }
        if let Some(abi) = self.function.abi() {
            check_signature(abi, &plan.args)?;
        }
        let launch = KernelLaunch {
            function: &self.function,
            grid: captured.grid,
            block: captured.block,
            dynamic_shared_bytes: captured.dynamic_shared_bytes,
            args: &plan.args,
        };
        let _lease = graph.lease()?;
        let keep = Box::new(std::mem::take(&mut plan.keep));
        // SAFETY: every array argument is a live device array of the graph's device (checked by
        // the plan under its lease, which — with the graph's — keeps a reset out until the node
        // holds them); `keep` holds their buffers with the node.
        unsafe { graph.set_kernel_node(node, &launch, keep) }
    }
}
