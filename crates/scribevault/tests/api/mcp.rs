//! The Vault's MCP server (`/mcp`) with the official MCP Python SDK as the client, signed in
//! with a personal API token: the tools are listed, a search finds the member's item and only
//! theirs, a transcript is read, another member's id is not found, and a request without a
//! token is refused before MCP sees it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::TestApp;

fn mcp_sdk_installed(test_name: &str) -> bool {
    let found = std::process::Command::new("python3")
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|output| output.status.success());
    scribevault_test_support::required_tool(
        found,
        "python3 with the mcp package (`scripts/install-test-tools.sh`)",
        test_name,
    )
}

/// A member with one saved note: (their API token, the note's id).
async fn member_with_a_note(
    app: &TestApp,
    email: &str,
    title: &str,
    text: &str,
) -> (String, String) {
    let (session, _) = app.sign_up(email).await;
    let (status, saved) = app
        .post_json(
            "/api/vault/save",
            &json!({ "files": [{ "title": title, "content": text, "path": format!("notes/{title}.md") }] }),
            Some(&session),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    let (status, made) = app
        .post_json(
            "/api/tokens",
            &json!({ "name": "assistant" }),
            Some(&session),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let token = made["data"]["token"].as_str().unwrap().to_owned();
    (token, saved["data"][0]["id"].as_str().unwrap().to_owned())
}

async fn run_client(app: &TestApp, token: &str, query: &str, other_id: &str) -> Value {
    let script = scribevault_test_support::workspace_root()
        .join("crates/scribevault/tests/support/mcp_client.py");
    let output = tokio::time::timeout(
        Duration::from_secs(120),
        tokio::process::Command::new("python3")
            .arg(script)
            .args([app.base.as_str(), token, query, other_id])
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the client finishes")
    .expect("python3 runs");
    assert!(
        output.status.success(),
        "the MCP client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test]
async fn an_assistant_reads_its_owners_vault_over_mcp_with_an_api_token() {
    if !mcp_sdk_installed("an_assistant_reads_its_owners_vault_over_mcp_with_an_api_token") {
        return;
    }
    let app = TestApp::spawn().await;
    let (token, _) = member_with_a_note(
        &app,
        "ada@example.com",
        "Sourdough notes",
        "Feed the sourdough starter twice a day and keep it warm.",
    )
    .await;
    let (_, bobs) = member_with_a_note(
        &app,
        "bob@example.com",
        "Bob sourdough",
        "Bob's sourdough secret.",
    )
    .await;
    let out = run_client(&app, &token, "sourdough starter", &bobs).await;
    assert_eq!(
        out["tools"],
        json!(["get_transcript", "list_tags", "search_vault"])
    );
    let items = out["search"]["items"].as_array().unwrap();
    let titles: Vec<&str> = items.iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Sourdough notes"], "only the owner's item: {out}");
    assert_eq!(items[0]["foundBy"], "keyword");
    assert_eq!(out["transcript"]["title"], "Sourdough notes");
    assert!(
        out["transcript"]["text"]
            .as_str()
            .unwrap()
            .contains("starter twice a day"),
        "{out}"
    );
    assert!(out["tags"]["tags"].is_array(), "{out}");
    assert_eq!(
        out["other"]["isError"], true,
        "another member's item: {out}"
    );
    assert!(
        out["other"]["text"].as_str().unwrap().contains("not found"),
        "{out}"
    );
    assert_eq!(out["bad_mode"]["isError"], true, "{out}");
    // Without a token, /mcp answers 401 like every signed-in route.
    let refused = reqwest::Client::new()
        .post(app.url("/mcp"))
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
}
