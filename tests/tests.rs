//! End-to-end tests of Tabletape through its public interfaces: the journal,
//! the `tabletape` binary and the HTTP router. One test binary (ripgrep's
//! layout): each module below is one area.

// The searches and properties allocate hard (serde values, cloned states):
// mimalloc takes a tenth off the suite's CPU time (152 to 136 s here).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod adversary;
mod bookkeeping;
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
