//! Tests of `dread::state`.

use tabletape_engine::dread::state::*;

#[test]
fn places_read_and_write_one_way() {
    for (text, place) in [
        (
            "north 3",
            Place {
                area: Area::North,
                spot: 3,
            },
        ),
        ("West-Streets", Place::streets(Area::West)),
        (
            "south6",
            Place {
                area: Area::South,
                spot: 6,
            },
        ),
    ] {
        assert_eq!(text.parse::<Place>().unwrap(), place);
    }
    assert_eq!(Place::streets(Area::East).to_string(), "east streets");
    assert!("north 7".parse::<Place>().is_err());
    assert!("up 1".parse::<Place>().is_err());
    for i in 0..24 {
        assert_eq!(Place::of_index(i).index(), Some(i));
    }
}

#[test]
fn the_clock_runs_from_six_in_the_morning() {
    assert_eq!(hour(1), "6 a.m.");
    assert_eq!(hour(4), "noon");
    assert_eq!(hour(5), "2 p.m.");
    assert_eq!(hour(10), "midnight");
    assert_eq!(hour(12), "4 a.m.");
}
