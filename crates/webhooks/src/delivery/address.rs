//! The SSRF guard: a webhook URL may name any host, so a member could otherwise make the
//! webhook service call the instance's own private services or the cloud's metadata endpoint.
//! Only http(s) URLs without credentials are taken; the host is resolved here, every address it
//! resolves to must be public (unless the admin allows private ones), and the request is then
//! sent to exactly those addresses, so a DNS answer that changes between the check and the
//! connection (rebinding) cannot slip a private address in.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::LazyLock;

use ipnet::IpNet;
use url::Url;

/// Longest URL taken, in bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// Why a URL is not called.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlRefused {
    #[error("url is not a valid absolute URL")]
    Unparsable,
    #[error("url must be at most {MAX_URL_BYTES} characters")]
    TooLong,
    #[error("url must use http or https")]
    Scheme,
    #[error("url must not contain a user name or password")]
    Credentials,
    #[error("url has no host")]
    NoHost,
    #[error("url's host {host} does not resolve")]
    Unresolvable { host: String },
    /// Loopback, private, link-local, CGNAT, multicast, reserved or unspecified. The address
    /// is not said: the answer would map the instance's internal DNS for any member.
    #[error(
        "url's host resolves to a private or reserved address; webhooks only call public addresses unless the admin sets SCRIBEVAULT_WEBHOOKS_ALLOW_PRIVATE=true"
    )]
    Private,
    /// A port other than 80 and 443, which would let members probe any service's port.
    #[error(
        "url must use port 80 or 443 unless the admin sets SCRIBEVAULT_WEBHOOKS_ALLOW_ANY_PORT=true"
    )]
    Port,
}

/// Ranges never called unless private addresses are allowed: the IANA special-purpose
/// registries' non-global blocks, as CIDRs for `ipnet` to match (std's `is_global` is not
/// stable).
static FORBIDDEN: LazyLock<Vec<IpNet>> = LazyLock::new(|| {
    [
        "0.0.0.0/8",       // "this network", unspecified
        "10.0.0.0/8",      // RFC 1918
        "100.64.0.0/10",   // CGNAT (RFC 6598)
        "127.0.0.0/8",     // loopback
        "169.254.0.0/16",  // link-local, cloud metadata (169.254.169.254)
        "172.16.0.0/12",   // RFC 1918
        "192.0.0.0/24",    // IETF protocol assignments
        "192.0.2.0/24",    // TEST-NET-1
        "192.88.99.0/24",  // 6to4 relay anycast
        "192.168.0.0/16",  // RFC 1918
        "198.18.0.0/15",   // benchmarking
        "198.51.100.0/24", // TEST-NET-2
        "203.0.113.0/24",  // TEST-NET-3
        "224.0.0.0/4",     // multicast
        "240.0.0.0/4",     // reserved, broadcast
        "::/96",           // unspecified, loopback, IPv4-compatible (deprecated)
        "64:ff9b:1::/48",  // local-use NAT64 (RFC 8215): not global, whatever it embeds
        "100::/64",        // discard-only
        "2001::/23",       // IETF protocol assignments (Teredo, ORCHID, …)
        "2001:db8::/32",   // documentation
        "3fff::/20",       // documentation (RFC 9637)
        "5f00::/16",       // SRv6 SIDs (RFC 9602)
        "fc00::/7",        // unique local
        "fe80::/10",       // link-local
        "fec0::/10",       // site-local (deprecated)
        "ff00::/8",        // multicast
    ]
    .iter()
    .map(|net| net.parse().expect("the forbidden ranges are valid CIDRs"))
    .collect()
});

/// Whether `address` is one a webhook must not reach by default. IPv6 forms that carry an
/// IPv4 address (mapped `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
/// `2002::/16`) are judged by that IPv4 address.
#[must_use]
pub fn is_forbidden(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => is_forbidden_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = embedded_v4(v6) {
                return is_forbidden_v4(v4);
            }
            v6.is_loopback()
                || v6.is_unspecified()
                || FORBIDDEN.iter().any(|net| net.contains(&IpAddr::V6(v6)))
        }
    }
}

fn is_forbidden_v4(v4: Ipv4Addr) -> bool {
    v4.is_loopback()
        || v4.is_private()
        || v4.is_link_local()
        || v4.is_multicast()
        || v4.is_unspecified()
        || v4.is_broadcast()
        || FORBIDDEN.iter().any(|net| net.contains(&IpAddr::V4(v4)))
}

fn embedded_v4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = v6.to_ipv4_mapped() {
        return Some(v4);
    }
    let segments = v6.segments();
    let octets = v6.octets();
    let last_32 = Ipv4Addr::new(octets[12], octets[13], octets[14], octets[15]);
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some(last_32);
    }
    // SIIT's IPv4-translated addresses, ::ffff:0:a.b.c.d (RFC 2765).
    if segments[..6] == [0, 0, 0, 0, 0xffff, 0] {
        return Some(last_32);
    }
    if segments[0] == 0x2002 {
        return Some(Ipv4Addr::new(octets[2], octets[3], octets[4], octets[5]));
    }
    None
}

/// What a webhook may call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressPolicy {
    /// `SCRIBEVAULT_WEBHOOKS_ALLOW_PRIVATE`: receivers on the instance's own network.
    pub allow_private: bool,
    /// `SCRIBEVAULT_WEBHOOKS_ALLOW_ANY_PORT`: receivers on ports other than 80 and 443.
    pub allow_any_port: bool,
}

impl AddressPolicy {
    /// The URL's form: absolute http(s), no credentials, a host, port 80 or 443 (unless any is
    /// allowed), at most 2,048 bytes.
    ///
    /// # Errors
    /// The first rule the URL breaks.
    pub fn parse(self, raw: &str) -> Result<Url, UrlRefused> {
        if raw.len() > MAX_URL_BYTES {
            return Err(UrlRefused::TooLong);
        }
        let url = Url::parse(raw.trim()).map_err(|_| UrlRefused::Unparsable)?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(UrlRefused::Scheme);
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(UrlRefused::Credentials);
        }
        if url.host().is_none() {
            return Err(UrlRefused::NoHost);
        }
        if !self.allow_any_port && !matches!(url.port_or_known_default(), Some(80 | 443)) {
            return Err(UrlRefused::Port);
        }
        Ok(url)
    }

    /// Every address the URL's host stands for, each checked; the request must go to these
    /// and no others.
    ///
    /// # Errors
    /// The host does not resolve, or one of its addresses is not allowed.
    pub async fn resolve(self, url: &Url) -> Result<Vec<SocketAddr>, UrlRefused> {
        let port = url.port_or_known_default().ok_or(UrlRefused::Scheme)?;
        let addresses: Vec<SocketAddr> = match url.host() {
            None => return Err(UrlRefused::NoHost),
            Some(url::Host::Ipv4(v4)) => vec![SocketAddr::new(IpAddr::V4(v4), port)],
            Some(url::Host::Ipv6(v6)) => vec![SocketAddr::new(IpAddr::V6(v6), port)],
            Some(url::Host::Domain(domain)) => {
                let unresolvable = || UrlRefused::Unresolvable {
                    host: domain.to_owned(),
                };
                tokio::net::lookup_host((domain, port))
                    .await
                    .map_err(|_| unresolvable())?
                    .collect()
            }
        };
        if addresses.is_empty() {
            return Err(UrlRefused::Unresolvable {
                host: url.host_str().unwrap_or_default().to_owned(),
            });
        }
        // One bad address refuses the lot: a name that answers both public and private
        // addresses is the shape of a rebinding attempt.
        if !self.allow_private
            && let Some(bad) = addresses.iter().find(|address| is_forbidden(address.ip()))
        {
            tracing::debug!(address = %bad.ip(), "a webhook URL resolves to a forbidden address");
            return Err(UrlRefused::Private);
        }
        Ok(addresses)
    }

    /// [`Self::parse`] then [`Self::resolve`]: what a new or changed webhook goes through.
    ///
    /// # Errors
    /// As either.
    pub async fn check(self, raw: &str) -> Result<Url, UrlRefused> {
        let url = self.parse(raw)?;
        self.resolve(&url).await?;
        Ok(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: AddressPolicy = AddressPolicy {
        allow_private: false,
        allow_any_port: false,
    };

    fn forbidden(address: &str) -> bool {
        is_forbidden(address.parse().unwrap())
    }

    #[test]
    fn private_loopback_link_local_cgnat_multicast_and_unspecified_are_forbidden() {
        for address in [
            "127.0.0.1",
            "127.8.9.10",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.254",
            "224.0.0.1",
            "239.255.255.250",
            "0.0.0.0",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a00:1",
            "2002:c0a8:101::1",
        ] {
            assert!(forbidden(address), "{address} must be refused");
        }
    }

    #[test]
    fn public_addresses_are_allowed() {
        for address in [
            "1.1.1.1",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
        ] {
            assert!(!forbidden(address), "{address} must be allowed");
        }
    }

    #[test]
    fn only_http_urls_without_credentials_are_taken() {
        assert_eq!(
            STRICT.parse("ftp://example.com/hook"),
            Err(UrlRefused::Scheme)
        );
        assert_eq!(STRICT.parse("file:///etc/passwd"), Err(UrlRefused::Scheme));
        assert_eq!(
            STRICT.parse("https://user:pw@example.com/"),
            Err(UrlRefused::Credentials)
        );
        assert_eq!(STRICT.parse("not a url"), Err(UrlRefused::Unparsable));
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_BYTES));
        assert_eq!(STRICT.parse(&long), Err(UrlRefused::TooLong));
        assert!(STRICT.parse("https://example.com/hook?x=1").is_ok());
        assert!(STRICT.parse("http://example.com:80/hook").is_ok());
        assert_eq!(
            STRICT.parse("https://example.com:8443/hook"),
            Err(UrlRefused::Port)
        );
        assert_eq!(
            STRICT.parse("http://example.com:5432/"),
            Err(UrlRefused::Port)
        );
        let any_port = AddressPolicy {
            allow_private: false,
            allow_any_port: true,
        };
        assert!(any_port.parse("https://example.com:8443/hook").is_ok());
    }

    #[test]
    fn every_ipv6_special_range_is_refused_and_embedded_ipv4_is_judged() {
        for address in [
            "64:ff9b:1::a00:1", // local-use NAT64 of 10.0.0.1
            "::ffff:0:a00:1",   // SIIT of 10.0.0.1
            "::ffff:0:7f00:1",  // SIIT of 127.0.0.1
            "3fff::1",          // documentation
            "5f00::1",          // SRv6
            "2001:db8::1",
            "fd00::1",
            "ff02::1",
        ] {
            assert!(is_forbidden(address.parse().unwrap()), "{address}");
        }
        // Public addresses, and the translation prefixes around a public IPv4 address, are not.
        assert!(!is_forbidden("64:ff9b::808:808".parse().unwrap()));
        assert!(!is_forbidden("::ffff:0:808:808".parse().unwrap()));
        assert!(!is_forbidden("2606:4700::1111".parse().unwrap()));
    }

    #[tokio::test]
    async fn a_refusal_does_not_say_what_a_host_resolves_to() {
        let refused = STRICT.check("http://localhost/").await.unwrap_err();
        let message = refused.to_string();
        assert!(
            !message.contains("127.0.0.1") && !message.contains("::1"),
            "{message}"
        );
    }

    #[tokio::test]
    async fn literal_and_resolved_private_hosts_are_refused_unless_allowed() {
        for url in [
            "http://127.0.0.1/",
            "http://[::1]/",
            "http://169.254.169.254/latest/meta-data",
            "http://localhost/",
            "http://0x7f000001/",
            "http://2130706433/",
        ] {
            assert!(
                matches!(STRICT.check(url).await, Err(UrlRefused::Private)),
                "{url} must be refused"
            );
        }
        let open = AddressPolicy {
            allow_private: true,
            allow_any_port: true,
        };
        assert!(open.check("http://127.0.0.1:8080/").await.is_ok());
    }
}
