use rumba::kernel::prelude::*;

// Slices take `s![…]`; a shared array's rank is known, so too many components is a compile
// error; bounds are `isize` or `usize`; a step belongs to a range; ranges are half-open; arrays
// have at most six dimensions.
#[kernel]
fn k(t: &Thread, a: &mut Arr<f32>, k: i32) {
    let s = t.shared_array::<f32>((4, 4));
    let x = s.slice(s![1, 2, 3]);
    let y = a.slice(1..2);
    let z = a.slice(s![k..]);
    let w = a.slice(s![1;2]);
    let v = a.slice(s![0..=2]);
    let l = t.local_array::<f32>((1, 1, 1, 1, 1, 1, 1));
}

fn main() {}
