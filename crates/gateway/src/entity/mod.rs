//! Tables owned by the gateway.

pub mod auth_session;
pub mod invitation;
pub mod member;
pub mod two_factor;
pub mod user_account;
pub mod user_setting;
