use rumba::kernel::prelude::*;

// `f16` elements are supported; these uses of them are not: atomics, `as`, float literals,
// math beyond `min` / `max` / `is_nan`, and `f16` record fields.
#[kernel]
fn k(t: &Thread, a: &mut Arr<f16>, x: f32) {
    a.atomic_add(0, f16::ONE);
    a[1] = x as f16;
    a[2] = a[3] + 1.0;
    a[4] = a[5].sqrt();
    let y = a[6] as f32;
}

#[record]
struct R {
    h: f16,
}

fn main() {}
