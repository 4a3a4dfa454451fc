use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<i32>) { let i = t.grid1(); let r = &i; a[i] = 1; }

fn main() {}
