//! Tables owned by the storage service.

pub mod mp3_upload;
pub mod stored_audio;
