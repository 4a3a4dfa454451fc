use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<u32>) { t.barrier(3); a[0] = 1; }

fn main() {}
