//! Running a macro-corpus [`Case`] on the simulator's two engines — the loop form and
//! coroutines — and checking that they agree bit for bit, faults included (addresses blanked).
#![allow(dead_code)]

use rumba::driver::{HostEngine, HostKernel, KernelFunction};

use crate::common;
use crate::macro_corpus::case::{Case, HostArg, run_backend};

/// Whether the tests run on the simulator (they compare its two engines). The cases share the
/// legacy default stream, whose errors are reported at the next synchronization: the tests
/// take turns (`common::serial`).
pub fn sim() -> bool {
    common::start(|_| {});
    common::test_backend() == rumba::config::BackendChoice::Sim
}

pub fn on(engine: HostEngine, f: &KernelFunction) -> KernelFunction {
    let mut f = f.clone();
    let host = f
        .form::<HostKernel>()
        .expect("a Rust form")
        .clone()
        .with_engine(engine);
    f.set_form(host);
    f
}

pub fn with_function(case: &Case, function: KernelFunction) -> Case {
    Case {
        name: case.name,
        function,
        abi: case.abi,
        opencl: case.opencl,
        cuda: case.cuda,
        grid: case.grid,
        block: case.block,
        dynamic_shared_bytes: case.dynamic_shared_bytes,
        args: case.args.clone(),
        agree: case.agree,
    }
}

/// A run's result or fault with its device addresses blanked (each run allocates its own
/// arrays).
pub fn without_addresses(r: &Result<Vec<HostArg>, rumba::Error>) -> String {
    crate::engines::without_addresses(&format!("{r:?}"))
}

/// Runs `case` on both engines and checks they agree exactly (outputs, or the whole fault but
/// for the arrays' addresses).
pub fn both_engines(case: &Case) -> Result<Vec<HostArg>, rumba::Error> {
    let loops = with_function(case, on(HostEngine::WorkItemLoops, &case.function));
    let coros = with_function(case, on(HostEngine::Coroutines, &case.function));
    let a = run_backend(&loops);
    let host = loops.function.form::<HostKernel>().unwrap();
    assert_eq!(host.last_engine(), Some(host.engine()), "{}", case.name);
    let b = run_backend(&coros);
    assert_eq!(
        without_addresses(&a),
        without_addresses(&b),
        "{}: the engines disagree",
        case.name
    );
    a
}

pub fn random(n: usize, seed: u64) -> Vec<f32> {
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
