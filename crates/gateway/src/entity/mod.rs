//! Tables owned by the gateway.

pub mod user_account;
