//! Tests of `location`.

use tabletape_store::location::*;

#[test]
fn a_url_names_postgres_and_anything_else_a_directory() {
    assert_eq!(
        Location::parse("postgres://u@h/db"),
        Location::Postgres("postgres://u@h/db".into())
    );
    assert_eq!(
        Location::parse("postgresql://h/db"),
        Location::Postgres("postgresql://h/db".into())
    );
    assert_eq!(
        Location::parse("./tabletape-data"),
        Location::Dir("./tabletape-data".into())
    );
}

#[test]
fn a_password_is_never_shown() {
    let at = Location::parse("postgres://club:hunter2@db.example:5433/tape?sslmode=disable");
    assert_eq!(
        at.to_string(),
        "postgres://club:***@db.example:5433/tape?sslmode=disable"
    );
    assert_eq!(
        Location::parse("postgres://club@h/db").to_string(),
        "postgres://club@h/db"
    );
}
