use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { a[t.grid1()] = undefined_thing; }

fn main() {}
