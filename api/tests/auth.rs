//! Tests of the token and viewer readers (`request::auth`, `request::extract`).

use tabletape_api::request::auth::*;
use tabletape_api::AppError;
use tabletape_engine::Viewer;
use tabletape_events::Actor;
use tabletape_store::Access;

#[test]
fn seat_tokens_act_only_as_their_seat() {
    let seat = Access::Seat(1);
    assert_eq!(acting_seat(&seat, None).unwrap(), (Actor::Seat(1), Some(1)));
    assert_eq!(
        acting_seat(&seat, Some(1)).unwrap(),
        (Actor::Seat(1), Some(1))
    );
    assert!(matches!(
        acting_seat(&seat, Some(0)),
        Err(AppError::Forbidden(_))
    ));
}

#[test]
fn as_reads_owner_public_or_a_seat_number() {
    assert_eq!(parse_viewer("owner").unwrap(), Viewer::Owner);
    assert_eq!(parse_viewer("Public").unwrap(), Viewer::Public);
    assert_eq!(parse_viewer("2").unwrap(), Viewer::Seat(2));
    assert!(matches!(parse_viewer("Nowa"), Err(AppError::BadRequest(_))));
    assert!(matches!(parse_viewer("-1"), Err(AppError::BadRequest(_))));
}

#[test]
fn the_owner_acts_for_anyone() {
    assert_eq!(
        acting_seat(&Access::Owner, None).unwrap(),
        (Actor::Owner, None)
    );
    assert_eq!(
        acting_seat(&Access::Owner, Some(3)).unwrap(),
        (Actor::Owner, Some(3))
    );
    assert!(matches!(
        acting_seat(&Access::Public, None),
        Err(AppError::Forbidden(_))
    ));
}

/// `extract` on its own.
mod extract {
    use axum::http::header::{AUTHORIZATION, COOKIE};
    use axum::http::HeaderMap;
    use axum::http::HeaderValue;
    use tabletape_api::request::extract::*;
    use tabletape_api::AppError;

    fn headers(auth: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(AUTHORIZATION, HeaderValue::from_str(auth).unwrap());
        h
    }

    #[test]
    fn bearer_reads_the_token() {
        assert_eq!(bearer(&HeaderMap::new()).unwrap(), None);
        assert_eq!(
            bearer(&headers("Bearer abc")).unwrap().as_deref(),
            Some("abc")
        );
        assert_eq!(
            bearer(&headers("bearer  abc ")).unwrap().as_deref(),
            Some("abc")
        );
    }

    #[test]
    fn a_games_cookie_opens_only_that_game() {
        let mut h = HeaderMap::new();
        h.insert(
            COOKIE,
            HeaderValue::from_static("theme=dark; tt_g-1=abc; tt_g-2=def"),
        );
        assert_eq!(cookie_token(&h, "/games/g-1/state").as_deref(), Some("abc"));
        assert_eq!(cookie_token(&h, "/g/g-2/story").as_deref(), Some("def"));
        assert_eq!(cookie_token(&h, "/games/g-3/state"), None);
        assert_eq!(cookie_token(&h, "/games"), None);
    }

    #[test]
    fn other_schemes_are_refused() {
        assert!(matches!(
            bearer(&headers("Basic abc")),
            Err(AppError::Unauthorized(_))
        ));
        assert!(matches!(
            bearer(&headers("Bearer")),
            Err(AppError::Unauthorized(_))
        ));
        assert!(matches!(
            bearer(&headers("Bearer ")),
            Err(AppError::Unauthorized(_))
        ));
    }
}
