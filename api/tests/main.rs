//! The API's tests, one binary: each test file here linked the whole stack
//! on its own, and linking was most of what a change to them cost.

mod adversary;
mod auth;
mod common;
mod endpoints;
mod hygiene;
mod lines;
mod live;
mod openapi;
mod operator;
mod plays;
mod table;
mod telemetry;
mod titles;
mod viewers;
mod web;
