use rumba::kernel::prelude::*;

#[record]
pub struct Rec {
    pub a: f64,
    pub v: [f32; 2],
    pub b: u32,
    pub c: u32,
}

// Record fields are numbers or one-dimensional arrays of them: no `bool`, no arrays of arrays,
// no `String`.
#[record]
pub struct Bad {
    pub flag: bool,
    pub m: [[f32; 2]; 2],
    pub s: String,
}

// `..` in a literal, an array literal for a sub-array field, a field of a number, a field of a
// field.
#[kernel]
fn k(t: &Thread, a: &mut Arr<Rec>, x: &mut Arr<f32>) {
    let i = t.grid1();
    let r = Rec { a: 1.0, ..a[0] };
    let s = Rec { a: 1.0, v: [0.0, 1.0], b: 0, c: 0 };
    x[i].re = 1.0;
    a[i].v.len = 2;
}

// A struct that is not a `#[rumba::record]` has no C form: rustc says so at the literal.
struct Plain { x: f32 }
#[kernel]
fn k2(t: &Thread, a: &mut Arr<f32>) { let p = Plain { x: 1.0 }; a[t.grid1()] = p.x; }

fn main() {}
