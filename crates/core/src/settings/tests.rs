//! The settings' loading, layering and validation, key by key.

use super::*;

fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn defaults_are_the_embedded_mode() {
    let settings = Settings::load_from(None, env(&[])).unwrap();
    assert_eq!(settings.http_addr, "127.0.0.1:8080");
    assert_eq!(settings.auth_mode().unwrap(), AuthMode::Local);
    assert!(settings.amqp_url.is_none());
    assert!(
        settings
            .effective_database_url()
            .starts_with("sqlite://./data/scribevault.db")
    );
    assert_eq!(settings.max_upload_bytes, 500 * 1024 * 1024);
}

#[test]
fn environment_overrides_file_which_overrides_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("settings.toml");
    std::fs::write(
        &file,
        "http_addr = \"127.0.0.1:9000\"\ndata_dir = \"/srv/sv\"\n",
    )
    .unwrap();
    let settings = Settings::load_from(
        Some(&file),
        env(&[
            ("SCRIBEVAULT_HTTP_ADDR", "127.0.0.1:9001"),
            ("SCRIBEVAULT_MAX_RETRIES", "3"),
        ]),
    )
    .unwrap();
    assert_eq!(settings.http_addr, "127.0.0.1:9001");
    assert_eq!(settings.data_dir, PathBuf::from("/srv/sv"));
    assert_eq!(settings.max_retries, 3);
}

#[test]
fn bad_values_name_their_key() {
    for (key, value) in [
        ("SCRIBEVAULT_AUTH", "ldap"),
        ("SCRIBEVAULT_AMQP_URL", "not a url"),
        ("SCRIBEVAULT_DATABASE_URL", "mysql://x"),
        ("SCRIBEVAULT_HTTP_ADDR", "localhost"),
        ("SCRIBEVAULT_REDIS_URL", "http://x"),
    ] {
        let error = Settings::load_from(None, env(&[(key, value)]))
            .unwrap_err()
            .to_string();
        assert!(error.contains(key), "{error} should name {key}");
    }
    let error = Settings::load_from(None, env(&[("SCRIBEVAULT_MAX_RETRIES", "many")]))
        .unwrap_err()
        .to_string();
    assert!(error.contains("SCRIBEVAULT_MAX_RETRIES"), "{error}");
}

#[test]
fn s3_keys_come_from_the_aws_names_unless_set_and_are_never_printed() {
    use secrecy::ExposeSecret as _;
    let settings = Settings::load_from(
        None,
        env(&[
            ("AWS_ACCESS_KEY_ID", "aws-id"),
            ("AWS_SECRET_ACCESS_KEY", "aws-secret-value"),
            ("SCRIBEVAULT_S3_ACCESS_KEY_ID", "own-id"),
        ]),
    )
    .unwrap();
    assert_eq!(
        settings.s3_access_key_id.as_ref().unwrap().expose_secret(),
        "own-id"
    );
    assert_eq!(
        settings
            .s3_secret_access_key
            .as_ref()
            .unwrap()
            .expose_secret(),
        "aws-secret-value"
    );
    assert!(!format!("{settings:?}").contains("aws-secret-value"));
}

#[test]
fn knobs_have_defaults_and_refuse_bad_values() {
    let settings = Settings::load_from(None, env(&[])).unwrap();
    assert_eq!(settings.max_deliveries, 5);
    assert_eq!(settings.retry_max_delay_seconds, 300);
    assert_eq!(settings.whisper_language, "en");
    assert_eq!(settings.default_model, "small");
    for (key, value) in [
        ("SCRIBEVAULT_S3_PART_SIZE_BYTES", "1024"),
        ("SCRIBEVAULT_MAX_DELIVERIES", "0"),
        ("SCRIBEVAULT_HOUSEKEEPING_INTERVAL_MS", "5"),
        ("SCRIBEVAULT_DATABASE_MAX_CONNECTIONS", "0"),
        ("SCRIBEVAULT_WHISPER_LANGUAGE", "german"),
    ] {
        let error = Settings::load_from(None, env(&[(key, value)]))
            .unwrap_err()
            .to_string();
        assert!(error.contains(key), "{error} should name {key}");
    }
}

#[test]
fn oidc_needs_issuer_and_audience() {
    let error = Settings::load_from(None, env(&[("SCRIBEVAULT_AUTH", "oidc")])).unwrap_err();
    assert!(error.to_string().contains("SCRIBEVAULT_OIDC_ISSUER"));
}
