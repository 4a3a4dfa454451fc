//! The kernels of the behaviour tests ported from Numba (`kernel_launch`, `kernel_const`,
//! `kernel_atomics`, `kernel_types`, `kernel_f16`, `kernel_capture`, and the few that `devices.rs` and `host_grained.rs` launch), written once
//! with `#[rumba::kernel]` so the same tests run on the simulator, on OpenCL (PoCL in CI) and on
//! CUDA. Shared with `nvrtc.rs`, which compiles every generated CUDA source here.
#![allow(dead_code)]

pub mod atomics;
pub mod behaviour;
pub mod capture;
pub mod constant;
pub mod fp16;
pub mod launch;
pub mod math;
pub mod types;
pub mod warp;

/// `(name, CUDA C, OpenCL C)` of every kernel in this module.
pub fn all_sources() -> Vec<(&'static str, &'static str, &'static str)> {
    macro_rules! src {
        ($($m:ident::$k:ident),+ $(,)?) => {
            vec![$((stringify!($k), $m::$k::cuda_source(), $m::$k::opencl_source())),+]
        };
    }
    src![
        capture::capture_basic,
        capture::capture_computation,
        capture::capture_write,
        capture::capture_multiple,
        capture::capture_2d,
        capture::capture_i32,
        capture::capture_f64,
        capture::capture_direct,
        capture::capture_scalar,
        capture::capture_keep,
        capture::capture_snapshot,
        capture::reads_empty,
        capture::reads_ranked,
        capture::capture_count,
        capture::capture_double_counts,
        capture::capture_reshaped,
        math::unary_f32,
        math::unary_f64,
        math::binary_f32,
        math::binary_f64,
        math::classify_f32,
        math::classify_f64,
        math::intrinsics_u8,
        math::intrinsics_i16,
        math::intrinsics_i32,
        math::intrinsics_u32,
        math::intrinsics_i64,
        math::intrinsics_u64,
        math::byte_perm,
        math::fast_ops,
        math::cmath_c32,
        math::cmath_c64,
        math::frexp_modf,
        math::frexp_modf_f32,
        math::exact_ops,
        warp::useless_syncwarp,
        warp::useless_syncwarp_with_mask,
        warp::coop_syncwarp,
        warp::useful_syncwarp,
        warp::shfl_modes,
        warp::shfl_with_val_i32,
        warp::shfl_with_val_i64,
        warp::shfl_with_val_f32,
        warp::shfl_with_val_f64,
        warp::votes,
        warp::wavebarrier_rotate,
        warp::independent_scheduling,
        warp::warp_reduce,
        atomics::extremes_i32,
        atomics::extremes_u32,
        atomics::extremes_i64,
        atomics::extremes_u64,
        atomics::extremes_f32,
        atomics::extremes_f64,
        atomics::extreme_f64,
        atomics::returns_old,
        atomics::extreme_shared,
        types::shared_bool,
        types::not_bool,
        types::bool_copy_count,
        fp16::f16_arith,
        fp16::f16_shared_sizes,
        fp16::f16_compare,
        fp16::f16_convert,
        fp16::f16_scalar,
        fp16::f16_shared,
        fp16::f16_local,
        launch::shared_sizes,
        launch::fill_then_read,
        launch::shared2d,
        launch::dyn50,
        launch::halves,
        launch::count,
        launch::and_or_i16,
        launch::and_or_i32,
        launch::and_or_i64,
        launch::local_copy,
        launch::local_c128,
        launch::atomics,
        launch::cas_max,
        launch::two_syncs,
        launch::gives_up,
        launch::fine,
        launch::noop,
        launch::strided,
        launch::scalars,
        launch::inc,
        launch::twice,
        launch::add,
        launch::mul,
        constant::const1d,
        constant::const_empty,
        constant::const2d,
        constant::const3d,
        constant::const_rec,
        constant::const_aligned,
        constant::const_mixed,
        constant::const_snapshot,
        constant::const_oob,
        behaviour::copy_plus_1,
        behaviour::vector_add_scalar,
        behaviour::add1,
    ]
}
