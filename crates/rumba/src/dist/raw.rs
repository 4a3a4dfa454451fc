//! The few MPI calls the distributed layer makes directly: nonblocking operations on buffers it
//! owns, their requests, and the conversion of MPI's return codes into [`Error::Dist`].
//!
//! rsmpi's safe nonblocking API ties a request to a borrow of its buffer inside a scope; the
//! pipeline instead keeps its pinned staging blocks itself and polls many requests from one loop,
//! so it calls MPI through `mpi::ffi` here, each call with the buffer rule spelled out.

use std::ffi::{c_int, c_void};

use mpi::ffi;

use crate::error::{Error, Result};

/// An MPI return code turned into a result; `rank` and `op` name the failed operation.
pub(crate) fn check(code: c_int, rank: usize, op: &str, call: &str) -> Result<()> {
    if code == ffi::MPI_SUCCESS as c_int {
        return Ok(());
    }
    Err(Error::Dist {
        rank,
        op: op.into(),
        reason: format!("{call} returned MPI error {code}: {}", error_string(code)),
    })
}

/// MPI's text for an error code.
pub(crate) fn error_string(code: c_int) -> String {
    let mut buf = vec![0u8; ffi::MPI_MAX_ERROR_STRING as usize + 1];
    let mut len: c_int = 0;
    // SAFETY: `buf` holds MPI_MAX_ERROR_STRING bytes as the call requires; `len` is written.
    let rc = unsafe { ffi::MPI_Error_string(code, buf.as_mut_ptr().cast(), &mut len) };
    if rc != ffi::MPI_SUCCESS as c_int {
        return "unknown error".into();
    }
    buf.truncate(len.clamp(0, ffi::MPI_MAX_ERROR_STRING as c_int) as usize);
    String::from_utf8_lossy(&buf).into_owned()
}

/// A request of a started nonblocking operation (or the null request).
pub(crate) struct Request(ffi::MPI_Request);

impl Request {
    /// The null request: complete.
    pub(crate) fn null() -> Self {
        // SAFETY: reading an immutable constant the MPI library exports.
        Request(unsafe { ffi::RSMPI_REQUEST_NULL })
    }

    /// The handle for a call that starts an operation.
    pub(crate) fn as_mut_ptr(&mut self) -> *mut ffi::MPI_Request {
        &mut self.0
    }

    /// Tests once: `Ok(true)` when complete (the request becomes null). Drives MPI's progress.
    pub(crate) fn test(&mut self, rank: usize, op: &str) -> Result<bool> {
        let mut flag: c_int = 0;
        // SAFETY: MPI_Status is plain integers; zeroed is a valid value to be overwritten.
        let mut status: ffi::MPI_Status = unsafe { std::mem::zeroed() };
        // SAFETY: `self.0` is a request MPI handed out (or null); flag and status are written.
        let rc = unsafe { ffi::MPI_Test(&mut self.0, &mut flag, &mut status) };
        check(rc, rank, op, "MPI_Test")?;
        Ok(flag != 0)
    }
}

/// The world communicator's handle.
pub(crate) fn comm_world() -> ffi::MPI_Comm {
    // SAFETY: reading an immutable constant the MPI library exports.
    unsafe { ffi::RSMPI_COMM_WORLD }
}

/// A duplicate of `comm` whose errors are returned, not fatal.
pub(crate) fn dup(comm: ffi::MPI_Comm, rank: usize) -> Result<ffi::MPI_Comm> {
    // SAFETY: reading an immutable constant the MPI library exports.
    let mut out = unsafe { ffi::RSMPI_COMM_NULL };
    // SAFETY: `comm` is a live communicator; `out` receives the new handle.
    let rc = unsafe { ffi::MPI_Comm_dup(comm, &mut out) };
    check(rc, rank, "communicator", "MPI_Comm_dup")?;
    set_errors_return(out);
    Ok(out)
}

/// Makes MPI return errors on `comm` instead of aborting the job.
pub(crate) fn set_errors_return(comm: ffi::MPI_Comm) {
    // SAFETY: `comm` is live; ERRORS_RETURN is a predefined handler. A failure leaves MPI's
    // default (fatal) handler, which is still safe.
    unsafe {
        ffi::MPI_Comm_set_errhandler(comm, ffi::RSMPI_ERRORS_RETURN);
    }
}

/// Frees a communicator this layer created.
pub(crate) fn free(mut comm: ffi::MPI_Comm) {
    // SAFETY: `comm` was created by MPI_Comm_dup / MPI_Comm_split for this layer and is freed once.
    unsafe {
        ffi::MPI_Comm_free(&mut comm);
    }
}

/// `(rank, size)` of `comm`.
pub(crate) fn rank_size(comm: ffi::MPI_Comm) -> Result<(usize, usize)> {
    let (mut r, mut s): (c_int, c_int) = (0, 0);
    // SAFETY: `comm` is live; both outputs are written.
    let rc = unsafe { ffi::MPI_Comm_rank(comm, &mut r) };
    check(rc, 0, "communicator", "MPI_Comm_rank")?;
    // SAFETY: as above.
    let rc = unsafe { ffi::MPI_Comm_size(comm, &mut s) };
    check(rc, r as usize, "communicator", "MPI_Comm_size")?;
    Ok((r as usize, s as usize))
}

/// The raw byte datatype.
pub(crate) fn byte() -> ffi::MPI_Datatype {
    // SAFETY: reading an immutable constant the MPI library exports.
    unsafe { ffi::RSMPI_UINT8_T }
}

/// Posts a nonblocking byte send.
///
/// # Safety
/// `buf` must stay valid and unwritten for `len` bytes until the request completes (or forever,
/// if it is abandoned).
pub(crate) unsafe fn isend(
    buf: *const u8,
    len: usize,
    dest: usize,
    tag: c_int,
    comm: ffi::MPI_Comm,
    req: &mut Request,
) -> c_int {
    // SAFETY: the caller's promise on `buf`; `req` receives the handle.
    unsafe {
        ffi::MPI_Isend(
            buf.cast::<c_void>(),
            count(len),
            byte(),
            dest as c_int,
            tag,
            comm,
            req.as_mut_ptr(),
        )
    }
}

/// Posts a nonblocking byte receive.
///
/// # Safety
/// `buf` must stay valid and otherwise unaccessed for `len` bytes until the request completes
/// (or forever, if it is abandoned).
pub(crate) unsafe fn irecv(
    buf: *mut u8,
    len: usize,
    source: usize,
    tag: c_int,
    comm: ffi::MPI_Comm,
    req: &mut Request,
) -> c_int {
    // SAFETY: the caller's promise on `buf`; `req` receives the handle.
    unsafe {
        ffi::MPI_Irecv(
            buf.cast::<c_void>(),
            count(len),
            byte(),
            source as c_int,
            tag,
            comm,
            req.as_mut_ptr(),
        )
    }
}

/// A byte or element count as MPI's `int` (chunks are far below 2 GiB).
pub(crate) fn count(n: usize) -> c_int {
    c_int::try_from(n).expect("pipeline chunks are at most 1 GiB")
}

/// Whether a message from `source` with `tag` waits on `comm` (drives progress).
pub(crate) fn iprobe(source: c_int, tag: c_int, comm: ffi::MPI_Comm) -> Result<bool> {
    let mut flag: c_int = 0;
    // SAFETY: MPI_Status is plain integers.
    let mut status: ffi::MPI_Status = unsafe { std::mem::zeroed() };
    // SAFETY: `comm` is live; outputs are written.
    let rc = unsafe { ffi::MPI_Iprobe(source, tag, comm, &mut flag, &mut status) };
    check(rc, 0, "probe", "MPI_Iprobe")?;
    Ok(flag != 0)
}

/// Whether the MPI library says it can take CUDA device pointers (`MPIX_Query_cuda_support`),
/// looked up at run time so that MPIs without the extension link too. `None` when the MPI has
/// no such query.
pub(crate) fn query_cuda_support() -> Option<bool> {
    // SAFETY: dlsym on the global namespace with a NUL-terminated name; a null result is handled.
    let sym = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"MPIX_Query_cuda_support".as_ptr()) };
    if sym.is_null() {
        return None;
    }
    // SAFETY: the symbol is OpenMPI's `int MPIX_Query_cuda_support(void)`, callable after init.
    let f: unsafe extern "C" fn() -> c_int = unsafe { std::mem::transmute(sym) };
    // SAFETY: as above; it takes no arguments and only reads MPI's state.
    Some(unsafe { f() } != 0)
}
