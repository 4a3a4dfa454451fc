//! Scoped routing: the device allocations a thread makes inside a closure go to another resource
//! ([`with_resource`]), or fall back to it only when the usual one is out of memory
//! ([`with_resource_on_oom`], PyTorch's `use_on_oom`).
//!
//! Scopes nest. From the outermost in, a [`with_resource`] scope replaces the resource
//! allocations go to; a [`with_resource_on_oom`] scope adds a fallback. An allocation tries the
//! resource in force, then the fallbacks of the scopes since it was set, innermost first, each
//! while the previous one fails for lack of memory.
//!
//! **Where routed memory is freed.** A buffer remembers the resource that made it, and its last
//! drop gives the memory back there — outside the scope, on another thread, after the scope's
//! closure returned or unwound — never to the context's own resource. The resource is kept alive
//! by its buffers. Only the thread that opened a scope is routed: threads it starts allocate as
//! usual (open a scope in them too).
//!
//! What is routed: device memory of contexts and memory managers (`memalloc`, device arrays,
//! stream allocations). Pinned host memory and managed memory are not. A routed resource serves
//! every device the thread allocates on; a block of another device than the context's is refused
//! (and given back to the resource that made it).
//!
//! This module touches only the calling thread's stack of scopes.

use std::cell::RefCell;
use std::sync::Arc;

use super::DeviceResource;

/// A resource that can be shared as an `Arc<dyn DeviceResource>`: an `Arc` of any resource.
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{PoolResource, SharedResource};
/// let ctx = rumba::current_context().unwrap();
/// let pool = Arc::new(PoolResource::new(&ctx.manager_context()).unwrap());
/// assert!(pool.shared().name().ends_with("PoolResource"));
/// ```
pub trait SharedResource {
    /// The resource as a shared trait object.
    fn shared(&self) -> Arc<dyn DeviceResource>;
}

impl<R: DeviceResource + 'static> SharedResource for Arc<R> {
    fn shared(&self) -> Arc<dyn DeviceResource> {
        self.clone()
    }
}

impl SharedResource for Arc<dyn DeviceResource> {
    fn shared(&self) -> Arc<dyn DeviceResource> {
        Arc::clone(self)
    }
}

struct Route {
    resource: Arc<dyn DeviceResource>,
    on_oom_only: bool,
}

thread_local! {
    static ROUTES: RefCell<Vec<Route>> = const { RefCell::new(Vec::new()) };
}

/// Pops the scope it opened, also when the closure unwinds.
struct Scope;

impl Drop for Scope {
    fn drop(&mut self) {
        ROUTES.with_borrow_mut(|r| r.pop());
    }
}

fn scoped<T>(resource: Arc<dyn DeviceResource>, on_oom_only: bool, f: impl FnOnce() -> T) -> T {
    ROUTES.with_borrow_mut(|r| {
        r.push(Route {
            resource,
            on_oom_only,
        })
    });
    let _scope = Scope;
    f()
}

/// Runs `f` with this thread's device allocations going to `resource` (see the
/// [module docs](self) for nesting and where the memory is freed).
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{with_resource, PoolResource, DeviceResource};
/// let ctx = rumba::current_context().unwrap();
/// let pool = Arc::new(PoolResource::new(&ctx.manager_context()).unwrap());
/// let d = with_resource(&pool, || rumba::device_array::<f32, _>(1000, rumba::Order::C)).unwrap();
/// assert_eq!(pool.statistics().unwrap().current_bytes, 4000); // the pool made it
/// drop(d); // and takes it back, outside the scope
/// assert_eq!(pool.statistics().unwrap().current_bytes, 0);
/// ```
pub fn with_resource<R: SharedResource + ?Sized, T>(resource: &R, f: impl FnOnce() -> T) -> T {
    scoped(resource.shared(), false, f)
}

/// Runs `f` with `resource` as the fallback of this thread's device allocations: an allocation
/// that fails for lack of memory where it usually goes is tried there (PyTorch's `use_on_oom`).
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{with_resource, with_resource_on_oom, DeviceResource, LimitingAdaptor, StatisticsAdaptor};
/// let ctx = rumba::current_context().unwrap();
/// let mc = ctx.manager_context();
/// let small = Arc::new(LimitingAdaptor::new(mc.device_upstream(), 0, Some(1024)));
/// let spare = Arc::new(StatisticsAdaptor::new(mc.device_upstream()));
/// with_resource(&small, || {
///     with_resource_on_oom(&spare, || {
///         let a = ctx.memalloc(1000).unwrap(); // fits under the limit
///         let b = ctx.memalloc(1000).unwrap(); // does not: served by the fallback
///         assert_eq!(small.used(), 1000);
///         assert_eq!(spare.statistics().unwrap().current_bytes, 1000);
///     })
/// });
/// ```
pub fn with_resource_on_oom<R: SharedResource + ?Sized, T>(
    resource: &R,
    f: impl FnOnce() -> T,
) -> T {
    scoped(resource.shared(), true, f)
}

/// The resource this thread's device allocations go to (in the innermost [`with_resource`]
/// scope), if any; `None` outside every scope (the context's own resource).
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{current_resource, with_resource, PoolResource};
/// assert!(current_resource().is_none());
/// let pool = Arc::new(PoolResource::new(&rumba::current_context().unwrap().manager_context()).unwrap());
/// with_resource(&pool, || assert!(current_resource().is_some()));
/// ```
pub fn current_resource() -> Option<Arc<dyn DeviceResource>> {
    ROUTES.with_borrow(|r| {
        r.iter()
            .rev()
            .find(|route| !route.on_oom_only)
            .map(|route| Arc::clone(&route.resource))
    })
}

/// The resources an allocation tries, in order, when this thread is inside a scope (`None`
/// outside every scope: only `base`, the manager's own resource).
pub(crate) fn plan(base: &Arc<dyn DeviceResource>) -> Option<Vec<Arc<dyn DeviceResource>>> {
    ROUTES.with_borrow(|routes| {
        if routes.is_empty() {
            return None;
        }
        let mut primary = Arc::clone(base);
        let mut fallbacks: Vec<Arc<dyn DeviceResource>> = Vec::new();
        for route in routes {
            if route.on_oom_only {
                fallbacks.push(Arc::clone(&route.resource));
            } else {
                primary = Arc::clone(&route.resource);
                fallbacks.clear();
            }
        }
        fallbacks.reverse();
        let mut all = vec![primary];
        all.extend(fallbacks);
        Some(all)
    })
}
