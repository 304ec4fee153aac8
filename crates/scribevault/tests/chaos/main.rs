//! The chaos harness (issue 21 point 4; `docs/reliability.md`, "Chaos"): every target as its own
//! process on PostgreSQL, RabbitMQ and S3, under a mixed load of uploads, transcriptions with
//! the tiny model, download jobs against the local media server and Vault edits, while, round
//! after round, it `kill -9`s the worker mid-file, the transcription service, the discovery
//! service mid-download, the library mid-ingest and the webhook service while items are made,
//! and restarts RabbitMQ and PostgreSQL. Then it checks that every accepted file ended
//! transcribed (in the Vault, once) or failed with a message, that no upload was lost, that
//! every job is final, that every Vault item reached its owner's webhook under one delivery id,
//! and that no yt-dlp (or its ffmpeg, or tesseract) outlived the process that started it.
//!
//! It restarts its PostgreSQL and RabbitMQ, so it must never run beside other tests: it is
//! `#[ignore]`d, and `scripts/chaos.sh` (which gives it servers of its own) runs it alone with
//! `--run-ignored only`. `SCRIBEVAULT_CHAOS_ROUNDS` sets the rounds (default 3).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a harness fails loudly on purpose

#[path = "../api/helpers.rs"]
#[allow(dead_code)] // the harness uses a few of the end-to-end tests' helpers
mod helpers;

mod cluster;
mod load;
mod procfs;
mod receiver;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use scribevault_test_support::media::{MediaServer, ytdlp};
use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
use sea_orm::{ConnectionTrait as _, DatabaseConnection, DbBackend, Statement};
use serde_json::json;

use crate::cluster::Cluster;
use crate::load::{Api, Ledger, tagged_mp3};

/// Rounds when `SCRIBEVAULT_CHAOS_ROUNDS` is not set.
const DEFAULT_ROUNDS: usize = 3;

/// Longest wait for a meaningful moment (a file transcribing, yt-dlp running) before a kill.
const MOMENT_TIMEOUT: Duration = Duration::from_secs(60);

/// Longest the system may take, once the load stops, to bring every file and job to an end.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(240);

/// What the harness kills or restarts, in the order of a round.
#[derive(Clone, Copy, Debug)]
enum Disruption {
    WorkerMidFile,
    TranscriptionService,
    DiscoveryMidDownload,
    LibraryMidIngest,
    WebhooksWhileItemsAreMade,
    RabbitMq,
    PostgreSql,
}

const ROUND: [Disruption; 7] = [
    Disruption::WorkerMidFile,
    Disruption::TranscriptionService,
    Disruption::DiscoveryMidDownload,
    Disruption::LibraryMidIngest,
    Disruption::WebhooksWhileItemsAreMade,
    Disruption::RabbitMq,
    Disruption::PostgreSql,
];

fn required_env(key: &str) -> String {
    std::env::var(key)
        .ok()
        .filter(|value| !value.is_empty())
        .unwrap_or_else(|| panic!("{key} is not set: run the harness with scripts/chaos.sh"))
}

/// One number from the database (`SELECT … AS n`); `None` while it is unreachable.
async fn count(db: &DatabaseConnection, sql: &str) -> Option<i64> {
    let row = db
        .query_one_raw(Statement::from_string(DbBackend::Postgres, sql.to_owned()))
        .await
        .ok()??;
    row.try_get::<i64>("", "n").ok()
}

/// Polls `sql` until it counts more than `above`, or `timeout`; whether it did.
async fn wait_count_above(
    db: &DatabaseConnection,
    sql: &str,
    above: i64,
    timeout: Duration,
    every: Duration,
) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if count(db, sql).await.is_some_and(|n| n > above) {
            return true;
        }
        tokio::time::sleep(every).await;
    }
    false
}

/// Files a worker holds (claimed, decoding or in whisper): an 8 s file reports its progress
/// only at the end, so `progress > 0` would miss most of them.
const TRANSCRIBING_NOW: &str =
    "SELECT count(*) AS n FROM transcription_files WHERE status = 'transcribing'";
const COMPLETED: &str = "SELECT count(*) AS n FROM transcription_files WHERE status = 'completed'";
const VAULT_ITEMS: &str = "SELECT count(*) AS n FROM library_items";
const UNFINISHED: &str = "SELECT (SELECT count(*) FROM transcription_files WHERE status NOT IN ('completed', 'failed')) + (SELECT count(*) FROM download_jobs WHERE status NOT IN ('COMPLETED', 'FAILED')) AS n";

/// The rounds to run: `SCRIBEVAULT_CHAOS_ROUNDS`, else [`DEFAULT_ROUNDS`].
fn rounds_to_run() -> usize {
    std::env::var("SCRIBEVAULT_CHAOS_ROUNDS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(DEFAULT_ROUNDS)
}

/// What `scripts/chaos.sh` hands the harness: servers of its own, the script itself (to restart
/// them), and yt-dlp.
struct ChaosEnv {
    postgres: String,
    amqp: String,
    control: String,
    s3: String,
    ytdlp: String,
}

impl ChaosEnv {
    fn read() -> Self {
        Self {
            postgres: required_env("SCRIBEVAULT_CHAOS_POSTGRES_URL"),
            amqp: required_env("SCRIBEVAULT_CHAOS_AMQP_URL"),
            control: required_env("SCRIBEVAULT_CHAOS_CONTROL"),
            s3: required_env(scribevault_test_support::S3_ENDPOINT_ENV),
            ytdlp: ytdlp("chaos").expect("yt-dlp and ffmpeg (scripts/install-media-tools.sh)"),
        }
    }
}

/// The deployment under chaos, its two members and their source, and what the harness keeps
/// across the rounds.
struct Harness {
    cluster: Cluster,
    db: DatabaseConnection,
    api: Arc<Api>,
    users: [(String, String); 2],
    ledger: Arc<Ledger>,
    /// `scripts/chaos.sh`, which restarts RabbitMQ and PostgreSQL.
    control: String,
    source_id: String,
    video_ids: Vec<String>,
    /// Helpers that outlived the process that started them.
    orphans: Vec<String>,
}

impl Harness {
    /// Starts every target, signs up two members whose webhooks go to `receiver`, and adds
    /// the channel as the first one's source, its videos served slowly by `media`.
    async fn start(
        env: ChaosEnv,
        (database_url, db): (String, DatabaseConnection),
        (media, youtube): (&MediaServer, &FakeYouTube),
        receiver: &receiver::Receiver,
    ) -> Self {
        let cluster = Cluster::start(cluster::Settings {
            database_url,
            amqp: env.amqp,
            s3: env.s3,
            ytdlp: env.ytdlp,
            youtube_base: youtube.base_url(),
            watch_url: media.watch_url(),
        })
        .await;
        let api = Arc::new(Api::new(cluster.http_base()));
        let users = [
            api.sign_up("chaos-one@example.com").await,
            api.sign_up("chaos-two@example.com").await,
        ];
        // Each member's webhook hears of every Vault item made for them.
        let hook_url = receiver.start().await;
        for (token, _) in &users {
            let (status, body) = api
                .send(
                    reqwest::Method::POST,
                    "/api/webhooks",
                    token,
                    Some(&json!({ "url": hook_url, "events": ["item.created"] })),
                )
                .await;
            assert_eq!(status, 201, "webhook: {body}");
        }
        let (source_id, video_ids) = api.add_source(&users[0].0, "@chaosradio").await;
        for (n, id) in video_ids.iter().enumerate() {
            let body = tagged_mp3(n % 4, &format!("chaos video {n}"));
            // About 6 s per video: long enough to find yt-dlp at work and kill its parent.
            let chunk = body.len() / 30 + 1;
            media.add_slow_audio(id, body, chunk, Duration::from_millis(200));
        }
        Self {
            cluster,
            db,
            api,
            users,
            ledger: Arc::new(Ledger::default()),
            control: env.control,
            source_id,
            video_ids,
            orphans: Vec::new(),
        }
    }

    /// Every disruption of a round, `rounds` times, the load running on between two; returns
    /// each disruption with whether it struck at its moment.
    async fn run_rounds(&mut self, rounds: usize) -> Vec<(Disruption, bool)> {
        let mut moments = Vec::new();
        for round in 0..rounds {
            for disruption in ROUND {
                let began = Instant::now();
                let hit = self.disrupt(disruption, round).await;
                moments.push((disruption, hit));
                eprintln!(
                    "chaos: round {}/{rounds}: {disruption:?} ({}, {:.1} s) — {}",
                    round + 1,
                    if hit {
                        "at the moment"
                    } else {
                        "moment not seen"
                    },
                    began.elapsed().as_secs_f64(),
                    self.ledger.summary(),
                );
                // Let the load run on between two disruptions.
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        }
        moments
    }

    /// Causes `disruption` (in round `round`, counted from 0); whether it struck at its moment.
    async fn disrupt(&mut self, disruption: Disruption, round: usize) -> bool {
        match disruption {
            Disruption::WorkerMidFile => {
                let hit = self.wait_for_a_file_in_transcription().await;
                self.cluster.kill("transcription-worker").await;
                self.cluster.restart("transcription-worker").await;
                hit
            }
            Disruption::TranscriptionService => {
                let hit = self.wait_for_a_file_in_transcription().await;
                self.cluster.kill("transcription").await;
                tokio::time::sleep(Duration::from_secs(1)).await;
                self.cluster.restart("transcription").await;
                hit
            }
            Disruption::DiscoveryMidDownload => self.kill_discovery_mid_download(round).await,
            Disruption::LibraryMidIngest => self.kill_the_library_mid_ingest().await,
            Disruption::WebhooksWhileItemsAreMade => {
                self.kill_webhooks_while_items_are_made().await
            }
            Disruption::RabbitMq => {
                restart_server(&self.control, "restart-rabbitmq").await;
                true
            }
            Disruption::PostgreSql => {
                restart_server(&self.control, "restart-postgres").await;
                true
            }
        }
    }

    /// Waits until a worker holds a file (or [`MOMENT_TIMEOUT`]); whether one did.
    async fn wait_for_a_file_in_transcription(&self) -> bool {
        wait_count_above(
            &self.db,
            TRANSCRIBING_NOW,
            0,
            MOMENT_TIMEOUT,
            Duration::from_millis(100),
        )
        .await
    }

    /// Starts a download job and kills discovery once its yt-dlp is into the file; a helper of
    /// discovery's still alive a second later is an orphan (and is killed). Whether yt-dlp was
    /// seen at work.
    async fn kill_discovery_mid_download(&mut self, round: usize) -> bool {
        let video = &self.video_ids[round % self.video_ids.len()];
        let (status, body) = self
            .api
            .send(
                reqwest::Method::POST,
                "/api/downloads",
                &self.users[0].0,
                Some(&json!({ "sourceId": self.source_id, "videoIds": [video], "transcribe": true, "model": "small" })),
            )
            .await;
        assert_eq!(status, 201, "download job: {body}");
        self.ledger.download_jobs.fetch_add(1, Ordering::Relaxed);
        let discovery = self.cluster.pid("discovery");
        let deadline = Instant::now() + MOMENT_TIMEOUT;
        let mut fetching = Vec::new();
        while Instant::now() < deadline && fetching.is_empty() {
            fetching = procfs::descendants_named(discovery, &["yt-dlp"]);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Let it get into the file before the kill.
        tokio::time::sleep(Duration::from_millis(700)).await;
        let children = procfs::descendants(discovery);
        self.cluster.kill("discovery").await;
        tokio::time::sleep(Duration::from_secs(1)).await;
        for pid in children {
            if let Some(name) = procfs::alive_helper(pid) {
                self.orphans.push(format!(
                    "round {}: {name} (pid {pid}) still ran 1 s after discovery was killed",
                    round + 1
                ));
                procfs::kill(pid);
            }
        }
        self.cluster.restart("discovery").await;
        !fetching.is_empty()
    }

    /// Files complete while the library is down, so a backlog of ingests waits on the queue;
    /// the restarted library is killed as soon as it has stored the first of them, in the
    /// middle of the rest. Whether it stored one before the kill.
    async fn kill_the_library_mid_ingest(&mut self) -> bool {
        let db = &self.db;
        self.cluster.kill("library").await;
        let completed = count(db, COMPLETED).await.unwrap_or(0);
        wait_count_above(
            db,
            COMPLETED,
            completed + 1,
            MOMENT_TIMEOUT,
            Duration::from_millis(200),
        )
        .await;
        let items = count(db, VAULT_ITEMS).await.unwrap_or(0);
        self.cluster.restart("library").await;
        let hit = wait_count_above(
            db,
            VAULT_ITEMS,
            items,
            Duration::from_secs(20),
            Duration::from_millis(10),
        )
        .await;
        self.cluster.kill("library").await;
        self.cluster.restart("library").await;
        hit
    }

    /// Killed as an item appears (its event on the way in), and kept down until another is
    /// made, whose event must wait for the restarted service. Whether that other was made.
    async fn kill_webhooks_while_items_are_made(&mut self) -> bool {
        let db = &self.db;
        let items = count(db, VAULT_ITEMS).await.unwrap_or(0);
        wait_count_above(
            db,
            VAULT_ITEMS,
            items,
            MOMENT_TIMEOUT,
            Duration::from_millis(50),
        )
        .await;
        self.cluster.kill("webhooks").await;
        let items = count(db, VAULT_ITEMS).await.unwrap_or(0);
        let hit = wait_count_above(
            db,
            VAULT_ITEMS,
            items,
            MOMENT_TIMEOUT,
            Duration::from_millis(200),
        )
        .await;
        self.cluster.restart("webhooks").await;
        hit
    }

    /// Helpers still running once nothing is left to do, started by any of our processes, are
    /// orphans too.
    fn note_leftover_helpers(&mut self, media: &MediaServer) {
        let leftovers = procfs::leftover_helpers(&media.watch_url(), &self.cluster.pids());
        self.orphans.extend(
            leftovers
                .iter()
                .map(|(pid, name)| format!("{name} (pid {pid}) still runs at the end")),
        );
    }
}

/// Once the load has stopped, waits for every file and job to end, every completed file to
/// reach the Vault and every item its webhook (each within its own deadline); returns how long
/// that took.
async fn drain(db: &DatabaseConnection, receiver: &receiver::Receiver) -> Duration {
    let drain_started = Instant::now();
    let deadline = drain_started + DRAIN_TIMEOUT;
    while count(db, UNFINISHED).await != Some(0) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    // Completed files reach the Vault through the ingest queue; give the last ones time.
    let vault_deadline = Instant::now() + Duration::from_secs(60);
    while count(db, MISSING_FROM_VAULT).await != Some(0) && Instant::now() < vault_deadline {
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    // Every item's webhook delivery; one whose attempt a kill cut short is tried again once
    // its claim runs out (the webhook timeout and 30 s).
    let hooks_deadline = Instant::now() + Duration::from_secs(90);
    while undelivered(db, receiver)
        .await
        .is_some_and(|missing| !missing.is_empty())
        && Instant::now() < hooks_deadline
    {
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    drain_started.elapsed()
}

/// Adds to `report` the Vault items no webhook delivery reached (lost) and those delivered
/// under more than one delivery id (duplicates).
async fn add_webhook_findings(
    report: &mut Report,
    db: &DatabaseConnection,
    receiver: &receiver::Receiver,
    received: &receiver::Received,
) {
    report.lost.extend(
        undelivered(db, receiver)
            .await
            .unwrap_or_default()
            .into_iter()
            .map(|item| format!("Vault item {item} never reached its webhook")),
    );
    report.duplicates.extend(
        received
            .ids_by_item
            .iter()
            .filter(|(_, ids)| ids.len() > 1)
            .map(|(item, ids)| {
                format!(
                    "Vault item {item} delivered as {} deliveries: {ids:?}",
                    ids.len()
                )
            }),
    );
}

/// How the run went, besides the report: for the figures line.
struct Run {
    rounds: usize,
    moments: Vec<(Disruption, bool)>,
    drained: Duration,
    started: Instant,
}

/// Prints the run's figures on one line (`scripts/chaos.sh` keeps it), then every finding.
fn print_figures_and_findings(
    run: &Run,
    harness: &Harness,
    report: &Report,
    received: &receiver::Received,
) {
    let ledger = &harness.ledger;
    let hits = run.moments.iter().filter(|(_, hit)| *hit).count();
    eprintln!(
        "chaos figures: rounds={} disruptions={} at_the_moment={hits} webhook_deliveries={} webhook_repeats={} uploads_accepted={} uploads_refused={} starts_refused={} accepted={} completed={} failed_with_reason={} failed_without_reason={} unfinished={} lost={} duplicates={} download_jobs={} download_jobs_completed={} download_jobs_failed={} take_backs={} retries={} vault_edits={} vault_edits_refused={} orphans={} drain={:.0}s elapsed={:.0}s",
        run.rounds,
        run.moments.len(),
        received.ids_by_item.len(),
        received.repeats,
        ledger.uploads_accepted.load(Ordering::Relaxed),
        ledger.uploads_refused.load(Ordering::Relaxed),
        ledger.starts_refused.load(Ordering::Relaxed),
        report.accepted,
        report.completed,
        report.failed_with_reason,
        report.failed_without_reason,
        report.unfinished,
        report.lost.len(),
        report.duplicates.len(),
        ledger.download_jobs.load(Ordering::Relaxed),
        report.download_jobs_completed,
        report.download_jobs_failed,
        report.take_backs,
        report.retries,
        ledger.edits.load(Ordering::Relaxed),
        ledger.edits_refused.load(Ordering::Relaxed),
        harness.orphans.len(),
        run.drained.as_secs_f64(),
        run.started.elapsed().as_secs_f64(),
    );
    for (what, list) in [
        ("lost", &report.lost),
        ("duplicate", &report.duplicates),
        ("orphan", &harness.orphans),
        ("unfinished", &report.unfinished_rows),
        ("failed", &report.failures),
    ] {
        for line in list {
            eprintln!("chaos: {what}: {line}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "restarts PostgreSQL and RabbitMQ: run alone by scripts/chaos.sh"]
async fn chaos_rounds_lose_nothing_and_duplicate_nothing() {
    let started = Instant::now();
    let rounds = rounds_to_run();
    let env = ChaosEnv::read();
    let database = scribevault_db::TestDatabase::postgres(&env.postgres)
        .await
        .expect("create the harness's database");
    let db = scribevault_db::connect(&database.url)
        .await
        .expect("connect to the harness's database");

    // The outside world: a channel whose videos are served slowly enough to kill discovery
    // while yt-dlp downloads one.
    let media = MediaServer::start().await;
    let youtube = FakeYouTube::start().await;
    let videos_needed = rounds + 2;
    youtube.add_channel(
        FakeChannel::generated(&channel_id(2121), "Chaos Radio", videos_needed)
            .with_handle("chaosradio"),
    );
    let receiver = receiver::Receiver::default();
    let mut harness = Harness::start(
        env,
        (database.url.clone(), db),
        (&media, &youtube),
        &receiver,
    )
    .await;
    let load = load::spawn(
        Arc::clone(&harness.api),
        harness.users.to_vec(),
        Arc::clone(&harness.ledger),
        harness.db.clone(),
    );

    let moments = harness.run_rounds(rounds).await;

    // The load stops; everything accepted must come to an end by itself.
    harness.ledger.stop.store(true, Ordering::Relaxed);
    load.await.expect("the load task");
    let drained = drain(&harness.db, &receiver).await;
    // Time for a late duplicate to show itself.
    tokio::time::sleep(Duration::from_secs(3)).await;

    let mut report = check(&harness.db, &harness.api, &harness.users, &harness.ledger).await;
    let received = receiver.received();
    add_webhook_findings(&mut report, &harness.db, &receiver, &received).await;
    harness.note_leftover_helpers(&media);
    let run = Run {
        rounds,
        moments,
        drained,
        started,
    };
    print_figures_and_findings(&run, &harness, &report, &received);
    drop(harness.cluster);
    let orphans = harness.orphans;
    assert!(report.lost.is_empty(), "lost: {:?}", report.lost);
    assert!(
        report.duplicates.is_empty(),
        "duplicates: {:?}",
        report.duplicates
    );
    assert_eq!(
        report.unfinished, 0,
        "unfinished: {:?}",
        report.unfinished_rows
    );
    assert_eq!(
        report.failed_without_reason, 0,
        "a failure without a message"
    );
    assert!(orphans.is_empty(), "orphans: {orphans:?}");
    assert!(report.accepted > 0, "the load did real work");
}

/// Vault items no webhook delivery has arrived for; `None` while the database is unreachable.
async fn undelivered(
    db: &DatabaseConnection,
    receiver: &receiver::Receiver,
) -> Option<Vec<String>> {
    let items = db
        .query_all_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT id FROM library_items".to_owned(),
        ))
        .await
        .ok()?;
    let delivered = receiver.received().ids_by_item;
    Some(
        items
            .into_iter()
            .filter_map(|row| row.try_get::<String>("", "id").ok())
            .filter(|id| !delivered.contains_key(id))
            .collect(),
    )
}

/// Completed files that have no Vault item.
const MISSING_FROM_VAULT: &str = "SELECT count(*) AS n FROM transcription_files f WHERE f.status = 'completed' AND NOT EXISTS (SELECT 1 FROM library_items i WHERE i.user_id = f.user_id AND i.source_ref = 'transcription:' || f.id)";

/// Runs `scripts/chaos.sh <command>`, which returns once the server accepts connections again.
async fn restart_server(control: &str, command: &str) {
    let status = tokio::process::Command::new(control)
        .arg(command)
        .status()
        .await
        .expect("run scripts/chaos.sh");
    assert!(status.success(), "{control} {command}: {status}");
}

#[derive(Default)]
struct Report {
    accepted: i64,
    completed: i64,
    failed_with_reason: i64,
    failed_without_reason: i64,
    unfinished: i64,
    unfinished_rows: Vec<String>,
    failures: Vec<String>,
    lost: Vec<String>,
    duplicates: Vec<String>,
    download_jobs_completed: i64,
    download_jobs_failed: i64,
    /// Files taken back from a silent (killed) worker, and attempts retried after a failure:
    /// evidence that the kills landed on work in flight.
    take_backs: i64,
    retries: i64,
}

async fn rows(db: &DatabaseConnection, sql: &str) -> Vec<String> {
    db.query_all_raw(Statement::from_string(DbBackend::Postgres, sql.to_owned()))
        .await
        .expect("query the harness's database")
        .into_iter()
        .map(|row| row.try_get::<String>("", "line").unwrap_or_default())
        .collect()
}

/// The end checks, on the database (the truth) and through the public API (what a user sees).
async fn check(
    db: &DatabaseConnection,
    api: &Api,
    users: &[(String, String)],
    ledger: &Ledger,
) -> Report {
    let n = |sql: &'static str| async move { count(db, sql).await.expect("count") };
    let mut report = Report {
        accepted: n("SELECT count(*) AS n FROM transcription_files").await,
        completed: n(COMPLETED).await,
        failed_with_reason: n("SELECT count(*) AS n FROM transcription_files WHERE status = 'failed' AND coalesce(error_message, '') <> ''").await,
        failed_without_reason: n("SELECT count(*) AS n FROM transcription_files WHERE status = 'failed' AND coalesce(error_message, '') = ''").await,
        unfinished: n(UNFINISHED).await,
        download_jobs_completed: n("SELECT count(*) AS n FROM download_jobs WHERE status = 'COMPLETED'").await,
        download_jobs_failed: n("SELECT count(*) AS n FROM download_jobs WHERE status = 'FAILED' AND coalesce(error_message, '') <> ''").await,
        take_backs: n("SELECT coalesce(sum(take_back_count), 0)::bigint AS n FROM transcription_files").await,
        retries: n("SELECT coalesce(sum(retry_count), 0)::bigint AS n FROM transcription_files").await,
        ..Report::default()
    };
    report.unfinished_rows = rows(db, "SELECT 'file ' || id || ' ' || title || ': ' || status || ' ' || coalesce(error_message, '') AS line FROM transcription_files WHERE status NOT IN ('completed', 'failed') UNION ALL SELECT 'download job ' || id || ': ' || status || ' ' || coalesce(error_message, '') AS line FROM download_jobs WHERE status NOT IN ('COMPLETED', 'FAILED') OR (status = 'FAILED' AND coalesce(error_message, '') = '')").await;
    report.failures = rows(db, "SELECT title || ' (take-backs ' || take_back_count || ', retries ' || retry_count || '): ' || coalesce(error_message, '') AS line FROM transcription_files WHERE status = 'failed'").await;

    // Lost: a completed file with no Vault item; an accepted start whose file is not recorded;
    // an accepted upload whose MP3 cannot be read back.
    report.lost.extend(rows(db, "SELECT 'completed but not in the Vault: ' || f.title AS line FROM transcription_files f WHERE f.status = 'completed' AND NOT EXISTS (SELECT 1 FROM library_items i WHERE i.user_id = f.user_id AND i.source_ref = 'transcription:' || f.id)").await);
    for upload in ledger.uploads() {
        if let Some(job) = &upload.job_id {
            let recorded = count(
                db,
                &format!(
                    "SELECT count(*) AS n FROM transcription_files WHERE job_id = '{}' AND mp3_path = '{}'",
                    job.replace('\'', ""),
                    upload.mp3_path.replace('\'', "")
                ),
            )
            .await
            .unwrap_or(0);
            if recorded != 1 {
                report.lost.push(format!(
                    "{}: accepted in job {job} but {recorded} files recorded",
                    upload.title
                ));
            }
        }
        let (status, _) = api
            .get_raw(
                &format!(
                    "/api/files?path={}",
                    url::form_urlencoded::byte_serialize(upload.mp3_path.as_bytes())
                        .collect::<String>()
                ),
                &upload.token,
            )
            .await;
        if status != 200 {
            report.lost.push(format!(
                "{}: accepted upload {} answers {status}",
                upload.title, upload.mp3_path
            ));
        }
    }

    // Duplicates: one source twice (the unique key forbids it), or one upload or video
    // transcribed into two Vault items (what a user would see as the same file twice).
    report.duplicates.extend(rows(db, "SELECT source_ref || ' x' || count(*) AS line FROM library_items GROUP BY user_id, source_ref HAVING count(*) > 1").await);
    report.duplicates.extend(rows(db, "SELECT f.mp3_path || ' in the Vault x' || count(*) AS line FROM transcription_files f JOIN library_items i ON i.source_ref = 'transcription:' || f.id GROUP BY f.user_id, f.mp3_path HAVING count(*) > 1").await);
    // The same through the API: every user's Vault, no title twice (each upload has its own).
    for (token, _) in users {
        let titles = api.vault_titles(token).await;
        let mut seen = std::collections::HashSet::new();
        for title in titles {
            if !seen.insert(title.clone()) {
                report
                    .duplicates
                    .push(format!("{title} listed twice in a Vault"));
            }
        }
    }
    report.duplicates.sort();
    report.duplicates.dedup();
    report
}
