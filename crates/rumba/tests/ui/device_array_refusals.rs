use rumba::kernel::prelude::*;

#[device]
fn scale(a: &mut Arr<f32>, k: f32) { a[0] *= k; }

// A device function writes only what it takes `&mut`.
#[device]
fn ro_write(a: &Arr<f32>) { a[0] = 1.0; }

// A read-only array cannot go to a `&mut Arr` parameter: the Rust form says so at the call.
#[kernel]
fn k(t: &Thread, x: &Arr<f32>, c: &ConstArr<f32>) {
    if t.grid1() == 0 {
        scale(x, 2.0f32);
        scale(c, 2.0f32);
    }
}

fn main() {}
