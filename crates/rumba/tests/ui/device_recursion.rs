use rumba::kernel::prelude::*;

#[device]
fn fact(n: u64) -> u64 { if n == 0 { 1 } else { n * fact(n - 1) } }

#[kernel]
fn k(t: &Thread, a: &mut Arr<u64>) { let i = t.grid1(); a[i] = fact(a[i]); }

fn main() {}
