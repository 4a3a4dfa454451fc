use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &Arr<Complex<f64>>, b: &mut Arr<f64>) {
    let i = t.grid1();
    b[i] = a[i] as f64;
}

fn main() {}
