//! The icon map (`assets/icons/icons.ron`) against the shipped rulesets: every condition,
//! archetype, attack and technique, and every action the bar shows, has an icon; every icon
//! is a 64x64 PNG in `assets/icons/game-icons/`, credited with its author; nothing is shipped
//! that the map does not name.

use std::collections::BTreeSet;

use gridclash::icons::IconMap;

use crate::common::ruleset;

const RULESETS: [&str; 5] = ["dbu", "d20", "digimon", "shinobi", "power-stages"];

/// The actions the action bar and the defense questions show with an icon.
const BAR_ACTIONS: [&str; 24] = [
    "Move",
    "BoostedMove",
    "EndTurn",
    "HandOver",
    "PowerUp",
    "Recover",
    "UseSkill",
    "DropProne",
    "DiveForCover",
    "StandUp",
    "EndCondition",
    "CurePoison",
    "EnergyCharge",
    "CancelCharge",
    "ArrogantDeclaration",
    "CalledShot",
    "UnitedAttack",
    "Empower",
    "Grapple",
    "Hide",
    "Sneak",
    "Counter",
    "Confirm",
    "Cancel",
];

/// Every defense answer (`DefenseChoice`), by the name the bar looks its icon up with.
const ANSWERS: [&str; 8] = [
    "Dodge",
    "Parry",
    "Block",
    "Deflect",
    "Take",
    "Dive",
    "DropProne",
    "Reflect",
];

fn map() -> IconMap {
    IconMap::load(&IconMap::shipped_path()).expect("the shipped icon map reads")
}

#[test]
fn icons_every_condition_archetype_attack_and_technique_has_one() {
    let map = map();
    let mut missing = Vec::new();
    for id in RULESETS {
        let rules = ruleset(id);
        for c in &rules.conditions.conditions {
            if map.condition(id, &c.name).is_none() {
                missing.push(format!("{id} condition {}", c.name));
            }
        }
        for a in &rules.roster.archetypes {
            if map.archetype(id, &a.id).is_none() {
                missing.push(format!("{id} archetype {}", a.id));
            }
            for t in &a.techniques {
                if map.profile(id, &t.id).is_none() {
                    missing.push(format!("{id} technique {}", t.id));
                }
            }
        }
        for p in &rules.attacks.profiles {
            if map.profile(id, &p.id).is_none() {
                missing.push(format!("{id} attack {}", p.id));
            }
        }
    }
    assert!(missing.is_empty(), "no icon for: {missing:?}");
}

#[test]
fn icons_every_bar_action_and_defense_answer_has_one() {
    let map = map();
    let missing: Vec<&str> = BAR_ACTIONS
        .iter()
        .chain(ANSWERS.iter())
        .filter(|a| map.action("dbu", a).is_none())
        .copied()
        .collect();
    assert!(missing.is_empty(), "no icon for: {missing:?}");
}

#[test]
fn icons_are_64_pixel_pngs_credited_and_none_is_unused() {
    let map = map();
    let dir = IconMap::dir();
    let licence = std::fs::read_to_string(dir.join("LICENSE.md")).expect("LICENSE.md");
    for stem in map.stems() {
        let bytes = std::fs::read(IconMap::file_of(stem)).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(&bytes[1..4], b"PNG", "{stem} is a PNG");
        // The IHDR chunk's width and height, big-endian, at bytes 16 and 20.
        let side = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        assert_eq!((side(16), side(20)), (64, 64), "{stem} is 64x64");
        assert!(
            licence.contains(&format!("`{stem}.png`")),
            "{stem} is credited"
        );
    }
    let shipped: BTreeSet<String> = std::fs::read_dir(&dir)
        .expect("the icons' folder reads")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".png").map(str::to_string)
        })
        .collect();
    let named: BTreeSet<String> = map.stems().into_iter().map(str::to_string).collect();
    let unused: Vec<&String> = shipped.difference(&named).collect();
    assert!(unused.is_empty(), "shipped but never shown: {unused:?}");
}
