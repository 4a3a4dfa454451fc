//! The kernel corpus of the macro tests: the peer workloads and kernels ported from Numba's
//! CUDA tests (shared, dynamic shared, local and constant memory, barriers with values, atomics,
//! records, device functions, control flow), each as a [`case::Case`] that runs the same inputs
//! on the simulator (or the backend under test) and on OpenCL.
//!
//! The kernels the `rumba` command ships are included from its sources, not copied: [`peer`]
//! (the bench's and the demo's workloads) and [`cli`] (the self-test's and the demo's kernels),
//! so NVRTC, PoCL and the golden files check exactly what runs there.
#![allow(dead_code)]

pub mod case;
#[path = "../../../rumba-cli/src/kernels.rs"]
pub mod cli;
pub mod constructs;
pub mod numba;
#[path = "../../../rumba-cli/src/bench/kernels.rs"]
pub mod peer;
pub mod views;
pub mod warp;

/// `(name, CUDA C, OpenCL C)` of every kernel in the corpus.
pub fn all_sources() -> Vec<(&'static str, &'static str, &'static str)> {
    macro_rules! src {
        ($($m:ident::$k:ident),+ $(,)?) => {
            vec![$((stringify!($k), $m::$k::cuda_source(), $m::$k::opencl_source())),+]
        };
    }
    src![
        peer::vadd,
        peer::matmul_shared,
        peer::reduce_shared,
        peer::reduce_warp,
        peer::empty,
        cli::st_dyn_reverse,
        cli::st_local,
        cli::st_const,
        cli::st_barrier_values,
        cli::st_atomics,
        cli::st_cas_max,
        cli::st_strided,
        cli::oob,
        numba::thread_zero_fills_shared,
        numba::shared_2d_ratios,
        numba::dynamic_shared_floats,
        numba::local_copy,
        numba::local_2d_private,
        numba::const_lookup,
        numba::const_2d,
        numba::barrier_values,
        numba::atomics,
        numba::cas_max,
        numba::affine,
        numba::use_device_fns,
        numba::control_flow,
        numba::int_semantics,
        numba::transcendental,
        numba::complex_ops,
        numba::complex_local_shared,
        numba::out_of_bounds,
        numba::divide,
        views::reshape_runtime,
        views::reshape_write,
        views::reshape_chain,
        views::view_bits,
        views::view_bytes,
        views::view_wider,
        views::view_bool,
        views::row_sums,
        views::columns,
        views::shared_tile,
        views::local_bytes,
        views::bad_reshape,
        views::bad_row,
        views::bad_view,
        views::views_across_barriers,
        views::bad_row_per_thread,
        views::const_table_rows,
        views::views_kept_across_barriers,
        views::numba_array_reshape1d,
        views::numba_array_reshape2d,
        views::numba_array_reshape3d,
        views::numba_reinterpret_array_type,
        views::numba_carray,
        views::numba_slice_as_arg,
        constructs::literals_and_consts,
        constructs::operators,
        constructs::casts_and_math,
        constructs::control,
        constructs::memory,
        constructs::atomics_all,
        warp::warp_mix,
        warp::warp_after_return,
        warp::warp_sum_u64,
    ]
}
