//! Macro kernels on a real OpenCL driver (PoCL in CI) through the small harness in
//! `opencl_common`: every generated OpenCL source of the corpus builds and runs, the simulator
//! and OpenCL agree (bit for bit, transcendental functions within stated ULPs), and an
//! out-of-bounds access or a division by zero is the same `KernelFault` on both, naming kernel,
//! block, thread and index.

mod macro_corpus;
mod opencl_common;

use macro_corpus::case::{HostArg, assert_agree, exact_case, run_backend};
use macro_corpus::{numba, peer};
use opencl_common::cl;

fn random(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            ((s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32) / (1u64 << 24) as f32
        })
        .collect()
}

#[test]
fn every_generated_opencl_source_builds() {
    let Some(mut cl) = cl() else { return };
    let all = macro_corpus::all_sources();
    let failures: Vec<String> = all
        .iter()
        .filter_map(|(name, _, src)| cl.program(src).err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!(
        "{} generated OpenCL programs built on {}",
        all.len(),
        cl.device_name
    );
}

#[test]
fn peer_workloads_are_bit_exact_between_sim_and_opencl() {
    let Some(mut cl) = cl() else { return };
    let n = 1000;
    let m = 40;
    let r: usize = 3000;
    let w: usize = 70_000;
    let cases = [
        exact_case!(
            peer::vadd,
            [4, 1, 1],
            [256, 1, 1],
            vec![
                HostArg::array(&random(n, 1), &[n]),
                HostArg::array(&random(n, 2), &[n]),
                HostArg::zeros::<f32>(n)
            ]
        ),
        exact_case!(
            peer::matmul_shared,
            [3, 3, 1],
            [16, 16, 1],
            vec![
                HostArg::array(&random(m * m, 3), &[m, m]),
                HostArg::array(&random(m * m, 4), &[m, m]),
                HostArg::array(&vec![0f32; m * m], &[m, m]),
            ]
        ),
        exact_case!(
            peer::reduce_shared,
            [r.div_ceil(256), 1, 1],
            [256, 1, 1],
            vec![
                HostArg::array(&random(r, 5), &[r]),
                HostArg::zeros::<f32>(r.div_ceil(256))
            ]
        ),
        exact_case!(
            peer::reduce_warp,
            [w.div_ceil(256), 1, 1],
            [256, 1, 1],
            vec![
                HostArg::array(&random(w, 6), &[w]),
                HostArg::zeros::<f32>(w.div_ceil(256))
            ]
        ),
    ];
    for case in &cases {
        let sim = run_backend(case).unwrap();
        let mut ocl = case.args.clone();
        cl.run(case.opencl, case.abi, case.grid, case.block, 0, &mut ocl)
            .unwrap();
        assert_agree(case.name, case.agree, &sim, &ocl);
        assert_ne!(sim, case.args, "{}: the kernel wrote nothing", case.name);
    }
}

/// Runs every case on the simulator and on PoCL and checks they agree (and, with `wrote`, that
/// each kernel changed its arguments): the names of the kernels run.
fn agree_with_opencl(
    cl: &mut opencl_common::Cl,
    cases: Vec<macro_corpus::case::Case>,
    wrote: bool,
) -> Vec<&'static str> {
    let mut ran = Vec::new();
    for case in cases {
        let sim = run_backend(&case).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let mut ocl = case.args.clone();
        cl.run(
            case.opencl,
            case.abi,
            case.grid,
            case.block,
            case.dynamic_shared_bytes,
            &mut ocl,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_agree(case.name, case.agree, &sim, &ocl);
        if wrote {
            assert_ne!(sim, case.args, "{}: the kernel wrote nothing", case.name);
        }
        ran.push(case.name);
    }
    ran
}

#[test]
fn the_numba_corpus_agrees_between_sim_and_opencl() {
    let Some(mut cl) = cl() else { return };
    let ran = agree_with_opencl(&mut cl, numba::cases(), false);
    eprintln!(
        "sim and OpenCL ({}) agree on {} kernels: {}",
        cl.device_name,
        ran.len(),
        ran.join(", ")
    );
}

#[test]
fn the_views_corpus_agrees_between_sim_and_opencl() {
    let Some(mut cl) = cl() else { return };
    agree_with_opencl(&mut cl, macro_corpus::views::cases(), true);
}

/// Own-index stores and read-modify-writes (the loop form's windows on the simulator).
#[test]
fn the_own_index_corpus_agrees_between_sim_and_opencl() {
    let Some(mut cl) = cl() else { return };
    agree_with_opencl(&mut cl, macro_corpus::own::cases(), true);
}

/// Runs `case` on the simulator and on PoCL, both expected to fail: the two errors, and the
/// OpenCL run's arguments as the kernel left them.
fn fault_on_both(
    cl: &mut opencl_common::Cl,
    case: &macro_corpus::case::Case,
) -> (rumba::Error, rumba::Error, Vec<HostArg>) {
    let sim = run_backend(case).unwrap_err();
    let mut args = case.args.clone();
    let ocl = cl
        .run(case.opencl, case.abi, case.grid, case.block, 0, &mut args)
        .unwrap_err();
    (sim, ocl, args)
}

#[test]
fn a_missing_row_is_the_same_kernel_fault_on_sim_and_opencl() {
    let Some(mut cl) = cl() else { return };
    let case = macro_corpus::case::Case {
        name: "bad_row_per_thread",
        function: macro_corpus::views::bad_row_per_thread().function().clone(),
        abi: &macro_corpus::views::bad_row_per_thread::ABI,
        opencl: macro_corpus::views::bad_row_per_thread::opencl_source(),
        cuda: macro_corpus::views::bad_row_per_thread::cuda_source(),
        grid: [2, 1, 1],
        block: [8, 1, 1],
        dynamic_shared_bytes: 0,
        args: vec![
            HostArg::array(&[0i32; 22], &[11, 2]),
            HostArg::zeros::<i32>(16),
        ],
        agree: macro_corpus::case::Agree::Exact,
    };
    let (sim, ocl, _) = fault_on_both(&mut cl, &case);
    for (who, err) in [("sim", &sim), ("opencl", &ocl)] {
        let rumba::Error::KernelFault {
            kernel,
            block,
            thread,
            message,
        } = err
        else {
            panic!("{who}: {err}");
        };
        assert_eq!(kernel, "bad_row_per_thread", "{who}");
        assert_eq!(block[0], 1, "{who}: {err}");
        assert!((3..8).contains(&thread[0]), "{who}: {err}");
        assert!(message.contains("axis 0 with size 11"), "{who}: {message}");
    }
}

#[test]
fn out_of_bounds_is_the_same_kernel_fault_on_sim_and_opencl() {
    let Some(mut cl) = cl() else { return };
    let case = macro_corpus::case::Case {
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
    let (sim, ocl, args) = fault_on_both(&mut cl, &case);
    for (who, err) in [("sim", &sim), ("opencl", &ocl)] {
        let rumba::Error::KernelFault {
            kernel,
            block,
            thread,
            message,
        } = err
        else {
            panic!("{who}: {err}");
        };
        assert_eq!(kernel, "out_of_bounds", "{who}");
        assert_eq!(block[0], 1, "{who}: {err}");
        assert!((3..8).contains(&thread[0]), "{who}: {err}");
        let index = 8 + thread[0];
        assert!(
            message.contains(&format!(
                "index ({index},) is out of bounds for axis 0 with size 11"
            )) || message.contains(&format!(
                "index {index} is out of bounds for axis 0 with size 11"
            )),
            "{who}: {message}"
        );
    }
    assert!(
        ocl.to_string().contains("store to global array `a[i]`"),
        "{ocl}"
    );
    // The in-bounds threads still wrote (no early exit).
    assert_eq!(args[0].values::<i32>(), (0..11).collect::<Vec<i32>>());
}

#[test]
fn division_by_zero_is_a_kernel_fault_on_sim_and_opencl() {
    let Some(mut cl) = cl() else { return };
    let mut a: Vec<i32> = (1..=16).collect();
    a[13] = 0;
    let case = macro_corpus::case::Case {
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
    let (sim, ocl, _) = fault_on_both(&mut cl, &case);
    for err in [&sim, &ocl] {
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
        assert!(err.to_string().contains("divide by zero"), "{err}");
    }
}
