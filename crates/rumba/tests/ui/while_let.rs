use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { while let Some(x) = None::<f32> { a[t.grid1()] = x; } }

fn main() {}
