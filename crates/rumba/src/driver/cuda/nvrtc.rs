//! NVRTC, CUDA's run-time compiler, loaded by rumba itself: either major version (12 or 13) that
//! the dynamic loader finds, the one that suits the driver first.
//!
//! cudarc's loader looks for the library names of the CUDA version its bindings were generated
//! for (`libnvrtc.so.12` for rumba's 12.x bindings) and cannot be told to prefer one library over
//! another, while the machines rumba meets have NVRTC 12 (CUDA 12 toolkits and wheels), NVRTC 13
//! (CUDA 13 wheels: `nvidia/cu13/lib/libnvrtc.so.13`), or both. NVRTC's C interface is the same
//! in both, and rumba calls eleven functions of it, so it opens the library here:
//!
//! - the candidates are `libnvrtc.so.<major>` from the newest major rumba knows down to 12,
//!   then `libnvrtc.so` (a toolkit's development link) — see [`candidates`];
//! - once the driver is open ([`note_driver_version`]), a major newer than the driver's CUDA
//!   version is skipped: code from NVRTC 13 does not load on a CUDA 12 driver;
//! - the first library that opens and whose `nvrtcVersion` is acceptable is kept for the process.
//!
//! Within one major version NVRTC may be newer than the driver (a 13.5 wheel beside a 13.0
//! driver): PTX of a newer ISA is refused by an older driver, but machine code (CUBIN) is not, so
//! rumba compiles for the device's own architecture (`sm_XY`) whenever this NVRTC knows it
//! ([`target_for`]), and falls back to PTX for the newest architecture it knows below the
//! device's (which the driver compiles further) otherwise.
//!
//! This module touches the dynamic loader and NVRTC.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use super::libraries::file_of;
use crate::error::{Error, Result};

/// The newest NVRTC major version rumba looks for.
pub const NEWEST_MAJOR: u32 = 13;
/// The oldest NVRTC major version rumba looks for.
pub const OLDEST_MAJOR: u32 = 12;

/// The library names tried, in order, given the driver's CUDA major version (`None`: not known,
/// e.g. compiling on a machine without a GPU).
///
/// ```
/// use rumba::driver::cuda::nvrtc::candidates;
/// assert_eq!(candidates(None), ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"]);
/// // A CUDA 12 driver cannot load what NVRTC 13 makes.
/// assert_eq!(candidates(Some(12)), ["libnvrtc.so.12", "libnvrtc.so"]);
/// assert_eq!(candidates(Some(14))[0], "libnvrtc.so.14");
/// ```
pub fn candidates(driver_major: Option<u32>) -> Vec<String> {
    let newest = driver_major.map_or(NEWEST_MAJOR, |d| d.max(NEWEST_MAJOR));
    (OLDEST_MAJOR..=newest)
        .rev()
        .filter(|m| driver_major.is_none_or(|d| *m <= d))
        .map(|m| format!("libnvrtc.so.{m}"))
        .chain(std::iter::once("libnvrtc.so".to_string()))
        .collect()
}

/// The driver's CUDA major version, once known (0: not yet).
static DRIVER_MAJOR: AtomicU32 = AtomicU32::new(0);

/// Tells the loader the driver's CUDA version (`cuDriverGetVersion`, e.g. 13000), so that it
/// skips NVRTC libraries newer than the driver. Has no effect once NVRTC is loaded.
pub fn note_driver_version(version: i32) {
    if version > 0 {
        DRIVER_MAJOR.store(version as u32 / 1000, Ordering::Relaxed);
    }
}

fn driver_major() -> Option<u32> {
    match DRIVER_MAJOR.load(Ordering::Relaxed) {
        0 => None,
        m => Some(m),
    }
}

type Program = *mut c_void;
type VersionFn = unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int;
type CreateFn = unsafe extern "C" fn(
    *mut Program,
    *const c_char,
    *const c_char,
    c_int,
    *const *const c_char,
    *const *const c_char,
) -> c_int;
type CompileFn = unsafe extern "C" fn(Program, c_int, *const *const c_char) -> c_int;
type SizeFn = unsafe extern "C" fn(Program, *mut usize) -> c_int;
type GetFn = unsafe extern "C" fn(Program, *mut c_char) -> c_int;
type DestroyFn = unsafe extern "C" fn(*mut Program) -> c_int;
type ErrorStringFn = unsafe extern "C" fn(c_int) -> *const c_char;
type ArchsFn = unsafe extern "C" fn(*mut c_int) -> c_int;

/// The entry points rumba calls (all of NVRTC 12.0's and 13's C interface).
struct Api {
    create: CreateFn,
    compile: CompileFn,
    log_size: SizeFn,
    log: GetFn,
    ptx_size: SizeFn,
    ptx: GetFn,
    cubin_size: SizeFn,
    cubin: GetFn,
    destroy: DestroyFn,
    error_string: ErrorStringFn,
}

/// The NVRTC library in use: where it was found and what it can do.
pub struct Nvrtc {
    /// The name the loader was asked for (`libnvrtc.so.13`).
    pub name: String,
    /// The file it opened (from `dladdr`), or the name when the loader cannot tell.
    pub path: String,
    /// `nvrtcVersion`: (major, minor).
    pub version: (u32, u32),
    /// Real architectures it compiles for (`nvrtcGetSupportedArchs`: 75 for `sm_75`, …), ascending.
    pub archs: Vec<u32>,
    api: Api,
    _lib: libloading::Library,
}

impl std::fmt::Debug for Nvrtc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nvrtc")
            .field("path", &self.path)
            .field("version", &self.version)
            .finish()
    }
}

impl std::fmt::Display for Nvrtc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (lo, hi) = (self.archs.first(), self.archs.last());
        write!(
            f,
            "NVRTC {}.{} ({})",
            self.version.0, self.version.1, self.path
        )?;
        if let (Some(lo), Some(hi)) = (lo, hi) {
            write!(f, ", sm_{lo} to sm_{hi}")?;
        }
        Ok(())
    }
}

static LOADED: OnceLock<std::result::Result<Nvrtc, String>> = OnceLock::new();

/// The NVRTC library, loaded on first use (see the module docs for which one).
///
/// # Errors
/// [`Error::BackendUnavailable`] naming every library tried and why each was not used.
pub fn library() -> Result<&'static Nvrtc> {
    find().map_err(|why| Error::BackendUnavailable {
            backend: "cuda".into(),
            reason: format!(
                "NVRTC (libnvrtc) is needed to compile kernels and none could be used: {why}; install a CUDA toolkit or the pip package nvidia-cuda-nvrtc (CUDA 13) or nvidia-cuda-nvrtc-cu12 and put its lib folder on LD_LIBRARY_PATH"
            ),
        })
}

/// The NVRTC library, loaded on first use, or every library tried and why each was not used.
///
/// # Errors
/// The libraries tried, each with the reason it was not used.
pub fn find() -> std::result::Result<&'static Nvrtc, &'static str> {
    LOADED
        .get_or_init(|| load(driver_major()))
        .as_ref()
        .map_err(String::as_str)
}

/// True when an NVRTC library can be used.
pub fn present() -> bool {
    library().is_ok()
}

fn load(driver_major: Option<u32>) -> std::result::Result<Nvrtc, String> {
    let mut refused = Vec::new();
    for name in candidates(driver_major) {
        match open(&name) {
            Ok(n) if driver_major.is_some_and(|d| n.version.0 > d) => refused.push(format!(
                "{} is NVRTC {}.{}, newer than the driver's CUDA {}",
                n.path,
                n.version.0,
                n.version.1,
                driver_major.unwrap_or(0)
            )),
            Ok(n) => return Ok(n),
            // The loader's message names the library already.
            Err(e) if e.starts_with(&name) => refused.push(e),
            Err(e) => refused.push(format!("{name}: {e}")),
        }
    }
    Err(refused.join("; "))
}

fn symbol<T: Copy>(lib: &libloading::Library, name: &str) -> std::result::Result<T, String> {
    let cname = format!("{name}\0");
    // SAFETY: `T` is the function-pointer type of NVRTC's declaration of `name` (the `Api` field
    // types above mirror nvrtc.h); the pointer is used only while the library stays loaded (it is
    // kept in the same `Nvrtc`, which lives for the rest of the process).
    unsafe { lib.get::<T>(cname.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| format!("no symbol {name}: {e}"))
}

fn open(name: &str) -> std::result::Result<Nvrtc, String> {
    // SAFETY: loading NVRTC runs its initialisers, which have no preconditions.
    let lib = unsafe { libloading::Library::new(name) }.map_err(|e| {
        // libloading keeps the loader's own message as the error's source.
        match std::error::Error::source(&e) {
            Some(detail) => detail.to_string(),
            None => e.to_string(),
        }
    })?;
    let version: VersionFn = symbol(&lib, "nvrtcVersion")?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: writes two ints.
    let r = unsafe { version(&mut major, &mut minor) };
    if r != 0 {
        return Err(format!("nvrtcVersion failed with {r}"));
    }
    let num_archs: ArchsFn = symbol(&lib, "nvrtcGetNumSupportedArchs")?;
    let get_archs: ArchsFn = symbol(&lib, "nvrtcGetSupportedArchs")?;
    let mut n = 0;
    // SAFETY: writes one int.
    let mut archs = if unsafe { num_archs(&mut n) } == 0 && n > 0 {
        let mut v = vec![0 as c_int; n as usize];
        // SAFETY: `v` has room for the `n` ints NVRTC writes.
        if unsafe { get_archs(v.as_mut_ptr()) } == 0 {
            v.into_iter().map(|a| a as u32).collect()
        } else {
            Vec::new()
        }
    } else {
        Vec::new()
    };
    archs.sort_unstable();
    let api = Api {
        create: symbol(&lib, "nvrtcCreateProgram")?,
        compile: symbol(&lib, "nvrtcCompileProgram")?,
        log_size: symbol(&lib, "nvrtcGetProgramLogSize")?,
        log: symbol(&lib, "nvrtcGetProgramLog")?,
        ptx_size: symbol(&lib, "nvrtcGetPTXSize")?,
        ptx: symbol(&lib, "nvrtcGetPTX")?,
        cubin_size: symbol(&lib, "nvrtcGetCUBINSize")?,
        cubin: symbol(&lib, "nvrtcGetCUBIN")?,
        destroy: symbol(&lib, "nvrtcDestroyProgram")?,
        error_string: symbol(&lib, "nvrtcGetErrorString")?,
    };
    Ok(Nvrtc {
        name: name.to_string(),
        path: file_of(version as *const c_void).unwrap_or_else(|| name.to_string()),
        version: (major as u32, minor as u32),
        archs,
        api,
        _lib: lib,
    })
}

/// What a compilation produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// PTX for NVRTC's default virtual architecture.
    Ptx,
    /// PTX for `compute_XY` (the driver compiles it for the device when it loads it).
    PtxFor(u32),
    /// Machine code (CUBIN) for `sm_XY`, which loads only on a device of that architecture.
    Cubin(u32),
}

impl Target {
    /// The `--gpu-architecture` option, if any.
    fn option(&self) -> Option<String> {
        match self {
            Target::Ptx => None,
            Target::PtxFor(a) => Some(format!("--gpu-architecture=compute_{a}")),
            Target::Cubin(a) => Some(format!("--gpu-architecture=sm_{a}")),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Ptx => f.write_str("PTX (default architecture)"),
            Target::PtxFor(a) => write!(f, "PTX for compute_{a}"),
            Target::Cubin(a) => write!(f, "CUBIN for sm_{a}"),
        }
    }
}

/// What to compile for a device of compute capability `cc` (`90` for 9.0) with an NVRTC that
/// knows `archs`: its own machine code when NVRTC knows the architecture, else PTX for the newest
/// one below it, else `None` (the device is older than anything this NVRTC compiles for).
///
/// ```
/// use rumba::driver::cuda::nvrtc::{Target, target_for};
/// let archs = [75, 80, 86, 89, 90, 100, 120];
/// assert_eq!(target_for(&archs, 90), Some(Target::Cubin(90)));
/// assert_eq!(target_for(&archs, 121), Some(Target::PtxFor(120))); // newer than NVRTC
/// assert_eq!(target_for(&archs, 70), None); // NVRTC 13 dropped sm_70
/// assert_eq!(target_for(&[], 90), Some(Target::Ptx)); // unknown: NVRTC's default
/// ```
pub fn target_for(archs: &[u32], cc: u32) -> Option<Target> {
    if archs.is_empty() {
        return Some(Target::Ptx);
    }
    if archs.contains(&cc) {
        return Some(Target::Cubin(cc));
    }
    archs
        .iter()
        .copied()
        .filter(|a| *a <= cc)
        .max()
        .map(Target::PtxFor)
}

impl Nvrtc {
    fn error_name(&self, code: c_int) -> String {
        // SAFETY: NVRTC returns a static NUL-terminated string for every code (or null).
        let s = unsafe { (self.api.error_string)(code) };
        if s.is_null() {
            format!("NVRTC_ERROR_{code}")
        } else {
            // SAFETY: non-null, NUL-terminated, static.
            unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
        }
    }

    fn fail(&self, call: String, code: c_int, message: String) -> Error {
        Error::Driver {
            code,
            name: self.error_name(code),
            call,
            message,
        }
    }

    /// Compiles `source` with `options` for `target`; the PTX (NUL-terminated) or CUBIN bytes.
    ///
    /// # Errors
    /// [`Error::Driver`] with NVRTC's error name (`NVRTC_ERROR_COMPILATION`, …), the program's
    /// name, and NVRTC's log.
    pub fn compile(
        &self,
        name: &str,
        source: &str,
        options: &[&str],
        target: Target,
    ) -> Result<Vec<u8>> {
        let nul = |what: &str| Error::InvalidArgument(format!("{what} of {name} contains NUL"));
        let csrc = CString::new(source).map_err(|_| nul("the source"))?;
        let cname = CString::new(name).map_err(|_| nul("the name"))?;
        let mut opts: Vec<CString> = options
            .iter()
            .map(|o| CString::new(*o).map_err(|_| nul("an option")))
            .collect::<Result<_>>()?;
        if let Some(o) = target.option() {
            opts.push(CString::new(o).map_err(|_| nul("an option"))?);
        }
        let ptrs: Vec<*const c_char> = opts.iter().map(|o| o.as_ptr()).collect();
        let mut prog: Program = std::ptr::null_mut();
        // SAFETY: NUL-terminated source and name; no headers.
        let r = unsafe {
            (self.api.create)(
                &mut prog,
                csrc.as_ptr(),
                cname.as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        if r != 0 {
            return Err(self.fail(format!("nvrtcCreateProgram({name})"), r, String::new()));
        }
        let out = self.compile_program(prog, name, &ptrs, target);
        // SAFETY: `prog` was created above and is destroyed once.
        unsafe { (self.api.destroy)(&mut prog) };
        out
    }

    fn compile_program(
        &self,
        prog: Program,
        name: &str,
        options: &[*const c_char],
        target: Target,
    ) -> Result<Vec<u8>> {
        // SAFETY: a live program and `options.len()` NUL-terminated strings that outlive the call.
        let r = unsafe { (self.api.compile)(prog, options.len() as c_int, options.as_ptr()) };
        if r != 0 {
            let log = self
                .read(prog, self.api.log_size, self.api.log)
                .unwrap_or_default();
            let log = String::from_utf8_lossy(&log);
            return Err(self.fail(
                format!("nvrtcCompileProgram({name}, {target})"),
                r,
                log.trim_end_matches('\0').trim().to_string(),
            ));
        }
        let (size, get, what) = match target {
            Target::Cubin(_) => (self.api.cubin_size, self.api.cubin, "nvrtcGetCUBIN"),
            _ => (self.api.ptx_size, self.api.ptx, "nvrtcGetPTX"),
        };
        self.read(prog, size, get)
            .map_err(|r| self.fail(format!("{what}({name})"), r, String::new()))
    }

    /// Reads one of the program's outputs through its size and copy functions.
    fn read(&self, prog: Program, size: SizeFn, get: GetFn) -> std::result::Result<Vec<u8>, c_int> {
        let mut n = 0usize;
        // SAFETY: a live, compiled program; writes one size.
        let r = unsafe { size(prog, &mut n) };
        if r != 0 {
            return Err(r);
        }
        let mut buf = vec![0u8; n];
        if n > 0 {
            // SAFETY: `buf` has the `n` bytes NVRTC said it writes.
            let r = unsafe { get(prog, buf.as_mut_ptr().cast()) };
            if r != 0 {
                return Err(r);
            }
        }
        Ok(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_never_name_a_major_newer_than_the_driver() {
        assert_eq!(
            candidates(Some(13)),
            ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"]
        );
        assert_eq!(candidates(Some(11)), ["libnvrtc.so"]);
        assert_eq!(
            candidates(Some(15)),
            [
                "libnvrtc.so.15",
                "libnvrtc.so.14",
                "libnvrtc.so.13",
                "libnvrtc.so.12",
                "libnvrtc.so"
            ]
        );
    }

    #[test]
    fn targets_are_machine_code_where_nvrtc_knows_the_device() {
        let nvrtc12 = [50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90];
        assert_eq!(target_for(&nvrtc12, 90), Some(Target::Cubin(90)));
        assert_eq!(target_for(&nvrtc12, 100), Some(Target::PtxFor(90)));
        assert_eq!(target_for(&nvrtc12, 49), None);
        assert_eq!(
            Target::Cubin(90).option().as_deref(),
            Some("--gpu-architecture=sm_90")
        );
        assert_eq!(
            Target::PtxFor(90).option().as_deref(),
            Some("--gpu-architecture=compute_90")
        );
        assert_eq!(Target::Ptx.option(), None);
    }
}
