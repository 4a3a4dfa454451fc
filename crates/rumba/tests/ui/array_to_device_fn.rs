use rumba::kernel::prelude::*;

#[device]
fn helper(a: &Arr<f32>) -> f32 { a[0] }

fn main() {}
