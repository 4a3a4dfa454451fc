//! How the loop form cuts a kernel's regions, checked against coroutines bit for bit (faults
//! included): regions narrowed to the work-items an x condition or a lane test admits, regions
//! that must not be narrowed, lane loops (a loop run for sixteen work-items side by side),
//! what keeps a region out of either, regions that reach own-index outputs through the
//! block's windows (stores, read-modify-writes, reads; 1-d and 2-d), and a body that fetches
//! the next block's rows ahead. The golden
//! `corpus_warp.wil.rs`, `corpus_lanes.wil.rs` and `corpus_own.wil.rs` show which regions of the
//! corpus kernels take which form.

mod common;
mod engines;
mod macro_corpus;
mod macro_engines;

use macro_corpus::case::{HostArg, exact_case};
use macro_corpus::{lanes, own, warp};
use macro_engines::{both_engines, random, sim};
use rumba::driver::{HostEngine, HostKernel, KernelFunction};
use rumba::kernel::prelude::*;

/// Regions whose only work is an `if` on the x index against a block-uniform bound, in every
/// form the loop form narrows to the work-items that can meet it (`<`, mirrored `>`, `==`, a
/// window of `>=` and `<=` on a signed cast, `&&` with another condition, a halving loop), in
/// 1-d and 2-d blocks. Each region adds a different power of two, so a work-item visited too
/// often or skipped wrongly shows in its sum.
#[kernel]
pub fn narrowed(t: &Thread, out: &mut Arr<i64>, bound: i32) {
    let tx = t.thread_idx().x as usize;
    let tid = t.thread_idx().x;
    let ti = t.thread_idx().x as i32;
    let n = (t.block_dim().x * t.block_dim().y) as usize;
    let lin = t.thread_idx().y as usize * t.block_dim().x as usize + tx;
    let s = t.shared_array::<i64>(64);
    s[lin] = 0;
    t.syncthreads();
    if tx < 3 {
        s[lin] += 1;
    }
    t.syncthreads();
    if 2 < tx {
        s[lin] += 2;
    }
    t.syncthreads();
    if tx == 1 {
        s[lin] += 4;
    }
    t.syncthreads();
    if ti >= bound && ti <= bound + 2 {
        s[lin] += 8;
    }
    t.syncthreads();
    if tid > 4 && lin % 2 == 0 {
        s[lin] += 16;
    }
    t.syncthreads();
    let mut stride = 4usize;
    while stride > 0 {
        if tx < stride {
            s[lin] += (stride as i64) << 8;
        }
        t.syncthreads();
        stride /= 2;
    }
    out[t.block_idx().x as usize * n + lin] = s[lin];
}

#[test]
fn regions_narrowed_to_the_work_items_an_x_condition_admits_agree() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    assert_eq!(narrowed().engine(), HostEngine::WorkItemLoops);
    for (block, bound) in [
        ([7usize, 1, 1], 2i32),
        ([8, 4, 1], -2),
        ([8, 4, 1], 6),
        ([32, 2, 1], 100),
        ([1, 1, 1], 0),
    ] {
        let threads = block[0] * block[1];
        let case = exact_case!(
            narrowed,
            [2, 1, 1],
            block,
            vec![HostArg::zeros::<i64>(2 * threads), HostArg::scalar(bound)]
        );
        let out = both_engines(&case).unwrap();
        assert_ne!(out, case.args, "block {block:?}, bound {bound}");
    }
}

/// The lane regions of [`warp::narrowed_lanes`] (the golden `corpus_warp.wil.rs` shows which
/// are narrowed): both engines agree, and every work-item got what its lane says.
#[test]
fn regions_narrowed_to_one_lane_agree() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    let lanes = warp::narrowed_lanes();
    assert_eq!(lanes.engine(), HostEngine::WorkItemLoops);
    for (block, k) in [
        ([40usize, 1, 1], 0u32),
        ([40, 1, 1], 7),
        ([8, 4, 1], 31),
        ([32, 3, 1], 5),
        ([6, 7, 1], 50),
        ([1, 1, 1], 0),
    ] {
        let threads = block[0] * block[1];
        let case = exact_case!(
            warp::narrowed_lanes,
            [2, 1, 1],
            block,
            vec![
                HostArg::zeros::<i64>(2 * threads),
                HostArg::zeros::<u32>(1),
                HostArg::scalar(k),
            ]
        );
        let out = both_engines(&case).unwrap();
        // Every work-item evaluated the left side of the `&&` whose right side tests a lane.
        assert_eq!(
            out[1].values::<u32>(),
            [2 * threads as u32],
            "block {block:?}"
        );
        // And what each work-item got, from its lane alone.
        let got = out[0].values::<i64>();
        for (i, &v) in got.iter().enumerate() {
            let (lin, l) = (i % threads, (i % threads) as u32 % 32);
            let want = i64::from(l == 0)
                + 2 * i64::from(l == 3)
                + 4 * i64::from(l == k)
                + 8 * i64::from(l == 31)
                + 16 * i64::from(lin % 3 == 1 && l == 7)
                + 32 * i64::from(l == k + 32)
                + 64 * i64::from(l == 2);
            assert_eq!(v, want, "block {block:?}, k {k}, work-item {lin}");
        }
    }
}

/// Regions the loop form must not narrow: the left side of `&&` writes memory (every work-item
/// evaluates it), and a recomputed local divides by a parameter (every work-item evaluates it
/// at the region's top, so a division by zero faults at the first one, not at the `if`'s).
#[kernel]
pub fn not_narrowed(t: &Thread, hits: &mut Arr<u32>, out: &mut Arr<u32>, d: u32) {
    let tid = t.thread_idx().x;
    if hits.atomic_add(0, 1) < 1_000_000 && tid == 0 {
        out[0] += 1;
    }
    t.syncthreads();
    let q = tid / d;
    if tid == 3 {
        out[1] = q;
    }
    t.syncthreads();
    if tid == 5 {
        out[2] = q;
    }
}

#[test]
fn regions_whose_top_or_left_operand_does_work_are_not_narrowed() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    assert_eq!(not_narrowed().engine(), HostEngine::WorkItemLoops);
    for d in [1u32, 0] {
        let case = exact_case!(
            not_narrowed,
            [1, 1, 1],
            [8, 1, 1],
            vec![
                HostArg::zeros::<u32>(1),
                HostArg::zeros::<u32>(3),
                HostArg::scalar(d),
            ]
        );
        let out = both_engines(&case);
        match d {
            // Every work-item counted itself.
            1 => assert_eq!(
                out.unwrap()[0],
                HostArg::array(&[8u32], &[1]),
                "the left operand of && ran for every work-item"
            ),
            // The engines agree (above) on the faulting thread: the first of the block.
            _ => assert!(out.is_err(), "{out:?}"),
        }
    }
}

/// The lane loops of [`lanes::lane_loops`] (the golden `corpus_lanes.wil.rs` shows which
/// regions are): both engines agree bit for bit on full groups, a last smaller group, 2-d
/// blocks, a block one of whose work-items returned (it runs per work-item), an empty range, and
/// the faults of an index, a shared read and a global read every work-item makes alike, which
/// name the block's first work-item.
#[test]
fn lane_loops_agree_with_coroutines() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    let k = lanes::lane_loops();
    assert_eq!(k.engine(), HostEngine::WorkItemLoops);
    let x: Vec<f32> = random(80, 11).iter().map(|v| v * 4.0 - 2.0).collect();
    let case = |block: [usize; 3], m: usize, wrap: usize, span: usize, skip: u32| {
        exact_case!(
            lanes::lane_loops,
            [2, 1, 1],
            block,
            vec![
                HostArg::array(&x, &[80]),
                HostArg::zeros::<f32>(2 * 3 * block[0] * block[1]),
                HostArg::scalar(m),
                HostArg::scalar(wrap),
                HostArg::scalar(span),
                HostArg::scalar(skip),
            ]
        )
    };
    for block in [[256, 1, 1], [100, 1, 1], [13, 1, 1], [8, 4, 1], [1, 1, 1]] {
        let threads = block[0] * block[1];
        for skip in [u32::MAX, 5.min(threads as u32 - 1)] {
            let out = both_engines(&case(block, 37, 64, 64, skip)).unwrap();
            let got = out[1].values::<f32>();
            // Every work-item that stayed ran every loop: its `b` moved off its start.
            for (i, v) in got.chunks(3).enumerate() {
                let lin = i % threads;
                if lin as u32 != skip {
                    assert_ne!(v[1], lin as f32 - 7.0, "block {block:?}, work-item {i}");
                }
            }
        }
        // No iteration: the lanes' values go back to the context arrays unchanged.
        both_engines(&case(block, 0, 64, 64, u32::MAX)).unwrap();
        // `k % 0`; `s[64]` of a 64-element shared array at iteration 64; `x[81]` of 80 at 27.
        for (m, wrap, span) in [(37, 0, 64), (80, 100, 64), (37, 64, 200)] {
            let err = both_engines(&case(block, m, wrap, span, u32::MAX)).unwrap_err();
            let text = err.to_string();
            assert!(
                text.contains("block (0, 0, 0) thread (0, 0, 0)"),
                "block {block:?}, m {m}, wrap {wrap}, span {span}: {text}"
            );
        }
    }
}

/// [`lanes::lane_loop_beside_fault`]: a region whose top may fault is not run as lanes, so
/// both engines fault at work-item `d`'s division (and run normally without one).
#[test]
fn a_lane_loop_beside_a_faulting_local_is_not_taken() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    let k = lanes::lane_loop_beside_fault();
    assert_eq!(k.engine(), HostEngine::WorkItemLoops);
    let x: Vec<f32> = random(64, 12);
    for d in [3i32, -1] {
        let case = exact_case!(
            lanes::lane_loop_beside_fault,
            [1, 1, 1],
            [32, 1, 1],
            vec![
                HostArg::array(&x, &[64]),
                HostArg::zeros::<f32>(32),
                HostArg::scalar(9usize),
                HostArg::scalar(d),
            ]
        );
        let out = both_engines(&case);
        match d {
            3 => {
                let text = out.unwrap_err().to_string();
                assert!(text.contains("thread (3, 0, 0)"), "{text}");
            }
            _ => assert!(out.is_ok(), "{out:?}"),
        }
    }
}

/// [`lanes::local_lengths`]: a local array's length is per work-item in the loop form too (it
/// compiles, and both engines agree).
#[test]
fn local_array_lengths_are_per_work_item() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    let k = lanes::local_lengths();
    assert_eq!(k.engine(), HostEngine::WorkItemLoops);
    let case = exact_case!(
        lanes::local_lengths,
        [1, 1, 1],
        [40, 1, 1],
        vec![
            HostArg::array(&random(64, 13), &[64]),
            HostArg::zeros::<f32>(40),
            HostArg::scalar(5usize),
        ]
    );
    both_engines(&case).unwrap();
}

/// The array uses the loop form declares for the own-index corpus: what it reaches only at the
/// own index (stores, read-modify-writes, reads) is `OwnIndexStore`, what it reads at a
/// neighbour's index is not.
#[test]
fn own_index_read_modify_writes_make_own_index_outputs() {
    use rumba::driver::ArrayUse::{OwnIndexStore, Read, ReadWrite};
    let uses = |f: &KernelFunction, n: usize| -> Vec<rumba::driver::ArrayUse> {
        let host = f.form::<HostKernel>().expect("a Rust form");
        (0..n).map(|k| host.array_use(k)).collect()
    };
    assert_eq!(
        uses(own::own_accumulate().function(), 2),
        [OwnIndexStore, Read]
    );
    assert_eq!(
        uses(own::own2_update().function(), 2),
        [Read, OwnIndexStore]
    );
    assert_eq!(uses(own::own2_index().function(), 1), [OwnIndexStore]);
    assert_eq!(uses(own::neighbour_read().function(), 1), [ReadWrite]);
}

/// Own-index stores and read-modify-writes, 1-d and 2-d (beside halo reads), in full and
/// partial blocks and across a barrier: the loop form agrees with coroutines bit for bit.
#[test]
fn own_index_accesses_agree_in_full_and_partial_blocks() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    for case in own::cases() {
        let out = both_engines(&case).unwrap();
        assert_ne!(out, case.args, "{}: the kernel wrote nothing", case.name);
    }
    // `own_accumulate`'s result, from the host.
    let case = own::accumulate(1000, 256, 1000);
    let out = both_engines(&case).unwrap();
    let (y, off) = (case.args[0].values::<u32>(), case.args[1].values::<u32>());
    let want: Vec<u32> = y
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let v = v.wrapping_add(off[i / 4]) ^ 0x55;
            v.wrapping_mul(3).wrapping_add(1).wrapping_sub(7)
        })
        .collect();
    assert_eq!(out[0].values::<u32>(), want);
    // Every other element of a buffer: the layout gives no plain own-index accesses, so the
    // loop form reads and writes `y` atomically (through the same window code).
    let mut strided = own::accumulate(1024, 256, 1024);
    let y: Vec<u32> = (0..2048u32).map(|v| v.wrapping_mul(40_503)).collect();
    strided.args[0] = HostArg::Array {
        bytes: bytemuck::cast_slice(&y).to_vec(),
        itemsize: 4,
        offset: 0,
        shape: vec![1024],
        strides: vec![8],
    };
    let out = both_engines(&strided).unwrap()[0].values::<u32>();
    let off = strided.args[1].values::<u32>();
    for (k, v) in out.iter().enumerate() {
        let want = if k % 2 == 1 {
            y[k]
        } else {
            let v = y[k].wrapping_add(off[k / 8]) ^ 0x55;
            v.wrapping_mul(3).wrapping_add(1).wrapping_sub(7)
        };
        assert_eq!(*v, want, "strided element {k}");
    }
    for (rows, cols, block) in [(4usize, 64usize, [32usize, 2, 1]), (9, 20, [8, 4, 1])] {
        let case = exact_case!(
            own::own2_index,
            [cols.div_ceil(block[0]), rows.div_ceil(block[1]), 1],
            block,
            vec![HostArg::array(&vec![0u32; rows * cols], &[rows, cols])]
        );
        let out = both_engines(&case).unwrap()[0].values::<u32>();
        let want: Vec<u32> = (0..rows * cols)
            .map(|k| ((k / cols) * 1000 + k % cols) as u32)
            .collect();
        assert_eq!(out, want, "{rows}×{cols} {block:?}");
    }
}

/// An own-index read-modify-write past the end, in a partial block (1-d), and an own-index
/// store past the edge (2-d): the same fault on both engines, naming block and thread.
#[test]
fn own_index_accesses_out_of_bounds_name_block_and_thread() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    // 1000 elements in blocks of 256: block 3's work-item 232 is element 1000.
    let err = both_engines(&own::accumulate(1000, 256, 1001)).unwrap_err();
    assert!(
        matches!(
            &err,
            rumba::Error::KernelFault {
                block: [3, 0, 0],
                thread: [232, 0, 0],
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("index (1000,) is out of bounds for axis 0 with size 1000"),
        "{err}"
    );
    // 8 rows of 20 columns in 8×4 blocks: the third block column (x 16..24) is partial, and its
    // work-item x = 4 of every row stores to column 20.
    let case = exact_case!(
        own::own2_past_the_edge,
        [3, 2, 1],
        [8, 4, 1],
        vec![HostArg::array(&[0u32; 8 * 20], &[8, 20])]
    );
    let err = both_engines(&case).unwrap_err();
    assert!(
        matches!(
            &err,
            rumba::Error::KernelFault {
                block: [2, 0, 0],
                thread: [4, 0, 0],
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("index (0, 20) is out of bounds for axis 1 with size 20"),
        "{err}"
    );
}

/// The tiled transpose fetches the next block's input rows ahead (golden `corpus_peer.wil.rs`):
/// a hint that must change nothing. Square and ragged shapes, partial blocks on both edges, one
/// block and many: the loop form agrees with coroutines and with the host's transposition.
#[test]
fn fetching_ahead_changes_no_result() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    let tile = macro_corpus::peer::TILE;
    // Many blocks in a row too, so that each worker's run of blocks is longer than one block
    // (the next block is known) on machines with up to 16 workers.
    for (rows, cols) in [
        (1usize, 1usize),
        (32, 32),
        (33, 70),
        (100, 257),
        (64, 31),
        (40, 32 * 300 + 5),
    ] {
        let a = random(rows * cols, 11);
        let case = exact_case!(
            macro_corpus::peer::transpose,
            [cols.div_ceil(tile), rows.div_ceil(tile), 1],
            [tile, tile, 1],
            vec![
                HostArg::array(&a, &[rows, cols]),
                HostArg::array(&vec![0f32; rows * cols], &[cols, rows]),
            ]
        );
        let out = both_engines(&case).unwrap()[1].values::<f32>();
        for (k, v) in out.iter().enumerate() {
            let (c, r) = (k / rows, k % rows);
            assert_eq!(
                v.to_bits(),
                a[r * cols + c].to_bits(),
                "{rows}×{cols} at ({c}, {r})"
            );
        }
    }
}

/// Rows of `a` by a record parameter's sub-array: `p.r[k]`.
#[record]
pub struct Rows {
    pub r: [u32; 4],
}

/// Each block reads the 8 rows of `a` from `p.r[by / 64]` on (and adds that row index), `by` its
/// y index: the
/// block-uniform `let` of that row faults (past the field's four elements) in blocks 256 and
/// later, so it must not be evaluated for the next block ahead of time (block 255 would fault
/// in block 256's place).
#[rumba::kernel]
pub fn subindex_rows(t: &Thread, a: &Arr<f32>, out: &mut Arr<f32>, p: Rows) {
    let tx = t.thread_idx().x as usize;
    let ty = t.thread_idx().y as usize;
    let by = t.block_idx().y as usize;
    let base: u32 = p.r[by / 64];
    let (x, y) = t.grid2();
    out[(y, x)] = a[(base as usize + ty, tx)];
    // Used again after a barrier: a block-uniform `let` of the body's top.
    t.syncthreads();
    out[(y, x)] += base as f32;
}

#[test]
fn an_index_through_a_record_sub_array_is_not_fetched_ahead() {
    if !sim() {
        return;
    }
    let _turn = common::serial();
    let rows = Rows { r: [0, 5, 10, 20] };
    let a = random(28 * 8, 5);
    let case = |blocks: usize| {
        exact_case!(
            subindex_rows,
            [1, blocks, 1],
            [8, 8, 1],
            vec![
                HostArg::array(&a, &[28, 8]),
                HostArg::array(&vec![0f32; blocks * 64], &[blocks * 8, 8]),
                HostArg::scalar(rows),
            ]
        )
    };
    // 256 blocks: every row index is in the field.
    let out = both_engines(&case(256)).unwrap()[1].values::<f32>();
    for (k, v) in out.iter().enumerate() {
        let (y, x) = (k / 8, k % 8);
        let (by, ty) = (y / 8, y % 8);
        let base = rows.r[by / 64];
        let want = a[(base as usize + ty) * 8 + x] + base as f32;
        assert_eq!(v.to_bits(), want.to_bits(), "({y}, {x})");
    }
    // 300 blocks: block 256 is the first whose `let` faults.
    let err = both_engines(&case(300)).unwrap_err();
    assert!(
        matches!(
            &err,
            rumba::Error::KernelFault {
                block: [0, 256, 0],
                ..
            }
        ),
        "{err}"
    );
}
