//! The character editor's rules: in every ruleset family a value outside the ruleset's limits
//! is refused with the rule, the edit leaves the character as it was, and a character of your
//! own is kept in the user folder and fought with when a scenario carries it.

use std::path::PathBuf;
use std::sync::Arc;

use gridclash::ai::Policy;
use gridclash::character::{self, Character, Value};
use gridclash::ruleset::{Rules, rules_root};
use gridclash::scenario::generate::{Recipe, generate};
use gridclash::scenario::{self, write};

fn rules(id: &str) -> Arc<Rules> {
    Arc::new(Rules::load(&rules_root().join(id)).expect("shipped ruleset loads"))
}

/// A fresh folder under the target directory for files a test writes.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// The roster entry `id` of `rules`, renamed so it is a character of one's own.
fn template(rules: &Rules, id: &str, name: &str) -> Character {
    let mut c = Character::templates(rules)
        .into_iter()
        .find(|c| c.id() == id)
        .unwrap_or_else(|| panic!("no template `{id}`"));
    c.rename(name);
    assert!(c.problems(rules).is_empty(), "{:?}", c.problems(rules));
    c
}

fn number(c: &Character, rules: &Rules, key: &str) -> i64 {
    match c
        .fields(rules)
        .into_iter()
        .find(|f| f.key == key)
        .map(|f| f.value)
    {
        Some(Value::Number(v)) => v,
        other => panic!("{key} is {other:?}"),
    }
}

/// Steps `key` up until the ruleset refuses; returns the value it stopped at and the refusal.
fn raise_until_refused(c: &mut Character, rules: &Rules, key: &str) -> (i64, String) {
    for _ in 0..10_000 {
        if let Err(r) = c.step(rules, key, 1) {
            assert_eq!(r.field, key);
            return (number(c, rules, key), r.message);
        }
    }
    panic!("{key} was never refused");
}

#[test]
fn d20_editor_refuses_an_ability_over_the_build_limit_naming_it() {
    let r = rules("d20");
    let mut c = template(&r, "adam", "Red Lotus");
    let (at, why) = raise_until_refused(&mut c, &r, "stats.STR");
    assert_eq!(at, 12, "the last value allowed stays");
    assert_eq!(why, "STR is 1 to 12, not 13 (d20.ron `build` \"ability\")");
    let (at, why) = raise_until_refused(&mut c, &r, "stats.DODGE");
    assert_eq!(at, 10);
    assert!(why.contains("\"skill\""), "{why}");
    assert!(c.step(&r, "hp", -23).is_err(), "HP 0 is refused");
}

#[test]
fn d20_editor_refuses_an_attack_whose_feat_the_character_lacks() {
    let r = rules("d20");
    let mut c = template(&r, "adam", "Arrow");
    c.step(&r, "attacks:bow_rapid", 1).expect("drops an attack");
    c.step(&r, "feats:RapidShot", 1).expect("drops the feat");
    let refused = c
        .step(&r, "attacks:bow_rapid", 1)
        .expect_err("Rapid Shot needs its feat");
    assert_eq!(refused.message, "`bow_rapid` needs the RapidShot feat");
    assert!(c.problems(&r).is_empty());
}

#[test]
fn d20_editor_changing_weapon_swaps_the_attacks_for_the_new_weapons() {
    let r = rules("d20");
    let mut c = template(&r, "adam", "Archer");
    c.step(&r, "weapon", 1).expect("another weapon");
    let Character::D20(d) = &c else {
        unreachable!()
    };
    let data = r.d20().expect("d20");
    assert!(!d.attacks.is_empty());
    for a in &d.attacks {
        assert_eq!(
            data.attack(a).map(|x| x.weapon.as_str()),
            Some(d.weapon.as_str())
        );
    }
    assert!(c.problems(&r).is_empty(), "{:?}", c.problems(&r));
}

#[test]
fn shinobi_editor_refuses_chakra_and_stats_over_the_build_limit() {
    let r = rules("shinobi");
    let mut c = template(&r, "brawler", "Iron Fist");
    let (at, why) = raise_until_refused(&mut c, &r, "chakra");
    assert_eq!(at, 60);
    assert_eq!(
        why,
        "Chakra is 0 to 60, not 61 (shinobi.ron `build` \"chakra\")"
    );
    let (at, why) = raise_until_refused(&mut c, &r, "stats.TAI");
    assert_eq!(at, 6);
    assert!(why.contains("\"rank\""), "{why}");
}

#[test]
fn digimon_editor_refuses_a_stat_over_its_stages_limit() {
    let r = rules("digimon");
    let mut c = template(&r, "agumon", "Flamemon");
    let (at, why) = raise_until_refused(&mut c, &r, "stats.DMG");
    assert_eq!(at, 6);
    assert_eq!(
        why,
        "DMG is 0 to 6, not 7 (digimon.ron `build` \"Rookie stat\")"
    );
    // At Champion the same stat may go higher: the stage's own limit is the rule.
    c.step(&r, "stage", 1).expect("Champion");
    let (at, _) = raise_until_refused(&mut c, &r, "stats.DMG");
    assert_eq!(at, 9);
}

#[test]
fn stages_editor_refuses_a_speed_and_a_deck_over_the_build_limit() {
    let r = rules("power-stages");
    let mut c = template(&r, "martial_artist", "Sparring Partner");
    let (at, why) = raise_until_refused(&mut c, &r, "speed");
    assert_eq!(at, 8);
    assert_eq!(why, "Speed is 1 to 8, not 9 (stages.ron `build` \"speed\")");
    // The deck as a whole has a limit, met card by card.
    let (_, why) = raise_until_refused(&mut c, &r, "deck.punch");
    assert!(why.contains("\"deck\""), "{why}");
}

#[test]
fn stages_editor_chooses_the_personality_card_power_and_keeps_powers_out_of_the_deck() {
    // "Main Personality card power": a personality names its own; a deck cannot hold one.
    let r = rules("power-stages");
    let mut c = template(&r, "martial_artist", "Sparring Partner");
    let fields = c.fields(&r);
    assert!(
        !fields.iter().any(|f| f.key == "deck.iron_body"),
        "no personality card power among the deck's cards"
    );
    let power = |c: &Character| {
        c.fields(&r)
            .into_iter()
            .find(|f| f.key == "power")
            .map(|f| f.value)
    };
    let Some(Value::Choice { chosen, options }) = power(&c) else {
        panic!("a power choice");
    };
    assert_eq!(chosen, "iron_body");
    assert_eq!(options.len(), 5, "none and the four powers: {options:?}");
    c.step(&r, "power", 1).expect("another power");
    let Some(Value::Choice { chosen, .. }) = power(&c) else {
        panic!("a power choice");
    };
    assert_ne!(chosen, "iron_body");
    assert!(c.problems(&r).is_empty(), "{:?}", c.problems(&r));
}

#[test]
fn dbu_editor_refuses_an_attribute_over_the_tier_cap_and_lists_points_left_over() {
    let r = rules("dbu");
    let mut c = template(&r, "brawler", "Kale");
    let (_, why) = raise_until_refused(&mut c, &r, "attributes.FO");
    assert!(why.contains("over the cap"), "{why}");
    // Raising one attribute within the cap is allowed; the build's budget then says what is
    // wrong until a point is taken off elsewhere.
    let mut c = template(&r, "brawler", "Kale");
    c.step(&r, "attributes.IN", 1).expect("within the cap");
    let problems = c.problems(&r);
    assert!(
        problems
            .iter()
            .any(|p| p.field == "attributes" && p.message.contains("add up to")),
        "{problems:?}"
    );
    c.step(&r, "attributes.FO", -1).expect("a point off");
    assert!(c.problems(&r).is_empty(), "{:?}", c.problems(&r));
}

#[test]
fn character_of_another_family_or_a_roster_id_is_a_problem() {
    let d20 = rules("d20");
    let dbu = rules("dbu");
    let c = template(&d20, "adam", "Adam Two");
    assert!(!c.problems(&dbu).is_empty());
    let mut same = Character::templates(&d20).remove(0);
    same.rename("Adam");
    let problems = same.problems(&d20);
    assert!(problems.iter().any(|p| p.field == "id"), "{problems:?}");
}

/// A character saved in the user folder reads back the same; a broken file there is reported
/// with its path, line and field, not dropped.
#[test]
fn character_saved_in_the_user_folder_reads_back_and_a_broken_one_is_named() {
    let data = scratch("characters-folder");
    let r = rules("shinobi");
    let c = template(&r, "blade", "Silent Reed");
    let file = character::save(&data, "shinobi", &c).expect("saves");
    assert_eq!(file, data.join("characters/shinobi/silent_reed.ron"));
    std::fs::write(
        data.join("characters/shinobi/broken.ron"),
        "(ruleset: \"shinobi\", character: Shinobi((id: 3)))",
    )
    .expect("writes");
    let all = character::read_all(&data, "shinobi");
    assert_eq!(all.len(), 2);
    let broken = all[0].1.as_ref().expect_err("broken");
    assert!(broken.to_string().contains("broken.ron:1:"), "{broken}");
    assert_eq!(all[1].1.as_ref().expect("reads"), &c);
}

/// A scenario carrying a character of one's own loads, writes back the same, and is fought to
/// its end with that character on the field, in every family.
#[test]
fn scenario_carrying_its_own_character_is_played_to_the_end() {
    let dir = scratch("character-scenarios");
    for (id, template_id) in [
        ("dbu", "brawler"),
        ("d20", "knight"),
        ("digimon", "greymon"),
        ("shinobi", "blade"),
        ("power-stages", "energy_fighter"),
    ] {
        let r = rules(id);
        let mut c = template(&r, template_id, "Hero of Mine");
        let key = c.fields(&r)[0].key.clone();
        let _ = c.step(&r, &key, 1);
        let mut s = generate(&Recipe::new(id, 3), &r).expect("generates");
        s.units[0].archetype = Some(c.id().to_string());
        s.characters.push(c.clone());
        let path = dir.join(format!("{id}.ron"));
        let text = write::to_ron(&s, "a test's battle").expect("writes");
        std::fs::write(&path, &text).expect("file");
        let loaded = scenario::load_with(&path, |_| Ok(Arc::clone(&r)))
            .unwrap_or_else(|e| panic!("{id}: {e}\n{text}"));
        assert_eq!(loaded.scenario, s, "{id}: the file reads back as written");
        assert_ne!(
            loaded.rules.data_hash, r.data_hash,
            "{id}: the hash covers it"
        );
        assert!(
            loaded.rules.archetype(c.id()).is_some(),
            "{id}: the engine's roster holds it"
        );
        let end = gridclash::sim::play(&loaded, 5, &[Policy::Easy], 30)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(
            end.battle.outcome().is_some() || end.rounds >= 30,
            "{id}: the battle stopped without an end"
        );
    }
}

/// A character that breaks a rule is refused when its scenario loads, at its place in the
/// file, with the rule.
#[test]
fn scenario_with_a_character_over_the_limits_is_refused_naming_line_and_rule() {
    let dir = scratch("character-broken");
    let r = rules("d20");
    let mut c = template(&r, "adam", "Too Strong");
    if let Character::D20(d) = &mut c {
        d.stats.insert("STR".into(), 40);
    }
    let mut s = generate(&Recipe::new("d20", 3), &r).expect("generates");
    s.characters.push(c);
    let path = dir.join("broken.ron");
    std::fs::write(&path, write::to_ron(&s, "broken").expect("writes")).expect("file");
    let e = scenario::load_with(&path, |_| Ok(Arc::clone(&r))).expect_err("refused");
    let text = e.to_string();
    assert!(text.contains("broken.ron:"), "{text}");
    assert!(text.contains("characters[0]"), "{text}");
    assert!(
        text.contains("`too_strong`: stats.STR: STR is 1 to 12, not 40"),
        "{text}"
    );
}

/// A whole ruleset of the player's own: a copy of d20 with its own id in `rulesets/` of the
/// data directory is listed, validated, and its scenarios are played like a shipped one's; a
/// broken file in it is named with its own path.
#[test]
fn ruleset_of_your_own_in_the_data_folder_plays_and_its_errors_name_its_files() {
    let data = scratch("own-ruleset");
    let own = data.join("rulesets").join("d20-house");
    std::fs::create_dir_all(&own).expect("folder");
    for f in std::fs::read_dir(rules_root().join("d20")).expect("d20") {
        let f = f.expect("entry").path();
        std::fs::copy(&f, own.join(f.file_name().expect("name"))).expect("copied");
    }
    let manifest = std::fs::read_to_string(own.join("ruleset.ron")).expect("manifest");
    let manifest = manifest.replacen("id: \"d20\"", "id: \"d20-house\"", 1);
    assert!(manifest.contains("d20-house"), "{manifest}");
    std::fs::write(own.join("ruleset.ron"), manifest).expect("written");
    let patrol = std::fs::read_to_string(scenario::find("d20-patrol")).expect("d20-patrol");
    let house = patrol.replacen("ruleset: \"d20\"", "ruleset: \"d20-house\"", 1);
    std::fs::create_dir_all(data.join("scenarios")).expect("folder");
    std::fs::write(data.join("scenarios/house-patrol.ron"), house).expect("written");
    let run = |args: &[&str]| crate::common::gridclash_in(&data, args);
    let paths = run(&["paths"]);
    let paths = String::from_utf8_lossy(&paths.stdout).into_owned();
    assert!(
        paths.contains(&format!(
            "your rulesets: {}",
            data.join("rulesets").display()
        )),
        "{paths}"
    );
    let file = data.join("scenarios/house-patrol.ron");
    let valid = run(&["validate", file.to_str().expect("utf-8")]);
    assert!(
        valid.status.success(),
        "{}",
        String::from_utf8_lossy(&valid.stdout)
    );
    let sim = run(&["simulate", "--scenario", "house-patrol", "--battles", "2"]);
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    // A broken roster in the player's ruleset: the error names that file.
    let roster = own.join("roster.ron");
    let text = std::fs::read_to_string(&roster).expect("roster");
    std::fs::write(&roster, text.replacen("\"STR\": 6", "\"STR\": 60", 1)).expect("written");
    let broken = run(&["validate", file.to_str().expect("utf-8")]);
    assert!(!broken.status.success());
    let out = String::from_utf8_lossy(&broken.stdout).into_owned();
    assert!(out.contains("d20-house/roster.ron"), "{out}");
    assert!(out.contains("(d20.ron `build` \"ability\")"), "{out}");
}
