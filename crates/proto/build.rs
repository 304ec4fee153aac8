//! Compiles `proto/` with protox (pure Rust), so no `protoc` is needed on the machine.

use std::path::PathBuf;

const SERVICES: [&str; 6] = [
    "discovery",
    "storage",
    "transcription",
    "conversion",
    "library",
    "webhooks",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read at run time: a build script binary can be reused from a checkout at another path.
    let proto_root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("../../proto");
    let files: Vec<PathBuf> = SERVICES
        .iter()
        .map(|service| proto_root.join(format!("scribevault/{service}/v1/{service}.proto")))
        .collect();
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    let file_descriptors = protox::compile(&files, [&proto_root])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("scribevault_descriptor.bin"),
        prost::Message::encode_to_vec(&file_descriptors),
    )?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // No default stubs: a service that does not implement one of its RPCs does not build,
        // rather than answering UNIMPLEMENTED at run time.
        .generate_default_stubs(false)
        // Upload and download chunks pass through without copies.
        .bytes(".")
        .compile_fds(file_descriptors)?;
    Ok(())
}
