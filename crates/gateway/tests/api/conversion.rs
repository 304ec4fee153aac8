//! `/api/convert/*`: templates, and PDF uploads streamed to conversion as a header and chunks.

use reqwest::Method;
use reqwest::multipart::{Form, Part};
use scribevault_core::ErrorCode;
use scribevault_proto::conversion::v1 as pb;
use scribevault_proto::conversion::v1::convert_pdf_to_markdown_request::Part as PdfPart;
use serde_json::json;

use crate::helpers::{keys, spawn_app};

fn template() -> pb::Template {
    pb::Template {
        id: "tpl-1".to_owned(),
        name: "Notes".to_owned(),
        body: "# {{title}}\n\n{{content}}".to_owned(),
        created_at: "2026-11-01T10:00:00Z".to_owned(),
        updated_at: "2026-11-02T10:00:00Z".to_owned(),
    }
}

fn conversion(id: &str) -> pb::PdfConversion {
    pb::PdfConversion {
        id: id.to_owned(),
        title: format!("Title of {id}"),
        content: "# Title\n\nText".to_owned(),
        markdown_path: format!("converted/{id}.md"),
        pdf_path: format!("converted/{id}.pdf"),
        pages: 3,
        ocr_pages: vec![2],
        unknown_placeholders: vec!["{{author}}".to_owned()],
    }
}

fn pdf_view(id: &str) -> serde_json::Value {
    json!({
        "id": id,
        "title": format!("Title of {id}"),
        "content": "# Title\n\nText",
        "markdownPath": format!("converted/{id}.md"),
        "pdfPath": format!("converted/{id}.pdf"),
        "pages": 3,
        "ocrPages": [2],
        "unknownPlaceholders": ["{{author}}"],
    })
}

/// A PDF's bytes: more than one of the gateway's 256 KiB messages, so it arrives in chunks.
fn pdf_bytes() -> Vec<u8> {
    let mut bytes = b"%PDF-1.7\n".to_vec();
    bytes.extend((0..600 * 1024).map(|i| u8::try_from(i % 251).unwrap()));
    bytes
}

fn pdf_part(name: &str, bytes: Vec<u8>) -> Part {
    Part::bytes(bytes)
        .file_name(name.to_owned())
        .mime_str("application/pdf")
        .unwrap()
}

/// The header of one streamed upload, and its chunks joined.
fn split(stream: &[pb::ConvertPdfToMarkdownRequest]) -> (pb::PdfHeader, Vec<u8>) {
    let Some(Some(PdfPart::Header(header))) = stream.first().map(|message| message.part.clone())
    else {
        panic!("the stream starts with the header: {stream:?}");
    };
    let mut bytes = Vec::new();
    for message in &stream[1..] {
        match &message.part {
            Some(PdfPart::Chunk(chunk)) => bytes.extend_from_slice(chunk),
            other => panic!("only chunks follow the header, got {other:?}"),
        }
    }
    (header, bytes)
}

#[tokio::test]
async fn creating_a_template_answers_201_with_its_view() {
    let app = spawn_app().await;
    let token = app.token().await;
    app.conversion.create_template.answers(Ok(template()));

    let answer = app
        .post(
            "/api/convert/templates",
            &token,
            &json!({ "name": "Notes", "body": "# {{title}}\n\n{{content}}" }),
        )
        .await;

    assert_eq!(answer.status, 201, "{}", answer.body);
    assert_eq!(
        answer.body,
        json!({ "data": {
            "id": "tpl-1",
            "name": "Notes",
            "body": "# {{title}}\n\n{{content}}",
            "createdAt": "2026-11-01T10:00:00Z",
            "updatedAt": "2026-11-02T10:00:00Z",
        }})
    );
    assert_eq!(
        app.conversion.create_template.messages(),
        [pb::TemplateInput {
            name: "Notes".to_owned(),
            body: "# {{title}}\n\n{{content}}".to_owned(),
        }]
    );
}

#[tokio::test]
async fn deleting_a_template_answers_204_without_a_body() {
    let app = spawn_app().await;
    let token = app.token().await;

    let answer = app
        .send(
            Method::DELETE,
            "/api/convert/templates/tpl-1",
            Some(&token),
            None,
        )
        .await;

    assert_eq!(answer.status, 204);
    assert!(answer.body.is_null(), "{}", answer.body);
    assert_eq!(
        app.conversion.delete_template.messages(),
        [pb::DeleteTemplateRequest {
            id: "tpl-1".to_owned()
        }]
    );
}

#[tokio::test]
async fn a_pdf_upload_reaches_conversion_as_a_header_then_its_bytes() {
    let app = spawn_app().await;
    let token = app.token().await;
    app.conversion
        .convert_pdf_to_markdown
        .answers(Ok(conversion("pdf-1")));
    let bytes = pdf_bytes();
    let form = Form::new()
        // A browser sends a textarea's line breaks as CRLF.
        .text("template", "# {{title}}\r\n\r\n{{content}}")
        .part("pdf", pdf_part("paper.pdf", bytes.clone()));

    let answer = app.post_form("/api/convert/pdf", &token, form).await;

    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body, json!({ "data": pdf_view("pdf-1") }));
    // The quota is asked before a byte is sent on.
    let room = app.storage.check_storage_room.messages();
    assert_eq!(room.len(), 1);
    assert!(room[0].bytes >= bytes.len() as u64, "{room:?}");
    let streams = app.conversion.convert_pdf_to_markdown.messages();
    assert_eq!(streams.len(), 1);
    let (header, sent) = split(&streams[0]);
    assert_eq!(
        header,
        pb::PdfHeader {
            file_name: "paper.pdf".to_owned(),
            template: Some("# {{title}}\n\n{{content}}".to_owned()),
        }
    );
    assert!(streams[0].len() > 2, "600 KiB travel in several messages");
    assert_eq!(sent, bytes);
}

#[tokio::test]
async fn a_batch_answers_each_files_result_or_error() {
    let app = spawn_app().await;
    let token = app.token().await;
    let pdfs = &app.conversion.convert_pdf_to_markdown;
    pdfs.then_answers(Ok(conversion("pdf-1")));
    pdfs.then_answers(Err(
        ErrorCode::Unprocessable.to_status("The PDF is encrypted")
    ));
    let form = Form::new()
        .text("template", "{{content}}")
        .part("pdf", pdf_part("good.pdf", b"%PDF-1.7 good".to_vec()))
        .part("pdf", pdf_part("locked.pdf", b"%PDF-1.7 locked".to_vec()));

    let answer = app.post_form("/api/convert/pdf/batch", &token, form).await;

    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(
        answer.body,
        json!({ "data": [
            { "fileName": "good.pdf", "result": pdf_view("pdf-1") },
            {
                "fileName": "locked.pdf",
                "error": { "message": "The PDF is encrypted", "code": "UNPROCESSABLE" },
            },
        ]})
    );
    assert_eq!(keys(&answer.body["data"][1]["error"]), ["code", "message"]);
    let streams = pdfs.messages();
    let sent: Vec<_> = streams.iter().map(|stream| split(stream)).collect();
    assert_eq!(
        sent,
        [
            (
                pb::PdfHeader {
                    file_name: "good.pdf".to_owned(),
                    template: Some("{{content}}".to_owned()),
                },
                b"%PDF-1.7 good".to_vec()
            ),
            (
                pb::PdfHeader {
                    file_name: "locked.pdf".to_owned(),
                    template: Some("{{content}}".to_owned()),
                },
                b"%PDF-1.7 locked".to_vec()
            ),
        ]
    );
}
