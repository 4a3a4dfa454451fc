//! Memory order of an array: C (row-major), F (column-major) or A ("whichever the array is").
//!
//! Touches nothing but itself.

/// Memory (or index) order, as numpy's `order=` argument.
///
/// - [`Order::C`]: row-major, the last index varies fastest.
/// - [`Order::F`]: column-major, the first index varies fastest.
/// - [`Order::A`]: for `reshape` and `ravel`, F when the array is F-contiguous and not
///   C-contiguous, else C. Where an allocation order is needed, `A` means C.
///
/// ```
/// use rumba::Order;
/// assert_eq!(Order::default(), Order::C);
/// assert_eq!(Order::A.to_string(), "A");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// Row-major.
    #[default]
    C,
    /// Column-major (Fortran).
    F,
    /// Keep the order of the input: F if it is F- and not C-contiguous, else C.
    A,
}

impl Order {
    /// The concrete order `A` stands for, given the input's contiguity flags; `C` and `F`
    /// are returned unchanged.
    ///
    /// ```
    /// use rumba::Order;
    /// assert_eq!(Order::A.resolve(false, true), Order::F);
    /// assert_eq!(Order::A.resolve(true, true), Order::C);
    /// assert_eq!(Order::F.resolve(true, false), Order::F);
    /// ```
    pub fn resolve(self, c_contiguous: bool, f_contiguous: bool) -> Order {
        match self {
            Order::A if f_contiguous && !c_contiguous => Order::F,
            Order::A => Order::C,
            o => o,
        }
    }
}

impl std::fmt::Display for Order {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Order::C => "C",
            Order::F => "F",
            Order::A => "A",
        })
    }
}
