use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<i32>) { a[1..3] = 0; }

fn main() {}
