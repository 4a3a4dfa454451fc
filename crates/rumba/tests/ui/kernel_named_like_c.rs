use rumba::kernel::prelude::*;

#[kernel]
fn double(t: &Thread, a: &mut Arr<f32>) { a[t.grid1()] *= 2.0; }

fn main() {}
