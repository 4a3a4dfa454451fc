//! Translation of OpenCL status codes into [`Error`].
//!
//! Pure code: it never calls OpenCL (so it is unit-tested on machines without it). The symbolic
//! name comes from cl3's table; a short description comes from a table of the codes users meet
//! most, including cl3's own codes for a library that could not be loaded (-2000) or that lacks a
//! function (-2001, an ICD loader older than OpenCL 2.0).
//!
//! This module touches nothing but cl3's code table.

use opencl3::error_codes::{self as codes, error_text};
use opencl3::types::cl_int;

use crate::error::{Error, Result};

/// `Ok(v)` for success, else the mapped error naming `call`.
pub(crate) fn check<T>(call: &str, r: std::result::Result<T, cl_int>) -> Result<T> {
    r.map_err(|code| map(call, code))
}

/// The [`Error::Driver`] for a failed call.
pub(crate) fn map(call: &str, code: cl_int) -> Error {
    let name = match error_text(code) {
        "" | "UNKNOWN_ERROR" => format!("CL error {code}"),
        n => n.to_string(),
    };
    Error::Driver {
        code,
        name,
        call: call.to_string(),
        message: describe(code).to_string(),
    }
}

/// A one-line description of common codes.
pub(crate) fn describe(code: cl_int) -> &'static str {
    match code {
        codes::CL_SUCCESS => "no error",
        codes::CL_DEVICE_NOT_FOUND => "no OpenCL device of the requested type",
        codes::CL_DEVICE_NOT_AVAILABLE => "the device is not available",
        codes::CL_MEM_OBJECT_ALLOCATION_FAILURE => "the device could not allocate memory",
        codes::CL_OUT_OF_RESOURCES => "the device ran out of resources",
        codes::CL_OUT_OF_HOST_MEMORY => "the OpenCL implementation ran out of host memory",
        codes::CL_PROFILING_INFO_NOT_AVAILABLE => {
            "no timing: the command has not completed or the queue does not profile"
        }
        codes::CL_BUILD_PROGRAM_FAILURE => "the OpenCL C program did not compile",
        codes::CL_INVALID_VALUE => "an argument is out of range",
        codes::CL_INVALID_DEVICE => "not a valid device",
        codes::CL_INVALID_CONTEXT => "not a valid context",
        codes::CL_INVALID_COMMAND_QUEUE => "not a valid command queue",
        codes::CL_INVALID_EVENT => "not a valid event",
        codes::CL_INVALID_EVENT_WAIT_LIST => "an event in the wait list is not valid",
        codes::CL_INVALID_KERNEL_ARGS => "a kernel argument was not set",
        codes::CL_INVALID_ARG_SIZE => "a kernel argument has the wrong size",
        codes::CL_INVALID_WORK_GROUP_SIZE => "the work-group size is not valid for this kernel",
        codes::CL_INVALID_WORK_ITEM_SIZE => "a work-group dimension exceeds the device's limit",
        codes::CL_INVALID_OPERATION => "the operation is not valid for this device or object",
        codes::CL_INVALID_BUFFER_SIZE => "the size exceeds the device's largest allocation",
        codes::CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST => {
            "a command this one waited for failed"
        }
        codes::DLOPEN_RUNTIME_LOAD_FAILED => {
            "the OpenCL library (libOpenCL.so.1) could not be loaded"
        }
        codes::DLOPEN_FUNCTION_NOT_AVAILABLE => {
            "the OpenCL library lacks this function (an ICD loader older than OpenCL 2.0?)"
        }
        _ => "see the OpenCL specification for this code",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_map_to_typed_errors_with_code_and_name() {
        assert_eq!(check("clFinish", Ok(3)).unwrap(), 3);
        let e = check::<()>("clSVMAlloc", Err(codes::CL_INVALID_VALUE)).unwrap_err();
        match &e {
            Error::Driver {
                code, name, call, ..
            } => {
                assert_eq!(*code, -30);
                assert_eq!(name, "CL_INVALID_VALUE");
                assert_eq!(call, "clSVMAlloc");
            }
            other => panic!("{other:?}"),
        }
        assert!(e.to_string().contains("out of range"), "{e}");
        let lib = map("clGetPlatformIDs", codes::DLOPEN_RUNTIME_LOAD_FAILED);
        assert!(lib.to_string().contains("libOpenCL.so.1"), "{lib}");
        let odd = map("clFoo", -987_654);
        assert!(odd.to_string().contains("-987654"), "{odd}");
    }
}
