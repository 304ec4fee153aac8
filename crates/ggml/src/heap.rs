//! glibc's allocator, told to give back what a long transcription frees.
//!
//! whisper.cpp allocates a few large temporaries on every call, in proportion to the audio it
//! is given (a padded copy of the samples, the mel spectrogram, the signal energy for token
//! times: about 10 bytes per sample, some 20 MB for 120 s). glibc raises its mmap threshold to
//! the size of the largest block freed so far (up to 32 MiB), so after the first call these
//! blocks come from the heap, and a later, longer call that does not fit in the holes the
//! earlier ones left grows the heap by the whole set while the holes stay resident: peak RSS
//! then steps up each time a call is longer than every call before it, a third of the way into
//! a 3-hour file (`docs/performance.md`, "Memory while transcribing long files"). A fixed
//! threshold maps every block from [`LARGE_ALLOCATION`] up on its own and unmaps it when freed.
//!
//! Only glibc has these knobs; elsewhere the functions do nothing and say so.

/// Blocks of this size and more get their own mapping: above the largest per-token buffer of
/// whisper.cpp (a vocabulary's logits, 207 KB with the English models) and below its per-call
/// temporaries.
pub const LARGE_ALLOCATION: usize = 1 << 20;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use std::ffi::c_int;

    /// `M_MMAP_THRESHOLD` in glibc's `malloc.h`.
    pub(super) const M_MMAP_THRESHOLD: c_int = -3;

    // The declarations of two glibc functions (malloc.h); each call site says why it is sound.
    #[allow(unsafe_code)]
    unsafe extern "C" {
        pub(super) fn mallopt(param: c_int, value: c_int) -> c_int;
        pub(super) fn malloc_trim(pad: usize) -> c_int;
    }
}

/// Makes glibc map every allocation of [`LARGE_ALLOCATION`] bytes or more on its own and unmap
/// it when it is freed, for the whole process, and stops it raising that threshold. Returns
/// whether the allocator took the setting (false off glibc).
pub fn map_large_allocations() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let threshold = std::ffi::c_int::try_from(LARGE_ALLOCATION).unwrap_or(std::ffi::c_int::MAX);
        // SAFETY: `mallopt` only changes the allocator's parameters; glibc serialises it with
        // every arena's lock, so calling it while other threads allocate is allowed.
        #[allow(unsafe_code)]
        let done = unsafe { glibc::mallopt(glibc::M_MMAP_THRESHOLD, threshold) };
        done == 1
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

/// Returns the free pages of every arena to the system (`malloc_trim(0)`). Returns whether any
/// memory was released (false off glibc).
pub fn release_free_memory() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `malloc_trim` takes each arena's lock and only releases pages of free chunks.
        #[allow(unsafe_code)]
        let released = unsafe { glibc::malloc_trim(0) };
        released == 1
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn glibc_takes_the_threshold_and_trims() {
        assert!(map_large_allocations());
        let block = vec![1u8; 8 * LARGE_ALLOCATION];
        assert_eq!(
            block.iter().map(|b| usize::from(*b)).sum::<usize>(),
            8 * LARGE_ALLOCATION
        );
        drop(block);
        // Whether anything was left to release depends on the test harness's other threads.
        let _ = release_free_memory();
    }
}
