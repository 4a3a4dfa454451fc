use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { static X: f32 = 1.0; a[t.grid1()] = 1.0; }

fn main() {}
