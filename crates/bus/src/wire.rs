//! The contract's enums and their protobuf twins, mapped in this one place. The same values
//! cross the bus (JSON), the gRPC wire (proto enums) and REST (JSON again, from the gateway's
//! views), so every service and the gateway convert here instead of each keeping its own
//! table that could drift.
//!
//! Protobuf enums arrive as raw `i32`s: a peer built from a newer `.proto` may send a value
//! this build does not know, and every enum has an `UNSPECIFIED` zero that a sender gets by
//! forgetting the field. Both are refused as [`WireEnumError`], which a gRPC server answers as
//! `INVALID_ARGUMENT`; neither ever panics.

use scribevault_proto::discovery::v1 as discovery_pb;
use scribevault_proto::library::v1 as library_pb;
use scribevault_proto::tonic::Status;
use scribevault_proto::transcription::v1 as transcription_pb;

use crate::contract::{DownloadStatus, FileStatus, ReviewReason, SourceType, TranscriptSource};

/// A protobuf enum value with no contract meaning: unspecified (zero) or unknown to this build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{value} is not a {enum_name} (unspecified or unknown)")]
pub struct WireEnumError {
    /// The proto enum's name.
    pub enum_name: &'static str,
    /// The raw value received.
    pub value: i32,
}

impl From<WireEnumError> for Status {
    fn from(error: WireEnumError) -> Self {
        Status::invalid_argument(error.to_string())
    }
}

fn refused(enum_name: &'static str, value: i32) -> WireEnumError {
    WireEnumError { enum_name, value }
}

impl From<SourceType> for library_pb::SourceType {
    fn from(kind: SourceType) -> Self {
        match kind {
            SourceType::Audio => Self::Audio,
            SourceType::Pdf => Self::Pdf,
            SourceType::PdfSource => Self::PdfSource,
            SourceType::Website => Self::Website,
            SourceType::WebsiteContent => Self::WebsiteContent,
            SourceType::Image => Self::Image,
            SourceType::Text => Self::Text,
        }
    }
}

impl TryFrom<i32> for SourceType {
    type Error = WireEnumError;

    fn try_from(value: i32) -> Result<Self, WireEnumError> {
        match library_pb::SourceType::try_from(value) {
            Ok(library_pb::SourceType::Audio) => Ok(Self::Audio),
            Ok(library_pb::SourceType::Pdf) => Ok(Self::Pdf),
            Ok(library_pb::SourceType::PdfSource) => Ok(Self::PdfSource),
            Ok(library_pb::SourceType::Website) => Ok(Self::Website),
            Ok(library_pb::SourceType::WebsiteContent) => Ok(Self::WebsiteContent),
            Ok(library_pb::SourceType::Image) => Ok(Self::Image),
            Ok(library_pb::SourceType::Text) => Ok(Self::Text),
            Ok(library_pb::SourceType::Unspecified) | Err(_) => Err(refused("SourceType", value)),
        }
    }
}

impl From<TranscriptSource> for library_pb::TranscriptSource {
    fn from(source: TranscriptSource) -> Self {
        match source {
            TranscriptSource::Whisper => Self::Whisper,
            TranscriptSource::CaptionsUploader => Self::CaptionsUploader,
            TranscriptSource::CaptionsAuto => Self::CaptionsAuto,
        }
    }
}

impl TryFrom<i32> for TranscriptSource {
    type Error = WireEnumError;

    fn try_from(value: i32) -> Result<Self, WireEnumError> {
        match library_pb::TranscriptSource::try_from(value) {
            Ok(library_pb::TranscriptSource::Whisper) => Ok(Self::Whisper),
            Ok(library_pb::TranscriptSource::CaptionsUploader) => Ok(Self::CaptionsUploader),
            Ok(library_pb::TranscriptSource::CaptionsAuto) => Ok(Self::CaptionsAuto),
            Ok(library_pb::TranscriptSource::Unspecified) | Err(_) => {
                Err(refused("TranscriptSource", value))
            }
        }
    }
}

impl From<ReviewReason> for library_pb::ReviewReason {
    fn from(reason: ReviewReason) -> Self {
        match reason {
            ReviewReason::Repetition => Self::Repetition,
            ReviewReason::Compression => Self::Compression,
            ReviewReason::LowConfidence => Self::LowConfidence,
            ReviewReason::TextOverSilence => Self::TextOverSilence,
        }
    }
}

impl TryFrom<i32> for ReviewReason {
    type Error = WireEnumError;

    fn try_from(value: i32) -> Result<Self, WireEnumError> {
        match library_pb::ReviewReason::try_from(value) {
            Ok(library_pb::ReviewReason::Repetition) => Ok(Self::Repetition),
            Ok(library_pb::ReviewReason::Compression) => Ok(Self::Compression),
            Ok(library_pb::ReviewReason::LowConfidence) => Ok(Self::LowConfidence),
            Ok(library_pb::ReviewReason::TextOverSilence) => Ok(Self::TextOverSilence),
            Ok(library_pb::ReviewReason::Unspecified) | Err(_) => {
                Err(refused("ReviewReason", value))
            }
        }
    }
}

impl From<FileStatus> for transcription_pb::FileStatus {
    fn from(status: FileStatus) -> Self {
        match status {
            FileStatus::Pending => Self::Pending,
            FileStatus::Scheduled => Self::Scheduled,
            FileStatus::Transcribing => Self::Transcribing,
            FileStatus::Completed => Self::Completed,
            FileStatus::Error => Self::Error,
            FileStatus::Retrying => Self::Retrying,
            FileStatus::Failed => Self::Failed,
        }
    }
}

impl TryFrom<i32> for FileStatus {
    type Error = WireEnumError;

    fn try_from(value: i32) -> Result<Self, WireEnumError> {
        match transcription_pb::FileStatus::try_from(value) {
            Ok(transcription_pb::FileStatus::Pending) => Ok(Self::Pending),
            Ok(transcription_pb::FileStatus::Scheduled) => Ok(Self::Scheduled),
            Ok(transcription_pb::FileStatus::Transcribing) => Ok(Self::Transcribing),
            Ok(transcription_pb::FileStatus::Completed) => Ok(Self::Completed),
            Ok(transcription_pb::FileStatus::Error) => Ok(Self::Error),
            Ok(transcription_pb::FileStatus::Retrying) => Ok(Self::Retrying),
            Ok(transcription_pb::FileStatus::Failed) => Ok(Self::Failed),
            Ok(transcription_pb::FileStatus::Unspecified) | Err(_) => {
                Err(refused("FileStatus", value))
            }
        }
    }
}

impl From<DownloadStatus> for discovery_pb::DownloadStatus {
    fn from(status: DownloadStatus) -> Self {
        match status {
            DownloadStatus::Pending => Self::Pending,
            DownloadStatus::Processing => Self::Processing,
            DownloadStatus::Completed => Self::Completed,
            DownloadStatus::Failed => Self::Failed,
        }
    }
}

impl TryFrom<i32> for DownloadStatus {
    type Error = WireEnumError;

    fn try_from(value: i32) -> Result<Self, WireEnumError> {
        match discovery_pb::DownloadStatus::try_from(value) {
            Ok(discovery_pb::DownloadStatus::Pending) => Ok(Self::Pending),
            Ok(discovery_pb::DownloadStatus::Processing) => Ok(Self::Processing),
            Ok(discovery_pb::DownloadStatus::Completed) => Ok(Self::Completed),
            Ok(discovery_pb::DownloadStatus::Failed) => Ok(Self::Failed),
            Ok(discovery_pb::DownloadStatus::Unspecified) | Err(_) => {
                Err(refused("DownloadStatus", value))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scribevault_proto::tonic::Code;

    #[test]
    fn every_source_type_goes_to_the_wire_and_back() {
        for kind in SourceType::ALL {
            let wire = library_pb::SourceType::from(kind);
            assert_eq!(SourceType::try_from(wire as i32), Ok(kind));
            // The proto value's name is the JSON spelling with the enum's prefix.
            assert_eq!(wire.as_str_name(), format!("SOURCE_TYPE_{}", kind.as_str()));
        }
    }

    #[test]
    fn every_review_reason_goes_to_the_wire_and_back() {
        for reason in ReviewReason::ALL {
            let wire = library_pb::ReviewReason::from(reason);
            assert_eq!(ReviewReason::try_from(wire as i32), Ok(reason));
        }
        assert!(ReviewReason::try_from(0).is_err());
        assert!(ReviewReason::try_from(99).is_err());
    }

    #[test]
    fn every_status_goes_to_the_wire_and_back() {
        for status in [
            FileStatus::Pending,
            FileStatus::Scheduled,
            FileStatus::Transcribing,
            FileStatus::Completed,
            FileStatus::Error,
            FileStatus::Retrying,
            FileStatus::Failed,
        ] {
            let wire = transcription_pb::FileStatus::from(status) as i32;
            assert_eq!(FileStatus::try_from(wire), Ok(status));
        }
        for status in [
            DownloadStatus::Pending,
            DownloadStatus::Processing,
            DownloadStatus::Completed,
            DownloadStatus::Failed,
        ] {
            let wire = discovery_pb::DownloadStatus::from(status) as i32;
            assert_eq!(DownloadStatus::try_from(wire), Ok(status));
        }
    }

    #[test]
    fn unspecified_and_unknown_values_are_invalid_arguments() {
        for value in [0, 99, -1] {
            let error = SourceType::try_from(value).unwrap_err();
            assert_eq!(Status::from(error).code(), Code::InvalidArgument);
            assert!(FileStatus::try_from(value).is_err());
            assert!(DownloadStatus::try_from(value).is_err());
            assert!(TranscriptSource::try_from(value).is_err());
        }
    }

    #[test]
    fn every_transcript_source_goes_to_the_wire_and_back() {
        for source in TranscriptSource::ALL {
            let wire = library_pb::TranscriptSource::from(source);
            assert_eq!(TranscriptSource::try_from(wire as i32), Ok(source));
        }
    }
}
