//! Headless app tests of the skirmish builder and its character editor: the title screen's
//! Build row, a character made and saved in the editor, and the skirmish played to its end.

use bevy::prelude::*;

use gridclash::gui::{PlayOptions, Screen, SideControl};

use crate::gui_app::{app_in, data_dir, screen, session, tap};
use gridclash::gui::control::Pace;

/// Types `text` as key presses carrying characters, as a keyboard does.
fn type_text(app: &mut App, text: &str) {
    for ch in text.chars() {
        app.world_mut()
            .write_message(bevy::input::keyboard::KeyboardInput {
                key_code: KeyCode::Unidentified(bevy::input::keyboard::NativeKeyCode::Unidentified),
                logical_key: bevy::input::keyboard::Key::Character(ch.to_string().into()),
                state: bevy::input::ButtonState::Pressed,
                text: Some(ch.to_string().into()),
                repeat: false,
                window: Entity::PLACEHOLDER,
            });
    }
    app.update();
}

/// Makes "Kale" in the character editor from the DBU Brawler: a Force raised past its Tier of
/// Power's cap is refused naming the rule, a point moved from Force to Intellect keeps the
/// build's budget, and the character is saved to the user folder and joins Red.
fn make_kale_in_the_editor(app: &mut App) {
    use gridclash::gui::character_editor::{CharacterEditor, EditRow};
    assert_eq!(screen(app), Screen::CharacterEditor);
    let go = |app: &mut App, row: EditRow, key: KeyCode| {
        let at = app
            .world()
            .resource::<CharacterEditor>()
            .rows()
            .iter()
            .position(|r| *r == row)
            .unwrap_or_else(|| panic!("no row {row:?}"));
        app.world_mut().resource_mut::<CharacterEditor>().row = at;
        tap(app, key);
    };
    let field = |app: &App, key: &str| {
        let e = app.world().resource::<CharacterEditor>();
        EditRow::Field(
            e.fields()
                .iter()
                .position(|f| f.key == key)
                .unwrap_or_else(|| panic!("no field {key}")),
        )
    };
    go(app, EditRow::Name, KeyCode::Enter);
    assert!(app.world().resource::<CharacterEditor>().typing);
    for _ in 0.."New Hero".len() {
        tap(app, KeyCode::Backspace);
    }
    type_text(app, "Kale");
    tap(app, KeyCode::Enter);
    let e = app.world().resource::<CharacterEditor>();
    assert!(!e.typing);
    assert_eq!(e.character.id(), "kale");
    // Force up until the ruleset refuses; the refusal names the rule and the value stays.
    let fo = field(app, "attributes.FO");
    let mut raised = 0;
    let refusal = loop {
        go(app, fo, KeyCode::ArrowRight);
        let m = app.world().resource::<CharacterEditor>().message.clone();
        match m {
            Some(m) if m.starts_with("Refused") => break m,
            _ => raised += 1,
        }
        assert!(raised < 30, "Force was never refused");
    };
    assert!(refusal.contains("over the cap"), "{refusal}");
    // Saving while the points do not add up is refused too, listing the rule.
    if raised > 0 {
        go(app, EditRow::Save, KeyCode::Enter);
        assert_eq!(screen(app), Screen::CharacterEditor);
        let m = app.world().resource::<CharacterEditor>().message.clone();
        assert!(m.is_some_and(|m| m.contains("add up to")));
    }
    for _ in 0..=raised {
        go(app, fo, KeyCode::ArrowLeft);
    }
    let int = field(app, "attributes.IN");
    go(app, int, KeyCode::ArrowRight);
    let e = app.world().resource::<CharacterEditor>();
    assert!(e.problems().is_empty(), "{:?}", e.problems());
    go(app, EditRow::Save, KeyCode::Enter);
    app.update();
    assert_eq!(screen(app), Screen::Builder);
}

/// The skirmish builder from the title screen: a 3 v 3 of roster units (one swapped for
/// another entry, one added and removed again) and one character made in the editor, on a
/// generated field, saved as a scenario in the player's own folder, played to its end by the
/// computer, and listed by the title after; the character is kept in the user folder.
#[test]
fn gui_builder_makes_a_three_a_side_skirmish_with_an_edited_character_and_plays_it_to_the_end() {
    use gridclash::gui::builder::{BuildRow, Builder};
    use gridclash::gui::title::{Row, TitleMenu};
    let dir = data_dir();
    let mut app = app_in(
        PlayOptions {
            seed: 4,
            ..default()
        },
        dir.clone(),
    );
    let build = app
        .world()
        .resource::<TitleMenu>()
        .rows()
        .iter()
        .position(|r| *r == Row::Build)
        .expect("a Build row");
    app.world_mut().resource_mut::<TitleMenu>().row = build;
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Builder);
    let go = |app: &mut App, row: BuildRow, key: KeyCode| {
        let at = app
            .world()
            .resource::<Builder>()
            .rows()
            .iter()
            .position(|r| *r == row)
            .unwrap_or_else(|| panic!("no row {row:?}"));
        app.world_mut().resource_mut::<Builder>().row = at;
        tap(app, key);
    };
    // The computer plays Red too (easy), so the battle runs to its end by itself.
    go(&mut app, BuildRow::Player(0), KeyCode::ArrowRight);
    // Red's second unit: the next roster entry; a fourth unit added, then removed.
    let before = app.world().resource::<Builder>().sides[0].units.clone();
    go(&mut app, BuildRow::Unit(0, 1), KeyCode::ArrowRight);
    go(&mut app, BuildRow::AddUnit(0), KeyCode::Enter);
    assert_eq!(app.world().resource::<Builder>().sides[0].units.len(), 4);
    go(&mut app, BuildRow::Unit(0, 3), KeyCode::Enter);
    // A character of one's own joins Red in place of its third roster unit.
    go(&mut app, BuildRow::NewCharacter, KeyCode::Enter);
    app.update();
    make_kale_in_the_editor(&mut app);
    assert_eq!(
        app.world().resource::<Builder>().sides[0]
            .units
            .last()
            .map(String::as_str),
        Some("kale")
    );
    assert!(dir.join("characters/dbu/kale.ron").is_file());
    go(&mut app, BuildRow::Unit(0, 2), KeyCode::Enter);
    let b = app.world().resource::<Builder>().clone();
    assert_eq!(b.sides[0].units[2], "kale");
    assert_eq!(
        b.sides[0].control,
        SideControl::Ai(gridclash::ai::Policy::Easy)
    );
    assert_eq!(b.sides[0].units.len(), 3);
    assert_eq!(b.sides[1].units.len(), 3);
    assert_ne!(b.sides[0].units[1], before[1], "the unit was swapped");
    assert!(
        b.preview().lines().any(|l| l.contains('1')),
        "{}",
        b.preview()
    );
    go(&mut app, BuildRow::SaveAndPlay, KeyCode::Enter);
    app.update();
    assert_eq!(
        screen(&app),
        Screen::Battle,
        "{:?}",
        app.world().resource::<Builder>().message
    );
    let file = dir.join("scenarios").join("skirmish-dbu-1.ron");
    assert!(file.is_file());
    let saved = gridclash::scenario::load(&file).expect("the saved skirmish loads");
    assert_eq!(saved.scenario.units.len(), 6);
    assert_eq!(
        saved.scenario.characters.len(),
        1,
        "the scenario carries Kale"
    );
    assert_eq!(saved.scenario.units[2].archetype.as_deref(), Some("kale"));
    assert_eq!(
        saved.scenario.units[1].archetype.as_deref(),
        Some(b.sides[0].units[1].as_str())
    );
    assert_eq!(session(&mut app).spec.scenario, file.to_string_lossy());
    app.world_mut().resource_mut::<Pace>().seconds_per_command = 0.0;
    for _ in 0..20_000 {
        app.update();
        if screen(&app) == Screen::End {
            break;
        }
    }
    assert_eq!(
        screen(&app),
        Screen::End,
        "the computer finishes the skirmish"
    );
    // Back on the title, the skirmish is listed as the player's own.
    let menu = TitleMenu::in_folder(4, dir.join("scenarios"));
    assert!(
        menu.scenarios
            .iter()
            .any(|s| s.yours && s.id == file.to_string_lossy())
    );
}

/// The map editor from the builder: a wall on a unit's square refused with the rule, a wall
/// painted on open ground, undone and redone with Z and Y, the field widened from the menu,
/// then saved into the player's folder and played; the saved file has the wall.
#[test]
fn gui_map_editor_paints_refuses_undoes_and_saves_a_playable_field() {
    use gridclash::grid::Square;
    use gridclash::gui::builder::{BuildRow, Builder};
    use gridclash::gui::map_editor::{Focus, MENU, MapEditor, MenuRow};
    use gridclash::scenario::edit::Brush;
    let dir = data_dir();
    let mut app = app_in(
        PlayOptions {
            seed: 4,
            ..default()
        },
        dir.clone(),
    );
    app.world_mut()
        .insert_resource(Builder::new(4, dir.join("scenarios")));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Builder);
    app.update();
    let at = app
        .world()
        .resource::<Builder>()
        .rows()
        .iter()
        .position(|r| *r == BuildRow::EditField)
        .expect("an Edit row");
    app.world_mut().resource_mut::<Builder>().row = at;
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::MapEditor);
    let wall = app
        .world()
        .resource::<MapEditor>()
        .brushes()
        .iter()
        .position(|(_, b)| *b == Brush::Terrain('#'))
        .expect("a wall brush");
    let unit = {
        let e = app.world().resource::<MapEditor>();
        let u = e.edit.scenario.units[0].at;
        Square::new(u.0, u.1)
    };
    {
        let mut e = app.world_mut().resource_mut::<MapEditor>();
        e.brush = wall;
        e.cursor = unit;
    }
    tap(&mut app, KeyCode::Enter);
    let m = app.world().resource::<MapEditor>().message.clone();
    assert!(
        m.as_deref()
            .is_some_and(|m| m.contains("no one can stand there")),
        "{m:?}"
    );
    let open = Square::new(8, 6);
    app.world_mut().resource_mut::<MapEditor>().cursor = open;
    tap(&mut app, KeyCode::Enter);
    let symbol = |app: &App| app.world().resource::<MapEditor>().edit.symbol_at(open);
    assert_eq!(symbol(&app), Some('#'));
    tap(&mut app, KeyCode::KeyZ);
    assert_ne!(symbol(&app), Some('#'), "undone");
    tap(&mut app, KeyCode::KeyY);
    assert_eq!(symbol(&app), Some('#'), "redone");
    // Blue's start zone (the generated field's right-hand band) grows by one square, tinted
    // and named under the menu, through the Side row and the zone brush.
    let grown = Square::new(9, 6);
    {
        let mut e = app.world_mut().resource_mut::<MapEditor>();
        e.focus = Focus::Menu;
        e.row = MENU.iter().position(|m| *m == MenuRow::Side).expect("Side");
    }
    tap(&mut app, KeyCode::ArrowRight);
    let zone = app
        .world()
        .resource::<MapEditor>()
        .brushes()
        .iter()
        .position(|(_, b)| *b == Brush::Zone { side: 1 })
        .expect("Blue's zone brush");
    assert!(
        app.world().resource::<MapEditor>().brushes()[zone]
            .0
            .contains("Blue's start zone")
    );
    {
        let mut e = app.world_mut().resource_mut::<MapEditor>();
        e.focus = Focus::Field;
        e.brush = zone;
        e.cursor = grown;
    }
    tap(&mut app, KeyCode::Enter);
    let e = app.world().resource::<MapEditor>();
    assert_eq!(
        gridclash::scenario::zones::zone_at(&e.edit.scenario, grown),
        Some(1)
    );
    assert!(
        e.report().contains("in Blue's start zone"),
        "{}",
        e.report()
    );
    // The menu: one square wider, then saved and played.
    tap(&mut app, KeyCode::Tab);
    assert_eq!(app.world().resource::<MapEditor>().focus, Focus::Menu);
    let row = |r: MenuRow| MENU.iter().position(|m| *m == r).expect("row");
    app.world_mut().resource_mut::<MapEditor>().row = row(MenuRow::Width);
    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(
        app.world().resource::<MapEditor>().edit.scenario.map.width,
        17
    );
    app.world_mut().resource_mut::<MapEditor>().row = row(MenuRow::SaveAndPlay);
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(
        screen(&app),
        Screen::Battle,
        "{:?}",
        app.world().resource::<MapEditor>().message
    );
    let file = dir.join("scenarios").join("skirmish-dbu-1.ron");
    let saved = gridclash::scenario::load(&file).expect("the edited field validates");
    assert_eq!(saved.scenario.map.width, 17);
    assert_eq!(
        gridclash::scenario::zones::zone_at(&saved.scenario, Square::new(9, 6)),
        Some(1),
        "the painted zone is saved"
    );
    assert_eq!(saved.scenario.map.rows[6].chars().nth(8), Some('#'));
    assert_eq!(session(&mut app).spec.scenario, file.to_string_lossy());
}

/// A side's team is saved to the teams folder and loaded into another side of a later
/// skirmish; a team naming a unit the roster no longer has is refused, naming it.
#[test]
fn gui_builder_saves_a_team_and_loads_it_into_another_side() {
    use gridclash::gui::builder::{BuildRow, Builder, TeamAction};
    let dir = data_dir();
    let mut b = Builder::new(4, dir.join("scenarios"));
    b.sides[0].units = vec!["mage".into(), "mage".into()];
    b.row = b
        .rows()
        .iter()
        .position(|r| *r == BuildRow::Teams)
        .expect("a Teams row");
    b.team_action = 0;
    assert_eq!(b.team_actions()[0], TeamAction::Save(0));
    b.act();
    assert!(
        dir.join("teams/dbu/mage_mage.ron").is_file(),
        "{:?}",
        b.message
    );
    assert_eq!(b.teams.len(), 1);
    // A new builder (a later visit) finds the team and loads it into Blue.
    let mut later = Builder::new(5, dir.join("scenarios"));
    later.row = later
        .rows()
        .iter()
        .position(|r| *r == BuildRow::Teams)
        .expect("Teams");
    later.team_action = later
        .team_actions()
        .iter()
        .position(|a| *a == TeamAction::Load(0, 1))
        .expect("load into Blue");
    assert!(later.labels(&Default::default())[later.row].contains("load Mage, Mage into Blue"));
    later.act();
    assert_eq!(later.sides[1].units, ["mage", "mage"]);
    assert_eq!(
        later.rows()[later.row],
        BuildRow::Teams,
        "the highlight stays"
    );
    // A team whose unit is gone is refused, naming it.
    std::fs::write(
        dir.join("teams/dbu/old.ron"),
        "(ruleset: \"dbu\", name: \"Old\", units: [\"dragon\"])",
    )
    .expect("writes");
    later.read_own_characters();
    later.team_action = later
        .team_actions()
        .iter()
        .position(|a| *a == TeamAction::Load(1, 0))
        .expect("load Old into Red");
    later.act();
    let m = later.message.clone().unwrap_or_default();
    assert!(m.contains("dragon"), "{m}");
    assert_ne!(later.sides[0].units, ["dragon"]);
}

/// The Map row offers the ruleset's shipped scenarios' maps and the player's own: a shipped
/// map chosen, the generated field's rows go, the sides are held to the map's, and the
/// skirmish is that map with the builder's teams where its sides stood.
#[test]
fn gui_builder_fights_on_a_shipped_map_with_its_own_teams() {
    use gridclash::gui::builder::{BuildRow, Builder};
    let dir = data_dir();
    let mut b = Builder::new(4, dir.join("scenarios"));
    let duel = b
        .maps
        .iter()
        .position(|m| m.path.ends_with("duel.ron"))
        .expect("duel is offered")
        + 1;
    assert!(
        b.maps.iter().all(|m| !m.yours),
        "nothing of the player's yet"
    );
    b.row = b
        .rows()
        .iter()
        .position(|r| *r == BuildRow::Map)
        .expect("a Map row");
    for _ in 0..duel {
        b.change(1);
    }
    assert_eq!(b.map, duel);
    assert!(
        !b.rows().contains(&BuildRow::Size),
        "no generated-field rows"
    );
    let label = b.labels(&Default::default())[b.row].clone();
    assert_eq!(label, "Map:  < Duel on the Plain (12 x 8, 2 sides) >");
    b.row = b
        .rows()
        .iter()
        .position(|r| *r == BuildRow::Sides)
        .expect("Sides");
    b.change(1);
    assert_eq!(b.sides.len(), 2, "duel has two sides");
    let s = b.scenario().expect("a skirmish on duel's map");
    let base = gridclash::scenario::load(&b.maps[duel - 1].path).expect("duel");
    assert_eq!(s.map, base.scenario.map);
    assert_eq!(s.units.len(), 6);
}

/// Hot reload in the editor: a ruleset's build limit lowered in its file while the character
/// editor is open holds at once (the sheet refuses by the new limit); a ruleset broken on disk
/// is named in the editor and the one read before is kept.
#[test]
fn gui_character_editor_reads_a_changed_ruleset_at_once() {
    use gridclash::gui::character_editor::CharacterEditor;
    use gridclash::ruleset::{Rules, rules_root};
    use std::sync::Arc;
    let dir = data_dir().join("d20");
    std::fs::create_dir_all(&dir).expect("folder");
    for f in std::fs::read_dir(rules_root().join("d20")).expect("d20") {
        let f = f.expect("entry").path();
        std::fs::copy(&f, dir.join(f.file_name().expect("name"))).expect("copied");
    }
    let rules = Arc::new(Rules::load(&dir).expect("the copy loads"));
    let mut e = CharacterEditor::new(rules, 2, data_dir()).expect("an editor");
    assert!(!e.reload_changed_rules(), "nothing changed yet");
    let key = "stats.STR";
    let step = |e: &mut CharacterEditor| {
        let rules = Arc::clone(&e.rules);
        e.character.step(&rules, key, 1)
    };
    // Adam's STR 6 may rise to 12 by the shipped limit; lowered to 11 (the roster's highest,
    // which must still load), the sixth step is refused.
    let d20 = dir.join("d20.ron");
    let text = std::fs::read_to_string(&d20).expect("d20.ron");
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(
        &d20,
        text.replace("\"ability\": (1, 12)", "\"ability\": (1, 11)"),
    )
    .expect("edited");
    assert!(e.reload_changed_rules());
    assert!(
        e.message
            .as_deref()
            .is_some_and(|m| m.contains("read again")),
        "{:?}",
        e.message
    );
    for _ in 0..5 {
        step(&mut e).expect("up to 11 is allowed");
    }
    let refused = step(&mut e).expect_err("12 is over the new limit");
    assert!(refused.message.contains("1 to 11"), "{}", refused.message);
    // Broken on disk: named, and the rules read before kept.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&d20, "D20Rules(").expect("broken");
    assert!(e.reload_changed_rules());
    let m = e.message.clone().unwrap_or_default();
    assert!(m.contains("does not load") && m.contains("d20.ron"), "{m}");
    assert!(
        step(&mut e).is_err(),
        "the last rules that loaded still hold"
    );
}

/// Hot reload in the map editor: a terrain renamed in the ruleset's file while the editor is
/// open is offered under its new name at once.
#[test]
fn gui_map_editor_reads_a_changed_ruleset_at_once() {
    use gridclash::gui::map_editor::MapEditor;
    use gridclash::ruleset::{Rules, rules_root};
    use gridclash::scenario::generate::{Recipe, generate};
    use std::sync::Arc;
    let dir = data_dir().join("dbu");
    std::fs::create_dir_all(&dir).expect("folder");
    for f in std::fs::read_dir(rules_root().join("dbu")).expect("dbu") {
        let f = f.expect("entry").path();
        std::fs::copy(&f, dir.join(f.file_name().expect("name"))).expect("copied");
    }
    let rules = Arc::new(Rules::load(&dir).expect("the copy loads"));
    let field = generate(&Recipe::new("dbu", 2), &rules).expect("a field");
    let mut e = MapEditor::new(field, rules, Vec::new(), 2, data_dir());
    assert!(!e.reload_changed_rules());
    let terrain = dir.join("terrain.ron");
    let text = std::fs::read_to_string(&terrain).expect("terrain.ron");
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(
        &terrain,
        text.replacen("name: \"Wall\"", "name: \"Stone wall\"", 1),
    )
    .expect("edited");
    assert!(e.reload_changed_rules());
    assert!(
        e.brushes()
            .iter()
            .any(|(label, _)| label.starts_with("Stone wall"))
    );
}

/// The Points row holds each side to a budget: a swap skips the units that do not fit, an
/// added unit is refused when none fits (saying what is left), a budget lowered under a
/// side's spend blocks saving with the side named, and the saved skirmish carries its budget.
#[test]
fn gui_builder_holds_each_side_to_its_point_budget() {
    use gridclash::gui::builder::{BuildRow, Builder};
    let dir = data_dir();
    let mut b = Builder::new(4, dir.join("scenarios"));
    let go = |b: &mut Builder, row: BuildRow| {
        b.row = b.rows().iter().position(|r| *r == row).expect("row");
    };
    b.sides[0].units = vec!["brawler".into(), "mage".into()];
    let brawler = b.cost_of("brawler");
    let champion = b.cost_of("champion");
    assert!(
        champion > brawler,
        "the champion costs more ({champion} v {brawler})"
    );
    // A budget of 100: Brawler and Mage (49 each) fit; the Champion does not.
    go(&mut b, BuildRow::Budget);
    b.change(2);
    assert_eq!(b.budget(), Some(100));
    assert!(b.labels(&Default::default())[b.row].contains("Points a side:  < 100 >"));
    go(&mut b, BuildRow::Player(0));
    let label = b.labels(&Default::default())[b.row].clone();
    assert!(
        label.contains(&format!("{} / 100 points", 2 * brawler)),
        "{label}"
    );
    // Stepping the Mage's row through the roster never lands on a unit over the budget.
    go(&mut b, BuildRow::Unit(0, 1));
    for _ in 0..b.roster.len() * 2 {
        b.change(1);
        assert!(b.spent(0, None) <= 100, "{:?}", b.sides[0].units);
        assert_ne!(b.sides[0].units[1], "champion");
    }
    // No third unit fits: refused, saying what is left and what the cheapest costs.
    let before = b.sides[0].units.clone();
    go(&mut b, BuildRow::AddUnit(0));
    b.act();
    if b.spent(0, None) + b.cost_of("grunt") > 100 {
        assert_eq!(b.sides[0].units, before);
        let m = b.message.clone().unwrap_or_default();
        assert!(m.contains("points left") && m.contains("cheapest"), "{m}");
    } else {
        assert_eq!(b.sides[0].units.len(), 3, "the minion fits");
    }
    // Lowered to 50 under Red's spend: Red is marked over, and nothing is saved.
    go(&mut b, BuildRow::Budget);
    b.change(-1);
    assert_eq!(b.budget(), Some(50));
    go(&mut b, BuildRow::Player(0));
    assert!(b.labels(&Default::default())[b.row].contains("OVER"));
    let refused = b.save().expect_err("over the budget");
    assert!(refused.contains("Red fields"), "{refused}");
    // Back to 100 and one unit each: saved with its budget, and the file loads.
    go(&mut b, BuildRow::Budget);
    b.change(1);
    for side in &mut b.sides {
        side.units = vec!["brawler".into()];
    }
    let path = b.save().expect("within the budget");
    let loaded = gridclash::scenario::load(&path).expect("the saved skirmish validates");
    assert_eq!(loaded.scenario.budget, Some(100));
}
