//! The book duel: each fighter holds the book that shows the opponent, and
//! every exchange both pick a maneuver, turn the pages and read what they
//! reached (see the kind's readings in [`crate::lostworlds`]). A scenario's
//! combat phase is fought through this same duel; what is the map's own
//! is in [`super::field`].

pub(super) mod apply;
pub mod decide;
pub mod narration;
pub mod svg;
