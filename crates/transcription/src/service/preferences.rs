//! Users' transcription defaults. The gateway owns user settings and hands over the one this
//! service acts on, the spoken language (ADR 0015); a job records the language it was started
//! with, so a later change of the default does not change files already queued.

use scribevault_core::UserId;
use scribevault_core::language::UnknownLanguage;

use crate::domain::LanguageChoice;
use crate::error::TranscriptionError;
use crate::service::Transcriptions;

fn checked(language: &str) -> Result<LanguageChoice, TranscriptionError> {
    language
        .parse()
        .map_err(|error: UnknownLanguage| TranscriptionError::InvalidArgument(error.to_string()))
}

impl Transcriptions {
    /// Records the caller's default language: `auto` or a Whisper code.
    ///
    /// # Errors
    /// An unknown language, or a database failure.
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn set_default_language(
        &self,
        user: &UserId,
        language: &str,
    ) -> Result<(), TranscriptionError> {
        let language = checked(language)?;
        self.store
            .set_default_language(user.as_str(), language)
            .await?;
        Ok(())
    }

    /// The language a new job of `user` is transcribed in: `requested` when the request names
    /// one, else the user's default, else `auto` (the default the gateway shows to users who
    /// never saved their settings).
    pub(crate) async fn job_language(
        &self,
        user: &UserId,
        requested: Option<&str>,
    ) -> Result<LanguageChoice, TranscriptionError> {
        if let Some(requested) = requested {
            return checked(requested);
        }
        Ok(self
            .store
            .default_language(user.as_str())
            .await?
            .unwrap_or(LanguageChoice::Auto))
    }
}
