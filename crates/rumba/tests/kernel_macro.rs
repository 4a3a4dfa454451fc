//! `#[rumba::kernel]` kernels on the simulator: the peer workloads and the kernel corpus give the
//! results the closure API gives, launch checks use the generated signature, and the generated
//! sources are exposed.

mod macro_corpus;

use macro_corpus::peer;

use rumba::Order;

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
fn vadd_adds() {
    let n = 1000;
    let (a, b) = (random(n, 1), random(n, 2));
    let (da, db) = (rumba::to_device(&a).unwrap(), rumba::to_device(&b).unwrap());
    let dc = rumba::device_array::<f32, _>(n, Order::C).unwrap();
    peer::vadd()
        .configure(n.div_ceil(256) as u32, 256)
        .launch((&da, &db, &dc))
        .unwrap();
    let c = dc.copy_to_host().unwrap();
    for i in 0..n {
        assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits());
    }
}

#[test]
fn matmul_shared_multiplies() {
    let n = 40;
    let a = ndarray::Array2::from_shape_vec((n, n), random(n * n, 3)).unwrap();
    let b = ndarray::Array2::from_shape_vec((n, n), random(n * n, 4)).unwrap();
    let (da, db) = (rumba::to_device(&a).unwrap(), rumba::to_device(&b).unwrap());
    let dc = rumba::device_array::<f32, _>((n, n), Order::C).unwrap();
    let g = n.div_ceil(16) as u32;
    peer::matmul_shared()
        .configure((g, g), (16, 16))
        .launch((&da, &db, &dc))
        .unwrap();
    let c = dc.copy_to_host().unwrap();
    // The kernel's own summation order: tiles of 16, j ascending, no contraction.
    for y in 0..n {
        for x in 0..n {
            let mut acc = 0.0f32;
            for k in 0..(g as usize * 16) {
                let (av, bv) = if k < n {
                    (a[(y, k)], b[(k, x)])
                } else {
                    (0.0, 0.0)
                };
                acc += av * bv;
            }
            assert_eq!(c[(y, x)].to_bits(), acc.to_bits(), "({y}, {x})");
        }
    }
}

#[test]
fn reduce_shared_sums_each_block() {
    let n = 1000;
    let x = random(n, 5);
    let blocks = n.div_ceil(256);
    let dx = rumba::to_device(&x).unwrap();
    let dp = rumba::device_array::<f32, _>(blocks, Order::C).unwrap();
    peer::reduce_shared()
        .configure(blocks as u32, 256)
        .launch((&dx, &dp))
        .unwrap();
    let p = dp.copy_to_host().unwrap();
    for blk in 0..blocks {
        let mut s: Vec<f32> = (0..256)
            .map(|t| x.get(blk * 256 + t).copied().unwrap_or(0.0))
            .collect();
        let mut stride = 128;
        while stride > 0 {
            for t in 0..stride {
                s[t] += s[t + stride];
            }
            stride /= 2;
        }
        assert_eq!(p[blk].to_bits(), s[0].to_bits());
    }
}

#[test]
fn a_launch_with_the_wrong_rank_is_refused_before_it_runs() {
    let d = rumba::device_array::<f32, _>((4, 4), Order::C).unwrap();
    let err = peer::vadd()
        .configure(1, 16)
        .launch((&d, &d, &d))
        .unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::KernelArgument {
                ref parameter,
                problem: rumba::error::ArgumentError::Rank { found: 2, expected: 1, .. },
                ..
            } if parameter.as_deref() == Some("a")
        ),
        "{err}"
    );
}

#[test]
fn sources_are_generated_and_inspectable() {
    assert!(peer::matmul_shared::CUDA_SOURCE.contains("#define TPB 16ull"));
    assert!(peer::matmul_shared::OPENCL_SOURCE.contains("#define TPB 16ul"));
    assert!(peer::matmul_shared::OPENCL_SOURCE.contains("#pragma OPENCL FP_CONTRACT OFF"));
    assert!(
        peer::matmul_shared::CUDA_SOURCE.contains("extern \"C\" __global__ void matmul_shared(")
    );
    assert_eq!(peer::vadd::ENTRY, "vadd");
    assert_eq!(peer::vadd::ABI.params.len(), 3);
    assert!(peer::vadd().abi().is_some());
    let f = peer::vadd();
    let cl = f
        .function()
        .form::<rumba::driver::OpenClKernelSource>()
        .unwrap();
    assert_eq!(
        (cl.entry.as_str(), cl.source.as_str()),
        ("vadd", peer::vadd::opencl_source())
    );
    let cu = f
        .function()
        .form::<rumba::driver::CudaKernelSource>()
        .unwrap();
    assert_eq!(cu.source, peer::vadd::cuda_source());
}
