//! Saved templates: CRUD, names unique per user regardless of case, owner-scoped.

use scribevault_proto::conversion::v1 as pb;
use tonic::Code;

use crate::helpers::{as_user, spawn_app};

fn input(name: &str, body: &str) -> pb::TemplateInput {
    pb::TemplateInput {
        name: name.to_owned(),
        body: body.to_owned(),
    }
}

#[tokio::test]
async fn templates_are_created_listed_updated_and_deleted() {
    let app = spawn_app().await;
    let mut client = app.client.clone();
    let notes = client
        .create_template(as_user(
            "alice",
            input(" Notes ", "# {{title}}\n\n{{content}}"),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(notes.name, "Notes");
    client
        .create_template(as_user("alice", input("Brief", "{{content}}")))
        .await
        .unwrap();
    let listed = client
        .list_templates(as_user("alice", pb::ListTemplatesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .templates;
    assert_eq!(
        listed.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["Brief", "Notes"]
    );
    let updated = client
        .update_template(as_user(
            "alice",
            pb::UpdateTemplateRequest {
                id: notes.id.clone(),
                template: Some(input("Meeting notes", "## {{title}}\n{{content}}")),
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (updated.name.as_str(), updated.body.as_str()),
        ("Meeting notes", "## {{title}}\n{{content}}")
    );
    client
        .delete_template(as_user(
            "alice",
            pb::DeleteTemplateRequest {
                id: notes.id.clone(),
            },
        ))
        .await
        .unwrap();
    let listed = client
        .list_templates(as_user("alice", pb::ListTemplatesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .templates;
    assert_eq!(listed.len(), 1);
}

#[tokio::test]
async fn names_are_unique_per_user_regardless_of_case() {
    let app = spawn_app().await;
    let mut client = app.client.clone();
    client
        .create_template(as_user("alice", input("Notes", "x")))
        .await
        .unwrap();
    let duplicate = client
        .create_template(as_user("alice", input("NOTES", "y")))
        .await
        .unwrap_err();
    assert_eq!(duplicate.code(), Code::AlreadyExists, "{duplicate:?}");
    assert!(duplicate.message().contains("already exists"));
    // Another user may use the name.
    client
        .create_template(as_user("bob", input("Notes", "z")))
        .await
        .unwrap();
}

#[tokio::test]
async fn bad_templates_are_refused_with_the_reason() {
    let app = spawn_app().await;
    let mut client = app.client.clone();
    for (name, body, reason) in [
        ("", "x", "name is required"),
        ("Empty", "  ", "body is required"),
        (&*"n".repeat(101), "x", "at most 100 characters"),
        // F3: a saved template is bounded like one sent with a request.
        (
            "Twice",
            "{{content}}\n{{content}}",
            "{{content}} may appear at most once",
        ),
    ] {
        let refused = client
            .create_template(as_user("alice", input(name, body)))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert!(refused.message().contains(reason), "{refused:?}");
    }
    let big = "x".repeat(64 * 1024 + 1);
    let refused = client
        .create_template(as_user("alice", input("Big", &big)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn another_users_template_is_not_found() {
    let app = spawn_app().await;
    let mut client = app.client.clone();
    let mine = client
        .create_template(as_user("alice", input("Notes", "x")))
        .await
        .unwrap()
        .into_inner();
    let update = client
        .update_template(as_user(
            "bob",
            pb::UpdateTemplateRequest {
                id: mine.id.clone(),
                template: Some(input("Stolen", "y")),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(update.code(), Code::NotFound);
    let delete = client
        .delete_template(as_user(
            "bob",
            pb::DeleteTemplateRequest {
                id: mine.id.clone(),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(delete.code(), Code::NotFound);
    let bobs = client
        .list_templates(as_user("bob", pb::ListTemplatesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .templates;
    assert!(bobs.is_empty());
}
