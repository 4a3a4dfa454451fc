//! The other process of the IPC tests: the test binary itself, run again with one test selected
//! (`ipc_child`) and told what to do through the environment. It prints one `RESULT: …` line.
#![allow(dead_code)]

use std::process::Command;

use ndarray::IxDyn;
use rumba::interop::IpcArrayHandle;

const ACTION: &str = "RUMBA_IPC_TEST_ACTION";
const HANDLE: &str = "RUMBA_IPC_TEST_HANDLE";

/// Runs `action` on `handle` in a child process; returns what it reported.
pub fn run_child(action: &str, handle: &IpcArrayHandle) -> String {
    let exe = std::env::current_exe().expect("test binary path");
    let out = Command::new(exe)
        .args(["ipc_child", "--exact", "--nocapture", "--test-threads=1"])
        .env(ACTION, action)
        .env(HANDLE, handle.to_string())
        .output()
        .expect("spawn the child process");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child failed: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .find_map(|l| l.split_once("RESULT: ").map(|(_, r)| r))
        .unwrap_or_else(|| panic!("the child reported nothing:\n{stdout}"))
        .to_string()
}

/// The child's side; does nothing when run as an ordinary test.
pub fn child_main() {
    let (Ok(action), Ok(text)) = (std::env::var(ACTION), std::env::var(HANDLE)) else {
        return;
    };
    let handle: IpcArrayHandle = text.parse().expect("a handle");
    let result = match action.as_str() {
        "read" => {
            let a = handle.open::<f64, IxDyn>().expect("open");
            let values = a.copy_to_host().expect("read");
            handle.close().expect("close");
            values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        }
        "sum" => {
            let a = handle.open::<f64, IxDyn>().expect("open");
            let values = a.copy_to_host().expect("read");
            format!("{} values, sum {}", values.len(), values.sum())
        }
        "write" => {
            let a = handle.open::<f64, IxDyn>().expect("open");
            a.fill(-7.0).expect("write");
            drop(a);
            handle.close().expect("close");
            "written".to_string()
        }
        "open-twice" => {
            let a = handle.open::<f64, IxDyn>().expect("open");
            let again = handle.open::<f64, IxDyn>().unwrap_err();
            let copy: IpcArrayHandle = text.parse().expect("a handle");
            let through_copy = copy.open::<f64, IxDyn>().unwrap_err();
            drop(a);
            handle.close().expect("close");
            let closed_twice = handle.close().unwrap_err();
            // The variants (their Debug form), for the parent to match across the process boundary.
            format!("{again:?} | {through_copy:?} | {closed_twice:?}")
        }
        "reexport" => {
            let a = handle.open::<f64, IxDyn>().expect("open");
            let err = a.get_ipc_handle().unwrap_err();
            drop(a);
            handle.close().expect("close");
            format!("error: {err}")
        }
        "open" => match handle.open::<f64, IxDyn>() {
            Ok(_) => "opened".to_string(),
            Err(e) => format!("error: {e}"),
        },
        other => format!("unknown action {other}"),
    };
    println!("RESULT: {result}");
}
