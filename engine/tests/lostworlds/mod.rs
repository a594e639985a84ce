//! Lost Worlds: the book duel and the miniatures scenarios, each in its own
//! folder, and what both read (options, the restrictions on a maneuver).

mod duel;
mod field;
mod options;
mod restriction;
