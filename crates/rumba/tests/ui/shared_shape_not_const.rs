use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>) { let n = a.len(); let s = t.shared_array::<f32>(n); a[t.grid1()] = s[0]; }

fn main() {}
