//! Premium mode: a PDF Vault item converted again from its kept original, with OCR.

use scribevault_conversion::ConversionConfig;
use scribevault_proto::conversion::v1 as pb;
use scribevault_proto::library::v1 as library;
use tonic::Code;

use crate::helpers::{
    TestApp, as_user, error_code, fixture, has_command, spawn_app, spawn_app_with,
};

/// Converts the scanned fixture and saves it to the Vault as the SPA does; the item's id.
async fn save_scanned_pdf(app: &TestApp, user: &str) -> String {
    let converted = app
        .convert_pdf(user, "letter.pdf", None, fixture("scanned.pdf"))
        .await
        .unwrap();
    let saved = app
        .library
        .clone()
        .save_to_vault(as_user(
            user,
            library::SaveToVaultRequest {
                files: vec![library::VaultFile {
                    title: converted.title.clone(),
                    content: converted.content.clone(),
                    path: converted.markdown_path.clone(),
                }],
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .saved;
    assert_eq!(saved[0].source_type(), library::SourceType::Pdf);
    saved[0].id.clone()
}

fn reprocess(id: &str) -> pb::ReprocessTranscriptRequest {
    pb::ReprocessTranscriptRequest {
        id: id.to_owned(),
        use_premium_mode: true,
    }
}

#[tokio::test]
async fn ocr_reads_the_scanned_page_and_updates_the_item() {
    let name = "ocr_reads_the_scanned_page_and_updates_the_item";
    if !scribevault_test_support::required_tool(has_command("tesseract"), "tesseract", name)
        || !scribevault_test_support::required_tool(has_command("pdftoppm"), "pdftoppm", name)
    {
        return;
    }
    let app = spawn_app().await;
    let id = save_scanned_pdf(&app, "alice").await;
    let redone = app
        .client
        .clone()
        .reprocess_transcript(as_user("alice", reprocess(&id)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(redone.id, id);
    assert!(redone.ocr_pages.is_empty(), "{:?}", redone.ocr_pages);
    let lower = redone.content.to_lowercase();
    assert!(
        lower.contains("quick brown fox jumps over the lazy dog"),
        "{}",
        redone.content
    );
    assert!(lower.contains("this first page has a text layer"));
    assert!(
        redone.content.contains("letter.pdf"),
        "the source line names the uploaded file again: {}",
        redone.content
    );
    let content = app
        .library
        .clone()
        .get_transcript_content(as_user(
            "alice",
            library::GetTranscriptContentRequest { id: id.clone() },
        ))
        .await
        .unwrap()
        .into_inner()
        .content;
    assert_eq!(content, redone.content);
}

#[tokio::test]
async fn another_users_item_is_not_found_and_a_non_pdf_item_is_refused() {
    let app = spawn_app().await;
    let id = save_scanned_pdf(&app, "alice").await;
    let refused = app
        .client
        .clone()
        .reprocess_transcript(as_user("bob", reprocess(&id)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let text_item = app
        .library
        .clone()
        .save_to_vault(as_user(
            "alice",
            library::SaveToVaultRequest {
                files: vec![library::VaultFile {
                    title: "Note".into(),
                    content: "Just text".into(),
                    path: "notes/note.md".into(),
                }],
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .saved[0]
        .id
        .clone();
    let refused = app
        .client
        .clone()
        .reprocess_transcript(as_user("alice", reprocess(&text_item)))
        .await
        .unwrap_err();
    assert_eq!(error_code(&refused), "UNPROCESSABLE", "{refused:?}");
}

#[tokio::test]
async fn a_missing_ocr_tool_says_what_to_install() {
    let mut config = ConversionConfig::for_tests();
    config.ocr.tesseract = "/nonexistent/tesseract".into();
    config.ocr.pdftoppm = "/nonexistent/pdftoppm".into();
    let app = spawn_app_with(config).await;
    let id = save_scanned_pdf(&app, "alice").await;
    let refused = app
        .client
        .clone()
        .reprocess_transcript(as_user("alice", reprocess(&id)))
        .await
        .unwrap_err();
    assert_eq!(error_code(&refused), "NOT_CONFIGURED", "{refused:?}");
    assert!(
        refused.message().contains("apt install tesseract-ocr"),
        "{refused:?}"
    );
}
