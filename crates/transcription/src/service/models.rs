//! The model catalogue: which Whisper models a job may ask for, and what to tell an operator
//! when one is missing.

use crate::error::TranscriptionError;
use crate::service::Transcriptions;

/// Model names (`ggml-<name>.bin`) in `dir`, sorted. The Silero VAD model lives beside the
/// Whisper models (`ggml-silero-v6.2.0.bin`) but transcribes nothing, so it is not offered.
fn models_in(dir: &std::path::Path) -> Vec<String> {
    let mut models: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_prefix("ggml-")?
                .strip_suffix(".bin")
                .filter(|model| !model.starts_with("silero"))
                .map(str::to_owned)
        })
        .collect();
    models.sort();
    models
}

impl Transcriptions {
    /// The models on offer: the configured list, or the `ggml-<name>.bin` files present in the
    /// model directory, sorted. The directory is read on a blocking thread.
    pub async fn available_models(&self) -> Vec<String> {
        if let Some(offered) = &self.config.offered_models {
            return offered.clone();
        }
        let model_dir = self.config.model_dir.clone();
        match tokio::task::spawn_blocking(move || models_in(&model_dir)).await {
            Ok(models) => models,
            Err(error) => {
                tracing::error!(error = %error, "scanning the model directory failed");
                Vec::new()
            }
        }
    }

    /// The model a job will use: the one asked for (or the default), if it is on offer.
    pub(crate) async fn check_model(&self, model: &str) -> Result<String, TranscriptionError> {
        let model = if model.is_empty() {
            self.config.default_model.as_str()
        } else {
            model
        };
        let available = self.available_models().await;
        if available.iter().any(|name| name == model) {
            return Ok(model.to_owned());
        }
        let how_to_add = if self.config.offered_models.is_some() {
            format!(
                "Give the workers ggml-{model}.bin and add {model} to SCRIBEVAULT_WHISPER_MODELS."
            )
        } else {
            format!(
                "Run `scribevault model fetch {model}` or put ggml-{model}.bin in {}.",
                self.config.model_dir.display()
            )
        };
        Err(TranscriptionError::ModelUnavailable {
            requested: model.to_owned(),
            how_to_add,
            available: if available.is_empty() {
                "none".to_owned()
            } else {
                available.join(", ")
            },
        })
    }
}
