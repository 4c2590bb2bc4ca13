//! Point costs: every unit of every shipped ruleset is priced from its own sheet by its
//! ruleset's `points` table, a price table naming no field is refused, and a scenario with a
//! budget is refused when a side spends more.

use std::path::PathBuf;
use std::sync::Arc;

use gridclash::character::points::{Price, check_prices, roster_character, unit_points};
use gridclash::character::{Character, Value};
use gridclash::ruleset::{Rules, rules_root};
use gridclash::scenario::generate::{Recipe, generate};
use gridclash::scenario::{self, budget, write};

fn rules(id: &str) -> Arc<Rules> {
    Arc::new(Rules::load(&rules_root().join(id)).expect("shipped ruleset loads"))
}

const RULESETS: [&str; 5] = ["dbu", "d20", "digimon", "shinobi", "power-stages"];

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn points_shipped_price_tables_name_real_fields_and_price_every_unit() {
    for id in RULESETS {
        let r = rules(id);
        assert_eq!(check_prices(&r), Vec::new(), "{id}");
        for a in &r.roster.archetypes {
            let p = unit_points(&r, &a.id).unwrap_or_else(|| panic!("{id} {} unpriced", a.id));
            assert!(p.total > 0, "{id} {} costs nothing", a.id);
            assert_eq!(
                p.total,
                p.lines.iter().map(|l| l.points).sum::<i64>(),
                "{id} {}: the breakdown adds up to the total",
                a.id
            );
        }
        assert!(unit_points(&r, "nobody").is_none());
    }
}

#[test]
fn points_a_price_key_that_names_no_field_is_refused_naming_it() {
    let mut r = (*rules("d20")).clone();
    r.points
        .insert("stat.*".into(), Price { points: 1, per: 1 });
    r.points.insert("hp".into(), Price { points: 1, per: 0 });
    let problems = check_prices(&r);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(problems[0].0, "hp");
    assert!(problems[0].1.contains("\"hp\"") && problems[0].1.contains("per 0"));
    assert_eq!(problems[1].0, "stat.*");
    assert!(problems[1].1.contains("points.ron \"stat.*\"") && problems[1].1.contains("no field"));
    // An option the roster does not choose today still names a real field.
    r.points.clear();
    r.points
        .insert("weapon=crossbow".into(), Price { points: 4, per: 1 });
    assert_eq!(check_prices(&r), Vec::new());
}

#[test]
fn points_a_dbu_minion_costs_a_quarter_of_its_sheet() {
    let r = rules("dbu");
    let grunt = roster_character(&r, "grunt").expect("the grunt is in the roster");
    let Character::Dbu(a) = &grunt else {
        panic!("a DBU archetype")
    };
    assert!(a.minion);
    let p = grunt.points(&r);
    let sheet: i64 = p
        .lines
        .iter()
        .filter(|l| l.key != "minion")
        .map(|l| l.points)
        .sum();
    assert_eq!(p.total, sheet / 4);
}

#[test]
fn points_a_digimon_tamer_costs_its_flat_price() {
    let r = rules("digimon");
    let p = unit_points(&r, "tai").expect("Tai is a Tamer of the roster");
    assert_eq!(p.total, r.points["tamer"].points);
}

#[test]
fn points_a_character_of_your_own_is_priced_from_its_sheet() {
    let r = rules("d20");
    let mut c = Character::templates(&r)
        .into_iter()
        .find(|c| c.id() == "adam")
        .expect("Adam");
    c.rename("Red Lotus");
    let before = c.points(&r).total;
    assert_eq!(before, unit_points(&r, "adam").expect("Adam").total);
    c.step(&r, "stats.STR", 1).expect("STR 7 is allowed");
    assert_eq!(c.points(&r).total, before + 1, "an ability point costs 1");
    // Chain-mail instead of studded leather: 5 points instead of 3.
    let armour = c
        .fields(&r)
        .into_iter()
        .find(|f| f.key == "armour")
        .expect("an armour field");
    let Value::Choice { options, .. } = armour.value else {
        panic!("armour is a choice")
    };
    let from = options
        .iter()
        .position(|o| o.0 == "studded_leather")
        .expect("studded");
    let to = options
        .iter()
        .position(|o| o.0 == "chain_mail")
        .expect("chain");
    c.step(&r, "armour", to as i64 - from as i64)
        .expect("armour changes");
    assert_eq!(c.points(&r).total, before + 1 + 2);
}

/// A generated skirmish of Adam, Betty and the knight a side, with `budget`, written out.
fn budgeted(dir: &std::path::Path, budget: Option<i64>) -> PathBuf {
    let r = rules("d20");
    let mut recipe = Recipe::new("d20", 3);
    recipe.teams = vec![vec!["adam".into(), "betty".into(), "knight".into()]; 2];
    let mut s = generate(&recipe, &r).expect("generates");
    s.budget = budget;
    let path = dir.join("budget.ron");
    std::fs::write(&path, write::to_ron(&s, "test").expect("writes")).expect("saved");
    path
}

#[test]
fn points_scenario_over_its_budget_is_refused_naming_the_side_and_units() {
    let dir = scratch("points-budget");
    let r = rules("d20");
    let cost: i64 = ["adam", "betty", "knight"]
        .iter()
        .map(|id| unit_points(&r, id).expect("priced").total)
        .sum();
    let ok = scenario::load(&budgeted(&dir, Some(cost))).expect("exactly on budget loads");
    assert_eq!(ok.scenario.budget, Some(cost), "the budget is read back");
    let spent = budget::side_points(&ok.scenario, &ok.rules);
    assert_eq!(spent[0].iter().map(|u| u.1).sum::<i64>(), cost);
    let path = budgeted(&dir, Some(cost - 1));
    let errs = scenario::load(&path)
        .expect_err("one point over is refused")
        .0;
    assert_eq!(errs.len(), 2, "both sides are named: {errs:?}");
    let text = errs[0].to_string();
    assert!(
        text.contains(&format!(
            "fields {cost} points, over the budget of {}",
            cost - 1
        )),
        "{text}"
    );
    assert!(
        text.contains("Adam") && text.contains("points.ron"),
        "{text}"
    );
    let line = std::fs::read_to_string(&path)
        .expect("read")
        .lines()
        .position(|l| l.trim_start().starts_with("budget:"))
        .expect("a budget line")
        + 1;
    assert!(
        text.contains(&format!(":{line}:")),
        "names the budget's line {line}: {text}"
    );
    assert!(
        scenario::load(&budgeted(&dir, None)).is_ok(),
        "no budget, no limit"
    );
}

/// A hand-edited price as large as a number can be saturates rather than overflowing: the
/// cost is the largest number, never a panic or a negative total.
#[test]
fn points_a_huge_hand_edited_price_saturates_instead_of_overflowing() {
    let mut r = (*rules("d20")).clone();
    r.points.insert(
        "hp".into(),
        Price {
            points: i64::MAX,
            per: 1,
        },
    );
    let p = unit_points(&r, "adam").expect("Adam is priced");
    assert_eq!(p.total, i64::MAX);
}
