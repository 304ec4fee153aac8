//! Watches an upload stream go by: hashes it, counts it against the limit, and decides from its
//! first bytes whether it is MP3, without ever holding the whole body.

use std::sync::{Mutex, PoisonError};

use sha2::{Digest as _, Sha256};

use super::mp3_check::{AUDIO_PREFIX_BYTES, Mp3Verdict, audio_offset, check_mp3_prefix};
use crate::error::StorageError;

/// Watches an upload go by: hashes it, counts it, and decides from its start whether it is MP3.
pub struct UploadInspection {
    pub hasher: Sha256,
    size: u64,
    limit: u64,
    /// What the user's quota leaves, and the error that going past it gives.
    room: Option<(u64, StorageError)>,
    /// The first bytes, until the audio offset is known (at most an ID3 header).
    head: Vec<u8>,
    audio_offset: Option<usize>,
    audio_prefix: Vec<u8>,
    verdict: Mp3Verdict,
    pub refused: Option<StorageError>,
}

impl UploadInspection {
    pub fn new(limit: u64) -> Self {
        Self {
            hasher: Sha256::new(),
            size: 0,
            limit,
            room: None,
            head: Vec::new(),
            audio_offset: None,
            audio_prefix: Vec::new(),
            verdict: Mp3Verdict::NeedMore,
            refused: None,
        }
    }

    /// Refuses the upload with `refusal` once it is larger than `room` bytes.
    pub fn with_room(mut self, room: u64, refusal: StorageError) -> Self {
        self.room = Some((room, refusal));
        self
    }

    pub fn inspect(&mut self, chunk: &[u8]) -> Result<(), ()> {
        let start = self.size;
        self.size += chunk.len() as u64;
        if self
            .room
            .as_ref()
            .is_some_and(|(room, _)| self.size > *room)
        {
            self.refused = self.room.take().map(|(_, refusal)| refusal);
            return Err(());
        }
        if self.size > self.limit {
            self.refused = Some(StorageError::TooLarge {
                limit_mb: self.limit / (1024 * 1024),
            });
            return Err(());
        }
        self.hasher.update(chunk);
        if self.verdict != Mp3Verdict::NeedMore {
            return Ok(());
        }
        if self.audio_offset.is_none() {
            self.head.extend_from_slice(
                &chunk[..chunk.len().min(10usize.saturating_sub(self.head.len()))],
            );
            match audio_offset(&self.head) {
                Err(reason) => return self.refuse(reason),
                Ok(usize::MAX) => {}
                Ok(offset) if self.head.len() >= 10 || offset == 0 => {
                    self.audio_offset = Some(offset)
                }
                Ok(_) => {}
            }
        }
        if let Some(offset) = self.audio_offset {
            let offset = offset as u64;
            let end = self.size;
            if end > offset {
                let from = usize::try_from(offset.saturating_sub(start))
                    .unwrap_or(usize::MAX)
                    .min(chunk.len());
                let room = AUDIO_PREFIX_BYTES - self.audio_prefix.len();
                let take = (chunk.len() - from).min(room);
                self.audio_prefix
                    .extend_from_slice(&chunk[from..from + take]);
                if self.audio_prefix.len() >= AUDIO_PREFIX_BYTES {
                    self.verdict = check_mp3_prefix(&self.audio_prefix, false);
                    self.audio_prefix = Vec::new();
                    if let Mp3Verdict::NotMp3(reason) = self.verdict.clone() {
                        return self.refuse(reason);
                    }
                }
            }
        }
        Ok(())
    }

    fn refuse(&mut self, detail: String) -> Result<(), ()> {
        self.refused = Some(StorageError::NotMp3 { detail });
        Err(())
    }

    /// The verdict once the whole body has been seen.
    pub fn finish(&mut self) -> Result<(), StorageError> {
        if self.verdict == Mp3Verdict::NeedMore {
            self.verdict = match self.audio_offset {
                _ if self.size == 0 => Mp3Verdict::NotMp3("the file is empty".into()),
                Some(offset) if (offset as u64) < self.size => {
                    check_mp3_prefix(&self.audio_prefix, true)
                }
                _ => Mp3Verdict::NotMp3("the file ends inside its ID3 tag".into()),
            };
        }
        match &self.verdict {
            Mp3Verdict::NotMp3(reason) => Err(StorageError::NotMp3 {
                detail: reason.clone(),
            }),
            _ => Ok(()),
        }
    }
}

pub fn lock(inspection: &Mutex<UploadInspection>) -> std::sync::MutexGuard<'_, UploadInspection> {
    inspection.lock().unwrap_or_else(PoisonError::into_inner)
}
