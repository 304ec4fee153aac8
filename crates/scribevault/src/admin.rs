//! `scribevault admin …`: the owner's tools on the gateway's database.

use scribevault_core::Settings;
use scribevault_gateway::operator::Operator;

use crate::cli::AdminCommand;

/// Runs one admin command and prints its result.
///
/// # Errors
/// The database cannot be opened, or the command fails (unknown email, …).
pub async fn run(settings: &Settings, command: AdminCommand) -> anyhow::Result<()> {
    let operator = Operator::open(crate::backends::database(settings).await?).await?;
    match command {
        AdminCommand::ListUsers => {
            let members = operator.members().await?;
            println!(
                "{:<40} {:<6} {:<9} {:<20} {:<20}",
                "EMAIL", "ROLE", "STATUS", "CREATED", "LAST SIGN-IN"
            );
            for member in members {
                println!(
                    "{:<40} {:<6} {:<9} {:<20} {:<20}",
                    member.email,
                    if member.is_admin { "admin" } else { "member" },
                    if member.disabled {
                        "disabled"
                    } else {
                        "active"
                    },
                    member.created_at.format("%Y-%m-%d %H:%M"),
                    member.last_sign_in_at.map_or_else(
                        || "never".to_owned(),
                        |at| at.format("%Y-%m-%d %H:%M").to_string()
                    ),
                );
            }
        }
        AdminCommand::MakeAdmin { email } => {
            let member = operator.make_admin(&email).await?;
            println!("{} is now an admin of this instance", member.email);
        }
        AdminCommand::ResetPassword { email } => {
            let password = operator.reset_password(&email).await?;
            println!("New password for {email}: {password}");
            println!(
                "Every session of the account was signed out; change it in Settings → Account."
            );
        }
        AdminCommand::Invite { hours, base_url } => {
            let (secret, expires_at) = operator.invite(hours).await?;
            println!(
                "{}/sign-up?invitation={secret}",
                base_url.trim_end_matches('/')
            );
            println!(
                "Works once, until {}",
                expires_at.format("%Y-%m-%d %H:%M UTC")
            );
        }
    }
    Ok(())
}
