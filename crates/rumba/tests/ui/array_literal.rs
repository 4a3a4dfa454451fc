use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let v = [1.0f32, 2.0]; a[t.grid1()] = 1.0; }

fn main() {}
