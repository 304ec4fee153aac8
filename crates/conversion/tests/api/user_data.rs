//! Deleting everything conversion keeps of one user (`DeleteUserData`, called by the gateway
//! on behalf of an account an administrator deletes): templates and converted files.

use scribevault_proto::conversion::v1 as pb;

use crate::helpers::{TestApp, as_user, fixture, spawn_app, spawn_app_on_postgres};

/// What a user converted, to find again (or not) after a deletion.
struct Converted {
    templates: Vec<pb::Template>,
    transcript_markdown: String,
    pdf: pb::PdfConversion,
}

/// Two templates, a transcript converted with one of them (its transcript stays the
/// worker's), and a PDF converted and kept for a premium reprocess.
async fn convert_some(app: &TestApp, user: &str) -> Converted {
    let mut templates = Vec::new();
    for (name, body) in [
        ("Notes", "# {{title}}\n\n{{content}}"),
        ("Brief", "{{content}}"),
    ] {
        templates.push(
            app.client
                .clone()
                .create_template(as_user(
                    user,
                    pb::TemplateInput {
                        name: name.to_owned(),
                        body: body.to_owned(),
                    },
                ))
                .await
                .expect("CreateTemplate")
                .into_inner(),
        );
    }
    app.put_file(
        user,
        "transcripts/j1/f1.txt",
        "Compost needs air and water.",
    )
    .await;
    app.put_file(
        user,
        "transcripts/j1/f1.segments.json",
        r#"[{"startMs":0,"endMs":3000,"text":"Compost needs air and water."}]"#,
    )
    .await;
    let converted = app
        .client
        .clone()
        .convert_transcripts_to_markdown(as_user(
            user,
            pb::ConvertTranscriptsToMarkdownRequest {
                transcripts: vec![pb::TranscriptToConvert {
                    id: "f1".to_owned(),
                    title: "Compost".to_owned(),
                    transcript_path: "transcripts/j1/f1.txt".to_owned(),
                }],
                template: Some("Notes".to_owned()),
            },
        ))
        .await
        .expect("ConvertTranscriptsToMarkdown")
        .into_inner();
    assert!(converted.failed.is_empty(), "{:?}", converted.failed);
    let pdf = app
        .convert_pdf(user, "guide.pdf", None, fixture("chromium.pdf"))
        .await
        .expect("ConvertPdfToMarkdown");
    Converted {
        templates,
        transcript_markdown: converted.results[0].markdown_path.clone(),
        pdf,
    }
}

async fn delete_user_data(app: &TestApp, user: &str) -> pb::DeleteUserDataResponse {
    app.client
        .clone()
        .delete_user_data(as_user(user, pb::DeleteUserDataRequest {}))
        .await
        .expect("DeleteUserData")
        .into_inner()
}

async fn templates(app: &TestApp, user: &str) -> Vec<pb::Template> {
    app.client
        .clone()
        .list_templates(as_user(user, pb::ListTemplatesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .templates
}

/// Keys of every object under `users/<user>/`.
async fn objects_of(app: &TestApp, user: &str) -> Vec<String> {
    app.blobs
        .list(&format!("users/{user}/"))
        .await
        .unwrap()
        .into_iter()
        .map(|object| object.key)
        .collect()
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_sqlite() {
    deletion_removes_the_caller_only(spawn_app().await).await;
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("conversion_delete_user_data_on_postgresql").await else {
        return;
    };
    deletion_removes_the_caller_only(app).await;
}

async fn deletion_removes_the_caller_only(app: TestApp) {
    let bob = convert_some(&app, "bob").await;
    let only_bob = app.db.table_counts().await.unwrap();
    let bob_objects = objects_of(&app, "bob").await;

    let alice = convert_some(&app, "alice").await;
    let with_alice = app.db.table_counts().await.unwrap();
    // Every table holds some of Alice's rows, so the comparison below covers every table.
    for (table, count) in &with_alice {
        assert!(
            *count > only_bob[table],
            "{table} holds none of alice's rows: the test would not see them kept"
        );
    }
    let alice_rows: i64 = with_alice
        .iter()
        .map(|(table, count)| count - only_bob[table])
        .sum();
    let alice_converted = objects_of(&app, "alice")
        .await
        .into_iter()
        .filter(|key| key.starts_with("users/alice/converted/"))
        .count();
    // The transcript's markdown, and the PDF's markdown, original and name.
    assert_eq!(alice_converted, 4);

    let deleted = delete_user_data(&app, "alice").await;
    assert_eq!(deleted.rows_deleted, u64::try_from(alice_rows).unwrap());
    assert_eq!(deleted.blobs_deleted, 4);

    // Every table is back to Bob's rows alone. Of Alice's objects only the worker's
    // transcript stays (transcription owns `transcripts/`).
    assert_eq!(app.db.table_counts().await.unwrap(), only_bob);
    assert_eq!(
        objects_of(&app, "alice").await,
        [
            "users/alice/transcripts/j1/f1.segments.json",
            "users/alice/transcripts/j1/f1.txt",
        ]
    );
    assert!(
        app.file("alice", &alice.transcript_markdown)
            .await
            .is_none()
    );
    assert!(app.file("alice", &alice.pdf.pdf_path).await.is_none());
    assert!(templates(&app, "alice").await.is_empty());

    // Bob keeps everything.
    assert_eq!(objects_of(&app, "bob").await, bob_objects);
    assert_eq!(
        templates(&app, "bob")
            .await
            .into_iter()
            .map(|template| template.id)
            .collect::<Vec<_>>(),
        // Listed by name: Brief, then Notes.
        [bob.templates[1].id.clone(), bob.templates[0].id.clone()]
    );
    assert!(app.file("bob", &bob.transcript_markdown).await.is_some());
    assert!(app.file("bob", &bob.pdf.markdown_path).await.is_some());
    assert!(app.file("bob", &bob.pdf.pdf_path).await.is_some());

    // A second call finds nothing and succeeds.
    let again = delete_user_data(&app, "alice").await;
    assert_eq!((again.rows_deleted, again.blobs_deleted), (0, 0));
    assert_eq!(app.db.table_counts().await.unwrap(), only_bob);

    // Alice can start over: a template of a name she had is free again.
    app.client
        .clone()
        .create_template(as_user(
            "alice",
            pb::TemplateInput {
                name: alice.templates[0].name.clone(),
                body: "{{content}}".to_owned(),
            },
        ))
        .await
        .expect("her old template name is free");
}
