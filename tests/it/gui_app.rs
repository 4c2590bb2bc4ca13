//! Headless app tests of the game's screens and battle controls: the same plugins the window
//! runs, without a window, driven by simulated key presses and cursor squares.

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use leafwing_input_manager::prelude::*;

use gridclash::battle::command::Decision;
use gridclash::battle::command::DefenseChoice;
use gridclash::battle::event::BattleEvent;
use gridclash::grid::Square;
use gridclash::gui::control::Pace;
use gridclash::gui::input::CursorSquare;
use gridclash::gui::input::InputProfile;
use gridclash::gui::session::Intent;
use gridclash::gui::{
    BattleSpec, DataDir, PlayOptions, Screen, Session, Settings, SideControl, logic_plugin,
};

/// A fresh, empty data directory for one app's saves (never the player's own).
pub(crate) fn data_dir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gridclash-gui-test-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub(crate) fn app(options: PlayOptions) -> App {
    app_in(options, data_dir())
}

pub(crate) fn app_in(options: PlayOptions, dir: std::path::PathBuf) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(options)
        .insert_resource(Settings::default())
        .insert_resource(DataDir(dir))
        .add_plugins(logic_plugin);
    app.update();
    app.update();
    app
}

pub(crate) fn battle_app(sides: &str) -> App {
    scenario_app("skirmish", 1, sides)
}

/// A battle of `scenario` with `seed` and these sides, the computer playing without a pause.
pub(crate) fn scenario_app(scenario: &str, seed: u64, sides: &str) -> App {
    let sides = sides
        .split(',')
        .map(|s| s.parse::<SideControl>().expect("a known side"))
        .collect();
    let mut app = app(PlayOptions {
        seed,
        battle: Some(BattleSpec {
            scenario: scenario.into(),
            seed,
            sides,
            auto_defense: false,
        }),
        script: None,
        ai_pace: Some(0.0),
        ..default()
    });
    app.world_mut().resource_mut::<Pace>().seconds_per_command = 0.0;
    app
}

/// Lets the computer play, ending the human units' turns, until a human unit is asked a
/// question (within 400 frames); the question, if one came.
fn end_turns_until_asked(app: &mut App) -> Option<Decision> {
    for _ in 0..400 {
        app.update();
        let mut s = session(app);
        if let Some((_, d, _)) = s.human_to_act() {
            if d.is_some() {
                return d;
            }
            tap(app, KeyCode::KeyT);
        }
    }
    None
}

/// Presses a key for one frame.
pub(crate) fn tap(app: &mut App, key: KeyCode) {
    key.press(app.world_mut());
    app.update();
    key.release(app.world_mut());
    app.update();
}

pub(crate) fn click_at(app: &mut App, square: Square) {
    app.world_mut().resource_mut::<CursorSquare>().0 = Some(square);
    MouseButton::Left.press(app.world_mut());
    app.update();
    MouseButton::Left.release(app.world_mut());
    app.update();
}

/// Moves the title screen's highlight to `row` with the Down key, as a player would.
fn highlight_title_row(app: &mut App, row: gridclash::gui::title::Row) {
    let at = app
        .world()
        .resource::<gridclash::gui::title::TitleMenu>()
        .rows()
        .iter()
        .position(|r| *r == row)
        .unwrap_or_else(|| panic!("no title row {row:?}"));
    for _ in 0..at {
        tap(app, KeyCode::ArrowDown);
    }
}

pub(crate) fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

pub(crate) fn session(app: &mut App) -> Mut<'_, Session> {
    app.world_mut().resource_mut::<Session>()
}

#[test]
fn gui_title_menu_starts_a_battle_with_the_chosen_sides() {
    let mut app = app(PlayOptions {
        seed: 5,
        ..default()
    });
    assert_eq!(screen(&app), Screen::Title);
    // Rows: ruleset, scenario, one per side, start, settings, quit. Set the second side to
    // "AI hard" (one step right of "AI normal").
    tap(&mut app, KeyCode::ArrowDown);
    tap(&mut app, KeyCode::ArrowDown);
    tap(&mut app, KeyCode::ArrowDown);
    tap(&mut app, KeyCode::ArrowRight);
    tap(&mut app, KeyCode::ArrowDown);
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Battle);
    let s = session(&mut app);
    assert_eq!(s.spec.scenario, "skirmish");
    assert_eq!(s.spec.seed, 5);
    assert_eq!(
        s.controls,
        vec![
            SideControl::Human(InputProfile::Any),
            SideControl::Ai(gridclash::ai::Policy::Hard)
        ]
    );
}

#[test]
fn gui_move_by_key_and_click_moves_the_active_unit() {
    let mut app = battle_app("human,ai");
    let who = session(&mut app).battle.active().expect("someone acts");
    tap(&mut app, KeyCode::KeyM);
    assert_eq!(session(&mut app).intent, Intent::Move { boosted: false });
    click_at(&mut app, Square::new(4, 7));
    let mut s = session(&mut app);
    let me = s.battle.fighter(who).expect("fighter");
    assert_eq!(me.position, Some(Square::new(4, 7)));
    assert!(
        s.battle
            .events()
            .iter()
            .any(|e| matches!(e, BattleEvent::Moved { who: w, .. } if *w == who))
    );
    assert_eq!(s.intent, Intent::Idle, "a move ends the move mode");
}

#[test]
fn gui_refused_click_leaves_the_battle_unchanged_and_says_why() {
    let mut app = battle_app("human,ai");
    let before = session(&mut app).battle.state_hash();
    tap(&mut app, KeyCode::KeyM);
    // (15, 11) is far beyond Normal Speed.
    click_at(&mut app, Square::new(15, 0));
    let mut s = session(&mut app);
    assert_eq!(s.battle.state_hash(), before);
    assert!(
        s.notice
            .as_deref()
            .is_some_and(|n| n.contains("cannot be reached")),
        "{:?}",
        s.notice
    );
}

#[test]
fn gui_attack_preview_equals_the_rules_preview_then_the_attack_resolves() {
    let mut app = battle_app("human,ai");
    // Slot 7 is the Brawler's Sphere (an Energy attack at any range).
    tap(&mut app, KeyCode::Digit7);
    tap(&mut app, KeyCode::Equal);
    tap(&mut app, KeyCode::Equal);
    let tank = Square::new(12, 2);
    app.world_mut().resource_mut::<CursorSquare>().0 = Some(tank);
    let mut s = session(&mut app);
    assert_eq!(s.wager, 2);
    let aim = s.aim(Some(tank)).expect("aimed");
    let shown = aim.preview.expect("legal");
    let direct = s.battle.preview(&aim.order).expect("legal");
    assert_eq!(
        shown.odds, direct.odds,
        "the panel shows the rules' own odds"
    );
    assert_eq!(shown.odds.wager, 2);
    click_at(&mut app, tank);
    let s = session(&mut app);
    assert!(s.notice.is_none(), "{:?}", s.notice);
    assert!(s.battle.events().iter().any(|e| matches!(
        e,
        BattleEvent::AttackDeclared { wager: 2, profile, .. } if profile == "Sphere"
    )));
}

#[test]
fn gui_defense_prompt_waits_for_the_player_and_dodge_answers_it() {
    let mut app = battle_app("human,ai");
    tap(&mut app, KeyCode::KeyT);
    // The computer plays until a human unit is attacked or gets its turn.
    let asked = end_turns_until_asked(&mut app);
    let Some(Decision::Defense { defender, .. }) = asked else {
        panic!("no human unit was attacked: {asked:?}");
    };
    let before = session(&mut app).battle.events().len();
    app.update();
    assert_eq!(
        session(&mut app).battle.events().len(),
        before,
        "the battle waits for the answer"
    );
    assert!(session(&mut app).battle.defense_odds().is_some());
    tap(&mut app, KeyCode::KeyD);
    let s = session(&mut app);
    assert!(s.battle.events()[before..].iter().any(|e| matches!(
        e,
        BattleEvent::DefenseDeclared { defender: d, choice: DefenseChoice::Dodge } if *d == defender
    )));
}

#[test]
fn gui_stages_block_prompt_plays_the_defense_card() {
    // Power stages: Kenji is dealt two Energy Shields; the Energy Fighter's attack on him is
    // blocked with what blocks it, a shield or his personality card power (Iron Body).
    let mut app = scenario_app("stages-duel", 3, "human,ai");
    crate::common::stage(&mut session(&mut app).battle, 0, |f| {
        if let Some(cards) = f.cards.as_deref_mut() {
            cards.hand = [("energy_shield".to_string(), 2)].into_iter().collect();
        }
    });
    tap(&mut app, KeyCode::KeyT);
    let asked = end_turns_until_asked(&mut app);
    let Some(Decision::Defense { defender, .. }) = asked else {
        panic!("no human unit was attacked: {asked:?}");
    };
    let answers = session(&mut app)
        .battle
        .defense_odds()
        .expect("the prompt's outcomes");
    let (take, block) = (&answers[0], &answers[1]);
    assert_eq!(take.hit_chance, 1.0);
    assert_eq!(block.hit_chance, 0.0, "the held card blocks");
    let life = session(&mut app)
        .battle
        .fighter(defender)
        .expect("defender")
        .life
        .current;
    let before = session(&mut app).battle.events().len();
    tap(&mut app, KeyCode::KeyP);
    let mut s = session(&mut app);
    let after = &s.battle.events()[before..];
    assert!(
        after.iter().any(|e| matches!(
            e,
            BattleEvent::CardPlayed { who, why, .. } if *who == defender && why.contains("blocks the attack")
        )),
        "{after:#?}"
    );
    assert_eq!(
        s.battle.fighter(defender).expect("defender").life.current,
        life
    );
}

#[test]
fn gui_shinobi_prompt_offers_the_defenses_the_unit_has_and_e_deflects() {
    // Shinobi, seed 3: the Blade Dancer throws kunai at Rokuro, a Brawler with no weapon.
    let mut app = scenario_app("shinobi-duel", 3, "human,ai");
    let asked = end_turns_until_asked(&mut app);
    let Some(Decision::Defense { defender, .. }) = asked else {
        panic!("no human unit was attacked: {asked:?}");
    };
    let offered: Vec<DefenseChoice> = session(&mut app)
        .battle
        .defense_odds()
        .expect("the prompt's odds")
        .iter()
        .map(|o| o.defense)
        .collect();
    assert_eq!(offered, [DefenseChoice::Dodge, DefenseChoice::Deflect]);
    // P (Block) is not an answer without a weapon: nothing happens.
    let before = session(&mut app).battle.events().len();
    tap(&mut app, KeyCode::KeyP);
    assert_eq!(session(&mut app).battle.events().len(), before);
    tap(&mut app, KeyCode::KeyE);
    let s = session(&mut app);
    assert!(s.battle.events()[before..].iter().any(|e| matches!(
        e,
        BattleEvent::DefenseDeclared { defender: d, choice: DefenseChoice::Deflect } if *d == defender
    )));
}

#[test]
fn gui_dbu_prompt_offers_reflect_against_a_beam_and_e_reflects() {
    // Duel, seed 2, Kaito a person: Suri's Beam (Energy) asks him Dodge, Parry or Reflect.
    let mut app = scenario_app("duel", 2, "human,ai");
    let asked = end_turns_until_asked(&mut app);
    let Some(Decision::Defense { defender, .. }) = asked else {
        panic!("no human unit was attacked: {asked:?}");
    };
    let answers = session(&mut app)
        .battle
        .defense_odds()
        .expect("the prompt's odds");
    let offered: Vec<DefenseChoice> = answers.iter().map(|o| o.defense).collect();
    assert_eq!(
        offered,
        [
            DefenseChoice::Dodge,
            DefenseChoice::Parry,
            DefenseChoice::Reflect
        ]
    );
    assert!(answers[2].reflected.is_some_and(|r| r.chance > 0.0));
    let before = session(&mut app).battle.events().len();
    tap(&mut app, KeyCode::KeyE);
    let s = session(&mut app);
    assert!(s.battle.events()[before..].iter().any(|e| matches!(
        e,
        BattleEvent::DefenseDeclared { defender: d, choice: DefenseChoice::Reflect } if *d == defender
    )));
}

#[test]
fn gui_shinobi_s_makes_the_aimed_attack_a_sneak_attack() {
    let mut app = scenario_app("shinobi-duel", 3, "ai,human");
    // Wait for the human Blade Dancer's turn.
    for _ in 0..400 {
        app.update();
        if session(&mut app)
            .human_to_act()
            .is_some_and(|(_, d, _)| d.is_none())
        {
            break;
        }
    }
    let (me, foe) = {
        let mut s = session(&mut app);
        let (me, _, _) = s.human_to_act().expect("the Blade Dancer acts");
        let foe = s
            .battle
            .fighters()
            .into_iter()
            .find(|f| f.id != me)
            .expect("the Brawler");
        (me, foe)
    };
    tap(&mut app, KeyCode::KeyS);
    assert!(session(&mut app).sneak, "S arms a sneak attack");
    let slot = session(&mut app)
        .slots()
        .iter()
        .position(|s| s.profile == "kunai_throw")
        .expect("Kunai Throw");
    session(&mut app).intent = gridclash::gui::session::Intent::Attack { slot };
    let order = {
        let mut s = session(&mut app);
        let slots = s.slots();
        s.aimed_order(&slots[slot], foe.position.expect("on the map"))
            .expect("an order")
    };
    assert!(order.sneak && order.attacker == me);
}

/// Waits (at most 400 frames) for a human unit's own turn, with no question pending; its id.
fn human_turn(app: &mut App) -> gridclash::battle::components::CombatantId {
    for _ in 0..400 {
        app.update();
        if let Some((who, None, _)) = session(app).human_to_act() {
            return who;
        }
    }
    panic!("no human turn came");
}

#[test]
fn gui_comma_names_the_ally_of_a_united_attack_and_the_order_carries_it() {
    // brawl, seed 1: the Iron Hands are people; an ally is put beside the unit to act.
    let mut app = scenario_app("brawl", 1, "human,ai");
    let me = human_turn(&mut app);
    let ally = {
        let mut s = session(&mut app);
        let fighters = s.battle.fighters();
        let mine = fighters.iter().find(|f| f.id == me).expect("the unit");
        let at = mine.position.expect("on the map");
        let ally = fighters
            .iter()
            .find(|f| f.side == mine.side && f.id != me)
            .expect("an ally")
            .id;
        let free = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ]
        .into_iter()
        .map(|(dx, dy)| Square::new(at.x + dx, at.y + dy))
        .find(|sq| {
            s.battle.map().bounds().contains(*sq)
                && fighters.iter().all(|f| f.position != Some(*sq))
        })
        .expect("a free square beside the unit");
        let world = s.battle.world_mut();
        let mut q = world.query::<(
            &gridclash::battle::components::CombatantId,
            &mut gridclash::battle::components::Position,
        )>();
        for (id, mut p) in q.iter_mut(world) {
            if *id == ally {
                p.0 = Some(free);
            }
        }
        ally
    };
    app.update();
    app.update();
    // The press redraws the bar and the aim panel on its frame.
    KeyCode::Comma.press(app.world_mut());
    app.update();
    assert_eq!(
        session(&mut app).united,
        Some(ally),
        ", names the ally beside"
    );
    assert!(
        app.world()
            .resource::<gridclash::gui::redraw::Redraw>()
            .needed(),
        ", named an ally but nothing is redrawn"
    );
    KeyCode::Comma.release(app.world_mut());
    app.update();
    let (slot, foe) = {
        let mut s = session(&mut app);
        let slot = s.slots().len().saturating_sub(1);
        let foe = s
            .battle
            .fighters()
            .into_iter()
            .find(|f| f.side != s.battle.fighter(me).expect("me").side)
            .and_then(|f| f.position)
            .expect("a foe");
        (slot, foe)
    };
    let order = {
        let mut s = session(&mut app);
        let slots = s.slots();
        s.aimed_order(&slots[slot], foe).expect("an order")
    };
    assert_eq!(order.united.map(|u| u.ally), Some(ally));
    // Pressed until the allies beside run out, it is off again.
    for _ in 0..8 {
        if session(&mut app).united.is_none() {
            break;
        }
        tap(&mut app, KeyCode::Comma);
    }
    assert_eq!(session(&mut app).united, None);
}

#[test]
fn gui_j_names_the_body_part_of_a_called_shot_and_the_click_makes_it() {
    // duel: the human Brawler Kaito against the computer's Ki Blaster Suri.
    let mut app = scenario_app("duel", 1, "human,ai");
    let me = human_turn(&mut app);
    for _ in 0..4 {
        tap(&mut app, KeyCode::KeyJ);
    }
    assert_eq!(
        session(&mut app).called_shot.as_deref(),
        Some("gut"),
        "J cycles off, Head, Eyes, Arm, Gut"
    );
    let slot = session(&mut app)
        .slots()
        .iter()
        .position(|s| s.profile == "sphere")
        .expect("Sphere");
    session(&mut app).intent = Intent::Attack { slot };
    let foe = {
        let mut s = session(&mut app);
        s.battle
            .fighters()
            .into_iter()
            .find(|f| f.id != me)
            .and_then(|f| f.position)
            .expect("Suri on the map")
    };
    let order = {
        let mut s = session(&mut app);
        let slots = s.slots();
        s.aimed_order(&slots[slot], foe).expect("an order")
    };
    assert_eq!(order.called_shot.as_deref(), Some("gut"));
    click_at(&mut app, foe);
    let mut s = session(&mut app);
    assert!(
        s.battle
            .describe_events()
            .iter()
            .any(|l| l.contains("Sphere, a Called Shot at the Gut")),
        "the click made the Called Shot"
    );
    assert_eq!(
        s.called_shot, None,
        "a Called Shot is chosen for one attack"
    );
}

#[test]
fn gui_i_makes_the_arrogant_declaration() {
    let mut app = scenario_app("duel", 1, "human,ai");
    let me = human_turn(&mut app);
    tap(&mut app, KeyCode::KeyI);
    let mut s = session(&mut app);
    let f = s.battle.fighter(me).expect("Kaito");
    assert_eq!(
        f.encounter.arrogance,
        Some(gridclash::battle::components::Arrogance::Superior)
    );
    assert!(
        f.conditions
            .has(gridclash::ruleset::ConditionKind::Superiority)
    );
}

/// Rival Partners with the computer on the wild side, at the person's Digimon's turn (its
/// Tamer, if it comes first, hands the turn over with G).
fn rivals_partner_turn() -> (App, gridclash::battle::components::CombatantId) {
    let mut app = scenario_app("digimon-rivals", 1, "human,ai");
    let mut me = human_turn(&mut app);
    if session(&mut app)
        .battle
        .fighter(me)
        .and_then(|f| f.digi)
        .is_some_and(|d| d.tamer)
    {
        tap(&mut app, KeyCode::KeyG);
        me = human_turn(&mut app);
    }
    (app, me)
}

#[test]
fn gui_quote_digivolves_a_fallen_partner() {
    // Greymon and Tai against the computer's Garurumon and Matt: Greymon, fallen back to
    // Agumon at 1 HP, Digivolves with the key the bar names.
    let (mut app, me) = rivals_partner_turn();
    {
        let mut s = session(&mut app);
        crate::common::stage(&mut s.battle, me.0, |f| {
            if let Some(d) = f.digi.as_mut() {
                d.form = Some("agumon".into());
            }
            f.life.current = 1;
            f.life.max = 18;
        });
        let offers = s.battle.bar_view(me).expect("a bar").digivolve;
        assert_eq!(offers.len(), 1, "{offers:?}");
        assert_eq!(offers[0].name, "Greymon");
    }
    tap(&mut app, KeyCode::Quote);
    let f = session(&mut app).battle.fighter(me).expect("Greymon");
    assert_eq!((f.life.current, f.life.max), (36, 36));
    assert!(
        f.digi
            .is_some_and(|d| d.form.is_none() && d.digivolved == 1)
    );
}

#[test]
fn gui_backslash_takes_a_flyer_to_the_air_and_lands_it() {
    // Rival Partners: the person's Digimon, made an Angemon (Fly 8) for the test, takes to
    // the air with the key the bar names, then lands.
    let (mut app, me) = rivals_partner_turn();
    crate::common::stage(&mut session(&mut app).battle, me.0, |f| {
        if let Some(d) = f.digi.as_mut() {
            d.form = Some("angemon".into());
        }
    });
    let offer = session(&mut app).battle.bar_view(me).and_then(|b| b.fly);
    assert_eq!(
        offer.map(|o| (o.up, o.height)),
        Some((true, 3)),
        "the bar offers the flight"
    );
    tap(&mut app, KeyCode::Backslash);
    let f = session(&mut app).battle.fighter(me).expect("the flyer");
    assert_eq!(gridclash::battle::family::digimon::flight::airborne(&f), 3);
    tap(&mut app, KeyCode::Backslash);
    let f = session(&mut app).battle.fighter(me).expect("the flyer");
    assert_eq!(
        gridclash::battle::family::digimon::flight::airborne(&f),
        0,
        "landed"
    );
}

#[test]
fn gui_w_chooses_an_ally_and_the_click_empowers_it() {
    // skirmish: Red Fist (Brawler, Mage, Gunner) is the person's side.
    let mut app = scenario_app("skirmish", 1, "human,ai");
    let me = human_turn(&mut app);
    let ally = {
        let mut s = session(&mut app);
        let side = s.battle.fighter(me).expect("the active unit").side;
        s.battle
            .fighters()
            .into_iter()
            .find(|f| f.side == side && f.id != me)
            .expect("an ally")
    };
    crate::common::stage(&mut session(&mut app).battle, ally.id.0, |f| {
        f.ki.current = 10
    });
    tap(&mut app, KeyCode::KeyW);
    assert_eq!(
        session(&mut app).intent,
        Intent::Empower {
            actions: 1,
            full: false
        },
        "W chooses an ally to Empower with one Action"
    );
    click_at(&mut app, ally.position.expect("on the map"));
    let mut s = session(&mut app);
    let name = s.names.get(&ally.id).cloned().expect("a name");
    assert!(
        s.battle
            .describe_events()
            .iter()
            .any(|l| l.contains(&format!("Empowers {name} with"))),
        "the click made the Empower"
    );
    assert!(s.battle.fighter(ally.id).expect("the ally").ki.current > 10);
    assert_eq!(s.intent, Intent::Idle, "an Empower is chosen for one use");
}

#[test]
fn gui_semicolon_chooses_a_grapple_and_the_click_makes_it() {
    // brawl: the Iron Hands are the person's side; an opponent is set beside the active unit.
    let mut app = scenario_app("brawl", 1, "human,ai");
    let me = human_turn(&mut app);
    let (at, foe) = {
        let mut s = session(&mut app);
        let mine = s.battle.fighter(me).expect("the active unit");
        let at = mine.position.expect("on the map");
        let foe = s
            .battle
            .fighters()
            .into_iter()
            .find(|f| f.side != mine.side)
            .expect("an opponent");
        (at, foe)
    };
    let beside = gridclash::grid::Square::new(at.x, at.y + 1);
    crate::common::stage(&mut session(&mut app).battle, foe.id.0, |f| {
        f.position.0 = Some(beside)
    });
    tap(&mut app, KeyCode::Semicolon);
    assert_eq!(
        session(&mut app).intent,
        Intent::Grapple {
            act: gridclash::battle::command::GrappleAct::Seize
        },
        "; chooses a Grapple"
    );
    click_at(&mut app, beside);
    let mut s = session(&mut app);
    assert!(
        s.battle
            .describe_events()
            .iter()
            .any(|l| l.contains("(Grapple): Grapple Check")),
        "the click made the Grapple"
    );
    assert_eq!(
        s.intent,
        Intent::Idle,
        "a grappling maneuver is chosen for one use"
    );
}

#[test]
fn gui_period_hides_and_a_hidden_opponent_is_off_the_board_for_the_viewer() {
    // brawl: the Iron Hands are the person's side.
    let mut app = scenario_app("brawl", 1, "human,ai");
    let me = human_turn(&mut app);
    tap(&mut app, KeyCode::Period);
    let mut s = session(&mut app);
    assert!(
        s.battle
            .describe_events()
            .iter()
            .any(|l| l.contains("tries to Hide")),
        "the key made the Hide"
    );
    // The person's own unit is drawn whether Hidden or not; an opponent made Hidden is not.
    let foe = s
        .battle
        .fighters()
        .into_iter()
        .find(|f| f.side != s.battle.fighter(me).expect("me").side)
        .expect("an opponent");
    crate::common::give(
        &mut s.battle,
        foe.id.0,
        gridclash::ruleset::ConditionKind::Hidden,
        None,
    );
    let shown = s.fighters();
    assert!(shown.iter().any(|f| f.id == me && f.position.is_some()));
    assert_eq!(
        shown
            .iter()
            .find(|f| f.id == foe.id)
            .expect("listed")
            .position,
        None,
        "a Hidden opponent's square is not shown"
    );
    assert!(s.fighter_at(foe.position.expect("on the map")).is_none());
}

#[test]
fn gui_hot_seat_hides_the_board_until_the_next_player_confirms() {
    let mut app = battle_app("human,human");
    let first = {
        let mut s = session(&mut app);
        let (_, _, side) = s.human_to_act().expect("a person acts");
        assert_eq!(s.handoff, Some(side), "the first player confirms too");
        side
    };
    // Input is ignored while the board is hidden.
    tap(&mut app, KeyCode::KeyT);
    assert_eq!(session(&mut app).handoff, Some(first));
    tap(&mut app, KeyCode::Enter);
    assert_eq!(session(&mut app).handoff, None);
    // End turns until the other side must act: the cover comes back for it.
    for _ in 0..10 {
        tap(&mut app, KeyCode::KeyT);
        let s = session(&mut app);
        if let Some(h) = s.handoff {
            assert_ne!(h, first);
            return;
        }
    }
    panic!("play never passed to the other side");
}

#[test]
fn gui_pause_menu_goes_back_to_the_title() {
    let mut app = battle_app("human,ai");
    tap(&mut app, KeyCode::Escape);
    assert!(
        app.world()
            .resource::<gridclash::gui::control::BattleUi>()
            .paused
    );
    // Resume, Save, Load, Back to title, Quit.
    tap(&mut app, KeyCode::ArrowUp);
    tap(&mut app, KeyCode::ArrowUp);
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Title);
}

#[test]
fn gui_script_errors_name_the_file_and_line() {
    use gridclash::gui::script::Script;
    let err = Script::parse("wait 3\nkey KeyM\ncursor 4\n", "demo.script").unwrap_err();
    assert_eq!(
        err.to_string(),
        "demo.script:3: `cursor` needs X Y, got `4`"
    );
    let err = Script::parse("press KeyM\n", "x").unwrap_err();
    assert_eq!(err.to_string(), "x:1: unknown step `press`");
    let ok = Script::parse("# a comment\nwait 2 # two frames\nquit\n", "x").expect("parses");
    assert_eq!(ok.steps.len(), 2);
}

/// The title's Settings row opened, the settings file in `dir`.
fn settings_app(dir: &std::path::Path) -> App {
    let mut app = app(PlayOptions {
        seed: 1,
        ..default()
    });
    app.world_mut()
        .insert_resource(gridclash::gui::settings::SettingsFile(Some(
            dir.join("settings.ron"),
        )));
    highlight_title_row(&mut app, gridclash::gui::title::Row::Settings);
    tap(&mut app, KeyCode::Enter);
    app.update();
    app
}

#[test]
fn gui_settings_screen_rebinds_a_key_and_the_battle_obeys_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = settings_app(dir.path());
    assert_eq!(screen(&app), Screen::Settings);
    // Settings rows: eleven values, then keys (Move first).
    for _ in 0..11 {
        tap(&mut app, KeyCode::ArrowDown);
    }
    tap(&mut app, KeyCode::Enter);
    tap(&mut app, KeyCode::KeyQ);
    let settings = app.world().resource::<Settings>().clone();
    assert_eq!(
        settings.keys.get(&gridclash::gui::input::GameAction::Move),
        Some(&vec![KeyCode::KeyQ])
    );
    // The colour-blind row (the second) toggles with Right.
    for _ in 0..10 {
        tap(&mut app, KeyCode::ArrowUp);
    }
    tap(&mut app, KeyCode::ArrowRight);
    assert!(app.world().resource::<Settings>().colour_blind);
    // Esc leaves and saves the file.
    tap(&mut app, KeyCode::Escape);
    app.update();
    assert_eq!(screen(&app), Screen::Title);
    let saved = gridclash::gui::settings::load(&dir.path().join("settings.ron")).expect("saved");
    assert_eq!(&saved, app.world().resource::<Settings>());

    // In a battle, Q now chooses Move and M does nothing.
    let mut app = battle_app("human,ai");
    app.world_mut().insert_resource(saved);
    app.update();
    tap(&mut app, KeyCode::KeyM);
    assert_eq!(session(&mut app).intent, Intent::Idle);
    tap(&mut app, KeyCode::KeyQ);
    assert_eq!(session(&mut app).intent, Intent::Move { boosted: false });
}

/// The settings screen answers the mouse as the keys: a click on a row runs it as Enter
/// (the colour-blind row switches), a click on an arrow steps the row's value (volume down a
/// tenth), and the wheel moves the highlight three rows a notch.
#[test]
fn gui_settings_screen_rows_and_arrows_answer_the_mouse() {
    use gridclash::gui::settings_screen::{SettingsMenu, SettingsRow, Slot, SlotArrow, rows};
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = settings_app(dir.path());
    app.update();
    assert_eq!(screen(&app), Screen::Settings);
    let index = |row: SettingsRow| rows().iter().position(|r| *r == row).expect("a row");
    let slot_of = |app: &mut App, row: SettingsRow| {
        let i = index(row);
        let mut q = app.world_mut().query::<(Entity, &Slot)>();
        q.iter(app.world())
            .find(|(_, s)| s.row == Some(i))
            .map(|(e, s)| (e, s.n))
            .expect("the row is on screen")
    };
    let press = |app: &mut App, e: Entity| {
        app.world_mut().entity_mut(e).insert(Interaction::Pressed);
        app.update();
        app.world_mut().entity_mut(e).insert(Interaction::None);
        app.update();
    };
    let before = app.world().resource::<Settings>().clone();
    let (colour_blind, _) = slot_of(&mut app, SettingsRow::ColourBlind);
    press(&mut app, colour_blind);
    assert_eq!(
        app.world().resource::<Settings>().colour_blind,
        !before.colour_blind
    );
    assert_eq!(
        app.world().resource::<SettingsMenu>().row,
        index(SettingsRow::ColourBlind)
    );
    let (_, n) = slot_of(&mut app, SettingsRow::Volume);
    let down = {
        let mut q = app.world_mut().query::<(Entity, &SlotArrow)>();
        q.iter(app.world())
            .find(|(_, a)| a.n == n && a.step < 0)
            .map(|(e, _)| e)
            .expect("the volume's < arrow")
    };
    press(&mut app, down);
    let volume = app.world().resource::<Settings>().volume;
    assert!((volume - (before.volume - 0.1)).abs() < 1e-4, "{volume}");
    app.world_mut()
        .write_message(bevy::input::mouse::MouseWheel {
            unit: bevy::input::mouse::MouseScrollUnit::Line,
            x: 0.0,
            y: -1.0,
            window: Entity::PLACEHOLDER,
            phase: bevy::input::touch::TouchPhase::Moved,
        });
    app.update();
    assert_eq!(
        app.world().resource::<SettingsMenu>().row,
        index(SettingsRow::Volume) + 3,
        "a notch down moves three rows"
    );
}

#[test]
fn gui_broken_settings_file_names_its_line_and_column() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("settings.ron");
    std::fs::write(&path, "(\n  ui_scale: 1.5,\n  volume: loud,\n)\n").expect("written");
    let err = gridclash::gui::settings::load(&path)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with(&format!("{}:3:", path.display())), "{err}");
    std::fs::write(&path, "(ui_scale: 9.0, muted: true)").expect("written");
    let s = gridclash::gui::settings::load(&path).expect("loads");
    assert_eq!(s.ui_scale, 2.0, "out-of-range values are clamped");
    assert!(s.muted);
    assert_eq!(
        gridclash::gui::settings::load(&dir.path().join("missing.ron")).expect("defaults"),
        Settings::default()
    );
}

#[test]
fn gui_hot_seat_sides_listen_only_to_their_own_devices() {
    let mut app = battle_app("human:keyboard,human:pad1");
    // A gamepad for slot 1.
    let pad = app.world_mut().spawn(Gamepad::default()).id();
    app.update();
    assert_eq!(session(&mut app).handoff, Some(0));
    tap(&mut app, KeyCode::Enter);
    assert_eq!(
        session(&mut app).handoff,
        None,
        "the keyboard player confirms"
    );
    tap(&mut app, KeyCode::KeyT);
    assert_eq!(
        session(&mut app).handoff,
        Some(1),
        "play passes to the gamepad side"
    );
    tap(&mut app, KeyCode::Enter);
    assert_eq!(
        session(&mut app).handoff,
        Some(1),
        "the keyboard cannot confirm for the gamepad player"
    );
    GamepadButton::Start.press_as_gamepad(app.world_mut(), Some(pad));
    app.update();
    GamepadButton::Start.release_as_gamepad(app.world_mut(), Some(pad));
    app.update();
    assert_eq!(session(&mut app).handoff, None, "its own gamepad confirms");
    let who = session(&mut app).battle.active();
    tap(&mut app, KeyCode::KeyT);
    assert_eq!(
        session(&mut app).battle.active(),
        who,
        "the keyboard cannot end the gamepad side's turn"
    );
    GamepadButton::North.press_as_gamepad(app.world_mut(), Some(pad));
    app.update();
    GamepadButton::North.release_as_gamepad(app.world_mut(), Some(pad));
    app.update();
    assert_ne!(
        session(&mut app).battle.active(),
        who,
        "North ends the turn"
    );
}

#[test]
fn gui_play_again_starts_a_fresh_battle_with_the_next_seed() {
    let mut app = battle_app("ai,ai");
    app.world_mut().resource_mut::<CursorSquare>().0 = Some(Square::new(30, 30));
    for _ in 0..5000 {
        app.update();
        if screen(&app) == Screen::End {
            break;
        }
    }
    assert_eq!(screen(&app), Screen::End, "the computer finishes the duel");
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Battle);
    assert_eq!(
        app.world().resource::<CursorSquare>().0,
        None,
        "no cursor from the last map"
    );
    let s = session(&mut app);
    assert_eq!(s.spec.seed, 2);
    assert_eq!(s.intent, Intent::Idle);
    assert!(s.battle.outcome().is_none());
    assert!(matches!(
        s.battle.events().first(),
        Some(BattleEvent::BattleStarted { seed: Some(2) })
    ));
}

#[test]
fn gui_one_key_press_never_does_two_things() {
    // Enter confirms the hot-seat cover; the same press must not also answer anything else.
    let mut app = battle_app("human,human");
    let before = session(&mut app).battle.state_hash();
    tap(&mut app, KeyCode::Enter);
    let mut s = session(&mut app);
    assert_eq!(s.handoff, None);
    assert_eq!(s.battle.state_hash(), before);
    // Esc while nothing is chosen opens the pause menu; Esc again closes it, and nothing else.
    tap(&mut app, KeyCode::Escape);
    assert!(
        app.world()
            .resource::<gridclash::gui::control::BattleUi>()
            .paused
    );
    tap(&mut app, KeyCode::Escape);
    assert!(
        !app.world()
            .resource::<gridclash::gui::control::BattleUi>()
            .paused
    );
    assert_eq!(session(&mut app).battle.state_hash(), before);
}

#[test]
fn gui_a_new_unit_starts_with_nothing_chosen() {
    let mut app = battle_app("human,human");
    tap(&mut app, KeyCode::Enter);
    tap(&mut app, KeyCode::Digit7);
    tap(&mut app, KeyCode::Equal);
    tap(&mut app, KeyCode::KeyR);
    assert_eq!(session(&mut app).wager, 1);
    assert_eq!(session(&mut app).facing, gridclash::grid::Dir8::NE);
    tap(&mut app, KeyCode::KeyT);
    tap(&mut app, KeyCode::Enter);
    let s = session(&mut app);
    assert_eq!(s.intent, Intent::Idle);
    assert_eq!(s.wager, 0);
    assert_eq!(
        s.facing,
        gridclash::grid::Dir8::N,
        "the facing is the last unit's"
    );
}

#[test]
fn gui_title_offers_each_rulesets_own_scenarios() {
    use gridclash::gui::title::{Row, TitleMenu};
    let mut menu = TitleMenu::new(1);
    assert_eq!(
        menu.rulesets,
        vec![
            "DBU RPG".to_string(),
            "d20 (Skill and Combat System)".to_string(),
            "Digimon (Digital Monsters RPG)".to_string(),
            "Shinobi (ninja d20)".to_string(),
            "Power Stages (card game)".to_string()
        ]
    );
    assert_eq!(menu.rows()[..2], [Row::Ruleset, Row::Scenario]);
    let mut all_seen = Vec::new();
    for _ in 0..menu.rulesets.len() {
        let ruleset = menu.rulesets[menu.ruleset].clone();
        let offered = menu.offered();
        assert!(
            offered.len() >= 2,
            "{ruleset} offers at least two scenarios"
        );
        // Stepping through the scenarios visits every one of this ruleset and comes back.
        menu.row = 1;
        let first = menu.scenario;
        let mut seen = vec![first];
        for _ in 1..offered.len() {
            menu.change(1);
            seen.push(menu.scenario);
        }
        menu.change(1);
        assert_eq!(menu.scenario, first);
        seen.sort();
        seen.dedup();
        assert_eq!(seen, offered);
        assert!(seen.iter().all(|i| menu.scenarios[*i].ruleset == ruleset));
        // Each scenario gets one controller per side, the first a person.
        assert!(menu.sides[0].is_human());
        all_seen.extend(seen);
        menu.row = 0;
        menu.change(1);
    }
    all_seen.sort();
    assert_eq!(
        all_seen.len(),
        menu.scenarios.len(),
        "every scenario is offered once"
    );
}

fn skirmish(sides: &str) -> PlayOptions {
    PlayOptions {
        seed: 1,
        battle: Some(BattleSpec {
            scenario: "skirmish".into(),
            seed: 1,
            sides: sides
                .split(',')
                .map(|s| s.parse::<SideControl>().expect("a known side"))
                .collect(),
            auto_defense: false,
        }),
        ai_pace: Some(0.0),
        ..default()
    }
}

/// M and a click on the square every test moves the first unit to.
fn move_first_unit(app: &mut App) {
    tap(app, KeyCode::KeyM);
    click_at(app, Square::new(4, 7));
}

#[test]
fn gui_undo_takes_back_a_move_and_redo_gives_it_again() {
    let mut app = battle_app("human,ai");
    let who = session(&mut app).battle.active().unwrap();
    let before = session(&mut app).battle.state_hash();
    move_first_unit(&mut app);
    let moved = session(&mut app).battle.state_hash();
    assert_ne!(moved, before);
    tap(&mut app, KeyCode::KeyZ);
    assert_eq!(session(&mut app).battle.state_hash(), before);
    assert!(
        session(&mut app)
            .notice
            .as_deref()
            .unwrap()
            .contains("undid Move")
    );
    tap(&mut app, KeyCode::KeyY);
    assert_eq!(session(&mut app).battle.state_hash(), moved);
    assert_eq!(
        session(&mut app).battle.fighter(who).unwrap().position,
        Some(Square::new(4, 7))
    );
}

#[test]
fn gui_quick_save_notice_names_the_key_the_player_bound() {
    let mut settings = Settings::default();
    settings
        .rebind(gridclash::gui::input::GameAction::QuickLoad, KeyCode::KeyI)
        .expect("I is free");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(skirmish("human,ai"))
        .insert_resource(settings)
        .insert_resource(DataDir(data_dir()))
        .add_plugins(logic_plugin);
    app.update();
    app.update();
    tap(&mut app, KeyCode::F5);
    assert_eq!(
        session(&mut app).notice.as_deref(),
        Some("quick-saved (I loads it)")
    );
}

#[test]
fn gui_quick_save_then_quick_load_returns_to_the_saved_moment() {
    let dir = data_dir();
    let mut app = app_in(skirmish("human,ai"), dir.clone());
    let before = session(&mut app).battle.state_hash();
    tap(&mut app, KeyCode::F5);
    assert!(dir.join("saves/quick.ron").is_file());
    assert!(
        session(&mut app)
            .notice
            .as_deref()
            .unwrap()
            .contains("quick-saved")
    );
    move_first_unit(&mut app);
    assert_ne!(session(&mut app).battle.state_hash(), before);
    tap(&mut app, KeyCode::F9);
    app.update();
    assert_eq!(screen(&app), Screen::Battle);
    assert_eq!(session(&mut app).battle.state_hash(), before);
    // The autosave of round 1 was written when the battle started.
    assert!(dir.join("saves/autosave.ron").is_file());
}

#[test]
fn gui_pause_menu_saves_to_a_named_slot_and_the_load_screen_loads_it() {
    let dir = data_dir();
    let mut app = app_in(skirmish("human,ai"), dir.clone());
    move_first_unit(&mut app);
    let moved = session(&mut app).battle.state_hash();
    tap(&mut app, KeyCode::Escape);
    tap(&mut app, KeyCode::ArrowDown);
    tap(&mut app, KeyCode::Enter);
    // The save page suggests a name; clear it and type another.
    for _ in 0..40 {
        tap(&mut app, KeyCode::Backspace);
    }
    for c in "my slot".chars() {
        type_key(
            &mut app,
            bevy::input::keyboard::Key::Character(c.to_string().into()),
            KeyCode::KeyA,
        );
    }
    tap(&mut app, KeyCode::Enter);
    assert!(
        dir.join("saves/my slot.ron").is_file(),
        "{:?}",
        session(&mut app).notice
    );
    assert!(
        !app.world()
            .resource::<gridclash::gui::control::BattleUi>()
            .paused
    );
    // A new battle from the title, then load the slot from the title's Load row.
    let mut title = app_in(PlayOptions::default(), dir.clone());
    highlight_title_row(&mut title, gridclash::gui::title::Row::Load);
    tap(&mut title, KeyCode::Enter);
    title.update();
    title.update();
    assert_eq!(
        screen(&title),
        Screen::Load,
        "one Enter opens the list, no more"
    );
    let menu = title
        .world()
        .resource::<gridclash::gui::load_screen::LoadMenu>();
    let row = menu
        .entries
        .iter()
        .position(|e| e.info.name == "my slot")
        .expect("the slot is listed");
    assert!(
        menu.entries[row]
            .info
            .line()
            .contains("skirmish (dbu)  round 1")
    );
    for _ in 0..row {
        tap(&mut title, KeyCode::ArrowDown);
    }
    tap(&mut title, KeyCode::Enter);
    title.update();
    assert_eq!(screen(&title), Screen::Battle);
    assert_eq!(session(&mut title).battle.state_hash(), moved);
}

/// Sends one typed key, as a keyboard's text input does.
fn type_key(app: &mut App, key: bevy::input::keyboard::Key, code: KeyCode) {
    use bevy::input::keyboard::KeyboardInput;
    let window = Entity::PLACEHOLDER;
    app.world_mut().write_message(KeyboardInput {
        key_code: code,
        logical_key: key,
        state: bevy::input::ButtonState::Pressed,
        text: None,
        repeat: false,
        window,
    });
    app.update();
}

#[test]
fn gui_replay_viewer_plays_the_file_and_pauses_and_steps() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/replays/duel-easy-vs-hard.ron");
    let mut app = app(PlayOptions {
        replay: Some(file.clone()),
        ..default()
    });
    assert_eq!(screen(&app), Screen::Battle);
    assert!(session(&mut app).human_to_act().is_none());
    tap(&mut app, KeyCode::Space);
    let paused_at = session(&mut app).replay.as_ref().unwrap().next;
    assert!(session(&mut app).replay.as_ref().unwrap().paused);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(session(&mut app).replay.as_ref().unwrap().next, paused_at);
    tap(&mut app, KeyCode::Tab);
    assert_eq!(
        session(&mut app).replay.as_ref().unwrap().next,
        paused_at + 1
    );
    // Fastest speed to the end: the battle ends as the file says.
    tap(&mut app, KeyCode::Space);
    for _ in 0..6 {
        tap(&mut app, KeyCode::Equal);
    }
    for _ in 0..5000 {
        app.update();
        if screen(&app) == Screen::End {
            break;
        }
    }
    assert_eq!(screen(&app), Screen::End);
    let (saved, _) = gridclash::save::SaveFile::read(&file).expect("the golden replay reads");
    let winner = saved.ending.expect("a finished battle").winner;
    let s = session(&mut app);
    assert_eq!(
        s.battle.outcome().and_then(|o| o.winner).map(|w| w.0),
        winner
    );
}

#[test]
fn gui_end_screen_keeps_the_battle_as_a_replay_that_verifies() {
    let dir = data_dir();
    let mut app = app_in(skirmish("ai:easy,ai:easy"), dir.clone());
    app.world_mut().resource_mut::<Pace>().seconds_per_command = 0.0;
    for _ in 0..20000 {
        app.update();
        if screen(&app) == Screen::End {
            break;
        }
    }
    assert_eq!(screen(&app), Screen::End);
    tap(&mut app, KeyCode::F5);
    let kept: Vec<_> = std::fs::read_dir(dir.join("replays"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let v = gridclash::save::verify(&kept[0]).unwrap();
    assert!(v.ending.is_some());
    assert_eq!(
        format!("{:016x}", session(&mut app).battle.state_hash()),
        v.final_hash
    );
}

#[test]
fn gui_log_scrolls_back_through_the_battle_and_forward_again() {
    let mut app = battle_app("human,ai");
    let ui = |app: &App| {
        app.world()
            .resource::<gridclash::gui::control::BattleUi>()
            .log_back
    };
    tap(&mut app, KeyCode::BracketLeft);
    tap(&mut app, KeyCode::BracketLeft);
    assert_eq!(ui(&app), 6);
    // Never further back than the log is long.
    for _ in 0..100 {
        tap(&mut app, KeyCode::BracketLeft);
    }
    let events = session(&mut app).battle.events().len();
    assert_eq!(ui(&app), events);
    for _ in 0..100 {
        tap(&mut app, KeyCode::BracketRight);
    }
    assert_eq!(ui(&app), 0);
}

#[test]
fn gui_view_model_is_worked_out_again_only_when_what_it_shows_changes() {
    use gridclash::gui::redraw::Redraw;
    use gridclash::gui::view::BattleView;
    let needed = |app: &App| app.world().resource::<Redraw>().needed();
    let mut app = battle_app("human,ai");
    app.update();
    assert!(session(&mut app).human_to_act().is_some());
    app.update();
    assert!(!needed(&app), "a frame where nothing changed redraws");
    // Choosing a maneuver redraws, once.
    tap(&mut app, KeyCode::Digit7);
    assert!(matches!(session(&mut app).intent, Intent::Attack { .. }));
    app.update();
    assert!(!needed(&app));
    // Moving the cursor onto a target redraws on that frame, and the view then aims at it
    // exactly as the rules would.
    let tank = Square::new(12, 2);
    app.world_mut().resource_mut::<CursorSquare>().0 = Some(tank);
    app.update();
    assert!(needed(&app), "the cursor moved but nothing is redrawn");
    let aim = app.world().resource::<BattleView>().aim.clone();
    assert!(
        aim.as_ref().is_some_and(|a| a.preview.is_ok()),
        "the view does not aim at the target under the cursor"
    );
    let fresh = session(&mut app).aim(Some(tank));
    assert_eq!(
        aim.and_then(|a| a.preview.ok()).map(|p| p.odds),
        fresh.and_then(|a| a.preview.ok()).map(|p| p.odds),
        "the view kept an old aim"
    );
    app.update();
    assert!(!needed(&app));
    // Naming a Called Shot's body part redraws on the frame the key is pressed.
    KeyCode::KeyJ.press(app.world_mut());
    app.update();
    assert_eq!(session(&mut app).called_shot.as_deref(), Some("head"));
    assert!(needed(&app), "J named the head but nothing is redrawn");
    KeyCode::KeyJ.release(app.world_mut());
    app.update();
    assert!(!needed(&app));
    // A command redraws on the frame it is given.
    let events = session(&mut app).battle.events().len();
    KeyCode::KeyT.press(app.world_mut());
    app.update();
    assert!(session(&mut app).battle.events().len() > events);
    assert!(needed(&app), "the turn ended but nothing is redrawn");
    KeyCode::KeyT.release(app.world_mut());
}

#[test]
fn gui_title_names_a_broken_scenario_file_instead_of_dropping_it() {
    let dir = data_dir();
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let good = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios/duel.ron");
    let text = std::fs::read_to_string(&good).expect("duel.ron");
    let bad = dir.join("zz-broken.ron");
    std::fs::write(
        &bad,
        text.replace("side: 1, at: (9, 3)", "side: 1, at: (9, 3), lvl: 3"),
    )
    .expect("write the broken copy");
    let menu = gridclash::gui::title::TitleMenu::from_files(&[good, bad], 1);
    assert_eq!(menu.scenarios.len(), 1, "the good file is listed");
    assert_eq!(menu.broken.len(), 1, "{:?}", menu.broken);
    let why = &menu.broken[0];
    assert!(
        why.contains("zz-broken.ron:32:") && why.contains("units[1].lvl"),
        "{why}"
    );
}

/// The title's "New random field" row writes a generated battle into the player's own
/// scenarios folder (of the data directory), lists it as theirs and chooses it; a second press
/// never overwrites the first, and the battle starts from it.
#[test]
fn gui_title_new_random_field_is_written_listed_chosen_and_played() {
    use gridclash::gui::title::{Row, TitleMenu};
    let dir = data_dir();
    let mut app = app_in(
        PlayOptions {
            seed: 40,
            ..default()
        },
        dir.clone(),
    );
    let generate = |app: &mut App| {
        let row = {
            let menu = app.world().resource::<TitleMenu>();
            menu.rows()
                .iter()
                .position(|r| *r == Row::Generate)
                .expect("a Generate row")
        };
        app.world_mut().resource_mut::<TitleMenu>().row = row;
        tap(app, KeyCode::Enter);
    };
    generate(&mut app);
    generate(&mut app);
    let own = dir.join("scenarios");
    let first = own.join("field-dbu-40.ron");
    let second = own.join("field-dbu-41.ron");
    assert!(
        first.is_file() && second.is_file(),
        "{:?}",
        std::fs::read_dir(&own).map(|d| d.count())
    );
    let menu = app.world().resource::<TitleMenu>().clone();
    assert_eq!(menu.error, None);
    let chosen = &menu.scenarios[menu.scenario];
    assert!(chosen.yours);
    assert_eq!(chosen.id, second.to_string_lossy());
    assert_eq!(chosen.name, "Random field 16x12 (seed 41)");
    assert_eq!(menu.scenarios.iter().filter(|s| s.yours).count(), 2);
    assert!(
        menu.offered().contains(&menu.scenario),
        "offered with its ruleset"
    );
    let start = menu
        .rows()
        .iter()
        .position(|r| *r == Row::Start)
        .expect("Start");
    app.world_mut().resource_mut::<TitleMenu>().row = start;
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Battle);
    let mut s = session(&mut app);
    assert_eq!(s.spec.scenario, second.to_string_lossy());
    assert_eq!(s.battle.fighters().len(), 6);
}

/// The title's balance check plays quick battles of the chosen scenario and sides on its own
/// thread and shows each side's chance with its interval; choosing another scenario stops it
/// and the row offers a new check.
#[test]
fn gui_title_balance_check_reports_each_sides_chance_and_stops_when_the_choice_changes() {
    use gridclash::gui::balance_meter::{BATTLES, BalanceMeter};
    use gridclash::gui::title::{Row, TitleMenu};
    let mut app = app(PlayOptions {
        seed: 3,
        ..default()
    });
    let row = |app: &App, want: Row| {
        app.world()
            .resource::<TitleMenu>()
            .rows()
            .iter()
            .position(|r| *r == want)
            .expect("a row")
    };
    // Choose the duel: the smallest battle.
    {
        let mut menu = app.world_mut().resource_mut::<TitleMenu>();
        let duel = menu
            .scenarios
            .iter()
            .position(|s| s.id == "duel")
            .expect("duel");
        menu.scenario = duel;
    }
    let balance = row(&app, Row::Balance);
    app.world_mut().resource_mut::<TitleMenu>().row = balance;
    let key = app
        .world()
        .resource::<TitleMenu>()
        .balance_key()
        .expect("a choice");
    assert_eq!(key.policies, vec![gridclash::ai::Policy::Normal; 2]);
    tap(&mut app, KeyCode::Enter);
    let started = std::time::Instant::now();
    let tally = loop {
        app.update();
        let t = app
            .world()
            .resource::<BalanceMeter>()
            .tally(&key)
            .expect("running");
        if t.battles >= 10 || started.elapsed().as_secs() > 120 {
            break t;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(tally.battles >= 10, "{tally:?}");
    let label = {
        let menu = app.world().resource::<TitleMenu>().clone();
        menu.balance_label(app.world().resource::<BalanceMeter>())
    };
    assert!(
        label.starts_with("Balance ")
            && label.contains(": Red ")
            && label.contains("Blue ")
            && (label.contains(&format!("of {BATTLES} battles"))
                || label.contains(&format!("({BATTLES} battles)"))),
        "{label}"
    );
    // Another scenario: the check stops, and the row offers a new one.
    let scenario_row = row(&app, Row::Scenario);
    app.world_mut().resource_mut::<TitleMenu>().row = scenario_row;
    tap(&mut app, KeyCode::ArrowRight);
    assert!(app.world().resource::<BalanceMeter>().tally(&key).is_none());
    let menu = app.world().resource::<TitleMenu>().clone();
    assert!(
        menu.balance_label(app.world().resource::<BalanceMeter>())
            .starts_with("Balance check: 100 quick battles"),
    );
}

/// Back on the title screen the folders are read again: a scenario file added (or broken)
/// while the game ran is listed (or named), and the chosen scenario and players are kept.
#[test]
fn gui_title_reads_the_scenario_folders_again_when_shown_again() {
    use gridclash::gui::title::{Row, TitleMenu};
    let dir = data_dir();
    let mut app = app_in(PlayOptions::default(), dir.clone());
    let (chosen, sides) = {
        let m = app.world().resource::<TitleMenu>();
        (m.scenarios[m.scenario].id.clone(), m.sides.clone())
    };
    let credits = app
        .world()
        .resource::<TitleMenu>()
        .rows()
        .iter()
        .position(|r| *r == Row::Credits)
        .expect("Credits");
    app.world_mut().resource_mut::<TitleMenu>().row = credits;
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Credits);
    let own = dir.join("scenarios");
    std::fs::create_dir_all(&own).expect("folder");
    let duel = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios/duel.ron");
    let text = std::fs::read_to_string(&duel).expect("duel");
    std::fs::write(
        own.join("my-duel.ron"),
        text.replace("Duel on the Plain", "My Duel"),
    )
    .expect("written");
    std::fs::write(own.join("half.ron"), "Scenario(name: \"Half\",").expect("written");
    tap(&mut app, KeyCode::Escape);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Title);
    let m = app.world().resource::<TitleMenu>();
    assert!(m.scenarios.iter().any(|s| s.yours && s.name == "My Duel"));
    assert!(
        m.broken.iter().any(|b| b.contains("half.ron")),
        "{:?}",
        m.broken
    );
    assert_eq!(m.scenarios[m.scenario].id, chosen);
    assert_eq!(m.sides, sides);
    assert_eq!(m.row, credits);
}

#[test]
fn gui_j_chooses_a_d20_aimed_shot_and_the_click_makes_it() {
    // d20-duel, seed 5: the human West's Adam acts first. J cycles the aimed shots (at the
    // armour's gaps, through the cover, both, off) instead of a Called Shot's body parts; the
    // order carries it, not a Called Shot.
    let mut app = scenario_app("d20-duel", 5, "human,ai");
    let me = human_turn(&mut app);
    tap(&mut app, KeyCode::KeyJ);
    assert_eq!(
        session(&mut app).called_shot.as_deref(),
        Some("armour_gaps")
    );
    let (slot, foe) = {
        let mut s = session(&mut app);
        let slot = s
            .slots()
            .iter()
            .position(|s| s.profile == "bow_shot")
            .expect("the human's first unit is an archer");
        let foe = s
            .battle
            .fighters()
            .into_iter()
            .find(|f| f.side != s.battle.fighter(me).expect("me").side)
            .and_then(|f| f.position)
            .expect("a foe");
        (slot, foe)
    };
    session(&mut app).intent = Intent::Attack { slot };
    let order = {
        let mut s = session(&mut app);
        let slots = s.slots();
        s.aimed_order(&slots[slot], foe).expect("an order")
    };
    assert!(order.aimed.armour_gaps && !order.aimed.through_cover);
    assert_eq!(order.called_shot, None);
    click_at(&mut app, foe);
    {
        let mut s = session(&mut app);
        assert!(
            s.battle
                .describe_events()
                .iter()
                .any(|l| l.contains("aimed at the gaps: Studded leather as cover +4")),
            "the click made the aimed shot at the gaps of Arne's studded leather"
        );
        assert_eq!(
            s.called_shot, None,
            "an aimed shot is chosen for one attack"
        );
    }
    for want in [
        Some("armour_gaps"),
        Some("through_cover"),
        Some("both"),
        None,
    ] {
        tap(&mut app, KeyCode::KeyJ);
        assert_eq!(session(&mut app).called_shot.as_deref(), want);
    }
}

#[test]
fn gui_s_chooses_a_foe_to_feint_at_in_d20_and_the_click_feints() {
    // d20-duel, seed 5: the human West's Adam acts first. S (the sneak key) chooses the foe to
    // feint at; the panel gives each foe's exact chance; a click on Arne feints, the Standard
    // action spent.
    let mut app = scenario_app("d20-duel", 5, "human,ai");
    let me = human_turn(&mut app);
    tap(&mut app, KeyCode::KeyS);
    assert_eq!(session(&mut app).intent, Intent::Feint);
    let (foe, panel) = {
        let mut s = session(&mut app);
        let foe = s
            .battle
            .fighters()
            .into_iter()
            .find(|f| f.identity.name == "Arne")
            .and_then(|f| f.position)
            .expect("Arne on the map");
        (foe, s.battle.feint_panel(me))
    };
    assert!(
        panel[0].starts_with("Feint (a Standard action"),
        "{panel:?}"
    );
    assert!(
        panel.iter().any(|l| l.starts_with("Arne: caught ")),
        "{panel:?}"
    );
    click_at(&mut app, foe);
    let mut s = session(&mut app);
    assert!(
        s.battle
            .describe_events()
            .iter()
            .any(|l| l.starts_with("Adam feints at Arne: Feint ")),
        "the click feinted"
    );
    assert_eq!(s.intent, Intent::Idle);
    assert!(
        s.battle.fighter(me).expect("Adam").round.standard_attack,
        "the feint took the round's Standard action"
    );
}
