use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<i32>) { let i = t.grid1(); a[i] = Some(1)?; }

fn main() {}
