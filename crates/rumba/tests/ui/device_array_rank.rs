use rumba::kernel::prelude::*;

#[device]
fn corner(m: &Arr<f32>) -> f32 { m[(0, 0)] }

// `y` is indexed with one component here and two in `corner`: a compile error at the call.
#[kernel]
fn k(t: &Thread, y: &mut Arr<f32>) {
    let i = t.grid1();
    y[i] = corner(y);
}

fn main() {}
