//! Out-of-memory hooks: a `FailureCallbackAdaptor` spills a cache when memory runs out and the
//! allocation is retried; a `with_resource_on_oom` scope sends what still does not fit to a spare
//! resource (`cargo run -p rumba --example failure_callback`).

use std::sync::{Arc, Mutex};

use rumba::memory::{
    DeviceBuffer, DeviceResource, FailureCallbackAdaptor, LimitingAdaptor, MemoryManager,
    OnFailure, StatisticsAdaptor, with_resource, with_resource_on_oom,
};

fn main() -> rumba::Result<()> {
    let ctx = rumba::current_context()?;
    let mc = ctx.manager_context();
    // 4 MiB of device memory, and a cache of buffers the program can give up.
    let limited = Arc::new(LimitingAdaptor::new(
        mc.device_upstream(),
        mc.device,
        Some(4 << 20),
    ));
    let cache: Arc<Mutex<Vec<DeviceBuffer>>> = Arc::default();
    let spills = Arc::new(Mutex::new(0));
    let (c, n) = (cache.clone(), spills.clone());
    let res: Arc<dyn DeviceResource> =
        Arc::new(FailureCallbackAdaptor::new(limited.clone(), 8, move |f| {
            println!(
                "out of memory for {} bytes (attempt {}): spilling",
                f.bytes, f.attempt
            );
            match c.lock().unwrap().pop() {
                Some(buffer) => {
                    drop(buffer);
                    *n.lock().unwrap() += 1;
                    OnFailure::Retry
                }
                None => OnFailure::Fail,
            }
        }));
    let mm = MemoryManager::new("spilling", &mc, res.clone(), mc.host_upstream());
    for _ in 0..4 {
        cache.lock().unwrap().push(mm.memalloc(1 << 20)?);
    }
    let big = mm.memalloc(3 << 20)?; // three cached buffers are spilled for it
    assert_eq!(*spills.lock().unwrap(), 3);
    assert_eq!(limited.used(), 4 << 20);

    // Routing: inside the scope allocations go to `res`; what it cannot serve goes to `spare`.
    let spare = Arc::new(StatisticsAdaptor::new(mc.device_upstream()));
    let overflow = with_resource(&res, || {
        with_resource_on_oom(&spare, || {
            rumba::device_array::<f32, _>(1 << 20, rumba::Order::C)
        })
    })?;
    assert_eq!(spare.statistics().map(|s| s.current_bytes), Some(4 << 20));
    drop(overflow); // back to `spare`, outside the scope
    assert_eq!(spare.statistics().map(|s| s.current_bytes), Some(0));
    drop(big);
    println!(
        "spilled 3 buffers for a 3 MiB allocation; the 4 MiB array went to the spare resource"
    );
    Ok(())
}
