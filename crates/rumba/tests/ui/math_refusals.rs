use rumba::kernel::prelude::*;

// A math function on an integer, an intrinsic on a float, `mul_hi` on a narrow integer,
// `byte_perm` on a signed one, an exponent of the wrong type, a real-only function on a complex
// number and a complex-only one on a float: each refused at its span.
#[kernel]
fn k(t: &Thread, a: &mut Arr<i32>, f: &mut Arr<f32>, b: &mut Arr<u8>) {
    let i = t.grid1();
    a[i] = a[i].erf();
    f[i] = f[i].count_ones() as f32;
    b[i] = b[i].mul_hi(3);
    a[i] = a[i].byte_perm(1, 2) as i32;
    f[i] = f[i].ldexp(2.0);
    let z = Complex::new(1.0f32, 2.0);
    f[i] = z.erf().re;
    f[i] = f[i].norm();
}

fn main() {}
