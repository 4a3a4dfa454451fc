//! The kernel corpus of the macro tests: the peer workloads and kernels ported from Numba's
//! CUDA tests (shared, dynamic shared, local and constant memory, barriers with values, atomics,
//! records, device functions, control flow, own-index outputs), each as a [`case::Case`] that
//! runs the same inputs on the simulator (or the backend under test) and on OpenCL.
//!
//! The kernels the `rumba` command ships are included from its sources, not copied: [`peer`]
//! (the bench's and the demo's workloads) and [`cli`] (the self-test's and the demo's kernels),
//! so NVRTC, PoCL and the golden files check exactly what runs there.
#![allow(dead_code)]

pub mod case;
#[path = "../../../rumba-cli/src/kernels.rs"]
pub mod cli;
pub mod constructs;
pub mod device_fns;
pub mod generics;
pub mod lanes;
pub mod numba;
pub mod own;
#[path = "../../../rumba-cli/src/bench/kernels.rs"]
pub mod peer;
pub mod ranks;
pub mod records;
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
        peer::transpose,
        peer::stencil5,
        peer::histogram,
        peer::scan_blocks,
        peer::scan_add,
        peer::nbody,
        peer::sgemm,
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
        warp::narrowed_lanes,
        lanes::lane_loops,
        lanes::lane_loop_beside_fault,
        lanes::local_lengths,
        own::own2_index,
        own::own2_past_the_edge,
        own::own_accumulate,
        own::own2_update,
        own::neighbour_read,
        device_fns::use_add2f,
        device_fns::row_sums_dev,
        device_fns::one_helper_every_space,
        device_fns::histogram_dev,
        device_fns::tuples_dev,
        device_fns::scale_by_table,
        ranks::zero_dim,
        ranks::six_dims,
        ranks::many_dims_block,
        ranks::reshape_infer,
        ranks::reshape_zero_dim,
        ranks::numba_slice_copy,
        ranks::slice_rules,
        ranks::bad_slice,
        ranks::zero_step,
        ranks::shared_slices,
        ranks::oob_five_dims,
        ranks::const_ranks,
        records::set_a,
        records::set_b,
        records::set_record,
        records::fields_per_thread,
        records::records_as_values,
        records::record_write_array,
        records::record_read_array,
        records::sub_index_oob,
        records::set_charseq,
        records::get_charseq,
        records::shared_records,
        generics::axpy_f32,
        generics::axpy_f64,
        generics::clamp_mixed,
    ]
    .into_iter()
    .chain(generic_sources())
    .collect()
}

/// `(name, CUDA C, OpenCL C)` of instances of the generic kernels of the corpus (every
/// instance of the small ones, samples of the others).
pub fn generic_sources() -> Vec<(&'static str, &'static str, &'static str)> {
    fn leak(s: String) -> &'static str {
        Box::leak(s.into_boxed_str())
    }
    macro_rules! inst {
        ($($k:ident::<$($t:tt),+>),+ $(,)?) => {
            vec![$((
                stringify!($k),
                leak(generics::$k::cuda_source::<$($t),+>()),
                leak(generics::$k::opencl_source::<$($t),+>()),
            )),+]
        };
    }
    inst![
        axpy::<f32>,
        axpy::<f64>,
        fill::<i8>,
        fill::<u8>,
        fill::<i16>,
        fill::<u16>,
        fill::<i32>,
        fill::<u32>,
        fill::<i64>,
        fill::<u64>,
        fill::<isize>,
        fill::<usize>,
        fill::<f32>,
        fill::<f64>,
        convert_to::<u8>,
        convert_to::<i64>,
        convert_to::<f32>,
        clamp_all::<u16>,
        clamp_all::<f64>,
        block_sum::<i32, 32>,
        block_sum::<f64, 64>,
        scale_into::<i8, f64>,
        scale_into::<usize, f32>,
        count_into::<i32>,
        count_into::<u64>,
        count_into::<f32>,
        count_into::<f64>,
    ]
}
