use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &Arr<f32>, b: &mut Arr<f32>) { let i = t.grid1(); b[i] = a.get(i); }

fn main() {}
