//! The string-keyed map form of a CUDA Array Interface description — what a Python bridge turns
//! into (and reads from) the `__cuda_array_interface__` dict.
//!
//! [`CaiValue`] models the Python values the interface uses (None, bool, int, str, tuple, list,
//! dict); [`CudaArrayInterface::to_map`] and [`CudaArrayInterface::from_map`] convert. Parsing
//! never panics: every malformed entry is an [`Error::ArrayInterface`] naming the key.
//!
//! This module touches nothing but the description types.

use std::collections::BTreeMap;
use std::fmt;

use super::cai::CudaArrayInterface;
use crate::error::{ArrayInterfaceError, Error, Result};

/// A value of the interface's map form: the Python types `__cuda_array_interface__` uses.
///
/// Integers are `i128` so that both device pointers (up to `u64::MAX`) and negative strides fit.
///
/// ```
/// use rumba::interop::CaiValue;
/// let v = CaiValue::Tuple(vec![CaiValue::Int(2), CaiValue::Int(3)]);
/// assert_eq!(v.to_string(), "(2, 3)");
/// assert_eq!(CaiValue::None.to_string(), "None");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaiValue {
    /// Python's `None`.
    None,
    /// A `bool`.
    Bool(bool),
    /// An `int`.
    Int(i128),
    /// A `str`.
    Str(String),
    /// A `tuple`.
    Tuple(Vec<CaiValue>),
    /// A `list`.
    List(Vec<CaiValue>),
    /// A `dict` with string keys (a mask's own description).
    Dict(BTreeMap<String, CaiValue>),
}

/// How deep [`CaiValue`]'s `Display` descends before it writes `...`: values come from outside
/// (a Python bridge), and an error message that quotes one must not recurse without bound.
const DISPLAY_DEPTH: usize = 16;

/// How deeply masks may nest in [`CudaArrayInterface::from_map`]: a mask is itself an array
/// description, in practice without a mask of its own; the bound keeps a hostile description
/// from exhausting the stack.
const MAX_MASK_DEPTH: usize = 8;

impl fmt::Display for CaiValue {
    /// Python's `repr` of the value (containers nested more than 16 deep are written as `...`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(f, self, 0)
    }
}

fn write_value(f: &mut fmt::Formatter<'_>, v: &CaiValue, depth: usize) -> fmt::Result {
    let seq = |f: &mut fmt::Formatter<'_>, items: &[CaiValue]| -> fmt::Result {
        for (i, v) in items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_value(f, v, depth + 1)?;
        }
        Ok(())
    };
    match v {
        CaiValue::None => f.write_str("None"),
        CaiValue::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
        CaiValue::Int(i) => write!(f, "{i}"),
        CaiValue::Str(s) => write!(f, "'{s}'"),
        _ if depth >= DISPLAY_DEPTH => f.write_str("..."),
        CaiValue::Tuple(items) => {
            f.write_str("(")?;
            seq(f, items)?;
            f.write_str(if items.len() == 1 { ",)" } else { ")" })
        }
        CaiValue::List(items) => {
            f.write_str("[")?;
            seq(f, items)?;
            f.write_str("]")
        }
        CaiValue::Dict(map) => {
            f.write_str("{")?;
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "'{k}': ")?;
                write_value(f, v, depth + 1)?;
            }
            f.write_str("}")
        }
    }
}

fn bad(key: &str, what: &'static str, got: Option<&CaiValue>) -> Error {
    ArrayInterfaceError::Entry {
        key: key.to_owned(),
        expected: what,
        found: got.map(|v| v.to_string()),
    }
    .into()
}

fn items(v: &CaiValue) -> Option<&[CaiValue]> {
    match v {
        CaiValue::Tuple(x) | CaiValue::List(x) => Some(x),
        _ => None,
    }
}

fn ints<T: TryFrom<i128>>(key: &str, what: &'static str, v: &CaiValue) -> Result<Vec<T>> {
    items(v)
        .and_then(|xs| {
            xs.iter()
                .map(|x| match x {
                    CaiValue::Int(i) => T::try_from(*i).ok(),
                    _ => None,
                })
                .collect::<Option<Vec<T>>>()
        })
        .ok_or_else(|| bad(key, what, Some(v)))
}

fn tuple_of_ints<T: Into<i128> + Copy>(xs: &[T]) -> CaiValue {
    CaiValue::Tuple(xs.iter().map(|&x| CaiValue::Int(x.into())).collect())
}

impl CudaArrayInterface {
    /// The map form (`__cuda_array_interface__` as a dict): `shape`, `typestr`, `data`,
    /// `strides`, `descr`, `mask`, `stream`, `version`.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>((2, 3), rumba::Order::C).unwrap();
    /// let map = d.cuda_array_interface().to_map();
    /// assert_eq!(map["typestr"].to_string(), "'<f4'");
    /// assert_eq!(map["shape"].to_string(), "(2, 3)");
    /// assert_eq!(map["strides"].to_string(), "None");
    /// assert_eq!(map["version"].to_string(), "3");
    /// ```
    pub fn to_map(&self) -> BTreeMap<String, CaiValue> {
        let mut m = BTreeMap::new();
        m.insert("shape".into(), tuple_of_ints(&self.shape_i128()));
        m.insert("typestr".into(), CaiValue::Str(self.typestr.clone()));
        m.insert(
            "data".into(),
            CaiValue::Tuple(vec![
                CaiValue::Int(self.data.0.into()),
                CaiValue::Bool(self.data.1),
            ]),
        );
        m.insert(
            "strides".into(),
            match &self.strides {
                Some(s) => tuple_of_ints(&s.iter().map(|&x| x as i128).collect::<Vec<_>>()),
                None => CaiValue::None,
            },
        );
        m.insert(
            "descr".into(),
            CaiValue::List(vec![CaiValue::Tuple(vec![
                CaiValue::Str(String::new()),
                CaiValue::Str(self.typestr.clone()),
            ])]),
        );
        m.insert(
            "mask".into(),
            match &self.mask {
                Some(mask) => CaiValue::Dict(mask.to_map()),
                None => CaiValue::None,
            },
        );
        m.insert(
            "stream".into(),
            match self.stream {
                Some(h) => CaiValue::Int(h.into()),
                None => CaiValue::None,
            },
        );
        m.insert("version".into(), CaiValue::Int(self.version.into()));
        m
    }

    fn shape_i128(&self) -> Vec<i128> {
        self.shape.iter().map(|&n| n as i128).collect()
    }

    /// Reads the map form. `shape`, `typestr`, `data` and `version` are required; `strides`,
    /// `mask` and `stream` may be absent or `None`; `descr` and unknown keys are ignored. A
    /// `stream` of 0 is refused here, as the interface forbids it, and so are masks nested more
    /// than 8 deep (a mask is an array description, in practice without a mask of its own).
    ///
    /// # Errors
    /// [`Error::ArrayInterface`] naming the entry that is missing or of the wrong type, and the
    /// value found.
    ///
    /// ```
    /// use rumba::interop::{CaiValue, CudaArrayInterface};
    /// let d = rumba::device_array::<i16, _>(5, rumba::Order::C).unwrap();
    /// let desc = d.cuda_array_interface();
    /// assert_eq!(CudaArrayInterface::from_map(&desc.to_map()).unwrap(), desc);
    /// let mut map = desc.to_map();
    /// map.insert("stream".into(), CaiValue::Int(0));
    /// let e = CudaArrayInterface::from_map(&map).unwrap_err();
    /// assert!(matches!(e, rumba::Error::ArrayInterface(rumba::error::ArrayInterfaceError::Stream0)));
    /// ```
    pub fn from_map(map: &BTreeMap<String, CaiValue>) -> Result<CudaArrayInterface> {
        Self::from_map_at(map, 0)
    }

    fn from_map_at(map: &BTreeMap<String, CaiValue>, depth: usize) -> Result<CudaArrayInterface> {
        if depth > MAX_MASK_DEPTH {
            return Err(ArrayInterfaceError::MaskDepth {
                max: MAX_MASK_DEPTH,
            }
            .into());
        }
        let get = |k: &str| map.get(k).filter(|v| **v != CaiValue::None);
        let shape_v = get("shape").ok_or_else(|| bad("shape", "a tuple of ints", None))?;
        let shape = ints::<usize>("shape", "a tuple of non-negative ints", shape_v)?;
        let typestr = match get("typestr") {
            Some(CaiValue::Str(s)) => s.clone(),
            other => return Err(bad("typestr", "a str such as '<f4'", other)),
        };
        let data = match get("data").map(|v| (v, items(v))) {
            Some((_, Some([CaiValue::Int(p), CaiValue::Bool(ro)]))) => (
                u64::try_from(*p).map_err(|_| {
                    bad(
                        "data",
                        "a (pointer, read-only) tuple with a 64-bit pointer",
                        map.get("data"),
                    )
                })?,
                *ro,
            ),
            other => {
                return Err(bad(
                    "data",
                    "a (pointer, read-only) tuple",
                    other.map(|(v, _)| v),
                ));
            }
        };
        let strides = match get("strides") {
            Some(v) => Some(ints::<isize>("strides", "None or a tuple of ints", v)?),
            None => None,
        };
        let mask = match get("mask") {
            Some(CaiValue::Dict(m)) => Some(Box::new(Self::from_map_at(m, depth + 1)?)),
            Some(other) => {
                return Err(bad(
                    "mask",
                    "None or an object with the interface",
                    Some(other),
                ));
            }
            None => None,
        };
        let stream = match get("stream") {
            Some(CaiValue::Int(0)) => {
                return Err(ArrayInterfaceError::Stream0.into());
            }
            Some(CaiValue::Int(h)) => Some(
                u64::try_from(*h)
                    .map_err(|_| bad("stream", "None or a stream handle", map.get("stream")))?,
            ),
            None => None,
            other => return Err(bad("stream", "None or an int stream handle", other)),
        };
        let version = match get("version") {
            Some(CaiValue::Int(v)) => {
                u32::try_from(*v).map_err(|_| bad("version", "an int", map.get("version")))?
            }
            other => return Err(bad("version", "an int", other)),
        };
        Ok(CudaArrayInterface {
            shape,
            typestr,
            data,
            strides,
            mask,
            stream,
            version,
        })
    }
}

impl fmt::Display for CudaArrayInterface {
    /// The map form as Python prints the dict.
    ///
    /// ```
    /// let d = rumba::device_array::<u8, _>(0, rumba::Order::C).unwrap();
    /// let text = d.cuda_array_interface().to_string();
    /// assert!(text.contains("'data': (0, False)"), "{text}");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(f, &CaiValue::Dict(self.to_map()), 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc() -> CudaArrayInterface {
        CudaArrayInterface {
            shape: vec![2, 3],
            typestr: "<f8".into(),
            data: (u64::MAX - 7, true),
            strides: Some(vec![-8, 16]),
            mask: None,
            stream: Some(1),
            version: 3,
        }
    }

    #[test]
    fn the_map_form_round_trips_with_big_pointers_and_negative_strides() {
        let d = desc();
        assert_eq!(CudaArrayInterface::from_map(&d.to_map()).unwrap(), d);
    }

    #[test]
    fn malformed_entries_name_their_key() {
        for (key, value) in [
            ("shape", CaiValue::Tuple(vec![CaiValue::Int(-1)])),
            ("typestr", CaiValue::Int(4)),
            ("data", CaiValue::Tuple(vec![CaiValue::Int(1)])),
            ("strides", CaiValue::Str("x".into())),
            ("mask", CaiValue::Int(1)),
            ("stream", CaiValue::Str("s".into())),
            ("version", CaiValue::None),
        ] {
            let mut m = desc().to_map();
            m.insert(key.into(), value);
            let err = CudaArrayInterface::from_map(&m).unwrap_err();
            assert!(err.to_string().contains(&format!("'{key}'")), "{err}");
        }
    }

    #[test]
    fn a_mask_is_read_as_a_description() {
        let mut m = desc().to_map();
        m.insert("mask".into(), CaiValue::Dict(desc().to_map()));
        assert!(CudaArrayInterface::from_map(&m).unwrap().mask.is_some());
    }

    #[test]
    fn one_element_tuples_print_like_python() {
        assert_eq!(CaiValue::Tuple(vec![CaiValue::Int(4)]).to_string(), "(4,)");
    }
}
