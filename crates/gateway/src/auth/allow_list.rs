//! The OIDC allow-lists by email, checked again wherever a member's credential outlives the
//! sign-in they were checked at: API tokens and feed links (review G5). An operator who takes
//! someone off the list expects them out at their next request, not when those expire.

/// `SCRIBEVAULT_OIDC_ALLOWED_EMAILS` and `_ALLOWED_DOMAINS`; both empty (and in local mode)
/// everyone is listed.
#[derive(Debug, Clone, Default)]
pub struct EmailAllowList {
    pub emails: Vec<String>,
    pub domains: Vec<String>,
}

impl EmailAllowList {
    /// Whether `email` (lower-cased, verified) is on the lists.
    #[must_use]
    pub fn lists(&self, email: &str) -> bool {
        self.emails.is_empty() && self.domains.is_empty()
            || self.emails.iter().any(|allowed| allowed == email)
            || email
                .rsplit_once('@')
                .is_some_and(|(_, domain)| self.domains.iter().any(|allowed| allowed == domain))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_email_is_listed_by_itself_or_its_domain_and_empty_lists_list_everyone() {
        let list = EmailAllowList {
            emails: vec!["ada@example.org".into()],
            domains: vec!["team.example".into()],
        };
        assert!(list.lists("ada@example.org"));
        assert!(list.lists("bob@team.example"));
        assert!(!list.lists("mallory@example.org"));
        assert!(!list.lists("mallory@evilteam.example"));
        assert!(EmailAllowList::default().lists("anyone@x.org"));
    }
}
