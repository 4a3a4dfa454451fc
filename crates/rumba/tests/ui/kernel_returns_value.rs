use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) -> f32 { a[t.grid1()] = 1.0; 0.0 }

fn main() {}
