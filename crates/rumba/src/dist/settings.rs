//! The distributed layer's settings, read from `RUMBA_DIST_*` variables when the universe starts.
//!
//! | variable | meaning | default |
//! | --- | --- | --- |
//! | `RUMBA_DIST_DEVICE` = `local_rank` \| `none` | select device `local_rank % device count` at [`init`](super::init), or leave the current device alone | `local_rank` |
//! | `RUMBA_DIST_CUDA_AWARE` = `1` \| `0` | hand device pointers to MPI (CUDA backend only) instead of staging through pinned memory | detected with `MPIX_Query_cuda_support` where the MPI has it, else `0` |
//! | `RUMBA_DIST_TIMEOUT` = seconds, e.g. `30` or `2.5` | an operation not done after this long poisons its communicator | none (wait forever) |
//! | `RUMBA_DIST_CHUNK` = size, e.g. `4MiB` | bytes per block per pipeline chunk of the staged transport | `4MiB` |

use std::time::Duration;

use crate::config::parse_size;
use crate::error::{Error, Result};

/// Which device a rank uses after [`init`](super::init).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    /// Device `local_rank % device count` (one rank per GPU on each node).
    LocalRank,
    /// Leave the current device as it is.
    None,
}

/// The distributed layer's settings.
///
/// ```
/// use rumba::dist::DistSettings;
/// let s = DistSettings::from_lookup(|n| (n == "RUMBA_DIST_TIMEOUT").then(|| "2.5".into())).unwrap();
/// assert_eq!(s.timeout, Some(std::time::Duration::from_millis(2500)));
/// let e = DistSettings::from_lookup(|n| (n == "RUMBA_DIST_DEVICE").then(|| "gpu3".into()));
/// assert!(e.unwrap_err().to_string().contains("RUMBA_DIST_DEVICE"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DistSettings {
    /// `RUMBA_DIST_DEVICE`.
    pub device: DeviceChoice,
    /// `RUMBA_DIST_CUDA_AWARE`: `Some` when set, `None` to detect.
    pub cuda_aware: Option<bool>,
    /// `RUMBA_DIST_TIMEOUT`.
    pub timeout: Option<Duration>,
    /// `RUMBA_DIST_CHUNK`, bytes.
    pub chunk_bytes: usize,
}

/// Default bytes per pipeline chunk.
pub const DEFAULT_CHUNK: usize = 4 << 20;

impl Default for DistSettings {
    fn default() -> Self {
        DistSettings {
            device: DeviceChoice::LocalRank,
            cuda_aware: None,
            timeout: None,
            chunk_bytes: DEFAULT_CHUNK,
        }
    }
}

fn invalid(variable: &str, value: &str, expected: &str) -> Error {
    Error::InvalidConfig {
        variable: variable.into(),
        value: value.into(),
        expected: expected.into(),
    }
}

impl DistSettings {
    /// Reads the `RUMBA_DIST_*` variables of the process environment.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] naming a variable whose value cannot be parsed.
    ///
    /// ```
    /// assert!(rumba::dist::DistSettings::from_env().is_ok());
    /// ```
    pub fn from_env() -> Result<Self> {
        Self::from_lookup(|n| std::env::var(n).ok())
    }

    /// Reads the settings through `lookup` (a variable name to its value).
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] naming a variable whose value cannot be parsed.
    ///
    /// ```
    /// use rumba::dist::{DeviceChoice, DistSettings};
    /// let s = DistSettings::from_lookup(|n| match n {
    ///     "RUMBA_DIST_DEVICE" => Some("none".into()),
    ///     "RUMBA_DIST_CHUNK" => Some("1MiB".into()),
    ///     _ => None,
    /// })
    /// .unwrap();
    /// assert_eq!((s.device, s.chunk_bytes), (DeviceChoice::None, 1 << 20));
    /// ```
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let mut s = DistSettings::default();
        if let Some(v) = lookup("RUMBA_DIST_DEVICE") {
            s.device = match v.trim() {
                "local_rank" | "" => DeviceChoice::LocalRank,
                "none" => DeviceChoice::None,
                _ => return Err(invalid("RUMBA_DIST_DEVICE", &v, "local_rank or none")),
            };
        }
        if let Some(v) = lookup("RUMBA_DIST_CUDA_AWARE") {
            s.cuda_aware = match v.trim() {
                "1" | "true" | "yes" => Some(true),
                "0" | "false" | "no" => Some(false),
                "" => None,
                _ => return Err(invalid("RUMBA_DIST_CUDA_AWARE", &v, "1 or 0")),
            };
        }
        if let Some(v) = lookup("RUMBA_DIST_TIMEOUT") {
            let t = v.trim();
            if !t.is_empty() {
                let secs: f64 = t
                    .parse()
                    .ok()
                    .filter(|x: &f64| x.is_finite() && *x > 0.0 && *x < 1e9)
                    .ok_or_else(|| {
                        invalid("RUMBA_DIST_TIMEOUT", &v, "a positive number of seconds")
                    })?;
                s.timeout = Some(Duration::from_secs_f64(secs));
            }
        }
        if let Some(v) = lookup("RUMBA_DIST_CHUNK") {
            s.chunk_bytes = parse_size(v.trim())
                .filter(|&b| (16..=(1 << 30)).contains(&b))
                .ok_or_else(|| invalid("RUMBA_DIST_CHUNK", &v, "a size from 16B to 1GiB"))?;
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(name: &'static str, value: &'static str) -> Result<DistSettings> {
        DistSettings::from_lookup(move |n| (n == name).then(|| value.to_string()))
    }

    #[test]
    fn defaults_and_refusals() {
        assert_eq!(
            DistSettings::from_lookup(|_| None).unwrap(),
            DistSettings::default()
        );
        assert_eq!(
            with("RUMBA_DIST_CUDA_AWARE", "1").unwrap().cuda_aware,
            Some(true)
        );
        assert_eq!(
            with("RUMBA_DIST_CUDA_AWARE", "0").unwrap().cuda_aware,
            Some(false)
        );
        for (n, v) in [
            ("RUMBA_DIST_CUDA_AWARE", "maybe"),
            ("RUMBA_DIST_TIMEOUT", "-1"),
            ("RUMBA_DIST_TIMEOUT", "soon"),
            ("RUMBA_DIST_CHUNK", "1"),
            ("RUMBA_DIST_DEVICE", "2"),
        ] {
            match with(n, v) {
                Err(Error::InvalidConfig { variable, .. }) => assert_eq!(variable, n),
                other => panic!("{n}={v}: {other:?}"),
            }
        }
    }
}
