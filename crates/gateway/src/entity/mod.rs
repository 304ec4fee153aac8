//! Tables owned by the gateway.

pub mod api_token;
pub mod auth_session;
pub mod invitation;
pub mod member;
pub mod podcast_feed;
pub mod recovery_code;
pub mod two_factor;
pub mod user_account;
pub mod user_setting;
