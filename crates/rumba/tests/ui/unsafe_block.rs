use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { unsafe { a[t.grid1()] = 1.0; } }

fn main() {}
