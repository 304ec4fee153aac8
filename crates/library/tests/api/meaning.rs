//! Search by meaning with the real model and sqlite-vec (PostgreSQL: when its server has
//! pgvector): items are embedded after ingest, found by a paraphrase in another language,
//! fused with keyword hits, filtered, scoped to their owner, and forgotten when deleted.

use std::time::Duration;

use scribevault_proto::library::v1 as pb;
use tonic::Code;

use crate::helpers::{
    TestApp, config_with_meaning, embedded, ingest_request, spawn_app, spawn_app_with,
};

const ALICE: &str = "alice";
const BOB: &str = "bob";

async fn app_with_meaning(test_name: &str) -> Option<TestApp> {
    Some(spawn_app_with(config_with_meaning(test_name)?).await)
}

/// An audio item with segment times: its chunks keep them.
async fn ingest_timed(
    app: &TestApp,
    user: &str,
    source: &str,
    title: &str,
    lines: &[&str],
) -> String {
    let segments: Vec<serde_json::Value> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let start = i as i64 * 50_000;
            serde_json::json!({"startMs": start, "endMs": start + 50_000, "text": line})
        })
        .collect();
    let path = format!("transcripts/{source}.segments.json");
    app.put_blob(
        user,
        &path,
        serde_json::to_vec(&segments).unwrap().as_slice(),
    )
    .await;
    let mut request = ingest_request(source, title, &lines.join(" "));
    request.segments_path = Some(path);
    app.ingest_item(user, request).await
}

/// The hit titled `title` of a search by meaning for `query`.
async fn hit_titled(app: &TestApp, query: &[(&str, &str)], title: &str) -> pb::Transcript {
    app.query(ALICE, query)
        .await
        .unwrap()
        .transcripts
        .into_iter()
        .find(|hit| hit.title == title)
        .unwrap_or_else(|| panic!("no hit titled {title}"))
}

async fn fill(app: &TestApp) {
    ingest_timed(
        app,
        ALICE,
        "bread",
        "Episode 12",
        &[
            "Welcome back to the show, today is a cooking episode.",
            "I will show you how to make a loaf in your own kitchen with flour, water and yeast.",
        ],
    )
    .await;
    app.ingest_item(
        ALICE,
        ingest_request(
            "brot",
            "Folge 3",
            "Heute zeige ich euch, wie man in der eigenen Küche ein Brot backt.",
        ),
    )
    .await;
    app.ingest_item(
        ALICE,
        ingest_request(
            "markets",
            "Markets weekly",
            "The stock market fell sharply after the central bank raised interest rates.",
        ),
    )
    .await;
    app.ingest_item(
        ALICE,
        ingest_request(
            "garlic",
            "Raised beds",
            "We planted garlic in raised beds and covered the soil for the winter.",
        ),
    )
    .await;
    app.ingest_item(
        BOB,
        ingest_request(
            "bobs-bread",
            "Bob bakes",
            "How I bake a loaf of bread at home.",
        ),
    )
    .await;
    embedded(app, 5).await;
}

#[tokio::test]
async fn a_paraphrase_finds_items_by_meaning_with_the_second_it_is_said() {
    let Some(app) =
        app_with_meaning("a_paraphrase_finds_items_by_meaning_with_the_second_it_is_said").await
    else {
        return;
    };
    fill(&app).await;
    let query = [
        ("q", "how to bake bread at home"),
        ("searchMode", "semantic"),
    ];
    let hits = app.query(ALICE, &query).await.unwrap().transcripts;
    let titles: Vec<&str> = hits.iter().map(|hit| hit.title.as_str()).collect();
    assert_eq!(
        titles.len(),
        2,
        "the English and the German bread items: {titles:?}"
    );
    assert!(
        titles.contains(&"Episode 12") && titles.contains(&"Folge 3"),
        "{titles:?}"
    );
    let episode = hits.iter().find(|hit| hit.title == "Episode 12").unwrap();
    assert_eq!(episode.found_by(), pb::FoundBy::Meaning);
    assert_eq!(
        episode.matches.len(),
        1,
        "its nearest stretch, with its times"
    );
    assert_eq!(
        (episode.matches[0].start, episode.matches[0].end),
        (50.0, 100.0),
        "the loaf is said from 50 s"
    );
    assert!(
        episode.matches[0].text.contains("loaf"),
        "{:?}",
        episode.matches
    );
    assert!(!episode.highlights.is_empty());
    // Keyword search alone finds none of them: no word is shared.
    let keyword = [
        ("q", "how to bake bread at home"),
        ("searchMode", "keyword"),
    ];
    assert!(app.titles(ALICE, &keyword).await.is_empty());
    // Bob's bread is his.
    let bobs = app.titles(BOB, &query).await;
    assert_eq!(bobs, ["Bob bakes"]);
}

#[tokio::test]
async fn hybrid_keeps_every_keyword_hit_first_and_adds_what_meaning_finds() {
    let Some(app) =
        app_with_meaning("hybrid_keeps_every_keyword_hit_first_and_adds_what_meaning_finds").await
    else {
        return;
    };
    fill(&app).await;
    let keyword = app
        .titles(ALICE, &[("q", "garlic"), ("searchMode", "keyword")])
        .await;
    assert_eq!(keyword, ["Raised beds"]);
    let hybrid = app
        .query(ALICE, &[("q", "garlic")])
        .await
        .unwrap()
        .transcripts;
    assert_eq!(hybrid[0].title, "Raised beds", "the default is hybrid");
    assert_ne!(hybrid[0].found_by(), pb::FoundBy::Meaning);
    // A paraphrase with one shared word: both rankings find the bread episode.
    let hits = app
        .query(ALICE, &[("q", "loaf kitchen"), ("searchMode", "hybrid")])
        .await
        .unwrap()
        .transcripts;
    assert_eq!(hits[0].title, "Episode 12");
    assert_eq!(hits[0].found_by(), pb::FoundBy::Both);
    // Filters hold: the German item is TEXT, the episode AUDIO.
    let audio_only = app
        .titles(
            ALICE,
            &[
                ("q", "how to bake bread at home"),
                ("searchMode", "semantic"),
                ("sourceType", "AUDIO"),
            ],
        )
        .await;
    assert!(
        audio_only.contains(&"Episode 12".to_owned()),
        "{audio_only:?}"
    );
    // Paging: one a page.
    let first = app
        .query(
            ALICE,
            &[
                ("q", "how to bake bread at home"),
                ("searchMode", "semantic"),
                ("limit", "1"),
            ],
        )
        .await
        .unwrap();
    let meta = first.meta.unwrap();
    assert_eq!(
        (meta.total, meta.has_more, first.transcripts.len()),
        (2, true, 1)
    );
}

#[tokio::test]
async fn a_deleted_or_edited_item_is_not_found_by_what_it_no_longer_says() {
    let Some(app) =
        app_with_meaning("a_deleted_or_edited_item_is_not_found_by_what_it_no_longer_says").await
    else {
        return;
    };
    fill(&app).await;
    let bread = [
        ("q", "how to bake bread at home"),
        ("searchMode", "semantic"),
    ];
    let german = hit_titled(&app, &bread, "Folge 3").await;
    app.update_content(ALICE, &german.id, "Die Sitzung wurde auf Freitag verlegt.")
        .await
        .unwrap();
    embedded(&app, 5).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while app
        .titles(ALICE, &bread)
        .await
        .contains(&"Folge 3".to_owned())
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the edit was not embedded"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let chunks_before = app.db.table_counts().await.unwrap()["library_chunks"];
    let episode = app.titles(ALICE, &bread).await;
    assert_eq!(episode, ["Episode 12"]);
    let id = app
        .query(ALICE, &bread)
        .await
        .unwrap()
        .transcripts
        .remove(0)
        .id;
    app.delete(ALICE, &id).await.unwrap();
    let after = app.titles(ALICE, &bread).await;
    assert!(!after.contains(&"Episode 12".to_owned()), "{after:?}");
    assert!(app.db.table_counts().await.unwrap()["library_chunks"] < chunks_before);
}

#[tokio::test]
async fn meaning_alone_is_refused_by_a_server_without_a_model_and_keywords_still_work() {
    let app = spawn_app().await;
    app.ingest_item(
        ALICE,
        ingest_request("g", "Raised beds", "Garlic in raised beds."),
    )
    .await;
    let refused = app
        .query(ALICE, &[("q", "garlic"), ("searchMode", "semantic")])
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(
        refused.message().contains("Search by meaning is off"),
        "{}",
        refused.message()
    );
    assert_eq!(app.titles(ALICE, &[("q", "garlic")]).await, ["Raised beds"]);
}

#[tokio::test]
async fn related_items_are_the_owners_nearest_by_meaning() {
    let Some(app) = app_with_meaning("related_items_are_the_owners_nearest_by_meaning").await
    else {
        return;
    };
    fill(&app).await;
    let bread = [
        ("q", "how to bake bread at home"),
        ("searchMode", "semantic"),
    ];
    let episode = hit_titled(&app, &bread, "Episode 12").await;
    let related = app
        .client
        .clone()
        .get_related_transcripts(crate::helpers::as_user(
            ALICE,
            pb::GetRelatedTranscriptsRequest {
                id: episode.id.clone(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .transcripts;
    let titles: Vec<&str> = related.iter().map(|item| item.title.as_str()).collect();
    assert_eq!(
        titles.len(),
        3,
        "Alice's other items, never the item itself: {titles:?}"
    );
    assert_eq!(
        titles[0], "Folge 3",
        "the German bread item is nearest: {titles:?}"
    );
    assert!(!titles.contains(&"Bob bakes"), "{titles:?}");
    let strangers = app
        .client
        .clone()
        .get_related_transcripts(crate::helpers::as_user(
            BOB,
            pb::GetRelatedTranscriptsRequest { id: episode.id },
        ))
        .await
        .unwrap_err();
    assert_eq!(strangers.code(), Code::NotFound);
}
