//! The three emitters: [`rust`] (the simulator's per-thread body), [`c`] (CUDA C and OpenCL C,
//! with [`opencl_helpers`] generating what OpenCL lacks templates for).

pub mod c;
pub mod opencl_helpers;
pub mod rust;
