//! What each family hook is handed: the phases of an attack (the rolls, the damage, one hit),
//! one step of a move, a target's answer and the odds command's question, each a borrowed view
//! of the battle as it stands.

use std::collections::BTreeMap;

use bevy::prelude::Mut;

use crate::battle::command::{AttackOrder, DefenseChoice};
use crate::battle::components::{CombatantId, Square};
use crate::battle::context::Declaration;
use crate::battle::fighter::Fighter;
use crate::battle::state::{Battleground, Resolve, TurnOrder};
use crate::grid::Field;
use crate::ruleset::Rules;

/// What the damage phase of an attack works on: the rules, the turn order (for how long a
/// condition lasts), the field, the attacker and its targets (in the order of the attack's
/// target states), everyone, the declaration, the cover wear as it stood before the attack and
/// the wear this attack adds (the ninja chapter's partial cover), and what the rolls change.
pub struct DamagePhase<'a, 'w, 's> {
    pub rules: &'a Rules,
    pub order: &'a TurnOrder,
    pub field: &'a Field<'a>,
    pub attacker: &'a Fighter,
    pub targets: &'a [&'a Fighter],
    pub all: &'a [Fighter],
    pub decl: &'a Declaration<'a>,
    pub worn_before: &'a BTreeMap<Square, i64>,
    pub wear: &'a mut BTreeMap<Square, i64>,
    pub res: Resolve<'a, 'w, 's>,
}

/// One hit as its damage is applied: the rules, the turn order, the attacker, the declaration
/// and the Wound Roll's total.
#[derive(Clone, Copy)]
pub struct HitOn<'a> {
    pub rules: &'a Rules,
    pub order: &'a TurnOrder,
    pub attacker: &'a Fighter,
    pub decl: &'a Declaration<'a>,
    pub wound: i64,
}

/// What the roll phase of an attack works on: the rules, the battleground (d20's live grenades
/// lie on it), the attacker and its targets as they stood when the phase began (in the order
/// of the attack's target states), everyone on the field, and what the rolls change.
pub struct RollPhase<'a, 'w, 's> {
    pub rules: &'a Rules,
    pub ground: Mut<'a, Battleground>,
    pub attacker: &'a Fighter,
    pub targets: &'a [&'a Fighter],
    pub all: &'a [Fighter],
    pub res: Resolve<'a, 'w, 's>,
}

/// The question `gridclash odds` asks before the preview: the rules, who attacks whom with
/// what, and the answer asked about.
pub struct OddsWhatIf<'a> {
    pub rules: &'a Rules,
    pub attacker: CombatantId,
    pub target: CombatantId,
    pub maneuver: &'a str,
    pub defense: DefenseChoice,
}

/// One step of a move: the rules, the field, the mover as it stood when the move began, and
/// the squares it steps from and onto.
pub struct Step<'a> {
    pub rules: &'a Rules,
    pub field: &'a Field<'a>,
    pub mover: &'a Fighter,
    pub from: Square,
    pub to: Square,
}

/// The whole situation a target answers an attack in: what a defense policy reads.
pub struct DefenseAsk<'a> {
    pub rules: &'a Rules,
    pub field: &'a Field<'a>,
    pub attacker: &'a Fighter,
    pub target: &'a Fighter,
    /// Every target of the attack.
    pub all: &'a [&'a Fighter],
    pub order: &'a AttackOrder,
    /// The targets whose sneak contest the attacker won.
    pub sneak_won: &'a [CombatantId],
    /// Everyone on the field (a d20 flanker).
    pub bystanders: &'a [Fighter],
}
