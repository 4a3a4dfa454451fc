//! Inter-process sharing of simulated device memory: OS shared-memory objects and the handle
//! bytes that name them.
//!
//! Simulated device memory is host memory, so sharing it between processes means sharing host
//! pages. An exported allocation lives in an anonymous shared-memory object (`memfd_create`),
//! mapped `MAP_SHARED` where the allocation's storage was (see
//! [`AddressSpace::export`](super::memory::AddressSpace::export)). The handle records the
//! exporter's process id, the object's file descriptor there, a unique object id and the length.
//! Another process opens `/proc/<pid>/fd/<fd>` — after checking that the link still names the
//! object the handle describes, so a closed and reused descriptor number is refused — and maps it
//! into its own simulated address space as a new region. Both processes then address the same
//! pages: a write in one is visible in the other.
//!
//! The object disappears when the exporter frees the allocation (or exits) and the last opener
//! unmaps it; nothing is left in the file system, even after a crash. Opening requires that the
//! opener may read the exporter's `/proc/<pid>/fd` (same user, as for CUDA IPC in practice).
//!
//! The driver's IPC calls (export, open, close) are here too; they drain streams before the first
//! export and add or remove regions of the address spaces.
//!
//! This module touches the shared-memory objects it creates or opens, the simulator's address
//! spaces and (to drain them before an export) its streams.

use std::ffi::CString;
use std::sync::atomic::{AtomicU64, Ordering};

use super::SimDriver;
use crate::driver::{DevicePtr, Ipc};
use crate::error::{Error, IpcError, Result};
use crate::sync::lock;

/// First bytes of every sim IPC handle.
const MAGIC: &[u8; 4] = b"RSIM";
/// Layout version of the handle bytes.
const VERSION: u32 = 1;
/// Length of the handle bytes: magic, version, pid, fd, id, len.
pub(crate) const HANDLE_LEN: usize = 4 + 4 + 4 + 4 + 8 + 8;

static NEXT_OBJECT: AtomicU64 = AtomicU64::new(1);

/// What a sim IPC handle says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HandleInfo {
    /// Process that exported the memory.
    pub(crate) pid: u32,
    /// The shared-memory object's file descriptor in that process.
    pub(crate) fd: i32,
    /// Object id, unique within the exporting process.
    pub(crate) id: u64,
    /// Bytes of the exported allocation.
    pub(crate) len: usize,
}

impl HandleInfo {
    /// The handle bytes.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HANDLE_LEN);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.pid.to_le_bytes());
        out.extend_from_slice(&self.fd.to_le_bytes());
        out.extend_from_slice(&self.id.to_le_bytes());
        out.extend_from_slice(&(self.len as u64).to_le_bytes());
        out
    }

    /// Parses handle bytes; anything that is not a sim handle of this version is refused.
    pub(crate) fn decode(bytes: &[u8]) -> Result<HandleInfo> {
        let bad = |why: &str| {
            Error::from(IpcError::Malformed {
                format: "an IPC handle of the simulated GPU",
                reason: format!("{why}; {} bytes", bytes.len()),
            })
        };
        if bytes.len() != HANDLE_LEN {
            return Err(bad(&format!("expected {HANDLE_LEN} bytes")));
        }
        if &bytes[..4] != MAGIC {
            return Err(bad("wrong magic"));
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let u64_at = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[i..i + 8]);
            u64::from_le_bytes(b)
        };
        if u32_at(4) != VERSION {
            return Err(bad(&format!(
                "handle version {}, expected {VERSION}",
                u32_at(4)
            )));
        }
        let len = usize::try_from(u64_at(24)).map_err(|_| bad("length too large"))?;
        Ok(HandleInfo {
            pid: u32_at(8),
            fd: u32_at(12) as i32,
            id: u64_at(16),
            len,
        })
    }

    /// The name the object carries (visible in `/proc/<pid>/fd/<fd>` as `/memfd:<name> (deleted)`).
    fn name(&self) -> String {
        object_name(self.pid, self.id)
    }
}

fn object_name(pid: u32, id: u64) -> String {
    format!("rumba-ipc-{pid}-{id}")
}

/// A shared-memory object created by this process for an exported allocation. Dropping it closes
/// the descriptor: the object lives on only in existing mappings.
pub(crate) struct ShmObject {
    fd: libc::c_int,
    id: u64,
    len: usize,
}

impl ShmObject {
    /// Creates an object of `len` bytes (rounded up to whole pages), zero-filled.
    pub(crate) fn create(len: usize) -> Result<ShmObject> {
        let id = NEXT_OBJECT.fetch_add(1, Ordering::Relaxed);
        let name = CString::new(object_name(std::process::id(), id))
            .map_err(|_| os_error("memfd_create", "a name with a NUL byte"))?;
        // SAFETY: `name` is a valid NUL-terminated string; the flags are valid.
        let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(os_error("memfd_create", &last_os_error()));
        }
        let obj = ShmObject {
            fd,
            id,
            len: page_round(len),
        };
        // SAFETY: `fd` is the descriptor just created.
        if unsafe { libc::ftruncate(fd, obj.len as libc::off_t) } != 0 {
            return Err(os_error("ftruncate", &last_os_error()));
        }
        Ok(obj)
    }

    /// The handle describing this object, exported by this process.
    pub(crate) fn info(&self, len: usize) -> HandleInfo {
        HandleInfo {
            pid: std::process::id(),
            fd: self.fd,
            id: self.id,
            len,
        }
    }

    /// Writes `len` bytes from `src` at the start of the object.
    ///
    /// # Safety
    /// `src` must be valid for reads of `len` bytes, and no one may write them during the call.
    pub(crate) unsafe fn fill_from(&self, src: *const u8, len: usize) -> Result<()> {
        let mut done = 0usize;
        while done < len {
            // SAFETY: the caller guarantees `src..src+len` is readable.
            let n = unsafe {
                libc::pwrite(
                    self.fd,
                    src.add(done).cast(),
                    len - done,
                    done as libc::off_t,
                )
            };
            if n <= 0 {
                return Err(os_error("pwrite", &last_os_error()));
            }
            done += n as usize;
        }
        Ok(())
    }

    /// Maps the object shared, at an address of the kernel's choosing.
    pub(crate) fn map(&self) -> Result<*mut u8> {
        map_fd(self.fd, self.len, None)
    }

    /// Maps the object shared over `[at, at + len)`, replacing what was mapped there.
    ///
    /// # Safety
    /// `[at, at + len)` must be a mapping this process owns exclusively (an anonymous mapping of
    /// at least the object's length, page-aligned) whose contents may be replaced.
    pub(crate) unsafe fn map_over(&self, at: *mut u8) -> Result<*mut u8> {
        map_fd(self.fd, self.len, Some(at))
    }

    /// Bytes of the object (whole pages).
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl Drop for ShmObject {
    fn drop(&mut self) {
        // SAFETY: the descriptor is owned by this object and closed once.
        unsafe { libc::close(self.fd) };
    }
}

/// Opens the object a handle from another process describes and maps it shared; returns the
/// mapping's address and length (whole pages).
pub(crate) fn open(info: &HandleInfo) -> Result<(*mut u8, usize)> {
    if info.pid == std::process::id() {
        return Err(IpcError::SameProcess.into());
    }
    let path = format!("/proc/{}/fd/{}", info.pid, info.fd);
    let gone = |reason: String| {
        Error::from(IpcError::Gone {
            handle: info.name(),
            pid: info.pid,
            reason,
        })
    };
    let target = std::fs::read_link(&path).map_err(|e| gone(format!("{path}: {e}")))?;
    let expected = format!("/memfd:{}", info.name());
    if !target.to_string_lossy().starts_with(&expected) {
        return Err(gone(format!("{path} now names {}", target.display())));
    }
    let cpath = CString::new(path.clone()).map_err(|_| gone("bad path".into()))?;
    // SAFETY: a valid NUL-terminated path; the flags are valid.
    let fd = unsafe { libc::open(cpath.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(gone(format!("{path}: {}", last_os_error())));
    }
    let len = page_round(info.len);
    // SAFETY: `st` is written by fstat for the descriptor just opened.
    let size = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(fd, &mut st) != 0 {
            -1
        } else {
            st.st_size as i64
        }
    };
    let mapped = if size < len as i64 {
        Err(gone(format!(
            "the object has {size} bytes, the handle says {len}"
        )))
    } else {
        map_fd(fd, len, None)
    };
    // SAFETY: `fd` was opened above; the mapping (if any) keeps the object alive.
    unsafe { libc::close(fd) };
    Ok((mapped?, len))
}

fn map_fd(fd: libc::c_int, len: usize, at: Option<*mut u8>) -> Result<*mut u8> {
    let (addr, fixed) = match at {
        Some(p) => (p.cast(), libc::MAP_FIXED),
        None => (std::ptr::null_mut(), 0),
    };
    // SAFETY: mapping a descriptor we hold; with MAP_FIXED the caller (see `map_over`) owns the
    // range being replaced.
    let p = unsafe {
        libc::mmap(
            addr,
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | fixed,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(os_error("mmap", &last_os_error()));
    }
    Ok(p.cast())
}

/// `bytes` rounded up to whole pages.
pub(crate) fn page_round(bytes: usize) -> usize {
    let page = page_size();
    bytes.max(1).div_ceil(page).saturating_mul(page)
}

pub(crate) fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 { p as usize } else { 4096 }
}

fn last_os_error() -> String {
    std::io::Error::last_os_error().to_string()
}

fn os_error(call: &str, why: &str) -> Error {
    Error::Simulator {
        call: call.into(),
        message: format!("sharing simulated device memory: {why}"),
    }
}

/// The driver's side of IPC: exporting an allocation, opening and closing another process's.
impl Ipc for SimDriver {
    fn get_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<Vec<u8>> {
        let dev = self.device(device)?;
        crate::driver::callback::refuse_wait("exporting an IPC handle", "")?;
        // From now on another process may write the allocation: no more leases on it, and the
        // current holders finish first.
        if let Ok(r) = dev.memory.resolve(ptr, 1) {
            if r.region().base == ptr {
                self.inflight.share(r.region());
            }
        }
        loop {
            // The first export copies the allocation into a shared-memory object: let every
            // queued operation (of any device: copies may read across devices) finish first.
            // Errors stay with their streams, to be reported by their next synchronization.
            for d in &self.devices {
                for s in d.all_streams() {
                    if let Some(dep) = s.current_point() {
                        dep.stream.wait_for(dep.seq);
                    }
                }
            }
            // Refused while an access (of another thread) holds the allocation: it may be
            // writing, and a write into the old storage after the copy would be lost.
            match dev.memory.export(ptr)? {
                Some(info) => return Ok(info.encode()),
                None => std::thread::yield_now(),
            }
        }
    }

    fn open_mem_handle(&self, device: usize, handle: &[u8]) -> Result<(DevicePtr, usize)> {
        let dev = self.device(device)?;
        let info = HandleInfo::decode(handle)?;
        let mut opened = lock(&self.opened);
        if opened.contains_key(&(info.pid, info.id)) {
            return Err(IpcError::MemoryAlreadyOpen {
                pid: info.pid,
                object: info.id,
            }
            .into());
        }
        let (host, map_len) = open(&info)?;
        // SAFETY: `host` is a fresh shared mapping of `map_len` bytes that only this region owns.
        let ptr = unsafe { dev.memory.map_imported(host, map_len, info.len) };
        opened.insert((info.pid, info.id), (device, ptr));
        Ok((ptr, info.len))
    }

    fn close_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<()> {
        let dev = self.device(device)?;
        let mut opened = lock(&self.opened);
        let key = opened
            .iter()
            .find(|(_, v)| **v == (device, ptr))
            .map(|(k, _)| *k)
            .ok_or_else(|| Error::InvalidAddress {
                ptr,
                len: 0,
                reason: format!(
                    "on device {device} it is not memory opened from an IPC handle (never opened, or already closed)"
                ),
            })?;
        dev.memory.unmap_imported(ptr)?;
        opened.remove(&key);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_round_trip_and_garbage_is_refused() {
        let info = HandleInfo {
            pid: 42,
            fd: 7,
            id: 9,
            len: 1000,
        };
        let bytes = info.encode();
        assert_eq!(bytes.len(), HANDLE_LEN);
        assert_eq!(HandleInfo::decode(&bytes).unwrap(), info);
        assert!(HandleInfo::decode(&bytes[1..]).is_err());
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(HandleInfo::decode(&bad).is_err());
    }

    #[test]
    fn opening_in_the_exporting_process_is_refused() {
        let obj = ShmObject::create(10).unwrap();
        let err = open(&obj.info(10)).unwrap_err();
        assert!(
            err.to_string().contains("process that exported it"),
            "{err}"
        );
    }
}
