use rumba::kernel::prelude::*;

#[kernel]
fn k<T>(t: &Thread, a: &mut Arr<f32>) { a[t.grid1()] = 1.0; }

fn main() {}
