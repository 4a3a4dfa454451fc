//! `copy_strided_async` on the CUDA and OpenCL backends: the parameter block of the built-in
//! `rumba_strided_copy_kernel` (`kernels/strided_copy.cu` and `kernels/strided_copy.cl`, which
//! declare the same struct), packed from a [`StridedCopy`], and its launch shape.
//!
//! Packing is pure code and unit-tested here; it also chooses the widest word (1–16 bytes) that
//! every address and stride allows, so aligned arrays move in 4/8/16-byte loads and stores. The
//! OpenCL kernel receives the two pointers as separate SVM arguments (OpenCL C forbids pointers
//! inside a by-value struct argument) and ignores the struct's copies of them.
//!
//! This module touches nothing but the values it is given.

use crate::driver::{StridedCopy, StridedSource};
use crate::error::{Error, Result, ShapeError, StridesError};

/// Most axes a strided copy may have (`RUMBA_MAX_DIMS` in the device header).
pub(crate) const MAX_DIMS: usize = 8;
/// Largest fill element in bytes (`RUMBA_FILL_WORDS` × 8).
pub(crate) const MAX_FILL: usize = 64;
/// Threads per block of the CUDA launch.
#[cfg(feature = "cuda")]
pub(crate) const BLOCK: u32 = 256;
/// Most blocks of the launch (a grid-stride loop covers the rest).
pub(crate) const MAX_BLOCKS: u64 = 8192;

/// Mirrors `struct rumba_strided_copy` field for field.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StridedCopyParams {
    pub(crate) dst: u64,
    pub(crate) src: u64,
    pub(crate) shape: [i64; MAX_DIMS],
    pub(crate) dst_strides: [i64; MAX_DIMS],
    pub(crate) src_strides: [i64; MAX_DIMS],
    pub(crate) count: i64,
    pub(crate) fill_words: [u64; MAX_FILL / 8],
    pub(crate) ndim: i32,
    pub(crate) itemsize: i32,
    pub(crate) fill: i32,
    pub(crate) word: i32,
}

/// [`StridesError::Count`] for strides that do not match the copy's shape.
fn strides_count(shape: &[usize], strides: &[isize]) -> Error {
    StridesError::Count {
        shape: shape.to_vec(),
        strides: strides.to_vec(),
    }
    .into()
}

/// Packs `copy` into the kernel's parameter block.
pub(crate) fn pack(copy: &StridedCopy<'_>) -> Result<StridedCopyParams> {
    let ndim = copy.shape.len();
    if ndim > MAX_DIMS {
        return Err(Error::Limit {
            what: "axes of a strided device copy (the built-in device kernel's limit)",
            value: ndim,
            max: MAX_DIMS,
        });
    }
    if copy.dst_strides.len() != ndim {
        return Err(strides_count(copy.shape, copy.dst_strides));
    }
    if copy.itemsize == 0 {
        return Err(ShapeError::ZeroItemsize.into());
    }
    if copy.itemsize > i32::MAX as usize {
        return Err(Error::Limit {
            what: "item size of a strided device copy",
            value: copy.itemsize,
            max: i32::MAX as usize,
        });
    }
    let count = copy
        .shape
        .iter()
        .try_fold(1i64, |n, &d| n.checked_mul(i64::try_from(d).ok()?))
        .ok_or_else(|| ShapeError::TooLarge {
            shape: copy.shape.to_vec(),
            itemsize: copy.itemsize,
        })?;
    let mut p = StridedCopyParams {
        dst: copy.dst,
        src: 0,
        shape: [1; MAX_DIMS],
        dst_strides: [0; MAX_DIMS],
        src_strides: [0; MAX_DIMS],
        count,
        fill_words: [0; MAX_FILL / 8],
        ndim: ndim as i32,
        itemsize: copy.itemsize as i32,
        fill: 0,
        word: 1,
    };
    for (ax, (&n, &st)) in copy.shape.iter().zip(copy.dst_strides).enumerate() {
        p.shape[ax] = n as i64;
        p.dst_strides[ax] = st as i64;
    }
    let mut aligned: Vec<i64> = vec![copy.dst as i64];
    aligned.extend(&p.dst_strides[..ndim]);
    let max_word = match copy.src {
        StridedSource::Device { ptr, strides } => {
            if strides.len() != ndim {
                return Err(strides_count(copy.shape, strides));
            }
            p.src = ptr;
            for (slot, &st) in p.src_strides.iter_mut().zip(strides) {
                *slot = st as i64;
            }
            aligned.push(ptr as i64);
            aligned.extend(&p.src_strides[..ndim]);
            16
        }
        StridedSource::Fill(bytes) => {
            if bytes.len() != copy.itemsize {
                return Err(ShapeError::Itemsize {
                    layout: copy.itemsize,
                    dtype: "the fill value",
                    itemsize: bytes.len(),
                }
                .into());
            }
            if bytes.len() > MAX_FILL {
                return Err(Error::Limit {
                    what: "bytes of a broadcast fill's element on a GPU backend",
                    value: bytes.len(),
                    max: MAX_FILL,
                });
            }
            let mut raw = [0u8; MAX_FILL];
            raw[..bytes.len()].copy_from_slice(bytes);
            for (w, chunk) in p.fill_words.iter_mut().zip(raw.chunks_exact(8)) {
                let mut b = [0u8; 8];
                b.copy_from_slice(chunk);
                *w = u64::from_ne_bytes(b);
            }
            p.fill = 1;
            8
        }
    };
    p.word = [16, 8, 4, 2, 1]
        .into_iter()
        .find(|&w| {
            w <= max_word
                && copy.itemsize % w as usize == 0
                && aligned.iter().all(|v| v.rem_euclid(w) == 0)
        })
        .unwrap_or(1) as i32;
    Ok(p)
}

/// `(blocks, threads per block)` for `count` elements on CUDA.
#[cfg(feature = "cuda")]
pub(crate) fn launch_shape(count: i64) -> (u32, u32) {
    let blocks = (count.max(1) as u64).div_ceil(BLOCK as u64).min(MAX_BLOCKS);
    (blocks as u32, BLOCK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parameter_block_matches_the_c_struct_layout() {
        // 2 pointers, 3 × 8 indices, count, 8 fill words, 4 ints.
        assert_eq!(
            std::mem::size_of::<StridedCopyParams>(),
            8 * 2 + 8 * 24 + 8 + 64 + 16
        );
        assert_eq!(std::mem::offset_of!(StridedCopyParams, count), 208);
        assert_eq!(std::mem::offset_of!(StridedCopyParams, fill_words), 216);
        assert_eq!(std::mem::offset_of!(StridedCopyParams, ndim), 280);
    }

    #[test]
    fn the_widest_word_every_address_allows_is_chosen() {
        let shape = [4usize, 3];
        let copy = StridedCopy {
            shape: &shape,
            itemsize: 8,
            dst: 0x1000,
            dst_strides: &[24, 8],
            src: StridedSource::Device {
                ptr: 0x2000,
                strides: &[8, 32],
            },
        };
        let p = pack(&copy).unwrap();
        assert_eq!((p.count, p.ndim, p.word), (12, 2, 8));
        assert_eq!(&p.src_strides[..2], &[8, 32]);
        let odd = StridedCopy {
            dst: 0x1004,
            ..copy
        };
        assert_eq!(pack(&odd).unwrap().word, 4);
        let fill = StridedCopy {
            src: StridedSource::Fill(&[1, 2, 3, 4, 5, 6, 7, 8]),
            ..copy
        };
        let p = pack(&fill).unwrap();
        assert_eq!((p.fill, p.word), (1, 8));
        assert_eq!(
            p.fill_words[0],
            u64::from_ne_bytes([1, 2, 3, 4, 5, 6, 7, 8])
        );
        let neg = StridedCopy {
            dst_strides: &[-24, 8],
            dst: 0x1000 + 72,
            ..copy
        };
        assert_eq!(pack(&neg).unwrap().word, 8);
    }

    #[test]
    fn bad_copies_are_typed_errors() {
        let shape = [2usize; 9];
        let too_many = StridedCopy {
            shape: &shape,
            itemsize: 1,
            dst: 0,
            dst_strides: &[1; 9],
            src: StridedSource::Fill(&[0]),
        };
        assert!(matches!(
            pack(&too_many),
            Err(Error::Limit {
                value: 9,
                max: MAX_DIMS,
                ..
            })
        ));
        let wrong_fill = StridedCopy {
            shape: &[2],
            dst_strides: &[1],
            src: StridedSource::Fill(&[0, 0]),
            ..too_many
        };
        assert!(matches!(
            pack(&wrong_fill),
            Err(Error::Shape(ShapeError::Itemsize {
                layout: 1,
                itemsize: 2,
                ..
            }))
        ));
    }

    #[cfg(feature = "cuda")]
    #[test]
    fn the_cuda_launch_shape_caps_the_grid() {
        assert_eq!(launch_shape(0), (1, 256));
        assert_eq!(launch_shape(1 << 40).0 as u64, MAX_BLOCKS);
    }
}
