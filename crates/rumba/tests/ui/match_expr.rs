use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<i32>) { let i = t.grid1(); a[i] = match i { 0 => 1, _ => 2 }; }

fn main() {}
