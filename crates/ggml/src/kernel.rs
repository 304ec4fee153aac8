//! The one call into C: ggml's quantiser over rows of f32.

use std::fmt;
use std::str::FromStr;

/// Weights to quantise to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantType {
    /// 8-bit, blocks of 32 with an f16 scale: accuracy of f16 in whisper (the default choice).
    Q8_0,
    /// 5-bit, blocks of 32: smaller, for `small` and larger (tiny and base lose words).
    Q5_0,
    /// bfloat16: f16's size, but on a build for a CPU with AVX512-BF16 (AMD Zen 4, Intel
    /// Sapphire Rapids) ggml multiplies it with one instruction where f16 needs a conversion
    /// first: about 5 % faster than f16 there, slower than f16 elsewhere (`docs/performance.md`).
    Bf16,
}

impl QuantType {
    fn ggml_type(self) -> whisper_rs_sys::ggml_type {
        match self {
            Self::Q8_0 => whisper_rs_sys::ggml_type_GGML_TYPE_Q8_0,
            Self::Q5_0 => whisper_rs_sys::ggml_type_GGML_TYPE_Q5_0,
            Self::Bf16 => whisper_rs_sys::ggml_type_GGML_TYPE_BF16,
        }
    }

    /// The tensor type id stored in the file.
    #[must_use]
    pub fn tensor_type(self) -> i32 {
        i32::try_from(self.ggml_type()).unwrap_or(i32::MAX)
    }

    /// The header's `ftype`: ggml's file type plus 1000 × its quantisation version, as
    /// whisper.cpp's `quantize` writes it (2007 for q8_0, 2008 for q5_0).
    #[must_use]
    pub fn header_ftype(self) -> i32 {
        let ftype = match self {
            Self::Q8_0 => whisper_rs_sys::ggml_ftype_GGML_FTYPE_MOSTLY_Q8_0,
            Self::Q5_0 => whisper_rs_sys::ggml_ftype_GGML_FTYPE_MOSTLY_Q5_0,
            Self::Bf16 => whisper_rs_sys::ggml_ftype_GGML_FTYPE_MOSTLY_BF16,
        };
        let version = whisper_rs_sys::GGML_QNT_VERSION * whisper_rs_sys::GGML_QNT_VERSION_FACTOR;
        i32::try_from(version).unwrap_or(0) + ftype
    }

    /// Values per block: a row must be a whole number of blocks (bf16 has no blocks).
    #[must_use]
    pub fn block_values(self) -> usize {
        match self {
            Self::Q8_0 | Self::Q5_0 => 32,
            Self::Bf16 => 1,
        }
    }

    /// Bytes of one block of [`Self::block_values`] values: an f16 scale and the quantised
    /// values; a bf16 value is two bytes.
    #[must_use]
    pub fn block_bytes(self) -> usize {
        match self {
            Self::Q8_0 => 2 + 32,
            Self::Q5_0 => 2 + 4 + 16,
            Self::Bf16 => 2,
        }
    }

    /// Quantises rows of `per_row` values (a whole number of blocks).
    #[must_use]
    pub(crate) fn quantize(self, values: &[f32], per_row: usize) -> Vec<u8> {
        assert!(
            per_row.is_multiple_of(self.block_values())
                && values.len().is_multiple_of(per_row.max(1)),
            "ggml aborts on partial blocks"
        );
        let rows = values.len() / per_row;
        let size = rows * per_row / self.block_values() * self.block_bytes();
        let mut out = vec![0u8; size];
        let (Ok(rows), Ok(per_row)) = (i64::try_from(rows), i64::try_from(per_row)) else {
            return Vec::new();
        };
        // SAFETY: `values` holds `rows * per_row` f32s and `out` is sized for exactly that
        // many values in this type (blocks of 32, `block_bytes` each, as ggml lays them out);
        // ggml writes only inside `out` and reads only `values`. No importance matrix is
        // needed for q8_0, q5_0 or bf16 (null is allowed for them).
        #[allow(unsafe_code)]
        let written = unsafe {
            whisper_rs_sys::ggml_quantize_chunk(
                self.ggml_type(),
                values.as_ptr(),
                out.as_mut_ptr().cast(),
                0,
                rows,
                per_row,
                std::ptr::null(),
            )
        };
        out.truncate(written);
        out
    }
}

impl FromStr for QuantType {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "q8_0" => Ok(Self::Q8_0),
            "q5_0" => Ok(Self::Q5_0),
            "bf16" => Ok(Self::Bf16),
            other => Err(format!("unknown type {other}: q8_0, q5_0 or bf16")),
        }
    }
}

impl fmt::Display for QuantType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Q8_0 => "q8_0",
            Self::Q5_0 => "q5_0",
            Self::Bf16 => "bf16",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bf16_keeps_the_top_half_of_each_f32_rounded_to_nearest() {
        // 1.5 is 0x3FC00000; 1 + 2^-8 + 2^-10 is 0x3F80A000, which rounds up to 0x3F81 (cut: 0x3F80).
        let bytes = QuantType::Bf16.quantize(
            &[1.5, -2.0, 1.0 + 1.0 / 256.0 + 1.0 / 1024.0, 0.0].repeat(8),
            32,
        );
        assert_eq!(bytes.len(), 64);
        // No blocks: a row of any length converts (whisper.cpp reads every bf16-typed matrix
        // as bf16, so leaving one in f16 would load wrong values of the right size).
        assert_eq!(
            QuantType::Bf16.quantize(&[1.5, -2.0, 0.0], 3),
            [0xC0, 0x3F, 0x00, 0xC0, 0x00, 0x00]
        );
        assert_eq!(
            &bytes[..8],
            &[0xC0, 0x3F, 0x00, 0xC0, 0x81, 0x3F, 0x00, 0x00]
        );
    }

    #[test]
    fn q8_0_blocks_hold_a_scale_and_32_bytes_that_round_trip() {
        let values: Vec<f32> = (0..64).map(|i| (i as f32 - 32.0) / 10.0).collect();
        let bytes = QuantType::Q8_0.quantize(&values, 64);
        assert_eq!(bytes.len(), 2 * 34);
        // First block: values -3.2 ..= -0.1, largest magnitude 3.2, so scale 3.2 / 127.
        let scale = half::f16::from_le_bytes([bytes[0], bytes[1]]).to_f32();
        assert!((scale - 3.2 / 127.0).abs() < 1e-4, "{scale}");
        for (i, value) in values[..32].iter().enumerate() {
            let q = f32::from(bytes[2 + i] as i8);
            assert!(
                (q * scale - value).abs() <= scale,
                "{i}: {} vs {value}",
                q * scale
            );
        }
    }

    #[test]
    fn header_types_are_what_whisper_cpp_writes() {
        assert_eq!(QuantType::Q8_0.header_ftype(), 2007);
        assert_eq!(QuantType::Q5_0.header_ftype(), 2008);
        assert_eq!(QuantType::Bf16.header_ftype(), 2024);
        assert_eq!(QuantType::Q5_0.quantize(&[0.5; 32], 32).len(), 22);
        assert_eq!("Q8_0".parse::<QuantType>(), Ok(QuantType::Q8_0));
        assert_eq!("bf16".parse::<QuantType>(), Ok(QuantType::Bf16));
        assert!("q4_k".parse::<QuantType>().is_err());
    }
}
