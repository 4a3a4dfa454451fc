use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let f = |x: f32| x + 1.0; a[t.grid1()] = 1.0; }

fn main() {}
