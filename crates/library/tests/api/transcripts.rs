//! Reading and changing Vault items: paging, rating, content, deleting, and only one's own.

use tonic::Code;

use crate::helpers::{TestApp, ingest_request, spawn_app};

/// Ingests an item created at `created_at` and returns its id.
async fn item_at(
    app: &TestApp,
    user: &str,
    source_ref: &str,
    title: &str,
    created_at: &str,
) -> String {
    let mut request = ingest_request(source_ref, title, &format!("content of {title}"));
    request.created_at = Some(created_at.to_owned());
    app.ingest_item(user, request).await
}

fn titles(response: &scribevault_proto::library::v1::ListTranscriptsResponse) -> Vec<&str> {
    response
        .transcripts
        .iter()
        .map(|item| item.title.as_str())
        .collect()
}

#[tokio::test]
async fn lists_are_paged_newest_first_and_sortable_by_title() {
    let app = spawn_app().await;
    // Created in an order that is neither alphabetical nor the insertion order.
    for (n, (title, day)) in [
        ("Delta", "03"),
        ("Alpha", "05"),
        ("Charlie", "01"),
        ("Echo", "04"),
        ("Bravo", "02"),
    ]
    .into_iter()
    .enumerate()
    {
        item_at(
            &app,
            "alice",
            &format!("src:{n}"),
            title,
            &format!("2024-01-{day}T10:00:00Z"),
        )
        .await;
    }
    item_at(&app, "bob", "src:bob", "Bob's only", "2024-02-01T00:00:00Z").await;

    let first = app.list("alice", 1, 2, "", "").await.unwrap();
    assert_eq!(titles(&first), ["Alpha", "Echo"], "newest first by default");
    let meta = first.meta.unwrap();
    assert_eq!(
        (meta.page, meta.limit, meta.total, meta.has_more),
        (1, 2, 5, true)
    );

    let second = app.list("alice", 2, 2, "createdAt", "desc").await.unwrap();
    assert_eq!(titles(&second), ["Delta", "Bravo"]);
    assert!(second.meta.unwrap().has_more);

    let last = app.list("alice", 3, 2, "", "").await.unwrap();
    assert_eq!(titles(&last), ["Charlie"]);
    let meta = last.meta.unwrap();
    assert_eq!((meta.page, meta.total, meta.has_more), (3, 5, false));

    let exactly_all = app.list("alice", 1, 5, "", "").await.unwrap().meta.unwrap();
    assert_eq!(exactly_all.total, 5);
    assert!(
        !exactly_all.has_more,
        "a page that ends at the last item has no more"
    );

    let beyond = app.list("alice", 9, 2, "", "").await.unwrap();
    assert!(beyond.transcripts.is_empty());
    assert!(!beyond.meta.unwrap().has_more);

    let oldest_first = app.list("alice", 1, 10, "createdAt", "asc").await.unwrap();
    assert_eq!(
        titles(&oldest_first),
        ["Charlie", "Bravo", "Delta", "Echo", "Alpha"]
    );

    let by_title = app.list("alice", 1, 10, "title", "asc").await.unwrap();
    assert_eq!(
        titles(&by_title),
        ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]
    );
    let by_title_desc = app.list("alice", 1, 2, "title", "desc").await.unwrap();
    assert_eq!(titles(&by_title_desc), ["Echo", "Delta"]);

    // No page and no limit mean the first page of the default size.
    let defaults = app.list("alice", 0, 0, "", "").await.unwrap().meta.unwrap();
    assert_eq!((defaults.page, defaults.limit, defaults.total), (1, 20, 5));

    let bobs = app.list("bob", 1, 10, "", "").await.unwrap();
    assert_eq!(titles(&bobs), ["Bob's only"]);
    assert_eq!(bobs.meta.unwrap().total, 1);
}

#[tokio::test]
async fn unknown_sort_keys_and_orders_are_invalid() {
    let app = spawn_app().await;
    for (sort_by, sort_order) in [("size", ""), ("", "up")] {
        let refused = app
            .list("alice", 1, 10, sort_by, sort_order)
            .await
            .unwrap_err();
        assert_eq!(
            refused.code(),
            Code::InvalidArgument,
            "{sort_by:?}/{sort_order:?}: {refused:?}"
        );
    }
}

#[tokio::test]
async fn ratings_are_one_to_five() {
    let app = spawn_app().await;
    let id = app
        .ingest_item("alice", ingest_request("src:1", "Talk", "text"))
        .await;

    for rating in [0, 6, -1] {
        let refused = app.rate("alice", &id, rating).await.unwrap_err();
        assert_eq!(
            refused.code(),
            Code::InvalidArgument,
            "rating {rating}: {refused:?}"
        );
    }
    assert_eq!(
        app.all_items("alice").await[0].rating,
        None,
        "refused ratings change nothing"
    );

    let rated = app.rate("alice", &id, 4).await.unwrap();
    assert_eq!(rated.id, id);
    assert_eq!(rated.rating, Some(4));
    assert_eq!(
        app.all_items("alice").await[0].rating,
        Some(4),
        "the rating is kept"
    );

    for rating in [1, 5] {
        assert_eq!(
            app.rate("alice", &id, rating).await.unwrap().rating,
            Some(rating)
        );
    }
}

#[tokio::test]
async fn content_is_read_and_replaced() {
    let app = spawn_app().await;
    let id = app
        .ingest_item("alice", ingest_request("src:1", "Talk", "the first draft"))
        .await;
    assert_eq!(app.content("alice", &id).await.unwrap(), "the first draft");

    let updated = app
        .update_content("alice", &id, "the final text, with ünïcode")
        .await
        .unwrap();
    assert_eq!(updated.id, id);
    assert_eq!(updated.title, "Talk");
    assert_eq!(
        app.content("alice", &id).await.unwrap(),
        "the final text, with ünïcode"
    );

    let refused = app.content("alice", "no-such-id").await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
}

#[tokio::test]
async fn a_deleted_item_is_gone() {
    let app = spawn_app().await;
    let id = app
        .ingest_item("alice", ingest_request("src:1", "Gone", "text"))
        .await;
    let kept = app
        .ingest_item("alice", ingest_request("src:2", "Kept", "text"))
        .await;

    app.delete("alice", &id).await.unwrap();

    assert_eq!(
        app.content("alice", &id).await.unwrap_err().code(),
        Code::NotFound
    );
    assert_eq!(
        app.delete("alice", &id).await.unwrap_err().code(),
        Code::NotFound
    );
    assert_eq!(
        app.rate("alice", &id, 3).await.unwrap_err().code(),
        Code::NotFound
    );
    let items = app.all_items("alice").await;
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].id, kept);
}

#[tokio::test]
async fn another_users_item_is_not_found_and_stays_untouched() {
    let app = spawn_app().await;
    let id = app
        .ingest_item("alice", ingest_request("src:1", "Private", "alice's words"))
        .await;

    let refused = app.content("bob", &id).await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "get content: {refused:?}");
    let refused = app.rate("bob", &id, 3).await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "rate: {refused:?}");
    let refused = app
        .update_content("bob", &id, "bob's words")
        .await
        .unwrap_err();
    assert_eq!(
        refused.code(),
        Code::NotFound,
        "update content: {refused:?}"
    );
    let refused = app.delete("bob", &id).await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "delete: {refused:?}");

    let items = app.all_items("alice").await;
    assert_eq!(items.len(), 1, "still there");
    assert_eq!(items[0].rating, None, "not rated");
    assert_eq!(app.content("alice", &id).await.unwrap(), "alice's words");
    assert!(app.all_items("bob").await.is_empty());
}

#[tokio::test]
async fn calls_without_a_caller_are_unauthenticated() {
    let app = spawn_app().await;
    let refused = app
        .client
        .clone()
        .list_transcripts(scribevault_proto::library::v1::ListTranscriptsRequest::default())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
}
