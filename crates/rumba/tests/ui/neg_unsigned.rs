use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<u32>) { let i = t.grid1(); a[i] = -a[i]; }

fn main() {}
