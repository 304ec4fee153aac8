//! Security headers on every answer of the public port: a strict Content-Security-Policy (the
//! SPA loads nothing from elsewhere; images only from the instance and YouTube's thumbnail hosts,
//! so a converted document cannot call out to a host of its choosing; no framing), `nosniff`,
//! no referrer, and HSTS when the client came over TLS through a trusted proxy.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;

use crate::auth::client_address::TrustedProxies;

/// Where YouTube serves video thumbnails and channel avatars (Find Videos, Sources).
const YOUTUBE_IMAGES: &str =
    "https://i.ytimg.com https://yt3.ggpht.com https://yt3.googleusercontent.com";

/// The Content-Security-Policy of this deployment, computed once at start.
#[derive(Debug, Clone)]
pub struct ContentSecurityPolicy(HeaderValue);

impl ContentSecurityPolicy {
    /// The policy; `identity_provider` is the OIDC issuer's origin, which the SPA's sign-in
    /// calls (token endpoint) and frames (silent renewal).
    #[must_use]
    pub fn new(identity_provider: Option<&str>) -> Self {
        let provider = identity_provider
            .and_then(|issuer| url::Url::parse(issuer).ok())
            .map(|url| url.origin().ascii_serialization())
            .filter(|origin| origin != "null")
            .map(|origin| format!(" {origin}"))
            .unwrap_or_default();
        let policy = format!(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: {YOUTUBE_IMAGES}; \
             media-src 'self' blob:; font-src 'self' data:; connect-src 'self'{provider}; \
             frame-src{frame}; frame-ancestors 'none'; object-src 'none'; base-uri 'self'; \
             form-action 'self'{provider}",
            frame = if provider.is_empty() {
                " 'none'".to_owned()
            } else {
                provider.clone()
            },
        );
        Self(HeaderValue::from_str(&policy).unwrap_or_else(|_| {
            HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'")
        }))
    }
}

/// What the headers depend on: the page policy, and whether the browser came over TLS (for
/// HSTS), which only trusted proxies can say.
pub struct SecurityHeaders {
    pub csp: ContentSecurityPolicy,
    pub proxies: TrustedProxies,
}

/// Adds the headers to every response. Handlers and the access checks answer their errors as
/// responses (never as middleware errors), so error answers pass through here too.
pub async fn add_security_headers(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let state = request.app_data::<web::Data<SecurityHeaders>>();
    let policy = state.map(|state| state.csp.0.clone());
    let secure = state.is_some_and(|state| state.proxies.is_secure(request.request()));
    let mut response = next.call(request).await?;
    let headers = response.headers_mut();
    if let Some(policy) = policy {
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
    if secure {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_only_the_identity_provider_besides_self() {
        let local = ContentSecurityPolicy::new(None);
        let local = local.0.to_str().unwrap();
        assert!(local.contains("default-src 'self'"));
        assert!(local.contains("frame-ancestors 'none'"));
        assert!(local.contains("frame-src 'none'"));
        assert!(local.contains("img-src 'self' data: blob: https://i.ytimg.com "));
        let oidc = ContentSecurityPolicy::new(Some("https://tenant.eu.auth0.com/"));
        let oidc = oidc.0.to_str().unwrap();
        assert!(oidc.contains("connect-src 'self' https://tenant.eu.auth0.com;"));
        assert!(oidc.contains("frame-src https://tenant.eu.auth0.com;"));
    }
}
