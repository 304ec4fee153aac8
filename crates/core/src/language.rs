//! The spoken languages Whisper knows, and what a file is transcribed as: one of them, or
//! `auto` (Whisper detects it). The gateway checks a user's default against this list, the
//! transcription service a start request's language, and the worker's tests check that the list
//! is whisper.cpp's own, so a code that passes here is one whisper.cpp accepts.

use std::fmt;
use std::str::FromStr;

/// Whisper's languages in whisper.cpp's own order (the index is its language id): the code it
/// takes and the language's English name.
pub const WHISPER_LANGUAGES: [(&str, &str); 100] = [
    ("en", "English"),
    ("zh", "Chinese"),
    ("de", "German"),
    ("es", "Spanish"),
    ("ru", "Russian"),
    ("ko", "Korean"),
    ("fr", "French"),
    ("ja", "Japanese"),
    ("pt", "Portuguese"),
    ("tr", "Turkish"),
    ("pl", "Polish"),
    ("ca", "Catalan"),
    ("nl", "Dutch"),
    ("ar", "Arabic"),
    ("sv", "Swedish"),
    ("it", "Italian"),
    ("id", "Indonesian"),
    ("hi", "Hindi"),
    ("fi", "Finnish"),
    ("vi", "Vietnamese"),
    ("he", "Hebrew"),
    ("uk", "Ukrainian"),
    ("el", "Greek"),
    ("ms", "Malay"),
    ("cs", "Czech"),
    ("ro", "Romanian"),
    ("da", "Danish"),
    ("hu", "Hungarian"),
    ("ta", "Tamil"),
    ("no", "Norwegian"),
    ("th", "Thai"),
    ("ur", "Urdu"),
    ("hr", "Croatian"),
    ("bg", "Bulgarian"),
    ("lt", "Lithuanian"),
    ("la", "Latin"),
    ("mi", "Maori"),
    ("ml", "Malayalam"),
    ("cy", "Welsh"),
    ("sk", "Slovak"),
    ("te", "Telugu"),
    ("fa", "Persian"),
    ("lv", "Latvian"),
    ("bn", "Bengali"),
    ("sr", "Serbian"),
    ("az", "Azerbaijani"),
    ("sl", "Slovenian"),
    ("kn", "Kannada"),
    ("et", "Estonian"),
    ("mk", "Macedonian"),
    ("br", "Breton"),
    ("eu", "Basque"),
    ("is", "Icelandic"),
    ("hy", "Armenian"),
    ("ne", "Nepali"),
    ("mn", "Mongolian"),
    ("bs", "Bosnian"),
    ("kk", "Kazakh"),
    ("sq", "Albanian"),
    ("sw", "Swahili"),
    ("gl", "Galician"),
    ("mr", "Marathi"),
    ("pa", "Punjabi"),
    ("si", "Sinhala"),
    ("km", "Khmer"),
    ("sn", "Shona"),
    ("yo", "Yoruba"),
    ("so", "Somali"),
    ("af", "Afrikaans"),
    ("oc", "Occitan"),
    ("ka", "Georgian"),
    ("be", "Belarusian"),
    ("tg", "Tajik"),
    ("sd", "Sindhi"),
    ("gu", "Gujarati"),
    ("am", "Amharic"),
    ("yi", "Yiddish"),
    ("lo", "Lao"),
    ("uz", "Uzbek"),
    ("fo", "Faroese"),
    ("ht", "Haitian Creole"),
    ("ps", "Pashto"),
    ("tk", "Turkmen"),
    ("nn", "Nynorsk"),
    ("mt", "Maltese"),
    ("sa", "Sanskrit"),
    ("lb", "Luxembourgish"),
    ("my", "Burmese"),
    ("bo", "Tibetan"),
    ("tl", "Tagalog"),
    ("mg", "Malagasy"),
    ("as", "Assamese"),
    ("tt", "Tatar"),
    ("haw", "Hawaiian"),
    ("ln", "Lingala"),
    ("ha", "Hausa"),
    ("ba", "Bashkir"),
    ("jw", "Javanese"),
    ("su", "Sundanese"),
    ("yue", "Cantonese"),
];

/// The English name of a Whisper language code (`de` → `German`).
#[must_use]
pub fn language_name(code: &str) -> Option<&'static str> {
    WHISPER_LANGUAGES
        .iter()
        .find(|(known, _)| *known == code)
        .map(|(_, name)| *name)
}

/// What a file is transcribed as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LanguageChoice {
    /// Whisper detects the language from the file's first speech. An English-only model
    /// (`*.en`) hears English whatever is chosen.
    Auto,
    /// This language, by its Whisper code.
    Fixed(&'static str),
}

impl LanguageChoice {
    /// How [`LanguageChoice::Auto`] is spelled everywhere (settings, requests, the database).
    pub const AUTO: &'static str = "auto";

    /// `auto` or the code, as stored and sent.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => Self::AUTO,
            Self::Fixed(code) => code,
        }
    }
}

impl fmt::Display for LanguageChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A language that is neither `auto` nor one of Whisper's codes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("language must be 'auto' or a Whisper language code such as en, de or es (not {0:?})")]
pub struct UnknownLanguage(pub String);

impl FromStr for LanguageChoice {
    type Err = UnknownLanguage;

    /// `auto` or a Whisper code, in any case, surrounding spaces ignored.
    fn from_str(value: &str) -> Result<Self, UnknownLanguage> {
        let wanted = value.trim().to_ascii_lowercase();
        if wanted == Self::AUTO {
            return Ok(Self::Auto);
        }
        WHISPER_LANGUAGES
            .iter()
            .find(|(code, _)| *code == wanted)
            .map(|(code, _)| Self::Fixed(code))
            .ok_or_else(|| UnknownLanguage(value.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_and_whisper_codes_parse_and_anything_else_is_refused() {
        assert_eq!("auto".parse(), Ok(LanguageChoice::Auto));
        assert_eq!(" DE ".parse(), Ok(LanguageChoice::Fixed("de")));
        assert_eq!("yue".parse(), Ok(LanguageChoice::Fixed("yue")));
        for refused in ["", "german", "xx", "de-DE", "en_US"] {
            assert_eq!(
                refused.parse::<LanguageChoice>(),
                Err(UnknownLanguage(refused.to_owned())),
                "{refused:?}"
            );
        }
        assert_eq!(LanguageChoice::Fixed("es").to_string(), "es");
        assert_eq!(LanguageChoice::Auto.to_string(), "auto");
    }

    #[test]
    fn codes_are_unique_and_named() {
        let mut codes: Vec<&str> = WHISPER_LANGUAGES.iter().map(|(code, _)| *code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), WHISPER_LANGUAGES.len());
        assert_eq!(language_name("de"), Some("German"));
        assert_eq!(language_name("haw"), Some("Hawaiian"));
        assert_eq!(language_name("auto"), None);
    }
}
