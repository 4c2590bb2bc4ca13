//! The battle screen's controls: turns player actions into commands for the active human
//! unit, answers prompts (Dodge or Parry, Exploit), paces the computer's turns, and passes
//! the board between hot-seat players. No drawing here: headless app tests run these systems.

use bevy::prelude::*;

use super::input::{CursorSquare, GameAction, PlayerInput};
use super::load_screen::LoadMenu;
use super::session::{Intent, ReplayPlayer, Session};
use super::view::BattleView;
use super::{DataDir, Screen};
use crate::battle::command::{Command, Decision, DefenseChoice, SurgeKind};
use crate::grid::{Dir8, Square};

mod maneuvers;
mod saving;

use saving::{
    autosave_each_round, default_slot_name, quick_save_and_load, save_to_slot, type_save_name,
};

pub use super::pace::Pace;

/// The pause menu's page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum PauseMenu {
    /// Resume, save, load, title, quit.
    #[default]
    Main,
    /// Typing the name of the slot to save to.
    Save { name: String },
}

/// The entries of the pause menu's main page, in order.
pub const PAUSE_ENTRIES: [&str; 6] = [
    "Resume",
    "Save",
    "Load",
    "Settings",
    "Back to title",
    "Quit",
];

/// Battle-screen state that is not the battle's: the pause menu, the log's detail, the delay
/// before the end screen.
#[derive(Resource, Debug, Clone, Default)]
pub struct BattleUi {
    /// The pause menu is open: the battle ignores other input.
    pub paused: bool,
    /// The highlighted pause-menu entry (see [`PAUSE_ENTRIES`]).
    pub pause_choice: usize,
    /// The pause menu's page.
    pub menu: PauseMenu,
    /// The highlighted entry was clicked: taken as Enter by the pause menu this frame.
    pub pause_clicked: bool,
    /// Every roll in the log shows its dice and modifiers.
    pub log_expanded: bool,
    /// The enemy threat overlay is shown.
    pub threats: bool,
    /// How many lines the log is scrolled back from its newest (0: following the battle).
    pub log_back: usize,
    /// Which lines the log shows.
    pub log_filter: super::hud::log_filter::LogFilter,
    /// Seconds the finished battle has stayed on screen.
    pub finished_for: f32,
    /// A system earlier in this frame's chain acted on the input (pause, pause menu,
    /// hand-off): later ones ignore it, so one key press never does two things.
    pub input_used: bool,
}

/// The battle screen's controls, in order; drawing runs after them and reads their result.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BattleControls;

/// Seconds the last blow stays on screen before the end-of-battle screen.
pub const END_SCREEN_DELAY: f32 = 1.5;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Pace>()
        .init_resource::<BattleUi>()
        .init_resource::<BattleView>()
        .add_systems(OnEnter(Screen::Battle), reset_battle_ui)
        .add_systems(
            Update,
            (
                toggle_pause,
                toggle_log_detail,
                type_save_name,
                choose_in_pause_menu,
                quick_save_and_load,
                confirm_handoff,
                answer_prompt,
                command_active_unit,
                move_cursor_with_pad,
                play_computer_turns,
                control_replay,
                autosave_each_round,
                finish_battle,
            )
                .chain()
                .in_set(BattleControls)
                .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        );
}

/// A new battle starts clean: no pause, no cursor left over from the last map.
fn reset_battle_ui(
    mut ui: ResMut<BattleUi>,
    mut pace: ResMut<Pace>,
    mut cursor: ResMut<CursorSquare>,
) {
    *ui = BattleUi::default();
    pace.skipping = false;
    cursor.0 = None;
}

fn toggle_pause(input: PlayerInput, mut ui: ResMut<BattleUi>, mut session: ResMut<Session>) {
    let profile = session.input_profile();
    let Some(actions) = input.of(profile) else {
        return;
    };
    // First in the chain: this frame's input is fresh.
    ui.input_used = false;
    // The hand-off cover hides the board: the next player confirms before anything else.
    if session.handoff.is_some() {
        return;
    }
    let idle = session.intent == Intent::Idle;
    if ui.paused && ui.menu != PauseMenu::Main && actions.just_pressed(&GameAction::Cancel) {
        // Esc on a page of the menu goes back to its first page.
        ui.menu = PauseMenu::Main;
        ui.input_used = true;
        return;
    }
    if actions.just_pressed(&GameAction::Pause)
        || (actions.just_pressed(&GameAction::Cancel)
            && idle
            && !ui.paused
            && (session.battle.awaiting().is_none() || session.replay.is_some()))
    {
        ui.paused = !ui.paused;
        ui.pause_choice = 0;
        ui.menu = PauseMenu::Main;
        ui.input_used = true;
    } else if ui.paused && actions.just_pressed(&GameAction::Cancel) {
        ui.paused = false;
        ui.input_used = true;
    }
}

/// L shows every roll in the log with its dice and modifiers, or the short form again; `[`
/// and `]` scroll it back to older lines and forward again.
fn toggle_log_detail(input: PlayerInput, mut ui: ResMut<BattleUi>, session: Res<Session>) {
    let Some(actions) = input.any() else {
        return;
    };
    // While a slot name is typed, L is a letter.
    if ui.menu != PauseMenu::Main {
        return;
    }
    if actions.just_pressed(&GameAction::ToggleLog) {
        ui.log_expanded = !ui.log_expanded;
    }
    if actions.just_pressed(&GameAction::LogOlder) {
        ui.log_back = (ui.log_back + 3).min(session.battle.events().len());
    }
    if actions.just_pressed(&GameAction::LogNewer) {
        ui.log_back = ui.log_back.saturating_sub(3);
    }
}

/// Where the pause menu can take the player: another screen (with the resource it opens on)
/// or out of the game.
#[derive(bevy::ecs::system::SystemParam)]
struct Leave<'w, 's> {
    commands: Commands<'w, 's>,
    next: ResMut<'w, NextState<Screen>>,
    exit: MessageWriter<'w, AppExit>,
}

fn choose_in_pause_menu(
    input: PlayerInput,
    keys: Res<ButtonInput<KeyCode>>,
    mut ui: ResMut<BattleUi>,
    mut session: ResMut<Session>,
    dir: Res<DataDir>,
    leave: Leave,
) {
    let Leave {
        mut commands,
        mut next,
        mut exit,
    } = leave;
    let Some(actions) = input.any() else {
        return;
    };
    if !ui.paused || ui.input_used {
        return;
    }
    if let PauseMenu::Save { name } = &ui.menu {
        // Space types a space here; Enter (or a gamepad's Start) saves.
        if actions.just_pressed(&GameAction::Confirm) && !keys.just_pressed(KeyCode::Space) {
            let name = name.trim().to_string();
            ui.input_used = true;
            match save_to_slot(&session, &dir, &name) {
                Ok(()) => {
                    session.notice = Some(format!("saved to slot \"{name}\""));
                    ui.menu = PauseMenu::Main;
                    ui.paused = false;
                }
                Err(e) => session.notice = Some(e),
            }
        }
        return;
    }
    let n = PAUSE_ENTRIES.len();
    if actions.just_pressed(&GameAction::Down) {
        ui.pause_choice = (ui.pause_choice + 1) % n;
    }
    if actions.just_pressed(&GameAction::Up) {
        ui.pause_choice = (ui.pause_choice + n - 1) % n;
    }
    if actions.just_pressed(&GameAction::Confirm) || std::mem::take(&mut ui.pause_clicked) {
        ui.input_used = true;
        match PAUSE_ENTRIES.get(ui.pause_choice).copied() {
            Some("Resume") => ui.paused = false,
            Some("Save") if session.replay.is_some() => {
                session.notice = Some("a replay is not saved: it is already a file".into());
            }
            Some("Save") => {
                session.notice = None;
                ui.menu = PauseMenu::Save {
                    name: default_slot_name(&mut session),
                };
            }
            Some("Load") => {
                commands.insert_resource(LoadMenu::read(&dir.0, true));
                next.set(Screen::Load);
            }
            Some("Settings") => {
                commands.insert_resource(super::settings_screen::SettingsMenu {
                    from_battle: true,
                    ..default()
                });
                next.set(Screen::Settings);
            }
            Some("Back to title") => next.set(Screen::Title),
            _ => {
                exit.write(AppExit::Success);
            }
        }
    }
}

fn confirm_handoff(input: PlayerInput, mut session: ResMut<Session>, mut ui: ResMut<BattleUi>) {
    let profile = session.input_profile();
    let Some(actions) = input.of(profile) else {
        return;
    };
    if ui.paused || ui.input_used || session.handoff.is_none() {
        return;
    }
    if actions.just_pressed(&GameAction::Confirm) || actions.just_pressed(&GameAction::Select) {
        session.confirm_handoff();
        ui.input_used = true;
    }
}

/// Answers the question the battle asks a human unit: Dodge or Parry, Exploit or not.
fn answer_prompt(
    input: PlayerInput,
    mut session: ResMut<Session>,
    ui: Res<BattleUi>,
    buttons: Query<&Interaction, With<Button>>,
) {
    let profile = session.input_profile();
    let Some(actions) = input.of(profile) else {
        return;
    };
    if ui.paused || ui.input_used || session.handoff.is_some() {
        return;
    }
    let Some((who, Some(decision), _)) = session.human_to_act() else {
        return;
    };
    let pressed = |a: GameAction| actions.just_pressed(&a);
    // A click on a button (the bar's "let it go") is the mouse's Select too: it answers only
    // through the button's own action.
    let on_button = buttons.iter().any(|i| *i == Interaction::Pressed);
    let select = pressed(GameAction::Select) && !on_button;
    let cmd = match decision {
        Decision::Defense { defender, .. } => {
            let offers = session.battle.offers();
            let shinobi = offers.parry_is_block;
            if offers.deflect && pressed(GameAction::Counter) {
                session.counter = !session.counter;
            }
            // d20, against a shot from beyond melee range: take it (the Dodge key), dive for
            // cover (the Parry key) or drop prone (the Deflect key).
            let answering = pressed(GameAction::Dodge)
                || pressed(GameAction::Parry)
                || pressed(GameAction::Deflect);
            let answers: Vec<DefenseChoice> = if answering {
                session
                    .battle
                    .defense_odds()
                    .map(|v| v.iter().map(|o| o.defense).collect())
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            let offered = |c: DefenseChoice| answers.contains(&c);
            let shot = offered(DefenseChoice::Take);
            let choice = if shot && pressed(GameAction::Dodge) {
                Some(DefenseChoice::Take)
            } else if shot && pressed(GameAction::Parry) {
                offered(DefenseChoice::Dive).then_some(DefenseChoice::Dive)
            } else if shot && pressed(GameAction::Deflect) {
                offered(DefenseChoice::DropProne).then_some(DefenseChoice::DropProne)
            } else if pressed(GameAction::Dodge) && offered(DefenseChoice::Resist) {
                // Shinobi, against a Genjutsu: Gen Resist is the only answer, on the Dodge key.
                Some(DefenseChoice::Resist)
            } else if pressed(GameAction::Dodge) {
                Some(DefenseChoice::Dodge)
            } else if pressed(GameAction::Parry) {
                Some(if shinobi {
                    DefenseChoice::Block
                } else {
                    DefenseChoice::Parry
                })
            } else if pressed(GameAction::Deflect) && offers.deflect {
                Some(DefenseChoice::Deflect)
            } else if pressed(GameAction::Deflect) && offered(DefenseChoice::Reflect) {
                Some(DefenseChoice::Reflect)
            } else {
                None
            };
            let counter = if session.counter && choice.is_some() {
                session.battle.counter_preview().map(|p| p.counter.id)
            } else {
                None
            };
            if choice.is_some() {
                // A counter is armed for one answer only.
                session.counter = false;
            }
            choice.map(|choice| Command::Defend {
                defender,
                choice,
                counter,
            })
        }
        Decision::Exploit { mover, .. } => {
            if pressed(GameAction::Confirm) || select {
                let order = session.battle.best_attack_on(who, mover);
                if order.is_none() {
                    session.notice =
                        Some("no Basic Attack can hit the mover now: the Exploit is let go".into());
                }
                Some(Command::Exploit { who, order })
            } else if pressed(GameAction::Cancel) {
                Some(Command::Exploit { who, order: None })
            } else {
                None
            }
        }
        Decision::Intercede { .. } => {
            if pressed(GameAction::Confirm) || select {
                Some(Command::Intercede { who, accept: true })
            } else if pressed(GameAction::Cancel) {
                Some(Command::Intercede { who, accept: false })
            } else {
                None
            }
        }
        Decision::Response { .. } => {
            if pressed(GameAction::Confirm) || select {
                Some(Command::Respond {
                    who,
                    surge: Some(SurgeKind::Healing),
                })
            } else if pressed(GameAction::Cancel) {
                Some(Command::Respond { who, surge: None })
            } else {
                None
            }
        }
    };
    if let Some(cmd) = cmd {
        let _ = session.submit(cmd);
    }
}

/// The active human unit's turn: choose a maneuver, aim it, give the command.
fn command_active_unit(
    input: PlayerInput,
    cursor: Res<CursorSquare>,
    mut session: ResMut<Session>,
    ui: Res<BattleUi>,
) {
    let profile = session.input_profile();
    let Some(actions) = input.of(profile) else {
        return;
    };
    if ui.paused || ui.input_used || session.handoff.is_some() {
        return;
    }
    let Some((who, None, _)) = session.human_to_act() else {
        return;
    };
    let pressed = |a: GameAction| actions.just_pressed(&a);
    if pressed(GameAction::Move) {
        session.intent = match session.intent {
            Intent::Move { boosted: false } => Intent::Idle,
            _ => Intent::Move { boosted: false },
        };
    }
    // A ruleset's own maneuvers (DBU's Boosted moves, Power Up and Combat Recovery; the
    // ninja chapter's sneak attack): elsewhere their keys do nothing.
    let offers = session.battle.offers();
    if pressed(GameAction::Sneak) && offers.sneak {
        session.sneak = !session.sneak;
    }
    // d20: the same key chooses a foe to feint at.
    if pressed(GameAction::Sneak)
        && (matches!(session.intent, Intent::Feint)
            || session.battle.bar_view(who).is_some_and(|b| b.feint))
    {
        session.intent = match session.intent {
            Intent::Feint => Intent::Idle,
            _ => Intent::Feint,
        };
    }
    if pressed(GameAction::CalledShot) {
        session.cycle_called_shot();
    }
    if pressed(GameAction::UnitedAttack) {
        session.cycle_united();
    }
    if pressed(GameAction::Empower)
        && let Some(bar) = session.battle.bar_view(who)
        && (bar.empower || matches!(session.intent, Intent::Empower { .. }))
    {
        let usable = session
            .battle
            .fighter(who)
            .map_or(0, |f| f.actions.usable());
        session.intent = session.next_empower(session.intent, usable);
    }
    if pressed(GameAction::Grapple)
        && let Some(bar) = session.battle.bar_view(who)
        && (!bar.grapple.is_empty() || matches!(session.intent, Intent::Grapple { .. }))
    {
        session.intent = Session::next_grapple(session.intent, &bar.grapple);
    }
    if pressed(GameAction::Hide)
        && session
            .battle
            .bar_view(who)
            .is_some_and(|b| b.hide.is_some())
    {
        let _ = session.submit(Command::Hide { who });
    }
    if offers.boosted_move && pressed(GameAction::BoostedMove) {
        session.intent = match session.intent {
            Intent::Move { boosted: true } => Intent::Idle,
            _ => Intent::Move { boosted: true },
        };
    }
    // The ninja chapter's second kind of move has the Boosted move's key (no ruleset has both).
    if offers.jump && pressed(GameAction::BoostedMove) {
        session.intent = match session.intent {
            Intent::Jump => Intent::Idle,
            _ => Intent::Jump,
        };
    }
    let choosing = GameAction::SLOTS
        .into_iter()
        .chain([GameAction::NextSlot, GameAction::PrevSlot])
        .any(pressed);
    let wagering = pressed(GameAction::WagerUp) || pressed(GameAction::WagerDown);
    // Asking the rules for the maneuvers costs a check each: only when one is being chosen.
    if choosing {
        let slots = session.slots().len();
        for action in GameAction::SLOTS {
            if let Some(slot) = action.slot()
                && pressed(action)
                && slot < slots
            {
                session.intent = Intent::Attack { slot };
            }
        }
        if slots > 0 && (pressed(GameAction::NextSlot) || pressed(GameAction::PrevSlot)) {
            let step = if pressed(GameAction::NextSlot) {
                1
            } else {
                slots - 1
            };
            session.intent = match session.intent {
                Intent::Attack { slot } => Intent::Attack {
                    slot: (slot + step) % slots,
                },
                _ => Intent::Attack { slot: 0 },
            };
        }
    }
    // The wager keys choose the card a Final Physical Attack discards (power stages, which
    // has no wagers), else the wager.
    if pressed(GameAction::WagerUp) && !session.step_discard(1) {
        session.wager += 1;
    }
    if pressed(GameAction::WagerDown) && !session.step_discard(-1) {
        session.wager -= 1;
    }
    if choosing || wagering {
        session.clamp_wager();
    }
    // A Skill Check on the ground: for an action; pressed again, the other way (Digimon: the
    // free Interrupt; d20: Taking 10); pressed a third time, off.
    if pressed(GameAction::UseSkill) {
        use crate::battle::command::SkillWay;
        let other = offers.skill_ways.get(1).map(|(way, _)| *way);
        if let Some(other) = other {
            session.intent = match session.intent {
                Intent::Skill {
                    way: SkillWay::Action,
                } => Intent::Skill { way: other },
                Intent::Skill { .. } => Intent::Idle,
                _ => Intent::Skill {
                    way: SkillWay::Action,
                },
            };
        }
    }
    if pressed(GameAction::Rotate) {
        let i = Dir8::ALL
            .iter()
            .position(|d| *d == session.facing)
            .unwrap_or(0);
        session.facing = Dir8::ALL[(i + 1) % 8];
    }
    if pressed(GameAction::Cancel) {
        session.intent = Intent::Idle;
    }
    if pressed(GameAction::Undo) {
        session.undo();
        return;
    }
    if pressed(GameAction::Redo) {
        session.redo();
        return;
    }
    let command = if offers.power_up && pressed(GameAction::PowerUp) {
        Some(Command::PowerUp { who })
    } else if offers.power_up && pressed(GameAction::Recover) {
        let actions = session.battle.rules().actions.combat_recovery.min_actions;
        Some(Command::Recover { who, actions })
    } else if pressed(GameAction::EndTurn) {
        Some(Command::EndTurn { who })
    } else if pressed(GameAction::HandOver) {
        // Digimon: the shared turn to the partner; d20: the turn delayed (one key, no
        // ruleset has both).
        let delay = Command::Delay { who };
        if session.battle.check(&delay).is_ok() {
            Some(delay)
        } else {
            Some(Command::HandOver { who })
        }
    } else if pressed(GameAction::Digivolve) {
        maneuvers::digivolve_command(&mut session, who)
    } else if pressed(GameAction::Fly) {
        maneuvers::fly_command(&mut session, who)
    } else if pressed(GameAction::DropProne) {
        Some(Command::DropProne { who })
    } else if pressed(GameAction::DiveForCover) {
        Some(Command::DiveForCover { who })
    } else if pressed(GameAction::StandUp) {
        Some(Command::StandUp { who })
    } else if pressed(GameAction::CurePoison) {
        Some(Command::CurePoison { who })
    } else if pressed(GameAction::EnergyCharge) {
        maneuvers::charge_command(&mut session, who)
    } else if pressed(GameAction::CancelCharge) {
        Some(Command::CancelCharge { who })
    } else if pressed(GameAction::ArrogantDeclaration) {
        Some(Command::ArrogantDeclaration { who })
    } else if pressed(GameAction::EndCondition) {
        // The condition the action bar names.
        session
            .battle
            .bar_view(who)
            .and_then(|b| b.end_condition)
            .map(|(condition, _)| Command::EndCondition { who, condition })
    } else if pressed(GameAction::Select) {
        cursor
            .0
            .and_then(|square| order_at(&mut session, who, square))
    } else {
        None
    };
    if let Some(cmd) = command
        && session.submit(cmd).is_ok()
        && (matches!(
            session.intent,
            Intent::Move { .. }
                | Intent::Jump
                | Intent::Skill { .. }
                | Intent::Empower { .. }
                | Intent::Grapple { .. }
                | Intent::Feint
        ) || std::mem::take(&mut session.aimed_by_click))
    {
        session.intent = Intent::Idle;
    }
}

/// The command a click on `square` gives in the current intent.
fn order_at(
    session: &mut Session,
    who: crate::battle::components::CombatantId,
    square: Square,
) -> Option<Command> {
    match session.intent {
        Intent::Idle => super::mouse::click_with_nothing_chosen(session, who, square),
        Intent::Skill { way } => Some(Command::UseSkill {
            who,
            at: square,
            way,
        }),
        Intent::Move { boosted } => match session.battle.path_to(who, square, boosted) {
            Some(path) => Some(Command::Move { who, path, boosted }),
            None => {
                session.notice = Some(format!(
                    "{square} cannot be reached with this move{}",
                    if boosted {
                        ""
                    } else {
                        " (Boosted Speed goes further)"
                    }
                ));
                None
            }
        },
        Intent::Jump => match session.battle.jump_options(who).remove(&square) {
            Some(path) => Some(Command::Jump { who, path }),
            None => {
                let reach = session
                    .battle
                    .fighter(who)
                    .and_then(|me| crate::battle::movement::jump_reach(session.battle.rules(), &me))
                    .map_or(String::new(), |(_, words)| format!(" ({words})"));
                session.notice = Some(format!("{square} cannot be reached with a jump{reach}"));
                None
            }
        },
        Intent::Empower { actions, full } => {
            let offers = session.battle.empower_offers(who, actions, full);
            let Some(o) = offers
                .iter()
                .find(|o| stands_on(session, o.ally, o.at, square))
            else {
                session.notice = Some(format!("{square}: no ally to Empower there"));
                return None;
            };
            if let Some(why) = &o.refusal {
                session.notice = Some(format!("Empower {}: {why}", o.name));
                return None;
            }
            Some(Command::Empower {
                who,
                ally: o.ally,
                actions,
                full,
            })
        }
        Intent::Grapple { act } => {
            let offers = session.battle.grapple_offers(who, act);
            let Some(o) = offers
                .iter()
                .find(|o| stands_on(session, o.target, o.at, square))
            else {
                session.notice = Some(format!("{square}: no opponent to {} there", act.name()));
                return None;
            };
            if let Some(why) = &o.refusal {
                session.notice = Some(format!("{} {}: {why}", act.name(), o.name));
                return None;
            }
            Some(Command::Grapple {
                who,
                target: o.target,
                act,
            })
        }
        Intent::Feint => {
            let Some(target) = session.fighter_at(square).map(|f| f.id) else {
                session.notice = Some(format!("{square}: no foe to feint at there"));
                return None;
            };
            Some(Command::Feint { who, target })
        }
        Intent::Attack { slot } => {
            let slot = session.slots().get(slot)?.clone();
            if let Some(e) = &slot.refusal {
                session.notice = Some(format!("{}: {}", slot.name, session.describe_error(e)));
                return None;
            }
            session.aimed_order(&slot, square).map(Command::Attack)
        }
    }
}

/// The gamepad's d-pad moves the cursor one square (the mouse sets it by pointing).
fn move_cursor_with_pad(
    input: PlayerInput,
    mut cursor: ResMut<CursorSquare>,
    mut session: ResMut<Session>,
    ui: Res<BattleUi>,
) {
    let profile = session.input_profile();
    let Some(actions) = input.of(profile) else {
        return;
    };
    if ui.paused {
        return;
    }
    let (mut dx, mut dy) = (0, 0);
    if actions.just_pressed(&GameAction::CursorLeft) {
        dx -= 1;
    }
    if actions.just_pressed(&GameAction::CursorRight) {
        dx += 1;
    }
    if actions.just_pressed(&GameAction::CursorUp) {
        dy -= 1;
    }
    if actions.just_pressed(&GameAction::CursorDown) {
        dy += 1;
    }
    if (dx, dy) == (0, 0) {
        return;
    }
    let start = cursor.0.or_else(|| {
        let who = session.battle.active()?;
        session.battle.fighter(who)?.position
    });
    if let Some(s) = start {
        let next = Square::new(s.x + dx, s.y + dy);
        if session.battle.map().bounds().contains(next) {
            cursor.0 = Some(next);
        }
    }
}

/// Plays the computer's commands one at a time, at the pace setting, or all at once after
/// "skip ahead" until a person must decide.
fn play_computer_turns(
    time: Res<Time>,
    input: PlayerInput,
    mut pace: ResMut<Pace>,
    mut session: ResMut<Session>,
    ui: Res<BattleUi>,
) {
    let Some(actions) = input.any() else {
        return;
    };
    if ui.paused
        || session.handoff.is_some()
        || session.battle.outcome().is_some()
        || session.replay.is_some()
    {
        return;
    }
    if actions.just_pressed(&GameAction::SkipAi) {
        pace.skipping = true;
    }
    if session.human_to_act().is_some() {
        pace.skipping = false;
        return;
    }
    session.ai_wait -= time.delta_secs();
    if session.ai_wait > 0.0 && !pace.skipping {
        return;
    }
    session.play_ai_command();
    session.ai_wait = pace.seconds_per_command;
}

/// The replay viewer: Space pauses and resumes, Tab steps one command while paused, +/-
/// change the speed; commands play at the chosen speed.
fn control_replay(
    time: Res<Time>,
    input: PlayerInput,
    mut session: ResMut<Session>,
    mut ui: ResMut<BattleUi>,
) {
    let Some(actions) = input.any() else {
        return;
    };
    let Some(replay) = &mut session.replay else {
        return;
    };
    if ui.paused || ui.input_used {
        return;
    }
    let pressed = |a: GameAction| actions.just_pressed(&a);
    if pressed(GameAction::Confirm) {
        replay.paused = !replay.paused;
        ui.input_used = true;
    }
    let speeds = ReplayPlayer::SPEEDS;
    let at = speeds
        .iter()
        .position(|s| (*s - replay.speed).abs() < 1e-3)
        .unwrap_or(2);
    // Not the arrows: they pan the map.
    if pressed(GameAction::WagerUp) {
        replay.speed = speeds[(at + 1).min(speeds.len() - 1)];
    }
    if pressed(GameAction::WagerDown) {
        replay.speed = speeds[at.saturating_sub(1)];
    }
    let step = pressed(GameAction::NextSlot);
    if replay.paused {
        if step {
            session.play_replay_command();
        }
        return;
    }
    session.ai_wait -= time.delta_secs();
    if session.ai_wait <= 0.0 {
        let speed = session.replay.as_ref().map_or(1.0, |r| r.speed);
        session.play_replay_command();
        session.ai_wait = 1.0 / speed;
    }
}

/// Shows the end-of-battle screen a moment after the last blow.
fn finish_battle(
    time: Res<Time>,
    session: Res<Session>,
    mut ui: ResMut<BattleUi>,
    mut next: ResMut<NextState<Screen>>,
) {
    if session.battle.outcome().is_none() {
        return;
    }
    ui.finished_for += time.delta_secs();
    if ui.finished_for >= END_SCREEN_DELAY {
        next.set(Screen::End);
    }
}

/// Sets the UI scale the settings ask for, the automatic one following the window's height;
/// only a different value is written, as a new scale lays the whole UI out again.
pub(super) fn fit_ui_scale(
    settings: Res<super::Settings>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut ui_scale: ResMut<UiScale>,
) {
    let height = windows
        .single()
        .map_or(super::settings::AUTO_HEIGHT, |w| w.height());
    let wanted = settings.ui_scale_for(height);
    if (ui_scale.0 - wanted).abs() > f32::EPSILON {
        ui_scale.0 = wanted;
    }
}

/// Applies changed settings: the input map and the computer's pace (unless the command line
/// chose one for this run).
pub(super) fn apply_settings(
    settings: Res<super::Settings>,
    options: Res<super::PlayOptions>,
    mut maps: Query<(
        &super::input::Controls,
        &mut leafwing_input_manager::prelude::InputMap<GameAction>,
    )>,
    mut pace: ResMut<Pace>,
) {
    if !settings.is_changed() && !options.is_changed() {
        return;
    }
    for (controls, mut map) in &mut maps {
        let gamepad = map.gamepad();
        *map = super::input::profile_map(controls.0, &settings.keys);
        if let Some(g) = gamepad {
            map.set_gamepad(g);
        }
    }
    pace.seconds_per_command = options.ai_pace.unwrap_or(settings.ai_pace);
}

/// True when the unit `id`, standing at `at`, covers `square` (a large unit's whole footprint
/// answers a click).
fn stands_on(
    session: &mut Session,
    id: crate::battle::components::CombatantId,
    at: Option<Square>,
    square: Square,
) -> bool {
    at.is_some_and(|at| {
        session
            .battle
            .fighter(id)
            .is_some_and(|f| crate::grid::footprint(at, f.size.squares).contains(&square))
    })
}
