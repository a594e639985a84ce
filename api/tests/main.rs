//! The API's tests, one binary: each test file here linked the whole stack
//! on its own, and linking was most of what a change to them cost.

mod adversary;
mod common;
mod endpoints;
mod hygiene;
mod live;
mod openapi;
mod titles;
mod viewers;
mod web;
