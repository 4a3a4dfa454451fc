// ---- reshape_runtime
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- reshape_write
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- reshape_chain
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- view_bits
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- view_bytes
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- view_wider
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- view_bool
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- row_sums
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- columns
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- shared_tile
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- local_bytes
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- bad_reshape
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- bad_row
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
// ---- bad_view
// coroutines only: in-kernel array views (`reshape`, `view::<U>()`, `row`, `index_axis`) run on coroutines in this version
