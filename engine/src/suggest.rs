//! "Did you mean …?": the nearest of the names a rule knows to a mistyped one.
//!
//! A table types maneuver, card and leg names from the book in front of it,
//! so a rejection of an unknown name offers the one it most likely meant.
//! Similarity is strsim's normalised Damerau-Levenshtein distance (a
//! transposed pair counts as one slip), case-insensitive.

/// How alike two names must be (0 to 1) before one is offered for the other:
/// high enough that an unrelated name is never offered.
const ALIKE: f64 = 0.7;

/// The candidate most like `given`, if one is alike enough.
pub fn closest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let given = given.trim().to_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            (
                c,
                strsim::normalized_damerau_levenshtein(&given, &c.to_lowercase()),
            )
        })
        .filter(|(_, alike)| *alike >= ALIKE)
        // The first of equally alike names: candidates come in the book's order.
        .fold(None::<(&str, f64)>, |best, (c, alike)| match best {
            Some((_, b)) if b >= alike => best,
            _ => Some((c, alike)),
        })
        .map(|(c, _)| c)
}

/// `" (did you mean `name`?)"` for the closest candidate, or nothing.
pub fn did_you_mean<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(given, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

/// The same offer for serde's own "unknown variant `x`, expected one of `a`,
/// `b`" and "unknown field `x`, expected `a` or `b`" messages: an action's
/// type, or a name the schema spells as an enum.
pub fn for_serde_message(message: &str) -> String {
    let Some(rest) = message
        .strip_prefix("unknown variant `")
        .or_else(|| message.strip_prefix("unknown field `"))
    else {
        return String::new();
    };
    let Some((given, expected)) = rest.split_once('`') else {
        return String::new();
    };
    let names = expected.split('`').skip(1).step_by(2);
    did_you_mean(given, names)
}
