use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>, n: i32) { let i = t.grid1(); a[i] = a[i] + n; }

fn main() {}
