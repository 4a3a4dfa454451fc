use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<i32>) { println!("hi"); a[t.grid1()] = 1; }

fn main() {}
