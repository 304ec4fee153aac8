//! Where the settings put files when they are not given: the database, the models.

use std::path::PathBuf;

use super::{EMBEDDING_MODEL_FILE, Settings, VAD_MODEL_FILE};

impl Settings {
    /// The database URL, defaulting to a SQLite file in the data dir.
    #[must_use]
    pub fn effective_database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| {
            format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("scribevault.db").display()
            )
        })
    }

    /// The Silero VAD model's path.
    #[must_use]
    pub fn effective_vad_model(&self) -> PathBuf {
        self.vad_model
            .clone()
            .unwrap_or_else(|| self.effective_model_dir().join(VAD_MODEL_FILE))
    }

    /// Where Whisper models are looked up.
    #[must_use]
    pub fn effective_model_dir(&self) -> PathBuf {
        self.whisper_model_dir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("models"))
    }

    /// The sentence-embedding model's path.
    #[must_use]
    pub fn effective_embedding_model(&self) -> PathBuf {
        self.embedding_model
            .clone()
            .unwrap_or_else(|| self.effective_model_dir().join(EMBEDDING_MODEL_FILE))
    }
}
