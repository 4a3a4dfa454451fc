//! docs/design/behaviour.md §6: the byte rule — pending bytes that **exceed** RATIO × device memory
//! are flushed.

mod common;

use rumba::current_context;

const MEMORY: usize = 100_000_000;
const RATIO: f64 = 0.01; // limit: 1,000,000 bytes

#[test]
fn byte_rule_is_strict_and_the_crossing_drop_flushes() {
    common::start(|c| {
        c.sim_memory = Some(MEMORY);
        c.max_pending_deallocs_ratio = RATIO;
        c.max_pending_deallocs_count = 100;
    });
    if common::not_on(
        &[rumba::config::BackendChoice::Cuda],
        "byte_rule_is_strict_and_the_crossing_drop_flushes",
        "the rule's limit is a share of a 100 MB device (the simulator's size here, OpenCL's cap): a CUDA device's memory cannot be capped",
    ) {
        return;
    }
    let ctx = current_context().unwrap();
    let limit = (MEMORY as f64 * RATIO) as usize;
    assert_eq!(limit, 1_000_000);
    ctx.flush_deallocations().unwrap();

    drop(ctx.memalloc(500_000).unwrap());
    let st = ctx.deallocations().memory;
    assert_eq!((st.count, st.bytes), (1, 500_000));

    drop(ctx.memalloc(limit - st.bytes).unwrap());
    let st = ctx.deallocations().memory;
    assert_eq!(
        (st.count, st.bytes),
        (2, limit),
        "exactly at the limit is not over it"
    );

    drop(ctx.memalloc(1).unwrap());
    assert_eq!(ctx.deallocations().memory.count, 0);
}
