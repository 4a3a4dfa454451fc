//! Records a memory history, writes it, reads it back and checks it: a pool's growth, its blocks
//! on two streams, a release held by a deferral, an out-of-memory failure and the trim.
//! `rumba memviz FILE` draws the file this writes
//! (`cargo run -p rumba --example memory_history`).

use std::sync::Arc;

use rumba::memory::history::{self, EventKind, History, HistoryOptions};
use rumba::memory::{LimitingAdaptor, MemoryManager, PoolOptions, PoolResource};

fn main() -> rumba::Result<()> {
    let ctx = rumba::current_context()?;
    let mc = ctx.manager_context();
    let limited = Arc::new(LimitingAdaptor::new(
        mc.device_upstream(),
        mc.device,
        Some(8 << 20),
    ));
    let pool = Arc::new(PoolResource::with_options(
        &mc,
        limited,
        PoolOptions::default(),
    )?);
    let mm = MemoryManager::new("pool", &mc, pool.clone(), mc.host_upstream());
    let (a, b) = (rumba::stream()?, rumba::stream()?);

    history::start(HistoryOptions::default())?;
    let x = mm.memalloc_on(1 << 20, a.handle())?;
    let y = mm.memalloc_on(3 << 20, b.handle())?;
    let too_big = mm.memalloc(16 << 20).unwrap_err();
    let guard = mm.defer_cleanup();
    drop(x);
    drop(guard);
    mm.flush()?;
    drop(y);
    b.synchronize()?;
    pool.release_cached()?;
    history::stop();

    let path =
        std::env::temp_dir().join(format!("rumba-example-history-{}.json", std::process::id()));
    history::dump(&path)?;
    let h = History::load(&path)?;
    let kinds: Vec<EventKind> = h.events.iter().map(|e| e.kind).collect();
    for kind in [
        EventKind::PoolGrow,
        EventKind::Alloc,
        EventKind::Oom,
        EventKind::FreeDeferred,
        EventKind::FreeFlushed,
        EventKind::Free,
        EventKind::PoolTrim,
    ] {
        assert!(kinds.contains(&kind), "{kind:?} in {kinds:?}");
    }
    assert!(too_big.is_out_of_memory());
    let peak = h
        .events
        .iter()
        .filter_map(|e| e.pool)
        .map(|p| p.used)
        .max()
        .unwrap_or(0);
    assert!(peak >= 4 << 20);
    println!(
        "{} events written to {} (peak {} MiB used in the pool); draw it with `rumba memviz {}`",
        h.events.len(),
        path.display(),
        peak >> 20,
        path.display()
    );
    Ok(())
}
