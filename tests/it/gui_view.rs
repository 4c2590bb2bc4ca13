//! Headless app tests of how the battle is looked at: the enemy threat overlay's switch and
//! squares, the settings reached from the pause menu and back, the camera and window settings.

use bevy::prelude::*;

use gridclash::gui::control::BattleUi;
use gridclash::gui::help::{HelpScreen, help_sections};
use gridclash::gui::settings_screen::{SettingsRow, change, label};
use gridclash::gui::threat::ThreatCache;
use gridclash::gui::window::WindowChoice;
use gridclash::gui::{Screen, Session, Settings};

use crate::gui_app::{app, battle_app, scenario_app, screen, session, tap};

#[test]
fn gui_title_credits_row_opens_the_credits_and_esc_comes_back() {
    let mut app = app(gridclash::gui::PlayOptions::default());
    assert_eq!(screen(&app), Screen::Title);
    // Credits is the row above Quit, the last one: up twice from the first row.
    tap(&mut app, KeyCode::ArrowUp);
    tap(&mut app, KeyCode::ArrowUp);
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Credits);
    tap(&mut app, KeyCode::Escape);
    app.update();
    assert_eq!(screen(&app), Screen::Title);
}

#[test]
fn gui_credits_name_the_fonts_the_icons_the_rules_and_every_crate_with_its_licence() {
    use gridclash::gui::credits::{crates_in_the_game, credit_sections};
    let crates = crates_in_the_game();
    assert!(crates.len() > 400, "{} crates", crates.len());
    assert!(
        crates.iter().any(|c| c.starts_with("bevy 0.19.1: ")),
        "Bevy"
    );
    assert!(
        crates.iter().all(|c| c.contains(": ")),
        "each with its licence"
    );
    let all: Vec<String> = credit_sections().into_iter().flat_map(|(_, l)| l).collect();
    assert!(
        all.iter()
            .any(|l| l.contains("DejaVu") && l.contains("Bitstream Vera"))
    );
    assert!(all.iter().any(|l| l.starts_with("DBU RPG")));
    assert!(
        all.iter()
            .any(|l| l.contains("game-icons.net") && l.contains("CC BY 3.0")),
        "the icons' source and licence"
    );
}

#[test]
fn gui_slash_steps_the_log_filter_through_attacks_health_moves_one_unit_and_back() {
    use gridclash::gui::hud::combat_log::LogFilter;
    let mut app = battle_app("human,ai");
    let mut seen = vec![app.world().resource::<BattleUi>().log_filter];
    for _ in 0..5 {
        tap(&mut app, KeyCode::Slash);
        seen.push(app.world().resource::<BattleUi>().log_filter);
    }
    use LogFilter as F;
    assert_eq!(
        seen,
        [F::All, F::Attacks, F::Health, F::Moves, F::Unit, F::All]
    );
    // Each event of a played battle is in at most one of the three kinds, and the attacks
    // filter keeps the rolls.
    let mut game = gridclash::sim::AiMatch::new(
        &session(&mut app).loaded.clone(),
        4,
        &[gridclash::ai::Policy::Normal, gridclash::ai::Policy::Normal],
        5,
    )
    .expect("plays");
    while !game.finished() {
        game.step().expect("a step");
    }
    let names = gridclash::battle::event::Names::default();
    let events = game.battle.events();
    for e in events {
        let kinds = [F::Attacks, F::Health, F::Moves]
            .iter()
            .filter(|f| f.keeps(e, "", ""))
            .count();
        assert!(kinds <= 1, "{e:?} in {kinds} filters");
    }
    assert!(events.iter().any(|e| matches!(
        e,
        gridclash::battle::event::BattleEvent::StrikeRolled { .. }
    ) && F::Attacks.keeps(e, &e.describe(&names), "")));
    assert!(F::Unit.keeps(&events[0], "Tank rolls Initiative 6", "Tank"));
    assert!(!F::Unit.keeps(&events[0], "Mage rolls Initiative 6", "Tank"));
}

#[test]
fn gui_f1_opens_help_over_a_paused_battle_and_esc_or_f1_closes_it() {
    let mut app = battle_app("human,ai");
    let before = session(&mut app).battle.events().len();
    tap(&mut app, KeyCode::F1);
    assert!(app.world().resource::<HelpScreen>().open);
    assert!(
        app.world().resource::<BattleUi>().paused,
        "help pauses the battle"
    );
    // Under help, the end-turn key does nothing.
    tap(&mut app, KeyCode::KeyT);
    assert_eq!(session(&mut app).battle.events().len(), before);
    tap(&mut app, KeyCode::Escape);
    let ui = app.world().resource::<BattleUi>();
    assert!(!app.world().resource::<HelpScreen>().open);
    assert!(!ui.paused, "Esc closes help, not help then the pause menu");
    tap(&mut app, KeyCode::F1);
    tap(&mut app, KeyCode::F1);
    assert!(!app.world().resource::<HelpScreen>().open);
    assert!(!app.world().resource::<BattleUi>().paused);
}

#[test]
fn gui_help_lists_every_bound_key_and_every_glossary_entry_with_its_text() {
    let mut app = battle_app("human,ai");
    let settings = app.world().resource::<Settings>().clone();
    let sections = help_sections(&session(&mut app), &settings);
    let all: Vec<String> = sections.iter().flat_map(|(_, l)| l.clone()).collect();
    assert!(all.iter().any(|l| l == "F1: Help"), "the help key itself");
    assert!(all.iter().any(|l| l == "T: End turn"));
    let rules = session(&mut app).battle.rules().clone();
    for e in rules.glossary.entries() {
        assert!(
            all.iter()
                .any(|l| l.starts_with(&e.term) && l.contains(&e.text)),
            "{} is on the help screen with its text",
            e.term
        );
    }
    let headings: Vec<&str> = sections.iter().map(|(h, _)| h.as_str()).collect();
    for h in [
        "Pools",
        "Stats",
        "Conditions",
        "Maneuvers",
        "Attack types",
        "Actions",
        "Terms",
    ] {
        assert!(headings.contains(&h), "{h} in {headings:?}");
    }
}

#[test]
fn gui_f2_shows_the_squares_the_opponents_threaten_and_hides_them_again() {
    let mut app = battle_app("human,ai");
    assert!(!app.world().resource::<BattleUi>().threats);
    tap(&mut app, KeyCode::F2);
    assert!(app.world().resource::<BattleUi>().threats);
    // The squares come from the core, for the side that looks at the board.
    let (melee, ranged) = app
        .world_mut()
        .resource_scope(|world, mut cache: Mut<ThreatCache>| {
            let mut s = world.resource_mut::<Session>();
            let map = cache.get(&mut s).clone();
            let viewer = s.viewer().expect("one person plays");
            assert_eq!(map, s.battle.threat_map(viewer));
            (map.melee.len(), map.ranged.len())
        });
    assert!(melee > 0 && ranged > 0, "melee {melee}, ranged {ranged}");
    tap(&mut app, KeyCode::F2);
    assert!(!app.world().resource::<BattleUi>().threats);
}

/// The threat map the window would draw now, checked against a fresh one from the core.
fn drawn_threats(app: &mut App) -> gridclash::battle::threats::ThreatMap {
    app.world_mut()
        .resource_scope(|world, mut cache: Mut<ThreatCache>| {
            let mut s = world.resource_mut::<Session>();
            let viewer = s.viewer().expect("one person plays");
            let fresh = s.battle.threat_map(viewer);
            let cached = cache.get(&mut s).clone();
            assert_eq!(cached, fresh, "the overlay shows the battle as it is now");
            cached
        })
}

#[test]
fn gui_threat_overlay_follows_the_battle_as_the_computer_moves() {
    // War's 32×32 map is wide enough that the opponents' reach changes as they move.
    let mut app = scenario_app("war", 1, "human,ai");
    let before = drawn_threats(&mut app);
    let mut changed = false;
    for _ in 0..30 {
        // End the person's turn, or answer the computer's attack, until its unit has moved.
        let asked = session(&mut app).battle.awaiting().is_some();
        tap(&mut app, if asked { KeyCode::KeyD } else { KeyCode::KeyT });
        if drawn_threats(&mut app) != before {
            changed = true;
            break;
        }
    }
    assert!(changed, "the computer's unit moved, and its threat with it");
}

#[test]
fn gui_pause_menu_opens_the_settings_and_leaving_them_goes_back_to_the_battle() {
    let mut app = battle_app("human,ai");
    let commands = session(&mut app).battle.history().len();
    tap(&mut app, KeyCode::Escape);
    // Resume, Save, Load, Settings.
    for _ in 0..3 {
        tap(&mut app, KeyCode::ArrowDown);
    }
    tap(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Settings);
    tap(&mut app, KeyCode::Escape);
    app.update();
    assert_eq!(screen(&app), Screen::Battle);
    assert_eq!(session(&mut app).battle.history().len(), commands);
    assert!(!app.world().resource::<BattleUi>().paused);
}

#[test]
fn gui_settings_turn_the_hit_flash_and_the_screen_shake_off_and_on() {
    let mut s = Settings::default();
    assert!(s.hit_flash && s.screen_shake, "both on by default");
    change(&mut s, SettingsRow::HitFlash, 1);
    change(&mut s, SettingsRow::ScreenShake, -1);
    assert!(!s.hit_flash && !s.screen_shake);
    assert!(label(&s, SettingsRow::HitFlash, None).contains("off"));
    assert!(label(&s, SettingsRow::ScreenShake, None).contains("off"));
    change(&mut s, SettingsRow::ScreenShake, 1);
    assert!(s.screen_shake);
    // A settings file from before these rows still reads, with both on.
    let old: Settings = ron::from_str("(animation_speed: 2.0)").expect("old settings read");
    assert!(old.hit_flash && old.screen_shake);
}

#[test]
fn gui_settings_switch_camera_following_and_step_through_the_window_modes() {
    let mut s = Settings::default();
    assert!(s.camera_follow);
    change(&mut s, SettingsRow::CameraFollow, 1);
    assert!(!s.camera_follow);
    assert!(label(&s, SettingsRow::CameraFollow, None).contains("only my hand"));
    assert_eq!(s.window_mode, WindowChoice::Windowed);
    change(&mut s, SettingsRow::WindowMode, 1);
    assert_eq!(s.window_mode, WindowChoice::Borderless);
    change(&mut s, SettingsRow::WindowMode, -1);
    change(&mut s, SettingsRow::WindowMode, -1);
    assert_eq!(s.window_mode, WindowChoice::Fullscreen);
    assert!(label(&s, SettingsRow::WindowMode, None).contains("fullscreen"));
}

#[test]
fn gui_settings_written_before_the_window_settings_still_load() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("settings.ron");
    std::fs::write(&path, "(ui_scale: 1.2, muted: true)").expect("written");
    let s = gridclash::gui::settings::load(&path).expect("an older file loads");
    assert_eq!(s.window_mode, WindowChoice::Windowed);
    assert_eq!(s.window_size, None);
    assert!(s.camera_follow);
    assert!(s.muted);
}

#[test]
fn gui_a_refusal_in_a_24_unit_battle_names_combatant_twelve_not_one_followed_by_two() {
    use gridclash::battle::command::Command;
    let mut app = scenario_app("war", 1, "human,ai");
    let mut s = session(&mut app);
    assert_eq!(s.battle.fighters().len(), 24);
    let active = s.battle.active().expect("someone acts");
    // Somebody with a two-digit id whose turn it is not.
    let other = s
        .battle
        .fighters()
        .into_iter()
        .map(|f| f.id)
        .find(|id| id.0 >= 10 && *id != active)
        .expect("a two-digit id");
    let e = s
        .battle
        .submit(Command::EndTurn { who: other })
        .expect_err("not its turn");
    let text = s.describe_error(&e);
    assert_eq!(
        text,
        format!(
            "it is {}'s turn, not {}'s",
            s.names[&active], s.names[&other]
        ),
    );
    // Duplicate names carry their id ("Gunner #20 (East Banner)"), so `#` may remain; what
    // must not appear is the name of #1 standing in for the start of a two-digit id.
    let one = gridclash::battle::components::CombatantId(1);
    if active != one && other != one {
        assert!(!text.contains(&s.names[&one]), "{text}");
    }
}

/// The unit a person plays now.
fn acting(app: &mut App) -> gridclash::battle::components::CombatantId {
    session(app)
        .human_to_act()
        .map(|(who, _, _)| who)
        .expect("a person acts")
}

#[test]
fn gui_a_click_with_nothing_chosen_moves_the_unit_to_a_lit_square() {
    use gridclash::gui::session::Intent;
    let mut app = battle_app("human,ai");
    let who = acting(&mut app);
    assert_eq!(session(&mut app).intent, Intent::Idle);
    let to = {
        let mut s = session(&mut app);
        let reach = s.battle.move_options(who, false);
        *reach.keys().last().expect("somewhere to go")
    };
    crate::gui_app::click_at(&mut app, to);
    let mut s = session(&mut app);
    assert_eq!(s.battle.fighter(who).and_then(|f| f.position), Some(to));
    assert_eq!(s.intent, Intent::Idle);
}

#[test]
fn gui_a_click_on_an_opponent_aims_and_a_second_click_attacks_with_the_mouse_alone() {
    use gridclash::battle::event::BattleEvent;
    use gridclash::gui::session::Intent;
    let mut app = battle_app("human,ai");
    let who = acting(&mut app);
    let (target, at) = {
        let mut s = session(&mut app);
        let side = s.battle.fighter(who).expect("the unit").side;
        s.fighters()
            .into_iter()
            .find(|f| f.side != side && f.position.is_some())
            .map(|f| (f.id, f.position.expect("on the map")))
            .expect("an opponent")
    };
    crate::gui_app::click_at(&mut app, at);
    {
        let mut s = session(&mut app);
        assert!(matches!(s.intent, Intent::Attack { .. }), "{:?}", s.intent);
        let aim = s.aim(Some(at)).expect("aimed");
        assert!(
            aim.preview.is_ok(),
            "the odds show: {:?}",
            aim.preview.err()
        );
        assert!(
            s.notice
                .as_deref()
                .unwrap_or("")
                .contains("click again to attack")
        );
    }
    let before = session(&mut app).battle.events().len();
    crate::gui_app::click_at(&mut app, at);
    let s = session(&mut app);
    let attacked = s.battle.events()[before..].iter().any(|e| {
        matches!(e, BattleEvent::AttackDeclared { attacker, targets, .. }
            if *attacker == who && targets.contains(&target))
    });
    assert!(attacked, "the second click attacks");
    assert_eq!(
        s.intent,
        Intent::Idle,
        "nothing stays chosen after a clicked attack"
    );
}

#[test]
fn gui_a_click_on_an_empty_square_out_of_reach_says_why_and_changes_nothing() {
    let mut app = battle_app("human,ai");
    let who = acting(&mut app);
    let (far, commands) = {
        let mut s = session(&mut app);
        let reach = s.battle.move_options(who, false);
        let map = s.battle.map().clone();
        let far = (0..map.height as i32)
            .flat_map(|y| (0..map.width as i32).map(move |x| gridclash::grid::Square::new(x, y)))
            .find(|sq| {
                !reach.contains_key(sq)
                    && s.battle.fighters().iter().all(|f| f.position != Some(*sq))
            })
            .expect("a square out of reach");
        (far, s.battle.history().len())
    };
    crate::gui_app::click_at(&mut app, far);
    let s = session(&mut app);
    assert_eq!(s.battle.history().len(), commands);
    assert!(
        s.notice
            .as_deref()
            .unwrap_or("")
            .contains("click a lit square"),
        "{:?}",
        s.notice
    );
}

/// The guided first battle: the prompt shown follows what the player does (Enter reads on
/// from the welcome, a click on a lit square teaches the move, a click on a Grunt the aim),
/// and another battle starts the guide again.
#[test]
fn gui_guide_prompts_follow_the_player_through_the_first_battle() {
    use gridclash::grid::Square;
    use gridclash::gui::guide::GuideRun;
    let mut app = scenario_app("first-dbu", 1, "human,ai:easy");
    app.update();
    let shown = |app: &App| app.world().resource::<GuideRun>().shown;
    assert_eq!(shown(&app), Some(0), "the welcome");
    tap(&mut app, KeyCode::Enter);
    assert_eq!(shown(&app), Some(1), "Enter read on: the move");
    crate::gui_app::click_at(&mut app, Square::new(5, 3));
    app.update();
    assert_eq!(shown(&app), Some(2), "the click moved Kaito: aim next");
    let foe = {
        let mut s = app.world_mut().resource_mut::<Session>();
        let fighters = s.fighters();
        fighters
            .iter()
            .find(|f| f.identity.name == "Bruno")
            .and_then(|f| f.position)
            .expect("Bruno stands on the board")
    };
    crate::gui_app::click_at(&mut app, foe);
    app.update();
    assert_eq!(shown(&app), Some(3), "aimed at Bruno: attack next");
    let run = app.world().resource::<GuideRun>();
    assert_eq!(run.progress.learned(), 3);
}

/// The UI scale follows the window by default (its height over 720, rounded to 10 %, 100 % to
/// 200 %), so 1080p reads like 720p; a fixed scale from the settings wins over the window.
#[test]
fn gui_ui_scale_follows_the_window_height_unless_the_settings_fix_it() {
    use bevy::window::{PrimaryWindow, WindowResolution};
    use gridclash::gui::settings::AUTO_UI_SCALE;
    let auto = Settings::default();
    assert_eq!(auto.ui_scale, AUTO_UI_SCALE, "automatic is the default");
    assert_eq!(auto.ui_scale_for(720.0), 1.0);
    assert_eq!(auto.ui_scale_for(1080.0), 1.5);
    assert_eq!(
        auto.ui_scale_for(1060.0),
        1.5,
        "a window a little short of 1080p"
    );
    assert_eq!(auto.ui_scale_for(600.0), 1.0, "never below 100 %");
    assert_eq!(auto.ui_scale_for(2160.0), 2.0, "never above 200 %");
    let mut app = app(Default::default());
    let window = app
        .world_mut()
        .spawn((
            Window {
                resolution: WindowResolution::new(1920, 1080),
                ..default()
            },
            PrimaryWindow,
        ))
        .id();
    app.update();
    assert_eq!(app.world().resource::<UiScale>().0, 1.5);
    app.world_mut()
        .entity_mut(window)
        .get_mut::<Window>()
        .expect("the window")
        .resolution = WindowResolution::new(1280, 720);
    app.update();
    assert_eq!(
        app.world().resource::<UiScale>().0,
        1.0,
        "it follows a resize"
    );
    app.world_mut().resource_mut::<Settings>().ui_scale = 1.4;
    app.update();
    assert_eq!(
        app.world().resource::<UiScale>().0,
        1.4,
        "a fixed scale wins"
    );
    assert!(
        label(
            &app.world().resource::<Settings>().clone(),
            SettingsRow::UiScale,
            None
        )
        .contains("140%")
    );
    app.world_mut().resource_mut::<Settings>().ui_scale = AUTO_UI_SCALE;
    assert!(
        label(
            &app.world().resource::<Settings>().clone(),
            SettingsRow::UiScale,
            None
        )
        .contains("auto")
    );
}
