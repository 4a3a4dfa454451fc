use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let i = t.grid1(); a[i] = a[i].clamp(0.0, 1.0); }

fn main() {}
