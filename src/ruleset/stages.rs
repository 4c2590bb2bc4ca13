//! The power-stages family (the Dragon Ball card game's "Combat Cards in Combat"): its data
//! files, their checks, and how they are lowered into the engine's shared rule tables.
//!
//! A power-stages ruleset is `ruleset.ron`, `stages.ron` (the Physical Attack Table, the cards,
//! hands and turns), `roster.ron` (personalities with a power-stage track, life cards and a
//! deck) and `terrain.ron`. The engine plays every ruleset through one set of tables (attack
//! types, profiles, pools, sizes); [`lower`] builds those tables from the family's own data, so
//! a modder edits only the four files above and the battle, previews, AI, saves and window
//! work unchanged. What the card game does differently (no dice on attacks, blocks with held
//! cards, stage losses spilling into life cards) is `crate::battle::family::stages`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::RulesError;
use super::locate::FieldPath;
use super::neutral;
use super::schema::*;
use crate::dice::Formula;

/// `stages.ron`: everything about combat in the card game that is not a personality.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageRules {
    /// What the two pools are called on screen and in the log.
    pub pool_names: PoolNames,
    /// How physical attacks resolve: the text's one row, the rest ours.
    pub physical_table: PhysicalTable,
    /// The default cost and effect of energy attacks.
    pub energy: EnergyRules,
    /// The attack of last resort, shown under this name.
    pub final_physical: FinalPhysical,
    /// Hand size and draws: cards are the maneuvers a personality holds.
    pub hand: HandRules,
    /// What one turn allows on the grid.
    pub turn: TurnRules,
    /// Initiative: this formula (over the personality's values) plus a d10 roll-off.
    pub initiative: Formula,
    /// The combat cards of the game, by id (personality card powers among them).
    pub cards: Vec<CardDef>,
    /// Personality card powers: how often a personality may use its own in a round.
    #[serde(default)]
    pub personality_powers: PowerRules,
    /// The anger two-part cards raise, and what a full anger does.
    #[serde(default)]
    pub anger: AngerRules,
    /// The range each number of a character may take (ours: the text gives no caps). The
    /// roster is held to it, and the character editor refuses a value outside it.
    #[serde(default)]
    pub build: crate::ruleset::build::BuildLimits,
}

/// Display names of the two pools.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolNames {
    /// The power-stage track (Ki in the shared tables).
    pub stages: String,
    /// The life deck counted in cards (Life in the shared tables).
    pub life: String,
}

/// The Physical Attack Table: rows are the attacker's power band, columns the defender's, and
/// the entry is how many power stages the defender loses.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhysicalTable {
    /// The lowest power of each band, ascending from 0: band i is `bands[i]..bands[i+1]`.
    pub bands: Vec<i64>,
    /// `losses[row][column]`, one row and one column per band.
    pub losses: Vec<Vec<u32>>,
}

impl PhysicalTable {
    /// The band (row or column, from 0) a power value falls in.
    pub fn band(&self, power: i64) -> usize {
        self.bands
            .iter()
            .rposition(|b| power >= *b)
            .unwrap_or_default()
    }

    /// Stages a defender at `defender` power loses to a physical attack at `attacker` power.
    pub fn loss(&self, attacker: i64, defender: i64) -> u32 {
        self.losses
            .get(self.band(attacker))
            .and_then(|row| row.get(self.band(defender)))
            .copied()
            .unwrap_or_default()
    }
}

/// Personality card powers ("Main Personality card power to defend himself", "use a
/// personality card power", 002:9 and 002:40). A power is never discarded ("the cards used to
/// attack and defend, other than Personality cards, are discarded"), so a limit a round keeps
/// one card from blocking every attack.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerRules {
    /// Uses of its personality card power a personality has each round (our default: 1).
    pub per_round: u32,
}

impl Default for PowerRules {
    fn default() -> Self {
        Self { per_round: 1 }
    }
}

/// Anger, which two-part cards raise ("Raise the card user's anger by 1", 002:53). The card
/// game raises a personality a level when its anger is full; our personalities have one card
/// each, so at the start of its next turn a full anger starts again from 0 and the level adds
/// `level_bonus` to the stages each of its physical attacks takes on the Physical Attack Table
/// (our default).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AngerRules {
    /// Anger at which it is full (our default: 5, the card game's).
    pub limit: u32,
    /// Stages a level adds to the personality's physical attacks on the table (our default: 1).
    pub level_bonus: u32,
}

impl Default for AngerRules {
    fn default() -> Self {
        Self {
            limit: 5,
            level_bonus: 1,
        }
    }
}

/// Energy attacks: their default cost and effect ("unless otherwise noted" on the card).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyRules {
    /// Power stages an energy attack costs; it cannot be made with fewer.
    pub cost: u32,
    /// Life cards a successful energy attack takes.
    pub life_cards: u32,
}

/// The Final Physical Attack: made by discarding any card when no attack card it can use is
/// held ("no attack cards or card powers to use").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalPhysical {
    /// Shown in the action bar and the log.
    pub name: String,
    /// Shown to players and modders.
    pub description: String,
}

/// How many cards a personality holds and draws.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandRules {
    /// Cards drawn before the battle.
    pub starting: u32,
    /// Cards drawn at the start of each of its turns.
    pub draw_per_turn: u32,
    /// At most this many held after drawing: the excess is discarded, most copies first.
    pub limit: u32,
}

/// What one turn allows.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRules {
    /// Movement maneuvers per turn.
    pub moves: u32,
    /// Attacks per turn.
    pub attacks: u32,
}

/// What a card does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CardKind {
    /// Melee range, resolved on the Physical Attack Table.
    PhysicalAttack,
    /// Any range, costs stages, takes life cards.
    EnergyAttack,
    /// Blocks one physical attack.
    PhysicalDefense,
    /// Blocks one energy attack.
    EnergyDefense,
}

impl CardKind {
    /// How the kind is named to players.
    pub fn name(self) -> &'static str {
        match self {
            Self::PhysicalAttack => "physical attack",
            Self::EnergyAttack => "energy attack",
            Self::PhysicalDefense => "physical defense",
            Self::EnergyDefense => "energy defense",
        }
    }

    /// True for the two attack kinds.
    pub fn attacks(self) -> bool {
        matches!(self, Self::PhysicalAttack | Self::EnergyAttack)
    }

    /// The defense kind that blocks this attack kind.
    pub fn blocked_by(self) -> Option<Self> {
        match self {
            Self::PhysicalAttack => Some(Self::PhysicalDefense),
            Self::EnergyAttack => Some(Self::EnergyDefense),
            _ => None,
        }
    }
}

/// One combat card.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    /// Named by decks and by attack orders (it is the attack's profile id).
    pub id: String,
    /// Shown in the hand, the action bar and the log.
    pub name: String,
    /// What the card does.
    pub kind: CardKind,
    /// A physical attack that states its damage: this many stages, ignoring the table.
    #[serde(default)]
    pub stages: Option<u32>,
    /// An energy attack that notes another number of life cards.
    #[serde(default)]
    pub life_cards: Option<u32>,
    /// An energy attack that notes another stage cost; on a personality card power that
    /// blocks, the power stages each block costs.
    #[serde(default)]
    pub cost: Option<u32>,
    /// The second power of a card that reads "… or …": the player picks which one the card is
    /// played as (an attack when it attacks, a block when it blocks).
    #[serde(default)]
    pub or: Option<CardKind>,
    /// Further parts of a card power without "or": each occurs as the card is played, before
    /// the defender acts, so a blocked attack still has them.
    #[serde(default)]
    pub also: Vec<CardPart>,
    /// A personality card power, named by a personality's `power`: never dealt into a deck,
    /// never discarded, used `personality_powers.per_round` times a round.
    #[serde(default)]
    pub personality: bool,
    /// Shown to players and modders.
    pub description: String,
}

impl CardDef {
    /// The attack this card makes, if either of its powers is one.
    pub fn attack_kind(&self) -> Option<CardKind> {
        std::iter::once(self.kind)
            .chain(self.or)
            .find(|k| k.attacks())
    }

    /// Whether one of its powers is `kind`.
    pub fn serves(&self, kind: CardKind) -> bool {
        self.kind == kind || self.or == Some(kind)
    }
}

/// A part of a two-part card power that is not the attack or the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardPart {
    /// "Raise the card user's anger by N."
    RaiseAnger(u32),
    /// Raise the card user's power stage by N (to the top of its track).
    RaiseStages(u32),
}

impl CardPart {
    /// How the part reads on a card.
    pub fn words(self) -> String {
        match self {
            Self::RaiseAnger(n) => format!("raise the card user's anger by {n}"),
            Self::RaiseStages(n) => format!("raise the card user's power stage by {n}"),
        }
    }
}

/// `roster.ron` of a power-stages ruleset.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageRoster {
    /// The combatants scenarios can field, by id.
    pub personalities: Vec<PersonalityDef>,
}

/// A personality: its power-stage track, life cards, speed and deck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PersonalityDef {
    /// Named by scenarios' `archetype:`.
    pub id: String,
    /// The default shown name.
    pub name: String,
    /// Shown to players and modders.
    pub description: String,
    /// A hint for players: what it is good at.
    pub role: String,
    /// One or two letters drawn on its token.
    pub glyph: String,
    /// The power of each stage, from stage 0 (the lowest) up.
    pub power_stages: Vec<i64>,
    /// The stage it starts the battle at.
    pub start_stage: u32,
    /// Stages gained at the start of each of its turns (the card game's Power Up step).
    pub power_up: u32,
    /// Its life pool: defeated when none are left.
    pub life_cards: u32,
    /// Squares per movement maneuver.
    pub speed: u32,
    /// Card id → copies in its deck.
    pub deck: BTreeMap<String, u32>,
    /// Its personality card power: a `personality: true` card of `stages.ron`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
}

/// The most cards a deck may hold (a guard against absurd hand-edited numbers).
pub const MAX_DECK: u32 = 1000;

/// The most squares a personality may move (a guard against absurd hand-edited numbers).
pub const MAX_SPEED: u32 = 1000;

/// The profile id of the Final Physical Attack.
pub const FINAL_PHYSICAL: &str = "final_physical";
/// The physical attack type's id in the lowered tables.
pub const PHYSICAL: &str = "physical";
/// The energy attack type's id in the lowered tables.
pub const ENERGY: &str = "energy";

/// Formula names a personality offers (`initiative` and the lowered derived values use them).
pub const PERSONALITY_VARS: [&str; 5] = ["CARDS", "STAGES", "START", "SPEED", "PUR"];

/// Builds the engine tables from a power-stages ruleset's data. Personality values become
/// attributes (`CARDS`, `STAGES` = top stage, `START`, `SPEED`, `PUR`), Life is life cards, Ki is
/// the current power stage; every attack card becomes a profile of type `physical` (melee) or
/// `energy` (any range), plus the Final Physical Attack. No dice, Soak, thresholds or conditions.
pub fn lower(stages: &StageRules, roster: &StageRoster) -> neutral::Lowered {
    let attributes = PERSONALITY_VARS
        .iter()
        .map(|id| AttributeDef {
            id: (*id).to_string(),
            name: (*id).to_string(),
            description: "a personality's value (power-stages)".into(),
        })
        .collect();
    let characters = neutral::characters(
        attributes,
        neutral::derived("SPEED", stages.initiative.clone(), "CARDS", "STAGES"),
    );
    let mut profiles: Vec<ProfileDef> = stages
        .cards
        .iter()
        .filter_map(|c| Some((c, c.attack_kind()?)))
        .map(|(c, kind)| ProfileDef {
            id: c.id.clone(),
            name: c.name.clone(),
            attack_type: if kind == CardKind::EnergyAttack {
                ENERGY
            } else {
                PHYSICAL
            }
            .into(),
            cost: Formula::constant(if kind == CardKind::EnergyAttack {
                i64::from(c.cost.unwrap_or(stages.energy.cost))
            } else {
                0
            }),
            category: Category::Lethal,
            targeting: Targeting::Single,
            effects: Vec::new(),
            repeatable: true,
            description: c.description.clone(),
        })
        .collect();
    profiles.push(ProfileDef {
        id: FINAL_PHYSICAL.into(),
        name: stages.final_physical.name.clone(),
        attack_type: PHYSICAL.into(),
        cost: Formula::constant(0),
        category: Category::Lethal,
        targeting: Targeting::Single,
        effects: Vec::new(),
        repeatable: true,
        description: stages.final_physical.description.clone(),
    });
    let attacks = AttackRules {
        types: vec![
            neutral::attack_type(
                PHYSICAL,
                "Physical",
                Reach::Melee,
                "A physical attack: an adjacent target, resolved on the Physical Attack Table.",
            ),
            neutral::attack_type(
                ENERGY,
                "Energy",
                Reach::Any,
                "An energy attack: any range, costs power stages, takes life cards.",
            ),
        ],
        long_range: LongRange {
            beyond: u32::MAX,
            strike_penalty: neutral::zero(),
        },
        profile_once_per_round: false,
        energy_charge: EnergyChargeRules {
            wound_per_charge: neutral::no_dice(),
            parry_penalty_per_charge: neutral::zero(),
            maneuver: None,
        },
        profiles,
        called_shot: None,
        reflect: None,
        elements: Vec::new(),
    };
    let actions = neutral::actions(neutral::Economy {
        moves_per_round: stages.turn.moves,
        standard_actions: stages.turn.moves.saturating_add(stages.turn.attacks),
        counter_actions: 0,
        conversion: false,
        tie_attribute: "SPEED",
        rolloff_die: 10,
    });
    // Every attack card a deck may hold; each personality adds its own card power if that
    // attacks, then the Final Physical Attack.
    let attack_ids: Vec<String> = stages
        .cards
        .iter()
        .filter(|c| c.attack_kind().is_some() && !c.personality)
        .map(|c| c.id.clone())
        .collect();
    let archetypes = roster
        .personalities
        .iter()
        .map(|p| {
            neutral::archetype(neutral::Plain {
                id: &p.id,
                name: &p.name,
                description: &p.description,
                role: &p.role,
                glyph: &p.glyph,
                attributes: BTreeMap::from([
                    ("CARDS".to_string(), i64::from(p.life_cards)),
                    (
                        "STAGES".to_string(),
                        p.power_stages.len().saturating_sub(1) as i64,
                    ),
                    ("START".to_string(), i64::from(p.start_stage)),
                    ("SPEED".to_string(), i64::from(p.speed)),
                    ("PUR".to_string(), i64::from(p.power_up)),
                ]),
                profiles: attack_ids
                    .iter()
                    .cloned()
                    .chain(
                        p.power
                            .iter()
                            .filter(|id| {
                                stages
                                    .cards
                                    .iter()
                                    .any(|c| &c.id == *id && c.attack_kind().is_some())
                            })
                            .cloned(),
                    )
                    .chain(std::iter::once(FINAL_PHYSICAL.to_string()))
                    .collect(),
            })
        })
        .collect();
    neutral::Lowered {
        dice: neutral::dice(10, false),
        characters,
        attacks,
        damage: neutral::damage(),
        conditions: neutral::conditions(),
        actions,
        roster: Roster { archetypes },
    }
}

/// Every problem in a power-stages ruleset's own files: `stages` and `roster` are their paths
/// and texts, for positions.
pub fn validate(
    stages: &StageRules,
    roster: &StageRoster,
    stages_src: &(PathBuf, String),
    roster_src: &(PathBuf, String),
) -> Vec<RulesError> {
    let mut errors = Vec::new();
    let root = FieldPath::root();
    let mut at = |src: &(PathBuf, String), path: &FieldPath, msg: String| {
        errors.push(RulesError::at(&src.0, &src.1, path, msg));
    };
    // The Physical Attack Table.
    let t = &stages.physical_table;
    let tp = root.field("physical_table");
    if t.bands.first() != Some(&0) {
        at(
            stages_src,
            &tp.field("bands"),
            "the first band must start at power 0".into(),
        );
    }
    if t.bands.windows(2).any(|w| w[0] >= w[1]) {
        at(
            stages_src,
            &tp.field("bands"),
            "bands must rise strictly".into(),
        );
    }
    if t.losses.len() != t.bands.len() {
        at(
            stages_src,
            &tp.field("losses"),
            format!(
                "{} rows for {} bands: one row per attacker band is needed",
                t.losses.len(),
                t.bands.len()
            ),
        );
    }
    for (i, row) in t.losses.iter().enumerate() {
        if row.len() != t.bands.len() {
            at(
                stages_src,
                &tp.field("losses").index(i),
                format!(
                    "{} columns for {} bands: one column per defender band is needed",
                    row.len(),
                    t.bands.len()
                ),
            );
        }
    }
    if stages.energy.cost == 0 {
        at(
            stages_src,
            &root.field("energy").field("cost"),
            "an energy attack costs at least 1 power stage".into(),
        );
    }
    let h = &stages.hand;
    if h.limit == 0 || h.starting > h.limit {
        at(
            stages_src,
            &root.field("hand"),
            "the hand limit must be at least 1 and at least the starting hand".into(),
        );
    }
    if stages.anger.limit == 0 {
        at(
            stages_src,
            &root.field("anger").field("limit"),
            "anger is full at 1 or more".into(),
        );
    }
    if stages.turn.attacks == 0 {
        at(
            stages_src,
            &root.field("turn").field("attacks"),
            "a turn must allow at least one attack".into(),
        );
    }
    for (name, _) in stages.initiative.variables() {
        if !PERSONALITY_VARS.contains(&name.as_str()) {
            at(
                stages_src,
                &root.field("initiative"),
                format!(
                    "unknown name `{name}` in this formula (allowed here: {})",
                    PERSONALITY_VARS.join(", ")
                ),
            );
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, c) in stages.cards.iter().enumerate() {
        let p = root.field("cards").index(i);
        if c.id.is_empty() || c.id == FINAL_PHYSICAL || !seen.insert(c.id.as_str()) {
            at(
                stages_src,
                &p.field("id"),
                format!("card id `{}` is empty, reserved or used twice", c.id),
            );
        }
        if c.stages.is_some() && c.attack_kind() != Some(CardKind::PhysicalAttack) {
            at(
                stages_src,
                &p.field("stages"),
                "only a physical attack card can state its stage damage".into(),
            );
        }
        let paid_block = c.personality && c.attack_kind().is_none();
        if c.life_cards.is_some() && c.attack_kind() != Some(CardKind::EnergyAttack)
            || c.cost.is_some() && c.attack_kind() != Some(CardKind::EnergyAttack) && !paid_block
        {
            at(
                stages_src,
                &p.field("kind"),
                "only an energy attack card can note its own cost or life cards (or a personality card power that blocks, its cost)".into(),
            );
        }
        if let Some(or) = c.or
            && (or == c.kind || (or.attacks() && c.kind.attacks()))
        {
            at(
                stages_src,
                &p.field("or"),
                format!(
                    "a card's two powers must differ, and only one may be an attack (`{:?} or {or:?}`)",
                    c.kind
                ),
            );
        }
        for (k, part) in c.also.iter().enumerate() {
            if matches!(part, CardPart::RaiseAnger(0) | CardPart::RaiseStages(0)) {
                at(
                    stages_src,
                    &p.field("also").index(k),
                    "a part of a card power raises by at least 1".into(),
                );
            }
        }
        if c.cost == Some(0) {
            at(
                stages_src,
                &p.field("cost"),
                "an energy attack costs at least 1 power stage".into(),
            );
        }
    }
    // The roster.
    let mut ids = std::collections::BTreeSet::new();
    if roster.personalities.is_empty() {
        at(
            roster_src,
            &root.field("personalities"),
            "at least one personality is needed".into(),
        );
    }
    for (i, p) in roster.personalities.iter().enumerate() {
        let pp = root.field("personalities").index(i);
        if p.id.is_empty() || !ids.insert(p.id.as_str()) {
            at(
                roster_src,
                &pp.field("id"),
                format!("personality id `{}` is empty or used twice", p.id),
            );
        }
        if p.power_stages.is_empty() {
            at(
                roster_src,
                &pp.field("power_stages"),
                "a personality needs at least one power stage".into(),
            );
        }
        if p.power_stages.windows(2).any(|w| w[0] >= w[1]) || p.power_stages.first() < Some(&0) {
            at(
                roster_src,
                &pp.field("power_stages"),
                "power stages must rise strictly from 0 or more".into(),
            );
        }
        if p.start_stage as usize >= p.power_stages.len().max(1) {
            at(
                roster_src,
                &pp.field("start_stage"),
                format!(
                    "stage {} does not exist: the track has stages 0 to {}",
                    p.start_stage,
                    p.power_stages.len().saturating_sub(1)
                ),
            );
        }
        if p.life_cards == 0 {
            at(
                roster_src,
                &pp.field("life_cards"),
                "a personality needs at least 1 life card".into(),
            );
        }
        if p.speed == 0 || p.speed > MAX_SPEED {
            at(
                roster_src,
                &pp.field("speed"),
                format!(
                    "a personality moves 1 to {MAX_SPEED} squares, not {}",
                    p.speed
                ),
            );
        }
        let cards = p.deck.values().fold(0u32, |a, n| a.saturating_add(*n));
        if cards == 0 || cards > MAX_DECK {
            at(
                roster_src,
                &pp.field("deck"),
                format!("a deck holds 1 to {MAX_DECK} cards, not {cards}"),
            );
        }
        let build = &stages.build;
        let limits: [(&str, &str, i64, &str); 5] = [
            (
                "stages",
                "power_stages",
                p.power_stages.len() as i64,
                "The track's stages",
            ),
            ("power_up", "power_up", i64::from(p.power_up), "Power Up"),
            (
                "life_cards",
                "life_cards",
                i64::from(p.life_cards),
                "Life cards",
            ),
            ("speed", "speed", i64::from(p.speed), "Speed"),
            ("deck", "deck", i64::from(cards), "The deck's cards"),
        ];
        for (key, field, value, what) in limits {
            if let Some(msg) = build.refuse("stages.ron", &[key], what, value) {
                at(roster_src, &pp.field(field), msg);
            }
        }
        for (k, power) in p.power_stages.iter().enumerate() {
            if let Some(msg) = build.refuse("stages.ron", &["power"], "A stage's power", *power) {
                at(roster_src, &pp.field("power_stages").index(k), msg);
            }
        }
        for card in p.deck.keys() {
            match stages.cards.iter().find(|c| &c.id == card) {
                None => at(
                    roster_src,
                    &pp.field("deck").field(card),
                    format!("unknown card `{card}` (see stages.ron's cards)"),
                ),
                Some(c) if c.personality => at(
                    roster_src,
                    &pp.field("deck").field(card),
                    format!(
                        "`{card}` is a personality card power: a personality names it as its `power`, a deck cannot hold it"
                    ),
                ),
                Some(_) => {}
            }
        }
        if let Some(power) = &p.power
            && !stages.cards.iter().any(|c| &c.id == power && c.personality)
        {
            at(
                roster_src,
                &pp.field("power"),
                format!(
                    "unknown personality card power `{power}` (see stages.ron's cards with `personality: true`)"
                ),
            );
        }
    }
    errors
}

/// What a power-stages `terrain.ron` may not say: the card game rolls nothing and has no cover,
/// so a roll modifier or a cover rank would be silently ignored; refuse them instead.
pub fn terrain_errors(terrain: &super::TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    let mut errors = Vec::new();
    for (i, t) in terrain.types.iter().enumerate() {
        let p = FieldPath::root().field("types").index(i);
        if t.roll_modifier.is_some() {
            errors.push(RulesError::at(
                &src.0,
                &src.1,
                &p.field("roll_modifier"),
                "power stages rolls nothing: a terrain cannot change rolls",
            ));
        }
        if t.cover_rank.is_some() {
            errors.push(RulesError::at(
                &src.0,
                &src.1,
                &p.field("cover_rank"),
                "power stages has no cover: a terrain cannot give a cover rank",
            ));
        }
    }
    errors
}

/// A power-stages ruleset's own data, kept beside the lowered tables.
#[derive(Debug, Clone)]
pub struct StageData {
    /// `stages.ron`, for the rules the shared tables cannot hold (table, cards, hands).
    pub combat: StageRules,
    /// `roster.ron`, for the power-stage tracks and decks.
    pub roster: StageRoster,
}

impl StageData {
    /// A personality by id.
    pub fn personality(&self, id: &str) -> Option<&PersonalityDef> {
        self.roster.personalities.iter().find(|p| p.id == id)
    }

    /// A card by id.
    pub fn card(&self, id: &str) -> Option<&CardDef> {
        self.combat.cards.iter().find(|c| c.id == id)
    }
}

/// The files of a power-stages ruleset, in load order.
pub const STAGE_FILES: [&str; 4] = ["ruleset.ron", "stages.ron", "roster.ron", "terrain.ron"];
