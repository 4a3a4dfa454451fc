use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let x: f32 = 1; a[t.grid1()] = x; }

fn main() {}
