use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let (x, y) = t.grid2(); a[(y, x)] = 1.0; a[x] = 2.0; }

fn main() {}
