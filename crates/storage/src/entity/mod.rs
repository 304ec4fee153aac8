//! Tables owned by the storage service.

pub mod mp3_upload;
pub mod storage_policy;
pub mod stored_audio;
