//! Records in kernels: field assignment (`a[i].b = v`), record literals, records as locals and
//! device-function arguments, sub-array fields `[T; N]` and fixed-length byte strings `[u8; N]`
//! — after Numba's `test_record_dtype.py` (`set_a`, `set_b`, `set_record`, `record_set_a`,
//! `record_read_a`, `record_write_array`, `record_read_array`, `set_charseq` / `get_charseq`).

use rumba::kernel::prelude::*;

/// Numba's `recordtype` (its complex and string members aside): `a`, `b`, `c`.
#[record]
pub struct Rec {
    pub a: f64,
    pub b: i32,
    pub c: u32,
}

/// Numba's `recordwitharray`: an `int32` and a two-element `float32` array.
#[record]
pub struct WithArray {
    pub h: [f32; 2],
    pub g: i32,
    pub pad: u32,
}

/// Numba's `recordwithcharseq`: an `int32` and a fixed-length byte string.
#[record]
pub struct WithChars {
    pub m: i32,
    pub n: [u8; 4],
}

/// `set_a`: `ary[i].a = v`.
#[kernel]
pub fn set_a(t: &Thread, ary: &mut Arr<Rec>, i: usize, v: f64) {
    if t.grid1() == 0 {
        ary[i].a = v;
    }
}

/// `set_b`: `ary[i].b = v`.
#[kernel]
pub fn set_b(t: &Thread, ary: &mut Arr<Rec>, i: usize, v: i32) {
    if t.grid1() == 0 {
        ary[i].b = v;
    }
}

/// `set_record`: `ary[i] = ary[j]`.
#[kernel]
pub fn set_record(t: &Thread, ary: &mut Arr<Rec>, i: usize, j: usize) {
    if t.grid1() == 0 {
        ary[i] = ary[j];
    }
}

/// Each thread writes one field of its own element (the other fields are kept, field by field
/// from several threads: only a field's bytes are written), with literals of the fields'
/// types and a compound update.
#[kernel]
pub fn fields_per_thread(t: &Thread, ary: &mut Arr<Rec>) {
    let i = t.grid1();
    let k = i / 3;
    if k < ary.len() {
        if i % 3 == 0 {
            ary[k].a = 0.1;
        } else if i % 3 == 1 {
            ary[k].b = -3;
        } else {
            ary[k].c += k as u32;
        }
    }
}

/// A record literal, a record local whose fields are assigned, and a record passed to and
/// returned from a device function.
#[device]
pub fn bumped(r: Rec, by: i32) -> Rec {
    let mut out = r;
    out.b = r.b + by;
    out
}

/// `record_set_a` / `record_read_a` on a local record.
#[kernel]
pub fn records_as_values(t: &Thread, out: &mut Arr<Rec>, v: f64, got: &mut Arr<f64>) {
    if t.grid1() == 0 {
        let mut r = Rec { a: 1.5, b: 7, c: 9 };
        r.a = v;
        out[0] = r;
        out[1] = bumped(r, 100i32);
        out[2] = Rec {
            c: 2,
            b: -1,
            a: -2.5,
        };
        let s: Rec = out[1];
        got[0] = s.a;
    }
}

/// `record_write_array`: `ary.g = 2; ary.h[0] = 3.0; ary.h[1] = 4.0`.
#[kernel]
pub fn record_write_array(t: &Thread, ary: &mut Arr<WithArray>) {
    if t.grid1() == 0 {
        ary[0].g = 2;
        ary[0].h[0] = 3.0;
        ary[0].h[1] = 4.0;
    }
}

/// `record_read_array`: `out[0] = ary.h[0]; out[1] = ary.h[1]`, and a local's sub-array.
#[kernel]
pub fn record_read_array(t: &Thread, ary: &Arr<WithArray>, out: &mut Arr<f32>) {
    if t.grid1() == 0 {
        out[0] = ary[0].h[0];
        out[1] = ary[0].h[1];
        let mut r: WithArray = ary[0];
        r.h[1] = r.h[0] * 10.0f32;
        out[2] = r.h[1];
    }
}

/// A sub-array index out of the field's length: a fault naming the thread.
#[kernel]
pub fn sub_index_oob(t: &Thread, ary: &mut Arr<WithArray>, k: usize) {
    if t.grid1() == 0 {
        ary[0].h[k] = 1.0;
    }
}

/// `set_charseq`: a byte string into a `[u8; 4]` field (zero-padded), and one byte.
#[kernel]
pub fn set_charseq(t: &Thread, ary: &mut Arr<WithChars>, i: usize) {
    if t.grid1() == 0 {
        ary[i].n = bytes(b"abc");
        ary[i].m = 5;
        ary[i + 1].n = bytes(b"wxyz");
        ary[i + 1].n[0] = 86;
    }
}

/// `get_charseq`: the bytes of a byte-string field.
#[kernel]
pub fn get_charseq(t: &Thread, ary: &Arr<WithChars>, out: &mut Arr<u8>) {
    let k = t.grid1();
    if k < 4 {
        out[k] = ary[0].n[k];
    }
}

/// Records in shared memory: fields assigned per thread, then read back after a barrier.
#[kernel]
pub fn shared_records(t: &Thread, out: &mut Arr<Rec>) {
    let s = t.shared_array::<Rec>(8);
    let tid = t.thread_idx().x as usize;
    if tid < 8 {
        s[tid] = Rec { a: 0.0, b: 0, c: 0 };
        s[tid].b = tid as i32;
        s[tid].a = 0.5;
    }
    t.syncthreads();
    if tid < 8 {
        out[tid] = s[7 - tid];
    }
}
