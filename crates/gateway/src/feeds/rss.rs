//! The feed's XML: RSS 2.0 with the iTunes, Podcasting 2.0 (podcastindex 1.0) and Atom
//! namespaces, written by the `rss` crate (which escapes every text and attribute).
//!
//! What Apple's podcast requirements (podcasters.apple.com support/823) and the Podcasting 2.0
//! namespace ask for: a GUID per episode that never changes (the item id, not a permalink), an
//! enclosure with url, length (the stored bytes) and type, RFC 2822 dates, ASCII URLs (the
//! base is a parsed URL, the secret base64url, ids UUIDs), `itunes:duration`, and a
//! `podcast:transcript` per format. The feed is private: `itunes:block` keeps it out of Apple's
//! directory and `podcast:locked` tells other platforms not to import it.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use rss::extension::atom::{AtomExtension, Link};
use rss::extension::itunes::{ITunesChannelExtension, ITunesItemExtension};
use rss::extension::{Extension, ExtensionMap};
use rss::{Channel, Enclosure, Guid, Image, Item};

use super::episodes::Episode;
use super::transcripts::TranscriptFormat;

/// The Podcasting 2.0 namespace.
pub const PODCAST_NAMESPACE: &str = "https://podcastindex.org/namespace/1.0";

/// What the channel says about itself.
#[derive(Debug, Clone)]
pub struct ChannelInfo {
    pub title: String,
    pub description: String,
    /// The instance's page (Pinchflat #738: the link points at the instance).
    pub link: String,
    /// The feed's own URL, for `atom:link rel="self"`.
    pub self_url: String,
    /// Square artwork: the channel's for a source feed, the instance's otherwise.
    pub image_url: String,
    pub author: String,
    /// `podcast:guid`: stable for the feed's life.
    pub guid: String,
    pub language: String,
    pub last_build: DateTime<Utc>,
}

/// Where an episode's files are: `{items_base}{id}.mp3`, `.srt`, `.vtt`, `.json`.
#[derive(Debug, Clone)]
pub struct ItemLinks {
    pub items_base: String,
}

impl ItemLinks {
    #[must_use]
    pub fn audio(&self, id: &str) -> String {
        format!("{}{id}.mp3", self.items_base)
    }

    #[must_use]
    pub fn transcript(&self, id: &str, format: TranscriptFormat) -> String {
        format!("{}{id}.{}", self.items_base, format.extension())
    }
}

fn extension(name: &str, value: Option<&str>, attrs: &[(&str, &str)]) -> Extension {
    Extension {
        name: name.to_owned(),
        value: value.map(str::to_owned),
        attrs: attrs
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect(),
        children: BTreeMap::new(),
    }
}

fn podcast_extensions(entries: Vec<(&str, Vec<Extension>)>) -> ExtensionMap {
    let mut podcast = BTreeMap::new();
    for (name, values) in entries {
        podcast.insert(name.to_owned(), values);
    }
    let mut map = ExtensionMap::new();
    map.insert("podcast".to_owned(), podcast);
    map
}

/// `itunes:duration` in whole seconds.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // clamped to 0..=10^9 first
fn duration(seconds: f64) -> String {
    let seconds = seconds.round().clamp(0.0, 1e9) as u64;
    seconds.to_string()
}

fn item(episode: &Episode, links: &ItemLinks) -> Item {
    let description = if episode.media.description.is_empty() {
        episode.title.clone()
    } else {
        episode.media.description.clone()
    };
    let transcripts = TranscriptFormat::ALL
        .into_iter()
        .map(|format| {
            let url = links.transcript(&episode.id, format);
            let mut attrs = vec![("url", url.as_str()), ("type", format.mime_type())];
            if format != TranscriptFormat::Json {
                attrs.push(("rel", "captions"));
            }
            extension("podcast:transcript", None, &attrs)
        })
        .collect();
    Item {
        title: Some(episode.title.clone()),
        description: Some(description.clone()),
        guid: Some(Guid {
            value: episode.id.clone(),
            permalink: false,
        }),
        pub_date: Some(episode.published.to_rfc2822()),
        enclosure: Some(Enclosure {
            url: links.audio(&episode.id),
            length: episode.media.bytes.to_string(),
            mime_type: "audio/mpeg".to_owned(),
        }),
        itunes_ext: Some(ITunesItemExtension {
            duration: episode.duration_seconds.map(duration),
            explicit: Some("false".to_owned()),
            summary: Some(description),
            episode_type: Some("full".to_owned()),
            ..Default::default()
        }),
        extensions: podcast_extensions(vec![("transcript", transcripts)]),
        ..Default::default()
    }
}

/// The whole feed.
#[must_use]
pub fn feed_xml(info: &ChannelInfo, episodes: &[Episode], links: &ItemLinks) -> String {
    let mut namespaces = BTreeMap::new();
    namespaces.insert("podcast".to_owned(), PODCAST_NAMESPACE.to_owned());
    let channel = Channel {
        title: info.title.clone(),
        link: info.link.clone(),
        description: info.description.clone(),
        language: Some(info.language.clone()),
        generator: Some("Scribevault".to_owned()),
        last_build_date: Some(info.last_build.to_rfc2822()),
        image: Some(Image {
            url: info.image_url.clone(),
            title: info.title.clone(),
            link: info.link.clone(),
            ..Default::default()
        }),
        items: episodes
            .iter()
            .map(|episode| item(episode, links))
            .collect(),
        itunes_ext: Some(ITunesChannelExtension {
            author: Some(info.author.clone()),
            block: Some("Yes".to_owned()),
            image: Some(info.image_url.clone()),
            explicit: Some("false".to_owned()),
            summary: Some(info.description.clone()),
            r#type: Some("episodic".to_owned()),
            ..Default::default()
        }),
        atom_ext: Some(AtomExtension {
            links: vec![Link {
                href: info.self_url.clone(),
                rel: "self".to_owned(),
                mime_type: Some("application/rss+xml".to_owned()),
                ..Default::default()
            }],
        }),
        extensions: podcast_extensions(vec![
            (
                "locked",
                vec![extension("podcast:locked", Some("yes"), &[])],
            ),
            (
                "guid",
                vec![extension("podcast:guid", Some(&info.guid), &[])],
            ),
        ]),
        namespaces,
        ..Default::default()
    };
    channel.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feeds::episodes::Media;

    fn info() -> ChannelInfo {
        ChannelInfo {
            title: "#talks & <ideas>".into(),
            description: "Episodes tagged talks".into(),
            link: "https://vault.example.com/".into(),
            self_url: "https://vault.example.com/feeds/secret.xml".into(),
            image_url: "https://vault.example.com/feeds/artwork.png".into(),
            author: "Scribevault".into(),
            guid: "2d1f4c8e-0000-4000-8000-000000000001".into(),
            language: "en".into(),
            last_build: DateTime::parse_from_rfc3339("2026-11-26T10:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
        }
    }

    fn episode() -> Episode {
        Episode {
            id: "item-1".into(),
            title: "Bread \"at home\" & more".into(),
            published: DateTime::parse_from_rfc3339("2026-11-25T08:30:00Z")
                .unwrap()
                .with_timezone(&Utc),
            duration_seconds: Some(61.6),
            media: Media {
                mp3_path: "uploads/a.mp3".into(),
                bytes: 12_345,
                video_id: None,
                segments_path: "transcripts/j/f.segments.json".into(),
                description: "Flour, water & salt <3".into(),
            },
        }
    }

    #[test]
    fn the_feed_is_well_formed_and_has_what_podcast_apps_need() {
        let links = ItemLinks {
            items_base: "https://vault.example.com/feeds/secret/items/".into(),
        };
        let xml = feed_xml(&info(), &[episode()], &links);
        // Reads back: the XML is well formed and every text was escaped.
        let channel = Channel::read_from(xml.as_bytes()).expect("well-formed RSS");
        assert_eq!(channel.title, "#talks & <ideas>");
        let item = &channel.items[0];
        assert_eq!(item.title.as_deref(), Some("Bread \"at home\" & more"));
        assert_eq!(item.description.as_deref(), Some("Flour, water & salt <3"));
        let guid = item.guid.as_ref().unwrap();
        assert_eq!((guid.value.as_str(), guid.permalink), ("item-1", false));
        assert_eq!(
            item.pub_date.as_deref(),
            Some("Wed, 25 Nov 2026 08:30:00 +0000")
        );
        let enclosure = item.enclosure.as_ref().unwrap();
        assert_eq!(
            enclosure.url,
            "https://vault.example.com/feeds/secret/items/item-1.mp3"
        );
        assert_eq!(enclosure.length, "12345");
        assert_eq!(enclosure.mime_type, "audio/mpeg");
        assert_eq!(
            item.itunes_ext.as_ref().unwrap().duration.as_deref(),
            Some("62")
        );
        let transcripts = &item.extensions["podcast"]["transcript"];
        let types: Vec<&str> = transcripts
            .iter()
            .map(|t| t.attrs["type"].as_str())
            .collect();
        assert_eq!(types, ["application/srt", "text/vtt", "application/json"]);
        assert_eq!(transcripts[0].attrs["rel"], "captions");
        assert_eq!(
            transcripts[0].attrs["url"],
            "https://vault.example.com/feeds/secret/items/item-1.srt"
        );
        assert_eq!(
            channel.extensions["podcast"]["locked"][0].value(),
            Some("yes")
        );
        assert_eq!(
            channel.itunes_ext.as_ref().unwrap().block.as_deref(),
            Some("Yes")
        );
        assert!(xml.contains("xmlns:podcast=\"https://podcastindex.org/namespace/1.0\""));
        assert!(xml.contains("xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\""));
        assert!(xml.contains("rel=\"self\""));
    }
}
