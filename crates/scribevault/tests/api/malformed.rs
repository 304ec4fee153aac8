//! A storm of malformed requests, generated from the gateway's route table: every route gets
//! bad JSON, wrong types, missing and extra fields, huge, deep and empty bodies, other
//! encodings, and every path parameter gets unknown, overlong, non-UTF-8 and traversing
//! values. Every answer must be a 4xx in the one error shape (never a 5xx, never a dropped
//! connection), and the server's memory must come back to where it was.

use std::time::Duration;

use reqwest::Method;
use scribevault_gateway::route_table;
use serde_json::Value;

use crate::helpers::TestApp;

/// Values put in place of every `{param}` of a path.
fn hostile_segments() -> Vec<String> {
    vec![
        "unknown-0000".to_owned(),
        "a".repeat(8_000),
        "%FF%FE%FD".to_owned(),
        "..%2F..%2F..%2Fetc%2Fpasswd".to_owned(),
        "%2E%2E".to_owned(),
        "%00".to_owned(),
        "%F0%9F%92%A5%20%22%27%3Cscript%3E".to_owned(),
        "-1".to_owned(),
        "99999999999999999999999999".to_owned(),
        "018f0000-0000-7000-8000-000000000000".to_owned(),
    ]
}

/// A request body: its bytes and content type.
struct Body {
    name: &'static str,
    content_type: Option<&'static str>,
    bytes: Vec<u8>,
}

fn hostile_bodies() -> Vec<Body> {
    let json = Some("application/json");
    let utf16: Vec<u8> = "{\"title\": \"x\"}"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let mut bodies = vec![
        Body { name: "none", content_type: None, bytes: Vec::new() },
        Body { name: "empty json", content_type: json, bytes: Vec::new() },
        Body { name: "truncated", content_type: json, bytes: b"{\"title\": ".to_vec() },
        Body { name: "array", content_type: json, bytes: b"[1, 2, 3]".to_vec() },
        Body { name: "null", content_type: json, bytes: b"null".to_vec() },
        Body { name: "number", content_type: json, bytes: b"12345678901234567890123".to_vec() },
        Body { name: "string", content_type: json, bytes: b"\"hello\"".to_vec() },
        Body {
            name: "wrong types",
            content_type: json,
            bytes: br#"{"title": 5, "rating": "five", "tags": {"a": 1}, "ids": "x", "files": 7, "email": [], "password": null, "page": -1, "limit": 1e309, "name": true}"#.to_vec(),
        },
        Body {
            name: "extra fields",
            content_type: json,
            bytes: br#"{"unexpected": 1, "__proto__": {"admin": true}, "constructor": 2}"#.to_vec(),
        },
        Body { name: "utf-16", content_type: Some("application/json; charset=utf-16"), bytes: utf16 },
        Body { name: "not utf-8", content_type: json, bytes: b"{\"title\": \"\xff\xfe\xfd\"}".to_vec() },
        Body { name: "form", content_type: Some("application/x-www-form-urlencoded"), bytes: b"title=x&rating=5".to_vec() },
        Body { name: "broken multipart", content_type: Some("multipart/form-data; boundary=zzz"), bytes: b"--zzz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../../x.mp3\"\r\n\r\nID3".to_vec() },
        Body { name: "deep", content_type: json, bytes: [&b"["[..].repeat(100_000)[..], &b"]"[..].repeat(100_000)[..]].concat() },
    ];
    // A string of 3 MiB: past the JSON limit of every route but the upload ones.
    let mut huge = b"{\"title\": \"".to_vec();
    huge.extend(std::iter::repeat_n(b'x', 3 << 20));
    huge.extend(b"\"}");
    bodies.push(Body {
        name: "huge",
        content_type: json,
        bytes: huge,
    });
    bodies
}

/// Routes whose plain success would end the storm's own session.
fn ends_the_session(path: &str) -> bool {
    path.starts_with("/api/auth/logout")
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// One pass over every route; returns how many answers of each status it got, panics on the
/// first 5xx, dropped connection or 4xx outside the error shape.
async fn storm(app: &TestApp, token: &str) -> std::collections::BTreeMap<u16, usize> {
    let mut statuses = std::collections::BTreeMap::new();
    let bodies = hostile_bodies();
    for (method, pattern, _) in route_table() {
        let pattern = pattern.as_str();
        // actix's `http` is another major version than reqwest's: the method travels by name.
        let method = Method::from_bytes(method.as_str().as_bytes()).expect("a method");
        if ends_the_session(pattern) {
            continue;
        }
        let paths: Vec<String> = if pattern.contains('{') {
            hostile_segments()
                .into_iter()
                .map(|segment| {
                    let mut path = String::new();
                    let mut rest = pattern;
                    while let Some(open) = rest.find('{') {
                        let close = rest[open..]
                            .find('}')
                            .map_or(rest.len(), |at| open + at + 1);
                        path.push_str(&rest[..open]);
                        path.push_str(&segment);
                        rest = &rest[close..];
                    }
                    path.push_str(rest);
                    path
                })
                .collect()
        } else {
            vec![
                pattern.to_owned(),
                format!("{pattern}?page=-1&limit=abc&search=%FF%22%27&sort=../../x"),
            ]
        };
        for path in &paths {
            for body in &bodies {
                // Bodies on GET are a corner of their own; the path variants cover GET routes.
                if method == Method::GET && body.name != "none" && body.name != "truncated" {
                    continue;
                }
                let url = format!("{}{path}", app.base);
                let mut request = app.http.request(method.clone(), &url).bearer_auth(token);
                if let Some(content_type) = body.content_type {
                    request = request.header("content-type", content_type);
                }
                let response = request
                    .body(body.bytes.clone())
                    .timeout(Duration::from_secs(30))
                    .send()
                    .await
                    .unwrap_or_else(|error| {
                        panic!("{method} {pattern} ({}): no answer: {error}", body.name)
                    });
                let status = response.status().as_u16();
                *statuses.entry(status).or_insert(0) += 1;
                let text = response.text().await.unwrap_or_default();
                assert!(
                    status < 500,
                    "{method} {pattern} with {path:.120} ({}): {status} {text:.300}",
                    body.name
                );
                // A HEAD answer has the GET's status and no body to hold the error.
                if status >= 400 && !pattern.starts_with("/socket.io") && method != Method::HEAD {
                    let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                    assert!(
                        answer["error"]["message"].is_string(),
                        "{method} {pattern} ({}): {status} outside the error shape: {text:.300}",
                        body.name
                    );
                }
            }
        }
    }
    statuses
}

#[tokio::test]
async fn every_route_answers_a_malformed_request_storm_with_4xx_in_the_error_shape() {
    let app = TestApp::spawn().await;
    // The first account is the instance's admin: the admin routes are stormed past their
    // access check too.
    let (token, _) = app.sign_up("storm@example.com").await;
    let first = storm(&app, &token).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let warm = rss_kib(app.pid());
    let second = storm(&app, &token).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = rss_kib(app.pid());
    let requests: usize = first.values().sum();
    eprintln!(
        "malformed storm: {requests} requests a pass, answers {first:?}; RSS {warm} KiB after the first pass, {after} KiB after the second"
    );
    // The session held: the storm reached the handlers, not only the access check.
    let unauthenticated = first.get(&401).copied().unwrap_or(0);
    assert!(unauthenticated * 20 < requests, "{first:?}");
    assert_eq!(first, second, "the same storm gets the same answers");
    // Allocators keep some of what they freed; a leak per request would grow by the pass.
    assert!(
        after <= warm + warm / 5 + 16 * 1024,
        "memory grew from {warm} KiB to {after} KiB over {requests} requests"
    );
    // And the server still serves its user.
    let (status, body) = app.get("/api/library/transcripts", Some(&token)).await;
    assert_eq!(status, 200, "{body}");
}
