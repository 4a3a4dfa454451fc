//! What can be wrong with one argument of a kernel launch ([`ArgumentError`]), carried by
//! [`Error::KernelArgument`](super::Error::KernelArgument) with the kernel's name and the
//! argument's position. The messages continue the sentence `kernel 'k': argument 2 …`.

use super::{Error, ShapeText};

/// What was wrong with a kernel argument.
///
/// ```
/// use rumba::error::{ArgumentError, Error};
/// let e = Error::KernelArgument {
///     kernel: "axpy".into(),
///     position: 1,
///     parameter: Some("x".into()),
///     problem: ArgumentError::ItemSize { found: 8, expected: 4, element: "f32" },
/// };
/// assert_eq!(
///     e.to_string(),
///     "kernel 'axpy': argument 1 (`x`) has 8-byte elements, but the kernel reads 4-byte f32"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentError {
    /// An array passed for a scalar parameter, or a scalar for an array.
    #[error("should be {expected} but the launch passed something else")]
    Kind {
        /// What the parameter takes (`an array`, `a scalar`, `a constant array`).
        expected: &'static str,
    },
    /// An array of another element size than the kernel reads.
    #[error("has {found}-byte elements, but the kernel reads {expected}-byte {element}")]
    ItemSize {
        /// Bytes per element of the array passed.
        found: usize,
        /// Bytes per element the kernel reads.
        expected: usize,
        /// The element type the kernel reads.
        element: &'static str,
    },
    /// A scalar of another size than the parameter's type.
    #[error("has {found} bytes but {element} has {expected}")]
    ScalarSize {
        /// Bytes passed.
        found: usize,
        /// Bytes of the parameter's type.
        expected: usize,
        /// The parameter's type.
        element: &'static str,
    },
    /// An array of another number of axes than the kernel indexes it with.
    #[error(
        "has {found} dimension(s) (shape {}) but the kernel indexes it with {expected} index component(s)",
        ShapeText(.shape)
    )]
    Rank {
        /// Axes of the array passed.
        found: usize,
        /// Index components the kernel uses.
        expected: usize,
        /// Its shape.
        shape: Vec<usize>,
    },
    /// An array whose address or strides are not aligned for the element type.
    #[error("is not aligned to the {align} bytes of {element}")]
    Misaligned {
        /// The alignment required.
        align: usize,
        /// The element type.
        element: &'static str,
    },
    /// An array whose layout the kernel's view cannot take (strides and offsets, axes); the
    /// inner error says which.
    #[error("has a layout the kernel cannot view: {0}")]
    Layout(Box<Error>),
    /// An array whose layout does not lie inside its device memory.
    #[error("does not fit its device memory: {0}")]
    Placement(Box<Error>),
    /// The argument was claimed for plain own-index stores by another accessor of the launch.
    #[error("was claimed for plain own-index stores, so nothing else may reach it")]
    Claimed,
    /// A read-only argument the kernel writes.
    #[error("is read-only but the kernel writes it")]
    ReadOnly,
    /// An argument the kernel writes, passed as something that must not be written (`what`).
    #[error("is written by the kernel, but the argument is {what}")]
    Written {
        /// What was passed, and what to pass instead.
        what: String,
    },
    /// An argument read with plain loads that may be written while the kernel runs.
    #[error("may be written while the kernel runs, so it cannot be read with plain loads")]
    MayBeWritten,
    /// Plain own-index stores to an array of `ndim` dimensions whose layout or launch does not
    /// allow them: they need a contiguous 1-d array in a 1-d launch, or a 2-d array with
    /// contiguous, non-overlapping rows in a launch one block and one grid layer deep along z.
    #[error(
        "is a {ndim}-d array whose layout or launch does not allow plain own-index stores (they need a contiguous 1-d array in a 1-d launch, or a 2-d array with contiguous, non-overlapping rows in a launch without a z extent)"
    )]
    OwnIndexLayout {
        /// The array's number of dimensions.
        ndim: usize,
    },
    /// Plain stores to an array that is not this launch's alone.
    #[error("is not this launch's alone, so it cannot be stored to with plain stores")]
    NotExclusive,
}

impl ArgumentError {
    /// Refuses argument `position`, an array of `found`-byte elements, with
    /// [`ItemSize`](Self::ItemSize) unless the kernel's element type `T` has that size.
    pub(crate) fn check_item_size<T>(position: usize, found: usize) -> Result<(), Error> {
        if found == size_of::<T>() {
            return Ok(());
        }
        Err(Error::argument(
            position,
            ArgumentError::ItemSize {
                found,
                expected: size_of::<T>(),
                element: std::any::type_name::<T>(),
            },
        ))
    }
}
