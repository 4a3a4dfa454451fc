//! Every CUDA C source in the repository compiles with NVRTC: the `.cu` files and every kernel
//! `#[rumba::kernel]` generates in the test corpus and in the ported behaviour tests
//! (`ported_kernels`), with the same options the CUDA backend uses (`--fmad=false`, IEEE division
//! and square root) — to PTX for NVRTC's default architecture, and to machine code for `sm_90`
//! (what the backend loads on an H100 / H200).
//!
//! Needs the `cuda` feature and an NVRTC library on the loader path: CI runs this file twice, with
//! the pip packages `nvidia-cuda-nvrtc-cu12` (NVRTC 12) and `nvidia-cuda-nvrtc` (NVRTC 13), each
//! with its `lib` folder on `LD_LIBRARY_PATH` and `RUMBA_EXPECT_NVRTC_MAJOR` naming the version
//! that must have been loaded. Without NVRTC the tests say so and pass — unless
//! `RUMBA_REQUIRE_NVRTC=1` (set by `.ci/run`), where a missing NVRTC is a failure, so CI can never
//! skip the check silently. `RUMBA_SOURCE_ROOT` names the repository to scan when the executable
//! runs away from where it was built.
#![cfg(feature = "cuda")]

mod macro_corpus;
mod ported_kernels;

use std::path::{Path, PathBuf};

use rumba::driver::cuda::builtin;
use rumba::driver::cuda::nvrtc::{self, Target};

fn cuda_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() {
            if name != "target" && !name.to_string_lossy().starts_with('.') {
                cuda_sources(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "cu") {
            out.push(p);
        }
    }
}

/// The `.cu` files of the repository: where this test was built from, unless `RUMBA_SOURCE_ROOT`
/// says otherwise (the GPU kit runs this executable on another machine, from a copy of the
/// repository).
fn cu_files() -> Vec<PathBuf> {
    let root = std::env::var_os("RUMBA_SOURCE_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let mut files = Vec::new();
    cuda_sources(&root, &mut files);
    files.sort();
    assert!(
        !files.is_empty(),
        "no .cu files found under {}",
        root.display()
    );
    files
}

/// Every generated CUDA source of the corpus and the ported behaviour tests: (entry, source).
fn generated_sources() -> Vec<(&'static str, &'static str)> {
    macro_corpus::all_sources()
        .into_iter()
        .chain(ported_kernels::all_sources())
        .map(|(n, c, _)| (n, c))
        .collect()
}

#[test]
fn the_expected_nvrtc_is_the_one_loaded() {
    if !nvrtc_or_skip() {
        return;
    }
    let lib = nvrtc::library().unwrap();
    eprintln!("using {lib}");
    assert!(
        lib.archs.contains(&90),
        "{lib} cannot compile for sm_90 (H100 / H200)"
    );
    if let Ok(want) = std::env::var("RUMBA_EXPECT_NVRTC_MAJOR") {
        assert_eq!(
            lib.version.0.to_string(),
            want,
            "RUMBA_EXPECT_NVRTC_MAJOR={want}, but {lib} was loaded"
        );
    }
}

#[test]
fn every_cuda_c_source_compiles_to_sm_90_machine_code() {
    if !nvrtc_or_skip() {
        return;
    }
    let files = cu_files();
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            (
                f.display().to_string(),
                std::fs::read_to_string(f).expect("read source"),
            )
        })
        .collect();
    let all: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .chain(generated_sources())
        .collect();
    let mut failures = Vec::new();
    for (name, src) in &all {
        match builtin::compile_for(name, src, Target::Cubin(90)) {
            Ok(cubin) => assert!(cubin.starts_with(b"\x7fELF"), "{name}: not an ELF image"),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "NVRTC failures for sm_90:\n{}",
        failures.join("\n")
    );
    // What the backend picks for an H100 with this NVRTC: its machine code.
    let (image, target) = builtin::compile_for_device(all[0].0, all[0].1, (9, 0)).unwrap();
    assert_eq!(target, Target::Cubin(90));
    assert!(image.starts_with(b"\x7fELF"));
    eprintln!(
        "NVRTC compiled {} CUDA C source(s) to sm_90 machine code",
        all.len()
    );
}

/// The fault record the device header declares (`struct rumba_fault`) has the layout the host
/// decodes (`crates/rumba-kernel-ir/ABI.md` §5, `KernelAbi::decode_fault`, the CUDA backend's
/// read-back). NVRTC has no `offsetof`, so a probe kernel stores to each field through a
/// `volatile` pointer (one store per field, in order) and the PTX shows the byte offsets.
#[test]
fn the_fault_record_layout_is_the_one_the_host_decodes() {
    if !nvrtc_or_skip() {
        return;
    }
    // The decoder's offsets: flag, code, site, ndim, block, thread, index, shape, reserved, and
    // the next record (the size).
    let want: [u64; 10] = [0, 4, 8, 12, 16, 28, 40, 64, 88, 128];
    let src = "#include \"rumba_device.h\"\n\
               static_assert(sizeof(rumba_fault) == 128, \"rumba_fault is not 128 bytes\");\n\
               extern \"C\" __global__ void probe(rumba_fault* f) {\n\
                   volatile rumba_fault* v = f;\n\
                   v->flag = 1; v->code = 2; v->site = 3; v->ndim = 4; v->block[0] = 5;\n\
                   v->thread[0] = 6; v->index[0] = 7; v->shape[0] = 8; v->reserved[0] = 9;\n\
                   v[1].flag = 10;\n\
               }\n";
    let ptx = builtin::compile("fault_layout.cu", src).unwrap();
    let offsets: Vec<u64> = ptx
        .lines()
        .filter(|l| l.contains("st.volatile.global"))
        .map(|l| {
            let addr = &l[l.find('[').unwrap() + 1..l.find(']').unwrap()];
            addr.split_once('+').map_or(0, |(_, o)| o.parse().unwrap())
        })
        .collect();
    assert_eq!(
        offsets, want,
        "rumba_fault's fields are not where the host reads them"
    );
}

#[test]
fn every_cuda_c_source_compiles_with_nvrtc() {
    if !nvrtc_or_skip() {
        return;
    }
    let files = cu_files();
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("read source");
        match builtin::compile(&f.display().to_string(), &src) {
            Ok(ptx) => assert!(
                ptx.contains(".entry"),
                "{}: PTX has no kernel entry",
                f.display()
            ),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "NVRTC failures:\n{}",
        failures.join("\n")
    );
    // The check can fail: a broken source is reported, not compiled.
    let broken = builtin::compile(
        "broken.cu",
        "extern \"C\" __global__ void k() { undeclared(); }",
    );
    assert!(broken.is_err(), "NVRTC accepted a broken source");
    eprintln!("NVRTC compiled {} CUDA C file(s) to PTX", files.len());
}

fn nvrtc_or_skip() -> bool {
    let why = match nvrtc::library() {
        Ok(_) => return true,
        Err(e) => e.to_string(),
    };
    let required = std::env::var("RUMBA_REQUIRE_NVRTC").is_ok_and(|v| v == "1");
    assert!(!required, "RUMBA_REQUIRE_NVRTC=1 but {why}");
    eprintln!("SKIPPED: {why}");
    false
}

#[test]
fn every_generated_cuda_source_compiles_with_nvrtc() {
    if !nvrtc_or_skip() {
        return;
    }
    let sources = generated_sources();
    let mut failures = Vec::new();
    for (name, src) in &sources {
        let fast = *name == "fast_ops";
        match builtin::compile_with(name, src, fast) {
            Ok(ptx) => {
                assert!(
                    ptx.contains(&format!(".entry {name}(")),
                    "{name}: PTX has no entry `{name}`"
                );
                // No contraction (`--fmad=false`): the peer kernels call no math library
                // function (which may use fma internally), so their PTX must hold no fma.
                if ["vadd", "matmul_shared", "reduce_shared"].contains(name) {
                    assert!(
                        !ptx.contains("fma.rn"),
                        "{name}: NVRTC contracted a multiply-add"
                    );
                    assert!(
                        ptx.contains("mul.rn.f32") || *name != "matmul_shared",
                        "{name}: {ptx}"
                    );
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "NVRTC failures:\n{}",
        failures.join("\n")
    );
    eprintln!(
        "NVRTC compiled {} generated CUDA source(s) to PTX",
        sources.len()
    );
}

#[test]
fn built_in_sources_are_the_files_on_disk() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    for (name, src) in builtin::SOURCES {
        let on_disk = std::fs::read_to_string(dir.join(name)).expect("kernel file");
        assert_eq!(on_disk, src, "{name}");
    }
}

#[test]
fn without_a_driver_the_cuda_backend_is_a_typed_error_never_a_panic() {
    if rumba::driver::cuda::driver_library_present() {
        eprintln!(
            "SKIPPED: an NVIDIA driver is installed here; this test is for machines without one"
        );
        return;
    }
    let err = rumba::driver::cuda::open(&rumba::Config::default()).unwrap_err();
    assert!(
        matches!(err, rumba::Error::BackendUnavailable { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("libcuda.so.1"), "{err}");
}

/// Numba's `test_fastmath.py`: `#[rumba::kernel(fastmath)]` compiles with `--use_fast_math`, so
/// its PTX divides, takes square roots and sines approximately and flushes subnormals to zero;
/// the same kernel without it divides and takes square roots correctly rounded and has none of
/// those approximate instructions.
#[test]
fn fastmath_kernels_compile_to_approximate_instructions() {
    use ported_kernels::math::{exact_ops, fast_ops};
    if !nvrtc_or_skip() {
        return;
    }
    const { assert!(fast_ops::FASTMATH && !exact_ops::FASTMATH) };
    let fast = builtin::compile_with("fast_ops", fast_ops::cuda_source(), true).unwrap();
    let exact = builtin::compile_with("exact_ops", exact_ops::cuda_source(), false).unwrap();
    for want in [
        "div.approx.ftz.f32",
        "sqrt.approx.ftz.f32",
        "sin.approx.ftz.f32",
        "ex2.approx.ftz.f32",
        "lg2.approx.ftz.f32",
    ] {
        assert!(fast.contains(want), "fastmath PTX lacks {want}");
    }
    for want in ["div.rn.f32", "sqrt.rn.f32"] {
        assert!(exact.contains(want), "IEEE PTX lacks {want}");
    }
    // (libdevice's own expf / logf use ex2 / lg2 internally, around exact range reduction.)
    for unwanted in [
        "div.approx",
        "div.full",
        "sqrt.approx",
        "sin.approx",
        "cos.approx",
    ] {
        assert!(!exact.contains(unwanted), "IEEE PTX has {unwanted}");
    }
}
