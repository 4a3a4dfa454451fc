use rumba::kernel::prelude::*;

static TABLE: Captured<f32> = Captured::new();
static LUT: Captured<u8> = Captured::new();

// Written through a read-only capture; a static indexed without being captured.
#[kernel(capture(TABLE: &Arr<f32>))]
fn writes_read_only(t: &Thread) {
    let i = t.grid1();
    TABLE[i] = LUT[i] as f32;
}

// A capture is a device array, not constant memory; each name once, unlike a parameter's.
#[kernel(capture(TABLE: &ConstArr<f32>, LUT: &Arr<u8>, LUT: &Arr<u8>))]
fn bad_declarations(t: &Thread, out: &mut Arr<f32>) {
    out[t.grid1()] = 0.0;
}

#[kernel(captures(TABLE: &Arr<f32>))]
fn unknown_argument(t: &Thread) {
    let _ = t.grid1();
}

// Device functions do not capture: the kernel captures and passes the array on.
#[device(capture(TABLE: &Arr<f32>))]
fn declared_on_a_device_fn(i: usize) -> f32 {
    i as f32
}

#[device]
fn used_in_a_device_fn(i: usize) -> f32 {
    TABLE[i]
}

fn main() {}
