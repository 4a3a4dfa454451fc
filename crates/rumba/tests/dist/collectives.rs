//! Collectives, every element type, contiguous and strided, in place and out of place, checked
//! against the same computation on the host over every rank's data.

use crate::Case;
use crate::cases::{Dev, TestElem, expect_eq, values};
use rumba::dist::{Communicator, ReduceOp, Reducible};

/// Elements per rank: several 64 KiB chunks for the wider types.
const N: usize = 12_000;

fn reduced<T: TestElem + Reducible>(n: usize, len: usize, salt: i64, op: ReduceOp) -> Vec<T> {
    let mut acc = values::<T>(0, len, salt);
    for r in 1..n {
        for (a, b) in acc.iter_mut().zip(values::<T>(r, len, salt)) {
            *a = op.apply(*a, b);
        }
    }
    acc
}

fn e(x: rumba::Error) -> String {
    x.to_string()
}

fn all_reduce<T: TestElem + Reducible>(
    c: &Communicator,
    op: ReduceOp,
    strided: bool,
    in_place: bool,
) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let a = Dev::new(&values::<T>(r, N, 1), strided);
    let want = reduced::<T>(n, N, 1, op);
    if in_place {
        c.all_reduce(&a.view, op).map_err(e)?;
        return expect_eq("all_reduce", &a.get()?, &want);
    }
    let out = Dev::new(&values::<T>(r, N, 2), strided);
    c.all_reduce_into(&a.view, &out.view, op).map_err(e)?;
    expect_eq("all_reduce_into", &out.get()?, &want)?;
    expect_eq("its input", &a.get()?, &values::<T>(r, N, 1))
}

fn reduce<T: TestElem + Reducible>(
    c: &Communicator,
    op: ReduceOp,
    strided: bool,
    in_place: bool,
) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let root = n - 1;
    let a = Dev::new(&values::<T>(r, N, 3), strided);
    let want = reduced::<T>(n, N, 3, op);
    if in_place {
        c.reduce(&a.view, op, root).map_err(e)?;
        let expect = if r == root {
            want
        } else {
            values::<T>(r, N, 3)
        };
        return expect_eq("reduce", &a.get()?, &expect);
    }
    let out = Dev::new(&values::<T>(r, N, 4), strided);
    let recv = (r == root).then_some(&out.view);
    c.waiting_reduce_into(&a.view, recv, op, root)?;
    let expect = if r == root {
        want
    } else {
        values::<T>(r, N, 4)
    };
    expect_eq("reduce_into", &out.get()?, &expect)
}

/// `reduce_into` lives on `OnStream`; the suite calls it on the default stream.
trait ReduceInto {
    fn waiting_reduce_into<T: Reducible>(
        &self,
        send: &rumba::DeviceArray<T, ndarray::Ix1>,
        recv: Option<&rumba::DeviceArray<T, ndarray::Ix1>>,
        op: ReduceOp,
        root: usize,
    ) -> Result<(), String>;
}

impl ReduceInto for Communicator {
    fn waiting_reduce_into<T: Reducible>(
        &self,
        send: &rumba::DeviceArray<T, ndarray::Ix1>,
        recv: Option<&rumba::DeviceArray<T, ndarray::Ix1>>,
        op: ReduceOp,
        root: usize,
    ) -> Result<(), String> {
        let s = rumba::default_stream().map_err(e)?;
        self.on(&s).reduce_into(send, recv, op, root).map_err(e)?;
        s.synchronize().map_err(e)
    }
}

fn reduce_scatter<T: TestElem + Reducible>(
    c: &Communicator,
    op: ReduceOp,
    strided: bool,
) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let block = N / 4;
    let a = Dev::new(&values::<T>(r, block * n, 5), strided);
    let out = Dev::new(&values::<T>(r, block, 6), strided);
    c.reduce_scatter(&a.view, &out.view, op).map_err(e)?;
    let whole = reduced::<T>(n, block * n, 5, op);
    expect_eq(
        "reduce_scatter",
        &out.get()?,
        &whole[r * block..(r + 1) * block],
    )
}

fn broadcast<T: TestElem>(c: &Communicator, strided: bool, into: bool) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let root = n / 2;
    let a = Dev::new(&values::<T>(r, N, 7), strided);
    if !into {
        c.broadcast(&a.view, root).map_err(e)?;
        return expect_eq("broadcast", &a.get()?, &values::<T>(root, N, 7));
    }
    let out = Dev::new(&values::<T>(r, N, 8), strided);
    let s = rumba::stream().unwrap();
    let send = (r == root).then_some(&a.view);
    c.on(&s).broadcast_into(send, &out.view, root).map_err(e)?;
    s.synchronize().map_err(e)?;
    expect_eq("broadcast_into", &out.get()?, &values::<T>(root, N, 7))?;
    expect_eq("its input", &a.get()?, &values::<T>(r, N, 7))
}

fn gathered<T: TestElem>(n: usize, block: usize, salt: i64) -> Vec<T> {
    (0..n).flat_map(|q| values::<T>(q, block, salt)).collect()
}

fn all_gather<T: TestElem>(c: &Communicator, strided: bool, in_place: bool) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let block = N / 4;
    let want = gathered::<T>(n, block, 9);
    if in_place {
        let mut mine = values::<T>(r, block * n, 10);
        mine[r * block..(r + 1) * block].copy_from_slice(&values::<T>(r, block, 9));
        let out = Dev::new(&mine, strided);
        c.waiting().all_gather_in_place(&out.view).map_err(e)?;
        return expect_eq("all_gather_in_place", &out.get()?, &want);
    }
    let a = Dev::new(&values::<T>(r, block, 9), strided);
    let out = Dev::new(&values::<T>(r, block * n, 10), strided);
    c.all_gather(&a.view, &out.view).map_err(e)?;
    expect_eq("all_gather", &out.get()?, &want)
}

/// `all_gather_in_place` lives on `OnStream`; the suite calls it on a stream it synchronizes.
trait Waiting {
    fn waiting(&self) -> Synced<'_>;
}
struct Synced<'a>(&'a Communicator);
impl Waiting for Communicator {
    fn waiting(&self) -> Synced<'_> {
        Synced(self)
    }
}
impl Synced<'_> {
    fn all_gather_in_place<T: rumba::array::Element>(
        &self,
        recv: &rumba::DeviceArray<T, ndarray::Ix1>,
    ) -> rumba::Result<()> {
        let s = rumba::stream()?;
        self.0.on(&s).all_gather_in_place(recv)?;
        s.synchronize()
    }
}

fn gather<T: TestElem>(c: &Communicator, strided: bool) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let root = n - 1;
    let block = N / 4;
    let a = Dev::new(&values::<T>(r, block, 11), strided);
    let out = Dev::new(&values::<T>(r, block * n, 12), strided);
    c.gather(&a.view, (r == root).then_some(&out.view), root)
        .map_err(e)?;
    let want = if r == root {
        gathered::<T>(n, block, 11)
    } else {
        values::<T>(r, block * n, 12)
    };
    expect_eq("gather", &out.get()?, &want)
}

fn scatter<T: TestElem>(c: &Communicator, strided: bool) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let root = 0;
    let block = N / 4;
    let a = Dev::new(&values::<T>(r, block * n, 13), strided);
    let out = Dev::new(&values::<T>(r, block, 14), strided);
    c.scatter((r == root).then_some(&a.view), &out.view, root)
        .map_err(e)?;
    let whole = values::<T>(root, block * n, 13);
    expect_eq("scatter", &out.get()?, &whole[r * block..(r + 1) * block])
}

fn all_to_all<T: TestElem>(c: &Communicator, strided: bool) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let block = N / 4;
    let a = Dev::new(&values::<T>(r, block * n, 15), strided);
    let out = Dev::new(&values::<T>(r, block * n, 16), strided);
    c.all_to_all(&a.view, &out.view).map_err(e)?;
    let want: Vec<T> = (0..n)
        .flat_map(|q| values::<T>(q, block * n, 15)[r * block..(r + 1) * block].to_vec())
        .collect();
    expect_eq("all_to_all", &out.get()?, &want)
}

fn moves<T: TestElem>(cases: &mut Vec<Case>, name: &str) {
    for strided in [false, true] {
        let l = if strided { "strided" } else { "contiguous" };
        for into in [false, true] {
            let p = if into { "out_of_place" } else { "in_place" };
            cases.push((
                format!("broadcast::{name}::{l}::{p}"),
                Box::new(move |c| broadcast::<T>(c, strided, into)),
            ));
            cases.push((
                format!("all_gather::{name}::{l}::{p}"),
                Box::new(move |c| all_gather::<T>(c, strided, !into)),
            ));
        }
        cases.push((
            format!("gather::{name}::{l}"),
            Box::new(move |c| gather::<T>(c, strided)),
        ));
        cases.push((
            format!("scatter::{name}::{l}"),
            Box::new(move |c| scatter::<T>(c, strided)),
        ));
        cases.push((
            format!("all_to_all::{name}::{l}"),
            Box::new(move |c| all_to_all::<T>(c, strided)),
        ));
    }
}

fn reductions<T: TestElem + Reducible>(cases: &mut Vec<Case>, name: &str) {
    moves::<T>(cases, name);
    let ops: &[ReduceOp] = if T::DTYPE.kind() == rumba::layout::element::Kind::Complex {
        &[ReduceOp::Sum, ReduceOp::Prod]
    } else {
        &[ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Min, ReduceOp::Max]
    };
    for &op in ops {
        for strided in [false, true] {
            let l = if strided { "strided" } else { "contiguous" };
            for in_place in [true, false] {
                let p = if in_place { "in_place" } else { "out_of_place" };
                cases.push((
                    format!("all_reduce::{}::{name}::{l}::{p}", op.name()),
                    Box::new(move |c| all_reduce::<T>(c, op, strided, in_place)),
                ));
                cases.push((
                    format!("reduce::{}::{name}::{l}::{p}", op.name()),
                    Box::new(move |c| reduce::<T>(c, op, strided, in_place)),
                ));
            }
            cases.push((
                format!("reduce_scatter::{}::{name}::{l}", op.name()),
                Box::new(move |c| reduce_scatter::<T>(c, op, strided)),
            ));
        }
    }
}

fn nan_rules(c: &Communicator) -> Result<(), String> {
    // Rank 0 holds NaN in element 0, every rank NaN in element 1 (where a NaN is the answer
    // whatever the rule), numbers elsewhere.
    let r = c.rank();
    let v = [
        if r == 0 { f32::NAN } else { r as f32 },
        f32::NAN,
        r as f32 + 1.0,
    ];
    let n = c.size() as f32;
    for (op, first, last) in [
        (ReduceOp::Max, f32::NAN, n),
        (ReduceOp::Min, f32::NAN, 1.0),
        (
            ReduceOp::NanMax,
            if n > 1.0 { n - 1.0 } else { f32::NAN },
            n,
        ),
        (ReduceOp::NanMin, if n > 1.0 { 1.0 } else { f32::NAN }, 1.0),
    ] {
        let a = rumba::to_device(&v[..]).unwrap();
        c.all_reduce(&a, op).map_err(e)?;
        let h = a.copy_to_host().unwrap();
        let same = |x: f32, y: f32| (x.is_nan() && y.is_nan()) || x == y;
        if !(same(h[0], first) && h[1].is_nan() && same(h[2], last)) {
            return Err(format!(
                "{}: got {h:?}, want [{first}, NaN, {last}]",
                op.name()
            ));
        }
    }
    Ok(())
}

pub fn cases(cases: &mut Vec<Case>) {
    crate::each_type!(reductions, cases);
    moves::<bool>(cases, "bool");
    cases.push(("all_reduce::nan_rules".into(), Box::new(nan_rules)));
    cases.push((
        "barrier".into(),
        Box::new(|c: &Communicator| c.barrier().map_err(e)),
    ));
    cases.push((
        "all_reduce::stream_order_and_large".into(),
        Box::new(|c: &Communicator| {
            // 4 MiB per rank through 64 KiB chunks; the input is written on the stream just
            // before and read on it just after, with no host synchronization between.
            let n = 1 << 20;
            let s = rumba::stream().unwrap();
            let a = rumba::device_array::<f32, _>(n, rumba::Order::C).unwrap();
            a.assign_on(c.rank() as f32 + 0.5, &s).unwrap();
            c.on(&s).all_reduce(&a, ReduceOp::Sum).map_err(e)?;
            let h = a.copy_to_host_on(&s).map_err(e)?;
            let size = c.size() as f32;
            let want = size * (size - 1.0) / 2.0 + 0.5 * size;
            expect_eq("large all_reduce", &h.to_vec(), &vec![want; n])
        }),
    ));
    cases.push((
        "split::even_and_odd".into(),
        Box::new(|c: &Communicator| {
            let half = c
                .split(Some((c.rank() % 2) as u32), 0)
                .map_err(e)?
                .ok_or("a rank with a color got no communicator")?;
            let a = rumba::to_device(&[c.rank() as i64][..]).unwrap();
            half.all_reduce(&a, ReduceOp::Sum).map_err(e)?;
            let want: i64 = (0..c.size())
                .filter(|q| q % 2 == c.rank() % 2)
                .map(|q| q as i64)
                .sum();
            expect_eq(
                "sum over the half",
                &a.copy_to_host().unwrap().to_vec(),
                &[want],
            )?;
            if half.local_rank() >= half.local_size() || c.local_size() < 1 {
                return Err("local ranks out of range".into());
            }
            let none = c.split(None, 0).map_err(e)?;
            if none.is_some() {
                return Err("split(None) gave a communicator".into());
            }
            Ok(())
        }),
    ));
}
