//! The lowering behind `#[rumba::kernel]` and `#[rumba::device]`: a Rust function in the kernel
//! subset (`docs/design/kernels.md` §2) becomes a small typed IR and then four programs with the
//! same meaning — the per-thread body for rumba's simulator (Rust tokens that keep the user's
//! spans and spell out every inferred type, so rustc re-checks the macro's inference), the block
//! body for the simulator's work-item-loop engine (`lower::emit::wil`), CUDA C for NVRTC and
//! OpenCL C. The kernel ABI of the two C targets is in `ABI.md` beside this
//! crate's `Cargo.toml`.
//!
//! This is a plain library so the lowering is unit-, golden- and property-testable without the
//! proc-macro machinery; `rumba-macros` is a thin shell around [`lower::lower_kernel`] and
//! [`lower::lower_device`].
//!
//! | module | what |
//! |---|---|
//! | [`target`] | element types, their C names, exact C literals, record declarations (no `syn`) |
//! | [`prelude`] | the OpenCL prelude and the run-time assembly of a program (no `syn`) |
//! | [`link`] | the run-time linker of device-function instances (call markers, no `syn`) |
//! | [`abi`] | [`abi::KernelAbi`] (the signature generated kernels carry) and the fault-record decoder (no `syn`) |
//! | `lower` | (feature `lower`) parsing and checks, inference, analyses, emitters |

// Every fallible public function says which errors it returns and when (CI denies warnings).
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod abi;
pub mod link;
pub mod prelude;
pub mod target;

#[cfg(feature = "lower")]
pub mod lower;
