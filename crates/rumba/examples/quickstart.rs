//! The README's example: a device array, a strided assignment and a `#[rumba::kernel]` launched
//! on a stream — the same kernel source on the simulated GPU, on CUDA and on OpenCL
//! (`RUMBA_BACKEND=opencl cargo run -p rumba --example quickstart`).

use rumba::kernel::prelude::*;
use rumba::ndarray::Array1;
use rumba::prelude::*;

/// Doubles every element: one Rust function, compiled by the macro to a simulator body, CUDA C
/// and OpenCL C.
#[rumba::kernel]
fn twice(t: &Thread, x: &mut Arr<f32>) {
    let i = t.grid1();
    if i < x.len() {
        x[i] *= 2.0;
    }
}

fn main() -> rumba::Result<()> {
    let a = to_device(&Array1::from_iter(0..8).mapv(|x| x as f32))?; // host -> device
    a.slice(s![..;2])?.assign(-1.0f32)?; // strided assignment on the device
    let s = stream()?;
    twice().configure(1, 32).stream(&s).launch((&a,))?; // asynchronous on `s`
    s.synchronize()?;
    println!("{}", a.copy_to_host()?); // [-2, 2, -2, 6, -2, 10, -2, 14]
    assert!(twice::OPENCL_SOURCE.contains("__kernel void twice("));
    Ok(())
}
