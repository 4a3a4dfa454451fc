//! rumba: Numba's GPU memory-management model for Rust.
#![warn(missing_docs)]

pub mod config;
pub mod driver;
pub mod error;

pub use config::Config;
pub use error::{Error, Result};
