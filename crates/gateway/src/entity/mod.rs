//! Tables owned by the gateway.

pub mod user_account;
pub mod user_setting;
