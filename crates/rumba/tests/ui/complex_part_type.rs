use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<Complex<i32>>) {
    let i = t.grid1();
    a[i] = a[i] + a[i];
}

fn main() {}
