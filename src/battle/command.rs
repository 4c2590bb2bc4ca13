//! Commands: the only way anything changes in a battle, from a person, the AI or a replay; and
//! the typed errors that refuse an illegal one.

use serde::{Deserialize, Serialize};

use super::components::{CombatantId, Square};
use crate::grid::Dir8;
use crate::ruleset::ConditionKind;

/// What an attack is aimed at; which one a profile needs follows from its targeting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackTarget {
    /// A single-target profile's target.
    Combatant(CombatantId),
    /// A cone's direction from the attacker (Blast).
    Direction(Dir8),
    /// A sphere's centre square (Explosion).
    Square(Square),
    /// A cone or line that starts on a chosen square and points in a direction.
    SquareToward(Square, Dir8),
    /// Everyone in reach, for profiles that choose their own targets (Sweeping).
    InReach,
}

impl AttackTarget {
    /// The square an area is aimed at, if it is aimed at one.
    pub fn square(&self) -> Option<Square> {
        match self {
            Self::Square(s) | Self::SquareToward(s, _) => Some(*s),
            _ => None,
        }
    }
}

/// An Attacking Maneuver as declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackOrder {
    pub attacker: CombatantId,
    /// A Basic Attack profile id, or the technique's profile when `technique` is set.
    pub profile: String,
    /// A Signature Technique id of the attacker (uses its profile; 1/round).
    pub technique: Option<String>,
    pub target: AttackTarget,
    /// Ki wagered on the Wound Roll, declared before the Strike.
    pub wager: i64,
    /// The element of an Elemental attack.
    pub element: Option<String>,
    /// Kiai's push distance (up to half Force); `None` pushes as far as allowed.
    pub push: Option<u32>,
    /// Shinobi: attempt it as a sneak attack (Stealth against the target's Perception first).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sneak: bool,
    /// DBU: a Called Shot at this body part (its id in the ruleset's `called_shot` targets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub called_shot: Option<String>,
    /// DBU: an adjacent ally joins with a United Attack (an Instant of the ally's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub united: Option<United>,
    /// Power stages: the card a Final Physical Attack discards ("any one card from your hand");
    /// `None` discards the card held in most copies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<String>,
    /// d20: Power Attack at this amount with a melee weapon (−N to hit, +N Effect Points, x1.5
    /// two-handed); the first attack of a turn sets it until the attacker's next turn starts.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub power_attack: i64,
    /// d20: an aimed shot, treating the target's armour as cover or the cover between as
    /// concealment.
    #[serde(default, skip_serializing_if = "AimedShot::is_plain")]
    pub aimed: AimedShot,
}

/// d20: what an aimed shot treats differently, the text's "Can armor be treated as Cover?" and
/// "Can I treat Cover as Concealment?": a harder hit that gets past what would stop it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AimedShot {
    /// At the gaps of the target's armour: the armour counts as cover (its `as_cover` bonus,
    /// the highest cover or concealment counting), and a hit ignores its DR and wears nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub armour_gaps: bool,
    /// Through the cover between: its bonus halved, as concealment, but a hit must get
    /// through the cover's DR before the armour's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub through_cover: bool,
}

impl AimedShot {
    /// True for an ordinary attack, which an order leaves out of its file.
    pub fn is_plain(&self) -> bool {
        *self == Self::default()
    }
}

/// True for 0, which an order leaves out of its file.
fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// A United Attack joined to an attack: the ally and its wager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct United {
    /// The ally beside the attacker who joins.
    pub ally: CombatantId,
    /// Ki the ally wagers on the Wound Roll (at most its share of Max Capacity).
    #[serde(default)]
    pub wager: i64,
}

/// Which Surge an Instant uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SurgeKind {
    Healing,
    Ki,
}

/// Everything a player, the AI or a replay can ask of a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Declare an Attacking Maneuver (1 Standard Action).
    Attack(AttackOrder),
    /// Answer a defense prompt: Dodge, or Parry with a Counter Action (shinobi: Dodge, Block or
    /// Deflect, maybe with a counter jutsu).
    Defend {
        defender: CombatantId,
        choice: DefenseChoice,
        /// Shinobi: a counter jutsu the defender knows, cast with this defense.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counter: Option<String>,
    },
    /// Answer the window for Instants before an attack resolves: a Surge, or pass.
    Respond {
        who: CombatantId,
        surge: Option<SurgeKind>,
    },
    /// Use a Surge as an Instant on one's own turn (1/encounter).
    Surge { who: CombatantId, kind: SurgeKind },
    /// End a Condition: 1 Action and a Morale Save, TN Hard.
    EndCondition {
        who: CombatantId,
        condition: ConditionKind,
    },
    /// Stand up from Prone (1 Action; not while Pinned).
    StandUp { who: CombatantId },
    /// Treat Poisoned with a Medicine check, TN Very Hard (1 Action).
    CurePoison { who: CombatantId },
    /// A Movement maneuver (1 Standard Action, at most 2 a round) along `path` (the squares
    /// entered, in order), at Normal Speed or, for its Ki cost, Boosted Speed.
    Move {
        who: CombatantId,
        path: Vec<Square>,
        boosted: bool,
    },
    /// The ninja chapter's jump (1 AP, a move): a straight leap along `path` (the squares
    /// passed over, the landing last) of up to half the jumper's move from a standstill, its
    /// whole move with a running start (a walked move just before it). It clears people, low
    /// cover, water and drops, but nothing that blocks sight.
    Jump { who: CombatantId, path: Vec<Square> },
    /// Answer an Exploit prompt: a Basic Attack against the mover (a Counter Action), or none.
    Exploit {
        who: CombatantId,
        order: Option<AttackOrder>,
    },
    /// Power Up: 1 Action for a stack of +1(T) to Combat Rolls and more Capacity.
    PowerUp { who: CombatantId },
    /// Energy Charge: an Action and 2(bT) Ki to add a charge to the declared attack (a
    /// profile, and a Signature Technique when `technique` is set), which holds it until it is
    /// made; the charger has Guard Down meanwhile and adjacent opponents may Exploit it.
    EnergyCharge {
        who: CombatantId,
        profile: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        technique: Option<String>,
    },
    /// Cancel one's Energy Charge (No Effort, an Instant): the charges are lost.
    CancelCharge { who: CombatantId },
    /// Arrogant Declaration (once per encounter): an Action for Superiority until the end of
    /// one's next turn, then −1(bT) to Combat Rolls, Surgency and Soak for the rest of it.
    ArrogantDeclaration { who: CombatantId },
    /// Empower (once a round): `actions` Actions to hand `ally` Ki from one's own pool, 2 x
    /// Might per Action (doubled within Melee Range) without using Capacity; `full` hands over
    /// as much as the ally can hold, at the price of one's Capacity, Fatigued and Impediment.
    Empower {
        who: CombatantId,
        ally: CombatantId,
        actions: u32,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        full: bool,
    },
    /// DBU's grappling maneuvers against `target` (the opponent to seize, or the other
    /// participant of one's Grapple): see [`GrappleAct`].
    Grapple {
        who: CombatantId,
        target: CombatantId,
        act: GrappleAct,
    },
    /// DBU's Hide: an Action for a Stealth check against every opponent's Perception; beating
    /// them all gives Hidden.
    Hide { who: CombatantId },
    /// Combat Recovery: 2 or 3 Actions to regain Life and Ki, lowering Defense Value.
    Recover { who: CombatantId, actions: u32 },
    /// Turn a Standard Action into a Counter Action.
    ConvertAction { who: CombatantId },
    /// End one's turn early.
    EndTurn { who: CombatantId },
    /// Digimon: answer an Intercede prompt: step between the ally and the attacker and take
    /// the hit, or not.
    Intercede { who: CombatantId, accept: bool },
    /// Digimon: let one's partner (a Digimon's Tamer, a Tamer's Digimon) act now in the turn
    /// they share, keeping one's own actions left for when the partner ends its part. A Tamer
    /// can Direct its Digimon before the Digimon attacks.
    HandOver { who: CombatantId },
    /// Digimon and d20: a Skill Check on the square `at` beside the user whose terrain names
    /// one (heave a boulder aside, clear rubble), made the way `way` says.
    UseSkill {
        who: CombatantId,
        at: Square,
        #[serde(default)]
        way: SkillWay,
    },
    /// d20: lie down where one stands, a swift action on one's own turn (the round's Swift
    /// action, or a Move action or the attack of opportunity traded for one). Against a shot
    /// on another's turn it is the `Defend` answer `DropProne` instead.
    DropProne { who: CombatantId },
    /// d20: "Dive for cover" on one's own turn, "a move action": land prone on the square
    /// within reach with the most cover from the foes who shoot, and make a Dodge check
    /// against the first shot from beyond melee range before the next turn starts.
    DiveForCover { who: CombatantId },
    /// d20: delay one's turn ("A character can delay his turn until later in the
    /// initiative. However he remains in that later slot"): the next combatant in the order
    /// acts first, then this one, which keeps the later slot in the rounds after.
    Delay { who: CombatantId },
    /// d20: "Feint", a Standard action: a check against the target's opposing roll; won, the
    /// feinter's next attack on it is off guard. Each attempt on the same target is harder.
    Feint {
        who: CombatantId,
        target: CombatantId,
    },
    /// Digimon: Digivolve to the higher stage `into` (a roster id), healed whole, a Simple
    /// Action.
    Digivolve { who: CombatantId, into: String },
    /// Digimon: take to the air (`up`) or land, a Move by its Fly score (a Simple Action).
    Fly { who: CombatantId, up: bool },
}

/// How a Skill Check on the ground is made and paid for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SkillWay {
    /// Rolled, for an action: a Digimon Simple Action, a d20 Standard action.
    #[default]
    Action,
    /// Digimon: rolled, for free, with the round's Interrupt Action ("used to make a Skill
    /// Check for free"), which then cannot Intercede this round.
    Interrupt,
    /// d20: not rolled, the die counted as 10 ("If the character can take their time and is
    /// not under pressure … they may take a 10"), for a Standard action; only while no foe
    /// can see the character.
    TakeTen,
}

impl SkillWay {
    /// Every way, for callers listing what a unit may do.
    pub const ALL: [SkillWay; 3] = [Self::Action, Self::Interrupt, Self::TakeTen];
}

impl Command {
    /// Every square the command names (a path, an area's centre), so squares off the map are
    /// refused before any rule does arithmetic with them (a hand-edited save may hold any).
    pub fn squares(&self) -> Vec<Square> {
        let of_order = |o: &AttackOrder| match o.target {
            AttackTarget::Square(s) | AttackTarget::SquareToward(s, _) => vec![s],
            _ => Vec::new(),
        };
        match self {
            Self::Move { path, .. } | Self::Jump { path, .. } => path.clone(),
            Self::UseSkill { at, .. } => vec![*at],
            Self::Attack(o) => of_order(o),
            Self::Exploit { order: Some(o), .. } => of_order(o),
            _ => Vec::new(),
        }
    }

    /// The combatant giving the command.
    pub fn actor(&self) -> CombatantId {
        match self {
            Self::Attack(o) => o.attacker,
            Self::Defend { defender, .. } => *defender,
            Self::Respond { who, .. }
            | Self::Surge { who, .. }
            | Self::EndCondition { who, .. }
            | Self::StandUp { who }
            | Self::CurePoison { who }
            | Self::ConvertAction { who }
            | Self::EndTurn { who }
            | Self::Move { who, .. }
            | Self::Jump { who, .. }
            | Self::Exploit { who, .. }
            | Self::PowerUp { who }
            | Self::EnergyCharge { who, .. }
            | Self::CancelCharge { who }
            | Self::ArrogantDeclaration { who }
            | Self::Empower { who, .. }
            | Self::Grapple { who, .. }
            | Self::Hide { who }
            | Self::Recover { who, .. }
            | Self::Intercede { who, .. }
            | Self::HandOver { who }
            | Self::UseSkill { who, .. }
            | Self::DropProne { who }
            | Self::DiveForCover { who }
            | Self::Delay { who }
            | Self::Feint { who, .. }
            | Self::Digivolve { who, .. }
            | Self::Fly { who, .. } => *who,
        }
    }
}

/// What a [`Command::Grapple`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GrappleAct {
    /// Seize an opponent in Melee Range: a Grapple Check (1 Action, once a round); a loss
    /// gives the target an Exploit.
    Seize,
    /// The grappler pins the one it holds: a Grapple Check at a penalty, then a Might Clash
    /// (2 Actions, once a round); losing either frees the target.
    Pin,
    /// An absorber takes in the one it holds: a Grapple Check, then an opposed Save (2
    /// Actions, once a round); losing either frees the target.
    Absorb,
    /// The one held spends `actions` Actions on a new Grapple Check to break free, with a
    /// bonus for each beyond the first.
    Escape { actions: u32 },
    /// The grappler lets go (an Instant, no Action).
    Release,
}

impl GrappleAct {
    /// The maneuver's name in the log and the window.
    pub fn name(self) -> &'static str {
        match self {
            Self::Seize => "Grapple",
            Self::Pin => "Pin",
            Self::Absorb => "Absorb",
            Self::Escape { .. } => "Escape",
            Self::Release => "Release",
        }
    }
}

/// A question the battle is waiting for someone to answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// `defender` must choose Dodge or Parry against `attacker`'s attack.
    Defense {
        defender: CombatantId,
        attacker: CombatantId,
    },
    /// `who` may use an Instant before `attacker`'s attack resolves.
    Response {
        who: CombatantId,
        attacker: CombatantId,
    },
    /// `mover` is leaving `who`'s Melee Attack Range, or recovering near it: `who` may
    /// Exploit it.
    Exploit {
        who: CombatantId,
        mover: CombatantId,
    },
    /// Digimon: `attacker`'s attack is about to hit `target`; its ally `who` may Intercede.
    Intercede {
        who: CombatantId,
        target: CombatantId,
        attacker: CombatantId,
    },
}

/// Why a command was refused. The battle is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the battle is over")]
    BattleOver,
    #[error("a sneak attack is a shinobi attack on one declared target, not an opportunity attack")]
    BadSneak,
    #[error("{who} cannot counter with `{counter}` now: {why}")]
    CannotCounter {
        who: CombatantId,
        counter: String,
        why: String,
    },
    #[error(
        "an opportunity attack is a melee attack of at most {ap} AP with no knockback; {attack} is not"
    )]
    OpportunityNeedsMelee { attack: String, ap: u32 },
    #[error("an attack of opportunity is one Standard-action melee attack (d20); {attack} is not")]
    AttackOfOpportunityNeedsMelee { attack: String },
    #[error(
        "{who} has spent its one Standard action this round on an attack or a feint (d20: the other action is a move, or take a full-round attack)"
    )]
    OneStandardAttack { who: CombatantId },
    #[error("{who} has made the round's one attack of opportunity already")]
    OpportunityUsed { who: CombatantId },
    #[error(
        "a feint is a Standard action and {who} has made its one Standard action this round (\"Convincing them an attack is coming from a direction it is not, as a standard action\")"
    )]
    FeintNeedsStandardAction { who: CombatantId },
    #[error("{who} can feint only at an opponent it can see; {target} is not one")]
    FeintTarget {
        who: CombatantId,
        target: CombatantId,
    },
    #[error("{who} has no Power Attack feat")]
    PowerAttackNeedsFeat { who: CombatantId },
    #[error("Power Attack is made with a melee weapon; {attack} is not one")]
    PowerAttackNeedsMelee { attack: String },
    #[error(
        "Power Attack {asked} is more than {most}, the {skill} ranks (our cap: the text sets none)"
    )]
    PowerAttackTooHigh {
        asked: i64,
        most: i64,
        skill: String,
    },
    #[error(
        "{who}'s Power Attack stays at {amount} until its next turn (\"her power attack remains in effect until her turn next round\")"
    )]
    PowerAttackSet { who: CombatantId, amount: i64 },
    #[error(
        "an aimed shot is one attack with a weapon in hand or a missile (\"This only can be used with aimed shots. Explosives and Suppressive Fire cannot ignore armor this way\"); {attack} is not"
    )]
    AimedShotNeedsSingleAttack { attack: String },
    #[error("{target} wears no armour that can be treated as cover: there are no gaps to aim at")]
    NoArmourGaps { target: CombatantId },
    #[error(
        "no cover with a DR stands between {attacker} and {target}: there is nothing to shoot through"
    )]
    NoCoverToShootThrough {
        attacker: CombatantId,
        target: CombatantId,
    },
    #[error("{who} has no {grenade} left to throw")]
    NoGrenadesLeft { who: CombatantId, grenade: String },
    #[error("{who} has no live {grenade} on or beside its square to throw back")]
    NoLiveGrenade { who: CombatantId, grenade: String },
    #[error(
        "{who} throws a {grenade} at most {reach} squares (Strength + size + Thrown ranks / 5 increments); that square is {distance} away"
    )]
    ThrowTooFar {
        who: CombatantId,
        grenade: String,
        distance: u32,
        reach: u32,
    },
    #[error("a {grenade} aimed there could go off on {who} itself: aim farther away")]
    BlastCatchesThrower { who: CombatantId, grenade: String },
    #[error("{who} needs {need} AP for that and has {have} left this round")]
    NotEnoughAp {
        who: CombatantId,
        need: u32,
        have: u32,
    },
    #[error("{who} needs {need} chakra for that and has {have}")]
    NotEnoughChakra {
        who: CombatantId,
        need: i64,
        have: i64,
    },
    #[error("{attack} needs a weapon equipped, and {who} has none")]
    NeedsWeapon { who: CombatantId, attack: String },
    #[error(
        "{who} cannot answer with {choice} here (Block needs a weapon, Deflect a free hand, and a swimming ninja cannot Dodge; DBU has Dodge and Parry, and Reflect against Energy or Magical attacks with the Ki for it; power stages take it or block)"
    )]
    DefenseNotOffered {
        who: CombatantId,
        choice: &'static str,
    },
    #[error("no combatant has id {0}")]
    UnknownCombatant(CombatantId),
    #[error("it is {active}'s turn, not {who}'s")]
    NotYourTurn {
        who: CombatantId,
        active: CombatantId,
    },
    #[error("the battle is waiting for an answer first: {0:?}")]
    AwaitingDecision(Decision),
    #[error("{who} cannot hand the turn over: {why}")]
    CannotHandOver { who: CombatantId, why: String },
    #[error("{who} cannot delay its turn: {why}")]
    CannotDelay { who: CombatantId, why: String },
    #[error("{who} cannot Use a Skill there: {why}")]
    CannotUseSkill { who: CombatantId, why: String },
    #[error("{who} cannot Drop prone: {why}")]
    CannotDropProne { who: CombatantId, why: String },
    #[error("{who} cannot Dive for cover: {why}")]
    CannotDive { who: CombatantId, why: String },
    #[error("{who} cannot Digivolve: {why}")]
    CannotDigivolve { who: CombatantId, why: String },
    #[error("{who} cannot {what}: {why}")]
    CannotFly {
        who: CombatantId,
        what: &'static str,
        why: String,
    },
    #[error("nothing is being asked of {0} right now")]
    NothingToAnswer(CombatantId),
    #[error("{0} is Defeated and can make no maneuvers")]
    Defeated(CombatantId),
    #[error("{0} is Absorbed and can make no maneuvers")]
    Absorbed(CombatantId),
    #[error("{who} has no {what} left")]
    NoActions {
        who: CombatantId,
        what: &'static str,
    },
    #[error("{who} does not know `{profile}`")]
    UnknownProfile { who: CombatantId, profile: String },
    #[error("{who} has no technique `{technique}`")]
    UnknownTechnique { who: CombatantId, technique: String },
    #[error(
        "{profile} was already used this round (a Basic Attack profile once per round, except repeatable ones such as Simple)"
    )]
    ProfileUsedThisRound { profile: String },
    #[error("a Signature Technique can be used once per round")]
    TechniqueUsedThisRound,
    #[error("a Minion makes at most {limit} Attacking Maneuver(s) per round")]
    MinionAttackLimit { limit: u32 },
    #[error("{who} needs {attribute} {at_least} or more for {kind} attacks (has {has})")]
    ScoreTooLow {
        who: CombatantId,
        kind: String,
        attribute: String,
        at_least: i64,
        has: i64,
    },
    #[error("Transfigured: no Signature Techniques or Magical attacks")]
    Transfigured,
    #[error("{profile} needs {needs}")]
    WrongTarget {
        profile: String,
        needs: &'static str,
    },
    #[error("{0} cannot attack itself")]
    SelfTarget(CombatantId),
    #[error("{0} is not an opponent: single-target attacks and Sweeping hit enemies only")]
    NotAnOpponent(CombatantId),
    #[error("{0} is Defeated and cannot be targeted")]
    TargetDefeated(CombatantId),
    #[error("{0} is Hidden and cannot be targeted")]
    TargetHidden(CombatantId),
    #[error("{0} is not on the battleground")]
    TargetAbsent(CombatantId),
    #[error("{target} is {distance} squares away; {profile} reaches {reach}")]
    OutOfRange {
        target: CombatantId,
        distance: u32,
        profile: String,
        reach: u32,
    },
    #[error("{0} is off the battlefield")]
    OffMap(Square),
    #[error("{profile} would hit no one")]
    NoTargets { profile: String },
    #[error("cannot wager Ki on a {kind} attack")]
    NoWager { kind: String },
    #[error("a wager cannot be negative")]
    NegativeWager,
    #[error("not enough Ki: {need} needed, {have} left")]
    NotEnoughKi { need: i64, have: i64 },
    #[error("not enough Capacity: {need} needed, {have} left this round")]
    NotEnoughCapacity { need: i64, have: i64 },
    #[error("{profile} needs an element, one of: {options}")]
    ElementNeeded { profile: String, options: String },
    #[error("{who} cannot use the element `{element}` here")]
    BadElement { who: CombatantId, element: String },
    #[error("{0} has used its Surge this encounter")]
    SurgeUsed(CombatantId),
    #[error("{who} does not have {condition:?}")]
    NoSuchCondition {
        who: CombatantId,
        condition: ConditionKind,
    },
    #[error("cannot stand up while Pinned")]
    PinnedCannotStand,
    #[error("{who} needs at least one rank in {skill}")]
    NeedsSkill { who: CombatantId, skill: String },
    #[error("{0} has no Counter Action and no Standard Action to convert")]
    CannotParry(CombatantId),
    #[error("{0} has no Standard Action to convert")]
    NothingToConvert(CombatantId),
    #[error("no line of sight to {0}")]
    NoLineOfSight(CombatantId),
    #[error(
        "no attack at {0} from behind full cover: \"If taking full Cover one is unable to target their attacker from that position\""
    )]
    FromFullCover(CombatantId),
    #[error("no line of sight to {0}")]
    SquareNotVisible(Square),
    #[error("at most {limit} Movement maneuvers a round")]
    MoveLimit { limit: u32 },
    #[error("a path needs at least one square")]
    EmptyPath,
    #[error("{to} is not next to {from}")]
    PathNotAdjacent { from: Square, to: Square },
    #[error("cannot move onto {at}: {why}")]
    PathBlocked { at: Square, why: &'static str },
    #[error("the path costs {cost} but the Speed is {speed}")]
    PathTooLong { cost: u32, speed: u32 },
    #[error("cannot jump {to}: {why}")]
    BadJump { to: Square, why: String },
    #[error("cannot end a move on {at}: someone is there")]
    EndsOccupied { at: Square },
    #[error("an Exploit must be a Basic Attack that hits {0}")]
    BadExploit(CombatantId),
    #[error("at most {limit} Power Ups a round")]
    PowerUpLimit { limit: u32 },
    #[error("already at the most Power Up stacks ({max})")]
    PowerUpStacks { max: u32 },
    #[error(
        "charging {profile}: until it is made, no other Attacking or Standard Maneuver (Energy Charge)"
    )]
    Charging { profile: String },
    #[error("an Energy Charge feeds a {types} attack, not {kind}")]
    CannotCharge { kind: String, types: String },
    #[error("an attack holds at most {max} Energy Charges")]
    ChargeLimit { max: u32 },
    #[error("no Energy Charge to cancel")]
    NotCharging,
    #[error("one Called Shot a round")]
    CalledShotThisRound,
    #[error("a Called Shot names a body part of one target; {profile} is not aimed at one")]
    CalledShotArea { profile: String },
    #[error("no body part `{part}` for a Called Shot; it may name: {options}")]
    NoSuchBodyPart { part: String, options: String },
    #[error("an Exploit is a Basic Attack out of sequence: no Called Shot with it")]
    CalledShotExploit,
    #[error("an Arrogant Declaration is made once a Combat Encounter")]
    ArroganceMade,
    #[error("only {limit} Minion per encounter may use Arrogant Declaration")]
    MinionArrogance { limit: u32 },
    #[error("one Empower a round")]
    EmpowerMade,
    #[error("{ally} is no ally on the battlefield to Empower")]
    EmpowerWhom { ally: CombatantId },
    #[error("an Empower spends at least one Action")]
    EmpowerActions,
    #[error("nothing to Empower: {why}")]
    EmpowerNothing { why: &'static str },
    #[error("one {what} a round")]
    GrappleMade { what: &'static str },
    #[error("not an opponent within Melee Range")]
    GrappleReach { target: CombatantId },
    #[error("{why}")]
    GrappleHold { why: &'static str },
    #[error("{why}")]
    HideRefused { why: &'static str },
    #[error("an escape spends at least one Action")]
    EscapeActions,
    #[error("a Combat Recovery spends {min} to {max} Actions")]
    RecoveryActions { min: u32, max: u32 },
    #[error("one Combat Recovery a round")]
    RecoveredThisRound,
    #[error("{what} is not a maneuver of the {ruleset} ruleset")]
    NotInRuleset { what: &'static str, ruleset: String },
    /// A rule of the Digimon chapter forbids it (the message quotes or names the rule).
    #[error("{0}")]
    DigimonRule(String),
    /// A rule of the Digimon chapter forbids this target (aim elsewhere).
    #[error("{0}")]
    DigimonTarget(String),
    #[error("no {card} card in hand")]
    CardNotHeld { card: String },
    #[error("an energy attack needs {need} power stages above 0; at stage {have}")]
    TooFewStages { need: i64, have: i64 },
    #[error("at most {limit} attack(s) a turn")]
    AttacksPerTurn { limit: u32 },
    #[error("a Final Physical Attack was made this round: {0} passes until the round ends")]
    PassedThisRound(CombatantId),
    #[error("{ally} cannot join a United Attack: it must be {why}")]
    United {
        ally: CombatantId,
        why: &'static str,
    },
    #[error("a Final Physical Attack needs {0}")]
    FinalAttackNotAllowed(&'static str),
    #[error(
        "{card} is a personality card power, used {per_round} time(s) a round: used up this round"
    )]
    PowerUsed { card: String, per_round: u32 },
    #[error(
        "only a Final Physical Attack discards a card of the player's choice (\"discarding any one card from your hand\")"
    )]
    DiscardNotFinal,
    #[error("{who} holds no {kind} card to block with")]
    CannotBlock { who: CombatantId, kind: String },
}

/// The target's answer to an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DefenseChoice {
    /// Roll Dodge: d10 + ToP dice + Defense Value (DBU); 1d20 + DEX + TAI (shinobi); take it
    /// (power stages).
    Dodge,
    /// Spend a Counter Action to roll one's Strike instead (DBU); block with a card (power
    /// stages).
    Parry,
    /// Shinobi: 1d20 + DEX + WEP, with a weapon equipped.
    Block,
    /// Shinobi: 1d20 + SPT + NIN, at -5 at half chakra or less.
    Deflect,
    /// d20: let a shot from beyond melee range come without defending (no action spent).
    Take,
    /// d20: "Dive for cover": a Dodge check against the shot, paid with the diver's next Move
    /// action, landing prone.
    Dive,
    /// d20: lie down where one stands as an immediate action (the round's Swift action, or
    /// the attack of opportunity traded for one): the shot's DC gets the prone bonus.
    DropProne,
    /// DBU: a Parry that, if it wins against an Energy or Magical attack, pays Ki to send the
    /// attack back at its attacker (Parry's Reflect).
    Reflect,
    /// Shinobi: Gen Resist, 1d20 + AWA + GEN, the only answer to a Genjutsu.
    Resist,
}

impl DefenseChoice {
    /// The key a player presses for it, and its name, for prompts and the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Dodge => "Dodge",
            Self::Parry => "Parry",
            Self::Block => "Block",
            Self::Deflect => "Deflect",
            Self::Take => "Take the shot",
            Self::Dive => "Dive for cover",
            Self::DropProne => "Drop prone",
            Self::Reflect => "Reflect",
            Self::Resist => "Gen Resist",
        }
    }
}

/// A command's name for messages ("Move", "Attack"…).
pub fn command_name(cmd: &Command) -> &'static str {
    match cmd {
        Command::Attack(_) => "Attack",
        Command::Defend { .. } => "Defend",
        Command::Respond { .. } => "Respond",
        Command::Surge { .. } => "Surge",
        Command::EndCondition { .. } => "End Condition",
        Command::StandUp { .. } => "Stand Up",
        Command::CurePoison { .. } => "Cure Poison",
        Command::Move { .. } => "Move",
        Command::Jump { .. } => "Jump",
        Command::Exploit { .. } => "Exploit",
        Command::PowerUp { .. } => "Power Up",
        Command::EnergyCharge { .. } => "Energy Charge",
        Command::CancelCharge { .. } => "Cancel Energy Charge",
        Command::ArrogantDeclaration { .. } => "Arrogant Declaration",
        Command::Empower { .. } => "Empower",
        Command::Grapple { act, .. } => act.name(),
        Command::Hide { .. } => "Hide",
        Command::Recover { .. } => "Recover",
        Command::ConvertAction { .. } => "Convert Action",
        Command::EndTurn { .. } => "End Turn",
        Command::Intercede { .. } => "Intercede",
        Command::HandOver { .. } => "Hand Over",
        Command::UseSkill { .. } => "Use a Skill",
        Command::DropProne { .. } => "Drop prone",
        Command::DiveForCover { .. } => "Dive for cover",
        Command::Delay { .. } => "Delay",
        Command::Feint { .. } => "Feint",
        Command::Digivolve { .. } => "Digivolve",
        Command::Fly { up: true, .. } => "Take to the air",
        Command::Fly { up: false, .. } => "Land",
    }
}
