use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<Complex<f32>>) {
    let i = t.grid1();
    a[i] = a[i] * 2.0f32;
}

fn main() {}
