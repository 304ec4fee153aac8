//! OIDC mode against a real OpenID provider we did not write: npm's OpenID-certified
//! `oidc-provider`, configured like Auth0 (`scripts/oidc-provider/`). Tokens come out of its real
//! authorization-code and client-credentials flows, not out of this test.

use serde_json::json;
use tokio::io::AsyncBufReadExt as _;

use crate::helpers::TestApp;

const AUDIENCE: &str = "https://scribevault.test/api";

/// The provider process (killed on drop) and its issuer URL.
struct Provider {
    _process: tokio::process::Child,
    issuer: String,
}

fn provider_dir() -> std::path::PathBuf {
    scribevault_test_support::workspace_root().join("scripts/oidc-provider")
}

/// Starts the provider, or `None` (loudly) when its packages are not installed outside CI.
async fn start_provider() -> Option<Provider> {
    if !provider_dir().join("node_modules/oidc-provider").is_dir() {
        assert!(
            !scribevault_test_support::in_ci(),
            "scripts/oidc-provider is not installed but CI=true (make test runs its install.sh)"
        );
        eprintln!(
            "SKIPPED: the OIDC provider is not installed; run scripts/oidc-provider/install.sh"
        );
        return None;
    }
    let mut process = tokio::process::Command::new("node")
        .arg(provider_dir().join("server.mjs"))
        .args(["--port", "0"])
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs the provider");
    let mut lines = tokio::io::BufReader::new(process.stdout.take().unwrap()).lines();
    let issuer = tokio::time::timeout(std::time::Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(issuer) = line.strip_prefix("OIDC_ISSUER=") {
                return issuer.to_owned();
            }
        }
        panic!("the provider ended before announcing its issuer")
    })
    .await
    .expect("the provider starts within 30 s");
    // Keep reading its stdout so a full pipe never blocks it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Some(Provider {
        _process: process,
        issuer,
    })
}

impl Provider {
    /// A token from the provider's own flow (`get-token.mjs`).
    async fn token(&self, args: &[&str]) -> String {
        let output = tokio::process::Command::new("node")
            .arg(provider_dir().join("get-token.mjs"))
            .args(["--issuer", &self.issuer, "--audience", AUDIENCE])
            .args(args)
            .output()
            .await
            .unwrap();
        assert!(
            output.status.success(),
            "get-token {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    }

    async fn user_token(&self, client: &str, email: &str) -> String {
        self.token(&["--client", client, "--email", email]).await
    }
}

#[tokio::test]
async fn the_issuers_users_come_in_only_as_the_owner_allows() {
    let Some(provider) = start_provider().await else {
        return;
    };
    let app = TestApp::spawn_all_with(&[
        ("SCRIBEVAULT_AUTH", "oidc"),
        ("SCRIBEVAULT_OIDC_ISSUER", &provider.issuer),
        ("SCRIBEVAULT_OIDC_AUDIENCE", AUDIENCE),
        ("SCRIBEVAULT_OIDC_CLIENT_ID", "scribevault-spa"),
        ("SCRIBEVAULT_OIDC_ALLOWED_EMAILS", "alice@example.org"),
        ("SCRIBEVAULT_OIDC_ALLOWED_DOMAINS", "team.example"),
        ("SCRIBEVAULT_ADMIN_EMAILS", "alice@example.org"),
    ])
    .await;

    let alice = provider
        .user_token("scribevault-spa", "alice@example.org")
        .await;
    let (status, account) = app.get("/api/account", Some(&alice)).await;
    assert_eq!(status, 200, "{account}");
    assert_eq!(account["data"]["email"], "alice@example.org");
    assert_eq!(
        account["data"]["isAdmin"], true,
        "named in SCRIBEVAULT_ADMIN_EMAILS"
    );

    let bob = provider
        .user_token("scribevault-spa", "bob@team.example")
        .await;
    let (status, account) = app.get("/api/account", Some(&bob)).await;
    assert_eq!(status, 200, "an allowed domain: {account}");
    assert_eq!(account["data"]["isAdmin"], false);
    assert_eq!(app.get("/api/admin/users", Some(&bob)).await.0, 403);
    assert_eq!(app.get("/api/library/transcripts", Some(&bob)).await.0, 200);

    let mallory = provider
        .user_token("scribevault-spa", "mallory@example.org")
        .await;
    let (status, refused) = app.get("/api/library/transcripts", Some(&mallory)).await;
    assert_eq!(status, 403, "not on the allow-list: {refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("mallory@example.org is not allowed")
    );

    let other_client = provider.user_token("other-spa", "alice@example.org").await;
    let (status, _) = app
        .get("/api/library/transcripts", Some(&other_client))
        .await;
    assert_eq!(status, 401, "a token the issuer gave another client");

    let machine = provider
        .token(&[
            "--client-credentials",
            "--client",
            "machine",
            "--secret",
            "machine-secret",
        ])
        .await;
    let (status, _) = app.get("/api/library/transcripts", Some(&machine)).await;
    assert_eq!(status, 401, "a client_credentials token is no user");

    // The admin sees both members and can disable one: their valid token stops at once.
    let (_, users) = app.get("/api/admin/users", Some(&alice)).await;
    let listed = users["data"]["users"].as_array().unwrap();
    assert_eq!(listed.len(), 2, "mallory never became a member: {users}");
    let bob_id = listed
        .iter()
        .find(|user| user["email"] == "bob@team.example")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, _) = app
        .send(
            reqwest::Method::PATCH,
            &format!("/api/admin/users/{bob_id}"),
            Some(&alice),
            Some(&json!({ "disabled": true })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(app.get("/api/library/transcripts", Some(&bob)).await.0, 401);
}
