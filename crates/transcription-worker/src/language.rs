//! Which language whisper decodes each window of a file in.
//!
//! With `auto`, whisper.cpp detects the language on the audio it is given (its first 30 s). A
//! file cut into windows is detected once, on the first window in which whisper heard speech,
//! and every later window is decoded in that language: detecting again per window would let a
//! file flip languages halfway (a pause, music or a quoted phrase is enough), and would cost an
//! extra encoder pass per window. A window without speech decides nothing, so a file that opens
//! with silence or music is detected on its first words. An English-only model (`*.en`) knows
//! no other language: its files are English whatever was asked.

/// The language of one file's windows, decided as the file goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LanguagePlan {
    /// An English-only model: every window is English.
    EnglishOnly,
    /// The language the file was started with.
    Fixed(String),
    /// `auto`: detected on the first window with speech, then kept.
    Detect { found: Option<String> },
}

/// What whisper.cpp calls detection.
const AUTO: &str = "auto";
/// The one language of an English-only model.
const ENGLISH: &str = "en";

impl LanguagePlan {
    /// The plan for a file asked to be in `requested` (`auto` or a Whisper code) with a model
    /// that is `multilingual` or not.
    #[must_use]
    pub fn new(requested: &str, multilingual: bool) -> Self {
        let requested = requested.trim().to_ascii_lowercase();
        if !multilingual {
            if requested != AUTO && requested != ENGLISH {
                tracing::warn!(
                    language = %requested,
                    "an English-only model transcribes every file as English"
                );
            }
            Self::EnglishOnly
        } else if requested == AUTO || requested.is_empty() {
            Self::Detect { found: None }
        } else {
            Self::Fixed(requested)
        }
    }

    /// What whisper is told for the next window: a code, or `auto` while still detecting.
    #[must_use]
    pub fn for_window(&self) -> &str {
        match self {
            Self::EnglishOnly => ENGLISH,
            Self::Fixed(code) | Self::Detect { found: Some(code) } => code,
            Self::Detect { found: None } => AUTO,
        }
    }

    /// Takes note of a window whisper decoded as `detected` (its state's language), in which
    /// it heard speech or not. Only the first window with speech decides.
    pub fn after_window(&mut self, detected: Option<&str>, heard_speech: bool) {
        if let Self::Detect { found } = self
            && found.is_none()
            && heard_speech
        {
            *found = detected.map(str::to_owned);
            if let Some(language) = found {
                tracing::info!(%language, "language detected");
            }
        }
    }

    /// The file's language so far: the one asked for, the one detected, or `None` while no
    /// window had speech.
    #[must_use]
    pub fn language(&self) -> Option<&str> {
        match self {
            Self::EnglishOnly => Some(ENGLISH),
            Self::Fixed(code) | Self::Detect { found: Some(code) } => Some(code),
            Self::Detect { found: None } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_is_detected_on_the_first_window_with_speech_and_then_kept() {
        let mut plan = LanguagePlan::new("auto", true);
        assert_eq!(plan.for_window(), "auto");
        // Silence or music first: whisper guessed, but heard nothing; nothing is decided.
        plan.after_window(Some("en"), false);
        assert_eq!(plan.for_window(), "auto");
        assert_eq!(plan.language(), None);
        plan.after_window(Some("de"), true);
        assert_eq!(plan.for_window(), "de");
        // A later window never changes it (whisper decodes it as German anyway).
        plan.after_window(Some("nl"), true);
        assert_eq!(plan.for_window(), "de");
        assert_eq!(plan.language(), Some("de"));
    }

    #[test]
    fn a_chosen_language_is_kept_and_reported_even_without_speech() {
        let mut plan = LanguagePlan::new("ES", true);
        assert_eq!(plan.for_window(), "es");
        plan.after_window(Some("es"), false);
        assert_eq!(plan.language(), Some("es"));
    }

    #[test]
    fn an_english_only_model_is_english_whatever_was_asked() {
        for requested in ["auto", "en", "de"] {
            let mut plan = LanguagePlan::new(requested, false);
            assert_eq!(plan.for_window(), "en", "{requested}");
            plan.after_window(Some("de"), true);
            assert_eq!(plan.language(), Some("en"), "{requested}");
        }
    }

    #[test]
    fn the_languages_the_services_accept_are_whisper_cpps_own() {
        // The gateway and the transcription service check languages against this list
        // without linking whisper.cpp; any code they pass must be one whisper.cpp takes.
        let whisper: Vec<&str> = (0..=whisper_rs::get_lang_max_id())
            .map(|id| whisper_rs::get_lang_str(id).unwrap())
            .collect();
        let ours: Vec<&str> = scribevault_core::language::WHISPER_LANGUAGES
            .iter()
            .map(|(code, _)| *code)
            .collect();
        assert_eq!(ours, whisper);
    }

    #[test]
    fn a_file_without_speech_has_no_language() {
        let mut plan = LanguagePlan::new("auto", true);
        plan.after_window(Some("en"), false);
        plan.after_window(None, true);
        assert_eq!(plan.language(), None);
    }
}
