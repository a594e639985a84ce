//! The store's tests, one binary (each file a module, the stack linked once):
//! the log on either backend, the journal service over it, and a full disk.

mod common;
mod diff;
mod full_disk;
mod journal;
mod location;
mod log;
mod schema_doc;
mod seal;
mod transfer;
mod upcast;
mod whole;
