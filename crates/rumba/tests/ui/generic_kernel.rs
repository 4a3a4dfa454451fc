use rumba::kernel::prelude::*;

// A type parameter needs one of rumba's numeric bounds; other bounds and lifetimes are refused.
#[kernel]
fn k<T, U: Copy, 'a>(t: &Thread, a: &mut Arr<f32>) { a[t.grid1()] = 1.0; }

fn main() {}
