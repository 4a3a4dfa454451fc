use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<i32>) { for x in [1, 2, 3] { a[t.grid1()] = x; } }

fn main() {}
