//! rumba: Numba's GPU memory-management model for Rust.
#![warn(missing_docs)]

pub mod array;
pub mod error;

pub use error::{Error, Result};
