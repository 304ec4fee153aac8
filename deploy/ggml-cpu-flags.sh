#!/bin/sh
# Prints the GGML_* settings that compile whisper.cpp's CPU code for a named x86-64 baseline
# instead of the build machine (-march=native), for `env $(deploy/ggml-cpu-flags.sh v3) cargo build`.
# whisper-rs-sys passes every GGML_* variable to ggml's cmake. Naming the instruction sets also
# keeps SOURCE_DATE_EPOCH from turning all of them off (ggml/CMakeLists.txt).
#
#   x86-64-v3 (default)  AVX2, FMA, F16C, BMI2: Intel Haswell (2013) / AMD Excavator (2015) and later
#   x86-64-v2            SSE4.2 only: any x86-64 CPU since about 2009; whisper runs 2-4x slower
#   native               the build machine (GGML_NATIVE=ON): fastest there, SIGILL on older CPUs
# Every baseline also turns on llamafile's tinyBLAS matrix kernels (GGML_LLAMAFILE=ON), as
# .cargo/config.toml does for local builds. SCRIBEVAULT_E5_MARCH does the same for the embedding
# engine (crates/embed/build.rs): the image's `cargo chef cook` step runs before that
# file is copied in. tinyBLAS needs AVX; on x86-64-v2 ggml falls back to its own loops.
set -eu
case "${1:-x86-64-v3}" in
  x86-64-v3 | v3)
    echo "GGML_NATIVE=OFF GGML_SSE42=ON GGML_AVX=ON GGML_AVX2=ON GGML_FMA=ON GGML_F16C=ON GGML_BMI2=ON GGML_AVX512=OFF GGML_LLAMAFILE=ON SCRIBEVAULT_E5_MARCH=x86-64-v3" ;;
  x86-64-v2 | v2)
    echo "GGML_NATIVE=OFF GGML_SSE42=ON GGML_AVX=OFF GGML_AVX2=OFF GGML_FMA=OFF GGML_F16C=OFF GGML_BMI2=OFF GGML_AVX512=OFF GGML_LLAMAFILE=ON SCRIBEVAULT_E5_MARCH=x86-64-v2" ;;
  native)
    echo "GGML_NATIVE=ON GGML_LLAMAFILE=ON SCRIBEVAULT_E5_MARCH=native" ;;
  *)
    echo "usage: deploy/ggml-cpu-flags.sh [x86-64-v3|x86-64-v2|native]" >&2
    exit 2 ;;
esac
