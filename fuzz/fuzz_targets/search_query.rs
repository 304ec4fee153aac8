//! The Vault's search box: the parsed query and the strings written for each engine. Every
//! FTS5 string is run as a MATCH against an in-memory index built like the library's, so one
//! SQLite would refuse (a syntax error is a 500 to the user) fails here.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rusqlite::Connection;
#[allow(dead_code)]
#[path = "../../crates/library/src/search/query.rs"]
mod query;

use query::SearchQuery;

thread_local! {
    static INDEX: Connection = index();
}

/// The library's FTS5 table (same tokenizer), with a few rows so a MATCH really runs.
fn index() -> Connection {
    let db = Connection::open_in_memory().unwrap();
    db.execute_batch(
        "CREATE VIRTUAL TABLE library_fts USING fts5(title, tags_text, content, \
         tokenize='porter unicode61 remove_diacritics 2');
         INSERT INTO library_fts VALUES ('Bread at home', 'baking', 'Flour, water and salt: the dough rests overnight.');
         INSERT INTO library_fts VALUES ('Weekly meeting', 'work notes', 'We agreed on the café budget and the e-mail rollout.');",
    )
    .unwrap();
    db
}

fn assert_fts5_accepts(query: &str, input: &str) {
    INDEX.with(|db| {
        let mut statement = db
            .prepare_cached("SELECT rowid FROM library_fts WHERE library_fts MATCH ?1")
            .unwrap();
        let rows = statement
            .query_map([query], |row| row.get::<_, i64>(0))
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>());
        if let Err(error) = rows {
            panic!("FTS5 refused {query:?} (from {input:?}): {error}");
        }
    });
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let Some(query) = SearchQuery::parse(input) else {
        return;
    };
    for term in query.groups.iter().flatten().chain(&query.excluded) {
        assert!(
            !term.words().is_empty(),
            "a term without words from {input:?}"
        );
        for word in term.words() {
            assert!(
                !word.is_empty() && !word.contains('"') && !word.contains(char::is_whitespace),
                "word {word:?} from {input:?} would break the quoting"
            );
        }
    }
    assert_eq!(query.fts5_positive().is_some(), query.has_positive_terms());
    assert_eq!(
        query.websearch_positive().is_some(),
        query.has_positive_terms()
    );
    let _ = query.websearch_required();
    let _ = query.websearch_excluded_any();
    if let Some(positive) = query.fts5_positive() {
        assert_fts5_accepts(&positive, input);
    }
    if let Some(excluded) = query.fts5_excluded_any() {
        assert_fts5_accepts(&excluded, input);
    }
});
