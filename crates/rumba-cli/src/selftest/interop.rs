//! Interchange checks (docs/design/behaviour.md §8): an array shared with a second process through
//! IPC (read and written by both), the CUDA Array Interface in both directions, and DLPack.
//!
//! The second process is this executable again, running `rumba ipc open` (see [`crate::ipc`]):
//! it reads the exported view, writes `x * -1 + 0.25` into it, and the first process checks both
//! what the child read and what it now reads itself.
//!
//! This module touches the current backend through rumba's public API, and the process table.

use ndarray::{Array2, Ix1, Ix2, IxDyn, s};
use rumba::interop::{CudaArray, ImportOptions};

use super::{Check, Failure, Outcome, pass, refused};
use crate::{ensure, ensure_eq};

/// The checks of this module, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check {
            name: "interop.ipc-two-processes",
            about: "a strided view exported by IPC is read and written by a second process; both sides see the same values",
            run: ipc_two_processes,
        },
        Check {
            name: "interop.cuda-array-interface",
            about: "descriptions (strides, typestr, stream, version 3) and imports that share memory; masks refused",
            run: cuda_array_interface,
        },
        Check {
            name: "interop.dlpack",
            about: "a DLPack export of a strided view imports as the same memory with the right device type",
            run: dlpack,
        },
    ]
}

fn ipc_two_processes() -> Outcome {
    let host = Array2::from_shape_fn((6, 8), |(i, j)| (i * 8 + j) as f64 + 0.5);
    let d = rumba::to_device(&host)?;
    let view = d.slice(s![1..5, ..;2])?;
    let handle = match view.get_ipc_handle() {
        Ok(h) => h,
        Err(e) => return refused(e),
    };
    ensure!(
        handle.open::<f64, Ix2>().is_err(),
        "the exporting process opened its own handle"
    );
    let exe = std::env::current_exe()
        .map_err(|e| Failure(format!("cannot find this executable to run the child: {e}")))?;
    let out = std::process::Command::new(&exe)
        .args([
            "ipc",
            "open",
            &handle.to_string(),
            "--scale",
            "-1",
            "--shift",
            "0.25",
        ])
        .output()
        .map_err(|e| Failure(format!("cannot start {}: {e}", exe.display())))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    ensure!(
        out.status.success(),
        "the child process failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr).trim()
    );
    let read: Vec<f64> = stdout
        .lines()
        .find_map(|l| l.strip_prefix("values: "))
        .ok_or_else(|| Failure(format!("the child printed no values: {stdout}")))?
        .split(',')
        .map(|v| v.parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|e| Failure(format!("the child's values do not parse: {e}: {stdout}")))?;
    let want: Vec<f64> = host.slice(s![1..5, ..;2]).iter().copied().collect();
    ensure_eq!(read, want, "what the child read");
    let mut after = host.clone();
    after.slice_mut(s![1..5, ..;2]).mapv_inplace(|v| -v + 0.25);
    ensure!(
        d.copy_to_host()? == after,
        "after the child wrote x * -1 + 0.25 into the view, the parent reads something else (elements outside the view must be unchanged)"
    );
    pass(format!(
        "a second process read {} values of a strided view and wrote them back",
        read.len()
    ))
}

fn cuda_array_interface() -> Outcome {
    let host = Array2::from_shape_fn((5, 7), |(i, j)| (i * 7 + j) as f32);
    let d = rumba::to_device(&host)?;
    if let Err(e) = d.describe() {
        return refused(e);
    }
    let whole = d.cuda_array_interface();
    ensure_eq!(
        (
            whole.shape.clone(),
            whole.typestr.clone(),
            whole.strides.clone(),
            whole.version
        ),
        (vec![5usize, 7], "<f4".to_string(), None, 3u32),
        "description of a C-contiguous array"
    );
    ensure_eq!(
        whole.data,
        (d.device_ptr(), false),
        "data (pointer, read-only)"
    );
    let view = d.slice(s![1.., ..;-3])?;
    let desc = view.describe()?;
    ensure_eq!(
        desc.strides.clone(),
        Some(vec![28isize, -12]),
        "byte strides of [1:, ::-3]"
    );
    ensure_eq!(desc.data.0, view.device_ptr(), "data pointer of the view");
    let s = rumba::stream()?;
    ensure_eq!(
        d.bind(&s).cuda_array_interface().stream,
        Some(s.handle().0),
        "stream of a bound array"
    );
    ensure_eq!(
        d.bind(&rumba::default_stream()?)
            .cuda_array_interface()
            .stream,
        None,
        "stream of an array on the default stream (never 0)"
    );
    // SAFETY: the description is `view`'s own, and `view` is the owner kept alive by the import.
    let imported = unsafe {
        rumba::interop::from_cuda_array_interface::<f32, Ix2, _>(
            &desc,
            view.clone(),
            ImportOptions::default(),
        )
    }?;
    let packed = rumba::device_array_like(&imported)?;
    packed.assign(&imported)?;
    ensure!(
        packed.copy_to_host()? == host.slice(s![1.., ..;-3]),
        "an import of a negative-stride description reads other elements"
    );
    let same = rumba::as_cuda_array::<f32, Ix2, _>(d.clone())?;
    ensure_eq!(same.device_ptr(), d.device_ptr(), "as_cuda_array pointer");
    same.set(&[4, 6], -5.0)?;
    ensure_eq!(d.get(&[4, 6])?, -5.0f32, "a write through the import");
    let mut masked = whole.clone();
    masked.mask = Some(Box::new(whole.clone()));
    // SAFETY: the description names `d`'s memory and `d` is kept alive; it is refused anyway.
    let refused = unsafe {
        rumba::interop::from_cuda_array_interface::<f32, Ix2, _>(
            &masked,
            d.clone(),
            ImportOptions::default(),
        )
    };
    ensure!(refused.is_err(), "a masked description was imported");
    let text = desc.to_string();
    ensure!(
        text.contains("'version': 3") && text.contains("'typestr': '<f4'"),
        "the printed (Python dict) form: {text}"
    );
    pass(text)
}

fn dlpack() -> Outcome {
    let host: Vec<u32> = (0..1000).collect();
    let d = rumba::to_device(&host)?;
    let view = d.slice(s![10..;-3])?;
    let consumer = rumba::stream()?;
    let t = view.to_dlpack(Some(&consumer))?;
    let backend = super::backend()?;
    ensure_eq!(
        t.tensor().device.device_type,
        rumba::interop::dlpack::DLDeviceType::of(backend),
        "DLPack device type"
    );
    ensure_eq!(t.strides()?, Some(vec![-3i64]), "DLPack strides (elements)");
    let back = rumba::interop::from_dlpack::<u32, Ix1>(t)?;
    ensure_eq!(back.device_ptr(), view.device_ptr(), "the import's pointer");
    let packed = rumba::device_array_like(&back)?;
    packed.assign(&back)?;
    let want: Vec<u32> = (10..1000).rev().step_by(3).collect();
    ensure_eq!(
        packed.copy_to_host()?.to_vec(),
        want,
        "values through DLPack"
    );
    let wrong = d.to_dlpack(None)?;
    ensure!(
        rumba::interop::from_dlpack::<f32, IxDyn>(wrong).is_err(),
        "a u32 tensor imported as f32"
    );
    pass(format!("device type {}", backend))
}
