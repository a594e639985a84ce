//! Tests of `ludovia::board`.

use tabletape_engine::ludovia::board::*;

const G: Grid = Grid { rows: 3, cols: 3 };

#[test]
fn names_round_trip() {
    for s in ["lair", "prison", "h0.2", "v2.3", "s4.7"] {
        assert_eq!(s.parse::<Space>().unwrap().to_string(), s);
    }
    assert_eq!("p3.0".parse::<Post>().unwrap(), Post { r: 3, c: 0 });
    assert!("x1.2".parse::<Space>().is_err());
    assert!("h1".parse::<Space>().is_err());
}

#[test]
fn a_3x3_board_has_16_posts_and_24_streets() {
    assert_eq!(G.posts().len(), 16);
    assert_eq!(G.streets().len(), 24);
    let big = Grid { rows: 3, cols: 4 };
    assert_eq!(big.posts().len(), 20);
    assert_eq!(big.streets().len(), 31);
}

#[test]
fn corner_and_edge_posts_face_inwards_only() {
    let corner = Post { r: 0, c: 0 };
    assert!(G.faces_edge(corner, Facing::North));
    assert!(G.faces_edge(corner, Facing::West));
    assert!(!G.faces_edge(corner, Facing::East));
    assert_eq!(G.streets_at(corner).len(), 2);
    assert_eq!(G.streets_at(Post { r: 0, c: 1 }).len(), 3);
    assert_eq!(G.streets_at(Post { r: 1, c: 1 }).len(), 4);
}

#[test]
fn a_policeman_watches_to_the_edge() {
    let w = G.watched(Post { r: 1, c: 0 }, Facing::East);
    assert_eq!(
        w,
        vec![
            Street::H { r: 1, c: 0 },
            Street::H { r: 1, c: 1 },
            Street::H { r: 1, c: 2 }
        ]
    );
    assert!(G.watched(Post { r: 1, c: 3 }, Facing::East).is_empty());
}

#[test]
fn cells_touch_the_streets_of_their_block_sides() {
    // s3.5 is the north-east corner of block (1, 1).
    assert_eq!(
        G.cell_streets(3, 5),
        vec![Street::H { r: 1, c: 1 }, Street::V { r: 1, c: 2 }]
    );
    assert!(G.cell_streets(4, 4).is_empty());
    assert_eq!(G.cell_neighbours(3, 5), vec![(4, 5), (3, 4)]);
    // Across the east street of block (1, 1) lies block (1, 2).
    assert_eq!(G.across(4, 5), vec![((4, 6), Street::V { r: 1, c: 2 })]);
    assert!(G.across(4, 4).is_empty());
    assert_eq!(G.across(0, 0), vec![]);
}
