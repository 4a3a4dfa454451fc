//! Translation of CUDA driver results into [`Error`].
//!
//! Pure code: it never calls the driver (so it is unit-tested on machines without CUDA). The
//! numeric code and the symbolic name come from the `CUresult` value; a short description comes
//! from a table of the codes users meet most.
//!
//! This module touches nothing but cudarc's result type.

use cudarc::driver::sys::CUresult;

use crate::error::{Error, Result};

/// `Ok(())` for `CUDA_SUCCESS`, else the mapped error naming `call`.
pub(crate) fn check(call: &str, r: CUresult) -> Result<()> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(map(call, r))
    }
}

/// The [`Error::Driver`] for a failed call ([`Error::NotReady`] for `CUDA_ERROR_NOT_READY`, as on
/// every backend).
pub(crate) fn map(call: &str, r: CUresult) -> Error {
    if r == CUresult::CUDA_ERROR_NOT_READY {
        return Error::NotReady(format!("{call}: {}", describe(r)));
    }
    Error::Driver {
        code: r as i32,
        name: format!("{r:?}"),
        call: call.to_string(),
        message: describe(r).to_string(),
    }
}

/// A one-line description of common results.
pub(crate) fn describe(r: CUresult) -> &'static str {
    use CUresult::*;
    match r {
        CUDA_SUCCESS => "no error",
        CUDA_ERROR_INVALID_VALUE => "an argument is out of range",
        CUDA_ERROR_OUT_OF_MEMORY => "the device or host is out of memory",
        CUDA_ERROR_NOT_INITIALIZED => "the driver has not been initialised (cuInit)",
        CUDA_ERROR_DEINITIALIZED => "the driver is shutting down",
        CUDA_ERROR_NO_DEVICE => "no CUDA-capable device is present",
        CUDA_ERROR_INVALID_DEVICE => "not a valid device ordinal",
        CUDA_ERROR_INVALID_CONTEXT => "no valid context is current on this thread",
        CUDA_ERROR_INVALID_HANDLE => "a stream, event or module handle is not valid",
        CUDA_ERROR_NOT_FOUND => "a named symbol (kernel or global) was not found",
        CUDA_ERROR_NOT_READY => "the work has not completed yet",
        CUDA_ERROR_ILLEGAL_ADDRESS => "a kernel accessed an illegal address",
        CUDA_ERROR_LAUNCH_FAILED => "a kernel launch failed",
        CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES => "too many resources requested for the launch",
        CUDA_ERROR_INVALID_PTX => "the PTX could not be compiled for this device",
        CUDA_ERROR_UNSUPPORTED_PTX_VERSION => "the driver is older than the PTX it was given",
        CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED => "the host range is already pinned",
        CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED => "the host range is not pinned",
        _ => "see the CUDA driver API documentation for this code",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_map_to_typed_errors_with_code_and_name() {
        assert!(check("cuInit", CUresult::CUDA_SUCCESS).is_ok());
        let e = check("cuMemAlloc", CUresult::CUDA_ERROR_INVALID_VALUE).unwrap_err();
        match &e {
            Error::Driver {
                code, name, call, ..
            } => {
                assert_eq!(*code, 1);
                assert_eq!(name, "CUDA_ERROR_INVALID_VALUE");
                assert_eq!(call, "cuMemAlloc");
            }
            other => panic!("{other:?}"),
        }
        assert!(e.to_string().contains("an argument is out of range"));
        let nr = map("cuEventElapsedTime", CUresult::CUDA_ERROR_NOT_READY);
        assert!(matches!(nr, Error::NotReady(ref m) if m.contains("cuEventElapsedTime")));
    }
}
