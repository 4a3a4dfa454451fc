use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &Arr<f32>) { a[t.grid1()] = 1.0; }

fn main() {}
