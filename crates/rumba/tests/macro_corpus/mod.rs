//! The kernel corpus of the macro tests: the peer workloads and kernels ported from Numba's
//! CUDA tests (shared, dynamic shared, local and constant memory, barriers with values, atomics,
//! records, device functions, control flow), each as a [`case::Case`] that runs the same inputs
//! on the simulator (or the backend under test) and on OpenCL.
#![allow(dead_code)]

pub mod case;
pub mod numba;
pub mod peer;
