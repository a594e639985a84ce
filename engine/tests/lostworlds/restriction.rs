//! Tests of `lostworlds::restriction`.

use tabletape_engine::lostworlds::content::Colour;
use tabletape_engine::lostworlds::content::Colour::*;
use tabletape_engine::lostworlds::content::Maneuver;
use tabletape_engine::lostworlds::restriction::*;

fn m(category: &str, name: &str, colour: Colour, page: u32) -> Maneuver {
    let extended = category == "Extended Range";
    Maneuver {
        category: category.into(),
        name: name.into(),
        colour,
        page,
        x: if extended { None } else { Some(50) },
        modifier: 0,
        two_attacks: false,
        raised: 0,
    }
}

fn t(s: &str) -> Item {
    Item::Term(s.into())
}

fn p(s: &str) -> Vec<Clause> {
    Restriction::parse(s)
        .unwrap_or_else(|e| panic!("{e}"))
        .clauses
}

#[test]
fn every_phrasing_parses() {
    assert_eq!(p("No restrictions next turn."), vec![Clause::Free]);
    assert_eq!(
        p("Do only Green or Yellow next turn."),
        vec![Clause::Only {
            items: vec![Item::Colour(Green), Item::Colour(Yellow)],
            except: vec![],
            span: Span::NextTurn
        }]
    );
    assert_eq!(
        p("Do no Red or Orange next turn"),
        vec![Clause::No {
            items: vec![Item::Colour(Red), Item::Colour(Orange)],
            except: vec![],
            span: Span::NextTurn
        }]
    );
    assert_eq!(
        p("Do no Orange for the rest of the combat"),
        vec![Clause::No {
            items: vec![Item::Colour(Orange)],
            except: vec![],
            span: Span::RestOfCombat
        }]
    );
    assert_eq!(
        p("Do only Jumps for the rest of the combat"),
        vec![Clause::Only {
            items: vec![t("jumps")],
            except: vec![],
            span: Span::RestOfCombat
        }]
    );
    assert_eq!(
        p("Do only EXTENDED RANGE next turn"),
        vec![Clause::Only {
            items: vec![Item::ExtendedRange],
            except: vec![],
            span: Span::NextTurn
        }]
    );
    assert_eq!(
        p("Do only Kick, Yellow or Green (except Wild Swing) until weapon has been retrieved."),
        vec![Clause::Only {
            items: vec![t("kick"), Item::Colour(Yellow), Item::Colour(Green)],
            except: vec![t("wild swing")],
            span: Span::UntilWeaponRetrieved
        }]
    );
    assert_eq!(
        p("May use weapon again. Do no Orange next turn."),
        vec![
            Clause::WeaponRetrieved,
            Clause::No {
                items: vec![Item::Colour(Orange)],
                except: vec![],
                span: Span::NextTurn
            }
        ]
    );
    assert_eq!(
        p("Add +2 if you Score next turn."),
        vec![Clause::Bonus {
            amount: 2,
            items: vec![]
        }]
    );
    assert_eq!(
        p("Add +2 to any Down or Side Swing that Scores next turn."),
        vec![Clause::Bonus {
            amount: 2,
            items: vec![t("down swing"), t("side swing")]
        }]
    );
    assert_eq!(
        p("Do no Blue next turn, but add +2 to any Orange that Scores next turn."),
        vec![
            Clause::No {
                items: vec![Item::Colour(Blue)],
                except: vec![],
                span: Span::NextTurn
            },
            Clause::Bonus {
                amount: 2,
                items: vec![Item::Colour(Orange)]
            }
        ]
    );
    assert_eq!(
        p("Subtract -2 from all Scores, cumulative, (except Kick) for the rest of the game."),
        vec![Clause::Penalty {
            amount: 2,
            except: vec![t("kick")]
        }]
    );
    assert_eq!(
        p("Subtract 2 from all scores, cumulative (except Kick) for the rest of the combat"),
        vec![Clause::Penalty {
            amount: 2,
            except: vec![t("kick")]
        }]
    );
    assert_eq!(
        p("Do no Specials (except 'Retrieve Weapon') for the rest of the combat."),
        vec![Clause::No {
            items: vec![t("specials")],
            except: vec![t("retrieve weapon")],
            span: Span::RestOfCombat
        }]
    );
    assert_eq!(
        p("Do only EXTENDED RANGE next turn, but add +2 to any Charge or Swing that Scores next turn."),
        vec![
            Clause::Only { items: vec![Item::ExtendedRange], except: vec![], span: Span::NextTurn },
            Clause::Bonus { amount: 2, items: vec![t("charge"), t("swing")] }
        ]
    );
    let conditional = p("Do no Orange next turn. If I am 'Pushed Off Balance' go to p. 19.");
    assert_eq!(
        conditional[1],
        Clause::If {
            situation: "pushed off balance".into(),
            picture: 19
        }
    );
    assert_eq!(
        p("If the moon is up, sing."),
        vec![Clause::Note {
            text: "If the moon is up, sing".into()
        }]
    );
    assert_eq!(
        p("do only block high or extended range block and close next turn"),
        vec![Clause::Only {
            items: vec![t("block high"), t("extended range block and close")],
            except: vec![],
            span: Span::NextTurn
        }]
    );
}

#[test]
fn unknown_wording_is_an_error() {
    let e = Restriction::parse("Dance a jig next turn").unwrap_err();
    assert!(e.reason.contains("not a wording"), "{e}");
    assert!(Restriction::parse("Do no Red")
        .unwrap_err()
        .reason
        .contains("how long"));
    assert!(Restriction::parse("").is_err());
    assert!(Restriction::parse("Do no Red (except Kick next turn").is_err());
}

#[test]
fn items_match_the_right_maneuvers() {
    let bash = m("Down Swing", "Bash", Orange, 36);
    let bs = m("Block and Strike", "High", Red, 44);
    let block = m("Block", "High", Green, 26);
    let kick = m("Special", "Kick", Brown, 34);
    let wild = m("Special", "Wild Swing", Brown, 40);
    let swing = m("Extended Range", "Swing High", Black, 64);
    assert!(t("down swings").admits(&bash));
    assert!(t("blocks").admits(&block));
    assert!(
        !t("blocks").admits(&bs),
        "a category names only its own maneuvers"
    );
    assert!(t("kick").admits(&kick));
    assert!(t("specials").admits(&wild));
    assert!(t("swing").admits(&swing) && t("swing").admits(&bash));
    assert!(t("extended range swing high").admits(&swing));
    assert!(Item::ExtendedRange.admits(&swing) && !Item::ExtendedRange.admits(&bash));
    let only =
        &p("Do only Kick, Yellow or Green (except Wild Swing) until weapon has been retrieved")[0];
    let retrieve = m("Special", "Retrieve Weapon", Brown, 46);
    assert!(
        only.permits(&retrieve, &[], false).is_ok(),
        "retrieving is the way out"
    );
    assert!(only.permits(&kick, &[], false).is_ok());
    assert_eq!(
        only.permits(&bash, &[], false).unwrap_err(),
        "Down Swing Bash is not Kick, Yellow or Green"
    );
    // Any letter case, a plural, a full name, one word of a full name;
    // never a word that is only part of one.
    assert!(t("Down Swings").admits(&bash) && t("DOWN SWING BASH").admits(&bash));
    assert!(t("Extended Range Swing Highs").admits(&swing));
    assert!(t("SWING").admits(&swing) && !t("swin").admits(&swing));
    assert!(!t("kicks").admits(&bash) && !t("down swing bas").admits(&bash));
    assert!(
        !t("Specials").admits(&bash),
        "a category names only its own"
    );
    assert!(bash.full_name_is("down swing bash") && !bash.full_name_is("down swingbash"));
    assert!(bash.wields_weapon() && wild.wields_weapon() && swing.wields_weapon());
    assert!(!kick.wields_weapon() && !block.wields_weapon() && !retrieve.wields_weapon());
    assert!(m("EXTENDED RANGE", "Thrust Low", Black, 66).wields_weapon());
    assert!(!m("Extended Range", "Block and Close", Green, 62).wields_weapon());
    let no_red = &p("Do no Red next turn")[0];
    assert_eq!(
        no_red.permits(&bs, &[], false).unwrap_err(),
        "Block and Strike High is Red"
    );
    let ext = &p("Do only Extended Range next turn")[0];
    assert!(ext
        .permits(&bash, std::slice::from_ref(&swing), false)
        .is_err());
    assert!(
        ext.permits(&bash, std::slice::from_ref(&swing), true)
            .is_ok(),
        "widened by the X column"
    );
    assert!(ext.instructs_extended(std::slice::from_ref(&swing)));
    let bonus = &p("Add +2 to any Down or Side Swing that scores next turn")[0];
    assert_eq!(bonus.bonus(&bash), 2);
    assert_eq!(bonus.bonus(&kick), 0);
    let pen =
        &p("Subtract 2 from all scores, cumulative (except Kick) for the rest of the combat")[0];
    assert_eq!(pen.penalty(&bash), -2);
    assert_eq!(pen.penalty(&kick), 0);
}
