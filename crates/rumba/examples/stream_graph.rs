//! Stream graphs: capture a step of work once — kernel launches, a device copy, a memset of a
//! scratch array the graph owns — and replay it many times, then point its kernel node at other
//! arrays. Checks its own results against the same work queued one by one
//! (`cargo run -p rumba --example stream_graph`).

use rumba::kernel::prelude::*;

/// `x[i] = x[i] * a + b`.
#[kernel]
fn scale_add(t: &Thread, x: &mut Arr<f32>, a: f32, b: f32) {
    let i = t.grid1();
    if i < x.len() {
        x[i] = x[i] * a + b;
    }
}

/// `out[i] += x[i]`.
#[kernel]
fn accumulate(t: &Thread, out: &mut Arr<f32>, x: &Arr<f32>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = out[i] + x[i];
    }
}

const N: usize = 1024;
const BLOCKS: u32 = (N as u32).div_ceil(256);

fn main() -> rumba::Result<()> {
    let s = rumba::stream()?;
    let start = ndarray::Array1::from_shape_fn(N, |i| i as f32);
    let (x, total) = (
        rumba::to_device(&start)?,
        rumba::device_array::<f32, _>(N, rumba::Order::C)?,
    );
    let (x1, total1) = (
        rumba::to_device(&start)?,
        rumba::device_array::<f32, _>(N, rumba::Order::C)?,
    );
    let step = |s: &rumba::Stream,
                x: &rumba::DeviceArray<f32, ndarray::Ix1>,
                total|
     -> rumba::Result<()> {
        let scratch = rumba::device_array::<f32, _>(N, rumba::Order::C)?; // belongs to the graph
        s.memset(scratch.buffer(), 0)?;
        scale_add()
            .configure(BLOCKS, 256)
            .stream(s)
            .launch((x, 0.5f32, 1.0f32))?;
        s.copy(&scratch, x)?;
        accumulate()
            .configure(BLOCKS, 256)
            .stream(s)
            .launch((total, &scratch))
    };

    let graph = s.capture(|s| step(s, &x, &total))?;
    for _ in 0..50 {
        graph.launch(&s)?; // one queue entry per replay on the simulator
        step(&s, &x1, &total1)?; // the same work, queued one operation at a time
    }
    s.synchronize()?;
    assert_eq!(x.copy_to_host()?, x1.copy_to_host()?);
    assert_eq!(total.copy_to_host()?, total1.copy_to_host()?);

    // The kernel node takes other arrays of the same shape, and other scalars.
    let other = rumba::to_device(&ndarray::Array1::from_elem(N, 4.0f32))?;
    scale_add().update_graph_node(&graph, 0, (&other, 0.25f32, 0.0f32))?;
    graph.launch(&s)?;
    s.synchronize()?;
    assert!(other.copy_to_host()?.iter().all(|&v| v == 1.0));
    println!(
        "{} kernel nodes replayed 51 times; results equal to queuing one by one",
        graph.kernel_nodes()?.len()
    );
    Ok(())
}
