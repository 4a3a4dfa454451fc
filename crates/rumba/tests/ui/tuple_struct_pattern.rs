use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let Some(x) = Some(1.0f32) else { return; }; a[t.grid1()] = x; }

fn main() {}
