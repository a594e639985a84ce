//! Tests of `lostworlds::field::tables`.

use tabletape_engine::lostworlds::field::state::Position;
use tabletape_engine::lostworlds::field::tables::*;

#[test]
fn the_reckless_jumping_table() {
    let rows: Vec<_> = (1..=6).map(reckless_landing).collect();
    use Position::*;
    assert_eq!(
        rows,
        [
            (Standing, false),
            (Standing, false),
            (OffBalance, false),
            (OffBalance, false),
            (Down, false),
            (Down, true)
        ]
    );
}

#[test]
fn the_jumping_onto_an_opponent_table() {
    use Pounce::*;
    let rows: Vec<_> = (1..=6).map(pounce).collect();
    assert_eq!(
        rows,
        [Flattened, Disarmed, Staggered, Staggered, Missed, Missed]
    );
}

#[test]
fn the_throwing_table() {
    let hits = |range| {
        (1..=6)
            .filter(|&r| throw_lands(range, r))
            .collect::<Vec<_>>()
    };
    assert_eq!(hits(1), [1, 2, 3]);
    assert_eq!(hits(2), [1, 2]);
    assert_eq!(hits(3), [1, 2]);
    assert_eq!(hits(4), [1]);
    assert_eq!(hits(9), [1]);
}

#[test]
fn the_spell_range_table() {
    let rows: Vec<_> = [2, 3, 4, 5, 6, 7, 8, 9, 20].map(spell_range).to_vec();
    assert_eq!(
        rows,
        [
            (0, 5),
            (1, 4),
            (1, 4),
            (2, 3),
            (2, 3),
            (3, 2),
            (3, 2),
            (4, 1),
            (4, 1)
        ]
    );
}

#[test]
fn the_throwing_weapons_table() {
    assert_eq!(weapon_range("club"), Some(2));
    assert_eq!(weapon_range("Dagger"), Some(3));
    assert_eq!(weapon_range("hand axe"), Some(3));
    assert_eq!(weapon_range("rock"), Some(4));
    assert_eq!(weapon_range("spear"), Some(4));
    assert_eq!(weapon_range("sword"), None);
}

#[test]
fn the_falling_down_table_and_its_adjustments() {
    use Footing::*;
    let rows: Vec<_> = (1..=8).map(footing).collect();
    assert_eq!(
        rows,
        [Steady, Steady, Steady, Unsteady, Unsteady, Fall, Fall, Fall]
    );
    assert_eq!(footing_bonus(Position::Standing), 0);
    assert_eq!(footing_bonus(Position::OffBalance), 1);
    assert_eq!(footing_bonus(Position::Down), 2);
    // A downed figure rolling 4 falls (4 + 2).
    assert_eq!(footing(4 + footing_bonus(Position::Down)), Fall);
}

#[test]
fn the_recovery_table() {
    let row = |body| {
        (0..=8)
            .map(|roll| match recovery(body, roll) {
                Recovery::Body(n) => n.to_string(),
                Recovery::Dies => "D".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row(0), "6 6 4 2 0 0 -1 -2 -3");
    assert_eq!(row(-1), "6 4 2 0 -1 -1 -2 -3 -4");
    assert_eq!(row(-2), "4 2 0 -1 -2 -2 -3 -4 D");
    assert_eq!(row(-3), "2 1 -1 -2 -3 -3 -4 D D");
    assert_eq!(row(-4), "1 -1 -2 -3 -4 -4 D D D");
    // Rolls below 0 read as 0, above 8 as 8 (a slain figure's +3).
    assert_eq!(recovery(0, -2), Recovery::Body(6));
    assert_eq!(recovery(-4, 6 + 3), Recovery::Dies);
}

#[test]
fn the_situation_table_takes_the_first_that_applies() {
    use Position::*;
    assert_eq!(situation(OffBalance, true, true, Down), 1);
    assert_eq!(situation(Down, false, false, Standing), 1);
    assert_eq!(situation(Standing, true, true, Down), 23);
    assert_eq!(situation(Standing, false, true, Down), 21);
    assert_eq!(situation(Standing, false, false, Down), 41);
    assert_eq!(situation(Standing, false, false, OffBalance), 19);
    assert_eq!(situation(Standing, false, false, Standing), 57);
}
