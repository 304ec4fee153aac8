//! `scribevault`: one binary, every target. `scribevault all` (the default) runs every service in
//! one process; `scribevault <target>` runs one, for microservice deployments.

mod admin;
mod backends;
mod cli;
mod listening;
mod model_fetch;
mod targets;
mod vault_export;

use clap::Parser as _;

fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    let settings = match scribevault_core::Settings::load(cli.config.as_deref()) {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("scribevault: {error}");
            return std::process::ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("scribevault: cannot start the async runtime: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let target = cli.target.unwrap_or_default();
    // The OTLP exporter needs the runtime's reactor while it is built.
    let _runtime_context = runtime.enter();
    let _telemetry = scribevault_core::telemetry::init(
        &format!("scribevault-{}", target.name()),
        settings.log_format == "json",
    );
    match runtime.block_on(targets::run(target, settings)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(error = format!("{error:#}"), "scribevault stopped");
            eprintln!("scribevault: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
