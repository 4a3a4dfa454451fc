//! `rumba ipc export` / `rumba ipc open`: a device array shared with another process through an
//! IPC handle, in a line-oriented form that scripts (and other libraries) can drive.
//!
//! `export` makes an array whose element `k` (C order) holds `k`, exports it (or, with
//! `--strided`, the view `[1:, ::2]` of it, which has an offset and strides), and prints
//!
//! ```text
//! handle: rumba-ipc-array/1;backend=…;pid=…;device=…;bytes=…;offset=…;first=…;typestr=…;shape=…;strides=…;handle=<hex>
//! cai: {'shape': (…), 'typestr': '<f4', 'data': (…, False), 'strides': (…), 'version': 3, …}
//! ```
//!
//! then waits for one line on stdin (the other side is done), and prints `values: v0,v1,…` — the
//! exported elements as this process now reads them, in C order — before it exits (which frees
//! the memory). `open HANDLE` opens such a handle (from `export`, or written by another library
//! from its own IPC handle), prints `values: …`, writes `x * scale + shift` into every element,
//! synchronizes and prints `written`.
//!
//! The handle is [`rumba::IpcArrayHandle`]'s text form: on CUDA, `handle=` is the 64 bytes of the
//! `cudaIpcMemHandle_t` in hex, `offset` the range's byte offset in the exported allocation,
//! `first` the byte offset of element 0 in that range, and strides are in bytes — what another
//! process needs to rebuild the array. The `cai:` line is the exporter's own CUDA Array Interface
//! description (its data pointer is valid only in the exporter).
//!
//! The selftest's IPC check runs `open` as its second process; `scripts/gpu/peer_ipc.py` drives
//! both against CuPy and Numba.
//!
//! This module touches the current backend, stdin/stdout.

use std::fmt::Display;
use std::io::{BufRead, Write};

use clap::Subcommand;
use rumba::Result;
use rumba::layout::Element;
use rumba::ndarray::{Array, IxDyn, s};

/// The `ipc` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum IpcCommand {
    /// Export a device array: print its IPC handle and CUDA Array Interface, wait for a line on
    /// stdin, then print its values.
    Export {
        /// Element type: f32, f64, i32 or i64.
        #[arg(long, default_value = "f32", value_parser = ["f32", "f64", "i32", "i64"])]
        dtype: String,
        /// Shape of the array, comma-separated (at most the device's memory in bytes).
        #[arg(long, default_value = "4,6", value_parser = parse_shape)]
        shape: Shape,
        /// Export the view [1:, ::2] (2-d arrays; offset and strides) instead of the whole array.
        #[arg(long)]
        strided: bool,
    },
    /// Open an exported array: print its values, then write `x * scale + shift` into it.
    Open {
        /// The handle, as printed by `export` (`rumba-ipc-array/1;…`).
        handle: String,
        /// Factor of the write-back.
        #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
        scale: f64,
        /// Offset of the write-back.
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        shift: f64,
    },
}

/// Element types the `ipc` commands handle.
pub trait IpcValue: Element + Display + PartialEq + std::fmt::Debug {
    /// The value of element `k`.
    fn from_index(k: usize) -> Self;
    /// `self * scale + shift` in this type.
    fn affine(self, scale: f64, shift: f64) -> Self;
}

macro_rules! ipc_value {
    ($($t:ty),*) => {$(
        impl IpcValue for $t {
            fn from_index(k: usize) -> Self {
                k as $t
            }
            fn affine(self, scale: f64, shift: f64) -> Self {
                (self as f64 * scale + shift) as $t
            }
        }
    )*};
}
ipc_value!(f32, f64, i32, i64);

/// Runs an `ipc` subcommand.
pub fn run(cmd: &IpcCommand) -> Result<()> {
    match cmd {
        IpcCommand::Export {
            dtype,
            shape,
            strided,
        } => {
            let shape = &shape.0[..];
            match dtype.as_str() {
                "f32" => export::<f32>(shape, *strided),
                "f64" => export::<f64>(shape, *strided),
                "i32" => export::<i32>(shape, *strided),
                "i64" => export::<i64>(shape, *strided),
                other => Err(rumba::Error::InvalidArgument(format!(
                    "--dtype {other}: expected f32, f64, i32 or i64"
                ))),
            }
        }
        IpcCommand::Open {
            handle,
            scale,
            shift,
        } => {
            let h: rumba::IpcArrayHandle = handle.parse()?;
            let values = match h.typestr() {
                "<f4" => open::<f32>(&h, *scale, *shift)?,
                "<f8" => open::<f64>(&h, *scale, *shift)?,
                "<i4" => open::<i32>(&h, *scale, *shift)?,
                "<i8" => open::<i64>(&h, *scale, *shift)?,
                other => {
                    return Err(rumba::Error::InvalidArgument(format!(
                        "typestr {other}: `rumba ipc open` handles <f4, <f8, <i4 and <i8"
                    )));
                }
            };
            println!("values: {values}");
            println!("written");
            Ok(())
        }
    }
}

/// A `--shape`: whole numbers whose product fits in memory addresses even at 8 bytes an element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape(pub Vec<usize>);

/// Parses `--shape` (clap reports a refusal as an invalid value, exit status 2).
fn parse_shape(text: &str) -> std::result::Result<Shape, String> {
    let dims = text
        .split(',')
        .map(|p| {
            p.trim().parse::<usize>().map_err(|e| {
                format!(
                    "{:?} is not a whole number from 0 to {} ({e})",
                    p.trim(),
                    usize::MAX
                )
            })
        })
        .collect::<std::result::Result<Vec<usize>, String>>()?;
    dims.iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .filter(|n| n.checked_mul(8).is_some_and(|b| b <= isize::MAX as usize))
        .ok_or_else(|| {
            format!(
                "{} elements are more than any memory can hold",
                dims.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(" x ")
            )
        })?;
    Ok(Shape(dims))
}

/// Refuses a shape whose bytes exceed the device's memory before anything is allocated (the
/// host copy would be as large).
fn fits_device<T: Element>(shape: &[usize]) -> Result<()> {
    let bytes = shape.iter().product::<usize>() * T::DTYPE.itemsize();
    let (_, total) = rumba::get_memory_info()?;
    if bytes > total {
        return Err(rumba::Error::InvalidArgument(format!(
            "--shape {}: {bytes} bytes of {}, more than the device's {total} bytes",
            join(shape),
            T::DTYPE.name()
        )));
    }
    Ok(())
}

/// The elements of `a` in C order, comma-separated.
pub fn join<T: Display>(a: impl IntoIterator<Item = T>) -> String {
    a.into_iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn export<T: IpcValue>(shape: &[usize], strided: bool) -> Result<()> {
    fits_device::<T>(shape)?;
    let n: usize = shape.iter().product();
    let host = Array::from_shape_vec(IxDyn(shape), (0..n).map(T::from_index).collect())
        .map_err(|e| rumba::Error::InvalidArgument(e.to_string()))?;
    let d = rumba::to_device(&host)?;
    let view = if strided {
        if shape.len() != 2 {
            return Err(rumba::Error::InvalidArgument(
                "--strided exports [1:, ::2] of a 2-d array; give a --shape with two axes".into(),
            ));
        }
        d.clone()
            .into_dimensionality::<rumba::ndarray::Ix2>()?
            .slice(s![1.., ..;2])?
            .into_dyn()
    } else {
        d.clone()
    };
    let handle = view.get_ipc_handle()?;
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| rumba::Error::InvalidArgument(format!("stdout: {e}"));
    writeln!(out, "handle: {handle}").map_err(io)?;
    writeln!(out, "cai: {}", view.cuda_array_interface()).map_err(io)?;
    out.flush().map_err(io)?;
    drop(out);
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| rumba::Error::InvalidArgument(format!("stdin: {e}")))?;
    let now = packed(&view)?;
    println!("values: {}", join(now.iter()));
    Ok(())
}

/// The elements of a device array on the host, also for negative strides (packed on the device).
fn packed<T: Element>(a: &rumba::DeviceArray<T, IxDyn>) -> Result<Array<T, IxDyn>> {
    if a.strides().iter().all(|&s| s >= 0) {
        a.copy_to_host()
    } else {
        let p = rumba::device_array_like(a)?;
        p.assign(a)?;
        p.copy_to_host()
    }
}

fn open<T: IpcValue>(h: &rumba::IpcArrayHandle, scale: f64, shift: f64) -> Result<String> {
    let a = h.open::<T, IxDyn>()?;
    let values = packed(&a)?;
    let new = values.mapv(|v| v.affine(scale, shift));
    a.assign(&new)?;
    rumba::synchronize()?;
    drop(a);
    h.close()?;
    Ok(join(values.iter()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_values() {
        assert_eq!(parse_shape("4, 6").unwrap(), Shape(vec![4, 6]));
        assert!(
            parse_shape("4,x")
                .unwrap_err()
                .contains("\"x\" is not a whole number")
        );
        assert!(parse_shape("18446744073709551615,2").is_err());
        assert!(
            parse_shape("1152921504606846976").is_err(),
            "2^60 elements of 8 bytes"
        );
        assert!(parse_shape("18446744073709551616").is_err());
        assert_eq!(join([1.5f32, -2.0]), "1.5,-2");
        assert_eq!(7i32.affine(-1.0, 0.5), -6);
        assert_eq!(1.5f64.affine(-2.0, 0.25), -2.75);
    }
}
