//! Run-time configuration: which backend, how big the simulated devices are, and when deferred
//! deallocations are flushed.
//!
//! Every setting has an environment variable (read once, when the runtime starts) and a field in
//! [`Config`], so programs and tests can configure rumba without touching the environment (see
//! [`configure`](crate::configure)). Parsing is a pure function of a lookup closure, which is how
//! the malformed-value errors are tested.
//!
//! | variable | field | default |
//! |---|---|---|
//! | `RUMBA_BACKEND` = `sim` \| `cuda` \| `opencl` \| `auto` | [`Config::backend`] | `auto` |
//! | `RUMBA_SIM_DEVICES` = N (1–64) | [`Config::sim_devices`] | 1 |
//! | `RUMBA_SIM_MEMORY` = size, e.g. `4GiB` | [`Config::sim_memory`] | a quarter of host RAM |
//! | `RUMBA_MAX_PENDING_DEALLOCS_COUNT` = N | [`Config::max_pending_deallocs_count`] | 10 |
//! | `RUMBA_MAX_PENDING_DEALLOCS_RATIO` = 0…1 | [`Config::max_pending_deallocs_ratio`] | 0.2 |
//! | `RUMBA_MEMORY_MANAGER` = name (`default`, `pool`, a registered plugin) | [`Config::memory_manager`] ([`ManagerChoice`]) | `default` |
//! | `RUMBA_MEMORY_LIMIT` = size, e.g. `2GiB` | [`Config::memory_limit`] | none |
//! | `RUMBA_CUDA_ARRAY_INTERFACE_SYNC` = `1` \| `0` | [`Config::cuda_array_interface_sync`] | `1` |
//! | `RUMBA_OPENCL_PLATFORM` = index or name fragment | [`Config::opencl_platform`] | the first platform with a usable device |
//! | `RUMBA_OPENCL_DEVICE` = index or name fragment | [`Config::opencl_device`] | every usable device of the platform |
//! | `RUMBA_OPENCL_MEMORY` = size, e.g. `2GiB` | [`Config::opencl_memory`] | the device's global memory |
//! | `RUMBA_PER_THREAD_DEFAULT_STREAM` = `0` \| `1` | [`Config::per_thread_default_stream`] | `0` |
//! | `RUMBA_MEMORY_HISTORY` = path | [`Config::memory_history`] | none (no recording) |
//!
//! This module touches nothing but the environment and [`crate::error`].
//!
//! ```
//! use rumba::config::{Config, BackendChoice};
//! let cfg = Config::from_lookup(|name| match name {
//!     "RUMBA_BACKEND" => Some("sim".into()),
//!     "RUMBA_SIM_MEMORY" => Some("512MiB".into()),
//!     _ => None,
//! }).unwrap();
//! assert_eq!(cfg.backend, BackendChoice::Sim);
//! assert_eq!(cfg.sim_memory, Some(512 << 20));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// Which backend to use.
///
/// ```
/// use rumba::config::BackendChoice;
/// assert_eq!("auto".parse::<BackendChoice>().unwrap(), BackendChoice::Auto);
/// assert!("gpu".parse::<BackendChoice>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BackendChoice {
    /// The simulated GPU.
    Sim,
    /// CUDA, or an error if it is unavailable.
    Cuda,
    /// OpenCL, or an error if it is unavailable. Never chosen by `Auto`.
    OpenCl,
    /// CUDA when a driver and a device are present, else the sim.
    #[default]
    Auto,
}

impl FromStr for BackendChoice {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sim" => Ok(BackendChoice::Sim),
            "cuda" => Ok(BackendChoice::Cuda),
            "opencl" => Ok(BackendChoice::OpenCl),
            "auto" | "" => Ok(BackendChoice::Auto),
            _ => Err(invalid(
                "RUMBA_BACKEND",
                s,
                "one of sim, cuda, opencl, auto",
            )),
        }
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BackendChoice::Sim => "sim",
            BackendChoice::Cuda => "cuda",
            BackendChoice::OpenCl => "opencl",
            BackendChoice::Auto => "auto",
        })
    }
}

/// Which memory manager new contexts get: one of the built-in managers, or a plugin registered by
/// name with [`register_memory_manager`](crate::memory::register_memory_manager) (Numba's EMM
/// plugins). `RUMBA_MEMORY_MANAGER` takes the name; whether a named plugin exists is checked when
/// the runtime starts (it may be registered until then).
///
/// ```
/// use rumba::config::ManagerChoice;
/// assert_eq!("pool".parse::<ManagerChoice>().unwrap(), ManagerChoice::Pool);
/// assert_eq!("default".parse::<ManagerChoice>().unwrap(), ManagerChoice::Default);
/// let plugin: ManagerChoice = "my-arena".parse().unwrap();
/// assert_eq!(plugin, ManagerChoice::Named("my-arena".into()));
/// assert_eq!(plugin.name(), "my-arena");
/// assert!("two words".parse::<ManagerChoice>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum ManagerChoice {
    /// The default manager ([`DeferredAdaptor`](crate::memory::DeferredAdaptor) over the
    /// driver): deferred deallocation as Numba's.
    #[default]
    Default,
    /// The stream-ordered caching pool ([`PoolResource`](crate::memory::PoolResource)).
    Pool,
    /// A factory registered under this name.
    Named(String),
}

impl ManagerChoice {
    /// The name the manager's factory is registered under (`default`, `pool`, or the plugin's).
    ///
    /// ```
    /// assert_eq!(rumba::config::ManagerChoice::Pool.name(), "pool");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            ManagerChoice::Default => "default",
            ManagerChoice::Pool => "pool",
            ManagerChoice::Named(n) => n,
        }
    }
}

impl FromStr for ManagerChoice {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let name = s.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(invalid(
                "RUMBA_MEMORY_MANAGER",
                s,
                "the name of a memory manager, such as default",
            ));
        }
        Ok(match name {
            "default" => ManagerChoice::Default,
            "pool" => ManagerChoice::Pool,
            other => ManagerChoice::Named(other.to_string()),
        })
    }
}

impl fmt::Display for ManagerChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// All run-time settings. `Config::default()` is the configuration with no variables set.
///
/// ```
/// let cfg = rumba::Config::default();
/// assert_eq!(cfg.max_pending_deallocs_count, 10);
/// assert_eq!(cfg.max_pending_deallocs_ratio, 0.2);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Backend selection.
    pub backend: BackendChoice,
    /// Number of simulated devices.
    pub sim_devices: usize,
    /// Bytes of memory per simulated device; `None` means a quarter of host RAM.
    pub sim_memory: Option<usize>,
    /// Pending deallocations are flushed when their count **exceeds** this.
    pub max_pending_deallocs_count: usize,
    /// Pending deallocations are flushed when their bytes **exceed** this fraction of device memory.
    pub max_pending_deallocs_ratio: f64,
    /// The memory manager for new contexts (a plugin registered by name must be registered
    /// before the first rumba call, since the runtime checks the name when it starts).
    pub memory_manager: ManagerChoice,
    /// Most bytes a built-in manager (`default` or `pool`) may hold from each device, cached or in
    /// use; `None` for no limit. It is the initial limit of the
    /// [`LimitingAdaptor`](crate::memory::LimitingAdaptor) directly over the driver
    /// ([`ManagerContext::device_upstream`](crate::memory::ManagerContext::device_upstream)),
    /// changeable later through [`DeviceResource::limiter`](crate::memory::DeviceResource::limiter).
    pub memory_limit: Option<usize>,
    /// Whether importing a CUDA Array Interface description synchronizes the producer's stream
    /// (see [`interop::cai`](crate::interop::cai)).
    pub cuda_array_interface_sync: bool,
    /// Which OpenCL platform the `opencl` backend uses; `None`: the first with a usable device.
    pub opencl_platform: Option<OpenClSelector>,
    /// Which device of that platform; `None`: every usable device (each one rumba device).
    pub opencl_device: Option<OpenClSelector>,
    /// Most bytes of device memory rumba hands out per OpenCL device (reported as its total);
    /// `None`: the device's `CL_DEVICE_GLOBAL_MEM_SIZE`.
    pub opencl_memory: Option<usize>,
    /// Whether the default stream (handle 0, and every operation without a stream) is the
    /// calling thread's per-thread default stream instead of the legacy default stream (Numba's
    /// `CUDA_PER_THREAD_DEFAULT_STREAM`; CUDA's `--default-stream per-thread`).
    pub per_thread_default_stream: bool,
    /// Where to write a [memory history](crate::memory::history) of the whole program (recorded
    /// from the runtime's start, written at [`close`](crate::close) and at exit); `None`: none.
    pub memory_history: Option<std::path::PathBuf>,
}

/// Picks an OpenCL platform or device: by its position in the list (`clinfo -l` order, from 0)
/// or by a case-insensitive fragment of its name.
///
/// ```
/// use rumba::config::OpenClSelector;
/// assert_eq!("1".parse::<OpenClSelector>().unwrap(), OpenClSelector::Index(1));
/// let by_name = "Portable Computing".parse::<OpenClSelector>().unwrap();
/// assert!(by_name.matches(0, "The Portable Computing Language"));
/// assert!("".parse::<OpenClSelector>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenClSelector {
    /// The n-th platform (or device of the platform), counting from 0.
    Index(usize),
    /// The first whose name contains this text, ignoring case.
    Name(String),
}

impl OpenClSelector {
    /// True if the entry at `index` with `name` is the one selected.
    ///
    /// ```
    /// let s = rumba::config::OpenClSelector::Name("amd".into());
    /// assert!(s.matches(3, "AMD Accelerated Parallel Processing"));
    /// assert!(!s.matches(0, "Intel(R) OpenCL"));
    /// ```
    pub fn matches(&self, index: usize, name: &str) -> bool {
        match self {
            OpenClSelector::Index(i) => *i == index,
            OpenClSelector::Name(n) => name.to_lowercase().contains(&n.to_lowercase()),
        }
    }
}

impl FromStr for OpenClSelector {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        parse_selector("RUMBA_OPENCL_PLATFORM", s)
    }
}

impl fmt::Display for OpenClSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenClSelector::Index(i) => write!(f, "#{i}"),
            OpenClSelector::Name(n) => write!(f, "\"{n}\""),
        }
    }
}

fn parse_selector(variable: &str, value: &str) -> Result<OpenClSelector> {
    let t = value.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return t
            .parse()
            .map(OpenClSelector::Index)
            .map_err(|_| invalid(variable, value, "an index from 0 or a fragment of the name"));
    }
    let printable = t
        .chars()
        .all(|c| c.is_alphanumeric() || " _-.+()@:/".contains(c));
    if t.is_empty() || !printable {
        return Err(invalid(
            variable,
            value,
            "an index from 0 (as `clinfo -l` lists them) or a fragment of the name, such as pocl",
        ));
    }
    Ok(OpenClSelector::Name(t.to_string()))
}

impl Default for Config {
    fn default() -> Self {
        Config {
            backend: BackendChoice::Auto,
            sim_devices: 1,
            sim_memory: None,
            max_pending_deallocs_count: 10,
            max_pending_deallocs_ratio: 0.2,
            memory_manager: ManagerChoice::Default,
            memory_limit: None,
            cuda_array_interface_sync: true,
            opencl_platform: None,
            opencl_device: None,
            opencl_memory: None,
            per_thread_default_stream: false,
            memory_history: None,
        }
    }
}

/// Largest number of simulated devices (their address ranges are carved from a fixed window).
pub const MAX_SIM_DEVICES: usize = 64;

impl Config {
    /// Reads every `RUMBA_*` variable from the process environment.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] naming the first malformed variable, its value and the accepted form
    /// (see [`from_lookup`](Config::from_lookup)).
    ///
    /// ```
    /// let cfg = rumba::Config::from_env().unwrap();
    /// assert!(cfg.sim_devices >= 1);
    /// ```
    pub fn from_env() -> Result<Self> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads every setting through `lookup(name)`; unset variables keep their defaults.
    /// A malformed value is an [`Error::InvalidConfig`] naming the variable and the accepted form.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for the first malformed value, naming the variable, the value and the
    /// accepted form; a memory manager's name is only checked for its spelling here (whether such a
    /// manager exists is checked when the runtime starts).
    ///
    /// ```
    /// let err = rumba::Config::from_lookup(|n| (n == "RUMBA_SIM_DEVICES").then(|| "zero".into()))
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("RUMBA_SIM_DEVICES"));
    /// ```
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let mut cfg = Config::default();
        if let Some(v) = lookup("RUMBA_BACKEND") {
            cfg.backend = v.parse()?;
        }
        let devices = format!("a whole number from 1 to {MAX_SIM_DEVICES}");
        let device_count = |v: &str| {
            let n = v.trim().parse::<usize>().ok()?;
            (1..=MAX_SIM_DEVICES).contains(&n).then_some(n)
        };
        if let Some(n) = setting(&lookup, "RUMBA_SIM_DEVICES", &devices, device_count)? {
            cfg.sim_devices = n;
        }
        cfg.sim_memory = setting(
            &lookup,
            "RUMBA_SIM_MEMORY",
            "a positive byte size such as 4GiB, 512MiB, 1.5G, 64MB or 1048576",
            parse_size,
        )?;
        if let Some(n) = setting(
            &lookup,
            "RUMBA_MAX_PENDING_DEALLOCS_COUNT",
            "a whole number of pending deallocations (0 or more)",
            |v| v.trim().parse::<usize>().ok(),
        )? {
            cfg.max_pending_deallocs_count = n;
        }
        if let Some(r) = setting(
            &lookup,
            "RUMBA_MAX_PENDING_DEALLOCS_RATIO",
            "a fraction of device memory from 0 to 1, such as 0.2",
            |v| {
                let r = v.trim().parse::<f64>().ok()?;
                (0.0..=1.0).contains(&r).then_some(r)
            },
        )? {
            cfg.max_pending_deallocs_ratio = r;
        }
        if let Some(v) = lookup("RUMBA_MEMORY_MANAGER") {
            cfg.memory_manager = v.parse()?;
        }
        cfg.memory_limit = setting(
            &lookup,
            "RUMBA_MEMORY_LIMIT",
            "a positive byte size such as 2GiB, 512MiB or 1048576",
            parse_size,
        )?;
        if let Some(sync) = setting(
            &lookup,
            "RUMBA_CUDA_ARRAY_INTERFACE_SYNC",
            "1 (synchronize the producer's stream on import) or 0 (do not)",
            flag,
        )? {
            cfg.cuda_array_interface_sync = sync;
        }
        if let Some(v) = lookup("RUMBA_OPENCL_PLATFORM") {
            cfg.opencl_platform = Some(parse_selector("RUMBA_OPENCL_PLATFORM", &v)?);
        }
        if let Some(v) = lookup("RUMBA_OPENCL_DEVICE") {
            cfg.opencl_device = Some(parse_selector("RUMBA_OPENCL_DEVICE", &v)?);
        }
        cfg.opencl_memory = setting(
            &lookup,
            "RUMBA_OPENCL_MEMORY",
            "a positive byte size such as 2GiB, 512MiB or 1048576",
            parse_size,
        )?;
        cfg.memory_history = setting(
            &lookup,
            "RUMBA_MEMORY_HISTORY",
            "the path of the file to write the memory history to",
            |v| (!v.trim().is_empty()).then(|| v.into()),
        )?;
        if let Some(per_thread) = setting(
            &lookup,
            "RUMBA_PER_THREAD_DEFAULT_STREAM",
            "1 (the default stream is the per-thread default stream) or 0 (the legacy default stream)",
            flag,
        )? {
            cfg.per_thread_default_stream = per_thread;
        }
        Ok(cfg)
    }

    /// Bytes per simulated device: [`sim_memory`](Config::sim_memory) or a quarter of host RAM.
    ///
    /// ```
    /// let cfg = rumba::Config { sim_memory: Some(1 << 20), ..Default::default() };
    /// assert_eq!(cfg.sim_memory_bytes(), 1 << 20);
    /// ```
    pub fn sim_memory_bytes(&self) -> usize {
        self.sim_memory.unwrap_or_else(|| host_ram_bytes() / 4)
    }
}

fn invalid(variable: &str, value: &str, expected: &str) -> Error {
    Error::InvalidConfig {
        variable: variable.into(),
        value: value.into(),
        expected: expected.into(),
    }
}

/// Variable `name` through `lookup`, parsed by `parse`: `None` when unset, an
/// [`Error::InvalidConfig`] naming the variable, its value and `expected` when `parse` refuses it.
fn setting<T>(
    lookup: &impl Fn(&str) -> Option<String>,
    name: &str,
    expected: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<Option<T>> {
    let Some(v) = lookup(name) else {
        return Ok(None);
    };
    parse(&v)
        .map(Some)
        .ok_or_else(|| invalid(name, &v, expected))
}

/// A switch: `1` is on, `0` off (surrounding spaces allowed).
fn flag(v: &str) -> Option<bool> {
    match v.trim() {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// Parses a byte size: a number (may be fractional) and an optional unit. `K`, `M`, `G`, `T`
/// and the `KiB`… forms are powers of 1024; `KB`, `MB`, `GB`, `TB` are powers of 1000. The
/// arithmetic is exact (integers, not floating point), rounded to the nearest byte, so every
/// size from 1 to `usize::MAX` bytes can be written.
///
/// ```
/// use rumba::config::parse_size;
/// assert_eq!(parse_size("4GiB"), Some(4 << 30));
/// assert_eq!(parse_size("1.5k"), Some(1536));
/// assert_eq!(parse_size("64MB"), Some(64_000_000));
/// assert_eq!(parse_size("18446744073709551615"), Some(usize::MAX));
/// assert_eq!(parse_size("18446744073709551616"), None); // one byte more than addresses reach
/// assert_eq!(parse_size("12 bytes"), None);
/// assert_eq!(parse_size("0"), None);
/// ```
pub fn parse_size(text: &str) -> Option<usize> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale: u128 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "ki" | "kib" => 1 << 10,
        "m" | "mi" | "mib" => 1 << 20,
        "g" | "gi" | "gib" => 1 << 30,
        "t" | "ti" | "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        _ => return None,
    };
    let (whole, frac) = num.split_once('.').unwrap_or((num, ""));
    if (whole.is_empty() && frac.is_empty()) || frac.contains('.') {
        return None;
    }
    // Digits past the 24th cannot change the rounded byte count at these scales.
    let frac = &frac[..frac.len().min(24)];
    let digits = |s: &str| -> Option<u128> {
        s.bytes().try_fold(0u128, |a, d| {
            a.checked_mul(10)?.checked_add(u128::from(d - b'0'))
        })
    };
    let (whole, part) = (digits(whole)?, digits(frac)?);
    let denominator = 10u128.pow(frac.len() as u32);
    let bytes = whole
        .checked_mul(scale)?
        .checked_add((part * scale + denominator / 2) / denominator)?;
    usize::try_from(bytes).ok().filter(|&b| b >= 1)
}

/// Bytes as a short human figure: `512.0 MiB`.
pub(crate) fn human_bytes(b: usize) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Total physical memory of the host, or 16 GiB when the OS does not say.
pub(crate) fn host_ram_bytes() -> usize {
    // SAFETY: sysconf has no preconditions.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    if pages > 0 && size > 0 {
        (pages as usize).saturating_mul(size as usize)
    } else {
        16 << 30
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(pairs: &[(&str, &str)]) -> Result<Config> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(move |n| pairs.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone()))
    }

    #[test]
    fn sizes_are_parsed_exactly_up_to_the_largest_address() {
        // Issue 24 item 13: through f64, 2^64 - 1 rounded to 2^64 and was refused.
        assert_eq!(
            with(&[("RUMBA_MEMORY_LIMIT", "18446744073709551615")])
                .unwrap()
                .memory_limit,
            Some(usize::MAX)
        );
        assert!(matches!(
            with(&[("RUMBA_MEMORY_LIMIT", "18446744073709551616")]),
            Err(Error::InvalidConfig { .. })
        ));
        assert_eq!(parse_size("9007199254740993"), Some(9_007_199_254_740_993)); // 2^53 + 1
        assert_eq!(parse_size("16EiB"), None);
        assert_eq!(parse_size("16777215.999999999999TiB"), Some(usize::MAX));
        assert_eq!(parse_size("0.5"), Some(1), "rounded to the nearest byte");
        assert_eq!(parse_size("0.4"), None, "less than a byte");
        assert_eq!(parse_size(".5k"), Some(512));
        for bad in ["", ".", "1.2.3", "k", "-1", "1e3"] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn every_malformed_variable_is_named_with_its_accepted_form() {
        for (var, bad, expect) in [
            ("RUMBA_BACKEND", "gpu", "one of sim, cuda, opencl, auto"),
            ("RUMBA_OPENCL_PLATFORM", "", "fragment of the name"),
            ("RUMBA_OPENCL_DEVICE", "gpu;rm -rf", "fragment of the name"),
            ("RUMBA_OPENCL_MEMORY", "half", "byte size"),
            ("RUMBA_SIM_MEMORY", "lots", "byte size"),
            ("RUMBA_SIM_MEMORY", "-4GiB", "byte size"),
            ("RUMBA_SIM_DEVICES", "0", "from 1 to 64"),
            ("RUMBA_SIM_DEVICES", "65", "from 1 to 64"),
            ("RUMBA_MAX_PENDING_DEALLOCS_COUNT", "-1", "whole number"),
            ("RUMBA_MAX_PENDING_DEALLOCS_RATIO", "1.5", "fraction"),
            ("RUMBA_MAX_PENDING_DEALLOCS_RATIO", "x", "fraction"),
            ("RUMBA_MEMORY_MANAGER", "a b", "name of a memory manager"),
            ("RUMBA_MEMORY_LIMIT", "lots", "byte size"),
            ("RUMBA_MEMORY_LIMIT", "0", "byte size"),
            ("RUMBA_CUDA_ARRAY_INTERFACE_SYNC", "yes", "1 (synchronize"),
            ("RUMBA_MEMORY_HISTORY", " ", "path of the file"),
            (
                "RUMBA_PER_THREAD_DEFAULT_STREAM",
                "on",
                "1 (the default stream is the per-thread",
            ),
        ] {
            let err = with(&[(var, bad)]).unwrap_err();
            let msg = err.to_string();
            assert!(matches!(err, Error::InvalidConfig { .. }), "{msg}");
            assert!(msg.contains(var) && msg.contains(expect), "{msg}");
        }
    }

    #[test]
    fn good_values_parse() {
        let cfg = with(&[
            ("RUMBA_BACKEND", "SIM"),
            ("RUMBA_SIM_DEVICES", "3"),
            ("RUMBA_SIM_MEMORY", "512MiB"),
            ("RUMBA_MAX_PENDING_DEALLOCS_COUNT", "0"),
            ("RUMBA_MAX_PENDING_DEALLOCS_RATIO", "0.01"),
            ("RUMBA_MEMORY_LIMIT", "64MiB"),
            ("RUMBA_MEMORY_MANAGER", " pool "),
            ("RUMBA_CUDA_ARRAY_INTERFACE_SYNC", "0"),
            ("RUMBA_OPENCL_PLATFORM", " Portable Computing "),
            ("RUMBA_OPENCL_DEVICE", "0"),
            ("RUMBA_OPENCL_MEMORY", "1GiB"),
            ("RUMBA_PER_THREAD_DEFAULT_STREAM", "1"),
            ("RUMBA_MEMORY_HISTORY", "history.json"),
        ])
        .unwrap();
        assert_eq!(
            cfg.opencl_platform,
            Some(OpenClSelector::Name("Portable Computing".into()))
        );
        assert_eq!(cfg.opencl_device, Some(OpenClSelector::Index(0)));
        assert_eq!(cfg.opencl_memory, Some(1 << 30));
        assert_eq!(
            with(&[("RUMBA_BACKEND", "OpenCL")]).unwrap().backend,
            BackendChoice::OpenCl
        );
        assert!(cfg.per_thread_default_stream);
        assert!(!Config::default().per_thread_default_stream);
        assert!(!cfg.cuda_array_interface_sync);
        assert!(Config::default().cuda_array_interface_sync);
        assert_eq!(cfg.memory_limit, Some(64 << 20));
        assert_eq!(cfg.memory_manager, ManagerChoice::Pool);
        assert_eq!(
            with(&[("RUMBA_MEMORY_MANAGER", "arena")])
                .unwrap()
                .memory_manager,
            ManagerChoice::Named("arena".into())
        );
        assert_eq!(cfg.backend, BackendChoice::Sim);
        assert_eq!(cfg.sim_devices, 3);
        assert_eq!(cfg.sim_memory_bytes(), 512 << 20);
        assert_eq!(cfg.max_pending_deallocs_count, 0);
        assert_eq!(cfg.max_pending_deallocs_ratio, 0.01);
        assert_eq!(cfg.memory_history, Some("history.json".into()));
        assert_eq!(Config::default().memory_history, None);
    }

    #[test]
    fn default_memory_is_a_fraction_of_ram() {
        let cfg = Config::default();
        assert!(cfg.sim_memory_bytes() > 0);
        assert!(cfg.sim_memory_bytes() <= host_ram_bytes());
    }
}
