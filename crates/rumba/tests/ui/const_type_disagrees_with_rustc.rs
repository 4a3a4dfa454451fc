use rumba::kernel::prelude::*;

const N: u32 = 4;
#[kernel]
fn k2(t: &Thread, a: &mut Arr<f32>) { let i = t.grid1(); if i < N { a[i] = 1.0; } }

fn main() {}
