//! The NCCL communicator (feature `nccl`): refused on every rank off CUDA; on a CUDA GPU (the GPU
//! kit runs it), each collective checked against the host computation, contiguous and strided.

use crate::Case;
use crate::cases::{Dev, expect_eq, values};
use rumba::Error;
use rumba::dist::nccl::NcclCommunicator;
use rumba::dist::{Communicator, ReduceOp};

fn e(x: Error) -> String {
    x.to_string()
}

fn on_cuda() -> bool {
    rumba::backend().is_ok_and(|b| b == rumba::driver::BackendKind::Cuda)
}

fn collectives(c: &Communicator, strided: bool) -> Result<(), String> {
    let nccl = match NcclCommunicator::new(c) {
        Ok(n) => n,
        Err(Error::Unsupported {
            backend,
            feature,
            reason,
        }) if !on_cuda() => {
            // Every rank refuses, none hangs: that is the whole test off CUDA.
            return if backend != "cuda" && feature == "NCCL communicators" {
                Ok(())
            } else {
                Err(format!("{backend} refused {feature}: {reason}"))
            };
        }
        Err(other) => return Err(other.to_string()),
    };
    let (r, n) = (c.rank(), c.size());
    let len = 10_000;
    let s = rumba::stream().unwrap();
    let on = nccl.on(&s);
    // all_reduce, in place, each operator.
    for op in [ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Min, ReduceOp::Max] {
        let a = Dev::new(&values::<f32>(r, len, 1), strided);
        on.all_reduce(&a.view, &a.view, op).map_err(e)?;
        s.synchronize().map_err(e)?;
        let mut want = values::<f32>(0, len, 1);
        for q in 1..n {
            for (w, v) in want.iter_mut().zip(values::<f32>(q, len, 1)) {
                *w = op.apply(*w, v);
            }
        }
        expect_eq(op.name(), &a.get()?, &want)?;
    }
    // reduce onto the last rank, out of place.
    let root = n - 1;
    let a = Dev::new(&values::<i32>(r, len, 2), strided);
    let out = Dev::new(&values::<i32>(r, len, 3), strided);
    on.reduce(&a.view, &out.view, ReduceOp::Sum, root)
        .map_err(e)?;
    s.synchronize().map_err(e)?;
    let want: Vec<i32> = if r == root {
        (0..len)
            .map(|i| (0..n).map(|q| values::<i32>(q, len, 2)[i]).sum())
            .collect()
    } else {
        values::<i32>(r, len, 3)
    };
    expect_eq("reduce", &out.get()?, &want)?;
    // broadcast from rank 0.
    let b = Dev::new(&values::<u8>(r, len, 4), strided);
    on.broadcast(&b.view, 0).map_err(e)?;
    s.synchronize().map_err(e)?;
    expect_eq("broadcast", &b.get()?, &values::<u8>(0, len, 4))?;
    // all_gather and reduce_scatter.
    let g = Dev::new(&values::<f64>(r, len, 5), strided);
    let all = Dev::new(&values::<f64>(r, len * n, 6), strided);
    on.all_gather(&g.view, &all.view).map_err(e)?;
    s.synchronize().map_err(e)?;
    let want: Vec<f64> = (0..n).flat_map(|q| values::<f64>(q, len, 5)).collect();
    expect_eq("all_gather", &all.get()?, &want)?;
    let rs = Dev::new(&values::<f64>(r, len, 7), strided);
    on.reduce_scatter(&all.view, &rs.view, ReduceOp::Max)
        .map_err(e)?;
    s.synchronize().map_err(e)?;
    // Every rank gathered the same blocks: the maximum over ranks is the block itself.
    expect_eq("reduce_scatter", &rs.get()?, &values::<f64>(r, len, 5))?;
    grouped(&nccl, &s, strided)?;
    point_to_point(&nccl, &s, strided)
}

/// gather, scatter and all_to_all: NCCL's grouped sends and receives.
fn grouped(nccl: &NcclCommunicator, s: &rumba::Stream, strided: bool) -> Result<(), String> {
    let (r, n) = (nccl.rank(), nccl.size());
    let len = 1_000;
    let on = nccl.on(s);
    let root = n / 2;
    let mine = Dev::new(&values::<i64>(r, len, 8), strided);
    let all = Dev::new(&values::<i64>(r, len * n, 9), strided);
    on.gather(&mine.view, (r == root).then_some(&all.view), root)
        .map_err(e)?;
    s.synchronize().map_err(e)?;
    let want: Vec<i64> = if r == root {
        (0..n).flat_map(|q| values::<i64>(q, len, 8)).collect()
    } else {
        values::<i64>(r, len * n, 9)
    };
    expect_eq("gather", &all.get()?, &want)?;
    // Scatter the root's blocks (rank q's block q, as every rank can compute).
    let whole: Vec<u16> = (0..n).flat_map(|q| values::<u16>(q, len, 10)).collect();
    let src = Dev::new(&whole, strided);
    let part = Dev::new(&values::<u16>(r, len, 11), strided);
    on.scatter((r == root).then_some(&src.view), &part.view, root)
        .map_err(e)?;
    s.synchronize().map_err(e)?;
    expect_eq("scatter", &part.get()?, &values::<u16>(r, len, 10))?;
    // all_to_all: block q of rank r's input is values(r * n + q); rank r receives block q from
    // rank q, which is values(q * n + r).
    let out: Vec<f32> = (0..n)
        .flat_map(|q| values::<f32>(r * n + q, len, 12))
        .collect();
    let send = Dev::new(&out, strided);
    let recv = Dev::new(&values::<f32>(r, len * n, 13), strided);
    on.all_to_all(&send.view, &recv.view).map_err(e)?;
    s.synchronize().map_err(e)?;
    let want: Vec<f32> = (0..n)
        .flat_map(|q| values::<f32>(q * n + r, len, 12))
        .collect();
    expect_eq("all_to_all", &recv.get()?, &want)
}

/// send/recv and sendrecv around the ring (with one rank: to itself, in one group).
fn point_to_point(nccl: &NcclCommunicator, s: &rumba::Stream, strided: bool) -> Result<(), String> {
    let (r, n) = (nccl.rank(), nccl.size());
    let len = 5_000;
    let on = nccl.on(s);
    let (next, prev) = ((r + 1) % n, (r + n - 1) % n);
    let out = Dev::new(&values::<f64>(r, len, 14), strided);
    let into = Dev::new(&values::<f64>(r, len, 15), strided);
    on.sendrecv(&out.view, next, &into.view, prev, 7)
        .map_err(e)?;
    s.synchronize().map_err(e)?;
    expect_eq("sendrecv", &into.get()?, &values::<f64>(prev, len, 14))?;
    if n > 1 {
        // Rank 0 sends to rank 1 with plain send and recv.
        let a = Dev::new(&values::<i32>(r, len, 16), strided);
        match r {
            0 => on.send(&a.view, 1, 3).map_err(e)?,
            1 => on.recv(&a.view, 0, 3).map_err(e)?,
            _ => {}
        }
        s.synchronize().map_err(e)?;
        let want = values::<i32>(if r == 1 { 0 } else { r }, len, 16);
        expect_eq("send/recv", &a.get()?, &want)?;
        // A receiver expecting another shape refuses on both ranks; nothing moves.
        let b = rumba::to_device(&vec![1.0f32; if r == 1 { 9 } else { 8 }]).unwrap();
        let got = match r {
            0 => Some(on.send(&b, 1, 4)),
            1 => Some(on.recv(&b, 0, 4)),
            _ => None,
        };
        if let Some(got) = got {
            match got {
                Err(Error::Dist { reason, .. }) if reason.contains("receives into") => {}
                other => return Err(format!("a shape mismatch gave {other:?}")),
            }
        }
    }
    Ok(())
}

pub fn cases(cases: &mut Vec<Case>) {
    for strided in [false, true] {
        let l = if strided { "strided" } else { "contiguous" };
        cases.push((
            format!("nccl::collectives::{l}"),
            Box::new(move |c| collectives(c, strided)),
        ));
    }
    cases.push((
        "nccl::mismatch_is_typed".into(),
        Box::new(|c: &Communicator| {
            let Ok(nccl) = NcclCommunicator::new(c) else {
                return Ok(()); // off CUDA: covered by nccl::collectives
            };
            let s = rumba::stream().unwrap();
            let len = if c.rank() == 0 { 8 } else { 9 };
            let a = rumba::to_device(&vec![1.0f32; len]).unwrap();
            match nccl.on(&s).all_reduce(&a, &a, ReduceOp::Sum) {
                Err(Error::Dist { .. }) if c.size() > 1 => Ok(()),
                Ok(()) if c.size() == 1 => Ok(()),
                other => Err(format!("wanted a Dist error, got {other:?}")),
            }
        }),
    ));
}
