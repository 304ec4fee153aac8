//! `scribevault export --user <email> --to <dir>`: one account's Vault as a folder of Obsidian
//! notes, brought up to date on each run (crates/library/src/export/folder/mod.rs says how).
//!
//! It reads what the servers read, with the same settings: the account from the gateway's
//! members, the items from the library's database and the blob store. Where the gateway and
//! the library keep separate databases (one per service, as in k8s/), the gateway's is named
//! by `--accounts-database-url`.

use std::path::PathBuf;

use anyhow::Context as _;
use scribevault_core::Settings;
use scribevault_gateway::operator::Operator;
use scribevault_library::{FolderExportOptions, FolderExporter};

/// `scribevault export …`
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct ExportArgs {
    /// The account whose Vault is exported, by its sign-in email.
    #[arg(long, value_name = "EMAIL")]
    pub user: String,
    /// The folder to write (created if missing): an Obsidian vault, or a folder inside one.
    /// Notes go at its top, attachments in `attachments/`, and `.scribevault-export.json`
    /// records what was written, so export each account to its own folder.
    #[arg(long, value_name = "DIR")]
    pub to: PathBuf,
    /// Replace exported files that were edited in the folder (by default they are kept, and
    /// listed).
    #[arg(long)]
    pub overwrite_local_edits: bool,
    /// The gateway's database, when it is not SCRIBEVAULT_DATABASE_URL (one database per
    /// service): where accounts are looked up by email.
    #[arg(
        long,
        env = "SCRIBEVAULT_ACCOUNTS_DATABASE_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub accounts_database_url: Option<String>,
}

/// Exports and prints what changed.
///
/// # Errors
/// Unknown email, a database, blob store or folder that cannot be used; each message names
/// what to fix.
pub async fn run(settings: &Settings, args: ExportArgs) -> anyhow::Result<()> {
    let library_db = crate::backends::database(settings).await?;
    let accounts_db = match &args.accounts_database_url {
        Some(url) => scribevault_db::connect_with_pool(url, 1)
            .await
            .context("SCRIBEVAULT_ACCOUNTS_DATABASE_URL")?,
        None => library_db.clone(),
    };
    let member = Operator::open(accounts_db)
        .await?
        .member_by_email(&args.user)
        .await?;
    let blobs = crate::backends::blob_store(settings).await?;
    let summary = FolderExporter::open(library_db, blobs)
        .await?
        .export(
            &member.user_id,
            &args.to,
            FolderExportOptions {
                overwrite_local_edits: args.overwrite_local_edits,
            },
        )
        .await?;
    println!(
        "{}: {} items exported to {}: written {}, unchanged {}, removed {}",
        member.email,
        summary.items,
        args.to.display(),
        summary.written,
        summary.unchanged,
        summary.removed,
    );
    if !summary.kept_local_edits.is_empty() {
        println!(
            "kept {} file(s) edited in the folder (--overwrite-local-edits replaces them):",
            summary.kept_local_edits.len()
        );
        for path in &summary.kept_local_edits {
            println!("  {path}");
        }
    }
    Ok(())
}
