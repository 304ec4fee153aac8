//! Whether this CPU can run the whisper.cpp compiled into the binary: a build made with
//! `-march=native` on a newer machine would otherwise die of SIGILL on the first file. The
//! instruction sets were recorded at build time (`build.rs`).

/// The instruction sets whisper.cpp was compiled to use, comma-separated.
pub const COMPILED_FOR: &str = env!("SCRIBEVAULT_GGML_CPU_FEATURES");

/// Why the worker cannot run here.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "This binary's whisper.cpp was compiled for {needed} but this CPU lacks {missing}: it \
     would crash on the first transcription. Use a build for an older baseline \
     (deploy/ggml-cpu-flags.sh x86-64-v2) or build on this machine (make build)."
)]
pub struct UnsupportedCpu {
    pub needed: String,
    pub missing: String,
}

/// Checks this CPU against [`COMPILED_FOR`].
///
/// # Errors
/// [`UnsupportedCpu`] naming the missing instruction sets.
pub fn check() -> Result<(), UnsupportedCpu> {
    let missing: Vec<&str> = COMPILED_FOR
        .split(',')
        .filter(|feature| !feature.is_empty() && !has(feature))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(UnsupportedCpu {
            needed: COMPILED_FOR.replace(',', ", "),
            missing: missing.join(", "),
        })
    }
}

#[cfg(target_arch = "x86_64")]
fn has(feature: &str) -> bool {
    match feature {
        "sse4.2" => std::arch::is_x86_feature_detected!("sse4.2"),
        "avx" => std::arch::is_x86_feature_detected!("avx"),
        "avx2" => std::arch::is_x86_feature_detected!("avx2"),
        "fma" => std::arch::is_x86_feature_detected!("fma"),
        "f16c" => std::arch::is_x86_feature_detected!("f16c"),
        "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
        "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
        _ => false,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn has(_feature: &str) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_machine_runs_its_own_build() {
        assert_eq!(check(), Ok(()));
    }

    /// A build that lost its SIMD (the SOURCE_DATE_EPOCH trap) shows in whisper.cpp's own
    /// report: on a CPU with AVX2, this build must use it.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn whisper_cpp_was_compiled_with_the_simd_this_cpu_has() {
        let report = whisper_rs::print_system_info();
        if std::arch::is_x86_feature_detected!("avx2") {
            assert!(COMPILED_FOR.contains("avx2"), "{COMPILED_FOR}");
            assert!(report.contains("AVX2 = 1"), "{report}");
        }
    }
}
