//! The action bar and the controls as view models: what a ruleset offers a player besides its
//! attacks (moves and what they cost, Boosted Speed, Power Up, the sneak attack, Skill Checks,
//! dropping prone) and what a prompt to strike at a passing foe says, in the family's terms.
//! The window binds keys to them; [`Family::offers`](super::family::Family::offers) and
//! [`Family::bar_view`](super::family::Family::bar_view) fill them.

use super::command::SkillWay;

/// The maneuvers and switches a ruleset has besides attacks, for the controls and the bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offers {
    /// A move at Boosted Speed (DBU).
    pub boosted_move: bool,
    /// Power Up and Combat Recovery (DBU).
    pub power_up: bool,
    /// The sneak attack switch (the ninja chapter).
    pub sneak: bool,
    /// Jumping, a second kind of move (the ninja chapter).
    pub jump: bool,
    /// Deflect, and a counter riding on a defense (the ninja chapter).
    pub deflect: bool,
    /// The Parry key answers with a Block (the action-point families).
    pub parry_is_block: bool,
    /// The ways a Skill Check may be made, the ordinary one first, each with how it is paid
    /// (empty: no Skill Checks).
    pub skill_ways: &'static [(SkillWay, &'static str)],
}

impl Default for Offers {
    /// The default pipeline's (DBU): Boosted Speed, Power Up and Combat Recovery.
    fn default() -> Self {
        Self {
            boosted_move: true,
            power_up: true,
            sneak: false,
            jump: false,
            deflect: false,
            parry_is_block: false,
            skill_ways: &[],
        }
    }
}

/// The acting unit's part of the bar that is not an attack, in its family's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarView {
    /// The points it acts with now, when the family counts them (action points).
    pub points: Option<u32>,
    /// What a move costs ("Move (2 left)", "Move 1AP", "Move 1 action (a 1-square step is
    /// free, once a round)").
    pub moves: String,
    /// How dropping prone would be paid now, when the unit may (d20).
    pub drop_prone: Option<&'static str>,
    /// A Dive for cover may be made now, a Move action on its own turn (d20).
    pub dive: bool,
    /// A feint may be made now at some foe in sight, a Standard action (d20).
    pub feint: bool,
    /// Who would act first if the unit delayed its turn now (d20), when it may.
    pub delay: Option<super::components::CombatantId>,
    /// The unit is Prone and may stand up now (DBU: one Action).
    pub stand_up: bool,
    /// The unit is Poisoned and may try to cure it now (DBU: one Action and a Medicine check).
    pub cure_poison: bool,
    /// The condition End a Condition would try to end now, with its name (DBU: one Action and
    /// a Morale Save): a negative one first, Prone left to standing up.
    pub end_condition: Option<(crate::ruleset::ConditionKind, String)>,
    /// The Energy Charge maneuver, where the ruleset has it (DBU).
    pub charge: Option<ChargeBar>,
    /// An Arrogant Declaration may be made now (DBU: once an encounter), with its penalty.
    pub arrogant_declaration: Option<i64>,
    /// An Empower may be made now (DBU: once a round), of at least one ally.
    pub empower: bool,
    /// The grappling maneuvers the unit may make now (DBU), in the order the key offers them.
    pub grapple: Vec<super::command::GrappleAct>,
    /// A Hide may be made now (DBU), with its exact chance of going unseen in tenths of a
    /// percent.
    pub hide: Option<u32>,
    /// The Digivolutions the unit may make now (Digimon), in roster order.
    pub digivolve: Vec<DigivolveOffer>,
    /// Taking to the air or landing, when the unit may now (Digimon).
    pub fly: Option<FlyOffer>,
}

impl BarView {
    /// A bar with `points` and the `moves` text and none of the family maneuvers on offer: what
    /// each family starts from before it adds its own.
    pub fn plain(points: Option<u32>, moves: String) -> Self {
        Self {
            points,
            moves,
            drop_prone: None,
            dive: false,
            feint: false,
            delay: None,
            stand_up: false,
            cure_poison: false,
            end_condition: None,
            charge: None,
            arrogant_declaration: None,
            empower: false,
            grapple: Vec::new(),
            hide: None,
            digivolve: Vec::new(),
            fly: None,
        }
    }
}

/// A flight the bar offers: up to `height` squares (taking to the air) or down (0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlyOffer {
    /// True to take to the air, false to land (the command's `up`).
    pub up: bool,
    /// The height it would fly at afterwards (0 on the ground).
    pub height: u32,
    /// Its Fly score (what a Move covers in the air).
    pub fly: u32,
}

/// A higher stage a Digimon may Digivolve to now, as the bar offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigivolveOffer {
    /// Its roster id (the command's `into`).
    pub into: String,
    /// Its name and stage ("Greymon", "Champion").
    pub name: String,
    pub stage: String,
    /// The Hit Points it comes in with: all of them.
    pub hp: i64,
}

/// One ally an Empower could hand Ki to, as the window lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmpowerOffer {
    pub ally: super::components::CombatantId,
    pub name: String,
    pub at: Option<crate::grid::Square>,
    /// The Ki it would receive now.
    pub amount: i64,
    /// Its Ki now and at most.
    pub ki: (i64, i64),
    /// Why it may not be Empowered this way now, in words.
    pub refusal: Option<String>,
}

/// One combatant a grappling maneuver could be made on, as the window lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct GrappleOffer {
    /// The opponent it would be made on.
    pub target: super::components::CombatantId,
    /// Its name, for the panel.
    pub name: String,
    /// Where it stands, for lighting it up and for the click.
    pub at: Option<crate::grid::Square>,
    /// Each opposed roll's name and the exact chance of winning it (all must be won).
    pub rolls: Vec<(String, f64)>,
    /// Why it may not be made on this one now, in words.
    pub refusal: Option<String>,
}

impl GrappleOffer {
    /// The exact chance that every roll is won.
    pub fn chance(&self) -> f64 {
        self.rolls.iter().map(|(_, p)| p).product()
    }
}

/// The Energy Charge part of the bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeBar {
    /// What one more charge costs now, in Ki.
    pub ki: i64,
    /// The attack being charged and its charges, while the unit holds some.
    pub held: Option<(String, u32)>,
    /// One more charge is legal now (for the held attack; without one, it depends on the
    /// attack aimed).
    pub again: bool,
}

/// The question put to a unit whose reach a foe is leaving (or shooting in): what it is asked,
/// and what accepting and declining do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExploitPrompt {
    pub question: String,
    pub accept: &'static str,
    pub decline: &'static str,
}
