//! rumba: Numba's GPU memory-management model for Rust.
#![warn(missing_docs)]

pub mod error;
pub mod kernel;

pub use error::{Error, Result};
