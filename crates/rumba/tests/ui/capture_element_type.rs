use rumba::kernel::prelude::*;

static TABLE: Captured<f32> = Captured::new();

// The cell holds `f32` arrays; the kernel declares `u8`: a type error at the declaration.
#[kernel(capture(TABLE: &Arr<u8>))]
fn wrong_element(t: &Thread, out: &mut Arr<u8>) {
    let i = t.grid1();
    out[i] = TABLE[i];
}

fn main() {}
