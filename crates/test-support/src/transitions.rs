//! Checking a state machine against its table: one row per transition, with the states it
//! starts from and the state it leads to (transcription's files, discovery's download jobs).

use std::fmt::{Debug, Display};

/// One row of a transition table: the transition, its source states, its target.
pub type Row<'a, S, T> = (T, &'a [S], S);

/// Checks `transition` against its row of `table`: from every source state `apply` leads to the
/// row's target, and from every other state of `all` it refuses with `refusal(from, transition)`.
///
/// # Panics
/// When the transition has no row, or `apply` disagrees with it: the test fails.
pub fn check_transition<S, T, E>(
    table: &[Row<'_, S, T>],
    all: &[S],
    transition: T,
    apply: impl Fn(S, T) -> Result<S, E>,
    refusal: impl Fn(S, T) -> E,
) where
    S: Copy + PartialEq + Debug + Display,
    T: Copy + PartialEq + Debug,
    E: PartialEq + Debug,
{
    let (_, sources, target) = table
        .iter()
        .find(|(row, _, _)| *row == transition)
        .copied()
        .unwrap_or_else(|| panic!("{transition:?} missing from the table"));
    for &from in all {
        let outcome = apply(from, transition);
        if sources.contains(&from) {
            assert_eq!(outcome, Ok(target), "{from} --{transition:?}-->");
        } else {
            assert_eq!(
                outcome,
                Err(refusal(from, transition)),
                "{from} must refuse {transition:?}"
            );
        }
    }
}
