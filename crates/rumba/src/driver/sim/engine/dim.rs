//! Launch geometry: [`Dim3`] and the validated [`LaunchConfig`].
//!
//! Pure arithmetic with no memory or execution in it: coordinates, counts, the limits of a
//! compute-capability-7.x-like device, and the checks a launch must pass before any block runs.
//! This module touches nothing else.

use std::fmt;

use crate::error::{Error, Result};

/// The most threads one block may have (product of the block's three dimensions).
///
/// ```
/// assert_eq!(rumba::kernel::MAX_THREADS_PER_BLOCK, 1024);
/// ```
pub const MAX_THREADS_PER_BLOCK: u32 = 1024;

/// Per-axis limits of a block's dimensions `(x, y, z)`.
///
/// ```
/// assert_eq!(rumba::kernel::MAX_BLOCK_DIM, [1024, 1024, 64]);
/// ```
pub const MAX_BLOCK_DIM: [u32; 3] = [1024, 1024, 64];

/// Per-axis limits of a grid's dimensions `(x, y, z)`.
///
/// ```
/// assert_eq!(rumba::kernel::MAX_GRID_DIM[0], 2_147_483_647);
/// ```
pub const MAX_GRID_DIM: [u32; 3] = [(1 << 31) - 1, 65_535, 65_535];

/// Shared memory available to one block, static and dynamic together, in bytes (CUDA's default
/// 48 KiB without opt-in).
///
/// ```
/// assert_eq!(rumba::kernel::SHARED_MEMORY_PER_BLOCK, 48 * 1024);
/// ```
pub const SHARED_MEMORY_PER_BLOCK: usize = 48 * 1024;

pub use crate::driver::WARP_SIZE;

/// A grid or block size, or a block or thread coordinate, in three dimensions.
///
/// Missing trailing dimensions are 1 for sizes: `Dim3::from(8)` is `(8, 1, 1)` and
/// `Dim3::from((4, 2))` is `(4, 2, 1)`.
///
/// ```
/// use rumba::kernel::Dim3;
/// let d = Dim3::from((4, 2));
/// assert_eq!((d.x, d.y, d.z), (4, 2, 1));
/// assert_eq!(d.count(), 8);
/// assert_eq!(d.to_string(), "(4, 2, 1)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// Fastest-varying dimension.
    pub x: u32,
    /// Second dimension.
    pub y: u32,
    /// Slowest-varying dimension.
    pub z: u32,
}

impl Dim3 {
    /// Builds a `Dim3` from its three components.
    ///
    /// ```
    /// let d = rumba::kernel::Dim3::new(1, 2, 3);
    /// assert_eq!(d.to_array(), [1, 2, 3]);
    /// ```
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Dim3 { x, y, z }
    }

    /// The number of points in the box `x * y * z` (without overflow: the result is `u64`).
    ///
    /// ```
    /// assert_eq!(rumba::kernel::Dim3::new(1024, 1024, 64).count(), 1 << 26);
    /// ```
    pub const fn count(self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// The components as `[x, y, z]`, the form used by [`Error::KernelFault`].
    ///
    /// ```
    /// assert_eq!(rumba::kernel::Dim3::from(7).to_array(), [7, 1, 1]);
    /// ```
    pub const fn to_array(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }

    /// The coordinate of the `linear`-th point of a box of size `extent`, x fastest.
    ///
    /// ```
    /// use rumba::kernel::Dim3;
    /// assert_eq!(Dim3::from_linear(7, Dim3::new(2, 3, 4)), Dim3::new(1, 0, 1));
    /// ```
    pub const fn from_linear(linear: u64, extent: Dim3) -> Dim3 {
        let x = (linear % extent.x as u64) as u32;
        let rest = linear / extent.x as u64;
        let y = (rest % extent.y as u64) as u32;
        let z = (rest / extent.y as u64) as u32;
        Dim3 { x, y, z }
    }

    /// The linear position of this coordinate in a box of size `extent`, x fastest.
    ///
    /// ```
    /// use rumba::kernel::Dim3;
    /// assert_eq!(Dim3::new(1, 0, 1).linear_in(Dim3::new(2, 3, 4)), 7);
    /// ```
    pub const fn linear_in(self, extent: Dim3) -> u64 {
        (self.z as u64 * extent.y as u64 + self.y as u64) * extent.x as u64 + self.x as u64
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3::new(x, 1, 1)
    }
}

impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Self {
        Dim3::new(x, y, 1)
    }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3::new(x, y, z)
    }
}

impl From<[u32; 3]> for Dim3 {
    fn from([x, y, z]: [u32; 3]) -> Self {
        Dim3::new(x, y, z)
    }
}

/// The geometry of one launch: grid and block sizes and bytes of dynamic shared memory.
///
/// Build it with [`LaunchConfig::new`]; [`validate`](LaunchConfig::validate) (which
/// [`run_grid`](crate::kernel::run_grid) calls) checks it against the device limits.
///
/// ```
/// use rumba::kernel::LaunchConfig;
/// let cfg = LaunchConfig::new(64, (16, 16)).with_dynamic_shared_bytes(1024);
/// assert_eq!(cfg.threads_per_block(), 256);
/// assert_eq!(cfg.num_blocks(), 64);
/// assert!(cfg.validate().is_ok());
/// assert!(LaunchConfig::new(1, 2048).validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Number of blocks along each axis.
    pub grid: Dim3,
    /// Number of threads per block along each axis.
    pub block: Dim3,
    /// Bytes of dynamic shared memory per block (the buffer behind
    /// [`ThreadCtx::dynamic_shared`](crate::kernel::ThreadCtx::dynamic_shared)).
    pub dynamic_shared_bytes: usize,
}

impl LaunchConfig {
    /// A launch of `grid` blocks of `block` threads with no dynamic shared memory.
    ///
    /// ```
    /// let cfg = rumba::kernel::LaunchConfig::new((2, 2), 32);
    /// assert_eq!(cfg.num_blocks(), 4);
    /// ```
    pub fn new(grid: impl Into<Dim3>, block: impl Into<Dim3>) -> Self {
        LaunchConfig {
            grid: grid.into(),
            block: block.into(),
            dynamic_shared_bytes: 0,
        }
    }

    /// Sets the bytes of dynamic shared memory per block.
    ///
    /// ```
    /// let cfg = rumba::kernel::LaunchConfig::new(1, 1).with_dynamic_shared_bytes(200);
    /// assert_eq!(cfg.dynamic_shared_bytes, 200);
    /// ```
    pub fn with_dynamic_shared_bytes(mut self, bytes: usize) -> Self {
        self.dynamic_shared_bytes = bytes;
        self
    }

    /// Threads in one block.
    ///
    /// ```
    /// assert_eq!(rumba::kernel::LaunchConfig::new(1, (8, 4, 2)).threads_per_block(), 64);
    /// ```
    pub fn threads_per_block(&self) -> u64 {
        self.block.count()
    }

    /// Blocks in the grid.
    ///
    /// ```
    /// assert_eq!(rumba::kernel::LaunchConfig::new((3, 5), 1).num_blocks(), 15);
    /// ```
    pub fn num_blocks(&self) -> u64 {
        self.grid.count()
    }

    /// Checks the configuration against the device limits: no zero dimension, each axis within
    /// [`MAX_GRID_DIM`] / [`MAX_BLOCK_DIM`], at most [`MAX_THREADS_PER_BLOCK`] threads per block
    /// and at most [`SHARED_MEMORY_PER_BLOCK`] bytes of dynamic shared memory (the simulator's
    /// limit; a launch holds it to its device's with [`validate_for`](Self::validate_for)).
    ///
    /// # Errors
    /// [`Error::InvalidLaunch`] with the configuration and the offending value.
    ///
    /// ```
    /// use rumba::{Error, kernel::LaunchConfig};
    /// let err = LaunchConfig::new((4, 0), 32).validate().unwrap_err();
    /// assert!(matches!(err, Error::InvalidLaunch { grid: [4, 0, 1], ref reason, .. } if reason.contains("grid dimension y is 0")));
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.validate_for(SHARED_MEMORY_PER_BLOCK)
    }

    /// [`validate`](Self::validate) with the dynamic shared memory held to `shared_limit` bytes:
    /// the device's shared memory per block
    /// ([`DeviceInfo::max_shared_memory_per_block`](crate::driver::DeviceInfo::max_shared_memory_per_block)),
    /// which is what every backend holds static and dynamic shared memory together to.
    ///
    /// # Errors
    /// As [`validate`](Self::validate).
    ///
    /// ```
    /// use rumba::kernel::LaunchConfig;
    /// let cfg = LaunchConfig::new(1, 32).with_dynamic_shared_bytes(64 << 10);
    /// assert!(cfg.validate().is_err()); // more than the simulator's 48 KiB
    /// assert!(cfg.validate_for(2 << 20).is_ok()); // a device with 2 MiB per block
    /// ```
    pub fn validate_for(&self, shared_limit: usize) -> Result<()> {
        let refuse = |reason: String| Error::InvalidLaunch {
            grid: self.grid.to_array(),
            block: self.block.to_array(),
            dynamic_shared_bytes: self.dynamic_shared_bytes,
            reason,
        };
        check_dims("grid", self.grid, MAX_GRID_DIM).map_err(refuse)?;
        check_dims("block", self.block, MAX_BLOCK_DIM).map_err(refuse)?;
        let threads = self.threads_per_block();
        if threads > MAX_THREADS_PER_BLOCK as u64 {
            return Err(refuse(format!(
                "block {} has {threads} threads, more than the limit of {MAX_THREADS_PER_BLOCK} per block",
                self.block
            )));
        }
        if self.dynamic_shared_bytes > shared_limit {
            return Err(refuse(format!(
                "{} bytes of dynamic shared memory requested, more than the {shared_limit} bytes available per block",
                self.dynamic_shared_bytes
            )));
        }
        Ok(())
    }
}

/// The first dimension of `d` that is 0 or above its limit, in words.
fn check_dims(what: &str, d: Dim3, max: [u32; 3]) -> std::result::Result<(), String> {
    for (axis, (value, limit)) in ["x", "y", "z"]
        .iter()
        .zip(d.to_array().into_iter().zip(max))
    {
        if value == 0 {
            return Err(format!(
                "{what} dimension {axis} is 0 in {what} {d}: every dimension must be at least 1"
            ));
        }
        if value > limit {
            return Err(format!(
                "{what} dimension {axis} is {value} in {what} {d}, more than the limit of {limit}"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_round_trips() {
        let e = Dim3::new(3, 4, 5);
        for l in 0..e.count() {
            assert_eq!(Dim3::from_linear(l, e).linear_in(e), l);
        }
    }

    #[test]
    fn validation_names_the_value() {
        let msg = |c: LaunchConfig| c.validate().unwrap_err().to_string();
        assert!(msg(LaunchConfig::new(0, 1)).contains("grid dimension x is 0"));
        assert!(msg(LaunchConfig::new(1, (1, 1, 65))).contains("block dimension z is 65"));
        assert!(msg(LaunchConfig::new(1, (64, 32))).contains("2048 threads"));
        assert!(msg(LaunchConfig::new((1, 65_536), 1)).contains("grid dimension y is 65536"));
        assert!(
            msg(LaunchConfig::new(1, 1).with_dynamic_shared_bytes(1 << 20))
                .contains("1048576 bytes")
        );
        assert!(
            LaunchConfig::new(MAX_GRID_DIM, (1024, 1, 1))
                .validate()
                .is_ok()
        );
    }
}
