use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<i32>) { 'outer: for i in 0..4usize { for j in 0..4usize { if i == j { break 'outer; } } } a[t.grid1()] = 1; }

fn main() {}
