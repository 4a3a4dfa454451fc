use rumba::kernel::prelude::*;

#[record]
struct R { a: f32, b: f32 }
#[kernel]
fn k2(t: &Thread, r: R, out: &mut Arr<u32>) { let v = r.a; out[t.grid1()] = 1; }

fn main() {}
