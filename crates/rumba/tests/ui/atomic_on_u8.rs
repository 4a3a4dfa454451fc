use rumba::kernel::prelude::*;

#[kernel]
fn k(t: &Thread, a: &mut Arr<u8>) { a.atomic_add(0, 1); }

fn main() {}
