//! Conversion through the REST API of `scribevault all`: transcripts and PDFs to markdown,
//! templates, saving to the Vault and the premium reprocess, with every bad input answered by
//! its own status while the product stays ready.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::TestApp;

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../conversion/tests/fixtures/pdf")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Writes a transcript as the worker stores it, in the local blob store of the data dir.
fn store_transcript(app: &TestApp, user_id: &str, base: &str) {
    let dir = app
        .data_dir
        .path()
        .join("blobs/users")
        .join(user_id)
        .join("transcripts");
    std::fs::create_dir_all(&dir).unwrap();
    let first = "Compost needs air and water and a mix of green and brown material to work well.";
    std::fs::write(
        dir.join(format!("{base}.txt")),
        format!("{first} Later, tomatoes."),
    )
    .unwrap();
    let segments = json!([
        {"startMs": 0, "endMs": 9000, "text": format!("{first} {first}")},
        {"startMs": 14000, "endMs": 16000, "text": "Later, tomatoes."}
    ]);
    std::fs::write(
        dir.join(format!("{base}.segments.json")),
        segments.to_string(),
    )
    .unwrap();
}

async fn upload_pdf(
    app: &TestApp,
    token: &str,
    name: &str,
    bytes: Vec<u8>,
    template: Option<&str>,
) -> (u16, Value) {
    let mut form = reqwest::multipart::Form::new();
    if let Some(template) = template {
        form = form.text("template", template.to_owned());
    }
    form = form.part(
        "pdf",
        reqwest::multipart::Part::bytes(bytes)
            .file_name(name.to_owned())
            .mime_str("application/pdf")
            .unwrap(),
    );
    let response = app
        .http
        .post(app.url("/api/convert/pdf"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn transcripts_convert_with_a_template_and_save_to_the_vault() {
    let app = TestApp::spawn().await;
    let (alice, alice_id) = app.sign_up("alice@example.com").await;
    let (_bob, bob_id) = app.sign_up("bob@example.com").await;
    store_transcript(&app, &alice_id, "talk");
    store_transcript(&app, &bob_id, "secret");
    let (status, body) = app
        .post_json(
            "/api/convert/markdown/batch",
            &json!({
                "transcripts": [
                    {"id": "f1", "title": "Compost talk", "transcriptPath": "transcripts/talk.txt"},
                    {"id": "f2", "title": "Bob's", "transcriptPath": "transcripts/secret.txt"},
                    {"id": "f3", "title": "Escape", "transcriptPath": "transcripts/../../x"}
                ],
                "template": "## {{title}}\n_{{source}}, {{date}}_ {{mood}}\n\n{{content}}"
            }),
            Some(&alice),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["unknownPlaceholders"], json!(["mood"]));
    assert_eq!(data["failed"].as_array().unwrap().len(), 2, "{data}");
    let result = &data["results"][0];
    assert_eq!(result["id"], "f1");
    assert_eq!(result["markdownPath"], "converted/transcripts/talk.md");
    let content = result["content"].as_str().unwrap();
    assert!(
        content.starts_with("## Compost talk\n_Audio transcript, 20"),
        "{content}"
    );
    assert!(content.contains("{{mood}}"));
    assert!(
        content.ends_with("work well.\n\nLater, tomatoes."),
        "{content}"
    );

    let (status, saved) = app
        .post_json(
            "/api/vault/save",
            &json!({"files": [{"title": "Compost talk", "content": content, "path": "converted/transcripts/talk.md"}]}),
            Some(&alice),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["data"][0]["sourceType"], "AUDIO");
}

/// Converts the browser-printed guide and saves it to the Vault as a PDF item; returns the
/// item's id.
async fn convert_and_save_the_guide(app: &TestApp, alice: &str) -> String {
    let (status, body) = upload_pdf(app, alice, "guide.pdf", fixture("chromium.pdf"), None).await;
    assert_eq!(status, 200, "{body}");
    let converted = &body["data"];
    assert_eq!(converted["title"], "Browser Printed Guide");
    assert_eq!(converted["pages"], 1);
    assert_eq!(converted["ocrPages"], json!([]));
    let markdown_path = converted["markdownPath"].as_str().unwrap();
    assert!(
        converted["content"]
            .as_str()
            .unwrap()
            .contains("## Seasonal tasks")
    );

    let (status, saved) = app
        .post_json(
            "/api/vault/save",
            &json!({"files": [{"title": converted["title"], "content": converted["content"], "path": markdown_path}]}),
            Some(alice),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    let item = &saved["data"][0];
    assert_eq!(item["sourceType"], "PDF");
    item["id"].as_str().unwrap().to_owned()
}

/// Files that are not PDFs, locked, bombs or cut short each get their status and message (a
/// damaged one with what could be recovered).
async fn assert_bad_files_get_their_status(app: &TestApp, alice: &str) {
    for (name, expected, message) in [
        ("random.pdf", 400, "The file is not a PDF"),
        ("encrypted.pdf", 422, "This PDF is password-protected"),
    ] {
        let (status, body) = upload_pdf(app, alice, name, fixture(name), None).await;
        assert_eq!(status, expected, "{name}: {body}");
        assert_eq!(body["error"]["message"], message, "{name}");
    }
    // A flate bomb (1 MB inflating to 1 GiB, scripts/make-pdf-fixtures.py): refused before it
    // is parsed, with what happened.
    let (status, body) = upload_pdf(app, alice, "bomb.pdf", fixture("bomb.pdf"), None).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"]["message"],
        "This PDF's compressed content expands to more than 512 MB; it was not converted"
    );
    let (status, body) = upload_pdf(app, alice, "cut.pdf", fixture("truncated.pdf"), None).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("This PDF is damaged")
    );
    assert!(
        body["error"]["recovered"]["content"]
            .as_str()
            .unwrap()
            .contains("Composting turns kitchen scraps"),
        "{body}"
    );
}

#[tokio::test]
async fn pdfs_convert_save_as_pdf_items_and_bad_files_get_their_status() {
    let app = TestApp::spawn().await;
    let (alice, _) = app.sign_up("alice@example.com").await;
    let (bob, _) = app.sign_up("bob@example.com").await;
    let item_id = convert_and_save_the_guide(&app, &alice).await;

    // Another user's item: 404. A malformed body: 400.
    let (status, _) = app
        .post_json(
            &format!("/api/pdf-sources/reprocess-transcript/{item_id}"),
            &json!({"usePremiumMode": true}),
            Some(&bob),
        )
        .await;
    assert_eq!(status, 404);
    let (status, body) = app
        .post_json(
            &format!("/api/pdf-sources/reprocess-transcript/{item_id}"),
            &json!({"premium": true}),
            Some(&alice),
        )
        .await;
    assert_eq!(status, 400, "{body}");

    assert_bad_files_get_their_status(&app, &alice).await;
    let (status, body) = app
        .send(
            Method::POST,
            "/api/convert/pdf",
            Some(&alice),
            Some(&json!({"pdf": "x"})),
        )
        .await;
    assert!(status == 400 || status == 415, "{status} {body}");
    let (status, _) = app.get("/readyz", None).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn premium_mode_reads_a_scanned_page_with_ocr() {
    let has = |command: &str| {
        std::process::Command::new(command)
            .arg("-v")
            .output()
            .is_ok()
    };
    let name = "premium_mode_reads_a_scanned_page_with_ocr";
    if !scribevault_test_support::required_tool(
        has("tesseract") && has("pdftoppm"),
        "tesseract and pdftoppm",
        name,
    ) {
        return;
    }
    let app = TestApp::spawn().await;
    let (alice, _) = app.sign_up("alice@example.com").await;
    let (status, body) = upload_pdf(&app, &alice, "letter.pdf", fixture("scanned.pdf"), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["ocrPages"], json!([2]));
    let (_, saved) = app
        .post_json(
            "/api/vault/save",
            &json!({"files": [{"title": "Letter", "content": body["data"]["content"], "path": body["data"]["markdownPath"]}]}),
            Some(&alice),
        )
        .await;
    let item_id = saved["data"][0]["id"].as_str().unwrap().to_owned();
    let (status, redone) = app
        .post_json(
            &format!("/api/pdf-sources/reprocess-transcript/{item_id}"),
            &json!({"usePremiumMode": true}),
            Some(&alice),
        )
        .await;
    assert_eq!(status, 200, "{redone}");
    assert_eq!(redone["data"]["ocrPages"], json!([]));
    let (_, content) = app
        .get(
            &format!("/api/library/transcripts/{item_id}/content"),
            Some(&alice),
        )
        .await;
    assert!(
        content["data"]["content"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("quick brown fox"),
        "{content}"
    );
}

#[tokio::test]
async fn templates_are_kept_per_user() {
    let app = TestApp::spawn().await;
    let (alice, _) = app.sign_up("alice@example.com").await;
    let (bob, _) = app.sign_up("bob@example.com").await;
    let (status, created) = app
        .post_json(
            "/api/convert/templates",
            &json!({"name": "Notes", "body": "# {{title}}\n{{content}}"}),
            Some(&alice),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["data"]["id"].as_str().unwrap().to_owned();
    let (status, _) = app
        .post_json(
            "/api/convert/templates",
            &json!({"name": "notes", "body": "x"}),
            Some(&alice),
        )
        .await;
    assert_eq!(status, 409);
    let (status, body) = app
        .post_json(
            "/api/convert/templates",
            &json!({"name": "X", "body": "x", "extra": 1}),
            Some(&alice),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = app
        .send(
            Method::PUT,
            &format!("/api/convert/templates/{id}"),
            Some(&bob),
            Some(&json!({"name": "Mine", "body": "y"})),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = app
        .send(
            Method::DELETE,
            &format!("/api/convert/templates/{id}"),
            Some(&bob),
            None,
        )
        .await;
    assert_eq!(status, 404);
    let (status, listed) = app.get("/api/convert/templates", Some(&alice)).await;
    assert_eq!(status, 200);
    assert_eq!(listed["data"][0]["name"], "Notes");
    let (status, _) = app
        .send(
            Method::DELETE,
            &format!("/api/convert/templates/{id}"),
            Some(&alice),
            None,
        )
        .await;
    assert_eq!(status, 204);
}

#[tokio::test]
async fn several_pdfs_convert_in_one_request_each_with_its_own_answer() {
    let app = TestApp::spawn().await;
    let (alice, _) = app.sign_up("alice@example.com").await;
    let mut form =
        reqwest::multipart::Form::new().text("template", "# {{title}}\r\n\r\n{{content}}");
    for name in ["chromium.pdf", "encrypted.pdf", "hyphenated.pdf"] {
        form = form.part(
            "pdf",
            reqwest::multipart::Part::bytes(fixture(name))
                .file_name(name)
                .mime_str("application/pdf")
                .unwrap(),
        );
    }
    let response = app
        .http
        .post(app.url("/api/convert/pdf/batch"))
        .bearer_auth(&alice)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.unwrap();
    let answers = body["data"].as_array().unwrap();
    assert_eq!(answers.len(), 3, "{body}");
    assert_eq!(answers[0]["fileName"], "chromium.pdf");
    // The form's CRLF line breaks are the template's LF.
    assert!(
        answers[0]["result"]["content"]
            .as_str()
            .unwrap()
            .starts_with("# Browser Printed Guide\n\n"),
        "{body}"
    );
    assert_eq!(
        answers[1]["error"]["message"],
        "This PDF is password-protected"
    );
    assert_eq!(answers[1]["error"]["code"], "UNPROCESSABLE");
    assert!(
        answers[2]["result"]["content"]
            .as_str()
            .unwrap()
            .contains("transcription")
    );
}
