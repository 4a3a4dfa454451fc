//! docs/design/behaviour.md §7, pool: `empty_cache` returns reserved memory to the device, the
//! limit (`RUMBA_MEMORY_LIMIT`, the pool's upstream `LimitingAdaptor`) is enforced with the
//! documented error, and the out-of-memory report names every figure.

mod common;

use rumba::Error;

/// Sets the limit of the `LimitingAdaptor` under the context's pool.
fn set_limit(ctx: &rumba::Context, limit: Option<usize>) {
    let mm = ctx.memory_manager();
    mm.device_resource().limiter().unwrap().set_limit(limit);
}

const MEMORY: usize = 64 << 20;
const LIMIT: usize = 8 << 20;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| {
        c.memory_manager = rumba::config::ManagerChoice::Pool;
        c.sim_memory = Some(MEMORY);
        c.memory_limit = Some(LIMIT);
    });
    common::serial()
}

#[test]
fn empty_cache_returns_reserved_memory_to_the_device() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    ctx.empty_cache().unwrap();
    let (free0, _) = ctx.get_memory_info().unwrap();
    let bufs: Vec<_> = (0..20)
        .map(|i| ctx.memalloc(1000 + i * 5000).unwrap())
        .collect();
    drop(bufs);
    let stats = ctx.memory_stats().unwrap();
    assert_eq!(stats.current_count, 0);
    assert!(stats.reserved_bytes > 0, "the pool caches what was freed");
    let (cached_free, _) = ctx.get_memory_info().unwrap();
    assert_eq!(cached_free, free0 - stats.reserved_bytes);
    rumba::empty_cache().unwrap();
    let (free1, _) = ctx.get_memory_info().unwrap();
    assert!(free1 > cached_free, "free memory rises");
    assert_eq!(free1, free0);
    let after = ctx.memory_stats().unwrap();
    assert_eq!(after.reserved_bytes, 0);
    assert_eq!(after.device_frees, after.device_allocations);
}

fn report(err: &Error) -> &rumba::error::OomReport {
    match err {
        Error::PoolOutOfMemory(r) => r,
        other => panic!("expected PoolOutOfMemory, got {other}"),
    }
}

#[test]
fn the_configured_limit_is_enforced_with_the_documented_error() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    ctx.empty_cache().unwrap();
    let big = ctx.memalloc(6 << 20).unwrap();
    let err = ctx.memalloc(4 << 20).unwrap_err();
    assert!(err.is_out_of_memory());
    let r = report(&err);
    assert_eq!(r.limit, Some(LIMIT));
    assert_eq!(r.requested, 4 << 20);
    assert!(r.reserved <= LIMIT && r.allocated >= 6 << 20, "{r:?}");
    assert!(
        err.to_string().contains(&format!("limit {LIMIT} bytes")),
        "{err}"
    );
    let ooms = ctx.memory_stats().unwrap().ooms;
    assert!(ooms >= 1);

    set_limit(&ctx, Some(2 * LIMIT));
    let more = ctx.memalloc(4 << 20).unwrap();
    assert!(ctx.memory_stats().unwrap().reserved_bytes <= 2 * LIMIT);
    drop((big, more));
    set_limit(&ctx, Some(LIMIT));
    ctx.empty_cache().unwrap();
}

#[test]
fn the_out_of_memory_message_names_every_figure() {
    let _g = setup();
    if common::not_on(
        &[rumba::config::BackendChoice::Cuda],
        "the_out_of_memory_message_names_every_figure",
        "it runs the device itself out of memory at the simulator's size (OpenCL's cap): a CUDA device's memory cannot be capped",
    ) {
        return;
    }
    let ctx = rumba::current_context().unwrap();
    set_limit(&ctx, None);
    ctx.empty_cache().unwrap();
    // Fragment the cache: keep every other 1 MiB block.
    let blocks: Vec<_> = (0..8).map(|_| ctx.memalloc(1 << 20).unwrap()).collect();
    let kept: Vec<_> = blocks.into_iter().step_by(2).collect();
    let before = ctx.memory_stats().unwrap();
    let err = ctx.memalloc(2 * MEMORY).unwrap_err();
    let r = report(&err).clone();
    let msg = err.to_string();
    assert_eq!(r.requested, 2 * MEMORY);
    assert_eq!(r.total, MEMORY);
    assert_eq!(r.allocated, 4 << 20);
    assert!(r.cached > 0 && r.largest_free_block > 0 && r.largest_free_block <= r.cached);
    assert_eq!(r.reserved, r.allocated + r.cached);
    assert!(r.fragmentation > 0.0 && r.fragmentation < 1.0, "{r:?}");
    for figure in [
        format!("requested {} bytes", 2 * MEMORY),
        format!("{} bytes allocated", r.allocated),
        format!("{} bytes reserved", r.reserved),
        format!("({} cached)", r.cached),
        format!("{} bytes free of {MEMORY} total", r.free),
        format!("largest free block {} bytes", r.largest_free_block),
        format!("fragmentation {:.1}%", r.fragmentation * 100.0),
        "pending deallocation".to_string(),
    ] {
        assert!(msg.contains(&figure), "{figure:?} missing from: {msg}");
    }
    let after = ctx.memory_stats().unwrap();
    assert_eq!(after.ooms, before.ooms + 1);
    drop(kept);
    set_limit(&ctx, Some(LIMIT));
    ctx.empty_cache().unwrap();
}

#[test]
fn a_malformed_limit_variable_is_named() {
    let err = rumba::Config::from_lookup(|n| (n == "RUMBA_MEMORY_LIMIT").then(|| "much".into()))
        .unwrap_err();
    assert!(matches!(err, Error::InvalidConfig { .. }));
    assert!(err.to_string().contains("RUMBA_MEMORY_LIMIT"), "{err}");
}

#[test]
fn memory_held_only_by_queued_work_is_waited_for() {
    let _g = setup();
    rumba::empty_cache().unwrap();
    common::memory_held_by_queued_work_is_waited_for(LIMIT * 3 / 4);
}
