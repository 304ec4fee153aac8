//! `scribevault export`: the real binary, run as a cron job would run it, beside a running
//! instance on the same data dir.

use std::process::Output;

use crate::helpers::{TEST_SERVICE_KEY, TestApp};

/// Runs `scribevault export <args>` on `app`'s settings.
async fn export(app: &TestApp, args: &[&str]) -> Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"))
        .arg("export")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("SCRIBEVAULT_DATA_DIR", app.data_dir.path())
        .env("SCRIBEVAULT_SERVICE_KEY", TEST_SERVICE_KEY)
        .output()
        .await
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test]
async fn the_command_exports_one_accounts_vault_and_then_only_what_changed() {
    let app = TestApp::spawn().await;
    let (_, alice) = app.sign_up("alice@example.org").await;
    let (_, bob) = app.sign_up("bob@example.org").await;
    app.ingest(&alice, "t:1", "Bread: a primer", "Flour, water, salt.")
        .await;
    app.ingest(&bob, "t:1", "Bob's own", "Not for Alice.").await;
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().join("Obsidian/Scribevault");
    let dir_arg = dir.display().to_string();

    let first = export(&app, &["--user", "Alice@Example.org", "--to", &dir_arg]).await;
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        text(&first.stdout).contains("1 items exported to")
            && text(&first.stdout).contains("written 1, unchanged 0, removed 0"),
        "{}",
        text(&first.stdout)
    );
    let notes: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("bread-a-primer-"), "{notes:?}");
    let note = std::fs::read_to_string(dir.join(&notes[0])).unwrap();
    assert!(
        note.starts_with("---\ntitle: 'Bread: a primer'\n"),
        "{note}"
    );
    assert!(note.ends_with("---\n\nFlour, water, salt.\n"), "{note}");

    let second = export(&app, &["--user", "alice@example.org", "--to", &dir_arg]).await;
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(
        text(&second.stdout).contains("written 0, unchanged 1, removed 0"),
        "{}",
        text(&second.stdout)
    );

    let unknown = export(&app, &["--user", "nobody@example.org", "--to", &dir_arg]).await;
    assert!(!unknown.status.success());
    assert!(
        text(&unknown.stderr).contains("no account with the email nobody@example.org"),
        "{}",
        text(&unknown.stderr)
    );

    let blocker = folder.path().join("a file");
    std::fs::write(&blocker, "x").unwrap();
    let under_a_file = blocker.join("vault").display().to_string();
    let unwritable = export(
        &app,
        &["--user", "alice@example.org", "--to", &under_a_file],
    )
    .await;
    assert!(!unwritable.status.success());
    assert!(
        text(&unwritable.stderr).contains(&format!("cannot write to {under_a_file}")),
        "{}",
        text(&unwritable.stderr)
    );
}
