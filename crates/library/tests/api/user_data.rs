//! Deleting everything the library keeps of one user (`DeleteUserData`, called by the gateway
//! on behalf of an account an administrator deletes), and the figure an administrator reads
//! of an account's Vault (`GetLibraryStats.total_transcripts`).

use std::collections::BTreeMap;

use scribevault_proto::library::v1 as pb;
use sea_orm::{ConnectionTrait as _, DatabaseBackend, Statement};
use tonic::Code;

use crate::exports::link_parts;
use crate::helpers::{
    TestApp, as_user, config_with_meaning, embedded, ingest_request, spawn_app_on_postgres_with,
    spawn_app_with,
};

const ALICE: &str = "alice";
const BOB: &str = "bob";

/// What a user was given, to find again (or not) after a deletion.
struct Vault {
    /// Item ids: an audio transcript with segments, a plain one, a saved text file.
    items: Vec<String>,
    /// Signed links of a one-item export and a bulk export.
    links: Vec<String>,
}

/// A Vault touching every table: items (one with segments, one saved from the SPA as TEXT),
/// tags on an item and seeded ones, a section holding an item, two exports, and an object
/// under `exports/`.
async fn fill_vault(app: &TestApp, user: &str, word: &str) -> Vault {
    let [first, second, saved] = ingest_and_save(app, user, word).await;
    tag_and_file_in_a_section(app, user, word, (&first, &second)).await;
    let links = export_one_and_both(app, user, (&first, &second)).await;
    Vault {
        items: vec![first, second, saved],
        links,
    }
}

/// An audio transcript with segments, a plain one, and a text file saved from the SPA.
async fn ingest_and_save(app: &TestApp, user: &str, word: &str) -> [String; 3] {
    let segments_path = format!("transcripts/job-{user}/file-1.segments.json");
    app.put_blob(
        user,
        &segments_path,
        br#"[{"startMs":0,"endMs":4000,"text":" Welcome."},{"startMs":4000,"endMs":9000,"text":" Garlic likes soil."}]"#,
    )
    .await;
    let mut with_segments = ingest_request(
        &format!("transcription:{user}-1"),
        &format!("Garden show of {user}"),
        &format!("Welcome. Garlic likes soil. {word}"),
    );
    with_segments.segments_path = Some(segments_path);
    with_segments.file_name = Some(format!("transcripts/job-{user}/file-1.txt"));
    let first = app.ingest_item(user, with_segments).await;
    let second = app
        .ingest_item(
            user,
            ingest_request(
                &format!("transcription:{user}-2"),
                "Second talk",
                &format!("Mulch and compost. {word}"),
            ),
        )
        .await;
    let saved = app
        .client
        .clone()
        .save_to_vault(as_user(
            user,
            pb::SaveToVaultRequest {
                files: vec![pb::VaultFile {
                    title: "Notes".to_owned(),
                    content: format!("Plain notes. {word}"),
                    path: "notes/plain.txt".to_owned(),
                }],
            },
        ))
        .await
        .expect("SaveToVault")
        .into_inner()
        .saved
        .remove(0);
    assert_eq!(saved.source_type(), pb::SourceType::Text);

    [first, second, saved.id]
}

async fn tag_and_file_in_a_section(
    app: &TestApp,
    user: &str,
    word: &str,
    (first, second): (&str, &str),
) {
    app.tag(user, first, &["soil", word]).await;
    app.client
        .clone()
        .init_tags(as_user(user, pb::InitTagsRequest {}))
        .await
        .expect("InitTags");
    let section = app
        .client
        .clone()
        .create_syllabus_section(as_user(
            user,
            pb::CreateSyllabusSectionRequest {
                title: "Basics".to_owned(),
                description: "First steps".to_owned(),
            },
        ))
        .await
        .expect("CreateSyllabusSection")
        .into_inner();
    app.metadata(
        user,
        pb::UpdateTranscriptMetadataRequest {
            id: second.to_owned(),
            section_id: Some(section.id),
            ..pb::UpdateTranscriptMetadataRequest::default()
        },
    )
    .await
    .expect("put the item in the section");
}

/// A one-item export and a bulk export (their signed links), and an object under `exports/`.
async fn export_one_and_both(
    app: &TestApp,
    user: &str,
    (first, second): (&str, &str),
) -> Vec<String> {
    let one = app
        .client
        .clone()
        .export_transcript(as_user(
            user,
            pb::ExportTranscriptRequest {
                id: first.to_owned(),
                format: "srt".to_owned(),
            },
        ))
        .await
        .expect("ExportTranscript")
        .into_inner();
    let bulk = app
        .client
        .clone()
        .export_transcripts_bulk(as_user(
            user,
            pb::ExportTranscriptsBulkRequest {
                ids: vec![first.to_owned(), second.to_owned()],
                format: "markdown".to_owned(),
            },
        ))
        .await
        .expect("ExportTranscriptsBulk")
        .into_inner();
    // An object in the library's own folder (none is written there today; any would be the
    // user's exports).
    app.put_blob(user, "exports/kept.zip", b"PK").await;
    vec![one.download_url, bulk.download_url]
}

async fn delete_user_data(app: &TestApp, user: &str) -> pb::DeleteUserDataResponse {
    app.client
        .clone()
        .delete_user_data(as_user(user, pb::DeleteUserDataRequest {}))
        .await
        .expect("DeleteUserData")
        .into_inner()
}

/// Follows a signed link to its end. Sent with `user`'s identity, as every call through the
/// gateway is; the link's signature is what grants the file.
async fn follow(app: &TestApp, user: &str, link: &str) -> Result<(), tonic::Status> {
    let mut stream = app
        .client
        .clone()
        .download_export(as_user(user, link_parts(link)))
        .await?
        .into_inner();
    while stream.message().await?.is_some() {}
    Ok(())
}

/// Keys of every object under `users/<user>/`.
async fn objects_of(app: &TestApp, user: &str) -> Vec<String> {
    app.blobs
        .list(&format!("users/{user}/"))
        .await
        .expect("list the blobs")
        .into_iter()
        .map(|object| object.key)
        .collect()
}

/// Items the SQLite full-text index itself holds for `word` (its own rows, not the items').
async fn indexed_on_sqlite(app: &TestApp, word: &str) -> Option<i64> {
    let db = scribevault_db::connect(&app.db.url).await.unwrap();
    if db.get_database_backend() != DatabaseBackend::Sqlite {
        return None;
    }
    let count = db
        .query_one_raw(Statement::from_sql_and_values(
            DatabaseBackend::Sqlite,
            "SELECT COUNT(*) AS n FROM library_fts WHERE library_fts MATCH ?",
            [word.into()],
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get::<i64>("", "n")
        .unwrap();
    db.close().await.ok();
    Some(count)
}

/// The tables' counts, with FTS5's own storage (`library_fts_*`, whose row counts follow its
/// segment layout, not the items) apart: the number of documents it indexes is its
/// `docsize` table's count, which [`indexed_on_sqlite`] cross-checks by word.
/// Waits for the items' vectors where the database can hold them (not a PostgreSQL without
/// pgvector).
async fn embedded_if_possible(app: &TestApp, count: i64) {
    if !app.db.is_postgres() || app.db.has_pgvector().await {
        embedded(app, count).await;
    }
}

async fn counts(app: &TestApp) -> (BTreeMap<String, i64>, Option<i64>) {
    let mut counts = app.db.table_counts().await.unwrap();
    let documents = counts.get("library_fts_docsize").copied();
    // The search indexes' own tables (FTS5's, sqlite-vec's) follow the items; compared apart.
    counts.retain(|table, _| {
        !table.starts_with("library_fts_") && !table.starts_with("library_chunk_vectors")
    });
    if counts.get("library_item_vectors") == Some(&0) && app.db.is_postgres() {
        eprintln!(
            "\n!!!! this PostgreSQL has no pgvector: the chunk tables stay empty and are not compared !!!!"
        );
        counts.remove("library_item_vectors");
        counts.remove("library_chunks");
    }
    (counts, documents)
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_sqlite() {
    let Some(config) =
        config_with_meaning("deleting_a_users_data_leaves_nothing_of_theirs_on_sqlite")
    else {
        return;
    };
    deletion_removes_the_caller_only(spawn_app_with(config).await).await;
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_postgresql() {
    let test_name = "library_delete_user_data_on_postgresql";
    let Some(config) = config_with_meaning(test_name) else {
        return;
    };
    let Some(app) = spawn_app_on_postgres_with(test_name, config).await else {
        return;
    };
    deletion_removes_the_caller_only(app).await;
}

/// Alice finds nothing; her links lead nowhere.
async fn alice_finds_nothing(app: &TestApp, alice: &Vault) {
    assert!(app.all_items(ALICE).await.is_empty());
    assert_eq!(app.stats(ALICE).await.total_transcripts, 0);
    let tags = app
        .client
        .clone()
        .list_tags(as_user(ALICE, pb::ListTagsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .tags;
    assert!(tags.is_empty(), "{tags:?}");
    let sections = app
        .client
        .clone()
        .list_syllabus_sections(as_user(ALICE, pb::ListSyllabusSectionsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .sections;
    assert!(sections.is_empty(), "{sections:?}");
    for id in &alice.items {
        assert_eq!(
            app.content(ALICE, id).await.unwrap_err().code(),
            Code::NotFound
        );
    }
    for link in &alice.links {
        assert_eq!(
            follow(app, ALICE, link).await.unwrap_err().code(),
            Code::NotFound
        );
    }
    assert!(app.titles(ALICE, &[("q", "aliceword")]).await.is_empty());
}

/// Bob keeps everything: items, search with segments, tags, section, exports.
async fn bob_keeps_everything(app: &TestApp, bob: &Vault) {
    assert_eq!(app.all_items(BOB).await.len(), 3);
    assert_eq!(app.stats(BOB).await.total_transcripts, 3);
    let hits = app.query(BOB, &[("q", "garlic")]).await.unwrap();
    assert_eq!(hits.transcripts.len(), 1);
    assert_eq!(hits.transcripts[0].matches.len(), 1, "his segments stay");
    assert_eq!(app.hit_set(BOB, &[("q", "bobword")]).await.len(), 3);
    for link in &bob.links {
        follow(app, BOB, link)
            .await
            .expect("his exports still download");
    }
    assert!(
        app.content(BOB, &bob.items[0])
            .await
            .unwrap()
            .contains("bobword")
    );
}

async fn deletion_removes_the_caller_only(app: TestApp) {
    let bob = fill_vault(&app, BOB, "bobword").await;
    embedded_if_possible(&app, 3).await;
    let (only_bob, bob_documents) = counts(&app).await;
    let bob_objects = objects_of(&app, BOB).await;

    let alice = fill_vault(&app, ALICE, "aliceword").await;
    embedded_if_possible(&app, 6).await;
    let (with_alice, alice_documents) = counts(&app).await;
    // Every table holds some of Alice's rows, so the comparison below covers every table.
    for (table, count) in &with_alice {
        assert!(
            *count > only_bob[table],
            "{table} holds none of alice's rows: the test would not see them kept"
        );
    }
    assert!(alice_documents.is_none() || alice_documents > bob_documents);
    assert!(
        indexed_on_sqlite(&app, "aliceword")
            .await
            .is_none_or(|n| n == 3)
    );
    // Her Vault counts every item, whatever its source.
    assert_eq!(app.stats(ALICE).await.total_transcripts, 3);
    // The rows the service keeps; `library_fts` is the SQLite index's view of the items.
    let alice_rows: i64 = with_alice
        .iter()
        .filter(|(table, _)| table.as_str() != "library_fts")
        .map(|(table, count)| count - only_bob[table])
        .sum();

    let deleted = delete_user_data(&app, ALICE).await;
    assert_eq!(deleted.rows_deleted, u64::try_from(alice_rows).unwrap());
    assert_eq!(deleted.blobs_deleted, 1, "her exports/kept.zip");

    // Every table, the search index included, is back to Bob's rows alone.
    assert_eq!(counts(&app).await, (only_bob.clone(), bob_documents));
    assert!(
        indexed_on_sqlite(&app, "aliceword")
            .await
            .is_none_or(|n| n == 0)
    );
    assert!(
        indexed_on_sqlite(&app, "bobword")
            .await
            .is_none_or(|n| n == 3)
    );
    // Of her objects only the transcript's segments stay: transcription owns `transcripts/`.
    assert_eq!(
        objects_of(&app, ALICE).await,
        [format!(
            "users/{ALICE}/transcripts/job-{ALICE}/file-1.segments.json"
        )]
    );
    assert_eq!(objects_of(&app, BOB).await, bob_objects);

    alice_finds_nothing(&app, &alice).await;
    bob_keeps_everything(&app, &bob).await;

    // A second call finds nothing and succeeds.
    let again = delete_user_data(&app, ALICE).await;
    assert_eq!((again.rows_deleted, again.blobs_deleted), (0, 0));
    assert_eq!(counts(&app).await, (only_bob, bob_documents));
}
