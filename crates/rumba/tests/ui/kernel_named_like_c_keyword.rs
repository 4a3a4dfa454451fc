use rumba::kernel::prelude::*;

#[kernel]
fn double(t: &Thread, a: &mut Arr<f32>) {
    a[t.grid1()] *= 2.0;
}

#[kernel]
fn rb_scale(t: &Thread, a: &mut Arr<f32>) {
    a[t.grid1()] *= 3.0;
}

fn main() {}
