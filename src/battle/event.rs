//! The battle's event log: everything that happened, in order, with every roll's breakdown.
//! The demo prints it, tests assert it, the GUI will animate it and saves replay the commands
//! that produced it.

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::components::{CombatantId, Expiry, Side, Square};
use super::context::DefenseChoice;
use super::state::EndReason;
use crate::dice::RollBreakdown;
use crate::ruleset::{Category, ConditionKind};

/// A pool that changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pool {
    Life,
    Ki,
    Capacity,
    /// A power-stages combatant's stage on its track.
    PowerStage,
    /// A power-stages combatant's life cards.
    LifeCards,
    /// A shinobi's hit points.
    Hp,
    /// A shinobi's chakra.
    Chakra,
}

impl std::fmt::Display for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Life => "Life",
            Self::Ki => "Ki",
            Self::Capacity => "Capacity",
            Self::PowerStage => "power stage",
            Self::LifeCards => "life cards",
            Self::Hp => "HP",
            Self::Chakra => "Chakra",
        })
    }
}

/// Which kind of action was spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionKind {
    Standard,
    Counter,
    /// A Steady Momentum action.
    Momentum,
    /// One shinobi action point.
    ActionPoint,
    /// d20: the round's Swift action.
    Swift,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum BattleEvent {
    BattleStarted {
        seed: Option<u64>,
    },
    InitiativeRolled {
        who: CombatantId,
        roll: RollBreakdown,
    },
    /// A tie on initiative broken by a roll-off.
    InitiativeRollOff {
        who: CombatantId,
        roll: RollBreakdown,
    },
    TurnOrder {
        order: Vec<CombatantId>,
    },
    RoundStarted {
        round: u32,
    },
    ActionsRefreshed {
        who: CombatantId,
        standard: u32,
        counter: u32,
        /// Why the numbers differ from 3 + 1 (Slowed, Pinned, Rage aftermath…).
        notes: Vec<String>,
        /// Counted in action points (shinobi): `standard` is the AP.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ap: bool,
    },
    TurnStarted {
        who: CombatantId,
        round: u32,
    },
    TurnSkipped {
        who: CombatantId,
        reason: String,
    },
    TurnEnded {
        who: CombatantId,
    },
    /// Digimon: a combatant spent the round's Interrupt Action on a free Skill Check.
    InterruptSpent {
        who: CombatantId,
        what: String,
    },
    /// A Skill Check changed a square of the battlefield (a boulder heaved aside).
    GroundChanged {
        who: CombatantId,
        at: Square,
        from: String,
        to: String,
    },
    /// Digimon: `who` let its partner `to` act now in the turn they share, keeping `kept`
    /// actions for later in it.
    HandedOver {
        who: CombatantId,
        to: CombatantId,
        kept: u32,
    },
    /// Digimon: `who` takes back the shared turn it handed over, with `actions` left.
    TurnResumed {
        who: CombatantId,
        actions: u32,
    },
    ActionSpent {
        who: CombatantId,
        kind: ActionKind,
        what: String,
    },
    ActionConverted {
        who: CombatantId,
    },
    ActionGained {
        who: CombatantId,
        kind: ActionKind,
        reason: String,
    },
    PoolChanged {
        who: CombatantId,
        pool: Pool,
        from: i64,
        to: i64,
        reason: String,
    },
    /// A power-stages card drawn: `roll` on a d`of` over the deck's cards picked it.
    CardDrawn {
        who: CombatantId,
        card: String,
        roll: u32,
        of: u32,
    },
    /// A card played or discarded from the hand, and why.
    CardPlayed {
        who: CombatantId,
        card: String,
        why: String,
    },
    /// A power-stages attack landed: what it took (the pool changes follow).
    StageHit {
        attacker: CombatantId,
        target: CombatantId,
        stages: i64,
        life_cards: i64,
        what: String,
    },
    /// Shinobi concealment: a hit still misses when the percentile roll is at or under the
    /// chance.
    MissChanceRolled {
        target: CombatantId,
        chance: u32,
        source: String,
        roll: i64,
        missed: bool,
    },
    /// Shinobi partial cover: whether the attack hit the obstruction (a percentile roll at or
    /// under the chance), and what it absorbed.
    CoverRolled {
        target: CombatantId,
        cover: String,
        at: Square,
        chance: u32,
        roll: i64,
        absorbed: i64,
        left: i64,
    },
    /// Shinobi falling damage: half the feet fallen, none or half with an Acrobatics roll.
    Fell {
        who: CombatantId,
        at: Square,
        feet: u32,
        roll: Option<RollBreakdown>,
        negate_dc: i64,
        halve_dc: i64,
        damage: i64,
    },
    /// Shinobi: a counter jutsu cast with a defense (its AP and chakra are spent either way).
    CounterCast {
        who: CombatantId,
        counter: String,
    },
    /// Shinobi: a counter goes off after its defense evaded: the kept defense total against the
    /// attacker's own defense roll.
    CounterStruck {
        by: CombatantId,
        on: CombatantId,
        counter: String,
        kept: i64,
        defense: RollBreakdown,
        hit: bool,
        damage: i64,
    },
    /// Shinobi: the defense failed, so the counter is spent for nothing.
    CounterWasted {
        who: CombatantId,
        counter: String,
    },
    /// Shinobi: the sneak-attack contest, Stealth against Perception.
    SneakContest {
        attacker: CombatantId,
        defender: CombatantId,
        attack: RollBreakdown,
        defense: RollBreakdown,
        won: bool,
    },
    /// Shinobi slam damage: a push stopped short by an obstruction.
    Slammed {
        who: CombatantId,
        at: Square,
        damage: i64,
        what: String,
    },
    /// Shinobi: a hit opportunity attack stops the move where it entered the attacker's reach.
    StoppedAtReach {
        who: CombatantId,
        by: CombatantId,
        at: Square,
    },
    /// A move stopped by an Exploit on an ally's square (passed through, not stood on) ends on
    /// the last square of its path where the mover may stand.
    StoppedShort {
        who: CombatantId,
        at: Square,
    },
    /// An empty deck takes its discard pile back.
    DeckReshuffled {
        who: CombatantId,
        cards: u32,
    },
    /// Ki paid for a maneuver (cost and wager, or a Boosted move).
    KiSpent {
        who: CombatantId,
        amount: i64,
        from: i64,
        to: i64,
        what: String,
    },
    /// A Power Up stack gained.
    PoweredUp {
        who: CombatantId,
        stacks: u32,
        roll_bonus: i64,
        capacity: i64,
    },
    /// Power Up stacks ran out.
    PowerFaded {
        who: CombatantId,
    },
    /// A Combat Recovery begins (Exploits may answer it first).
    RecoveryStarted {
        who: CombatantId,
        actions: u32,
    },
    /// What a Combat Recovery gave back.
    Recovered {
        who: CombatantId,
        roll: RollBreakdown,
        life: i64,
        ki: i64,
        /// An Exploit hit during the recovery: the Life is not regained.
        life_lost_to_exploit: bool,
    },
    /// A Movement maneuver, as far as it got.
    Moved {
        who: CombatantId,
        path: Vec<Square>,
        cost: u32,
        boosted: bool,
        /// An Exploit's damage stopped it before the end of the declared path.
        stopped: bool,
        /// Paid with action points (shinobi): one move distance, no Normal or Boosted Speed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_ap: bool,
    },
    /// `mover` provoked `attacker`'s Exploit: by leaving its Melee Attack Range, or by a
    /// Combat Recovery within its reach (`recovering`).
    ExploitProvoked {
        attacker: CombatantId,
        mover: CombatantId,
        at: Square,
        recovering: bool,
        /// Shinobi: provoked by a sneak attack that was spotted.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        sneak: bool,
        /// Shinobi: an opportunity attack rather than a DBU Exploit.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        opportunity: bool,
        /// d20: provoked by a shot fired in a threatened square.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        shooting: bool,
    },
    AttackDeclared {
        attacker: CombatantId,
        profile: String,
        technique: Option<String>,
        element: Option<String>,
        targets: Vec<CombatantId>,
        ki_cost: i64,
        wager: i64,
        /// The pool the cost is paid from when it is not Ki (power stages).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost_pool: Option<Pool>,
    },
    ResponseWindow {
        attacker: CombatantId,
    },
    SurgeUsed {
        who: CombatantId,
        healing: bool,
        amount: i64,
        roll: Option<RollBreakdown>,
    },
    DefenseDeclared {
        defender: CombatantId,
        choice: DefenseChoice,
    },
    StrikeRolled {
        attacker: CombatantId,
        roll: RollBreakdown,
    },
    DefenseRolled {
        defender: CombatantId,
        roll: RollBreakdown,
    },
    /// The outcome of Strike against one defense; `strike` is that target's Strike total.
    Clash {
        attacker: CombatantId,
        defender: CombatantId,
        strike: i64,
        defense: i64,
        hit: bool,
        /// Set when the hit needed no Clash (Rage).
        automatic: Option<String>,
        /// The ruleset gives ties to the attacker (shinobi).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        attacker_wins_ties: bool,
    },
    /// d20: an attack roll against one target's difficulty and defense roll.
    D20Check {
        attacker: CombatantId,
        defender: CombatantId,
        strike: i64,
        difficulty: i64,
        difficulty_why: String,
        /// The defense roll's total (`None`: the target could not defend).
        defense: Option<i64>,
        attack_natural_one: bool,
        defense_natural_one: bool,
        hit: bool,
        /// By how much the attack beat what it had to meet.
        success: Option<i64>,
    },
    /// d20: armour bypassed by a hit loses 1 from every DR value.
    ArmourWorn {
        who: CombatantId,
        armour: String,
        wear: i64,
    },
    /// Digimon: an attack effect given, renewed or ended ("Poison: potency 4, 3 turns left").
    DigiEffect {
        who: CombatantId,
        by: CombatantId,
        effect: String,
        text: String,
    },
    /// Digimon: what 0 HP did (a fall to the Default Stage, a Digitama, a Tamer's Death
    /// Saving Throw), told in full.
    DigiFall {
        who: CombatantId,
        text: String,
    },
    /// Digimon: a Clash started, changed hands or ended, a Charm ended, told in full.
    DigiNote {
        who: CombatantId,
        text: String,
    },
    /// d20: a free action taken ("only one of a given type per round").
    FreeAction {
        who: CombatantId,
        what: String,
    },
    /// d20: where a grenade went (the corner it goes off on, a scatter, a throw-back) and
    /// its blast, told in full.
    Blast {
        who: CombatantId,
        text: String,
    },
    /// d20: a Dive for cover (where the diver landed, what it pays) and getting up again.
    Dive {
        who: CombatantId,
        text: String,
    },
    /// d20: a Drop prone, on one's turn or as an immediate action (what it paid with, what
    /// lying prone changes).
    DroppedProne {
        who: CombatantId,
        text: String,
    },
    WoundRolled {
        attacker: CombatantId,
        roll: RollBreakdown,
    },
    Damage {
        attacker: CombatantId,
        target: CombatantId,
        wound: i64,
        category: Category,
        soak: i64,
        soak_used: i64,
        damage: i64,
        notes: Vec<String>,
        /// Flat damage with no category or Soak (shinobi): the log says only how much.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        flat: bool,
    },
    Pushed {
        who: CombatantId,
        from: Square,
        to: Square,
    },
    DefenseLowered {
        who: CombatantId,
        amount: i64,
        until_turn_of: CombatantId,
        reason: String,
    },
    DiminishingDefense {
        who: CombatantId,
        added: i64,
        total: i64,
    },
    ThresholdReached {
        who: CombatantId,
        threshold: String,
        by_damage: bool,
    },
    SteadfastRolled {
        who: CombatantId,
        threshold: String,
        roll: RollBreakdown,
        passed: bool,
    },
    /// The penalty now in force for a combatant (after a save, a rise above, or Life lost
    /// without damage).
    ThresholdPenalty {
        who: CombatantId,
        threshold: Option<String>,
        penalty: i64,
    },
    /// Its own effect took a combatant through a threshold: fewer Standard Actions next round.
    ReducedMomentum {
        who: CombatantId,
        threshold: String,
        actions: u32,
    },
    CheckRolled {
        who: CombatantId,
        purpose: String,
        roll: RollBreakdown,
        target: i64,
        passed: bool,
    },
    /// An opposed Save (Absorbed's escape): both rolls and the winner.
    OpposedSave {
        who: CombatantId,
        against: CombatantId,
        roll: RollBreakdown,
        against_roll: RollBreakdown,
        passed: bool,
    },
    ConditionApplied {
        who: CombatantId,
        kind: ConditionKind,
        source: Option<CombatantId>,
        stacks: u32,
        amount: i64,
        expires: Expiry,
    },
    ConditionEnded {
        who: CombatantId,
        kind: ConditionKind,
        reason: String,
    },
    Defeated {
        who: CombatantId,
        by: Option<CombatantId>,
    },
    AttackEnded {
        attacker: CombatantId,
    },
    BattleEnded {
        winner: Option<Side>,
        round: u32,
        reason: EndReason,
    },
}

/// The battle's event log.
#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EventLog {
    pub events: Vec<BattleEvent>,
}

impl EventLog {
    /// Appends an event.
    pub fn push(&mut self, e: BattleEvent) {
        self.events.push(e);
    }
}

/// Combatant names for describing events.
pub type Names = BTreeMap<CombatantId, String>;

fn n(names: &Names, id: CombatantId) -> String {
    names.get(&id).cloned().unwrap_or_else(|| id.to_string())
}

fn expiry_text(names: &Names, e: &Expiry) -> String {
    match e {
        Expiry::UntilEnded => "until ended".into(),
        Expiry::EndOfTurn { round, of } => {
            format!("until the end of {}'s turn in round {round}", n(names, *of))
        }
        Expiry::EndOfRound(r) => format!("until the end of round {r}"),
    }
}

impl BattleEvent {
    /// One line of plain words, with the full breakdown of any roll.
    pub fn describe(&self, names: &Names) -> String {
        use BattleEvent as E;
        match self {
            E::BattleStarted { seed } => match seed {
                Some(s) => format!("Battle starts (seed {s})."),
                None => "Battle starts (scripted dice).".into(),
            },
            E::InitiativeRolled { who, roll } => format!("{} rolls {roll}", n(names, *who)),
            E::InitiativeRollOff { who, roll } => {
                format!("{} breaks the initiative tie: {roll}", n(names, *who))
            }
            E::TurnOrder { order } => format!(
                "Turn order: {}.",
                order
                    .iter()
                    .map(|i| n(names, *i))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            E::RoundStarted { round } => format!("=== Round {round} ==="),
            E::ActionsRefreshed {
                who,
                standard,
                counter,
                notes,
                ap,
            } => {
                let mut s = if *ap {
                    format!("{} has {standard} AP", n(names, *who))
                } else {
                    format!(
                        "{} has {standard} Standard and {counter} Counter Actions",
                        n(names, *who)
                    )
                };
                if !notes.is_empty() {
                    s.push_str(&format!(" ({})", notes.join("; ")));
                }
                s + "."
            }
            E::TurnStarted { who, round } => {
                format!("-- {}'s turn (round {round}) --", n(names, *who))
            }
            E::TurnSkipped { who, reason } => {
                format!("{}'s turn is skipped: {reason}.", n(names, *who))
            }
            E::TurnEnded { who } => format!("{} ends the turn.", n(names, *who)),
            E::InterruptSpent { who, what } => format!(
                "{} uses its Interrupt Action for a free Skill Check ({what}): no Intercede this round.",
                n(names, *who)
            ),
            E::GroundChanged { who, at, from, to } => format!(
                "{} clears {at}: the {} is now {}.",
                n(names, *who),
                from.to_lowercase(),
                to.to_lowercase()
            ),
            E::HandedOver { who, to, kept } => format!(
                "{} hands the turn to {} and keeps {kept} action{} for when {} is done.",
                n(names, *who),
                n(names, *to),
                if *kept == 1 { "" } else { "s" },
                n(names, *to)
            ),
            E::TurnResumed { who, actions } => format!(
                "-- {} takes the turn back ({actions} action{} left) --",
                n(names, *who),
                if *actions == 1 { "" } else { "s" }
            ),
            E::ActionSpent {
                who,
                kind: ActionKind::ActionPoint,
                what,
            } => format!("{} spends 1 AP on {what}.", n(names, *who)),
            E::ActionSpent {
                who,
                kind: ActionKind::Swift,
                what,
            } => format!("{} spends its Swift action on {what}.", n(names, *who)),
            E::ActionSpent { who, kind, what } => {
                format!("{} spends a {kind:?} Action on {what}.", n(names, *who))
            }
            E::FreeAction { who, what } => {
                format!("{} takes a free action: {what}.", n(names, *who))
            }
            E::ActionConverted { who } => format!(
                "{} converts a Standard Action into a Counter Action.",
                n(names, *who)
            ),
            E::ActionGained { who, kind, reason } => {
                format!("{} gains a {kind:?} Action: {reason}.", n(names, *who))
            }
            E::PoolChanged {
                who,
                pool,
                from,
                to,
                reason,
            } => format!("{} {pool} {from} -> {to} ({reason}).", n(names, *who)),
            E::KiSpent {
                who,
                from,
                to,
                what,
                ..
            } => format!("{} Ki {from} -> {to} ({what}).", n(names, *who)),
            E::CardDrawn {
                who,
                card,
                roll,
                of,
            } => format!(
                "{} draws {card} (d{of} over its deck: {roll}).",
                n(names, *who)
            ),
            E::CardPlayed { who, card, why } => {
                format!("{} plays {card}: {why}.", n(names, *who))
            }
            E::StageHit {
                target,
                stages,
                life_cards,
                what,
                ..
            } => format!(
                "{} loses {stages} power stage(s) and {life_cards} life card(s) to {what}.",
                n(names, *target)
            ),
            E::MissChanceRolled {
                target,
                chance,
                source,
                roll,
                missed,
            } => format!(
                "Concealment ({source}, {chance}% miss chance): d100 {roll}, {}.",
                if *missed {
                    format!("the attack misses {}", n(names, *target))
                } else {
                    "the hit stands".to_string()
                }
            ),
            E::CoverRolled {
                target,
                cover,
                at,
                chance,
                roll,
                absorbed,
                left,
            } => {
                if *roll <= i64::from(*chance) {
                    format!(
                        "Partial cover ({chance}%): d100 {roll}, the attack hits the {cover} at {at}, which absorbs {absorbed}{}.",
                        if *left <= 0 {
                            " and breaks".to_string()
                        } else {
                            format!(" ({left} left)")
                        }
                    )
                } else {
                    format!(
                        "Partial cover ({chance}%): d100 {roll}, the attack passes the {cover} and hits {}.",
                        n(names, *target)
                    )
                }
            }
            E::CounterCast { who, counter } => {
                format!("{} casts {counter} with the defense.", n(names, *who))
            }
            E::CounterStruck {
                by,
                on,
                counter,
                kept,
                defense,
                hit,
                damage,
            } => {
                if *hit {
                    format!(
                        "{counter}: {} keeps {kept} against {}'s {} {}: hits for {damage}.",
                        n(names, *by),
                        n(names, *on),
                        defense.kind,
                        defense.total
                    )
                } else {
                    format!(
                        "{counter}: {} keeps {kept} against {}'s {} {}: misses.",
                        n(names, *by),
                        n(names, *on),
                        defense.kind,
                        defense.total
                    )
                }
            }
            E::CounterWasted { who, counter } => format!(
                "{} is hit: {counter} is spent with no effect.",
                n(names, *who)
            ),
            E::Fell {
                who,
                at,
                feet,
                roll,
                negate_dc,
                halve_dc,
                damage,
            } => match roll {
                Some(r) => format!(
                    "{} falls {feet} ft at {at}: {} {} (DC {negate_dc} negates, DC {halve_dc} halves): {damage} falling damage.",
                    n(names, *who),
                    r.kind,
                    r.total
                ),
                None => format!(
                    "{} drops {feet} ft at {at}: too short a fall to hurt.",
                    n(names, *who)
                ),
            },
            E::SneakContest {
                attacker,
                defender,
                attack,
                defense,
                won,
            } => format!(
                "{} tries a sneak attack: {} {} against {}'s {} {}: {}",
                n(names, *attacker),
                attack.kind,
                attack.total,
                n(names, *defender),
                defense.kind,
                defense.total,
                if *won {
                    "unseen: every defense against it takes the sneak penalty.".to_string()
                } else {
                    format!(
                        "spotted: it provokes an opportunity attack from {} (if one can reach) and is made as an ordinary attack.",
                        n(names, *defender)
                    )
                }
            ),
            E::Slammed {
                who,
                at,
                damage,
                what,
            } => format!(
                "{} is slammed against an obstruction at {at}: {damage} slam damage ({what}).",
                n(names, *who)
            ),
            E::StoppedAtReach { who, by, at } => format!(
                "{} is stopped at {at}, where it entered {}'s reach.",
                n(names, *who),
                n(names, *by)
            ),
            E::StoppedShort { who, at } => format!(
                "{} cannot stop on an ally's square and stops at {at}, the last square it may \
                 stand on.",
                n(names, *who)
            ),
            E::DeckReshuffled { who, cards } => format!(
                "{}'s deck is empty: its {cards} discarded cards become the deck.",
                n(names, *who)
            ),
            E::PoweredUp {
                who,
                stacks,
                roll_bonus,
                capacity,
            } => format!(
                "{} powers up: {stacks} stack(s), +{roll_bonus} to Combat Rolls, +{capacity} Capacity, until the end of its next turn.",
                n(names, *who)
            ),
            E::PowerFaded { who } => format!("{}'s Power Up fades.", n(names, *who)),
            E::RecoveryStarted { who, actions } => format!(
                "{} begins a Combat Recovery with {actions} Actions: opponents not at Long Range may Exploit.",
                n(names, *who)
            ),
            E::Recovered {
                who,
                roll,
                life,
                ki,
                life_lost_to_exploit,
            } => {
                if *life_lost_to_exploit {
                    format!(
                        "{} recovers: {roll}; regains {ki} Ki, but no Life (an Exploit hit).",
                        n(names, *who)
                    )
                } else {
                    format!(
                        "{} recovers: {roll}; regains {life} Life and {ki} Ki.",
                        n(names, *who)
                    )
                }
            }
            E::Moved {
                who,
                path,
                cost,
                boosted,
                stopped,
                by_ap,
            } => {
                let speed = if *by_ap {
                    String::new()
                } else if *boosted {
                    " at Boosted Speed".to_string()
                } else {
                    " at Normal Speed".to_string()
                };
                let steps: Vec<String> = path.iter().map(|s| s.to_string()).collect();
                let mut s = format!(
                    "{} moves{speed}, cost {cost}: {}",
                    n(names, *who),
                    if steps.is_empty() {
                        "stays put".to_string()
                    } else {
                        steps.join(" -> ")
                    }
                );
                if *stopped && *by_ap {
                    s.push_str(" (stopped by an opportunity attack)");
                } else if *stopped {
                    s.push_str(" (stopped by an Exploit)");
                }
                s + "."
            }
            E::ExploitProvoked {
                attacker,
                mover,
                at,
                recovering,
                sneak,
                opportunity,
                shooting,
            } => {
                if *shooting {
                    format!(
                        "{} shoots at {at} within {}'s reach: attack of opportunity first!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *sneak {
                    format!(
                        "{} was spotted sneaking at {at}: {} may make an opportunity attack first!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *recovering {
                    format!(
                        "{} recovers at {at} within {}'s reach: Exploit!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *opportunity {
                    format!(
                        "{} leaves {}'s reach at {at}, a reach it entered: opportunity attack!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else {
                    format!(
                        "{} leaves {}'s reach at {at}: Exploit!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                }
            }
            E::AttackDeclared {
                attacker,
                profile,
                technique,
                element,
                targets,
                ki_cost,
                wager,
                cost_pool,
            } => {
                let mut what = profile.clone();
                if let Some(t) = technique {
                    what = format!("{t} ({what})");
                }
                if let Some(e) = element {
                    what.push_str(&format!(" [{e}]"));
                }
                let tgt = if targets.is_empty() {
                    "no one".to_string()
                } else {
                    targets
                        .iter()
                        .map(|i| n(names, *i))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                match cost_pool {
                    Some(_) if *ki_cost == 0 => {
                        format!("{} attacks {tgt} with {what}.", n(names, *attacker))
                    }
                    Some(Pool::Chakra) => format!(
                        "{} attacks {tgt} with {what}: costs {ki_cost} chakra.",
                        n(names, *attacker)
                    ),
                    Some(pool) => format!(
                        "{} attacks {tgt} with {what}: costs {ki_cost} {pool}(s).",
                        n(names, *attacker)
                    ),
                    None => format!(
                        "{} attacks {tgt} with {what}: Ki cost {ki_cost}, wager {wager}.",
                        n(names, *attacker)
                    ),
                }
            }
            E::ResponseWindow { attacker } => format!(
                "Instant actions may answer {}'s attack.",
                n(names, *attacker)
            ),
            E::SurgeUsed {
                who,
                healing,
                amount,
                roll,
            } => {
                let kind = if *healing {
                    "Healing Surge"
                } else {
                    "Ki Surge"
                };
                match roll {
                    Some(r) => format!("{} uses a {kind}: {r}; regains {amount}.", n(names, *who)),
                    None => format!("{} uses a {kind}: regains {amount}.", n(names, *who)),
                }
            }
            E::DefenseDeclared { defender, choice } => match choice {
                DefenseChoice::Take => format!("{} takes the shot.", n(names, *defender)),
                DefenseChoice::Dive => format!("{} will dive for cover.", n(names, *defender)),
                DefenseChoice::DropProne => format!("{} will drop prone.", n(names, *defender)),
                _ => format!("{} will {choice:?}.", n(names, *defender)),
            },
            E::StrikeRolled { attacker, roll } => format!("{}: {roll}", n(names, *attacker)),
            E::DefenseRolled { defender, roll } => format!("{}: {roll}", n(names, *defender)),
            E::Clash {
                attacker,
                defender,
                strike,
                defense,
                hit,
                automatic,
                attacker_wins_ties,
            } => match automatic {
                None if *attacker_wins_ties && *hit && strike == defense => format!(
                    "Strike {strike} ties {defense}: the attacker wins ties, {} hits {}.",
                    n(names, *attacker),
                    n(names, *defender)
                ),
                None if *attacker_wins_ties && !*hit => format!(
                    "Strike {strike} against {defense}: {} misses {}.",
                    n(names, *attacker),
                    n(names, *defender)
                ),
                Some(why) if !*hit => format!(
                    "{} stops {}'s attack ({why}).",
                    n(names, *defender),
                    n(names, *attacker)
                ),
                Some(why) => format!(
                    "{} hits {} automatically ({why}).",
                    n(names, *attacker),
                    n(names, *defender)
                ),
                None if *hit => format!(
                    "Strike {strike} beats {defense}: {} hits {}.",
                    n(names, *attacker),
                    n(names, *defender)
                ),
                None => format!(
                    "Strike {strike} against {defense}: {} misses {} (the defender wins ties).",
                    n(names, *attacker),
                    n(names, *defender)
                ),
            },
            E::D20Check {
                attacker,
                defender,
                strike,
                difficulty,
                difficulty_why,
                defense,
                attack_natural_one,
                defense_natural_one,
                hit,
                success,
            } => {
                let against = match defense {
                    Some(d) if *defense_natural_one => {
                        format!(
                            "DC {difficulty} ({difficulty_why}); the defense {d} rolled a natural 1 and fails"
                        )
                    }
                    Some(d) => format!("DC {difficulty} ({difficulty_why}) and the defense {d}"),
                    None => format!("DC {difficulty} ({difficulty_why}), no defense roll"),
                };
                let (a, t) = (n(names, *attacker), n(names, *defender));
                if *attack_natural_one {
                    format!(
                        "Attack {strike} against {against}: a natural 1 always fails, {a} misses {t}."
                    )
                } else if *hit {
                    format!(
                        "Attack {strike} against {against}: {a} hits {t} by {} (ties go to the attacker).",
                        success.unwrap_or(0)
                    )
                } else {
                    format!("Attack {strike} against {against}: {a} misses {t}.")
                }
            }
            E::ArmourWorn { who, armour, wear } => format!(
                "{}'s {armour} is bypassed and wears: every DR value is now {wear} lower.",
                n(names, *who)
            ),
            E::DigiEffect {
                who,
                by,
                effect,
                text,
            } => {
                if who == by {
                    format!("{}'s {effect} {text}.", n(names, *who))
                } else {
                    format!(
                        "{effect} from {} on {}: {text}.",
                        n(names, *by),
                        n(names, *who)
                    )
                }
            }
            E::DigiFall { text, .. }
            | E::DigiNote { text, .. }
            | E::Blast { text, .. }
            | E::Dive { text, .. }
            | E::DroppedProne { text, .. } => text.clone(),
            E::WoundRolled { attacker, roll } => format!("{}: {roll}", n(names, *attacker)),
            E::Damage {
                target,
                wound,
                category,
                soak,
                soak_used,
                damage,
                notes,
                flat,
                ..
            } => {
                let mut s = if *flat {
                    if damage == wound {
                        format!("{} takes {damage} damage", n(names, *target))
                    } else {
                        format!("{} takes {damage} of the {wound} damage", n(names, *target))
                    }
                } else {
                    format!(
                        "{} takes {damage} {category:?} damage (Wound {wound} - Soak {soak_used} of {soak})",
                        n(names, *target)
                    )
                };
                if !notes.is_empty() {
                    s.push_str(&format!(" [{}]", notes.join("; ")));
                }
                s + "."
            }
            E::Pushed { who, from, to } => {
                format!("{} is pushed from {from} to {to}.", n(names, *who))
            }
            E::DefenseLowered {
                who,
                amount,
                until_turn_of,
                reason,
            } => format!(
                "{} has {amount} Defense Value until the start of {}'s next turn ({reason}).",
                n(names, *who),
                n(names, *until_turn_of)
            ),
            E::DiminishingDefense { who, added, total } => format!(
                "{}'s Diminishing Defense: -{added} (now -{total}).",
                n(names, *who)
            ),
            E::ThresholdReached {
                who,
                threshold,
                by_damage,
            } => {
                if *by_damage {
                    format!("{} reaches the {threshold} threshold.", n(names, *who))
                } else {
                    format!(
                        "{} reaches the {threshold} threshold without damage (penalty, no triggers).",
                        n(names, *who)
                    )
                }
            }
            E::SteadfastRolled {
                who,
                threshold,
                roll,
                passed,
            } => format!(
                "{} makes a Steadfast Save for {threshold}: {roll} -> {}.",
                n(names, *who),
                if *passed { "passed" } else { "failed" }
            ),
            E::ThresholdPenalty {
                who,
                threshold,
                penalty,
            } => match threshold {
                Some(t) => format!(
                    "{} suffers the {t} penalty: -{penalty} to Combat Rolls.",
                    n(names, *who)
                ),
                None => format!("{} has no threshold penalty.", n(names, *who)),
            },
            E::ReducedMomentum {
                who,
                threshold,
                actions,
            } => format!(
                "{} will have {actions} fewer Standard Action next round (Reduced Momentum: its own effect took it through {threshold}).",
                n(names, *who)
            ),
            E::CheckRolled {
                who,
                purpose,
                roll,
                target,
                passed,
            } => format!(
                "{} {purpose}: {roll} against TN {target} -> {}.",
                n(names, *who),
                if *passed { "success" } else { "failure" }
            ),
            E::OpposedSave {
                who,
                against,
                roll,
                against_roll,
                passed,
            } => format!(
                "{} tries to escape {}: {roll} against {against_roll} -> {}.",
                n(names, *who),
                n(names, *against),
                if *passed { "free" } else { "still held" }
            ),
            E::ConditionApplied {
                who,
                kind,
                source,
                stacks,
                amount,
                expires,
            } => {
                let mut s = format!("{} gains {kind:?}", n(names, *who));
                if *stacks > 1 {
                    s.push_str(&format!(" x{stacks}"));
                }
                if *amount > 0 {
                    s.push_str(&format!(" ({amount} per turn)"));
                }
                if let Some(src) = source {
                    s.push_str(&format!(" from {}", n(names, *src)));
                }
                format!("{s}, {}.", expiry_text(names, expires))
            }
            E::ConditionEnded { who, kind, reason } => {
                format!("{}'s {kind:?} ends ({reason}).", n(names, *who))
            }
            E::Defeated { who, by } => match by {
                Some(b) => format!("{} is Defeated by {}!", n(names, *who), n(names, *b)),
                None => format!("{} is Defeated!", n(names, *who)),
            },
            E::AttackEnded { attacker } => format!("{}'s attack ends.", n(names, *attacker)),
            E::BattleEnded {
                winner,
                round,
                reason,
            } => match (winner, reason) {
                (Some(s), EndReason::LastSideStanding) => {
                    format!("Battle over in round {round}: side {} wins.", s.0)
                }
                (Some(s), EndReason::RoundLimit) => format!(
                    "Battle over after round {round}, the round limit: side {} wins.",
                    s.0
                ),
                (None, EndReason::LastSideStanding) => {
                    format!("Battle over in round {round}: no one is left standing.")
                }
                (None, EndReason::RoundLimit) => {
                    format!("Battle over after round {round}, the round limit: a draw.")
                }
            },
        }
    }
}
