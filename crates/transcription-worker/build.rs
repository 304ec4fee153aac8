//! Records which x86 instructions whisper.cpp is being compiled to use, so the worker can refuse
//! to start on a CPU without them (with a message, instead of dying of SIGILL mid-file), and
//! stops a build that would silently compile ggml without any SIMD.
//!
//! whisper-rs-sys hands every `GGML_*` variable to ggml's cmake. Unset, ggml compiles with
//! `-march=native`: the build machine's instructions. With `GGML_NATIVE=OFF` it uses the
//! instruction sets named by `GGML_AVX`, `GGML_AVX2`, …; and when `SOURCE_DATE_EPOCH` is set
//! (reproducible builds, BuildKit) ggml's default turns native off *and* every one of those off.

use std::env;

/// ggml's x86 options and the CPU feature each needs, as `is_x86_feature_detected!` names it.
const OPTIONS: [(&str, &str); 6] = [
    ("GGML_SSE42", "sse4.2"),
    ("GGML_AVX", "avx"),
    ("GGML_AVX2", "avx2"),
    ("GGML_FMA", "fma"),
    ("GGML_F16C", "f16c"),
    ("GGML_BMI2", "bmi2"),
];

fn on(key: &str) -> Option<bool> {
    env::var(key).ok().map(|value| {
        matches!(
            value.to_ascii_uppercase().as_str(),
            "ON" | "1" | "TRUE" | "YES"
        )
    })
}

fn main() {
    for key in ["SOURCE_DATE_EPOCH", "GGML_NATIVE", "GGML_AVX512"]
        .into_iter()
        .chain(OPTIONS.iter().map(|(key, _)| *key))
    {
        println!("cargo:rerun-if-env-changed={key}");
    }
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        println!("cargo:rustc-env=SCRIBEVAULT_GGML_CPU_FEATURES=");
        return;
    }
    let reproducible = env::var_os("SOURCE_DATE_EPOCH").is_some();
    let native = on("GGML_NATIVE").unwrap_or(!reproducible);
    if !native && reproducible && on("GGML_AVX2").is_none() && on("GGML_SSE42").is_none() {
        panic!(
            "SOURCE_DATE_EPOCH is set, so ggml would compile whisper.cpp without any SIMD \
             (several times slower, silently). Name the instruction sets: \
             GGML_NATIVE=OFF GGML_SSE42=ON GGML_AVX=ON GGML_AVX2=ON GGML_FMA=ON GGML_F16C=ON \
             GGML_BMI2=ON (x86-64-v3, what deploy/ggml-cpu-flags.sh prints), or unset \
             SOURCE_DATE_EPOCH."
        );
    }
    let features: Vec<&str> = if native {
        // -march=native: what this (build) machine has.
        host_features()
    } else {
        OPTIONS
            .iter()
            .filter(|(key, _)| on(key).unwrap_or(false))
            .map(|(_, feature)| *feature)
            .chain(on("GGML_AVX512").unwrap_or(false).then_some("avx512f"))
            .collect()
    };
    println!(
        "cargo:rustc-env=SCRIBEVAULT_GGML_CPU_FEATURES={}",
        features.join(",")
    );
}

#[cfg(target_arch = "x86_64")]
fn host_features() -> Vec<&'static str> {
    let mut found = Vec::new();
    macro_rules! detect {
        ($($feature:tt),*) => {$(
            if std::arch::is_x86_feature_detected!($feature) {
                found.push($feature);
            }
        )*};
    }
    detect!("sse4.2", "avx", "avx2", "fma", "f16c", "bmi2", "avx512f");
    found
}

#[cfg(not(target_arch = "x86_64"))]
fn host_features() -> Vec<&'static str> {
    Vec::new()
}
