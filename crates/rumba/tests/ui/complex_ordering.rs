use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &Arr<Complex<f32>>, b: &mut Arr<u8>) {
    let i = t.grid1();
    if a[i] < a[0] {
        b[i] = 1;
    }
}

fn main() {}
