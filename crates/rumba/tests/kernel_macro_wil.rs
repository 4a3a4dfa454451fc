//! `#[rumba::kernel]` kernels on the simulator's two engines: every kernel of the macro corpus
//! runs its generated block body (work-item loops) and its per-thread body (coroutines) on the
//! same inputs, bit for bit — the faults too — and the kernels the loop form cannot express say
//! so (`Kernel::engine`). Barriers under thread-dependent control are the divergent-barrier fault
//! on the loop form as on coroutines. How regions are narrowed or run as lane loops is
//! `kernel_macro_regions`.

mod common;
mod engines;
mod macro_corpus;
mod macro_engines;

use macro_corpus::case::{Case, HostArg, exact_case, run_backend};
use macro_corpus::{numba, peer};
use macro_engines::{both_engines, on, random, sim, with_function};
use rumba::driver::{HostEngine, HostKernel, KernelFunction};
use rumba::kernel::KernelAbi;
use rumba::kernel::prelude::*;

#[test]
fn the_peer_workloads_agree_on_both_engines_at_ragged_sizes() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    for n in [1usize, 255, 256, 1000, 70_000] {
        let case = exact_case!(
            peer::vadd,
            [n.div_ceil(256), 1, 1],
            [256, 1, 1],
            vec![
                HostArg::array(&random(n, 1), &[n]),
                HostArg::array(&random(n, 2), &[n]),
                HostArg::zeros::<f32>(n)
            ]
        );
        let out = both_engines(&case).unwrap();
        assert_ne!(out, case.args, "vadd {n}: nothing written");
        // Another block shape (run-time shape, not 256).
        let case = Case {
            grid: [n.div_ceil(100), 1, 1],
            block: [100, 1, 1],
            ..case
        };
        both_engines(&case).unwrap();
    }
    for m in [1usize, 16, 40, 64] {
        let g = m.div_ceil(16);
        let case = exact_case!(
            peer::matmul_shared,
            [g, g, 1],
            [16, 16, 1],
            vec![
                HostArg::array(&random(m * m, 3), &[m, m]),
                HostArg::array(&random(m * m, 4), &[m, m]),
                HostArg::array(&vec![0f32; m * m], &[m, m]),
            ]
        );
        both_engines(&case).unwrap();
    }
    for r in [1usize, 256, 3000, 70_000] {
        let case = exact_case!(
            peer::reduce_shared,
            [r.div_ceil(256), 1, 1],
            [256, 1, 1],
            vec![
                HostArg::array(&random(r, 5), &[r]),
                HostArg::zeros::<f32>(r.div_ceil(256))
            ]
        );
        both_engines(&case).unwrap();
    }
}

#[test]
fn the_stencil_agrees_in_full_and_partial_blocks() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    // The stencil's output is an own-index output; its input is read through halo windows.
    let host = peer::stencil5()
        .function()
        .form::<HostKernel>()
        .unwrap()
        .clone();
    assert_eq!(
        (host.array_use(0), host.array_use(1)),
        (
            rumba::driver::ArrayUse::Read,
            rumba::driver::ArrayUse::OwnIndexStore
        )
    );
    // Full and ragged blocks along x and y, the compiled 256×1 shape and run-time shapes, arrays
    // with no interior at all.
    for (rows, cols) in [
        (1usize, 1usize),
        (2, 3),
        (3, 3),
        (5, 256),
        (7, 300),
        (40, 513),
    ] {
        for block in [[256usize, 1, 1], [16, 16, 1], [8, 4, 2]] {
            let grid = [cols.div_ceil(block[0]), rows.div_ceil(block[1]), 1];
            let case = exact_case!(
                peer::stencil5,
                grid,
                block,
                vec![
                    HostArg::array(&random(rows * cols, 7), &[rows, cols]),
                    HostArg::array(&vec![0f32; rows * cols], &[rows, cols]),
                ]
            );
            let out = both_engines(&case).unwrap();
            // The border is copied, the interior averaged.
            let (u, v) = (case.args[0].values::<f32>(), out[1].values::<f32>());
            for y in 0..rows {
                for x in 0..cols {
                    let k = y * cols + x;
                    let want = if y == 0 || x == 0 || y + 1 == rows || x + 1 == cols {
                        u[k]
                    } else {
                        0.2 * (u[k] + u[k - cols] + u[k + cols] + u[k - 1] + u[k + 1])
                    };
                    assert_eq!(
                        v[k].to_bits(),
                        want.to_bits(),
                        "{rows}×{cols} {block:?} ({y}, {x})"
                    );
                }
            }
        }
    }
}

#[test]
fn the_numba_corpus_agrees_on_both_engines() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    for case in numba::cases() {
        both_engines(&case).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
}

#[test]
fn faults_are_the_same_on_both_engines() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    let oob = Case {
        name: "out_of_bounds",
        function: numba::out_of_bounds().function().clone(),
        abi: &numba::out_of_bounds::ABI,
        opencl: numba::out_of_bounds::opencl_source(),
        cuda: numba::out_of_bounds::cuda_source(),
        grid: [2, 1, 1],
        block: [8, 1, 1],
        dynamic_shared_bytes: 0,
        args: vec![HostArg::zeros::<i32>(11)],
        agree: macro_corpus::case::Agree::Exact,
    };
    let err = both_engines(&oob).unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::KernelFault {
                block: [1, 0, 0],
                thread: [3, 0, 0],
                ..
            }
        ),
        "{err}"
    );
    let mut a: Vec<i32> = (1..=16).collect();
    a[13] = 0;
    let divide = Case {
        name: "divide",
        function: numba::divide().function().clone(),
        abi: &numba::divide::ABI,
        opencl: numba::divide::opencl_source(),
        cuda: numba::divide::cuda_source(),
        grid: [1, 1, 1],
        block: [16, 1, 1],
        dynamic_shared_bytes: 0,
        args: vec![HostArg::array(&a, &[16]), HostArg::zeros::<i32>(16)],
        agree: macro_corpus::case::Agree::Exact,
    };
    let err = both_engines(&divide).unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::KernelFault {
                thread: [13, 0, 0],
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn kernels_the_loop_form_cannot_express_say_so() {
    assert_eq!(peer::vadd().engine(), HostEngine::WorkItemLoops);
    assert_eq!(numba::barrier_values().engine(), HostEngine::WorkItemLoops);
    // Complex values in local and shared arrays and in a context array across a barrier.
    assert_eq!(
        numba::complex_local_shared().engine(),
        HostEngine::WorkItemLoops
    );
    assert_eq!(numba::complex_ops().engine(), HostEngine::WorkItemLoops);
    // A device function that takes the thread context: coroutines only.
    assert_eq!(numba::use_device_fns().engine(), HostEngine::Coroutines);
}

// ------------------------------------------------- control flow around barriers, divergence

pub const W: usize = 64;

/// Barriers in uniform loops and ifs, a per-thread `while` bound that happens to agree, a
/// varying early return after the last barrier, and `syncthreads_count/and/or`.
#[kernel]
pub fn shuffles(t: &Thread, rounds: u32, flag: i32, out: &mut Arr<u64>, counts: &mut Arr<i32>) {
    let s = t.shared_array::<u64>(W);
    let tx = t.thread_idx().x as usize;
    let n = t.block_dim().x as usize;
    let mut v = (t.grid1() as u64 + 1) * 3;
    for k in 0..rounds as usize {
        s[tx] = v;
        t.syncthreads();
        v = v.wrapping_mul(31) + s[(tx + k + 1) % n];
        t.syncthreads();
    }
    if flag > 0 {
        s[tx] = v;
        t.syncthreads();
        v ^= s[n - 1 - tx];
        t.syncthreads();
    }
    let mut left = 2 + tx / 1024;
    while left > 0 {
        s[tx] = v;
        t.syncthreads();
        v += s[(tx + left) % n];
        t.syncthreads();
        left -= 1;
    }
    let c = t.syncthreads_count(v % 3 == 0);
    let a = t.syncthreads_and(v > 0);
    let o = t.syncthreads_or(v % 7 == 0);
    if tx % 5 == 4 {
        return;
    }
    out[t.grid1()] = v;
    counts[3 * t.block_idx().x as usize] = c;
    counts[3 * t.block_idx().x as usize + 1] = a;
    counts[3 * t.block_idx().x as usize + 2] = o;
}

#[test]
fn barriers_in_uniform_control_and_reducing_barriers_agree() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    assert_eq!(shuffles().engine(), HostEngine::WorkItemLoops);
    for (blocks, threads, rounds, flag) in
        [(3usize, 64usize, 3u32, 1i32), (2, 32, 0, 0), (1, 1, 2, 5)]
    {
        let case = Case {
            name: "shuffles",
            function: shuffles().function().clone(),
            abi: &shuffles::ABI,
            opencl: shuffles::opencl_source(),
            cuda: shuffles::cuda_source(),
            grid: [blocks, 1, 1],
            block: [threads, 1, 1],
            dynamic_shared_bytes: 0,
            args: vec![
                HostArg::scalar(rounds),
                HostArg::scalar(flag),
                HostArg::zeros::<u64>(blocks * threads),
                HostArg::zeros::<i32>(3 * blocks),
            ],
            agree: macro_corpus::case::Agree::Exact,
        };
        both_engines(&case).unwrap();
    }
}

/// A barrier under a thread-dependent condition.
#[kernel]
pub fn diverges_if(t: &Thread, out: &mut Arr<i32>) {
    if t.thread_idx().x < 5 {
        t.syncthreads();
    }
    out[t.grid1()] = 1;
}

/// A barrier in a loop whose bound depends on the thread.
#[kernel]
pub fn diverges_for(t: &Thread, out: &mut Arr<i32>) {
    let n = 1 + (t.thread_idx().x == 7) as usize;
    for _k in 0..n {
        t.syncthreads();
    }
    out[t.grid1()] = 1;
}

/// Some threads return before a barrier the others reach.
#[kernel]
pub fn returns_early(t: &Thread, out: &mut Arr<i32>) {
    if t.grid1() >= 40 {
        return;
    }
    t.syncthreads();
    out[t.grid1()] = 1;
}

fn divergence(function: KernelFunction, abi: &'static KernelAbi) -> [rumba::Error; 2] {
    let case = Case {
        name: abi.name,
        function,
        abi,
        opencl: "",
        cuda: "",
        grid: [2, 1, 1],
        block: [32, 1, 1],
        dynamic_shared_bytes: 0,
        args: vec![HostArg::zeros::<i32>(64)],
        agree: macro_corpus::case::Agree::Exact,
    };
    [HostEngine::WorkItemLoops, HostEngine::Coroutines]
        .map(|e| run_backend(&with_function(&case, on(e, &case.function))).unwrap_err())
}

#[test]
fn a_barrier_under_thread_dependent_control_is_a_divergence_fault_on_both_engines() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    for (name, [loops, coros]) in [
        (
            "diverges_if",
            divergence(diverges_if().function().clone(), &diverges_if::ABI),
        ),
        (
            "diverges_for",
            divergence(diverges_for().function().clone(), &diverges_for::ABI),
        ),
        (
            "returns_early",
            divergence(returns_early().function().clone(), &returns_early::ABI),
        ),
    ] {
        for err in [&loops, &coros] {
            let rumba::Error::KernelFault {
                kernel,
                block,
                message,
                ..
            } = err
            else {
                panic!("{name}: {err}")
            };
            assert_eq!(kernel, name);
            assert_eq!(
                block,
                &[if name == "returns_early" { 1 } else { 0 }, 0, 0],
                "{name}: {err}"
            );
            assert!(
                message.starts_with("divergent barrier"),
                "{name}: {message}"
            );
        }
    }
    // The decision's message names the two threads that disagree.
    let [loops, _] = divergence(diverges_if().function().clone(), &diverges_if::ABI);
    assert!(
        loops
            .to_string()
            .contains("thread (0, 0, 0) has true but thread (5, 0, 0) has false"),
        "{loops}"
    );
    // An early return before a barrier is exactly the coroutine engine's fault.
    let [loops, coros] = divergence(returns_early().function().clone(), &returns_early::ABI);
    assert_eq!(loops, coros);
}

/// In-kernel views (reshape, `view::<U>()`, rows and columns of parameters, shared, local and
/// constant arrays; across barriers) run in the loop form and agree with coroutines, faults
/// included.
#[test]
fn the_views_corpus_agrees_on_both_engines() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    for case in macro_corpus::views::cases() {
        assert_eq!(
            case.function.form::<HostKernel>().unwrap().engine(),
            HostEngine::WorkItemLoops,
            "{}",
            case.name
        );
        let out = both_engines(&case).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_ne!(out, case.args, "{}: the kernel wrote nothing", case.name);
    }
    let faults = [
        (
            exact_case!(
                macro_corpus::views::bad_row_per_thread,
                [2, 1, 1],
                [8, 1, 1],
                vec![
                    HostArg::array(&[0i32; 22], &[11, 2]),
                    HostArg::zeros::<i32>(16)
                ]
            ),
            [1, 0, 0],
            [3, 0, 0],
        ),
        (
            exact_case!(
                macro_corpus::views::bad_reshape,
                [1, 1, 1],
                [4, 1, 1],
                vec![
                    HostArg::zeros::<f32>(6),
                    HostArg::scalar(3usize),
                    HostArg::zeros::<f32>(1)
                ]
            ),
            [0, 0, 0],
            [0, 0, 0],
        ),
        (
            exact_case!(
                macro_corpus::views::bad_view,
                [1, 1, 1],
                [2, 1, 1],
                vec![HostArg::zeros::<u8>(6), HostArg::zeros::<u32>(1)]
            ),
            [0, 0, 0],
            [0, 0, 0],
        ),
    ];
    for (case, want_block, want_thread) in &faults {
        let err = both_engines(case).unwrap_err();
        let rumba::Error::KernelFault { block, thread, .. } = &err else {
            panic!("{}: {err}", case.name);
        };
        assert_eq!(
            (block, thread),
            (want_block, want_thread),
            "{}: {err}",
            case.name
        );
    }
}

#[test]
fn the_constructs_corpus_agrees_on_both_engines() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    // One block each: without barriers both engines run the threads of a block in linear order,
    // so even the corpus's deliberately racy element updates agree.
    let xs: Vec<f64> = (0..8).map(|i| (i as f64 - 3.5) * 1.7).collect();
    let cases = [
        exact_case!(
            macro_corpus::constructs::literals_and_consts,
            [1, 1, 1],
            [4, 1, 1],
            vec![
                HostArg::zeros::<f64>(5),
                HostArg::zeros::<u32>(2),
                HostArg::zeros::<i64>(3)
            ]
        ),
        exact_case!(
            macro_corpus::constructs::operators,
            [1, 1, 1],
            [8, 1, 1],
            vec![
                HostArg::array(&(0..8).map(|i| i * 37 - 100).collect::<Vec<i16>>(), &[8]),
                HostArg::array(&(0..8).map(|i| i * 1000 + 1).collect::<Vec<u64>>(), &[8]),
                HostArg::array(&xs.iter().map(|&x| x as f32).collect::<Vec<f32>>(), &[8]),
                HostArg::zeros::<u8>(8)
            ]
        ),
        exact_case!(
            macro_corpus::constructs::casts_and_math,
            [1, 1, 1],
            [8, 1, 1],
            vec![
                HostArg::array(&xs, &[8]),
                HostArg::zeros::<i32>(32),
                HostArg::zeros::<f64>(9)
            ]
        ),
        exact_case!(
            macro_corpus::constructs::control,
            [2, 1, 1],
            [8, 1, 1],
            vec![HostArg::zeros::<u32>(13)]
        ),
        exact_case!(
            macro_corpus::constructs::atomics_all,
            [1, 1, 1],
            [16, 1, 1],
            vec![
                HostArg::zeros::<u32>(13),
                HostArg::zeros::<i64>(2),
                HostArg::zeros::<f32>(6)
            ]
        ),
    ];
    for case in &cases {
        assert_eq!(
            case.function.form::<HostKernel>().unwrap().engine(),
            HostEngine::WorkItemLoops,
            "{}",
            case.name
        );
        both_engines(case).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
    // The one kernel of the corpus the loop form cannot express.
    assert_eq!(
        macro_corpus::constructs::memory().engine(),
        HostEngine::Coroutines
    );
}

/// Loops around barriers left with `break` and `continue` (uniform and, checked at run time,
/// thread-dependent decisions), a local array and a `bool` live across barriers, dynamic shared
/// memory.
#[kernel]
pub fn jumps(t: &Thread, out: &mut Arr<i64>, flags: &mut Arr<u32>) {
    let tx = t.thread_idx().x as usize;
    let n = t.block_dim().x as usize;
    let d = t.dynamic_shared::<i64>();
    let hist = t.local_array::<i64>(4);
    let odd = tx % 2 == 1;
    let mut v = tx as i64 + 1;
    let mut k = 0u32;
    loop {
        d[tx] = v;
        t.syncthreads();
        hist[(k % 4) as usize] += d[(tx + 1) % n];
        if k >= 3 {
            break;
        }
        k += 1;
        t.syncthreads();
    }
    t.syncthreads();
    let mut m = 10 + tx / 4096; // the same in every thread, not provably so
    while m > 0 {
        m -= 1;
        if m % 3 == 0 {
            continue;
        }
        d[tx] = v + m as i64;
        t.syncthreads();
        v += d[n - 1 - tx];
        t.syncthreads();
    }
    out[t.grid1()] = v + hist[0] - hist[3];
    flags[t.grid1()] = odd as u32 + k;
}

#[test]
fn loops_left_with_break_and_continue_and_values_live_across_barriers_agree() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    assert_eq!(jumps().engine(), HostEngine::WorkItemLoops);
    for threads in [1usize, 7, 32] {
        let case = Case {
            name: "jumps",
            function: jumps().function().clone(),
            abi: &jumps::ABI,
            opencl: jumps::opencl_source(),
            cuda: jumps::cuda_source(),
            grid: [2, 1, 1],
            block: [threads, 1, 1],
            dynamic_shared_bytes: 8 * threads,
            args: vec![
                HostArg::zeros::<i64>(2 * threads),
                HostArg::zeros::<u32>(2 * threads),
            ],
            agree: macro_corpus::case::Agree::Exact,
        };
        let out = both_engines(&case).unwrap();
        assert_ne!(out, case.args);
    }
}

#[test]
fn warp_kernels_under_uniform_control_have_a_block_body() {
    use macro_corpus::warp;
    assert_eq!(warp::warp_mix().engine(), HostEngine::WorkItemLoops);
    assert_eq!(
        warp::warp_after_return().engine(),
        HostEngine::WorkItemLoops
    );
    assert_eq!(warp::warp_sum_u64().engine(), HostEngine::WorkItemLoops);
    assert_eq!(peer::reduce_warp().engine(), HostEngine::WorkItemLoops);
    // A loop some threads may leave early, and a per-thread mask: coroutines.
    assert_eq!(warp::warp_early_break().engine(), HostEngine::Coroutines);
    assert_eq!(warp::warp_own_mask().engine(), HostEngine::Coroutines);
}

#[test]
fn warp_kernels_agree_on_both_engines_results_and_faults() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    let (mut ok, mut faults) = (0, 0);
    let mut tally = |r: Result<Vec<HostArg>, rumba::Error>| match r {
        Ok(_) => ok += 1,
        Err(rumba::Error::KernelFault { .. }) => faults += 1,
        Err(e) => panic!("not a kernel fault: {e}"),
    };
    for block in [32usize, 64, 40] {
        let n = 2 * block;
        let p: Vec<i32> = (0..n as i32).map(|i| (i * 7) % 3).collect();
        // The full mask, the low half-warp (lanes 16.. are not in their own mask), all lanes
        // but 3.
        for mask in [u32::MAX, 0x0000_ffff, !8u32] {
            for arg in [0u32, 1, 5, 16, 31, 33] {
                let case = exact_case!(
                    macro_corpus::warp::warp_mix,
                    [2, 1, 1],
                    [block, 1, 1],
                    vec![
                        HostArg::array(&random(n, u64::from(arg) + 7), &[n]),
                        HostArg::array(&p, &[n]),
                        HostArg::scalar(mask),
                        HostArg::scalar(arg),
                        HostArg::zeros::<f32>(4 * n),
                        HostArg::zeros::<u32>(4 * n),
                    ]
                );
                tally(both_engines(&case));
            }
        }
    }
    for (gone, src) in [(5u32, 5u32), (5, 6), (40, 9), (0, 31)] {
        let case = exact_case!(
            macro_corpus::warp::warp_after_return,
            [2, 1, 1],
            [64, 1, 1],
            vec![
                HostArg::zeros::<i64>(128),
                HostArg::scalar(gone),
                HostArg::scalar(src)
            ]
        );
        tally(both_engines(&case));
    }
    for (block, n) in [(64usize, 200usize), (48, 96), (256, 1000)] {
        let x: Vec<u64> = (0..n as u64).map(|i| i * i + 1).collect();
        let case = exact_case!(
            macro_corpus::warp::warp_sum_u64,
            [n.div_ceil(block), 1, 1],
            [block, 1, 1],
            vec![
                HostArg::array(&x, &[n]),
                HostArg::scalar(5u32),
                HostArg::zeros::<u64>(n)
            ]
        );
        tally(both_engines(&case));
    }
    for n in [1usize, 256, 1000, 70_000] {
        let case = exact_case!(
            peer::reduce_warp,
            [n.div_ceil(256), 1, 1],
            [256, 1, 1],
            vec![
                HostArg::array(&random(n, 5), &[n]),
                HostArg::zeros::<f32>(n.div_ceil(256))
            ]
        );
        let out = both_engines(&case).unwrap();
        let sums = out[1].values::<f32>();
        let x = random(n, 5);
        for (b, s) in sums.iter().enumerate() {
            let want: f64 = x[b * 256..((b + 1) * 256).min(n)]
                .iter()
                .map(|&v| f64::from(v))
                .sum();
            assert!(
                (f64::from(*s) - want).abs() <= 1e-4 * want.abs().max(1.0),
                "block {b}"
            );
        }
    }
    // Both outcomes are exercised.
    assert!(ok > 15 && faults > 15, "{ok} ran, {faults} faulted");
}
