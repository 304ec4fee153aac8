//! `/api/library/*`: the list's query reaching the library as filters, the page and item views,
//! the metadata edit's `present`/`score` parsing, and the stats view.

use scribevault_proto::library::v1 as pb;
use serde_json::json;

use crate::helpers::{assert_error, keys, spawn_app, transcript};

fn page(total_capped: bool) -> pb::ListTranscriptsResponse {
    pb::ListTranscriptsResponse {
        transcripts: vec![transcript("t1")],
        meta: Some(pb::PageMeta {
            page: 2,
            limit: 20,
            total: 41,
            has_more: true,
            total_capped,
        }),
    }
}

#[tokio::test]
async fn the_list_query_reaches_the_library_as_typed_fields() {
    let app = spawn_app().await;
    let token = app.token().await;
    app.library.list_transcripts.answers(Ok(page(false)));

    let answer = app
        .get(
            "/api/library/transcripts?tags=a&q=two%20words&tags=b&page=2&sourceType=PDF\
             &sectionId=none&createdAfter=2026-11-01",
            &token,
        )
        .await;

    assert_eq!(answer.status, 200, "{}", answer.body);
    let sent = app.library.list_transcripts.messages();
    assert_eq!(sent.len(), 1);
    // Repeated keys gather in one list; a plain date is sent on as its midnight UTC.
    assert_eq!(
        sent[0],
        pb::ListTranscriptsRequest {
            page: Some(2),
            search: Some("two words".to_owned()),
            filter: Some(pb::ItemFilter {
                tags: vec!["a".to_owned(), "b".to_owned()],
                source_types: vec![pb::SourceType::Pdf.into()],
                created_after: Some("2026-11-01T00:00:00Z".to_owned()),
                section: Some(pb::item_filter::Section::InNoSection(pb::InNoSection {})),
                ..Default::default()
            }),
            ..Default::default()
        }
    );
}

#[tokio::test]
async fn a_malformed_list_query_is_refused_naming_its_key_before_the_library_is_called() {
    let app = spawn_app().await;
    let token = app.token().await;
    for (query, message) in [
        ("colour=red", "unknown filter \"colour\""),
        ("page=abc", "page must be a positive whole number"),
        (
            "sourceType=VIDEO",
            "sourceType must be one of AUDIO, PDF, PDF_SOURCE",
        ),
    ] {
        let answer = app
            .get(&format!("/api/library/transcripts?{query}"), &token)
            .await;
        let text = assert_error(&answer, 400, "BAD_REQUEST");
        assert!(text.contains(message), "{query}: {text}");
    }
    assert!(app.library.list_transcripts.messages().is_empty());
}

#[tokio::test]
async fn an_item_of_a_source_type_the_contract_does_not_know_is_a_server_error() {
    let app = spawn_app().await;
    let token = app.token().await;
    let mut unknown = page(false);
    unknown.transcripts[0].source_type = 99;
    app.library.list_transcripts.answers(Ok(unknown));

    let answer = app.get("/api/library/transcripts", &token).await;

    assert_error(&answer, 500, "INTERNAL");
}

#[tokio::test]
async fn a_page_answers_data_and_meta_with_total_capped_only_when_true() {
    let app = spawn_app().await;
    let token = app.token().await;

    app.library.list_transcripts.answers(Ok(page(false)));
    let answer = app.get("/api/library/transcripts", &token).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(keys(&answer.body), ["data", "meta"]);
    assert_eq!(
        answer.body["meta"],
        json!({ "page": 2, "limit": 20, "total": 41, "hasMore": true }),
        "totalCapped is left out while false"
    );

    app.library.list_transcripts.answers(Ok(page(true)));
    let answer = app.get("/api/library/transcripts?q=word", &token).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(
        answer.body["meta"],
        json!({ "page": 2, "limit": 20, "total": 41, "hasMore": true, "totalCapped": true })
    );
}

#[tokio::test]
async fn a_listed_item_is_the_transcript_view_and_only_search_hits_carry_their_context() {
    let app = spawn_app().await;
    let token = app.token().await;
    app.library.list_transcripts.answers(Ok(page(false)));

    let listed = app.get("/api/library/transcripts?tags=a", &token).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    // The wire's source_ref stays inside; highlights and matches belong to search hits.
    assert_eq!(
        listed.body["data"],
        json!([{
            "id": "t1",
            "title": "Title of t1",
            "author": "Ada",
            "createdAt": "2026-11-01T10:00:00Z",
            "lastExported": null,
            "isStarred": true,
            "gwthLevel": 3,
            "sourceType": "AUDIO",
            "rating": 4,
            "tags": ["a", "b"],
            "duration": 12.5,
            "sectionId": null,
            "fileName": "t1.mp3",
            "sourceUrl": null,
            "language": "de",
            "transcriptSource": "captions:auto",
            "whisperJobId": "job-9",
            "needsReview": false,
            "review": null,
        }])
    );

    let searched = app.get("/api/library/transcripts?q=word", &token).await;
    assert_eq!(searched.status, 200, "{}", searched.body);
    let hit = &searched.body["data"][0];
    assert_eq!(hit["highlights"], json!(["the <mark>word</mark> said"]));
    assert_eq!(
        hit["matches"],
        json!([{ "start": 1.0, "end": 2.5, "text": "the word said" }])
    );
    assert_eq!(hit["foundBy"], "meaning");
    let mode = app
        .library
        .list_transcripts
        .received()
        .last()
        .map(|request| request.message.search_mode());
    assert_eq!(
        mode,
        Some(pb::SearchMode::Unspecified),
        "hybrid unless asked"
    );
    let semantic = app
        .get(
            "/api/library/transcripts?q=word&searchMode=semantic",
            &token,
        )
        .await;
    assert_eq!(semantic.status, 200, "{}", semantic.body);
    let mode = app
        .library
        .list_transcripts
        .received()
        .last()
        .map(|request| request.message.search_mode());
    assert_eq!(mode, Some(pb::SearchMode::Semantic));
    let unknown = app
        .get("/api/library/transcripts?q=word&searchMode=fuzzy", &token)
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    assert_eq!(
        unknown.body["error"]["message"],
        "searchMode must be keyword, semantic or hybrid, not \"fuzzy\""
    );

    // A blank search is no search.
    let blank = app.get("/api/library/transcripts?q=%20", &token).await;
    assert!(blank.body["data"][0].get("highlights").is_none());
    assert!(blank.body["data"][0].get("foundBy").is_none());
}

#[tokio::test]
async fn a_null_score_clears_it_and_an_absent_field_is_not_sent() {
    let app = spawn_app().await;
    let token = app.token().await;
    app.library
        .update_transcript_metadata
        .answers(Ok(transcript("t1")));

    let cleared = app
        .put(
            "/api/library/transcripts/t1/metadata",
            &token,
            &json!({ "rating": null, "sectionId": null }),
        )
        .await;
    let kept = app
        .put(
            "/api/library/transcripts/t1/metadata",
            &token,
            &json!({ "title": "New title", "gwthLevel": 5, "tags": [] }),
        )
        .await;

    assert_eq!(cleared.status, 200, "{}", cleared.body);
    assert_eq!(cleared.body["data"]["id"], "t1");
    assert_eq!(kept.status, 200, "{}", kept.body);
    let sent = app.library.update_transcript_metadata.messages();
    assert_eq!(
        sent,
        [
            pb::UpdateTranscriptMetadataRequest {
                id: "t1".to_owned(),
                // 0 and "" ask the library to clear.
                rating: Some(0),
                section_id: Some(String::new()),
                ..Default::default()
            },
            pb::UpdateTranscriptMetadataRequest {
                id: "t1".to_owned(),
                title: Some("New title".to_owned()),
                gwth_level: Some(5),
                // An empty list replaces the tags; an absent one keeps them.
                replace_tags: true,
                ..Default::default()
            },
        ]
    );
}

#[tokio::test]
async fn a_score_outside_one_to_five_is_refused_without_calling_the_library() {
    let app = spawn_app().await;
    let token = app.token().await;

    for (body, field) in [
        (json!({ "rating": 6 }), "rating"),
        (json!({ "rating": 0 }), "rating"),
        (json!({ "gwthLevel": -1 }), "gwthLevel"),
    ] {
        let answer = app
            .put("/api/library/transcripts/t1/metadata", &token, &body)
            .await;
        let message = assert_error(&answer, 400, "BAD_REQUEST");
        assert!(message.contains(field), "{message}");
    }
    let answer = app
        .put(
            "/api/library/transcripts/t1/metadata",
            &token,
            &json!({ "sectionId": " " }),
        )
        .await;
    assert_error(&answer, 400, "BAD_REQUEST");

    assert!(app.library.update_transcript_metadata.received().is_empty());
    assert!(
        app.arrivals.all().is_empty(),
        "no call left the gateway: {:?}",
        app.arrivals.all()
    );
}

#[tokio::test]
async fn the_stats_map_the_libraries_counts_into_the_cards_view() {
    let app = spawn_app().await;
    let token = app.token().await;
    let count = |key: &str, count: u64| pb::CountByKey {
        key: key.to_owned(),
        count,
    };
    app.library
        .get_library_stats
        .answers(Ok(pb::GetLibraryStatsResponse {
            total_transcripts: 12,
            total_duration: 3600.5,
            storage_used: 1_048_576,
            avg_rating: 3.5,
            this_month: 4,
            total_exported: 5,
            top_rated_count: 6,
            by_gwth_level: vec![count("1", 2), count("3", 3)],
            by_source_type: vec![count("AUDIO", 5)],
            rating_distribution: vec![count("4", 7), count("5", 1)],
            gwth_level_distribution: vec![count("2", 9)],
            source_type_distribution: vec![count("AUDIO", 10), count("PDF", 2)],
            meaning: Some(pb::MeaningIndex {
                enabled: true,
                embedded_items: 9,
                total_items: 12,
            }),
        }));

    let answer = app.get("/api/library/stats", &token).await;

    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(
        answer.body,
        json!({ "data": {
            "totalTranscripts": 12,
            "totalDuration": 3600.5,
            "storageUsed": 1_048_576,
            "avgRating": 3.5,
            "thisMonth": 4,
            "export": {
                "totalExported": 5,
                "topRatedCount": 6,
                "byGwthLevel": { "1": 2, "3": 3 },
                "bySourceType": { "AUDIO": 5 },
            },
            "distributions": {
                "rating": { "4": 7, "5": 1 },
                "gwthLevel": { "2": 9 },
                "sourceType": { "AUDIO": 10, "PDF": 2 },
            },
            "meaning": { "enabled": true, "embeddedItems": 9, "totalItems": 12 },
        }})
    );
    assert_eq!(app.library.get_library_stats.received().len(), 1);
}
