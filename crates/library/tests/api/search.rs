//! The search conformance suite: the same cases against SQLite's FTS5 and PostgreSQL's
//! `tsvector`, asserting hit sets (never scores), as notes §2 advises.

use scribevault_proto::library::v1 as pb;

use crate::helpers::{TestApp, ingest_request, spawn_app, spawn_app_on_postgres};

const ALICE: &str = "alice";
const BOB: &str = "bob";

async fn seed(app: &TestApp) -> Vec<String> {
    let documents = [
        (
            "Raised beds",
            "We were planting garlic in raised beds. Cover crops protect the soil over winter.",
        ),
        (
            "Compost basics",
            "Compost needs air and water. A warm compost pile breaks down kitchen scraps.",
        ),
        (
            "River walk",
            "The river bank was quiet. We stopped at the cafe by the river for tea.",
        ),
        (
            "Crop rotation",
            "Rotate crops every year; crops that cover the ground keep weeds down.",
        ),
        (
            "<script>alert('x')</script> Soil & water",
            "Soil holds water when it is rich in <b>organic</b> matter & roots.",
        ),
    ];
    let mut ids = Vec::new();
    for (index, (title, content)) in documents.iter().enumerate() {
        ids.push(
            app.ingest_item(
                ALICE,
                ingest_request(&format!("doc-{index}"), title, content),
            )
            .await,
        );
    }
    app.ingest_item(
        BOB,
        ingest_request("bob-1", "Bob's garlic", "Garlic planting notes from Bob."),
    )
    .await;
    ids
}

async fn conformance(app: TestApp) {
    seed(&app).await;
    query_syntax_and_isolation(&app).await;
    highlights_are_marked_and_escaped(&app).await;
    ranking_edits_and_paging(&app).await;
}

async fn query_syntax_and_isolation(app: &TestApp) {
    let search = |q: &'static str| async move { app.hit_set(ALICE, &[("q", q)]).await };

    // Stemming: "plant" finds "planting", "crop" finds "crops".
    assert_eq!(search("plant").await, ["Raised beds"]);
    assert_eq!(search("crop").await, ["Crop rotation", "Raised beds"]);
    // Every word must match.
    assert_eq!(search("compost air").await, ["Compost basics"]);
    // A phrase matches only in order.
    assert_eq!(search("\"cover crops\"").await, ["Raised beds"]);
    // OR and exclusion.
    assert_eq!(
        search("garlic OR compost").await,
        ["Compost basics", "Raised beds"]
    );
    assert_eq!(search("river -cafe").await, Vec::<String>::new());
    assert_eq!(
        search("water -compost").await,
        ["<script>alert('x')</script> Soil & water"]
    );
    // A query of exclusions only lists everything else.
    assert_eq!(search("-river").await.len(), 4);
    // Malformed input degrades to plain words and never errors.
    for hostile in [
        "\"unbalanced",
        "river AND",
        "c++",
        "NEAR(river cafe)",
        "title:river",
        "river*",
        "'; DROP TABLE library_items; --",
        "))) OR ((",
        "-",
        "\u{0}",
    ] {
        let answer = app.query(ALICE, &[("q", hostile)]).await;
        assert!(answer.is_ok(), "{hostile:?}: {answer:?}");
    }
    assert_eq!(search("river \"bank").await, ["River walk"]);
    assert_eq!(
        search("river AND").await,
        ["River walk"],
        "and is a stop word on both"
    );
    // Isolation: Bob's garlic is never Alice's hit, and the other way round.
    assert_eq!(search("garlic").await, ["Raised beds"]);
    assert_eq!(app.hit_set(BOB, &[("q", "garlic")]).await, ["Bob's garlic"]);
    assert_eq!(
        app.hit_set(BOB, &[("q", "compost")]).await,
        Vec::<String>::new()
    );
}

async fn highlights_are_marked_and_escaped(app: &TestApp) {
    // Highlights: marked and HTML-escaped around the marks.
    let hits = app.query(ALICE, &[("q", "organic soil")]).await.unwrap();
    assert_eq!(hits.transcripts.len(), 1);
    let highlights = hits.transcripts[0].highlights.join(" ");
    assert!(highlights.contains("<mark>"), "{highlights}");
    assert!(highlights.contains("<mark>organic</mark>"), "{highlights}");
    // The title matched too: its markup comes back escaped. (ts_headline drops tags from text
    // snippets, FTS5 keeps them escaped: either way none reaches the page as markup.)
    assert!(highlights.contains("&lt;script&gt;"), "{highlights}");
    assert!(!highlights.contains("<script>"), "{highlights}");
    assert!(!highlights.contains("<b>"), "{highlights}");
    let marks = highlights.matches("<mark>").count();
    assert_eq!(marks, highlights.matches("</mark>").count());
    assert!(
        !highlights
            .replace("<mark>", "")
            .replace("</mark>", "")
            .contains('<'),
        "only marks are tags: {highlights}"
    );
}

async fn ranking_edits_and_paging(app: &TestApp) {
    let search = |q: &'static str| async move { app.hit_set(ALICE, &[("q", q)]).await };

    // Relevance: a title hit ranks above a text-only hit.
    let ranked = app.titles(ALICE, &[("q", "compost")]).await;
    assert_eq!(ranked, ["Compost basics"]);
    let ranked = app.titles(ALICE, &[("q", "soil")]).await;
    assert_eq!(ranked[0], "<script>alert('x')</script> Soil & water");

    // Edits are searchable at once: content, title and tags.
    let id = app
        .ingest_item(ALICE, ingest_request("doc-edit", "Blank", "nothing yet"))
        .await;
    assert_eq!(search("mycelium").await, Vec::<String>::new());
    app.update_content(ALICE, &id, "Mycelium networks link roots.")
        .await
        .unwrap();
    assert_eq!(search("mycelium").await, ["Blank"]);
    app.metadata(
        ALICE,
        pb::UpdateTranscriptMetadataRequest {
            id: id.clone(),
            title: Some("Fungi underground".into()),
            ..pb::UpdateTranscriptMetadataRequest::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(search("fungi").await, ["Fungi underground"]);
    assert_eq!(search("blank").await, Vec::<String>::new());
    app.tag(ALICE, &id, &["woodland"]).await;
    assert_eq!(search("woodland").await, ["Fungi underground"]);
    app.delete(ALICE, &id).await.unwrap();
    assert_eq!(search("mycelium").await, Vec::<String>::new());

    // Filters and paging hold with a search.
    let page = app
        .query(ALICE, &[("q", "crops OR compost OR river"), ("limit", "2")])
        .await
        .unwrap();
    let meta = page.meta.unwrap();
    assert_eq!(
        (meta.total, meta.has_more, page.transcripts.len()),
        (4, true, 2)
    );
}

#[tokio::test]
async fn search_conformance_on_sqlite() {
    conformance(spawn_app().await).await;
}

#[tokio::test]
async fn search_conformance_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("search_conformance_on_postgresql").await else {
        return;
    };
    conformance(app).await;
}

async fn segment_matches(app: TestApp) {
    let segments = serde_json::json!([
        {"startMs": 0, "endMs": 4000, "text": " Welcome to the garden show."},
        {"startMs": 4000, "endMs": 9500, "text": " Today we planted garlic in raised beds."},
        {"startMs": 9500, "endMs": 15000, "text": " Garlic likes well drained soil."},
    ]);
    app.put_blob(
        ALICE,
        "transcripts/job-1/file-1.segments.json",
        segments.to_string().as_bytes(),
    )
    .await;
    let mut request = ingest_request(
        "transcription:1",
        "Garden show",
        "Welcome to the garden show. Today we planted garlic in raised beds. Garlic likes well drained soil.",
    );
    request.file_name = Some("transcripts/job-1/file-1.txt".into());
    request.segments_path = Some("transcripts/job-1/file-1.segments.json".into());
    app.ingest_item(ALICE, request).await;
    let hits = app.query(ALICE, &[("q", "planting")]).await.unwrap();
    let highlights = hits.transcripts[0].highlights.join(" ");
    assert!(highlights.contains("<mark>planted</mark>"), "{highlights}");
    let matches = &hits.transcripts[0].matches;
    assert_eq!(matches.len(), 1, "{matches:?}");
    assert_eq!((matches[0].start, matches[0].end), (4.0, 9.5));
    assert_eq!(matches[0].text, "Today we planted garlic in raised beds.");
    let hits = app.query(ALICE, &[("q", "garlic")]).await.unwrap();
    let starts: Vec<f64> = hits.transcripts[0]
        .matches
        .iter()
        .map(|m| m.start)
        .collect();
    assert_eq!(starts, [4.0, 9.5]);
    // The transcription screen finds the item by its transcript path.
    assert_eq!(
        app.titles(ALICE, &[("path", "transcripts/job-1/file-1.txt")])
            .await,
        ["Garden show"]
    );
}

#[tokio::test]
async fn audio_hits_say_where_the_words_were_said_on_sqlite() {
    segment_matches(spawn_app().await).await;
}

#[tokio::test]
async fn audio_hits_say_where_the_words_were_said_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("audio_hits_on_postgresql").await else {
        return;
    };
    segment_matches(app).await;
}

/// More matches than a search lists (1,000): the newest are listed, the count says it is a
/// lower bound, relevance ranks within them, and exclusions still apply.
async fn window(app: TestApp) {
    for index in 0..1003 {
        let content = if index % 2 == 0 {
            format!("compost heap number {index}")
        } else {
            format!("compost heap number {index} with weeds")
        };
        let title = if index == 2 {
            "Compost compost compost"
        } else {
            "Notes"
        };
        app.ingest_item(ALICE, ingest_request(&format!("w{index}"), title, &content))
            .await;
    }
    app.ingest_item(BOB, ingest_request("bob", "Compost", "compost of bob"))
        .await;
    let listed = app
        .query(ALICE, &[("q", "compost"), ("limit", "20")])
        .await
        .unwrap();
    let meta = listed.meta.unwrap();
    assert_eq!(
        (meta.total, meta.total_capped, meta.has_more),
        (1000, true, true)
    );
    // The three oldest are outside the window, among them the title hit that would rank first.
    assert!(listed.transcripts.iter().all(|item| item.title == "Notes"));
    let newest = app
        .query(
            ALICE,
            &[("q", "compost"), ("sortBy", "createdAt"), ("limit", "1")],
        )
        .await
        .unwrap();
    assert_eq!(newest.transcripts[0].source_ref, "w1002");
    let last_page = app
        .query(ALICE, &[("q", "compost"), ("limit", "100"), ("page", "10")])
        .await
        .unwrap();
    let meta = last_page.meta.unwrap();
    assert_eq!((last_page.transcripts.len(), meta.has_more), (100, false));
    let past = app
        .query(ALICE, &[("q", "compost"), ("limit", "100"), ("page", "11")])
        .await
        .unwrap();
    assert!(past.transcripts.is_empty());
    // Fewer matches than the window: exact, not capped.
    let weeds = app
        .query(ALICE, &[("q", "compost -weeds"), ("limit", "5")])
        .await
        .unwrap();
    let meta = weeds.meta.unwrap();
    assert_eq!((meta.total, meta.total_capped), (502, false));
    // Relevance ranks within the window: without the window, the title hit would lead.
    let ranked = app
        .query(
            ALICE,
            &[("q", "compost"), ("sortBy", "relevance"), ("limit", "5")],
        )
        .await
        .unwrap();
    assert_eq!(ranked.transcripts.len(), 5);
    assert!(ranked.transcripts.iter().all(|item| item.title == "Notes"));
    let all = app
        .query(
            ALICE,
            &[
                ("q", "compost -weeds"),
                ("sortBy", "relevance"),
                ("limit", "1"),
            ],
        )
        .await
        .unwrap();
    assert_eq!(
        all.transcripts[0].title, "Compost compost compost",
        "within a small result set the title hit leads"
    );
}

#[tokio::test]
async fn a_search_lists_its_newest_thousand_matches_on_sqlite() {
    window(spawn_app().await).await;
}

#[tokio::test]
async fn a_search_lists_its_newest_thousand_matches_on_postgresql() {
    let Some(app) =
        spawn_app_on_postgres("a_search_lists_its_newest_thousand_matches_on_postgresql").await
    else {
        return;
    };
    window(app).await;
}

/// PostgreSQL looks among the newest items (by `seq`) first. When they hold fewer matches than
/// a window, the older matches still fill it, newest first.
#[tokio::test]
async fn a_search_looks_past_the_newest_items_when_they_hold_too_few_matches_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("a_search_looks_past_the_newest_items").await else {
        return;
    };
    for index in 0..600 {
        app.ingest_item(
            ALICE,
            ingest_request(&format!("old{index}"), "Notes", "compost from last year"),
        )
        .await;
    }
    // The numbering jumps far past the newest items the search looks at first.
    let db = scribevault_db::connect(&app.db.url).await.unwrap();
    sea_orm::ConnectionTrait::execute_unprepared(
        &db,
        "ALTER TABLE library_items ALTER COLUMN seq RESTART WITH 1000000",
    )
    .await
    .unwrap();
    for index in 0..600 {
        app.ingest_item(
            ALICE,
            ingest_request(&format!("new{index}"), "Notes", "compost from this spring"),
        )
        .await;
    }
    let first = newest_first_page(&app, "1").await;
    let meta = first.meta.unwrap();
    assert_eq!((meta.total, meta.total_capped), (1000, true));
    assert_eq!(first.transcripts[0].source_ref, "new599");
    // 600 new, then the 400 newest old ones.
    let last = newest_first_page(&app, "10").await;
    let refs: Vec<&str> = last
        .transcripts
        .iter()
        .map(|item| item.source_ref.as_str())
        .collect();
    assert_eq!(refs.first(), Some(&"old299"));
    assert_eq!(refs.last(), Some(&"old200"));
    // Only the new items say "spring": the window is exact again.
    let spring = app
        .query(ALICE, &[("q", "compost spring"), ("limit", "5")])
        .await
        .unwrap();
    let meta = spring.meta.unwrap();
    assert_eq!((meta.total, meta.total_capped), (600, false));
}

async fn newest_first_page(app: &TestApp, page: &str) -> pb::ListTranscriptsResponse {
    app.query(
        ALICE,
        &[
            ("q", "compost"),
            ("sortBy", "createdAt"),
            ("limit", "100"),
            ("page", page),
        ],
    )
    .await
    .unwrap()
}
