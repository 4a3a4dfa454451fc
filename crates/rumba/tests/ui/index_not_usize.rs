use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let i = t.thread_idx().x; a[i] = 1.0; }

fn main() {}
