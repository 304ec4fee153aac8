//! Rewriting a whisper.cpp model file with quantised weights, one tensor at a time.
//!
//! The file is: the magic `ggml`, 11 int32 hyper-parameters (the last one the weight type),
//! the mel filterbank, the vocabulary, then tensors to the end (`n_dims, name_len, type`, the
//! dimensions, the name, the data). Like whisper.cpp's `quantize`, only 2-D tensors are
//! quantised, and never the positional embeddings or conv biases; everything else is copied.

use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use crate::kernel::QuantType;

const MAGIC: u32 = 0x6767_6d6c;
const HPARAMS: usize = 11;
const TYPE_F32: i32 = 0;
const TYPE_F16: i32 = 1;
/// whisper.cpp's `quantize` leaves these in full precision.
const KEEP: [&str; 4] = [
    "encoder.conv1.bias",
    "encoder.conv2.bias",
    "encoder.positional_embedding",
    "decoder.positional_embedding",
];
/// Bounds that no real whisper file comes near; past them the file is damaged, and nothing
/// is allocated from a corrupt length.
const MAX_MEL_VALUES: i64 = 1 << 20;
const MAX_VOCAB: i64 = 1 << 20;
const MAX_TOKEN_BYTES: u32 = 1 << 16;
const MAX_NAME_BYTES: i32 = 1 << 10;
const MAX_TENSOR_VALUES: i64 = 1 << 32;

/// Why a model could not be quantised.
#[derive(Debug, thiserror::Error)]
pub enum ModelFileError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{0} is not a whisper.cpp ggml model")]
    NotGgml(String),
    #[error("{0} is already quantised; quantise the f16 or f32 model")]
    AlreadyQuantised(String),
    #[error("{path} is damaged: {reason}")]
    Damaged { path: String, reason: String },
    #[error("The output file must not be the input file")]
    SameFile,
}

/// What a quantisation did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantizeReport {
    pub tensors: usize,
    pub quantised: usize,
    pub bytes_in: u64,
    pub bytes_out: u64,
}

struct Reader {
    inner: BufReader<File>,
    path: String,
    read: u64,
}

impl Reader {
    fn exact(&mut self, buf: &mut [u8]) -> Result<(), ModelFileError> {
        self.inner.read_exact(buf).map_err(|source| {
            if source.kind() == ErrorKind::UnexpectedEof {
                self.damaged("it ends early (truncated)")
            } else {
                ModelFileError::Io {
                    path: self.path.clone(),
                    source,
                }
            }
        })?;
        self.read += buf.len() as u64;
        Ok(())
    }

    fn bytes(&mut self, len: usize) -> Result<Vec<u8>, ModelFileError> {
        let mut buf = vec![0; len];
        self.exact(&mut buf)?;
        Ok(buf)
    }

    fn i32(&mut self) -> Result<i32, ModelFileError> {
        let mut buf = [0; 4];
        self.exact(&mut buf)?;
        Ok(i32::from_le_bytes(buf))
    }

    /// The next int32, or `None` at a clean end of file.
    fn i32_or_end(&mut self) -> Result<Option<i32>, ModelFileError> {
        let mut buf = [0; 4];
        let mut filled = 0;
        while filled < 4 {
            match self.inner.read(&mut buf[filled..]) {
                Ok(0) if filled == 0 => return Ok(None),
                Ok(0) => return Err(self.damaged("it ends inside a tensor header")),
                Ok(n) => filled += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(ModelFileError::Io {
                        path: self.path.clone(),
                        source,
                    });
                }
            }
        }
        self.read += 4;
        Ok(Some(i32::from_le_bytes(buf)))
    }

    fn damaged(&self, reason: &str) -> ModelFileError {
        ModelFileError::Damaged {
            path: self.path.clone(),
            reason: reason.to_owned(),
        }
    }
}

struct Writer {
    inner: BufWriter<File>,
    path: PathBuf,
    written: u64,
}

impl Writer {
    fn all(&mut self, bytes: &[u8]) -> Result<(), ModelFileError> {
        self.inner
            .write_all(bytes)
            .map_err(|source| ModelFileError::Io {
                path: self.path.display().to_string(),
                source,
            })?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    fn i32(&mut self, value: i32) -> Result<(), ModelFileError> {
        self.all(&value.to_le_bytes())
    }
}

/// Writes `output` as `input` with its weights quantised to `kind`. The file appears only
/// when complete (written beside it, then renamed).
///
/// # Errors
/// [`ModelFileError`]: not a model, already quantised, damaged, or an I/O failure.
pub fn quantize_model(
    input: &Path,
    output: &Path,
    kind: QuantType,
) -> Result<QuantizeReport, ModelFileError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| ModelFileError::Io { path, source }
    };
    if output.exists()
        && std::fs::canonicalize(input).map_err(io(input))?
            == std::fs::canonicalize(output).map_err(io(output))?
    {
        return Err(ModelFileError::SameFile);
    }
    let mut reader = Reader {
        inner: BufReader::new(File::open(input).map_err(io(input))?),
        path: input.display().to_string(),
        read: 0,
    };
    let partial = output.with_extension("partial");
    let mut writer = Writer {
        inner: BufWriter::new(File::create(&partial).map_err(io(&partial))?),
        path: partial.clone(),
        written: 0,
    };
    let result = rewrite(&mut reader, &mut writer, kind).and_then(|report| {
        writer.inner.flush().map_err(io(&partial))?;
        writer.inner.get_ref().sync_all().map_err(io(&partial))?;
        std::fs::rename(&partial, output).map_err(io(output))?;
        Ok(report)
    });
    if result.is_err() {
        std::fs::remove_file(&partial).ok();
    }
    result
}

fn rewrite(
    reader: &mut Reader,
    writer: &mut Writer,
    kind: QuantType,
) -> Result<QuantizeReport, ModelFileError> {
    copy_header(reader, writer, kind)?;
    copy_mel_filters(reader, writer)?;
    copy_vocabulary(reader, writer)?;
    let mut report = QuantizeReport {
        tensors: 0,
        quantised: 0,
        bytes_in: 0,
        bytes_out: 0,
    };
    while let Some(n_dims) = reader.i32_or_end()? {
        if rewrite_tensor(reader, writer, kind, n_dims)? {
            report.quantised += 1;
        }
        report.tensors += 1;
    }
    if report.tensors == 0 {
        return Err(reader.damaged("it holds no tensors"));
    }
    report.bytes_in = reader.read;
    report.bytes_out = writer.written;
    Ok(report)
}

/// The magic and the hyperparameters, the last of which (the weights' type) becomes `kind`'s.
fn copy_header(
    reader: &mut Reader,
    writer: &mut Writer,
    kind: QuantType,
) -> Result<(), ModelFileError> {
    let mut magic = [0; 4];
    if reader.inner.read_exact(&mut magic).is_err() || u32::from_le_bytes(magic) != MAGIC {
        return Err(ModelFileError::NotGgml(reader.path.clone()));
    }
    reader.read = 4;
    writer.all(&magic)?;
    let mut hparams = [0i32; HPARAMS];
    for value in &mut hparams {
        *value = reader.i32()?;
    }
    let ftype = hparams[HPARAMS - 1];
    if ftype != TYPE_F32 && ftype != TYPE_F16 {
        return Err(ModelFileError::AlreadyQuantised(reader.path.clone()));
    }
    hparams[HPARAMS - 1] = kind.header_ftype();
    for value in hparams {
        writer.i32(value)?;
    }
    Ok(())
}

fn copy_mel_filters(reader: &mut Reader, writer: &mut Writer) -> Result<(), ModelFileError> {
    let (n_mel, n_fft) = (reader.i32()?, reader.i32()?);
    let mel_values = i64::from(n_mel) * i64::from(n_fft);
    if n_mel <= 0 || n_fft <= 0 || mel_values > MAX_MEL_VALUES {
        return Err(reader.damaged("impossible mel filterbank size"));
    }
    writer.i32(n_mel)?;
    writer.i32(n_fft)?;
    let mel = reader.bytes(usize::try_from(mel_values * 4).unwrap_or(0))?;
    writer.all(&mel)
}

fn copy_vocabulary(reader: &mut Reader, writer: &mut Writer) -> Result<(), ModelFileError> {
    let n_vocab = reader.i32()?;
    if !(0..=MAX_VOCAB).contains(&i64::from(n_vocab)) {
        return Err(reader.damaged("impossible vocabulary size"));
    }
    writer.i32(n_vocab)?;
    for _ in 0..n_vocab {
        let len = u32::from_le_bytes(reader.i32()?.to_le_bytes());
        if len > MAX_TOKEN_BYTES {
            return Err(reader.damaged("impossible token length"));
        }
        writer.all(&len.to_le_bytes())?;
        let token = reader.bytes(len as usize)?;
        writer.all(&token)?;
    }
    Ok(())
}

/// Copies one tensor (its header's first field, `n_dims`, already read), quantised when it is
/// a matrix whose rows fill whole blocks and not one of [`KEEP`]; answers whether it was.
fn rewrite_tensor(
    reader: &mut Reader,
    writer: &mut Writer,
    kind: QuantType,
    n_dims: i32,
) -> Result<bool, ModelFileError> {
    let (name_len, tensor_type) = (reader.i32()?, reader.i32()?);
    if !(1..=4).contains(&n_dims) || !(1..=MAX_NAME_BYTES).contains(&name_len) {
        return Err(reader.damaged("impossible tensor header"));
    }
    let mut dims = Vec::with_capacity(4);
    for _ in 0..n_dims {
        dims.push(reader.i32()?);
    }
    let values = dims
        .iter()
        .try_fold(1i64, |n, dim| (*dim > 0).then(|| n * i64::from(*dim)))
        .filter(|n| *n <= MAX_TENSOR_VALUES)
        .ok_or_else(|| reader.damaged("impossible tensor dimensions"))?;
    let name_bytes = reader.bytes(usize::try_from(name_len).unwrap_or(0))?;
    let name = String::from_utf8_lossy(&name_bytes).into_owned();
    let values = usize::try_from(values).map_err(|_| reader.damaged("tensor too large"))?;
    let data = match tensor_type {
        TYPE_F32 => reader.bytes(values * 4)?,
        TYPE_F16 => reader.bytes(values * 2)?,
        _ => return Err(ModelFileError::AlreadyQuantised(reader.path.clone())),
    };
    let per_row = usize::try_from(dims[0]).unwrap_or(0);
    let quantise = n_dims == 2
        && !KEEP.contains(&name.as_str())
        && per_row.is_multiple_of(kind.block_values())
        && per_row > 0;
    let (out_type, out_data) = if quantise {
        let floats: Vec<f32> = if tensor_type == TYPE_F16 {
            data.chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect()
        } else {
            data.chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        (kind.tensor_type(), kind.quantize(&floats, per_row))
    } else {
        (tensor_type, data)
    };
    writer.i32(n_dims)?;
    writer.i32(name_len)?;
    writer.i32(out_type)?;
    for dim in dims {
        writer.i32(dim)?;
    }
    writer.all(&name_bytes)?;
    writer.all(&out_data)?;
    Ok(quantise)
}
