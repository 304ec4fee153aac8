//! The folder export (`scribevault export`): a user's Vault as notes with front matter and
//! attachments, kept in line with the Vault by rerunning it, on the real store and blob store.

use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use scribevault_library::{
    FOLDER_EXPORT_MANIFEST, FolderExportError, FolderExportOptions, FolderExportSummary,
    FolderExporter, NoteFrontMatter,
};
use scribevault_proto::library::v1 as pb;

use crate::helpers::{TestApp, ingest_request, spawn_app, spawn_app_on_postgres};

const ALICE: &str = "alice";
const BOB: &str = "bob";
const SEGMENTS: &[u8] = br#"[{"startMs":0,"endMs":2500,"text":" Hello there."},{"startMs":2500,"endMs":61000,"text":" Second & last."}]"#;
const PDF: &[u8] = b"%PDF-1.4\n% not a real PDF, only bytes to copy\n%%EOF\n";

async fn exporter(app: &TestApp) -> FolderExporter {
    let db = scribevault_db::connect(&app.db.url)
        .await
        .expect("open the test database");
    FolderExporter::open(db, Arc::clone(&app.blobs))
        .await
        .expect("open the exporter")
}

async fn export(app: &TestApp, user: &str, dir: &Path) -> FolderExportSummary {
    exporter(app)
        .await
        .export(user, dir, FolderExportOptions::default())
        .await
        .expect("export the vault")
}

/// The front matter and body of a note.
fn read_note(path: &Path) -> (NoteFrontMatter, String) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rest = text.strip_prefix("---\n").expect("front matter first");
    let (yaml, body) = rest.split_once("\n---\n").expect("front matter closed");
    let front_matter = serde_norway::from_str(yaml).unwrap_or_else(|e| panic!("{e}: {yaml}"));
    (front_matter, body.to_owned())
}

/// Every file under `dir` (but the manifest and the lock), as paths relative to it.
fn files_in(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let relative = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                if !relative.starts_with(".scribevault-export") {
                    files.push(relative);
                }
            }
        }
    }
    files.sort();
    files
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

fn summary(written: u64, unchanged: u64, removed: u64) -> (u64, u64, u64) {
    (written, unchanged, removed)
}

fn counts(summary: &FolderExportSummary) -> (u64, u64, u64) {
    (summary.written, summary.unchanged, summary.removed)
}

struct Vault {
    talk: String,
    notes: String,
    pdf: String,
}

/// Alice: a timed talk (tagged, rated), plain notes, a converted PDF with its original. Bob:
/// one item that must never reach Alice's folder.
async fn fill(app: &TestApp) -> Vault {
    app.put_blob(ALICE, "transcripts/j/f.segments.json", SEGMENTS)
        .await;
    let mut talk = ingest_request("t:1", "Talk: soil & roots", "Hello there. Second & last.");
    talk.segments_path = Some("transcripts/j/f.segments.json".into());
    talk.duration_seconds = Some(61.4);
    let talk = app.ingest_item(ALICE, talk).await;
    app.tag(ALICE, &talk, &["soil", "talks \"live\"", "1984"])
        .await;
    app.rate(ALICE, &talk, 4).await.unwrap();

    let notes = app
        .ingest_item(
            ALICE,
            ingest_request("t:2", "Plain notes", "# Notes\n\nMulch."),
        )
        .await;

    app.put_blob(ALICE, "converted/pdfs/abc.pdf", PDF).await;
    let mut pdf = ingest_request("t:3", "A converted paper", "The paper's text.");
    pdf.file_name = Some("converted/pdfs/abc.md".into());
    let pdf = app.ingest_item(ALICE, pdf).await;

    app.ingest_item(
        BOB,
        ingest_request("t:1", "Bob's secret", "Nobody else reads this."),
    )
    .await;
    Vault { talk, notes, pdf }
}

fn stem_of(dir: &Path, id: &str) -> String {
    let digits: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
    let short = &digits[digits.len() - 8..];
    files_in(dir)
        .into_iter()
        .find_map(|file| {
            file.strip_suffix(".md")
                .filter(|stem| stem.ends_with(&short.to_ascii_lowercase()) && !stem.contains('/'))
                .map(str::to_owned)
        })
        .unwrap_or_else(|| panic!("no note of {id} in {:?}", files_in(dir)))
}

/// The notes' file stems, as the first run named them.
struct Stems {
    talk: String,
    notes: String,
    pdf: String,
}

async fn a_vault_becomes_a_folder_that_follows_it(app: &TestApp) {
    let vault = fill(app).await;
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().join("Scribevault");
    let stems = first_run_writes_a_note_per_item(app, &vault, &dir).await;
    reruns_write_only_what_changed(app, &vault, &dir, &stems).await;
    deleted_items_go_and_the_users_files_stay(app, &vault, &dir, &stems).await;
    told_to_a_run_replaces_local_edits(app, &dir, &stems).await;
    another_account_sees_only_its_own(app, folder.path(), &dir).await;
}

async fn first_run_writes_a_note_per_item(app: &TestApp, vault: &Vault, dir: &Path) -> Stems {
    // First run: a note per item, attachments beside, nothing of Bob's.
    let first = export(app, ALICE, dir).await;
    assert_eq!(first.items, 3);
    assert_eq!(counts(&first), summary(7, 0, 0), "{first:?}");
    assert!(first.kept_local_edits.is_empty());
    let talk = stem_of(dir, &vault.talk);
    let notes = stem_of(dir, &vault.notes);
    let pdf = stem_of(dir, &vault.pdf);
    assert!(talk.starts_with("talk-soil-roots-"), "{talk}");
    let mut expected = vec![
        format!("{talk}.md"),
        format!("attachments/{talk}.srt"),
        format!("attachments/{talk}.vtt"),
        format!("attachments/{talk}.segments.json"),
        format!("{notes}.md"),
        format!("{pdf}.md"),
        format!("attachments/{pdf}.pdf"),
    ];
    expected.sort();
    assert_eq!(files_in(dir), expected);

    check_talk_note(dir, vault, &talk);
    check_pdf_and_plain_notes(dir, &pdf, &notes);
    Stems { talk, notes, pdf }
}

fn check_talk_note(dir: &Path, vault: &Vault, talk: &str) {
    let (front, body) = read_note(&dir.join(format!("{talk}.md")));
    assert_eq!(front.title, "Talk: soil & roots");
    assert_eq!(front.aliases, ["Talk: soil & roots"]);
    assert_eq!(front.id, vault.talk);
    assert_eq!(front.source_type, "AUDIO");
    assert_eq!(front.tags, ["_1984", "soil", "talks-live"]);
    assert_eq!(front.rating, Some(4));
    assert_eq!(front.duration_seconds, Some(61));
    assert!(!front.starred);
    chrono::DateTime::parse_from_rfc3339(&front.created).expect("created is RFC 3339");
    chrono::DateTime::parse_from_rfc3339(&front.updated).expect("updated is RFC 3339");
    assert!(
        body.starts_with("\nHello there. Second & last.\n"),
        "{body}"
    );
    assert!(
        body.contains(&format!("- [Subtitles (SRT)](attachments/{talk}.srt)")),
        "{body}"
    );
    let srt = std::fs::read_to_string(dir.join(format!("attachments/{talk}.srt"))).unwrap();
    assert!(
        srt.starts_with("1\n00:00:00,000 --> 00:00:02,500\nHello there.\n"),
        "{srt}"
    );
    let segments: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join(format!("attachments/{talk}.segments.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(segments[1]["end"], 61.0);
}

fn check_pdf_and_plain_notes(dir: &Path, pdf: &str, notes: &str) {
    let (pdf_front, pdf_body) = read_note(&dir.join(format!("{pdf}.md")));
    assert_eq!(pdf_front.title, "A converted paper");
    assert!(
        pdf_body.contains(&format!("(attachments/{pdf}.pdf)")),
        "{pdf_body}"
    );
    assert_eq!(
        std::fs::read(dir.join(format!("attachments/{pdf}.pdf"))).unwrap(),
        PDF
    );
    let (notes_front, notes_body) = read_note(&dir.join(format!("{notes}.md")));
    assert!(notes_front.tags.is_empty() && notes_front.rating.is_none());
    assert_eq!(notes_body, "\n# Notes\n\nMulch.\n");
    for file in files_in(dir) {
        let bytes = std::fs::read(dir.join(&file)).unwrap();
        assert!(
            !String::from_utf8_lossy(&bytes).contains("Bob's secret"),
            "{file} holds another user's item"
        );
    }
}

async fn reruns_write_only_what_changed(app: &TestApp, vault: &Vault, dir: &Path, stems: &Stems) {
    let Stems { talk, .. } = stems;
    // The user's own files in the folder, and a rerun with nothing changed: nothing written.
    std::fs::write(dir.join("my own note.md"), "mine").unwrap();
    std::fs::write(dir.join("attachments/mine.txt"), "mine too").unwrap();
    let talk_written_at = modified(&dir.join(format!("{talk}.md")));
    let second = export(app, ALICE, dir).await;
    assert_eq!(counts(&second), summary(0, 7, 0), "{second:?}");
    assert_eq!(modified(&dir.join(format!("{talk}.md"))), talk_written_at);

    // One changed item: only its note is written, under the same name after a rename.
    app.metadata(
        ALICE,
        pb::UpdateTranscriptMetadataRequest {
            id: vault.talk.clone(),
            title: Some("Roots, renamed".into()),
            ..pb::UpdateTranscriptMetadataRequest::default()
        },
    )
    .await
    .unwrap();
    let third = export(app, ALICE, dir).await;
    assert_eq!(counts(&third), summary(1, 6, 0), "{third:?}");
    let (renamed, _) = read_note(&dir.join(format!("{talk}.md")));
    assert_eq!(renamed.title, "Roots, renamed");
    assert_eq!(renamed.aliases, ["Roots, renamed"]);
    assert_eq!(stem_of(dir, &vault.talk), *talk);
}

async fn deleted_items_go_and_the_users_files_stay(
    app: &TestApp,
    vault: &Vault,
    dir: &Path,
    stems: &Stems,
) {
    let Stems { notes, pdf, .. } = stems;
    // A deleted item's files go; the user's files stay.
    app.delete(ALICE, &vault.pdf).await.unwrap();
    let fourth = export(app, ALICE, dir).await;
    assert_eq!(counts(&fourth), summary(0, 5, 2), "{fourth:?}");
    assert!(!dir.join(format!("{pdf}.md")).exists());
    assert!(!dir.join(format!("attachments/{pdf}.pdf")).exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("my own note.md")).unwrap(),
        "mine"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("attachments/mine.txt")).unwrap(),
        "mine too"
    );

    // A note edited in Obsidian is kept when its item changes, and when it is deleted.
    let notes_path = dir.join(format!("{notes}.md"));
    std::fs::write(&notes_path, "my edit").unwrap();
    app.update_content(ALICE, &vault.notes, "# Notes\n\nMulch and compost.")
        .await
        .unwrap();
    let fifth = export(app, ALICE, dir).await;
    assert_eq!(counts(&fifth), summary(0, 4, 0), "{fifth:?}");
    assert_eq!(fifth.kept_local_edits, [format!("{notes}.md")]);
    assert_eq!(std::fs::read_to_string(&notes_path).unwrap(), "my edit");
    app.delete(ALICE, &vault.notes).await.unwrap();
    let sixth = export(app, ALICE, dir).await;
    assert_eq!(counts(&sixth), summary(0, 4, 0), "{sixth:?}");
    assert_eq!(std::fs::read_to_string(&notes_path).unwrap(), "my edit");
}

async fn told_to_a_run_replaces_local_edits(app: &TestApp, dir: &Path, stems: &Stems) {
    let talk = &stems.talk;
    // Told to, a run replaces local edits: a deleted note is written again.
    std::fs::remove_file(dir.join(format!("{talk}.md"))).unwrap();
    std::fs::write(dir.join(format!("attachments/{talk}.srt")), "edited").unwrap();
    let seventh = exporter(app)
        .await
        .export(
            ALICE,
            dir,
            FolderExportOptions {
                overwrite_local_edits: true,
            },
        )
        .await
        .unwrap();
    assert_eq!(counts(&seventh), summary(2, 2, 0), "{seventh:?}");
    assert!(
        std::fs::read_to_string(dir.join(format!("attachments/{talk}.srt")))
            .unwrap()
            .starts_with("1\n")
    );
}

async fn another_account_sees_only_its_own(app: &TestApp, folder: &Path, dir: &Path) {
    // Another account's run into this folder is refused; in its own folder it sees only its
    // own item.
    let refused = exporter(app)
        .await
        .export(BOB, dir, FolderExportOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(refused, FolderExportError::AnotherAccountsFolder(_)),
        "{refused}"
    );
    let bobs = folder.join("Bob");
    let bob = export(app, BOB, &bobs).await;
    assert_eq!((bob.items, bob.written), (1, 1));
    let only = files_in(&bobs);
    assert_eq!(only.len(), 1, "{only:?}");
    assert!(only[0].starts_with("bob-s-secret-"), "{only:?}");
    assert!(bobs.join(FOLDER_EXPORT_MANIFEST).is_file());
}

#[tokio::test]
async fn a_vault_becomes_a_folder_that_follows_it_on_sqlite() {
    let app = spawn_app().await;
    a_vault_becomes_a_folder_that_follows_it(&app).await;
}

#[tokio::test]
async fn a_vault_becomes_a_folder_that_follows_it_on_postgres() {
    let Some(app) =
        spawn_app_on_postgres("a_vault_becomes_a_folder_that_follows_it_on_postgres").await
    else {
        return;
    };
    a_vault_becomes_a_folder_that_follows_it(&app).await;
}

#[tokio::test]
async fn a_folder_that_cannot_be_used_is_named_and_left_alone() {
    let app = spawn_app().await;
    app.ingest_item(ALICE, ingest_request("t:1", "One", "Text."))
        .await;
    let folder = tempfile::tempdir().unwrap();

    // Under a file: the folder cannot be made (permissions cannot show it: tests run as root).
    let file = folder.path().join("a file");
    std::fs::write(&file, "x").unwrap();
    let exporter = exporter(&app).await;
    let error = exporter
        .export(ALICE, &file.join("vault"), FolderExportOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, FolderExportError::Unwritable { .. }),
        "{error}"
    );
    assert!(error.to_string().starts_with("cannot write to "), "{error}");
    let error = exporter
        .export(ALICE, &file, FolderExportOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, FolderExportError::NotADirectory(_)),
        "{error}"
    );

    // Another run holds the folder.
    let dir = folder.path().join("vault");
    std::fs::create_dir(&dir).unwrap();
    let lock = std::fs::File::create(dir.join(".scribevault-export.lock")).unwrap();
    lock.try_lock().unwrap();
    let error = exporter
        .export(ALICE, &dir, FolderExportOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(error, FolderExportError::Busy(_)), "{error}");
    drop(lock);

    // A manifest naming a file outside the folder: refused before anything is touched.
    let outside = folder.path().join("outside.md");
    std::fs::write(&outside, "precious").unwrap();
    std::fs::write(
        dir.join(FOLDER_EXPORT_MANIFEST),
        r#"{"format":1,"userId":"alice","items":{"gone":{"stem":"x","files":{"../outside.md":{"sha256":"","size":8}}}}}"#,
    )
    .unwrap();
    let error = exporter
        .export(ALICE, &dir, FolderExportOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, FolderExportError::DamagedManifest { .. }),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious");
    assert_eq!(files_in(&dir), Vec::<String>::new());
}
