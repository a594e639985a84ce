//! End-to-end tests of Tabletape through its public interfaces: the journal,
//! the `tabletape` binary and the HTTP router. One test binary (ripgrep's
//! layout): each module below is one area.

mod adversary;
mod cli;
mod crash;
mod faithful;
mod fuzz;
mod golden;
mod grammar;
mod properties;
mod regressions;
mod served;
mod shared_store;
mod study;
mod trust;
mod words;
