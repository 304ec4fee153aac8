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
        let chain: Vec<IpAddr> = forwarded_chain(request)
            .into_iter()
            .map(canonical)
            .collect();
        if let Some(client) = chain.iter().rev().find(|hop| !self.trusts(**hop)) {
            return Some(*client);
        }
        // Every hop is trusted: the ranges are too wide (10/8 holds the nodes an ingress SNATs
        // through). The left-most hop is the closest thing to the client; the peer would make
        // every client one, and one stranger's failed sign-ins would block everyone.
        if let Some(first) = chain.first() {
            warn_whole_chain_trusted();
            return Some(*first);
        }
        Some(peer)
    }

    /// The origin links sent to a user are built on (invitations, feeds): `public_url` when
    /// the operator set it; else the request's own `Host`, and `X-Forwarded-Host`/`-Proto` only
    /// from a trusted proxy. actix's `connection_info` believes `Forwarded: host=` from anyone.
    ///
    /// # Errors
    /// The host is not a valid one.
    pub fn public_origin(
        &self,
        request: &HttpRequest,
        public_url: Option<&url::Url>,
    ) -> Result<url::Url, url::ParseError> {
        if let Some(url) = public_url {
            return Ok(url.clone());
        }
        let from_proxy = request
            .peer_addr()
            .is_some_and(|peer| self.trusts(canonical(peer.ip())));
        let header = |name: &str| {
            request
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.rsplit(',').next())
                .map(|value| value.trim().to_owned())
                .filter(|value| !value.is_empty())
        };
        let forwarded_host = from_proxy.then(|| header("x-forwarded-host")).flatten();
        let host = forwarded_host
            .or_else(|| header("host"))
            .or_else(|| request.uri().authority().map(ToString::to_string))
            .unwrap_or_else(|| "localhost".to_owned());
        let scheme = if self.is_secure(request) || request.app_config().secure() {
            "https"
        } else {
            "http"
        };
        url::Url::parse(&format!("{scheme}://{host}/"))
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

fn warn_whole_chain_trusted() {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        tracing::warn!(
            "every address of a request's X-Forwarded-For is in SCRIBEVAULT_TRUSTED_PROXIES: narrow it to the proxies' own addresses (docs/security.md); the left-most one is taken as the client"
        );
    });
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

    /// The review's G8: trusted ranges that also hold the nodes an ingress SNATs through make
    /// every hop trusted. Two clients behind such an ingress must still be two clients.
    #[test]
    fn a_chain_trusted_to_the_end_names_its_left_most_hop_not_the_proxy() {
        let through = |client: &str| {
            TestRequest::default()
                .peer_addr("10.244.0.9:5000".parse().unwrap())
                .insert_header(("X-Forwarded-For", format!("{client}, 10.0.3.7")))
                .to_http_request()
        };
        let too_wide = proxies(&["10.0.0.0/8"]);
        assert_eq!(
            too_wide.client_of(&through("10.1.1.1")),
            Some("10.1.1.1".parse().unwrap())
        );
        assert_ne!(
            too_wide.client_of(&through("10.1.1.1")),
            too_wide.client_of(&through("10.2.2.2"))
        );
    }

    /// The review's G14: a stranger's `Forwarded`/`X-Forwarded-Host` does not choose where an
    /// invitation link points; a trusted proxy's does; `SCRIBEVAULT_PUBLIC_URL` wins.
    #[test]
    fn link_origins_come_from_the_public_url_or_a_trusted_proxy_only() {
        let forged = TestRequest::default()
            .peer_addr("198.51.100.7:5000".parse().unwrap())
            .insert_header(("Host", "vault.example.com"))
            .insert_header(("Forwarded", "host=evil.example;proto=https"))
            .insert_header(("X-Forwarded-Host", "evil.example"))
            .to_http_request();
        let trusted = proxies(&["10.0.0.0/8"]);
        assert_eq!(
            trusted.public_origin(&forged, None).unwrap().as_str(),
            "http://vault.example.com/"
        );
        let proxied = TestRequest::default()
            .peer_addr("10.0.0.2:5000".parse().unwrap())
            .insert_header(("Host", "gateway:8080"))
            .insert_header(("X-Forwarded-Host", "vault.example.com"))
            .insert_header(("X-Forwarded-Proto", "https"))
            .to_http_request();
        assert_eq!(
            trusted.public_origin(&proxied, None).unwrap().as_str(),
            "https://vault.example.com/"
        );
        let public: url::Url = "https://public.example.org/base".parse().unwrap();
        assert_eq!(
            trusted.public_origin(&forged, Some(&public)).unwrap(),
            public
        );
    }
}
