use rumba::kernel::prelude::*;

struct P { x: f32 }
#[kernel]
fn k2(t: &Thread, a: &mut Arr<f32>) { let p = P { x: 1.0 }; a[t.grid1()] = 1.0; }

fn main() {}
