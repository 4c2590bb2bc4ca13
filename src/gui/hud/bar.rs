//! The action bar: what the acting unit can do now, with its key and cost, as entries the
//! window shows as buttons (a click gives the entry's action, hovering tells its cost or the
//! rule that refuses it).

use bevy::prelude::*;

use super::Keys;
use super::odds::{answer_action, answer_key};
use crate::battle::command::{Decision, DefenseChoice};
use crate::gui::icons::BarIcon;
use crate::gui::input::GameAction;
use crate::gui::session::{Intent, Session};
use crate::gui::view::BattleView;

/// One entry of the action bar: what it says (key, name, cost; `[..]` when chosen, `(..)`
/// when refused), the action a click on it gives, and what hovering it tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarItem {
    /// The words on the button, its key first.
    pub text: String,
    /// What a click gives, as the key would; `None` for a line of text that is no button.
    pub action: Option<GameAction>,
    /// What hovering tells: the cost, the odds of an answer, or the rule that refuses it.
    pub tip: String,
    /// The icon drawn before the words, if the entry has one.
    pub icon: Option<BarIcon>,
}

/// An entry a click on which gives `action`.
fn item(text: String, action: GameAction) -> BarItem {
    BarItem {
        tip: format!("Click or press: {text}"),
        text,
        action: Some(action),
        icon: Some(BarIcon::Action(format!("{action:?}"))),
    }
}

/// An attack's icon: its technique's, else its profile's.
fn slot_icon(s: &crate::battle::menu::MenuSlot) -> BarIcon {
    BarIcon::Profile(s.technique.clone().unwrap_or_else(|| s.profile.clone()))
}

/// A line of the bar that is not a button (a question waits, the computer plays).
fn line(text: String) -> Vec<BarItem> {
    if text.is_empty() {
        return Vec::new();
    }
    vec![BarItem {
        text,
        action: None,
        tip: String::new(),
        icon: None,
    }]
}

/// The action bar's entries and the line under it (a notice, the greyed maneuvers' reasons).
pub(super) fn action_bar_items(
    session: &mut Session,
    view: &BattleView,
    keys: &Keys,
) -> (Vec<BarItem>, String) {
    if let Some(r) = &session.replay {
        let file = r
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let state = if r.next >= r.commands.len() {
            "end of the replay".to_string()
        } else if r.paused {
            "paused".to_string()
        } else {
            format!("{} commands/s", r.speed)
        };
        return (
            line(format!(
                "REPLAY {file}  command {}/{}  {state}",
                r.next,
                r.commands.len()
            )),
            format!(
                "Space: pause/resume   {}: step (paused)   {}/{}: speed   {}: detailed log   {} {}: scroll log   Esc: menu",
                keys.of(GameAction::NextSlot),
                keys.of(GameAction::WagerUp),
                keys.of(GameAction::WagerDown),
                keys.of(GameAction::ToggleLog),
                keys.of(GameAction::LogOlder),
                keys.of(GameAction::LogNewer)
            ),
        );
    }
    if let Some((_, Some(Decision::Defense { .. }), _)) = session.human_to_act()
        && view.defense_odds.is_some()
    {
        // Each answer is a button too, so the mouse alone can defend.
        let mut items = line("Defend (the odds are in the right-hand panel):".into());
        items.extend(view.defense_odds.iter().flatten().map(|o| {
            let name = session.battle.answer_name(o.defense);
            let mut b = item(
                format!("{} {name}", answer_key(o.defense, keys)),
                answer_action(o.defense),
            );
            b.icon = Some(BarIcon::Action(format!("{:?}", o.defense)));
            b.tip = if o.defense == DefenseChoice::Resist {
                // A Genjutsu blinds rather than hurts.
                format!("{name}: blinded {:.1}%, no damage", o.hit_chance * 100.0)
            } else {
                format!(
                    "{name}: hit {:.1}%, mean damage {:.1}, defeat {:.1}%",
                    o.hit_chance * 100.0,
                    o.expected_damage,
                    o.defeat_chance * 100.0
                )
            };
            b
        }));
        // Shinobi: the counter jutsu offered with the answer, toggled like its key.
        if let Some(p) = session.battle.counter_preview() {
            let mark = if session.counter { "x" } else { " " };
            let mut b = item(
                format!(
                    "{} [{mark}] counter: {}",
                    keys.of(GameAction::Counter),
                    p.counter.name
                ),
                GameAction::Counter,
            );
            b.tip = format!(
                "{}: {} AP and {} chakra, spent even if hit; evade and hit back for {} (click, then the answer)",
                p.counter.name, p.counter.ap, p.counter.chakra, p.damage
            );
            items.push(b);
        }
        return (items, String::new());
    }
    if let Some((who, Some(decision), _)) = session.human_to_act() {
        return (
            question_buttons(session, who, &decision, keys),
            String::new(),
        );
    }
    let Some((who, None, _)) = session.human_to_act() else {
        return match session.actor() {
            Some(_) if session.battle.outcome().is_none() => (
                line(format!(
                    "The computer is playing. {}: skip ahead  |  {}: detailed log",
                    keys.of(GameAction::SkipAi),
                    keys.of(GameAction::ToggleLog)
                )),
                String::new(),
            ),
            _ => (Vec::new(), String::new()),
        };
    };
    let me = session.battle.fighter(who);
    let offers = session.battle.offers();
    let bar = session.battle.bar_view(who);
    let mark = |on: bool, s: String| if on { format!("[{s}]") } else { s };
    let move_label = format!(
        "{} {}",
        keys.of(GameAction::Move),
        bar.as_ref().map_or("Move", |b| b.moves.as_str())
    );
    let mut items: Vec<BarItem> = Vec::new();
    if let Some(points) = bar.as_ref().and_then(|b| b.points) {
        items.extend(line(format!("AP {points}:")));
    }
    items.push(item(
        mark(
            session.intent == Intent::Move { boosted: false },
            move_label,
        ),
        GameAction::Move,
    ));
    if offers.boosted_move {
        items.push(item(
            mark(
                session.intent == Intent::Move { boosted: true },
                format!("{} Boosted", keys.of(GameAction::BoostedMove)),
            ),
            GameAction::BoostedMove,
        ));
    }
    if offers.jump {
        items.push(item(
            mark(
                session.intent == Intent::Jump,
                format!("{} Jump", keys.of(GameAction::BoostedMove)),
            ),
            GameAction::BoostedMove,
        ));
    }
    let slots = &view.slots;
    // Each reason once, with every maneuver it greys out (charging greys out all the others).
    let mut unavailable: Vec<(String, Vec<String>)> = Vec::new();
    for (i, s) in slots.iter().enumerate() {
        let key = GameAction::SLOTS
            .get(i)
            .map_or("-".to_string(), |a| keys.of(*a).to_string());
        let label = format!("{key} {}{}", s.name, s.cost);
        let Some(action) = GameAction::SLOTS.get(i).copied() else {
            continue;
        };
        if let Some(e) = &s.refusal {
            let why = session.describe_error(e);
            let short = why.split(" (").next().unwrap_or(&why);
            match unavailable.iter_mut().find(|(r, _)| r == short) {
                Some((_, names)) => names.push(s.name.clone()),
                None => unavailable.push((short.to_string(), vec![s.name.clone()])),
            }
            items.push(BarItem {
                text: format!("({label})"),
                action: Some(action),
                tip: format!("{}{}: not now: {why}", s.name, s.cost),
                icon: Some(slot_icon(s)),
            });
        } else {
            let mut b = item(
                mark(session.intent == Intent::Attack { slot: i }, label),
                action,
            );
            b.tip = format!(
                "{}{}: click to aim it, then click a target (or press {key})",
                s.name, s.cost
            );
            b.icon = Some(slot_icon(s));
            items.push(b);
        }
    }
    // A charging unit may not Power Up or recover until it makes the charged attack.
    let charging = bar
        .as_ref()
        .and_then(|b| b.charge.as_ref())
        .is_some_and(|c| c.held.is_some());
    if offers.power_up && !charging {
        items.extend([
            item(
                format!("{} Power Up", keys.of(GameAction::PowerUp)),
                GameAction::PowerUp,
            ),
            item(
                format!("{} Recover", keys.of(GameAction::Recover)),
                GameAction::Recover,
            ),
        ]);
    }
    if offers.sneak {
        items.push(item(
            mark(
                session.sneak,
                format!("{} Sneak", keys.of(GameAction::Sneak)),
            ),
            GameAction::Sneak,
        ));
    }
    // Power stages: the card the aimed Final Physical Attack discards; a click picks the next.
    if let Some((id, card)) = session.discard_card() {
        let mut b = item(
            format!("{} Discard: {card}", keys.of(GameAction::WagerUp)),
            GameAction::WagerUp,
        );
        b.icon = Some(BarIcon::Profile(id));
        b.tip = format!(
            "The card the Final Physical Attack discards (any one card of your hand): click or press {} for the next, {} for the one before",
            keys.of(GameAction::WagerUp),
            keys.of(GameAction::WagerDown)
        );
        items.push(b);
    }
    // DBU: the Called Shot's body part for the next attack, while this round's is unused;
    // d20: the aimed shot (at the armour's gaps, through the cover).
    if !session.called_shot_parts().is_empty() && me.as_ref().is_some_and(|f| !f.round.called_shot)
    {
        let part = session.called_shot_name();
        items.push(item(
            mark(
                part.is_some(),
                format!(
                    "{} {}: {}",
                    keys.of(GameAction::CalledShot),
                    session.called_shot_title(),
                    part.unwrap_or_else(|| "off".to_string())
                ),
            ),
            GameAction::CalledShot,
        ));
    }
    // DBU: the ally that joins the next attack with a United Attack, while one stands beside.
    if !session.united_allies().is_empty() {
        items.push(item(
            mark(
                session.united.is_some(),
                format!(
                    "{} United Attack: {}",
                    keys.of(GameAction::UnitedAttack),
                    session.united_name()
                ),
            ),
            GameAction::UnitedAttack,
        ));
    }
    // Digimon and d20: a Skill Check, when a square beside this one has one it may make.
    if !view.skills.is_empty() {
        use crate::battle::command::SkillWay;
        let free = match session.intent {
            Intent::Skill {
                way: SkillWay::Interrupt,
            } => " (free: Interrupt)",
            Intent::Skill {
                way: SkillWay::TakeTen,
            } => " (Take 10)",
            _ => "",
        };
        items.push(item(
            mark(
                matches!(session.intent, Intent::Skill { .. }),
                format!("{} Use a Skill{free}", keys.of(GameAction::UseSkill)),
            ),
            GameAction::UseSkill,
        ));
    }
    // Dropping prone (d20), when this unit may, with what it would be paid with.
    if let Some(paid) = bar.as_ref().and_then(|b| b.drop_prone) {
        items.push(item(
            format!("{} Drop prone ({paid})", keys.of(GameAction::DropProne)),
            GameAction::DropProne,
        ));
    }
    // Feinting (d20), a Standard action: the key chooses the foe.
    if bar.as_ref().is_some_and(|b| b.feint) || matches!(session.intent, Intent::Feint) {
        items.push(item(
            mark(
                matches!(session.intent, Intent::Feint),
                format!("{} Feint (Standard action)", keys.of(GameAction::Sneak)),
            ),
            GameAction::Sneak,
        ));
    }
    // Diving for cover on one's own turn (d20), a Move action.
    if bar.as_ref().is_some_and(|b| b.dive) {
        items.push(item(
            format!(
                "{} Dive for cover (Move action)",
                keys.of(GameAction::DiveForCover)
            ),
            GameAction::DiveForCover,
        ));
    }
    // DBU: the maneuvers against conditions, when they are legal now.
    if let Some(b) = &bar {
        if b.stand_up {
            items.push(item(
                format!("{} Stand up", keys.of(GameAction::StandUp)),
                GameAction::StandUp,
            ));
        }
        if b.cure_poison {
            items.push(item(
                format!("{} Cure poison", keys.of(GameAction::CurePoison)),
                GameAction::CurePoison,
            ));
        }
        if let Some((_, name)) = &b.end_condition {
            items.push(item(
                format!("{} End {name}", keys.of(GameAction::EndCondition)),
                GameAction::EndCondition,
            ));
        }
        if let Some(p) = b.arrogant_declaration {
            let key = keys.of(GameAction::ArrogantDeclaration);
            let mut b = item(
                format!("{key} Arrogant Declaration"),
                GameAction::ArrogantDeclaration,
            );
            b.tip = format!(
                "Arrogant Declaration (click or {key}): Superiority now, then -{p} to Combat Rolls, Surgency and Soak once it ends"
            );
            items.push(b);
        }
        let empowering = match session.intent {
            Intent::Empower { full: true, .. } => Some("Full Empowerment".to_string()),
            Intent::Empower { actions: 1, .. } => Some("Empower: 1 Action".to_string()),
            Intent::Empower { actions, .. } => Some(format!("Empower: {actions} Actions")),
            _ => None,
        };
        if b.empower || empowering.is_some() {
            items.push(item(
                mark(
                    empowering.is_some(),
                    format!(
                        "{} {}",
                        keys.of(GameAction::Empower),
                        empowering.unwrap_or_else(|| "Empower an ally".to_string())
                    ),
                ),
                GameAction::Empower,
            ));
        }
        let grappling = match session.intent {
            Intent::Grapple { act } => Some(act),
            _ => None,
        };
        if !b.grapple.is_empty() || grappling.is_some() {
            let what = match grappling {
                Some(crate::battle::command::GrappleAct::Escape { actions }) => {
                    format!(
                        "Escape: {actions} Action{}",
                        if actions == 1 { "" } else { "s" }
                    )
                }
                Some(act) => act.name().to_string(),
                None => b
                    .grapple
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join("/"),
            };
            items.push(item(
                mark(
                    grappling.is_some(),
                    format!("{} {what}", keys.of(GameAction::Grapple)),
                ),
                GameAction::Grapple,
            ));
        }
        if let Some(p) = b.hide {
            items.push(item(
                format!(
                    "{} Hide ({}.{}% unseen)",
                    keys.of(GameAction::Hide),
                    p / 10,
                    p % 10
                ),
                GameAction::Hide,
            ));
        }
        if let Some(c) = &b.charge {
            let key = keys.of(GameAction::EnergyCharge);
            match &c.held {
                Some((name, n)) => {
                    if c.again {
                        items.push(item(
                            format!("{key} Charge {name} again ({n} held, {}Ki)", c.ki),
                            GameAction::EnergyCharge,
                        ));
                    }
                    items.push(item(
                        format!("{} Cancel charge", keys.of(GameAction::CancelCharge)),
                        GameAction::CancelCharge,
                    ));
                }
                None => {
                    let mut b = item(
                        format!("{key} Energy Charge {}Ki", c.ki),
                        GameAction::EnergyCharge,
                    );
                    b.tip = format!(
                        "Energy Charge (click or {key}): charge the attack being aimed for {}Ki, with Guard Down until it is made",
                        c.ki
                    );
                    items.push(b);
                }
            }
        }
    }
    // Digimon: the partner this one can let act now, in the turn they share.
    let partner = me
        .as_ref()
        .and_then(|f| f.digi.as_ref())
        .and_then(|d| d.partner);
    if let (Some(f), Some(p)) = (&me, partner)
        && session
            .battle
            .check(&crate::battle::command::Command::HandOver { who: f.id })
            .is_ok()
    {
        let name = session.names.get(&p).cloned().unwrap_or_default();
        items.push(item(
            format!("{} Hand over to {name}", keys.of(GameAction::HandOver)),
            GameAction::HandOver,
        ));
    }
    // d20: delaying the turn, with who would act first.
    if let Some(after) = bar.as_ref().and_then(|b| b.delay) {
        let name = session.names.get(&after).cloned().unwrap_or_default();
        items.push(item(
            format!(
                "{} Delay turn ({name} acts first)",
                keys.of(GameAction::HandOver)
            ),
            GameAction::HandOver,
        ));
    }
    // Digimon: the higher stages it may Digivolve to now.
    for o in bar.iter().flat_map(|b| &b.digivolve) {
        let mut b = item(
            format!(
                "{} Digivolve: {} ({}, {} HP)",
                keys.of(GameAction::Digivolve),
                o.name,
                o.stage,
                o.hp
            ),
            GameAction::Digivolve,
        );
        b.tip = format!(
            "Digivolve (click or {}): become {} ({}) for a Simple Action, every Hit Point back ({} HP)",
            keys.of(GameAction::Digivolve),
            o.name,
            o.stage,
            o.hp
        );
        items.push(b);
    }
    // Digimon: take to the air or land.
    if let Some(f) = bar.as_ref().and_then(|b| b.fly) {
        let key = keys.of(GameAction::Fly);
        let mut b = item(
            if f.up {
                format!("{key} Fly up ({} squares)", f.height)
            } else {
                format!("{key} Land")
            },
            GameAction::Fly,
        );
        b.tip = if f.up {
            format!(
                "Take to the air (click or {key}): a Move, {} squares up; then it moves by its Fly score ({}) over water and rough ground, and only a flyer reaches it in melee (nor does it reach a foe on the ground)",
                f.height, f.fly
            )
        } else {
            format!("Land (click or {key}): a Move down to the ground, where it walks again")
        };
        items.push(b);
    }
    items.extend([
        item(
            format!("{} End turn", keys.of(GameAction::EndTurn)),
            GameAction::EndTurn,
        ),
        item(
            format!("{} Log", keys.of(GameAction::ToggleLog)),
            GameAction::ToggleLog,
        ),
    ]);
    let undoable = session.battle.undoable().len();
    if undoable > 0 {
        items.push(item(
            format!("{} Undo ({undoable})", keys.of(GameAction::Undo)),
            GameAction::Undo,
        ));
    }
    let redoable = session.battle.redoable().len();
    if redoable > 0 {
        items.push(item(
            format!("{} Redo ({redoable})", keys.of(GameAction::Redo)),
            GameAction::Redo,
        ));
    }
    let mut second = String::new();
    if let Some(n) = &session.notice {
        second = format!("! {n}\n");
    }
    if !unavailable.is_empty() {
        let lines: Vec<String> = unavailable
            .iter()
            .map(|(why, names)| format!("{}: {why}", names.join(", ")))
            .collect();
        second.push_str(&format!("Greyed: {}", lines.join("  |  ")));
    }
    (items, second)
}

/// A question other than the defense prompt (Exploit, Intercede, an Instant before an attack,
/// a defense prompt without odds) as a line and one button per answer, so the mouse alone
/// answers it; each button gives the key's action.
fn question_buttons(
    session: &mut Session,
    who: crate::battle::components::CombatantId,
    decision: &Decision,
    keys: &Keys,
) -> Vec<BarItem> {
    let yes_no = |ask: &str, yes: &str, no: &str| {
        let mut items = line(format!("{ask}:"));
        let mut accept = item(
            format!("{} {yes}", keys.of(GameAction::Confirm)),
            GameAction::Confirm,
        );
        accept.tip = format!("{yes} (or press {})", keys.of(GameAction::Confirm));
        let mut decline = item(
            format!("{} {no}", keys.of(GameAction::Cancel)),
            GameAction::Cancel,
        );
        decline.tip = format!(
            "{no} (or press {}, or right-click)",
            keys.of(GameAction::Cancel)
        );
        items.extend([accept, decline]);
        items
    };
    match decision {
        Decision::Intercede { .. } => yes_no("Intercede?", "Intercede", "let it hit"),
        Decision::Exploit { mover, .. } => {
            let p = session.battle.exploit_prompt(*mover, who);
            yes_no("Exploit?", p.accept, p.decline)
        }
        Decision::Response { .. } => yes_no("An Instant first?", "Healing Surge", "pass"),
        Decision::Defense { .. } => {
            let first = session.battle.answer_name(DefenseChoice::Dodge);
            let second = session.battle.answer_name(DefenseChoice::Parry);
            let second = second.split(" (").next().unwrap_or(&second).to_string();
            let mut items = line("Defend:".into());
            items.push(item(
                format!("{} {first}", keys.of(GameAction::Dodge)),
                GameAction::Dodge,
            ));
            items.push(item(
                format!("{} {second}", keys.of(GameAction::Parry)),
                GameAction::Parry,
            ));
            items
        }
    }
}
