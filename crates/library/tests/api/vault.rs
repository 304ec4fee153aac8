//! Listing filters and sorting, tags, sections, metadata, suggestions, batch processing, vault
//! saves, stats and events, through the real gRPC server.

use scribevault_bus::contract::{Event, ItemChange};
use scribevault_proto::library::v1 as pb;
use tonic::Code;

use crate::helpers::{
    TestApp, WAIT, as_user, ingest_request, next_library_update, spawn_app, spawn_app_on_postgres,
};

const ALICE: &str = "alice";
const BOB: &str = "bob";

fn created_at(request: &mut pb::IngestTranscriptRequest, at: &str) {
    request.created_at = Some(at.to_owned());
}

/// Three items of Alice's with distinct dates, ratings and types; one of Bob's.
async fn seed(app: &TestApp) -> [String; 3] {
    let mut first = ingest_request("a", "Alpha", "alpha text about soil");
    created_at(&mut first, "2026-11-01T10:00:00Z");
    let mut second = ingest_request("b", "Bravo", "bravo text about compost");
    created_at(&mut second, "2026-11-10T10:00:00Z");
    second.source_type = pb::SourceType::Pdf.into();
    let mut third = ingest_request("c", "Charlie", "charlie text about rivers");
    created_at(&mut third, "2026-11-20T10:00:00Z");
    let ids = [
        app.ingest_item(ALICE, first).await,
        app.ingest_item(ALICE, second).await,
        app.ingest_item(ALICE, third).await,
    ];
    app.ingest_item(BOB, ingest_request("x", "Bob's", "bob text"))
        .await;
    app.rate(ALICE, &ids[0], 5).await.unwrap();
    app.rate(ALICE, &ids[2], 2).await.unwrap();
    ids
}

#[tokio::test]
async fn filters_sorting_and_paging_follow_the_query_keys() {
    filters_sorting_and_paging(spawn_app().await).await;
}

#[tokio::test]
async fn filters_sorting_paging_and_stats_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("filters_and_stats_on_postgresql").await else {
        return;
    };
    filters_sorting_and_paging(app).await;
    let Some(app) = spawn_app_on_postgres("filters_and_stats_on_postgresql").await else {
        return;
    };
    stats_and_exports(app).await;
}

async fn filters_sorting_and_paging(app: TestApp) {
    let ids = seed(&app).await;
    assert_eq!(app.titles(ALICE, &[]).await, ["Charlie", "Bravo", "Alpha"]);
    assert_eq!(
        app.titles(ALICE, &[("sortBy", "title"), ("sortOrder", "asc")])
            .await,
        ["Alpha", "Bravo", "Charlie"]
    );
    // Unrated items sort last in either order.
    assert_eq!(
        app.titles(ALICE, &[("sortBy", "rating")]).await,
        ["Alpha", "Charlie", "Bravo"]
    );
    assert_eq!(
        app.titles(ALICE, &[("sortBy", "rating"), ("sortOrder", "asc")])
            .await,
        ["Charlie", "Alpha", "Bravo"]
    );
    assert_eq!(app.titles(ALICE, &[("sourceType", "PDF")]).await, ["Bravo"]);
    assert_eq!(
        app.titles(ALICE, &[("sourceType", "PDF"), ("sourceType", "AUDIO")])
            .await,
        ["Charlie", "Bravo", "Alpha"]
    );
    assert_eq!(app.titles(ALICE, &[("minRating", "3")]).await, ["Alpha"]);
    assert_eq!(
        app.titles(ALICE, &[("rating", "2"), ("rating", "5")]).await,
        ["Charlie", "Alpha"]
    );
    assert_eq!(
        app.titles(
            ALICE,
            &[
                ("createdAfter", "2026-11-05"),
                ("createdBefore", "2026-11-15")
            ]
        )
        .await,
        ["Bravo"]
    );
    app.metadata(
        ALICE,
        pb::UpdateTranscriptMetadataRequest {
            id: ids[1].clone(),
            is_starred: Some(true),
            ..pb::UpdateTranscriptMetadataRequest::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(app.titles(ALICE, &[("isStarred", "true")]).await, ["Bravo"]);
    assert_eq!(
        app.titles(ALICE, &[("isStarred", "false")]).await,
        ["Charlie", "Alpha"]
    );
    let page = app
        .query(ALICE, &[("limit", "2"), ("page", "2")])
        .await
        .unwrap();
    let meta = page.meta.unwrap();
    assert_eq!(
        (meta.page, meta.limit, meta.total, meta.has_more),
        (2, 2, 3, false)
    );
    assert_eq!(page.transcripts[0].title, "Alpha");
    // Values the wire can carry but the Vault refuses, named by the client's key (unknown
    // keys and malformed values never get past the gateway's reading of the query string).
    for (key, value) in [
        ("limit", "101"),
        ("rating", "9"),
        ("minRating", "0"),
        ("gwthLevel", "6"),
        ("sortBy", "relevance"),
    ] {
        let error = app.query(ALICE, &[(key, value)]).await.unwrap_err();
        assert_eq!(error.code(), Code::InvalidArgument, "{key}");
        assert!(error.message().contains(key), "{key}: {}", error.message());
    }
}

#[tokio::test]
async fn tags_are_rows_unique_per_user_whatever_the_case() {
    let app = spawn_app().await;
    let ids = seed(&app).await;
    let item = app
        .tag(ALICE, &ids[0], &["Soil", "soil", " SOIL ", "Compost"])
        .await;
    assert_eq!(item.tags, ["Compost", "Soil"]);
    app.tag(ALICE, &ids[1], &["soil"]).await;
    assert_eq!(
        app.titles(ALICE, &[("tags", "SOIL")]).await,
        ["Bravo", "Alpha"],
        "tag filters ignore case"
    );
    assert_eq!(
        app.titles(ALICE, &[("tags", "soil"), ("tags", "compost")])
            .await,
        ["Alpha"],
        "every tag must match"
    );
    let tags = app
        .client
        .clone()
        .list_tags(as_user(ALICE, pb::ListTagsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .tags;
    let listed: Vec<(String, u64)> = tags.into_iter().map(|tag| (tag.name, tag.count)).collect();
    assert_eq!(listed, [("Compost".to_owned(), 1), ("Soil".to_owned(), 2)]);
    // Bob sees none of them, and his own "soil" is his.
    assert!(app.titles(BOB, &[("tags", "soil")]).await.is_empty());

    let seeded = app
        .client
        .clone()
        .init_tags(as_user(ALICE, pb::InitTagsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .created;
    assert_eq!(seeded, 12);
    let again = app
        .client
        .clone()
        .init_tags(as_user(ALICE, pb::InitTagsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .created;
    assert_eq!(again, 0, "seeding is idempotent");
    let gwth = app
        .client
        .clone()
        .init_gwth_tags(as_user(ALICE, pb::InitTagsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .created;
    assert_eq!(gwth, 5);
}

#[tokio::test]
async fn gwth_level_and_gwth_tags_stay_one_fact() {
    let app = spawn_app().await;
    let ids = seed(&app).await;
    let set = |level: Option<i32>, tags: Option<Vec<&str>>| pb::UpdateTranscriptMetadataRequest {
        id: ids[0].clone(),
        gwth_level: level,
        replace_tags: tags.is_some(),
        tags: tags
            .unwrap_or_default()
            .into_iter()
            .map(str::to_owned)
            .collect(),
        ..pb::UpdateTranscriptMetadataRequest::default()
    };
    app.tag(ALICE, &ids[0], &["soil"]).await;
    let item = app.metadata(ALICE, set(Some(3), None)).await.unwrap();
    assert_eq!(
        (item.gwth_level, item.tags.clone()),
        (Some(3), vec!["gwth-3".into(), "soil".into()])
    );
    let item = app.metadata(ALICE, set(Some(4), None)).await.unwrap();
    assert_eq!(item.tags, ["gwth-4", "soil"]);
    let item = app
        .metadata(ALICE, set(None, Some(vec!["soil", "gwth-2"])))
        .await
        .unwrap();
    assert_eq!(item.gwth_level, Some(2));
    let item = app.metadata(ALICE, set(Some(0), None)).await.unwrap();
    assert_eq!(
        (item.gwth_level, item.tags),
        (None, vec!["soil".to_owned()])
    );
    assert_eq!(
        app.metadata(ALICE, set(Some(6), None))
            .await
            .unwrap_err()
            .code(),
        Code::InvalidArgument
    );
    app.metadata(ALICE, set(Some(2), None)).await.unwrap();
    assert_eq!(app.titles(ALICE, &[("gwthLevel", "2")]).await, ["Alpha"]);
    let stats = app.stats(ALICE).await;
    let level_two = stats
        .gwth_level_distribution
        .iter()
        .find(|count| count.key == "2")
        .unwrap();
    assert_eq!(level_two.count, 1);
}

#[tokio::test]
async fn sections_are_created_ordered_assigned_and_deleted() {
    let app = spawn_app().await;
    let ids = seed(&app).await;
    let (basics, advanced) = create_basics_and_advanced(&app).await;
    assign_alpha_to(&app, &ids[0], &advanced).await;
    reorder_and_rename(&app, &basics, &advanced).await;
    another_user_cannot_touch_the_sections(&app, &advanced).await;
    delete_keeps_the_items(&app, &advanced).await;
}

async fn create_basics_and_advanced(app: &TestApp) -> (pb::SyllabusSection, pb::SyllabusSection) {
    let mut client = app.client.clone();
    let create = |title: &str| pb::CreateSyllabusSectionRequest {
        title: title.to_owned(),
        description: format!("about {title}"),
    };
    let basics = client
        .create_syllabus_section(as_user(ALICE, create("Basics")))
        .await
        .unwrap()
        .into_inner();
    let advanced = client
        .create_syllabus_section(as_user(ALICE, create("Advanced")))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((basics.position, advanced.position), (0, 1));
    (basics, advanced)
}

async fn assign_alpha_to(app: &TestApp, alpha: &str, advanced: &pb::SyllabusSection) {
    app.metadata(
        ALICE,
        pb::UpdateTranscriptMetadataRequest {
            id: alpha.to_owned(),
            section_id: Some(advanced.id.clone()),
            ..pb::UpdateTranscriptMetadataRequest::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        app.titles(ALICE, &[("sectionId", &advanced.id)]).await,
        ["Alpha"]
    );
    assert_eq!(
        app.titles(ALICE, &[("sectionId", "none")]).await,
        ["Charlie", "Bravo"]
    );
}

async fn reorder_and_rename(
    app: &TestApp,
    basics: &pb::SyllabusSection,
    advanced: &pb::SyllabusSection,
) {
    let mut client = app.client.clone();
    let reordered = client
        .reorder_syllabus_sections(as_user(
            ALICE,
            pb::ReorderSyllabusSectionsRequest {
                ids: vec![advanced.id.clone(), basics.id.clone()],
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .sections;
    let order: Vec<(&str, u64)> = reordered
        .iter()
        .map(|section| (section.title.as_str(), section.item_count))
        .collect();
    assert_eq!(order, [("Advanced", 1), ("Basics", 0)]);
    let renamed = client
        .update_syllabus_section(as_user(
            ALICE,
            pb::UpdateSyllabusSectionRequest {
                id: basics.id.clone(),
                title: Some("Foundations".into()),
                description: None,
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (renamed.title.as_str(), renamed.description.as_str()),
        ("Foundations", "about Basics")
    );
}

async fn another_user_cannot_touch_the_sections(app: &TestApp, advanced: &pb::SyllabusSection) {
    let mut client = app.client.clone();
    // Bob can neither see, use, reorder nor delete Alice's sections.
    let bob_sections = client
        .list_syllabus_sections(as_user(BOB, pb::ListSyllabusSectionsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .sections;
    assert!(bob_sections.is_empty());
    let bob_item = app.all_items(BOB).await[0].id.clone();
    let refused = app
        .metadata(
            BOB,
            pb::UpdateTranscriptMetadataRequest {
                id: bob_item,
                section_id: Some(advanced.id.clone()),
                ..pb::UpdateTranscriptMetadataRequest::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let refused = client
        .delete_syllabus_section(as_user(
            BOB,
            pb::DeleteSyllabusSectionRequest {
                id: advanced.id.clone(),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let refused = client
        .reorder_syllabus_sections(as_user(
            ALICE,
            pb::ReorderSyllabusSectionsRequest {
                ids: vec![advanced.id.clone()],
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
}

async fn delete_keeps_the_items(app: &TestApp, advanced: &pb::SyllabusSection) {
    let mut client = app.client.clone();
    client
        .delete_syllabus_section(as_user(
            ALICE,
            pb::DeleteSyllabusSectionRequest {
                id: advanced.id.clone(),
            },
        ))
        .await
        .unwrap();
    let alpha = app
        .all_items(ALICE)
        .await
        .into_iter()
        .find(|item| item.title == "Alpha")
        .unwrap();
    assert_eq!(
        alpha.section_id, None,
        "the item stays, without its section"
    );
}

#[tokio::test]
async fn suggestions_prefer_the_users_tags_and_follow_similar_ratings() {
    let app = spawn_app().await;
    let gardening = "Gardening in raised beds. We garden every spring and the garden soil \
                     stays warm. Compost feeds the garden beds.";
    let rated = app
        .ingest_item(ALICE, ingest_request("g1", "Garden beds", gardening))
        .await;
    app.tag(ALICE, &rated, &["gardening"]).await;
    app.rate(ALICE, &rated, 5).await.unwrap();
    let other = app
        .ingest_item(
            ALICE,
            ingest_request(
                "r1",
                "Tax returns",
                "Filing tax returns and receipts for the year.",
            ),
        )
        .await;
    app.rate(ALICE, &other, 1).await.unwrap();
    let fresh = app
        .ingest_item(
            ALICE,
            ingest_request(
                "g2",
                "Spring garden",
                "Our garden in spring: garden beds, garden soil and compost for the garden.",
            ),
        )
        .await;
    let suggestions = app
        .client
        .clone()
        .get_transcript_suggestions(as_user(
            ALICE,
            pb::GetTranscriptSuggestionsRequest { id: fresh.clone() },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        suggestions.suggested_tags[0], "gardening",
        "{suggestions:?}"
    );
    assert!(
        !suggestions.suggested_tags.iter().any(|tag| tag == "garden"),
        "the existing tag is offered instead of a new near spelling: {suggestions:?}"
    );
    assert!(suggestions.suggested_tags.len() <= 5);
    assert_eq!(
        suggestions.suggested_rating, 5,
        "the similar item is rated 5"
    );
    let refused = app
        .client
        .clone()
        .get_transcript_suggestions(as_user(
            BOB,
            pb::GetTranscriptSuggestionsRequest { id: fresh },
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    a_batch_processes_each_item_once_until_it_changes(&app, &other).await;
}

/// The batch works through what is not processed yet, and again through what was edited since.
async fn a_batch_processes_each_item_once_until_it_changes(app: &TestApp, edited: &str) {
    let batch = |limit| {
        let mut client = app.client.clone();
        async move {
            client
                .process_transcripts_batch(as_user(
                    ALICE,
                    pb::ProcessTranscriptsBatchRequest { limit },
                ))
                .await
                .unwrap()
                .into_inner()
        }
    };
    let first = batch(2).await;
    assert_eq!((first.processed, first.remaining), (2, 1));
    let second = batch(50).await;
    assert_eq!((second.processed, second.remaining), (1, 0));
    let third = batch(50).await;
    assert_eq!((third.processed, third.remaining), (0, 0));
    app.update_content(ALICE, edited, "Filing tax returns, now with more receipts.")
        .await
        .unwrap();
    let after_edit = batch(50).await;
    assert_eq!(after_edit.processed, 1, "an edited item is processed again");
}

/// A stored transcript's path makes an AUDIO item linked to it; any other path is a name.
fn assert_saved_as_audio_or_text(saved: &[pb::Transcript]) {
    let kinds: Vec<(&str, pb::SourceType, Option<&str>)> = saved
        .iter()
        .map(|item| {
            (
                item.title.as_str(),
                item.source_type(),
                item.file_name.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "Converted",
                pb::SourceType::Audio,
                Some("transcripts/job/f.txt")
            ),
            ("Notes", pb::SourceType::Text, Some("../../etc/passwd")),
            (
                "Reading list",
                pb::SourceType::Text,
                Some("notes/Reading list.md")
            ),
        ]
    );
}

#[tokio::test]
async fn saved_files_link_to_stored_transcripts_and_keep_other_paths_as_names() {
    let app = spawn_app().await;
    app.put_blob(ALICE, "transcripts/job/f.txt", b"hello").await;
    app.put_blob(
        ALICE,
        "transcripts/job/f.segments.json",
        br#"[{"startMs":0,"endMs":1500,"text":"hello garden"}]"#,
    )
    .await;
    let save = |user: &'static str, files: Vec<pb::VaultFile>| {
        let mut client = app.client.clone();
        async move {
            client
                .save_to_vault(as_user(user, pb::SaveToVaultRequest { files }))
                .await
                .map(|response| response.into_inner().saved)
        }
    };
    let file = |title: &str, content: &str, path: &str| pb::VaultFile {
        title: title.to_owned(),
        content: content.to_owned(),
        path: path.to_owned(),
    };
    let saved = save(
        ALICE,
        vec![
            file(
                "Converted",
                "# Converted\n\nhello garden",
                "transcripts/job/f.txt",
            ),
            file("Notes", "plain notes", "../../etc/passwd"),
            file("", "untitled notes", "notes/Reading list.md"),
        ],
    )
    .await
    .unwrap();
    assert_saved_as_audio_or_text(&saved);
    let hits = app.query(ALICE, &[("q", "garden")]).await.unwrap();
    assert_eq!(hits.transcripts[0].matches.len(), 1, "segments came along");
    // Bob's path of Alice's transcript is not his stored file: kept as a name, TEXT.
    let bobs = save(BOB, vec![file("Stolen", "x", "transcripts/job/f.txt")])
        .await
        .unwrap();
    assert_eq!(bobs[0].source_type(), pb::SourceType::Text);
    // Saving the same path again updates that item.
    let again = save(
        ALICE,
        vec![file("Converted v2", "new text", "transcripts/job/f.txt")],
    )
    .await
    .unwrap();
    assert_eq!(again[0].id, saved[0].id);
    assert_eq!(app.content(ALICE, &saved[0].id).await.unwrap(), "new text");
    for bad in [
        vec![],
        vec![file("Empty", "   ", "")],
        (0..101).map(|i| file(&format!("f{i}"), "x", "")).collect(),
    ] {
        let error = save(ALICE, bad).await.unwrap_err();
        assert_eq!(error.code(), Code::InvalidArgument, "{}", error.message());
    }
}

#[tokio::test]
async fn every_change_sends_library_and_stats_updates_to_the_owner() {
    let app = spawn_app().await;
    let mut events = app.subscribe().await;
    let id = app
        .ingest_item(ALICE, ingest_request("e1", "Evented", "text"))
        .await;
    assert_eq!(
        next_library_update(&mut events, ALICE).await.change,
        ItemChange::Created
    );
    app.rate(ALICE, &id, 4).await.unwrap();
    assert_eq!(
        next_library_update(&mut events, ALICE).await.change,
        ItemChange::Updated
    );
    // Updates are sent once per burst of changes: on a slow machine the ingest's own may come
    // before the rating, so wait for the one that carries it.
    let stats = tokio::time::timeout(WAIT, async {
        loop {
            let envelope = events.next().await.unwrap();
            if let Some(Event::StatsUpdate(stats)) = envelope.event() {
                assert_eq!(envelope.user_id, ALICE);
                if (stats.avg_rating - 4.0).abs() < f64::EPSILON {
                    return stats;
                }
            }
        }
    })
    .await
    .expect("a statsUpdate with the new rating");
    assert!((stats.avg_rating - 4.0).abs() < f64::EPSILON, "{stats:?}");
    app.delete(ALICE, &id).await.unwrap();
    let deleted = next_library_update(&mut events, ALICE).await;
    assert_eq!(
        (deleted.change, deleted.transcript.id.as_str()),
        (ItemChange::Deleted, id.as_str())
    );
}

#[tokio::test]
async fn stats_count_exports_and_spread_over_ratings_levels_and_types() {
    stats_and_exports(spawn_app().await).await;
}

async fn stats_and_exports(app: TestApp) {
    let ids = seed(&app).await;
    app.client
        .clone()
        .export_transcript(as_user(
            ALICE,
            pb::ExportTranscriptRequest {
                id: ids[1].clone(),
                format: "txt".into(),
            },
        ))
        .await
        .unwrap();
    let stats = app.stats(ALICE).await;
    assert_eq!(stats.total_transcripts, 3);
    assert_eq!(stats.total_exported, 1);
    assert_eq!(stats.top_rated_count, 1);
    assert!((stats.avg_rating - 3.5).abs() < 1e-9);
    let pairs = |counts: &[pb::CountByKey]| -> Vec<(String, u64)> {
        counts.iter().map(|c| (c.key.clone(), c.count)).collect()
    };
    assert_eq!(pairs(&stats.by_source_type), [("PDF".to_owned(), 1)]);
    assert_eq!(
        pairs(&stats.source_type_distribution),
        [("AUDIO".to_owned(), 2), ("PDF".to_owned(), 1)]
    );
    assert_eq!(
        pairs(&stats.rating_distribution),
        [
            ("1".to_owned(), 0),
            ("2".to_owned(), 1),
            ("3".to_owned(), 0),
            ("4".to_owned(), 0),
            ("5".to_owned(), 1)
        ]
    );
    assert_eq!(app.titles(ALICE, &[("exported", "true")]).await, ["Bravo"]);
    assert_eq!(
        app.titles(ALICE, &[("sortBy", "lastExported")]).await,
        ["Bravo", "Charlie", "Alpha"],
        "never-exported items sort last"
    );
    assert_eq!(app.stats(BOB).await.total_exported, 0);
}
