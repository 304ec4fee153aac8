//! Serves the built SPA, with `index.html` for every client-side route.

use actix_web::{HttpRequest, HttpResponse};

use crate::context::Context;
use crate::error::ApiError;

const NOT_BUILT_PAGE: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Scribevault</title></head>\
<body>\
<h1>Scribevault is running</h1><p>The web app has not been built yet. Build it with <code>make frontend</code> \
(or <code>cd frontend &amp;&amp; npm ci &amp;&amp; npm run build</code>), or point <code>SCRIBEVAULT_FRONTEND_DIR</code> \
at a built copy, then reload this page.</p><p>The API is served under <code>/api</code>; \
<a href=\"/healthz\">/healthz</a> and <a href=\"/readyz\">/readyz</a> report health.</p></body></html>";

/// Unknown paths: JSON 404 under `/api`, otherwise the SPA's `index.html` (or the how-to-build
/// page when there is no build).
pub async fn fallback(request: HttpRequest, context: Context) -> Result<HttpResponse, ApiError> {
    let path = request.path();
    if path == "/api" || path.starts_with("/api/") {
        return Err(ApiError::not_found(format!(
            "No route for {} {path}",
            request.method()
        )));
    }
    let index = context.frontend_dir.join("index.html");
    match tokio::fs::read(&index).await {
        Ok(html) => Ok(HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header(("Cache-Control", "no-cache"))
            .body(html)),
        Err(_) => Ok(HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .body(NOT_BUILT_PAGE)),
    }
}
