//! The kinds this build knows. Adding a kind is adding its module and one line here.

use crate::game::{DynRules, Kind};

static LOSTWORLDS: Kind<crate::lostworlds::LostWorlds> = Kind::new();
static LEGEND: Kind<crate::legend::Legend> = Kind::new();
static LUDOVIA: Kind<crate::ludovia::Ludovia> = Kind::new();
static LEGLESS: Kind<crate::legless::Legless> = Kind::new();
static DREAD: Kind<crate::dread::Dread> = Kind::new();

/// Every kind, in the order `tabletape kinds` lists them.
pub fn kinds() -> Vec<&'static dyn DynRules> {
    vec![&LOSTWORLDS, &LEGEND, &LUDOVIA, &LEGLESS, &DREAD]
}

/// The kind called `name`.
pub fn kind(name: &str) -> Option<&'static dyn DynRules> {
    kinds().into_iter().find(|k| k.name() == name)
}
