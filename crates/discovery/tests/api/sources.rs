//! Sources: added by URL with the API's title and thumbnail, their videos synced once and paged
//! from the database, announced to their owner, and invisible to everyone else.

use scribevault_bus::contract::Event;
use scribevault_bus::contract::SourceChange;
use scribevault_proto::discovery::v1 as pb;
use scribevault_test_support::youtube::{DEMO_PLAYLIST_ID, FakeChannel, channel_id};
use tonic::Code;

use crate::helpers::{TestApp, as_user, next_event, spawn_app};

async fn add(app: &TestApp, user: &str, url: &str) -> Result<pb::Source, tonic::Status> {
    app.client
        .clone()
        .create_source(as_user(
            user,
            pb::CreateSourceRequest {
                url: url.to_owned(),
                reuse_existing: false,
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

async fn page(
    app: &TestApp,
    user: &str,
    id: &str,
    token: &str,
) -> Result<pb::ListSourceVideosResponse, tonic::Status> {
    app.client
        .clone()
        .list_source_videos(as_user(
            user,
            pb::ListSourceVideosRequest {
                source_id: id.to_owned(),
                page_token: token.to_owned(),
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

async fn list(app: &TestApp, user: &str) -> Vec<pb::Source> {
    app.client
        .clone()
        .list_sources(as_user(user, pb::ListSourcesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .sources
}

#[tokio::test]
async fn a_channel_source_pages_its_videos_from_the_database() {
    let app = spawn_app().await;
    app.youtube.add_channel(
        FakeChannel::generated(&channel_id(101), "Long Reads", 130).with_handle("@LongReads"),
    );
    let mut events = app.events().await;
    let source = add(&app, "alice", " https://www.youtube.com/@LongReads/videos ")
        .await
        .unwrap();
    assert_eq!(source.r#type, "CHANNEL");
    assert_eq!(source.title, "Long Reads");
    assert!(source.thumbnail_url.starts_with("http"));
    assert_eq!(source.url, "https://www.youtube.com/@LongReads/videos");
    let (owner, event) = next_event(&mut events).await;
    assert_eq!(owner, "alice");
    let Event::SourceUpdate(update) = event else {
        panic!("{event:?}")
    };
    assert_eq!(
        (update.change, update.source.title.as_str()),
        (SourceChange::Created, "Long Reads")
    );

    app.youtube.reset_calls();
    let mut titles = Vec::new();
    let mut token = String::new();
    let mut pages = 0;
    loop {
        let page = page(&app, "alice", &source.id, &token).await.unwrap();
        pages += 1;
        assert!(page.videos.len() <= 50);
        titles.extend(page.videos.into_iter().map(|video| video.title));
        if !page.has_more {
            assert!(page.next_page_token.is_empty());
            break;
        }
        token = page.next_page_token;
    }
    assert_eq!(pages, 3);
    assert_eq!(titles.len(), 130);
    assert_eq!(titles[0], "Long Reads episode 130");
    assert_eq!(titles[129], "Long Reads episode 1");
    assert!(app.youtube.calls().is_empty(), "paging spends no quota");
}

#[tokio::test]
async fn a_playlist_source_keeps_the_playlists_order() {
    let app = spawn_app().await;
    app.youtube.seed_demo();
    let url = format!("https://www.youtube.com/playlist?list={DEMO_PLAYLIST_ID}");
    let source = add(&app, "alice", &url).await.unwrap();
    assert_eq!(source.r#type, "PLAYLIST");
    assert_eq!(source.title, "Demo playlist");
    let first = page(&app, "alice", &source.id, "").await.unwrap();
    assert_eq!(first.videos.len(), 30);
    assert!(!first.has_more);
    assert_eq!(first.videos[0].title, "Scribevault Demo episode 120");
    assert_eq!(first.videos[1].title, "Scribevault Demo episode 116");
}

#[tokio::test]
async fn the_same_list_twice_is_a_conflict_that_costs_no_video_reads() {
    let app = spawn_app().await;
    let id = channel_id(102);
    app.youtube
        .add_channel(FakeChannel::generated(&id, "Twice", 60).with_handle("@Twice"));
    add(&app, "alice", "@Twice").await.unwrap();
    app.youtube.reset_calls();
    let again = add(
        &app,
        "alice",
        &format!("https://www.youtube.com/channel/{id}"),
    )
    .await
    .unwrap_err();
    assert_eq!(again.code(), Code::AlreadyExists);
    assert_eq!(again.message(), "This source has already been added");
    assert!(
        app.youtube
            .calls()
            .iter()
            .all(|call| call.endpoint != "playlistItems"),
        "{:?}",
        app.youtube.calls()
    );
    assert_eq!(list(&app, "alice").await.len(), 1);
    add(&app, "bob", "@Twice")
        .await
        .expect("another user may follow it too");
}

#[tokio::test]
async fn sources_belong_to_their_owner() {
    let app = spawn_app().await;
    app.youtube.add_channel(
        FakeChannel::generated(&channel_id(103), "Private List", 3).with_handle("@PrivateList"),
    );
    let source = add(&app, "alice", "@PrivateList").await.unwrap();
    assert!(list(&app, "bob").await.is_empty());
    let peek = page(&app, "bob", &source.id, "").await.unwrap_err();
    assert_eq!(peek.code(), Code::NotFound);
    assert_eq!(peek.message(), "Source not found");
    let delete = app
        .client
        .clone()
        .delete_source(as_user(
            "bob",
            pb::SourceRef {
                id: source.id.clone(),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(delete.code(), Code::NotFound);
    assert_eq!(list(&app, "alice").await.len(), 1, "bob deleted nothing");

    let mut events = app.events().await;
    app.client
        .clone()
        .delete_source(as_user(
            "alice",
            pb::SourceRef {
                id: source.id.clone(),
            },
        ))
        .await
        .unwrap();
    let (owner, event) = next_event(&mut events).await;
    assert_eq!(owner, "alice");
    let Event::SourceUpdate(update) = event else {
        panic!("{event:?}")
    };
    assert_eq!(
        (update.change, update.source.title.as_str()),
        (SourceChange::Deleted, "Private List")
    );
    assert!(list(&app, "alice").await.is_empty());
    assert_eq!(
        page(&app, "alice", &source.id, "")
            .await
            .unwrap_err()
            .code(),
        Code::NotFound
    );
}

#[tokio::test]
async fn bad_source_input_is_refused_clearly() {
    let app = spawn_app().await;
    app.youtube
        .add_channel(FakeChannel::generated(&channel_id(104), "Tokens", 3).with_handle("@Tokens"));
    let source = add(&app, "alice", "@Tokens").await.unwrap();
    for (url, code, message) in [
        (
            "",
            Code::InvalidArgument,
            "Please enter a YouTube channel URL",
        ),
        (
            "https://example.com/feed",
            Code::InvalidArgument,
            "Please enter a valid YouTube channel URL",
        ),
        ("@ghost-channel", Code::NotFound, "Channel not found"),
        (
            "https://www.youtube.com/playlist?list=PLdoesnotexist000000000000000001",
            Code::NotFound,
            "Playlist not found",
        ),
    ] {
        let refused = add(&app, "alice", url).await.unwrap_err();
        assert_eq!(
            (refused.code(), refused.message()),
            (code, message),
            "{url}"
        );
    }
    for token in ["50", "not-a-token", "sv1zzzz", "EAAaBlBUOkNESQ"] {
        let refused = page(&app, "alice", &source.id, token).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{token}");
    }
    let unknown = page(&app, "alice", "00000000-0000-0000-0000-000000000000", "").await;
    assert_eq!(unknown.unwrap_err().code(), Code::NotFound);
    assert_eq!(list(&app, "alice").await.len(), 1, "nothing half-added");
}
