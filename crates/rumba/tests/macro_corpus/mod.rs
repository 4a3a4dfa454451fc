//! The kernel corpus of the macro tests: the peer workloads and kernels ported from Numba's
//! CUDA tests (shared, dynamic shared, local and constant memory, barriers with values, atomics,
//! records, device functions, control flow), each as a [`case::Case`] that runs the same inputs
//! on the simulator (or the backend under test) and on OpenCL.
#![allow(dead_code)]

pub mod case;
pub mod constructs;
pub mod numba;
pub mod peer;

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
        constructs::literals_and_consts,
        constructs::operators,
        constructs::casts_and_math,
        constructs::control,
        constructs::memory,
        constructs::atomics_all,
    ]
}
