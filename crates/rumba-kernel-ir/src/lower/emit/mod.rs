//! The emitters: [`rust`] (the simulator's per-thread body), [`wil`] (the simulator's block
//! body for the work-item-loop engine), [`c`] (CUDA C and OpenCL C, with [`opencl_helpers`]
//! generating what OpenCL lacks templates for).

pub mod c;
pub mod opencl_helpers;
pub mod rust;
pub mod wil;
