//! [`Launcher`]: a configured launch — grid, block, stream and dynamic shared memory — made by
//! [`Kernel::configure`] and run by [`Launcher::launch`] (Numba's
//! `kernel[grid, block, stream, dynamic_shared_bytes](…)`).

use super::args::LaunchArgs;
use super::kernel::Kernel;
use super::params::Params;
use crate::error::Result;
use crate::kernel::LaunchConfig;
use crate::stream::Stream;

/// A configured launch: Numba's `kernel[grid, block, stream, dynamic_shared_bytes]`. Made by
/// [`Kernel::configure`]; [`launch`](Launcher::launch) runs it.
///
/// ```
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn reverse(t: &Thread, o: &mut Arr<f32>) {
///     let s = t.dynamic_shared::<f32>();
///     let i = t.thread_idx().x as usize;
///     s[i] = i as f32;
///     t.syncthreads();
///     o[i] = s[s.len() - 1 - i];
/// }
///
/// # fn main() {
/// let d = rumba::device_array::<f32, _>(4, rumba::Order::C).unwrap();
/// reverse().configure(1, 4).dynamic_shared_bytes(16).launch((&d,)).unwrap();
/// assert_eq!(d.copy_to_host().unwrap().to_vec(), [3.0, 2.0, 1.0, 0.0]);
/// # }
/// ```
#[derive(Debug)]
pub struct Launcher<'k, P: Params> {
    pub(super) kernel: &'k Kernel<P>,
    pub(super) config: LaunchConfig,
    pub(super) stream: Option<Stream>,
}

impl<P: Params> Launcher<'_, P> {
    /// Runs the launch on `stream` instead of the default stream.
    ///
    /// ```
    /// use rumba::kernel::prelude::*;
    ///
    /// #[kernel]
    /// fn one(t: &Thread, o: &mut Arr<u8>) {
    ///     o[t.grid1()] = 1;
    /// }
    ///
    /// # fn main() {
    /// let d = rumba::device_array::<u8, _>(2, rumba::Order::C).unwrap();
    /// let s = rumba::stream().unwrap();
    /// one().configure(1, 2).stream(&s).launch((&d,)).unwrap();
    /// s.synchronize().unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [1, 1]);
    /// # }
    /// ```
    pub fn stream(mut self, stream: &Stream) -> Self {
        self.stream = Some(stream.clone());
        self
    }

    /// Bytes of dynamic shared memory per block (see
    /// [`ThreadCtx::dynamic_shared`](crate::kernel::ThreadCtx::dynamic_shared)).
    ///
    /// ```
    /// use rumba::kernel::prelude::*;
    ///
    /// #[kernel]
    /// fn shared_len(t: &Thread, out: &mut Arr<u64>) {
    ///     let s = t.dynamic_shared::<u8>();
    ///     out[0] = s.len() as u64;
    /// }
    ///
    /// # fn main() {
    /// let out = rumba::device_array::<u64, _>(1, rumba::Order::C).unwrap();
    /// shared_len().configure(1, 1).dynamic_shared_bytes(8).launch((&out,)).unwrap();
    /// assert_eq!(out.copy_to_host().unwrap()[0], 8);
    /// # }
    /// ```
    pub fn dynamic_shared_bytes(mut self, bytes: usize) -> Self {
        self.config.dynamic_shared_bytes = bytes;
        self
    }

    /// The configuration so far.
    ///
    /// ```
    /// let k = rumba::kernel::Kernel::<()>::new("k", |_, ()| {});
    /// assert_eq!(k.configure((2, 3), 32).config().num_blocks(), 6);
    /// ```
    pub fn config(&self) -> &LaunchConfig {
        &self.config
    }

    /// Launches with `args` (see [`Kernel::launch`]).
    ///
    /// # Errors
    /// As [`Kernel::launch`].
    ///
    /// ```
    /// use rumba::kernel::prelude::*;
    ///
    /// #[kernel]
    /// fn set(t: &Thread, a: &mut Arr<u32>, v: u32) {
    ///     a[t.grid1()] = v;
    /// }
    ///
    /// # fn main() {
    /// let mut host = ndarray::Array1::<u32>::zeros(3);
    /// set().configure(1, 3).launch((&mut host, 9)).unwrap(); // copied in and back
    /// assert_eq!(host.to_vec(), [9, 9, 9]);
    /// # }
    /// ```
    pub fn launch<A: LaunchArgs<P>>(self, args: A) -> Result<()> {
        self.kernel.launch(&self.config, self.stream.as_ref(), args)
    }
}
