//! Guided battles: a scenario's prompts that teach a new player the controls (move, aim,
//! attack, defend, end the turn), each shown until the player has done what it asks.
//!
//! Progress is read from the battle's own event log, so the guide cannot disagree with what
//! happened: a move is learned when one of the player's units has a `Moved` event, a defense
//! when one of them has a `DefenseDeclared` event (chosen on the prompt), a `DefenseRolled`
//! one (rolled for it where the rules choose) or a power-stages `StageHit`, or when the window
//! saw the player answer the defense prompt. Only aiming, answering and "Next" come from the
//! window, which passes them in.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::battle::components::{CombatantId, Side};
use crate::battle::event::BattleEvent;
use crate::ruleset::{FieldPath, RulesError};

/// One prompt of a guided battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuideStep {
    /// What the prompt says. An action's name in braces (`{Move}`, `{EndTurn}`) becomes the
    /// key the player has bound to it, so the text stays true after rebinding.
    pub say: String,
    /// What the player does for the prompt to count as learned.
    pub until: GuideGoal,
}

/// What a prompt waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GuideGoal {
    /// The player reads it and clicks Next (or presses the Confirm key).
    Next,
    /// One of the player's units moves.
    Move,
    /// The player aims an attack at a target, so its exact odds show.
    Aim,
    /// One of the player's units makes an attack.
    Attack,
    /// One of the player's units is attacked and defends: the player's answer to the defense
    /// prompt, or the defense the rules roll for it.
    Defend,
    /// One of the player's units ends its turn.
    EndTurn,
    /// The player's side wins the battle.
    Win,
}

/// The action names a prompt may put in braces: the battle actions a new player is taught.
/// The window replaces each with the player's key for it.
pub const GUIDE_KEYS: &[&str] = &[
    "Cancel",
    "Confirm",
    "Move",
    "BoostedMove",
    "Slot1",
    "Slot2",
    "Slot3",
    "NextSlot",
    "WagerUp",
    "WagerDown",
    "EndTurn",
    "Dodge",
    "Parry",
    "Deflect",
    "Undo",
    "Help",
    "ToggleLog",
    "ThreatOverlay",
];

/// The `{Name}` placeholders of a prompt, in order.
pub fn placeholders(say: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = say;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            break;
        };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

/// A prompt with each `{Name}` replaced by `key_of(Name)`.
pub fn fill_keys(say: &str, key_of: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(say.len());
    let mut rest = say;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        out.push_str(&key_of(&after[..close]));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The guide's problems, each at its field: an empty prompt, an unknown or unclosed key name,
/// a guide with no prompt that can end (every guide ends with `Win`, or it would stay on screen
/// after the player learned everything).
pub fn check(guide: &[GuideStep], path: &Path, src: &str) -> Vec<RulesError> {
    let gp = FieldPath::root().field("guide");
    let mut errs = Vec::new();
    for (i, step) in guide.iter().enumerate() {
        let sp = gp.index(i).field("say");
        if step.say.trim().is_empty() {
            errs.push(RulesError::at(path, src, &sp, "a prompt says something"));
        }
        if step.say.matches('{').count() != step.say.matches('}').count() {
            errs.push(RulesError::at(
                path,
                src,
                &sp,
                "a `{` without its `}` (key names are written `{Move}`)",
            ));
        }
        for name in placeholders(&step.say) {
            if !GUIDE_KEYS.contains(&name) {
                errs.push(RulesError::at(
                    path,
                    src,
                    &sp,
                    format!(
                        "`{{{name}}}` is not an action a prompt can name; these are: {}",
                        GUIDE_KEYS.join(", ")
                    ),
                ));
            }
        }
    }
    if !guide.is_empty() && guide.last().map(|s| s.until) != Some(GuideGoal::Win) {
        errs.push(RulesError::at(
            path,
            src,
            &gp.index(guide.len() - 1).field("until"),
            "a guide's last prompt is `until: Win`, so it stays until the battle is won",
        ));
    }
    errs
}

/// How far a player has got through a guide.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuideProgress {
    /// Per prompt: learned.
    pub done: Vec<bool>,
    /// Events already read.
    seen: usize,
    /// The player was asked to defend on the last update.
    asked: bool,
}

/// What the window tells the guide about this frame.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GuideInput {
    /// The player is aiming an attack at a target and its odds show.
    pub aiming: bool,
    /// The player clicked Next on the prompt shown.
    pub next: bool,
    /// One of the player's units is asked how to defend.
    pub defending: bool,
}

impl GuideProgress {
    /// Nothing learned yet.
    pub fn new(guide: &[GuideStep]) -> Self {
        Self {
            done: vec![false; guide.len()],
            seen: 0,
            asked: false,
        }
    }

    /// Reads the events since the last call and the window's input; true when a prompt was
    /// learned. `mine` are the player's units and `player_side` their side, whose win ends it.
    /// A move undone stays learned; the event count going down (an undo) is not an error.
    pub fn update(
        &mut self,
        guide: &[GuideStep],
        events: &[BattleEvent],
        mine: &[CombatantId],
        player_side: Side,
        input: GuideInput,
    ) -> bool {
        let mut learned = false;
        let mut learn = |done: &mut bool| {
            learned |= !*done;
            *done = true;
        };
        if input.next
            && let Some(i) = self.shown(guide, input.defending)
            && guide[i].until == GuideGoal::Next
        {
            learn(&mut self.done[i]);
        }
        let start = self.seen.min(events.len());
        for event in &events[start..] {
            for (i, step) in guide.iter().enumerate() {
                if !self.done[i] && goal_met(step.until, event, mine, player_side) {
                    learn(&mut self.done[i]);
                }
            }
        }
        self.seen = events.len();
        // Answering the defense prompt teaches it whatever the rules log for the answer (power
        // stages logs no line for taking a blow).
        let answered = std::mem::replace(&mut self.asked, input.defending) && !input.defending;
        for (i, step) in guide.iter().enumerate() {
            if (input.aiming && step.until == GuideGoal::Aim)
                || (answered && step.until == GuideGoal::Defend)
            {
                learn(&mut self.done[i]);
            }
        }
        // A unit that aims or attacks from where it stands needed no move: a Move prompt
        // before a lesson already learned is passed over, not left up.
        for i in 0..guide.len() {
            let later = guide.iter().zip(&self.done).skip(i + 1);
            if guide[i].until == GuideGoal::Move
                && later
                    .clone()
                    .any(|(s, done)| *done && matches!(s.until, GuideGoal::Aim | GuideGoal::Attack))
            {
                learn(&mut self.done[i]);
            }
        }
        learned
    }

    /// The prompt to show: the defense prompt's lesson while the player is asked to defend
    /// and has not learned it, else the first prompt not yet learned; `None` when all are.
    pub fn shown(&self, guide: &[GuideStep], defending: bool) -> Option<usize> {
        let open = |i: &usize| !self.done.get(*i).copied().unwrap_or(true);
        if defending
            && let Some(i) = (0..guide.len()).find(|i| guide[*i].until == GuideGoal::Defend)
            && open(&i)
        {
            return Some(i);
        }
        (0..guide.len()).find(open)
    }

    /// How many prompts are learned.
    pub fn learned(&self) -> usize {
        self.done.iter().filter(|d| **d).count()
    }
}

/// Whether `event` does what `goal` asks of the player's units.
fn goal_met(goal: GuideGoal, event: &BattleEvent, mine: &[CombatantId], side: Side) -> bool {
    match (goal, event) {
        (GuideGoal::Move, BattleEvent::Moved { who, path, .. }) => {
            mine.contains(who) && !path.is_empty()
        }
        (GuideGoal::Attack, BattleEvent::AttackDeclared { attacker, .. }) => {
            mine.contains(attacker)
        }
        // Declared on the prompt (or by the auto-defense setting), rolled where the rules
        // choose the defense (Digimon's Dodge), or a power-stages blow taken.
        (
            GuideGoal::Defend,
            BattleEvent::DefenseDeclared { defender, .. }
            | BattleEvent::DefenseRolled { defender, .. }
            | BattleEvent::StageHit {
                target: defender, ..
            },
        ) => mine.contains(defender),
        (GuideGoal::EndTurn, BattleEvent::TurnEnded { who }) => mine.contains(who),
        (GuideGoal::Win, BattleEvent::BattleEnded { winner, .. }) => *winner == Some(side),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::command::DefenseChoice;
    use crate::battle::event::EndReason;
    use crate::grid::Square;

    fn step(until: GuideGoal) -> GuideStep {
        GuideStep {
            say: format!("{until:?}"),
            until,
        }
    }

    fn guide() -> Vec<GuideStep> {
        use GuideGoal as G;
        [
            G::Next,
            G::Move,
            G::Aim,
            G::Attack,
            G::EndTurn,
            G::Defend,
            G::Win,
        ]
        .into_iter()
        .map(step)
        .collect()
    }

    const ME: CombatantId = CombatantId(0);
    const FOE: CombatantId = CombatantId(1);

    fn moved(who: CombatantId) -> BattleEvent {
        BattleEvent::Moved {
            who,
            path: vec![Square::new(1, 0)],
            cost: 1,
            boosted: false,
            stopped: false,
            by_ap: false,
            jump: false,
        }
    }

    #[test]
    fn guide_shows_the_first_prompt_not_learned_and_learns_from_the_players_units_only() {
        let g = guide();
        let mut p = GuideProgress::new(&g);
        let mut events = vec![moved(FOE)];
        let none = GuideInput::default();
        assert!(!p.update(&g, &events, &[ME], Side(0), none));
        assert_eq!(
            p.shown(&g, false),
            Some(0),
            "the opponent's move teaches nothing"
        );
        // Moving before Next is still learned; Next shows until clicked.
        events.push(moved(ME));
        assert!(p.update(&g, &events, &[ME], Side(0), none));
        assert_eq!(p.shown(&g, false), Some(0));
        let next = GuideInput { next: true, ..none };
        p.update(&g, &events, &[ME], Side(0), next);
        assert_eq!(p.shown(&g, false), Some(2), "Move was learned already");
        let aiming = GuideInput {
            aiming: true,
            ..none
        };
        p.update(&g, &events, &[ME], Side(0), aiming);
        assert_eq!(p.shown(&g, false), Some(3));
    }

    #[test]
    fn guide_passes_over_the_move_prompt_when_the_unit_aims_from_where_it_stands() {
        let g = guide();
        let mut p = GuideProgress::new(&g);
        let none = GuideInput::default();
        p.update(&g, &[], &[ME], Side(0), GuideInput { next: true, ..none });
        assert_eq!(p.shown(&g, false), Some(1), "Move shows");
        let aiming = GuideInput {
            aiming: true,
            ..none
        };
        assert!(p.update(&g, &[], &[ME], Side(0), aiming));
        assert!(p.done[1], "no move was needed");
        assert_eq!(p.shown(&g, false), Some(3), "on to Attack");
    }

    #[test]
    fn guide_defense_lesson_shows_when_the_player_is_asked_to_defend_in_any_order() {
        let g = guide();
        let mut p = GuideProgress::new(&g);
        assert_eq!(
            p.shown(&g, true),
            Some(5),
            "asked to defend on the first frame"
        );
        let events = vec![BattleEvent::DefenseDeclared {
            defender: ME,
            choice: DefenseChoice::Dodge,
        }];
        p.update(&g, &events, &[ME], Side(0), GuideInput::default());
        assert!(p.done[5]);
        assert_eq!(p.shown(&g, true), Some(0), "learned: the order goes on");
        // Answering the prompt teaches it even when the rules log no line for the answer.
        let mut p = GuideProgress::new(&g);
        let asked = GuideInput {
            defending: true,
            ..GuideInput::default()
        };
        p.update(&g, &[], &[ME], Side(0), asked);
        assert!(!p.done[5], "still asked");
        p.update(&g, &[], &[ME], Side(0), GuideInput::default());
        assert!(p.done[5], "answered");
    }

    #[test]
    fn guide_next_counts_only_for_the_prompt_shown_and_an_undo_keeps_what_was_learned() {
        let g = guide();
        let mut p = GuideProgress::new(&g);
        let next = GuideInput {
            next: true,
            ..GuideInput::default()
        };
        let events = vec![moved(ME), BattleEvent::TurnEnded { who: ME }];
        p.update(&g, &events, &[ME], Side(0), next);
        assert_eq!(p.learned(), 3, "Next, Move, End turn");
        // Next on a prompt that waits for something else does nothing.
        p.update(&g, &events, &[ME], Side(0), next);
        assert_eq!(p.learned(), 3);
        // An undo shortens the log: nothing is lost or read twice.
        p.update(&g, &events[..1], &[ME], Side(0), GuideInput::default());
        assert_eq!(p.learned(), 3);
        let mut won = events[..1].to_vec();
        won.push(BattleEvent::BattleEnded {
            winner: Some(Side(0)),
            round: 3,
            reason: EndReason::LastSideStanding,
        });
        p.update(&g, &won, &[ME], Side(0), GuideInput::default());
        assert!(p.done[6]);
        let lost = BattleEvent::BattleEnded {
            winner: Some(Side(1)),
            round: 3,
            reason: EndReason::LastSideStanding,
        };
        assert!(!goal_met(GuideGoal::Win, &lost, &[ME], Side(0)));
    }

    #[test]
    fn guide_keys_in_braces_become_the_players_keys() {
        assert_eq!(
            placeholders("press {Move}, then {EndTurn}"),
            ["Move", "EndTurn"]
        );
        let filled = fill_keys("press {Move} or {Undo}; {open", |n| format!("<{n}>"));
        assert_eq!(filled, "press <Move> or <Undo>; {open");
    }
}
