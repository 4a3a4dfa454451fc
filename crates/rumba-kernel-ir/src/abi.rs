//! The signature a generated kernel carries at run time ([`KernelAbi`]) and the decoder of the
//! checked-mode fault record (see `ABI.md` beside this crate's `Cargo.toml`).
//!
//! Both are plain data the macro writes as `static`s; the runtime uses them to refuse a launch
//! whose arrays have the wrong number of dimensions and to turn a fault record read back from a
//! device into the same message the simulator gives.

use std::fmt::Write as _;

/// Size of the fault record in bytes.
pub const FAULT_RECORD_BYTES: usize = 128;

/// What kind of value one kernel parameter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `&Arr<T>` / `&mut Arr<T>` of this rank.
    Array {
        /// Number of index components the kernel uses.
        rank: usize,
        /// Whether the kernel writes it (`&mut`).
        writes: bool,
    },
    /// `&ConstArr<T>` of this rank.
    ConstArray {
        /// Number of index components the kernel uses.
        rank: usize,
    },
    /// A scalar or a record, by value.
    Value,
}

/// One kernel parameter (the `&Thread` parameter is not one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamAbi {
    /// Name in the Rust signature.
    pub name: &'static str,
    /// Kind and rank.
    pub kind: ParamKind,
}

/// What the runtime needs to know about a generated kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelAbi {
    /// Kernel name (the C entry point).
    pub name: &'static str,
    /// Parameters in order.
    pub params: &'static [ParamAbi],
    /// Whether the kernel reads `t.dynamic_shared()`.
    pub uses_dynamic_shared: bool,
    /// Fault sites: what each checked operation is and where it is in the source.
    pub sites: &'static [&'static str],
}

/// A decoded fault record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultInfo {
    /// Block coordinates.
    pub block: [u32; 3],
    /// Thread coordinates in the block.
    pub thread: [u32; 3],
    /// What happened, where.
    pub message: String,
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_ne_bytes(b[off..off + 4].try_into().unwrap_or([0; 4]))
}

fn u64_at(b: &[u8], off: usize) -> u64 {
    u64::from_ne_bytes(b[off..off + 8].try_into().unwrap_or([0; 8]))
}

impl KernelAbi {
    /// Checks the number of dimensions of each array argument (`ndims[k]` is `None` for a
    /// non-array argument); returns a message naming the parameter on a mismatch.
    ///
    /// ```
    /// use rumba_kernel_ir::abi::{KernelAbi, ParamAbi, ParamKind};
    /// static P: [ParamAbi; 1] = [ParamAbi { name: "a", kind: ParamKind::Array { rank: 2, writes: false } }];
    /// let abi = KernelAbi { name: "k", params: &P, uses_dynamic_shared: false, sites: &[] };
    /// assert!(abi.check_ranks(&[Some(2)]).is_ok());
    /// assert!(abi.check_ranks(&[Some(1)]).unwrap_err().contains("`a`"));
    /// ```
    ///
    /// # Errors
    /// A message when an array argument's dimensions differ from the rank the kernel indexes
    /// it with, or when the argument count differs.
    pub fn check_ranks(&self, ndims: &[Option<usize>]) -> Result<(), String> {
        if ndims.len() != self.params.len() {
            return Err(format!(
                "kernel '{}' takes {} argument(s) but the launch passed {}",
                self.name,
                self.params.len(),
                ndims.len()
            ));
        }
        for (k, (p, nd)) in self.params.iter().zip(ndims).enumerate() {
            let rank = match p.kind {
                ParamKind::Array { rank, .. } | ParamKind::ConstArray { rank } => rank,
                ParamKind::Value => continue,
            };
            match nd {
                Some(n) if *n == rank => {}
                Some(n) => {
                    return Err(format!(
                        "kernel '{}' indexes argument {k} (`{}`) with {rank} index component(s), but the array passed has {n} dimension(s)",
                        self.name, p.name
                    ));
                }
                None => {
                    return Err(format!(
                        "kernel '{}' argument {k} (`{}`) must be an array",
                        self.name, p.name
                    ));
                }
            }
        }
        Ok(())
    }

    /// Decodes a fault record read back from a device; `None` when no fault was recorded (or
    /// the buffer is shorter than [`FAULT_RECORD_BYTES`]).
    ///
    /// ```
    /// use rumba_kernel_ir::abi::KernelAbi;
    /// static SITES: [&str; 1] = ["load of global array `a` (a[i] at k.rs:3:5)"];
    /// let abi = KernelAbi { name: "k", params: &[], uses_dynamic_shared: false, sites: &SITES };
    /// let mut rec = [0u8; 128];
    /// assert!(abi.decode_fault(&rec).is_none());
    /// rec[0] = 1; // flag
    /// rec[4] = 1; // out of bounds
    /// rec[12] = 1; // one index component
    /// rec[28] = 9; // thread x
    /// rec[40] = 12; // index 12
    /// rec[64] = 10; // extent 10
    /// let f = abi.decode_fault(&rec).unwrap();
    /// assert_eq!(f.thread, [9, 0, 0]);
    /// assert_eq!(f.message, "index (12,) is out of bounds for axis 0 with size 10: load of global array `a` (a[i] at k.rs:3:5)");
    /// ```
    pub fn decode_fault(&self, record: &[u8]) -> Option<FaultInfo> {
        if record.len() < FAULT_RECORD_BYTES || u32_at(record, 0) == 0 {
            return None;
        }
        let code = u32_at(record, 4);
        let site = u32_at(record, 8) as usize;
        let ndim = (u32_at(record, 12) as usize).min(6);
        let block = [u32_at(record, 16), u32_at(record, 20), u32_at(record, 24)];
        let thread = [u32_at(record, 28), u32_at(record, 32), u32_at(record, 36)];
        let index: Vec<u64> = (0..ndim).map(|k| u64_at(record, 40 + 8 * k)).collect();
        // Up to three dimensions every extent follows the index; beyond, the extent of the
        // failing axis (byte 88) and the axis (byte 96).
        let (shape, failing): (Vec<u64>, Option<(usize, u64)>) = if ndim <= 3 {
            (
                (0..ndim).map(|k| u64_at(record, 64 + 8 * k)).collect(),
                None,
            )
        } else {
            (
                Vec::new(),
                Some((u32_at(record, 96) as usize, u64_at(record, 88))),
            )
        };
        let what = self
            .sites
            .get(site)
            .copied()
            .unwrap_or("an operation of the kernel");
        let mut message = String::new();
        match code {
            1 => {
                let mut idx = String::from("(");
                for (k, i) in index.iter().enumerate() {
                    let _ = write!(idx, "{}{i}", if k > 0 { ", " } else { "" });
                }
                idx.push_str(if index.len() == 1 { ",)" } else { ")" });
                let (axis, size) = failing.unwrap_or_else(|| {
                    let axis = (0..ndim).find(|&k| index[k] >= shape[k]).unwrap_or(0);
                    (axis, shape.get(axis).copied().unwrap_or(0))
                });
                let _ = write!(
                    message,
                    "index {idx} is out of bounds for axis {axis} with size {size}: {what}"
                );
            }
            2 => {
                let _ = write!(message, "attempt to divide by zero: {what}");
            }
            3 => {
                let _ = write!(message, "attempt to divide with overflow: {what}");
            }
            4 => {
                let _ = write!(message, "assertion failed: {what}");
            }
            5 => {
                let _ = write!(message, "step_by(0) is not a valid step: {what}");
            }
            6 => {
                let _ = write!(
                    message,
                    "invalid array view (sizes differ, a non-contiguous base, item sizes that do not divide, or misaligned memory): {what}"
                );
            }
            c => {
                let _ = write!(message, "fault code {c}: {what}");
            }
        }
        Some(FaultInfo {
            block,
            thread,
            message,
        })
    }
}
