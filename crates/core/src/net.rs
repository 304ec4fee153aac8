//! Client addresses behind reverse proxies: which peers are trusted to say who the client is.

use std::net::IpAddr;

/// An address range such as `10.0.0.0/8` or `fd00::/8` (a bare address is a /32 or /128).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Parses `address[/prefix]`.
    ///
    /// # Errors
    /// Not an address, or a prefix longer than the address.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (address, prefix) = match text.trim().split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text.trim(), None),
        };
        let network: IpAddr = address
            .parse()
            .map_err(|_| format!("{address:?} is not an IP address"))?;
        let width = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|prefix| *prefix <= width)
                .ok_or_else(|| format!("prefix must be 0..={width}"))?,
            None => width,
        };
        Ok(Self { network, prefix })
    }

    /// Whether `address` lies in the range (an IPv4-mapped IPv6 address counts as IPv4).
    #[must_use]
    pub fn contains(&self, address: IpAddr) -> bool {
        let address = canonical(address);
        match (self.network, address) {
            (IpAddr::V4(network), IpAddr::V4(address)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(network) & mask == u32::from(address) & mask
            }
            (IpAddr::V6(network), IpAddr::V6(address)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(network) & mask == u128::from(address) & mask
            }
            _ => false,
        }
    }
}

/// IPv4-mapped IPv6 addresses as IPv4, so one rule covers a dual-stack listener.
#[must_use]
pub fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        IpAddr::V4(_) => address,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ranges_contain_their_addresses_only() {
        let range = Cidr::parse("10.1.0.0/16").unwrap();
        assert!(range.contains(ip("10.1.255.3")));
        assert!(!range.contains(ip("10.2.0.1")));
        assert!(range.contains(ip("::ffff:10.1.0.9")));
        let single = Cidr::parse("127.0.0.1").unwrap();
        assert!(single.contains(ip("127.0.0.1")));
        assert!(!single.contains(ip("127.0.0.2")));
        let v6 = Cidr::parse("fd00::/8").unwrap();
        assert!(v6.contains(ip("fd12::1")));
        assert!(!v6.contains(ip("fe80::1")));
        assert!(Cidr::parse("0.0.0.0/0").unwrap().contains(ip("8.8.8.8")));
    }

    #[test]
    fn bad_ranges_are_refused() {
        for bad in [
            "",
            "10.0.0.0/33",
            "fd00::/129",
            "example.org/8",
            "10.0.0.0/x",
        ] {
            assert!(Cidr::parse(bad).is_err(), "{bad:?}");
        }
    }
}
