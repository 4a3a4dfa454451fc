use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let i = t.grid1(); a[i] = if i < 4 { 1.0f32 } else { 2.0f64 }; }

fn main() {}
