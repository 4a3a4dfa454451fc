//! The small header every operation sends before its data: what the rank is about to do
//! (operation, element type, shape, root, reduction operator) and whether its own input was
//! refused. Collectives gather every rank's header and compare them, point-to-point receivers
//! compare the sender's with their own array and answer with one; so a mismatch becomes the same
//! typed error on every rank taking part before any data moves, never a hang or a silent
//! reinterpretation of bytes.

use bytemuck::{Pod, Zeroable};

use crate::layout::DType;

/// Marks a header of this layer (and its version).
const MAGIC: u32 = 0x5255_4d31; // "RUM1"

/// Axes recorded in a header (an array with more is compared by its first ones and its count).
pub(crate) const AXES: usize = 8;

/// One rank's description of an operation. Fixed size, plain bytes.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(crate) struct Header {
    magic: u32,
    /// The operation's code ([`Op`]).
    pub op: u32,
    /// 0: fine; 1: this rank refused its input (`reason` says why).
    pub status: u32,
    /// Number of axes of the described array.
    pub ndim: u32,
    /// Bytes per element.
    pub itemsize: u64,
    /// Elements per block (what every rank must agree on).
    pub count: u64,
    /// Root rank, or `u64::MAX` for operations without one.
    pub root: u64,
    /// Reduction operator code, 0 for none.
    pub redop: u32,
    /// The data tag of a point-to-point transfer.
    pub tag: u32,
    /// The first [`AXES`] axes.
    pub shape: [u64; AXES],
    /// The element type's name, NUL padded.
    dtype: [u8; 32],
    /// Why the input was refused, NUL padded.
    reason: [u8; 112],
}

const _: () = assert!(size_of::<Header>() == 256);

/// Bytes of a header.
pub(crate) const HEADER_BYTES: usize = size_of::<Header>();

/// Operation codes carried in headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Op {
    Barrier = 1,
    Broadcast,
    AllReduce,
    Reduce,
    AllGather,
    Gather,
    Scatter,
    ReduceScatter,
    AllToAll,
    Send,
    Poison,
    /// A point-to-point header of a NCCL transfer (the data goes through NCCL, not MPI).
    NcclSend,
}

impl Op {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Op::Barrier => "barrier",
            Op::Broadcast => "broadcast",
            Op::AllReduce => "all_reduce",
            Op::Reduce => "reduce",
            Op::AllGather => "all_gather",
            Op::Gather => "gather",
            Op::Scatter => "scatter",
            Op::ReduceScatter => "reduce_scatter",
            Op::AllToAll => "all_to_all",
            Op::Send => "send",
            Op::Poison => "poison",
            Op::NcclSend => "send (NCCL)",
        }
    }

    fn from_code(c: u32) -> Option<Op> {
        const ALL: [Op; 12] = [
            Op::Barrier,
            Op::Broadcast,
            Op::AllReduce,
            Op::Reduce,
            Op::AllGather,
            Op::Gather,
            Op::Scatter,
            Op::ReduceScatter,
            Op::AllToAll,
            Op::Send,
            Op::Poison,
            Op::NcclSend,
        ];
        ALL.into_iter().find(|o| *o as u32 == c)
    }
}

fn put(dst: &mut [u8], text: &str) {
    let mut n = text.len().min(dst.len());
    while !text.is_char_boundary(n) {
        n -= 1;
    }
    dst[..n].copy_from_slice(&text.as_bytes()[..n]);
}

fn get(src: &[u8]) -> String {
    let end = src.iter().position(|&b| b == 0).unwrap_or(src.len());
    String::from_utf8_lossy(&src[..end]).into_owned()
}

impl Header {
    /// A header for `op` on an array of `dtype` and `shape`, `count` elements per block.
    pub(crate) fn new(op: Op, dtype: Option<DType>, shape: &[usize], count: usize) -> Header {
        let mut h = Header::zeroed();
        h.magic = MAGIC;
        h.op = op as u32;
        h.ndim = shape.len() as u32;
        for (d, &s) in h.shape.iter_mut().zip(shape) {
            *d = s as u64;
        }
        h.count = count as u64;
        h.root = u64::MAX;
        if let Some(dt) = dtype {
            h.itemsize = dt.itemsize() as u64;
            put(&mut h.dtype, dt.name());
        }
        h
    }

    /// The same header marking this rank's input refused for `reason`.
    pub(crate) fn refused(mut self, reason: &str) -> Header {
        self.status = 1;
        put(&mut self.reason, reason);
        self
    }

    pub(crate) fn is_valid(&self) -> bool {
        self.magic == MAGIC
    }

    pub(crate) fn reason(&self) -> String {
        get(&self.reason)
    }

    pub(crate) fn dtype_name(&self) -> String {
        get(&self.dtype)
    }

    pub(crate) fn op_name(&self) -> &'static str {
        Op::from_code(self.op).map_or("an unknown operation", Op::name)
    }

    /// The shape as recorded (at most [`AXES`] axes, then `…`).
    pub(crate) fn shape_text(&self) -> String {
        let n = (self.ndim as usize).min(AXES);
        let dims: Vec<String> = self.shape[..n].iter().map(|d| d.to_string()).collect();
        let more = if self.ndim as usize > AXES {
            ", …"
        } else {
            ""
        };
        format!("({}{more})", dims.join(", "))
    }

    /// "100 float32 of shape (10, 10)".
    pub(crate) fn describe(&self) -> String {
        format!(
            "{} {} of shape {}",
            self.count,
            self.dtype_name(),
            self.shape_text()
        )
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        bytemuck::bytes_of(self)
    }

    pub(crate) fn from_bytes(b: &[u8]) -> Header {
        bytemuck::pod_read_unaligned(&b[..HEADER_BYTES])
    }
}

/// Compares every rank's header of one collective with rank 0's; the first difference (or the
/// first refused input) as `(rank, reason)`, the same text on every rank.
pub(crate) fn agree(headers: &[Header], shapes_must_match: bool) -> Result<(), (usize, String)> {
    if let Some((r, h)) = headers.iter().enumerate().find(|(_, h)| !h.is_valid()) {
        return Err((
            r,
            format!(
                "rank {r} sent a header this version does not read (op code {})",
                h.op
            ),
        ));
    }
    if let Some((r, h)) = headers.iter().enumerate().find(|(_, h)| h.status != 0) {
        return Err((r, format!("rank {r} refused its input: {}", h.reason())));
    }
    let h0 = &headers[0];
    for (r, h) in headers.iter().enumerate().skip(1) {
        let why = if h.op != h0.op {
            format!(
                "rank {r} called {} while rank 0 called {}",
                h.op_name(),
                h0.op_name()
            )
        } else if h.root != h0.root {
            format!(
                "rank {r} passed root {} while rank 0 passed root {}",
                h.root, h0.root
            )
        } else if h.tag != h0.tag {
            format!(
                "rank {r} stages in chunks of {} bytes while rank 0 uses {} (RUMBA_DIST_CHUNK must be the same on every rank)",
                h.tag, h0.tag
            )
        } else if h.redop != h0.redop {
            format!("rank {r} passed another reduction operator than rank 0")
        } else if h.dtype != h0.dtype || h.itemsize != h0.itemsize {
            format!(
                "rank {r} passed {} while rank 0 passed {}",
                h.dtype_name(),
                h0.dtype_name()
            )
        } else if h.count != h0.count {
            format!(
                "rank {r} passed {} elements per rank while rank 0 passed {}",
                h.count, h0.count
            )
        } else if shapes_must_match && (h.ndim != h0.ndim || h.shape != h0.shape) {
            format!(
                "rank {r} passed shape {} while rank 0 passed shape {}",
                h.shape_text(),
                h0.shape_text()
            )
        } else {
            continue;
        };
        return Err((r, why));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Element;

    #[test]
    fn agreement_names_the_first_difference() {
        let a = Header::new(Op::AllReduce, Some(f32::DTYPE), &[4, 4], 16);
        assert!(agree(&[a, a, a], true).is_ok());
        let b = Header::new(Op::AllReduce, Some(f64::DTYPE), &[4, 4], 16);
        let (r, why) = agree(&[a, a, b], true).unwrap_err();
        assert_eq!(
            (r, why.as_str()),
            (2, "rank 2 passed float64 while rank 0 passed float32")
        );
        let c = Header::new(Op::AllReduce, Some(f32::DTYPE), &[16], 16);
        assert!(agree(&[a, c], false).is_ok());
        assert!(agree(&[a, c], true).unwrap_err().1.contains("shape (16)"));
        let d = Header::new(Op::Broadcast, Some(f32::DTYPE), &[4, 4], 16);
        assert!(
            agree(&[a, d], true)
                .unwrap_err()
                .1
                .contains("called broadcast")
        );
        let e = a.refused("root 7 is out of range for 2 ranks");
        let (r, why) = agree(&[a, e], true).unwrap_err();
        assert_eq!(r, 1);
        assert!(why.ends_with("root 7 is out of range for 2 ranks"), "{why}");
        let round = Header::from_bytes(e.as_bytes());
        assert_eq!(round.describe(), "16 float32 of shape (4, 4)");
    }
}
