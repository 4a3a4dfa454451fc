//! In-kernel array views (`reshape`, `view::<U>()`, `row` / `index_axis`, views over shared and
//! local arrays) on the backend `RUMBA_TEST_BACKEND` names, after Numba's array reshape and
//! reinterpret cases, with ports of Numba's own kernel-side cases (`numba_*`). On the simulator
//! every test runs on both engines — the loop form and coroutines — and checks the engine that
//! ran (faults must agree between the two, but for the arrays' addresses).

mod common;
mod macro_corpus;

use macro_corpus::views as k;
use ndarray::{Array1, Array2, Array3, arr1, arr2};
use rumba::In;
use rumba::config::BackendChoice;
use rumba::driver::HostEngine;
use rumba::kernel::{Kernel, Params};

fn start() {
    common::start(|_| {});
}

/// The engines each test runs on: the simulator's two, or the one run of another backend.
fn engines() -> Vec<Option<HostEngine>> {
    if common::test_backend() == BackendChoice::Sim {
        vec![
            Some(HostEngine::WorkItemLoops),
            Some(HostEngine::Coroutines),
        ]
    } else {
        vec![None]
    }
}

/// Runs `run` with `kernel` set to each engine of [`engines`], and checks the engine that ran.
fn each_engine<P: Params>(kernel: Kernel<P>, mut run: impl FnMut(&Kernel<P>)) {
    for engine in engines() {
        let k = match engine {
            Some(e) => kernel.clone().with_engine(e),
            None => kernel.clone(),
        };
        run(&k);
        if engine.is_some() {
            assert_eq!(k.last_engine(), engine, "{}", k.name());
        }
    }
}

/// A fault message with its addresses blanked (each engine allocates its own block memory).
fn without_addresses(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(k) = rest.find("0x") {
        out.push_str(&rest[..k]);
        out.push_str("ADDR");
        rest = rest[k + 2..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

/// The fault of `run` on each engine, checked equal across them: `(block, thread, message)`.
fn same_fault<P: Params>(
    kernel: Kernel<P>,
    mut run: impl FnMut(&Kernel<P>) -> rumba::Result<()>,
) -> ([u32; 3], [u32; 3], String) {
    let mut seen: Option<([u32; 3], [u32; 3], String)> = None;
    each_engine(kernel, |k| {
        let (block, thread, msg) = common::fault(run(k));
        let now = (block, thread, without_addresses(&msg));
        if let Some(first) = &seen {
            assert_eq!(first, &now, "the engines fault differently");
        }
        seen = Some(now);
    });
    seen.expect("at least one engine")
}

#[test]
fn views_run_in_the_loop_form() {
    let engines = [
        k::reshape_runtime().engine(),
        k::reshape_chain().engine(),
        k::view_bool().engine(),
        k::columns().engine(),
        k::shared_tile().engine(),
        k::local_bytes().engine(),
        k::views_across_barriers().engine(),
        k::views_kept_across_barriers().engine(),
        k::const_table_rows().engine(),
        k::numba_reinterpret_array_type().engine(),
        k::numba_carray().engine(),
    ];
    assert!(
        engines.iter().all(|&e| e == HostEngine::WorkItemLoops),
        "{engines:?}"
    );
}

#[test]
fn reshape_with_a_run_time_shape() {
    start();
    let a = Array1::from_iter((0..24).map(|v| v as f32));
    let want = Array2::from_shape_fn((3, 8), |(r, c)| (r * 8 + c) as f32 * 2.0);
    each_engine(k::reshape_runtime(), |kern| {
        let mut out = Array2::<f32>::zeros((3, 8));
        kern.configure((1, 1), (8, 4))
            .launch((In(&a), &mut out))
            .unwrap();
        assert_eq!(out, want);
    });
}

#[test]
fn reshape_writes_reach_the_base() {
    start();
    each_engine(k::reshape_write(), |kern| {
        let mut a = Array1::<i32>::zeros(32);
        kern.configure(1, 64).launch((&mut a,)).unwrap();
        assert_eq!(a, Array1::from_iter((0..32).map(|i| i * 10)));
    });
}

#[test]
fn reshape_of_a_reshape() {
    start();
    let a = Array2::from_shape_fn((3, 4), |(r, c)| (r * 4 + c) as u16);
    each_engine(k::reshape_chain(), |kern| {
        let mut flat = Array1::<u16>::zeros(12);
        let mut sizes = Array1::<usize>::zeros(3);
        kern.configure(1, 16)
            .launch((In(&a), &mut flat, &mut sizes))
            .unwrap();
        assert_eq!(flat, Array1::from_iter(0..12u16));
        // (2, 3, 2): element (1, 2, 0) is 1 * 6 + 2 * 2 = 10.
        assert_eq!(sizes, arr1(&[2, 12, 10]));
    });
}

#[test]
fn view_reinterprets_bits() {
    start();
    let x = arr1(&[1.0f32, -2.5, f32::INFINITY, f32::NAN, -0.0]);
    each_engine(k::view_bits(), |kern| {
        let mut bits = Array1::<u32>::zeros(5);
        kern.configure(1, 8).launch((In(&x), &mut bits)).unwrap();
        assert_eq!(bits, x.mapv(f32::to_bits));
    });
}

#[test]
fn view_as_smaller_items_scales_the_last_axis() {
    start();
    let set = |v: u32| {
        let mut b = v.to_ne_bytes();
        b[1] = 0xab;
        u32::from_ne_bytes(b)
    };
    each_engine(k::view_bytes(), |kern| {
        let mut x = arr1(&[0u32, 0x1111_1111, u32::MAX]);
        let mut lens = Array1::<usize>::zeros(1);
        kern.configure(1, 4).launch((&mut x, &mut lens)).unwrap();
        assert_eq!(lens[0], 12);
        assert_eq!(x, arr1(&[set(0), set(0x1111_1111), set(u32::MAX)]));
    });
}

#[test]
fn view_as_larger_items_halves_the_last_axis() {
    start();
    let x = Array1::from_iter(1..=8u8);
    let want: Vec<u16> = (0..4)
        .map(|i| u16::from_ne_bytes([2 * i as u8 + 1, 2 * i as u8 + 2]))
        .collect();
    each_engine(k::view_wider(), |kern| {
        let mut out = Array1::<u16>::zeros(4);
        kern.configure(1, 4).launch((In(&x), &mut out)).unwrap();
        assert_eq!(out.to_vec(), want);
    });
}

#[test]
fn bool_view_of_any_byte_is_a_valid_bool() {
    start();
    let raw = arr1(&[0u8, 1, 7, 0xff, 0]);
    each_engine(k::view_bool(), |kern| {
        let mut out = Array1::<u32>::from_elem(5, 9);
        kern.configure(1, 8).launch((In(&raw), &mut out)).unwrap();
        assert_eq!(out, arr1(&[0, 1, 1, 1, 0]));
    });
}

#[test]
fn rows_and_columns() {
    start();
    let m = Array2::from_shape_fn((3, 5), |(r, c)| (r * 10 + c) as f64);
    each_engine(k::row_sums(), |kern| {
        let mut out = Array1::<f64>::zeros(3);
        kern.configure(1, 4).launch((In(&m), &mut out)).unwrap();
        assert_eq!(out, arr1(&[10.0, 60.0, 110.0]));
    });

    let mi = Array2::from_shape_fn((4, 3), |(r, c)| (r * 3 + c) as i32);
    let mut want = Array3::<i32>::zeros((2, 2, 3));
    for i in 0..3 {
        want[(1, 0, i)] = i as i32 + 100;
    }
    each_engine(k::columns(), |kern| {
        let mut col = Array1::<i32>::zeros(4);
        let mut cube = Array3::<i32>::zeros((2, 2, 3));
        kern.configure(1, 4)
            .launch((In(&mi), 2usize, &mut col, &mut cube))
            .unwrap();
        assert_eq!(col, arr1(&[2, 5, 8, 11]));
        assert_eq!(cube, want);
    });
}

#[test]
fn views_over_shared_and_local_memory() {
    start();
    let want = Array1::from_iter((0..64).map(|t| ((t % 8) * 8 + t / 8) as f32));
    each_engine(k::shared_tile(), |kern| {
        let mut out = Array1::<f32>::zeros(64);
        let mut counts = Array1::<u32>::zeros(4);
        kern.configure(1, 64)
            .launch((&mut out, &mut counts))
            .unwrap();
        assert_eq!(out, want);
        assert_eq!(counts, arr1(&[16, 16, 16, 16]));
    });

    each_engine(k::local_bytes(), |kern| {
        let mut bytes = Array2::<u8>::zeros((3, 8));
        kern.configure(1, 3).launch((&mut bytes,)).unwrap();
        for i in 0..3 {
            let mut want = 0x0403_0201u32.to_ne_bytes().to_vec();
            want.extend((i as u32).to_ne_bytes());
            assert_eq!(bytes.row(i).to_vec(), want, "thread {i}");
        }
    });
}

#[test]
fn views_live_across_barriers() {
    start();
    // Two blocks, each an 8 x 8 matrix of small integers (exact in f32 whatever the order).
    let m = Array2::from_shape_fn((2, 64), |(b, e)| ((b * 64 + e) % 7) as f32 - 3.0);
    let mut want = Array1::<f32>::zeros(128);
    for b in 0..2 {
        let at = |r: usize, c: usize| m[(b, r * 8 + c)];
        for t in 0..64 {
            let (r, c) = (t / 8, t % 8);
            want[b * 64 + t] = (0..8).fold(0.0, |acc, k| acc + at(r, k) * at(k, c));
        }
    }
    each_engine(k::views_across_barriers(), |kern| {
        let mut out = Array1::<f32>::zeros(128);
        kern.configure(2, 64).launch((In(&m), &mut out)).unwrap();
        assert_eq!(out, want);
    });
}

#[test]
fn views_keep_their_rows_and_memory_across_barriers() {
    start();
    let m = Array2::from_shape_fn((5, 2), |(r, c)| (r * 2 + c) as i32 * 3 - 7);
    let pick = Array1::from_iter((0..16u32).map(|v| (v * 7) % 5));
    let mut want = Array1::<i32>::zeros(16);
    let mut want_bytes = Array2::<u8>::zeros((16, 4));
    for i in 0..16 {
        let (tid, base) = (i % 8, i - i % 8);
        let row = pick[i] as usize;
        // The row picked before the barrier; `back` is the negated global index of thread
        // `7 - tid` of the same block.
        want[i] = m[(row, 0)] * 100 + m[(row, 1)] - (base + 7 - tid) as i32;
        let word = 0x0a0b_0c0du32 ^ i as u32;
        for (k, b) in word.to_ne_bytes().into_iter().enumerate() {
            want_bytes[(i, k)] = b;
        }
    }
    each_engine(k::views_kept_across_barriers(), |kern| {
        let mut out = Array1::<i32>::zeros(16);
        let mut bytes = Array2::<u8>::zeros((16, 4));
        kern.configure(2, 8)
            .dynamic_shared_bytes(2 * 8 * 4)
            .launch((In(&m), In(&pick), &mut out, &mut bytes))
            .unwrap();
        assert_eq!(out, want);
        assert_eq!(bytes, want_bytes);
    });
}

#[test]
fn reshape_of_another_size_is_a_fault() {
    start();
    let a = rumba::to_device(&Array1::<f32>::zeros(6)).unwrap();
    let out = rumba::to_device(&Array1::<f32>::zeros(1)).unwrap();
    let s = rumba::stream().unwrap();
    let (_, _, msg) = same_fault(k::bad_reshape(), |kern| {
        // 2 x 3 is the size: no fault.
        kern.configure(1, 2)
            .stream(&s)
            .launch((&a, 2usize, &out))
            .unwrap();
        s.synchronize().unwrap();
        kern.configure(1, 2)
            .stream(&s)
            .launch((&a, 3usize, &out))
            .unwrap();
        s.synchronize()
    });
    assert!(msg.contains("reshape"), "{msg}");
}

#[test]
fn row_out_of_range_is_a_fault() {
    start();
    let m = rumba::to_device(&arr2(&[[1i32, 2], [3, 4]])).unwrap();
    let out = rumba::to_device(&Array1::<i32>::zeros(1)).unwrap();
    let s = rumba::stream().unwrap();
    let (_, thread, msg) = same_fault(k::bad_row(), |kern| {
        kern.configure(1, 1)
            .stream(&s)
            .launch((&m, 1usize, &out))
            .unwrap();
        s.synchronize().unwrap();
        assert_eq!(out.copy_to_host().unwrap(), arr1(&[3]));
        kern.configure(1, 1)
            .stream(&s)
            .launch((&m, 2usize, &out))
            .unwrap();
        s.synchronize()
    });
    assert_eq!(thread, [0, 0, 0]);
    assert!(msg.contains("index 2") || msg.contains("(2,)"), "{msg}");
    assert!(msg.contains("axis 0 with size 2"), "{msg}");
}

#[test]
fn the_first_thread_whose_row_is_missing_faults() {
    start();
    // 11 rows for 2 blocks of 8 threads: thread 3 of block 1 asks for row 11.
    let m = rumba::to_device(&Array2::<i32>::zeros((11, 2))).unwrap();
    let out = rumba::to_device(&Array1::<i32>::zeros(16)).unwrap();
    let s = rumba::stream().unwrap();
    let (block, thread, msg) = same_fault(k::bad_row_per_thread(), |kern| {
        kern.configure(2, 8).stream(&s).launch((&m, &out)).unwrap();
        s.synchronize()
    });
    // The simulator reports the lowest faulting thread; a GPU, any faulting one.
    assert_eq!(block, [1, 0, 0], "{msg}");
    if common::test_backend() == BackendChoice::Sim {
        assert_eq!(thread, [3, 0, 0], "{msg}");
    } else {
        assert!((3..8).contains(&thread[0]), "{thread:?}: {msg}");
    }
    assert!(msg.contains("axis 0 with size 11"), "{msg}");
}

#[test]
fn view_whose_bytes_do_not_divide_is_a_fault() {
    start();
    let out = rumba::to_device(&Array1::<u32>::zeros(1)).unwrap();
    let s = rumba::stream().unwrap();
    let ok = rumba::to_device(&Array1::<u8>::zeros(8)).unwrap();
    let bad = rumba::to_device(&Array1::<u8>::zeros(6)).unwrap();
    let (_, _, msg) = same_fault(k::bad_view(), |kern| {
        kern.configure(1, 1).stream(&s).launch((&ok, &out)).unwrap();
        s.synchronize().unwrap();
        assert_eq!(out.copy_to_host().unwrap(), arr1(&[2]));
        kern.configure(1, 1)
            .stream(&s)
            .launch((&bad, &out))
            .unwrap();
        s.synchronize()
    });
    assert!(msg.contains("view"), "{msg}");
}

// ---- Ports of Numba's kernel-side cases (numba-cuda, `numba/cuda/tests/cudapy/`).

/// Port of `test_array.py` `TestCudaArray::test_array_reshape`: `arr.reshape(newshape)` inside
/// a one-thread kernel, copied out element by element and compared with the host's reshape.
/// Ported: the C-contiguous `arange(24)` into `(24,)`, `(4, 6)`, `(8, 3)`, `(8, 1, 3)`, and the
/// empty array into `0` / `(0,)` and `(1, 0, 2)`. Not ported: the 6-d source
/// `(1, 8, 1, 1, 3, 1)` (kernel arrays have at most 3 dimensions) and `-1` in a shape (an
/// in-kernel `reshape` takes `usize` extents).
#[test]
fn numba_test_array_reshape() {
    start();
    let check = |arr: &Array1<i64>, shape: &[usize]| {
        let want: Vec<i64> = arr.to_vec();
        match *shape {
            [n] => each_engine(k::numba_array_reshape1d(), |kern| {
                let mut got = Array1::<i64>::zeros(n);
                kern.configure(1, 1).launch((In(arr), n, &mut got)).unwrap();
                assert_eq!(got.to_vec(), want, "{shape:?}");
            }),
            [d0, d1] => each_engine(k::numba_array_reshape2d(), |kern| {
                let mut got = Array2::<i64>::zeros((d0, d1));
                kern.configure(1, 1)
                    .launch((In(arr), d0, d1, &mut got))
                    .unwrap();
                assert_eq!(got.iter().copied().collect::<Vec<_>>(), want, "{shape:?}");
            }),
            [d0, d1, d2] => each_engine(k::numba_array_reshape3d(), |kern| {
                let mut got = Array3::<i64>::zeros((d0, d1, d2));
                kern.configure(1, 1)
                    .launch((In(arr), d0, d1, d2, &mut got))
                    .unwrap();
                assert_eq!(got.iter().copied().collect::<Vec<_>>(), want, "{shape:?}");
            }),
            _ => unreachable!("1 to 3 dimensions"),
        }
    };
    let arr = Array1::from_iter(0..24i64);
    for shape in [&[24][..], &[4, 6], &[8, 3], &[8, 1, 3]] {
        check(&arr, shape);
    }
    let empty = Array1::<i64>::zeros(0);
    for shape in [&[0][..], &[1, 0, 2]] {
        check(&empty, shape);
    }
}

/// Port of `test_array_methods.py` `TestCudaArrayMethods::test_reinterpret_array_type`: the
/// four bytes at every multiple of 4 in `arange(256)` as uint8, read as an `int32` in the kernel
/// and compared with the host's reinterpretation.
#[test]
fn numba_test_reinterpret_array_type() {
    start();
    let byte_arr = Array1::from_iter(0..=255u8);
    each_engine(k::numba_reinterpret_array_type(), |kern| {
        for start in (0..256).step_by(4) {
            let b = &byte_arr.as_slice().unwrap()[start..start + 4];
            let expect = i32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
            let mut output = Array1::<i32>::zeros(1);
            kern.configure(1, 1)
                .launch((In(&byte_arr), start, &mut output))
                .unwrap();
            assert_eq!(output[0], expect, "start {start}");
        }
    });
}

/// Port of `test_array.py` `TestCudaArray::test_carray` (`_test_cfarray`; `test_farray` is the
/// same kernel for a 1-element shape): raw memory holding one `float32` 0.0 becomes a `(1,)`
/// array in the kernel, which adds 1.2 to it.
#[test]
fn numba_test_carray() {
    start();
    each_engine(k::numba_carray(), |kern| {
        let mut a = Array1::from(0.0f32.to_ne_bytes().to_vec());
        kern.configure(1, 1).launch((&mut a,)).unwrap();
        let v = f32::from_ne_bytes([a[0], a[1], a[2], a[3]]);
        assert_eq!(v, 1.2f32);
    });
}

/// Port of `test_slicing.py` `TestCudaSlicing::test_slice_as_arg`: ten threads each copy their
/// row of `arange(100).reshape(10, 10)` (as int32) through row views. Numba only checks that the
/// kernel compiles and runs; the copy is checked here too.
#[test]
fn numba_test_slice_as_arg() {
    start();
    let inp = Array2::from_shape_fn((10, 10), |(r, c)| (r * 10 + c) as i32);
    each_engine(k::numba_slice_as_arg(), |kern| {
        let mut out = Array2::<i32>::zeros((10, 10));
        kern.configure(1, 10).launch((In(&inp), &mut out)).unwrap();
        assert_eq!(out, inp);
    });
}
