use rumba::kernel::prelude::*;

#[rumba::kernel::record]
pub struct Pair {
    pub lo: f32,
    pub hi: f32,
}

// In-kernel views are supported; these uses are not: writing through a view of a read-only
// `&Arr`, reinterpreting records, a literal reshape of another size, a run-time axis, two
// inferred extents, a view indexed with the wrong rank, and a chained view.
#[kernel]
fn k(t: &Thread, a: &Arr<f32>, b: &mut Arr<u8>, n: usize) {
    let w = a.view::<u32>();
    w[0] = 1;
    let r = b.view::<Pair>();
    let s = t.shared_array::<f32>((4, 4));
    let m = s.reshape((3, 5));
    let c = s.index_axis(n, 0);
    let l = t.local_array::<i32>(8);
    let row = l.reshape((-1, -1));
    let f = s.reshape(16);
    let g = f[(0, 1)];
    let h = b.reshape((2, 4)).view::<u16>();
}

fn main() {}
