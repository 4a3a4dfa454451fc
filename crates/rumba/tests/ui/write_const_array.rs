use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, c: &ConstArr<f32>) { c[t.grid1()] = 1.0; }

fn main() {}
