use rumba::kernel::prelude::*;

// `Number` admits the integers, which have no `sqrt`: the error names the instance and the bound.
#[kernel]
fn roots<T: Number>(t: &Thread, a: &mut Arr<T>) {
    let i = t.grid1();
    a[i] = a[i].sqrt();
}

// A device function's const parameter would be one `#define` for the whole program.
#[device]
fn scaled<const N: usize>(x: f32) -> f32 { x * N as f32 }

// The bound admits nothing, and the call admits no `i32`: a Rust error at the call.
#[kernel]
fn empty<T: Float + Int>(t: &Thread, a: &mut Arr<T>) { a[t.grid1()] = a[t.grid1()]; }

#[kernel]
fn halves<T: Float>(t: &Thread, a: &mut Arr<T>) { let i = t.grid1(); a[i] = a[i] / 2.0; }

fn main() {
    let _ = halves::<i32>();
}
