//! Issue 14: the soak workload (`soak_common`) on the default memory manager.

mod common;
mod soak_common;

#[test]
fn threads_and_streams_move_checksummed_data_and_give_everything_back() {
    common::start(|c| c.sim_memory = Some(1 << 30));
    let figures = soak_common::soak(4);
    assert!(figures.bytes > 0);
}
