//! Who the client is, and whether it came over TLS, when a reverse proxy stands in between.
//!
//! `X-Forwarded-For` and `Forwarded` are the client's to forge, so they are read only when the
//! socket peer is one of `SCRIBEVAULT_TRUSTED_PROXIES`, and then from the right: each trusted hop
//! is skipped, and the first address not trusted is the client. `X-Forwarded-For` comes first:
//! it is what nginx, ingress-nginx, Caddy and Traefik write, while several of them pass a
//! client's own `Forwarded` header through untouched.

use std::net::IpAddr;

use actix_web::HttpRequest;
use scribevault_core::net::{Cidr, canonical};

/// The configured proxies.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(pub Vec<Cidr>);

impl TrustedProxies {
    fn trusts(&self, address: IpAddr) -> bool {
        self.0.iter().any(|range| range.contains(address))
    }

    /// The client address of `request`.
    #[must_use]
    pub fn client_of(&self, request: &HttpRequest) -> Option<IpAddr> {
        let peer = canonical(request.peer_addr()?.ip());
        if !self.trusts(peer) {
            return Some(peer);
        }
        let chain = forwarded_chain(request);
        Some(
            chain
                .into_iter()
                .rev()
                .map(canonical)
                .find(|hop| !self.trusts(*hop))
                .unwrap_or(peer),
        )
    }

    /// Whether the client reached the instance over TLS: a trusted proxy says so.
    #[must_use]
    pub fn is_secure(&self, request: &HttpRequest) -> bool {
        let from_proxy = request
            .peer_addr()
            .is_some_and(|peer| self.trusts(canonical(peer.ip())));
        from_proxy
            && request
                .headers()
                .get("x-forwarded-proto")
                .and_then(|value| value.to_str().ok())
                .is_some_and(|proto| {
                    proto
                        .rsplit(',')
                        .next()
                        .is_some_and(|last| last.trim().eq_ignore_ascii_case("https"))
                })
    }
}

/// The addresses of `X-Forwarded-For` or, without it, `Forwarded: for=` (RFC 7239), in order.
fn forwarded_chain(request: &HttpRequest) -> Vec<IpAddr> {
    let headers = request.headers();
    let by_x_forwarded_for: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(parse_node)
        .collect();
    if !by_x_forwarded_for.is_empty() {
        return by_x_forwarded_for;
    }
    headers
        .get_all("forwarded")
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (name, value) = pair.trim().split_once('=')?;
                name.eq_ignore_ascii_case("for")
                    .then(|| parse_node(value))?
            })
        })
        .collect()
}

/// `192.0.2.1`, `"[2001:db8::1]:4711"`, `192.0.2.1:80`.
fn parse_node(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(address) = node.parse() {
        return Some(address);
    }
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    node.rsplit_once(':')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn proxies(ranges: &[&str]) -> TrustedProxies {
        TrustedProxies(ranges.iter().map(|r| Cidr::parse(r).unwrap()).collect())
    }

    #[test]
    fn headers_from_an_untrusted_peer_are_ignored() {
        let request = TestRequest::default()
            .peer_addr("198.51.100.7:5000".parse().unwrap())
            .insert_header(("X-Forwarded-For", "10.9.9.9"))
            .to_http_request();
        assert_eq!(
            proxies(&["10.0.0.0/8"]).client_of(&request),
            Some("198.51.100.7".parse().unwrap())
        );
    }

    #[test]
    fn the_first_untrusted_hop_from_the_right_is_the_client() {
        let request = TestRequest::default()
            .peer_addr("10.0.0.2:5000".parse().unwrap())
            .insert_header(("X-Forwarded-For", "6.6.6.6, 203.0.113.5, 10.0.0.3"))
            .insert_header(("X-Forwarded-Proto", "https"))
            .to_http_request();
        let trusted = proxies(&["10.0.0.0/8"]);
        // 6.6.6.6 was written by the client itself: only what trusted hops appended counts.
        assert_eq!(
            trusted.client_of(&request),
            Some("203.0.113.5".parse().unwrap())
        );
        assert!(trusted.is_secure(&request));
        assert!(!proxies(&[]).is_secure(&request));
    }

    #[test]
    fn a_forwarded_header_the_proxy_passed_through_loses_to_its_x_forwarded_for() {
        let request = TestRequest::default()
            .peer_addr("10.0.0.2:5000".parse().unwrap())
            .insert_header(("Forwarded", "for=1.2.3.4"))
            .insert_header(("X-Forwarded-For", "203.0.113.5"))
            .to_http_request();
        assert_eq!(
            proxies(&["10.0.0.0/8"]).client_of(&request),
            Some("203.0.113.5".parse().unwrap())
        );
    }

    #[test]
    fn rfc_7239_forwarded_is_read() {
        let request = TestRequest::default()
            .peer_addr("127.0.0.1:5000".parse().unwrap())
            .insert_header((
                "Forwarded",
                "for=\"[2001:db8::7]:4711\";proto=https, for=127.0.0.1",
            ))
            .to_http_request();
        assert_eq!(
            proxies(&["127.0.0.1"]).client_of(&request),
            Some("2001:db8::7".parse().unwrap())
        );
    }
}
