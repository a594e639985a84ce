//! The miniatures scenarios: figures on a map of hexes (option `scenario`;
//! see "Scenarios" in the kind's readings, [`crate::lostworlds`]). A turn
//! is initiative, each figure's move by the movement chart, recovery, the
//! combat phase (fought through the duel's books, [`super::duel`]), falls
//! and the victory check.

pub(super) mod apply;
pub mod content;
pub mod decide;
pub(super) mod narration;
pub mod state;
pub(super) mod svg;
pub mod tables;
