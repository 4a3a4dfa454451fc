//! The reset gate's guarantee, checked on the source: the library hands the driver the address of
//! a device buffer or array only through a lease (`DeviceBuffer::addr`, `DeviceArray::addr`,
//! `Queue::addr`), which refuses a handle whose memory a context reset freed. `device_ptr()` is
//! the public number for people and descriptions; a use of it in the library is a place where a
//! handle's address could reach the driver unchecked, so each one is listed here with why it
//! cannot. A new use fails this test until it is made a checked one (or shown harmless here).

mod source_scan;

use std::collections::BTreeMap;
use std::fs;

use source_scan::{code_only, rust_files, src, without_test_modules};

/// Files that may call `.device_ptr()`, how often, and why none of those calls feeds the driver.
const ALLOWED: &[(&str, usize, &str)] = &[
    (
        "memory/buffer.rs",
        3,
        "the owner: `Debug`, and `addr` itself after its checks",
    ),
    (
        "array/mod.rs",
        1,
        "`DeviceArray::device_ptr`, the public number, built from the buffer's",
    ),
    (
        "interop/cai.rs",
        1,
        "`cuda_array_interface()` describes the array (`describe()`, which imports use, checks it)",
    ),
    (
        "memory/facade.rs",
        1,
        "`get_ipc_handle`'s refusal of a zero-size or imported buffer names its address",
    ),
    (
        "driver/sim/launch.rs",
        2,
        "a simulator kernel argument's address, written into a fault message",
    ),
];

fn uses() -> BTreeMap<String, Vec<usize>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut found = BTreeMap::new();
    for path in files {
        let rel = path.strip_prefix(src()).unwrap().display().to_string();
        let code = without_test_modules(&code_only(&fs::read_to_string(&path).unwrap()));
        let lines: Vec<usize> = code
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains(".device_ptr()"))
            .map(|(k, _)| k + 1)
            .collect();
        if !lines.is_empty() {
            found.insert(rel, lines);
        }
    }
    found
}

#[test]
fn the_library_reaches_the_driver_through_checked_handles_only() {
    let mut wrong = Vec::new();
    for (file, lines) in uses() {
        match ALLOWED.iter().find(|(f, _, _)| *f == file) {
            Some((_, n, _)) if *n == lines.len() => {}
            Some((_, n, why)) => wrong.push(format!(
                "{file}: {} uses of `.device_ptr()` (lines {lines:?}), {n} expected ({why})",
                lines.len()
            )),
            None => wrong.push(format!(
                "{file}: `.device_ptr()` at lines {lines:?}: take the address under a lease (`addr`) instead"
            )),
        }
    }
    assert!(
        wrong.is_empty(),
        "device addresses that bypass the reset gate:\n{}",
        wrong.join("\n")
    );
}
