//! One HTTP attempt of one delivery, through the SSRF guard: the host is resolved and checked
//! here and the connection goes to the checked addresses only; no proxy, no redirects, a
//! deadline, and at most a KiB of the answer read.

use std::time::{Duration, Instant};

use reqwest::redirect::Policy;

use super::signature::sign;
use crate::config::WebhookConfig;

/// The most of an answer's body read (and kept in the log).
pub const EXCERPT_BYTES: usize = 1024;

/// What one attempt came to.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub status_code: Option<u16>,
    pub response_excerpt: Option<String>,
    /// Why there was no answer, or why the address was refused.
    pub error: Option<String>,
    pub duration: Duration,
}

impl Outcome {
    /// A 2xx answer.
    #[must_use]
    pub fn succeeded(&self) -> bool {
        self.status_code
            .is_some_and(|code| (200..300).contains(&code))
    }

    /// 410 Gone: the receiver says the webhook is dead, so it is switched off.
    #[must_use]
    pub fn gone(&self) -> bool {
        self.status_code == Some(410)
    }

    fn failed(error: impl Into<String>, started: Instant) -> Self {
        Self {
            status_code: None,
            response_excerpt: None,
            error: Some(error.into()),
            duration: started.elapsed(),
        }
    }
}

/// Posts `body` to `url`, signed with `secret` as delivery `message_id`.
pub async fn send(
    config: &WebhookConfig,
    url: &str,
    secret: &str,
    message_id: &str,
    body: &str,
) -> Outcome {
    let started = Instant::now();
    // Checked again at every attempt: DNS answers change, and so may the admin's setting.
    let url = match config.policy.parse(url) {
        Ok(url) => url,
        Err(refused) => return Outcome::failed(refused.to_string(), started),
    };
    let addresses = match config.policy.resolve(&url).await {
        Ok(addresses) => addresses,
        Err(refused) => return Outcome::failed(refused.to_string(), started),
    };
    let mut client = reqwest::Client::builder()
        .redirect(Policy::none())
        .no_proxy()
        .timeout(config.timeout)
        .connect_timeout(config.timeout)
        .user_agent(concat!("Scribevault-Webhooks/", env!("CARGO_PKG_VERSION")));
    if let Some(url::Host::Domain(domain)) = url.host() {
        client = client.resolve_to_addrs(domain, &addresses);
    }
    let client = match client.build() {
        Ok(client) => client,
        Err(error) => return Outcome::failed(format!("HTTP client: {error}"), started),
    };
    let timestamp = chrono::Utc::now().timestamp();
    let Some(signature) = sign(secret, message_id, timestamp, body.as_bytes()) else {
        return Outcome::failed("the webhook's secret is not a whsec_ secret", started);
    };
    let request = client
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header("webhook-id", message_id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(body.to_owned());
    let mut response = match request.send().await {
        Ok(response) => response,
        Err(error) => return Outcome::failed(describe(&error, config.timeout), started),
    };
    let status = response.status().as_u16();
    let mut excerpt = Vec::new();
    let mut read_error = None;
    while excerpt.len() < EXCERPT_BYTES {
        match response.chunk().await {
            Ok(Some(chunk)) => excerpt.extend_from_slice(&chunk),
            Ok(None) => break,
            Err(error) => {
                read_error = Some(describe(&error, config.timeout));
                break;
            }
        }
    }
    excerpt.truncate(EXCERPT_BYTES);
    // The rest of the body is never read: dropping the response closes the connection.
    drop(response);
    let text = String::from_utf8_lossy(&excerpt).into_owned();
    Outcome {
        status_code: Some(status),
        response_excerpt: (!text.is_empty()).then_some(text),
        error: read_error,
        duration: started.elapsed(),
    }
}

fn describe(error: &reqwest::Error, timeout: Duration) -> String {
    if error.is_timeout() {
        format!("no answer within {} s", timeout.as_secs())
    } else if error.is_connect() {
        "could not connect".to_owned()
    } else {
        let mut text = error.to_string();
        let mut source = std::error::Error::source(error);
        while let Some(inner) = source {
            text = format!("{text}: {inner}");
            source = inner.source();
        }
        text
    }
}
