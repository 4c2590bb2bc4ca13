//! The odds panel: the core's view model of the order being aimed (every die and modifier with
//! the rule it came from, from the same assembly that resolves it), with the keys that change it.

use super::Keys;
use crate::battle::aim::{AimOption, pct, terms};
use crate::battle::command::DefenseChoice;
use crate::gui::input::GameAction;
use crate::gui::session::{Intent, Session};
use crate::gui::view::BattleView;

/// The key that answers with `choice`: Dodge and Parry have their own; against a d20 shot from
/// beyond melee range the Dodge key takes it and the Parry key dives; the Deflect key drops
/// prone, and in DBU reflects.
pub(super) fn answer_key(choice: DefenseChoice, keys: &Keys) -> String {
    keys.of(answer_action(choice)).to_string()
}

/// The action that gives a defense answer (its key, or its button in the action bar).
pub(super) fn answer_action(choice: DefenseChoice) -> GameAction {
    match choice {
        DefenseChoice::Dodge | DefenseChoice::Take | DefenseChoice::Resist => GameAction::Dodge,
        DefenseChoice::Parry | DefenseChoice::Block | DefenseChoice::Dive => GameAction::Parry,
        DefenseChoice::Deflect | DefenseChoice::DropProne | DefenseChoice::Reflect => {
            GameAction::Deflect
        }
    }
}

/// The line naming the choice besides the target and the keys that change it.
fn option_hint(option: AimOption, keys: &Keys) -> Option<String> {
    match option {
        AimOption::None => None,
        AimOption::Wager { wager, max } => Some(format!(
            "Wager {wager} Ki ({}/{}, at most {max})",
            keys.of(GameAction::WagerDown),
            keys.of(GameAction::WagerUp)
        )),
        AimOption::Sneak { on } => Some(format!(
            "Sneak attack {} ({})",
            if on { "ON" } else { "off" },
            keys.of(GameAction::Sneak)
        )),
        AimOption::Discard { index, of } => Some(format!(
            "Discard: card {} of {of} ({}/{})",
            index + 1,
            keys.of(GameAction::WagerDown),
            keys.of(GameAction::WagerUp)
        )),
        AimOption::PowerAttack { amount, max } => Some(format!(
            "Power Attack {amount} ({}/{}, at most {max})",
            keys.of(GameAction::WagerDown),
            keys.of(GameAction::WagerUp)
        )),
    }
}

/// The panel while a Skill Check is being chosen: how it is paid, every square it may be made
/// on with its exact chance, and the one under the cursor with its roll, or why not there.
fn skill_text(
    session: &Session,
    view: &BattleView,
    keys: &Keys,
    way: crate::battle::command::SkillWay,
) -> String {
    use crate::battle::command::SkillWay;
    let again = keys.of(GameAction::UseSkill);
    // The ordinary way first, then the one the same key switches to.
    let ways = session.battle.offers().skill_ways;
    let words = |w: SkillWay| ways.iter().find(|(x, _)| *x == w).map_or("", |(_, s)| *s);
    let paid = match way {
        SkillWay::Interrupt => {
            "free, with the round's Interrupt Action (no Intercede this round)".to_string()
        }
        SkillWay::TakeTen => {
            "Taking 10 for a Standard action: no roll, only where no foe can see the unit"
                .to_string()
        }
        SkillWay::Action => match ways.get(1) {
            Some((other, _)) => format!(
                "{} ({again} again: {})",
                words(SkillWay::Action),
                words(*other)
            ),
            None => words(SkillWay::Action).to_string(),
        },
    };
    let mut out = format!("Use a Skill, {paid}: click a lit square beside the unit.");
    let offered: Vec<_> = view.skills.iter().filter(|o| o.way == way).collect();
    if offered.is_empty() {
        out.push_str(match way {
            SkillWay::Interrupt => {
                "\nThe Interrupt Action is spent this round (or the unit is Stunned or Paralysed)."
            }
            SkillWay::TakeTen => {
                "\nNot now: a foe can see the unit (under pressure), or no action is left."
            }
            SkillWay::Action => "\nNo action is left.",
        });
    }
    for o in &offered {
        out.push_str(&format!(
            "\n{} at {}: {} vs TN {} -> {}",
            o.check.name,
            o.at,
            pct(o.chance),
            o.check.target,
            o.becomes
        ));
    }
    match &view.skill_aim {
        Some(Ok(o)) => out.push_str(&format!(
            "\n\n{} at {}: {}\nAgainst TN {}: {} to succeed; the square becomes {}.",
            o.check.name,
            o.at,
            terms(&o.roll),
            o.check.target,
            pct(o.chance),
            o.becomes
        )),
        Some(Err(why)) => out.push_str(&format!("\n\nNot here: {why}")),
        None => {}
    }
    out
}

/// The Empower being chosen: each ally with the Ki it would receive, or the rule refusing it.
fn empower_text(session: &mut Session, keys: &Keys, actions: u32, full: bool) -> String {
    let Some((who, None, _)) = session.human_to_act() else {
        return String::new();
    };
    let mut out = if full {
        "Full Empowerment (1 Action): any amount; your Capacity drops to 0 and you gain Fatigued \
         and Impediment."
            .to_string()
    } else {
        format!(
            "Empower ({actions} Action{}): 2 x Might Ki per Action, doubled for an ally within \
             your Melee Range; no Capacity used.",
            if actions == 1 { "" } else { "s" }
        )
    };
    out.push_str(" Adjacent opponents may Exploit first. Click an ally:");
    for o in session.battle.empower_offers(who, actions, full) {
        match &o.refusal {
            None => out.push_str(&format!(
                "\n  {}: +{} Ki (Ki {}/{})",
                o.name, o.amount, o.ki.0, o.ki.1
            )),
            Some(why) => out.push_str(&format!("\n  {}: {why}", o.name)),
        }
    }
    out.push_str(&format!(
        "\n{}: one Action more, then Full Empowerment, then off",
        keys.of(GameAction::Empower)
    ));
    out
}

/// The grappling maneuver being chosen: what it does, then each opponent with the exact
/// chance of every roll it makes, or the rule refusing it.
fn grapple_text(
    session: &mut Session,
    keys: &Keys,
    act: crate::battle::command::GrappleAct,
) -> String {
    use crate::battle::command::GrappleAct as G;
    let Some((who, None, _)) = session.human_to_act() else {
        return String::new();
    };
    let mut out = match act {
        G::Seize => "Grapple (1 Action): your Strike against the better of the target's Strike \
                     and Dodge; ties go to the target. Won: you hold it and both have Guard \
                     Down. Lost: it may Exploit."
            .to_string(),
        G::Pin => "Pin (2 Actions): a Grapple Check at -1(bT), then a Might Clash. Both won: \
                   Pinned (no Actions) to the end of your next turn. Either lost: it is free."
            .to_string(),
        G::Absorb => "Absorb (2 Actions): a Grapple Check, then opposed Saves. Both won: it is \
                      Absorbed, off the battlefield until it wins a Save at the start of its \
                      turn. Either lost: it is free."
            .to_string(),
        G::Escape { actions } => format!(
            "Escape ({actions} Action{}): a Grapple Check against your grappler, +1(T) for \
             each Action after the first.",
            if actions == 1 { "" } else { "s" }
        ),
        G::Release => "Release (no Action): let go of the one you hold.".to_string(),
    };
    out.push_str(" Click the target:");
    for o in session.battle.grapple_offers(who, act) {
        match &o.refusal {
            None if o.rolls.is_empty() => out.push_str(&format!("\n  {}", o.name)),
            None => {
                let parts: Vec<String> = o
                    .rolls
                    .iter()
                    .map(|(name, p)| format!("{name} {:.1}%", p * 100.0))
                    .collect();
                out.push_str(&format!(
                    "\n  {}: {:.1}% ({})",
                    o.name,
                    o.chance() * 100.0,
                    parts.join(" x ")
                ));
            }
            Some(why) => out.push_str(&format!("\n  {}: {why}", o.name)),
        }
    }
    out.push_str(&format!(
        "\n{}: the next grappling maneuver, then off",
        keys.of(GameAction::Grapple)
    ));
    out
}

/// The odds panel's parts: a heading naming what is being chosen, the words under it, and the
/// rolls with every die and modifier (under a heading of their own when there are any).
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct OddsPanel {
    pub heading: String,
    pub text: String,
    pub rolls: String,
}

/// The odds panel for what the player is choosing now.
pub(super) fn odds_panel(
    session: &mut Session,
    view: &BattleView,
    keys: &Keys,
    cursor: Option<crate::grid::Square>,
) -> OddsPanel {
    let heading = match session.intent {
        Intent::Attack { .. } => "Attack",
        Intent::Move { .. } => "Move",
        Intent::Jump => "Jump",
        Intent::Skill { .. } => "Use a Skill",
        Intent::Empower { .. } => "Empower",
        Intent::Grapple { .. } => "Grapple",
        Intent::Feint => "Feint",
        _ => match session.human_to_act() {
            Some((_, Some(_), _)) => "Defend",
            Some(_) => "Your turn",
            None => "Watching",
        },
    };
    let mut rolls = String::new();
    let mut text = odds_text(session, view, keys, &mut rolls);
    // The ground pointed at while looking or moving, when no unit stands there (the unit panel
    // shows a unit) and nobody is asked to defend: what it is, and what cover has left.
    if matches!(
        session.intent,
        Intent::Idle | Intent::Move { .. } | Intent::Jump
    ) && !session.prompt_pending()
        && let Some(s) = cursor
        && session.fighter_at(s).is_none()
        && let Some(note) = session.battle.square_note(s)
    {
        text = format!("{note}\n\n{text}");
    }
    OddsPanel {
        heading: heading.to_string(),
        text,
        rolls,
    }
}

fn odds_text(session: &mut Session, view: &BattleView, keys: &Keys, rolls: &mut String) -> String {
    let mut out: String = session
        .battle
        .field_notes()
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    let Intent::Attack { slot } = session.intent else {
        let defending = session.prompt_pending();
        match session.intent {
            Intent::Skill { way } => out.push_str(&skill_text(session, view, keys, way)),
            Intent::Empower { actions, full } => {
                out.push_str(&empower_text(session, keys, actions, full))
            }
            Intent::Grapple { act } => out.push_str(&grapple_text(session, keys, act)),
            Intent::Feint => {
                if let Some((who, _, _)) = session.human_to_act() {
                    out.push_str(&session.battle.feint_panel(who).join("\n"));
                    out.push_str(&format!(
                        "\nClick a foe to feint at it  |  {}: cancel",
                        keys.of(GameAction::Sneak)
                    ));
                }
            }
            Intent::Jump => {
                if let Some((who, _, _)) = session.human_to_act()
                    && let Some(help) = session.battle.jump_help(who)
                {
                    out.push_str(&help);
                    out.push_str(&format!(
                        "\n{}: jump on or off  |  {}: walk",
                        keys.of(GameAction::BoostedMove),
                        keys.of(GameAction::Move)
                    ));
                }
            }
            Intent::Move { boosted } => {
                let help = session.battle.move_help(boosted);
                out.push_str(&help.text);
                if help.boost {
                    out.push_str(&format!(
                        "\n{}: Boosted Speed on or off",
                        keys.of(GameAction::BoostedMove)
                    ));
                }
            }
            _ if defending => out.push_str(
                "Your unit is attacked: choose its answer in the box below or on the bar, each \
                 with its exact odds.",
            ),
            _ => out.push_str(&format!(
                "Click a lit square to move there, an opponent to aim at it.\nHover a unit to see it here.\n{}: move  |  {}-{}: aim an attack\n{}: threats (orange melee, yellow farther)\n{}: centre the camera on the unit\n{}: help, keys and every rule's words (blue words: hover)",
                keys.of(GameAction::Move),
                keys.of(GameAction::Slot1),
                keys.of(GameAction::Slot9),
                keys.of(GameAction::ThreatOverlay),
                keys.of(GameAction::CentreCamera),
                keys.of(GameAction::Help)
            )),
        }
        return out;
    };
    let name = view
        .slots
        .get(slot)
        .map_or(String::new(), |s| s.name.clone());
    let option = session
        .battle
        .aim_option(session.wager, view.max_wager, session.sneak);
    // DBU: the Called Shot, named by its key.
    let called = (!session.called_shot_parts().is_empty()).then(|| {
        let mut c = format!(
            "{}: {} ({})",
            session.called_shot_title(),
            session
                .called_shot_name()
                .unwrap_or_else(|| "off".to_string()),
            keys.of(GameAction::CalledShot)
        );
        if !session.united_allies().is_empty() {
            c += &format!(
                "  |  United Attack: {} ({})",
                session.united_name(),
                keys.of(GameAction::UnitedAttack)
            );
        }
        c
    });
    let Some(aim) = &view.aim else {
        out.push_str(&format!("{name}: point at a target."));
        if let Some(c) = &called {
            out.push_str(&format!("\n{c}"));
        }
        if let Some(hint) = option_hint(option, keys) {
            out.push_str(&format!("\n{hint}"));
        }
        return out;
    };
    match &aim.preview {
        Err(why) => {
            out.push_str(&format!("{name}: {why}"));
            if let Some(c) = &called {
                out.push_str(&format!("\n{c}"));
            }
        }
        Ok(p) => {
            let v = session.battle.aim_view(&aim.order, p, view.max_wager);
            out.push_str(&v.head);
            // The head already says the wager or the sneak attack: only the keys are added.
            match v.option {
                AimOption::None => {}
                AimOption::Wager { .. } => out.push_str(&format!(
                    "  |  {}/{}: wager",
                    keys.of(GameAction::WagerDown),
                    keys.of(GameAction::WagerUp)
                )),
                AimOption::Sneak { on } => out.push_str(&format!(
                    "  |  sneak attack {} ({})",
                    if on { "ON" } else { "off" },
                    keys.of(GameAction::Sneak)
                )),
                AimOption::Discard { index, of } => out.push_str(&format!(
                    "  |  card {} of {of} ({}/{}: another card)",
                    index + 1,
                    keys.of(GameAction::WagerDown),
                    keys.of(GameAction::WagerUp)
                )),
                AimOption::PowerAttack { max, .. } => out.push_str(&format!(
                    "  |  {}/{}: Power Attack 0 to {max}",
                    keys.of(GameAction::WagerDown),
                    keys.of(GameAction::WagerUp)
                )),
            }
            if let Some(c) = &called {
                out.push_str(&format!("  |  {c}"));
            }
            for l in &v.lines {
                out.push('\n');
                out.push_str(l);
            }
            *rolls = v.rolls.join("\n");
        }
    }
    out
}
