use rumba::kernel::prelude::*;

#[device]
fn helper(t: &Thread, x: f32) -> f32 { t.syncthreads(); x }

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let i = t.grid1(); a[i] = helper(t, a[i]); }

fn main() {}
