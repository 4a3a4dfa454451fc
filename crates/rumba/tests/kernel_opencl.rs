//! Macro kernels on a real OpenCL driver (PoCL in CI) through the small harness in
//! `opencl_common`: every generated OpenCL source builds, and the simulator and OpenCL give
//! bit-identical results on the kernel corpus.

#[path = "macro_corpus/peer.rs"]
mod peer;
mod opencl_common;

use opencl_common::{ClArg, cl};
use rumba::array::Order;

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
fn peer_workloads_are_bit_exact_between_sim_and_opencl() {
    let Some(mut cl) = cl() else { return };
    // vadd
    let n = 1000;
    let (a, b) = (random(n, 1), random(n, 2));
    let (da, db) = (rumba::to_device(&a).unwrap(), rumba::to_device(&b).unwrap());
    let dc = rumba::device_array::<f32, _>(n, Order::C).unwrap();
    peer::vadd().configure(4, 256).launch((&da, &db, &dc)).unwrap();
    let mut args = [ClArg::array(&a, &[n]), ClArg::array(&b, &[n]), ClArg::array(&vec![0f32; n], &[n])];
    cl.run(&peer::vadd::OPENCL_SOURCE, &peer::vadd::ABI, [4, 1, 1], [256, 1, 1], 0, &mut args).unwrap();
    assert_eq!(bits(&args[2].values::<f32>()), bits(dc.copy_to_host().unwrap().as_slice().unwrap()));
    // matmul_shared, ragged size
    let n = 40;
    let (a, b) = (random(n * n, 3), random(n * n, 4));
    let ha = ndarray::Array2::from_shape_vec((n, n), a.clone()).unwrap();
    let hb = ndarray::Array2::from_shape_vec((n, n), b.clone()).unwrap();
    let (da, db) = (rumba::to_device(&ha).unwrap(), rumba::to_device(&hb).unwrap());
    let dc = rumba::device_array::<f32, _>((n, n), Order::C).unwrap();
    peer::matmul_shared().configure((3, 3), (16, 16)).launch((&da, &db, &dc)).unwrap();
    let mut args = [ClArg::array(&a, &[n, n]), ClArg::array(&b, &[n, n]), ClArg::array(&vec![0f32; n * n], &[n, n])];
    cl.run(&peer::matmul_shared::OPENCL_SOURCE, &peer::matmul_shared::ABI, [3, 3, 1], [16, 16, 1], 0, &mut args).unwrap();
    assert_eq!(bits(&args[2].values::<f32>()), bits(dc.copy_to_host().unwrap().as_slice().unwrap()));
    // reduce_shared
    let n = 3000;
    let x = random(n, 5);
    let blocks = n.div_ceil(256);
    let dx = rumba::to_device(&x).unwrap();
    let dp = rumba::device_array::<f32, _>(blocks, Order::C).unwrap();
    peer::reduce_shared().configure(blocks as u32, 256).launch((&dx, &dp)).unwrap();
    let mut args = [ClArg::array(&x, &[n]), ClArg::array(&vec![0f32; blocks], &[blocks])];
    cl.run(&peer::reduce_shared::OPENCL_SOURCE, &peer::reduce_shared::ABI, [blocks, 1, 1], [256, 1, 1], 0, &mut args).unwrap();
    assert_eq!(bits(&args[1].values::<f32>()), bits(dp.copy_to_host().unwrap().as_slice().unwrap()));
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}
