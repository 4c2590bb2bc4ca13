//! The d20 family (the generic "Skill and Combat System"): its data files, their checks, and
//! how they are lowered onto the engine's d20 path.
//!
//! A d20 ruleset is `ruleset.ron`, `d20.ron` (the die, the difficulty and Effect Points tables,
//! criticals, the round's actions, multiple attacks by rank, parry modifiers, damage types,
//! weapons, armour and the attacks made with them), `roster.ron` (characters with abilities,
//! skill ranks, HP, a weapon, armour and feats) and `terrain.ron` (cover and concealment
//! bonuses). The two d20 systems share one engine path: [`lower`] writes this data as a
//! [`ShinobiRules`] (action points, d20 attacks against a chosen defense, opportunity attacks)
//! and keeps the d20 rules the ninja chapter lacks (exploding 20s, natural 1s, range
//! difficulties, Success Value, Effect Points, criticals by margin, armour DR by damage type)
//! in [`D20Data`], which `crate::battle::family::d20` plays.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::RulesError;
use super::locate::FieldPath;
use super::neutral;
use super::schema::*;
use super::shinobi::{
    self, AttackDef, DefenseDef, DefenseKind, FallingRules, NinjaDef, ShinobiPools, ShinobiRoster,
    ShinobiRules, SneakRules, StatDef, TieWinner,
};
use crate::dice::Formula;

/// The files of a d20 ruleset, in load order.
pub const D20_FILES: [&str; 4] = ["ruleset.ron", "d20.ron", "roster.ron", "terrain.ron"];

/// `d20.ron`: everything about combat in the system that is not a character.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct D20Rules {
    /// What the life pool is called on screen and in the log.
    pub pool_name: String,
    /// The die of every check ("1d20 + Ability Score + Skill Ranks").
    pub die: u32,
    /// The names formulas and rolls use: abilities and skills.
    pub stats: Vec<StatDef>,
    /// Actions a round: a Full-round action is a Move and a Standard action, and a Standard
    /// action may be traded for a second Move.
    pub actions_per_round: u32,
    /// The initiative roll's bonus ("a Cunning+Initiative roll").
    pub initiative: Formula,
    /// Initiative ties go to the higher value of this stat, then a roll-off (ours).
    pub initiative_tie_stat: String,
    /// Base speed in yards for one Move action.
    pub speed: SpeedRule,
    /// Yards per grid square ("For person to person combat 2 yards").
    pub yards_per_square: u32,
    /// The Common Difficulty Modifier Table's melee row (Easy, DC 10).
    pub melee_dc: i64,
    /// The table's range rows: `(n, dc)` is "within n range increments: DC dc".
    pub range_dcs: Vec<(u32, i64)>,
    /// "Missile weapons can be used out to 10 range increments."
    pub missile_increments: u32,
    /// Effect Points to dice.
    pub effect_table: EffectTable,
    /// The default critical: threat and multiplier ("20/x2"), and the margin per further step.
    pub critical: CriticalRule,
    /// Melee damage from strength, and the to-hit penalty below the weapon's minimum.
    pub strength: StrengthRule,
    /// Attacks in a full round by weapon skill ranks: entry `r` is the count at `r` ranks (the
    /// last entry holds for anything higher).
    pub attacks_by_rank: Vec<u32>,
    /// Each further attack of a full round is this much lower than the one before.
    pub extra_attack_penalty: i64,
    /// Rapid Shot: taken off every attack of the round; gives one more attack.
    pub rapid_shot_penalty: i64,
    /// Power Attack's damage with a two-handed weapon ("4 x 1.5").
    pub power_attack_two_handed: Fraction,
    /// Dodge (`Dodge`) and parry (`Block`): what each adds to the die. Parry's ability is the
    /// feat's (Blocking Parry STR, Deflecting Parry DEX); its skill the better of `PARRY` and
    /// the weapon's skill.
    pub defenses: Vec<DefenseDef>,
    /// The parry skill's id.
    pub parry_skill: String,
    /// The ability Deflecting Parry rolls instead of the Block defense's first term.
    pub deflecting_parry_ability: String,
    /// The parry modifier table.
    pub parry: ParryModifiers,
    /// The damage types armour protects against by column.
    pub damage_types: Vec<DamageTypeDef>,
    pub weapons: Vec<WeaponDef>,
    pub armours: Vec<ArmourDef>,
    /// The attacks characters can make, each with one weapon.
    pub attacks: Vec<D20AttackDef>,
    /// How grenades and splash weapons are aimed, scatter and go off (needed by any weapon of
    /// class `Grenade`).
    #[serde(default)]
    pub grenade: Option<GrenadeRule>,
    /// Squares of the round's free single step ("only 1 single step per round"); 0: none.
    #[serde(default)]
    pub single_step: u32,
    /// "At the GM discretion, you may take a Dive for cover action": the answer to a shot
    /// from beyond melee range; absent, such a shot is never defended.
    #[serde(default)]
    pub dive_for_cover: Option<DiveRule>,
    /// What lying prone does (after a Dive for cover or a Drop prone). Needed by either.
    #[serde(default)]
    pub prone: Option<ProneRule>,
    /// "Each round a character gets … one(1) Swift action": how many (0: none). When it is
    /// spent, "A Move action may be traded for a Swift Action" on one's own turn and "An
    /// Attack of Opportunity may be traded for one(1) Swift action" on any.
    #[serde(default)]
    pub swift_actions: u32,
    /// Our swift action (the text names none): lying down where one stands, on one's own
    /// turn or as an immediate action against a shot ("An Immediate action is a Swift action,
    /// but can be used on another characters turn"). Needs `prone` and a swift action.
    #[serde(default)]
    pub drop_prone: bool,
    /// "Off Guard attacks get +2 to hit": the bonus, for the one cause a grid settles by
    /// itself, a flanking attack. Absent: nobody is off guard.
    #[serde(default)]
    pub off_guard: Option<OffGuardRule>,
}

/// "A character is off guard, when they are some how unable to properly defend themselves
/// from an enemy attack. The most common causes are flanking attacks, …"
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffGuardRule {
    /// What an off-guard attack adds to hit ("+2").
    pub bonus: i64,
}

/// "There must be some way I can Dodge bullets?": a Move action taken as a shot comes in,
/// paid from the diver's next turn, giving "a dodge check against the first missile attack"
/// and leaving the diver prone where it lands.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiveRule {
    /// How far the diver may land from where it stood ("in any space you can jump to"; the
    /// text gives no jump distance, so this is ours).
    pub squares: u32,
}

/// Lying prone: harder to shoot from afar, easier to strike up close, until one moves.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProneRule {
    /// What lying prone adds to the DC of a shot from beyond melee range ("you are now prone
    /// (+4)"); it adds to cover ("+4 and … prone (+4) that grants +8").
    pub shots: i64,
    /// What lying prone takes off one's Dodge or parry against a melee attack. The text is
    /// silent; without a price, lying down at the end of every turn would cost nothing, so
    /// this is ours (the usual d20 figure, 4).
    pub melee: i64,
}

/// "How do grenades and splash weapons work?": the aim, the corners, the scatter, the
/// throw-back and the Roll check against the blast.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrenadeRule {
    /// "Aim for a space, normally DC 15": the least DC of a throw (farther throws use the range
    /// table when it is higher).
    pub aim_dc: i64,
    /// "for each 5 over DC removes one possible corner"; a miss "lands 1 space + 1 space for
    /// every 5 under the DC away".
    pub step: i64,
    /// "A missed grenade can be picked up and thrown back, the base DC goes up by 5".
    pub throw_back: i64,
    /// "Everyone in the blast gets a Roll Check vs the DC of the effect to half damage": the
    /// stats the check adds to the die.
    pub save: Vec<String>,
    /// The check's name in the log and the previews.
    pub save_name: String,
}

/// What a grenade's blast covers and what halves it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlastDef {
    /// Radius in yards, centred on a corner of the square it lands in; less than a square
    /// ("Radius 1m effects only target space") covers that square alone.
    pub radius: u32,
    /// "the DC of the effect" the Roll check must meet to take half.
    pub save_dc: i64,
}

/// "Her base speed is 15 yards ( 9 + (AGI=6 + Running=6)/2)".
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedRule {
    pub base: i64,
    pub terms: Vec<String>,
    pub divisor: i64,
}

/// The Effect Points table: `per_die` points make one die; what is left adds the bonus of the
/// highest `remainder` row at or below it. The current table is 10 points per d6 with +1 from
/// 4 left and +2 from 7; the Old Rules' is 3 per d6 with the leftover points added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectTable {
    pub per_die: i64,
    pub die: u32,
    pub remainder: Vec<(i64, i64)>,
    /// The Success Value adds `SV / success_divisor` points: 1 under the current rules (the
    /// whole SV), 4 under the Old Rules' Success Level Damage Modifier.
    pub success_divisor: i64,
}

/// A critical description: exceed the defense by `threat` for `multiplier`, and one more for
/// every further `step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriticalRule {
    pub threat: i64,
    pub multiplier: i64,
    pub step: i64,
}

/// "+1 for each point a character exceeds the minimum strength required for the weapon …
/// Unless otherwise indicated all attacks have a minimum strength of 5 … increased by +1 when
/// using a melee weapon two handed … halved for off hand weapons and secondary attacks."
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrengthRule {
    pub stat: String,
    pub minimum: i64,
    pub per_point: i64,
    pub two_handed: i64,
}

/// "Parrying weapon +1 … Missile Weapon -1 … Unarmed vs Melee Weapon -2".
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParryModifiers {
    pub parrying_weapon: i64,
    pub missile_weapon: i64,
    pub unarmed_vs_weapon: i64,
}

/// A damage type of the table ("Blade Damage BD").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageTypeDef {
    pub id: String,
    pub name: String,
}

/// What kind of weapon: decides range, strength damage and parry modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponClass {
    Melee,
    /// Tonfa, sai, main-gauche: +1 to parry.
    Parrying,
    Unarmed,
    /// Bows and guns: ranged, −1 to parry with.
    Missile,
    /// Grenades and splash weapons: thrown at a square, they go off in a blast (`blast`).
    Grenade,
}

/// A weapon.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    pub id: String,
    pub name: String,
    pub class: WeaponClass,
    /// The ability added to hit (STR for melee, DEX for missiles).
    pub ability: String,
    /// The weapon skill added to hit.
    pub skill: String,
    /// Base effect in Effect Points.
    pub effect: i64,
    pub damage_type: String,
    /// Its critical, if not the default.
    #[serde(default)]
    pub critical: Option<CriticalRule>,
    /// Squares per range increment (missiles only).
    #[serde(default)]
    pub range_increment: Option<u32>,
    #[serde(default)]
    pub two_handed: bool,
    /// Strength below this costs 1 to hit per point (default: the rule's minimum).
    #[serde(default)]
    pub minimum_strength: Option<i64>,
    /// A grenade's blast (class `Grenade` only).
    #[serde(default)]
    pub blast: Option<BlastDef>,
}

/// Armour: a damage reduction per damage type ("DR(CP/BP/GP/FP) 3(3/2/3/3)"); types not named
/// use `base`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourDef {
    pub id: String,
    pub name: String,
    pub base: i64,
    pub by_type: BTreeMap<String, i64>,
}

/// An attack: a weapon used one way.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct D20AttackDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub weapon: String,
    /// A Full-round attack: all the round's actions, as many attacks as the weapon skill's
    /// ranks give (plus Rapid Shot's); otherwise one attack, a Standard action.
    #[serde(default)]
    pub full_round: bool,
    /// Power Attack: this much off the roll, as much on the effect (x1.5 two-handed).
    #[serde(default)]
    pub power_attack: i64,
    /// Rapid Shot: one more attack in the full round, every attack at the penalty.
    #[serde(default)]
    pub rapid_shot: bool,
    /// Throwing back a live grenade of this weapon lying beside the thrower (at the higher
    /// DC); every character may, so these are not listed in the roster.
    #[serde(default)]
    pub throw_back: bool,
}

/// Feats the engine plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Feat {
    /// Parry with STR.
    BlockingParry,
    /// Parry with DEX.
    DeflectingParry,
    RapidShot,
    PowerAttack,
}

/// `roster.ron`: the characters scenarios can field.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct D20Roster {
    pub characters: Vec<CharacterDef>,
}

/// A character: stats, HP, weapon, armour, feats and attacks.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub role: String,
    pub glyph: String,
    /// Every stat of `d20.ron`, by id.
    pub stats: BTreeMap<String, i64>,
    pub hp: i64,
    pub weapon: String,
    #[serde(default)]
    pub armour: Option<String>,
    #[serde(default)]
    pub feats: Vec<Feat>,
    pub attacks: Vec<String>,
    /// Grenades carried, by weapon id: each throw uses one.
    #[serde(default)]
    pub grenades: BTreeMap<String, u32>,
}

/// A d20 ruleset's own data, kept beside the lowered tables.
#[derive(Debug, Clone)]
pub struct D20Data {
    pub combat: D20Rules,
    pub roster: D20Roster,
    /// The action-point tables this family is played on (see [`as_shinobi`]).
    pub ap: super::shinobi::ShinobiData,
}

impl D20Data {
    pub fn character(&self, id: &str) -> Option<&CharacterDef> {
        self.roster.characters.iter().find(|c| c.id == id)
    }
    pub fn attack(&self, id: &str) -> Option<&D20AttackDef> {
        self.combat.attacks.iter().find(|a| a.id == id)
    }
    pub fn weapon(&self, id: &str) -> Option<&WeaponDef> {
        self.combat.weapons.iter().find(|w| w.id == id)
    }
    pub fn armour(&self, id: &str) -> Option<&ArmourDef> {
        self.combat.armours.iter().find(|a| a.id == id)
    }
    /// The attacks every character has without listing them: throwing back a live grenade.
    pub fn throw_backs(&self) -> impl Iterator<Item = &D20AttackDef> {
        self.combat.attacks.iter().filter(|a| a.throw_back)
    }
    pub fn damage_type_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.combat
            .damage_types
            .iter()
            .find(|t| t.id == id)
            .map_or(id, |t| t.name.as_str())
    }
}

/// The attribute holding a character's maximum HP in the lowered tables.
pub const HP: &str = shinobi::HP;
/// The attribute holding the squares one Move action covers.
pub const MOVE: &str = shinobi::MOVE;
/// The (unused) second pool's attribute.
const NONE_POOL: &str = shinobi::CHAKRA;

/// Squares one Move action covers: base + (terms) / divisor yards, over the square size.
pub fn move_squares(rules: &D20Rules, stats: &BTreeMap<String, i64>) -> u32 {
    let sum: i64 = rules
        .speed
        .terms
        .iter()
        .map(|t| stats.get(t).copied().unwrap_or(0))
        .sum();
    let yards = rules.speed.base + sum / rules.speed.divisor.max(1);
    u32::try_from(yards.max(0) / i64::from(rules.yards_per_square.max(1))).unwrap_or(0)
}

/// A blast's radius in whole squares from the corner it is centred on (0: the square alone).
pub fn blast_squares(rules: &D20Rules, b: &BlastDef) -> u32 {
    b.radius / rules.yards_per_square.max(1)
}

/// How far an attack with `w` reaches, in squares.
pub fn reach_of(rules: &D20Rules, w: &WeaponDef) -> Reach {
    match (w.class, w.range_increment) {
        (WeaponClass::Missile, Some(inc)) => {
            Reach::Within(inc.saturating_mul(rules.missile_increments))
        }
        // A throw's own limit (the thrower's increments) is checked per thrower; this is the
        // difficulty table's last row.
        (WeaponClass::Grenade, Some(inc)) => {
            Reach::Within(inc.saturating_mul(rules.range_dcs.last().map_or(1, |r| r.0)))
        }
        _ => Reach::Melee,
    }
}

/// Writes the d20 data as the engine's d20 path reads it (see the module docs): a d20 attack
/// per attack (its weapon's ability and skill to hit, a full round costing every action), a
/// ninja per character with its weapon, Dodge and parry as the two defenses, no chakra, sneak,
/// counters or falls. Speed comes from the d20 speed rule.
pub fn lower(rules: &D20Rules, roster: &D20Roster) -> neutral::Lowered {
    let (s, r) = as_shinobi(rules, roster);
    let mut low = shinobi::lower(&s, &r);
    for a in low.roster.archetypes.iter_mut() {
        if let Some(c) = roster.characters.iter().find(|c| c.id == a.id) {
            a.attributes
                .insert(MOVE.into(), i64::from(move_squares(rules, &c.stats)));
        }
    }
    low.dice.critical_target = rules.die;
    // "Each round a character may take one Attack of Opportunity": the Counter Action.
    low.actions.counter_actions = 1;
    low.actions.conversion = false;
    low
}

/// The d20 data in the shape of the ninja chapter's (see [`lower`]).
pub fn as_shinobi(rules: &D20Rules, roster: &D20Roster) -> (ShinobiRules, ShinobiRoster) {
    let first = rules
        .stats
        .first()
        .map(|s| s.id.clone())
        .unwrap_or_default();
    let attacks = rules
        .attacks
        .iter()
        .filter_map(|a| {
            let w = rules.weapons.iter().find(|w| w.id == a.weapon)?;
            Some(AttackDef {
                id: a.id.clone(),
                name: a.name.clone(),
                description: a.description.clone(),
                reach: reach_of(rules, w),
                ap: if a.full_round {
                    rules.actions_per_round
                } else {
                    1
                },
                chakra: 0,
                hit: vec![w.ability.clone(), w.skill.clone()],
                damage: Vec::new(),
                damage_bonus: w.effect,
                weapon: true,
                undodgeable: false,
                unblockable: false,
                push: 0,
                targeting: match w.blast {
                    // Every square any corner's blast could cover: the template a player aims.
                    Some(b) if w.class == WeaponClass::Grenade => Targeting::Area {
                        shape: AreaShape::Sphere {
                            radius: blast_squares(rules, &b),
                        },
                        origin: AreaOrigin::ChosenSquare,
                        affects: Affects::AllButAttacker,
                    },
                    _ => Targeting::Single,
                },
            })
        })
        .collect();
    let combat = ShinobiRules {
        pool_names: ShinobiPools {
            life: rules.pool_name.clone(),
            chakra: String::new(),
        },
        die: rules.die,
        ties: TieWinner::Attacker,
        stats: rules.stats.clone(),
        action_points: rules.actions_per_round,
        move_cost: 1,
        opportunity_cost: 1,
        speed_stat: first.clone(),
        speed_table: Vec::new(),
        feet_per_square: 1,
        initiative: rules.initiative.clone(),
        initiative_tie_stat: rules.initiative_tie_stat.clone(),
        defenses: rules.defenses.clone(),
        undefendable_penalty: 0,
        deflect_chakra: neutral::nothing(),
        deflect_low_chakra_penalty: 0,
        sneak: SneakRules {
            attacker_skill: first.clone(),
            defender_skill: first.clone(),
            ties: TieWinner::Attacker,
            penalty: 0,
        },
        partial_cover_chance: 0,
        falling: FallingRules {
            min_feet: u32::MAX,
            skill: first,
        },
        attacks,
        counters: Vec::new(),
    };
    let ninja = roster
        .characters
        .iter()
        .map(|c| NinjaDef {
            id: c.id.clone(),
            name: c.name.clone(),
            description: c.description.clone(),
            role: c.role.clone(),
            glyph: c.glyph.clone(),
            stats: c.stats.clone(),
            hp: c.hp,
            chakra: 0,
            weapon: Some(c.weapon.clone()),
            attacks: c
                .attacks
                .iter()
                .cloned()
                .chain(
                    rules
                        .attacks
                        .iter()
                        .filter(|a| a.throw_back)
                        .map(|a| a.id.clone()),
                )
                .collect(),
            counters: Vec::new(),
        })
        .collect();
    (combat, ShinobiRoster { ninja })
}

/// Every problem in a d20 ruleset's own files, with file, line and field.
pub fn validate(
    rules: &D20Rules,
    roster: &D20Roster,
    src: &(PathBuf, String),
    roster_src: &(PathBuf, String),
) -> Vec<RulesError> {
    let mut errors = Vec::new();
    let root = FieldPath::root();
    let mut at = |s: &(PathBuf, String), path: FieldPath, msg: String| {
        errors.push(RulesError::at(&s.0, &s.1, &path, msg));
    };
    let mut stat_ids = BTreeSet::new();
    for (i, s) in rules.stats.iter().enumerate() {
        if s.id.is_empty() || [HP, MOVE, NONE_POOL].contains(&s.id.as_str()) {
            at(
                src,
                root.field("stats").index(i).field("id"),
                format!("stat id `{}` is empty or reserved (HP, CHK, MV)", s.id),
            );
        } else if !stat_ids.insert(s.id.clone()) {
            at(
                src,
                root.field("stats").index(i).field("id"),
                format!("stat `{}` is defined twice", s.id),
            );
        }
    }
    let known = |id: &str| stat_ids.contains(id);
    if rules.die != 20 && !(2..=1000).contains(&rules.die) {
        at(src, root.field("die"), "a die has 2 to 1000 sides".into());
    }
    if !(1..=10).contains(&rules.actions_per_round) {
        at(
            src,
            root.field("actions_per_round"),
            "a round has 1 to 10 actions".into(),
        );
    }
    for (name, _) in rules.initiative.variables() {
        if !known(&name) {
            at(
                src,
                root.field("initiative"),
                format!("unknown stat `{name}` (see `stats`)"),
            );
        }
    }
    let mut need_stat = |path: FieldPath, id: &str| {
        if !known(id) {
            at(src, path, format!("unknown stat `{id}` (see `stats`)"));
        }
    };
    need_stat(
        root.field("initiative_tie_stat"),
        &rules.initiative_tie_stat,
    );
    need_stat(root.field("parry_skill"), &rules.parry_skill);
    need_stat(
        root.field("deflecting_parry_ability"),
        &rules.deflecting_parry_ability,
    );
    need_stat(root.field("strength").field("stat"), &rules.strength.stat);
    for (i, t) in rules.speed.terms.iter().enumerate() {
        need_stat(root.field("speed").field("terms").index(i), t);
    }
    for (i, d) in rules.defenses.iter().enumerate() {
        for (j, t) in d.terms.iter().enumerate() {
            need_stat(root.field("defenses").index(i).field("terms").index(j), t);
        }
    }
    for (i, w) in rules.weapons.iter().enumerate() {
        let p = root.field("weapons").index(i);
        need_stat(p.field("ability"), &w.ability);
        need_stat(p.field("skill"), &w.skill);
    }
    let mut errors2 = Vec::new();
    let mut at2 = |s: &(PathBuf, String), path: FieldPath, msg: String| {
        errors2.push(RulesError::at(&s.0, &s.1, &path, msg));
    };
    if rules.yards_per_square == 0 {
        at2(
            src,
            root.field("yards_per_square"),
            "a square is at least 1 yard".into(),
        );
    }
    if rules.range_dcs.is_empty()
        || rules.range_dcs.windows(2).any(|w| w[0].0 >= w[1].0)
        || rules.range_dcs.iter().any(|r| r.0 == 0)
    {
        at2(
            src,
            root.field("range_dcs"),
            "range rows need increments from 1 up, each more than the one before".into(),
        );
    }
    if rules.missile_increments == 0 || rules.missile_increments > 1000 {
        at2(
            src,
            root.field("missile_increments"),
            "missiles reach 1 to 1000 increments".into(),
        );
    }
    let t = &rules.effect_table;
    if !(3..=1000).contains(&t.per_die)
        || !(2..=100).contains(&t.die)
        || !(1..=100).contains(&t.success_divisor)
        || t.remainder.first().map(|r| r.0) != Some(0)
        || t.remainder.windows(2).any(|w| w[0].0 >= w[1].0)
        || t.remainder
            .iter()
            .any(|r| r.0 >= t.per_die || !(0..=1000).contains(&r.1))
    {
        at2(
            src,
            root.field("effect_table"),
            "the table needs 3 to 1000 points per die of 2 to 100 sides, a success divisor of 1 to 100, and remainder rows from 0 up, each below `per_die`, with bonuses of 0 to 1000".into(),
        );
    }
    let crit_ok = |c: &CriticalRule| {
        (1..=1000).contains(&c.threat)
            && (1..=10).contains(&c.multiplier)
            && (10..=1000).contains(&c.step)
    };
    const CRIT: &str =
        "a critical needs a threat of 1 to 1000, a multiplier of 1 to 10 and a step of 10 to 1000";
    if !crit_ok(&rules.critical) {
        at2(src, root.field("critical"), CRIT.into());
    }
    // Bounds that keep every roll and every exact preview small (a guard against absurd
    // hand-edited numbers, not rules).
    let bounded: [(&str, i64, std::ops::RangeInclusive<i64>); 11] = [
        ("melee_dc", rules.melee_dc, 0..=1000),
        ("strength.minimum", rules.strength.minimum, -100..=1000),
        ("strength.per_point", rules.strength.per_point, 0..=100),
        ("strength.two_handed", rules.strength.two_handed, 0..=100),
        ("extra_attack_penalty", rules.extra_attack_penalty, 0..=100),
        ("rapid_shot_penalty", rules.rapid_shot_penalty, 0..=100),
        ("speed.base", rules.speed.base, -1000..=1000),
        ("speed.divisor", rules.speed.divisor, 1..=100),
        (
            "parry.parrying_weapon",
            rules.parry.parrying_weapon,
            -100..=100,
        ),
        (
            "parry.missile_weapon",
            rules.parry.missile_weapon,
            -100..=100,
        ),
        (
            "parry.unarmed_vs_weapon",
            rules.parry.unarmed_vs_weapon,
            -100..=100,
        ),
    ];
    for (name, v, range) in bounded {
        if !range.contains(&v) {
            let mut path = root.clone();
            for part in name.split('.') {
                path = path.field(part);
            }
            at2(
                src,
                path,
                format!("{v} is out of bounds: {} to {}", range.start(), range.end()),
            );
        }
    }
    for (i, (_, dc)) in rules.range_dcs.iter().enumerate() {
        if !(0..=1000).contains(dc) {
            at2(
                src,
                root.field("range_dcs").index(i),
                "a DC is 0 to 1000".into(),
            );
        }
    }
    if rules.attacks_by_rank.is_empty()
        || rules.attacks_by_rank.iter().any(|n| !(1..=10).contains(n))
    {
        at2(
            src,
            root.field("attacks_by_rank"),
            "every row gives 1 to 10 attacks".into(),
        );
    }
    let pa = &rules.power_attack_two_handed;
    if pa.denominator == 0 || pa.numerator > pa.denominator.saturating_mul(4) {
        at2(
            src,
            root.field("power_attack_two_handed"),
            "a fraction with a denominator of at least 1, at most 4 times over (x1.5 is 3/2)"
                .into(),
        );
    }
    for kind in [DefenseKind::Dodge, DefenseKind::Block] {
        if !rules.defenses.iter().any(|d| d.kind == kind) {
            at2(
                src,
                root.field("defenses"),
                format!("the {kind:?} defense is missing (Dodge, and Block for parries)"),
            );
        }
    }
    if let Some(i) = rules
        .defenses
        .iter()
        .position(|d| d.kind == DefenseKind::Deflect)
    {
        at2(
            src,
            root.field("defenses").index(i).field("kind"),
            "the d20 system has Dodge and parry (Block) only".into(),
        );
    }
    let mut types: BTreeSet<&str> = BTreeSet::new();
    for (i, t) in rules.damage_types.iter().enumerate() {
        if !types.insert(t.id.as_str()) {
            at2(
                src,
                root.field("damage_types").index(i).field("id"),
                format!("damage type `{}` is defined twice", t.id),
            );
        }
    }
    let mut weapon_ids = BTreeSet::new();
    for (i, w) in rules.weapons.iter().enumerate() {
        let p = root.field("weapons").index(i);
        if !weapon_ids.insert(w.id.as_str()) {
            at2(
                src,
                p.field("id"),
                format!("weapon `{}` is defined twice", w.id),
            );
        }
        if !types.contains(w.damage_type.as_str()) {
            at2(
                src,
                p.field("damage_type"),
                format!(
                    "unknown damage type `{}` (see `damage_types`)",
                    w.damage_type
                ),
            );
        }
        if !(0..=1000).contains(&w.effect) {
            at2(
                src,
                p.field("effect"),
                "an effect is 0 to 1000 points".into(),
            );
        }
        if w.critical.as_ref().is_some_and(|c| !crit_ok(c)) {
            at2(src, p.field("critical"), CRIT.into());
        }
        if w.minimum_strength
            .is_some_and(|m| !(-100..=1000).contains(&m))
        {
            at2(
                src,
                p.field("minimum_strength"),
                "a minimum strength is -100 to 1000".into(),
            );
        }
        if w.range_increment.is_some_and(|r| r > 10_000) {
            at2(
                src,
                p.field("range_increment"),
                "a range increment is at most 10,000 squares".into(),
            );
        }
        let thrown = matches!(w.class, WeaponClass::Missile | WeaponClass::Grenade);
        match (thrown, w.range_increment) {
            (true, None | Some(0)) => at2(
                src,
                p.field("range_increment"),
                "a missile weapon or grenade needs a range increment of at least 1 square".into(),
            ),
            (true, _) | (_, None) => {}
            (_, Some(_)) => at2(
                src,
                p.field("range_increment"),
                "only missile weapons and grenades have a range increment".into(),
            ),
        }
        match (w.class == WeaponClass::Grenade, &w.blast) {
            (true, None) => at2(
                src,
                p.field("blast"),
                "a grenade needs a `blast` (radius in yards and the Roll check's DC)".into(),
            ),
            (false, Some(_)) => at2(
                src,
                p.field("blast"),
                "only a weapon of class `Grenade` has a blast".into(),
            ),
            (true, Some(b)) => {
                if b.radius > 40 {
                    at2(
                        src,
                        p.field("blast").field("radius"),
                        "a blast's radius is at most 40 yards".into(),
                    );
                }
                if !(0..=1000).contains(&b.save_dc) {
                    at2(
                        src,
                        p.field("blast").field("save_dc"),
                        "a DC is 0 to 1000".into(),
                    );
                }
                if rules.grenade.is_none() {
                    at2(
                        src,
                        p.field("class"),
                        "a grenade needs the `grenade` rule (aim DC, step, throw-back, Roll check)"
                            .into(),
                    );
                }
            }
            (false, None) => {}
        }
    }
    if let Some(g) = &rules.grenade {
        let p = root.field("grenade");
        for (name, v, range) in [
            ("aim_dc", g.aim_dc, 0..=1000),
            ("step", g.step, 1..=100),
            ("throw_back", g.throw_back, 0..=100),
        ] {
            if !range.contains(&v) {
                at2(
                    src,
                    p.field(name),
                    format!("{v} is out of bounds: {} to {}", range.start(), range.end()),
                );
            }
        }
        for (j, t) in g.save.iter().enumerate() {
            if !stat_ids.contains(t) {
                at2(
                    src,
                    p.field("save").index(j),
                    format!("unknown stat `{t}` (see `stats`)"),
                );
            }
        }
    }
    let grenade_ids: BTreeSet<&str> = rules
        .weapons
        .iter()
        .filter(|w| w.class == WeaponClass::Grenade)
        .map(|w| w.id.as_str())
        .collect();
    if rules.single_step > 10 {
        at2(
            src,
            root.field("single_step"),
            "a single step is 0 to 10 squares".into(),
        );
    }
    if let Some(off) = &rules.off_guard
        && !(0..=20).contains(&off.bonus)
    {
        at2(
            src,
            root.field("off_guard").field("bonus"),
            "the off-guard bonus is 0 to 20".into(),
        );
    }
    if let Some(dive) = &rules.dive_for_cover {
        let p = root.field("dive_for_cover");
        if dive.squares > 5 {
            at2(
                src,
                p.field("squares"),
                "a dive lands 0 to 5 squares away".into(),
            );
        }
        if rules.prone.is_none() {
            at2(
                src,
                p,
                "a Dive for cover lands the diver prone: `prone` is needed too".into(),
            );
        }
    }
    if let Some(prone) = &rules.prone {
        let p = root.field("prone");
        for (field, v) in [("shots", prone.shots), ("melee", prone.melee)] {
            if !(0..=20).contains(&v) {
                at2(
                    src,
                    p.field(field),
                    format!("what lying prone changes is 0 to 20 (`{field}`)"),
                );
            }
        }
    }
    if rules.swift_actions > 3 {
        at2(
            src,
            root.field("swift_actions"),
            "a round has 0 to 3 swift actions".into(),
        );
    }
    if rules.drop_prone && (rules.prone.is_none() || rules.swift_actions == 0) {
        at2(
            src,
            root.field("drop_prone"),
            "Drop prone is a swift action that lays one prone: `prone` and `swift_actions` of 1 or more are needed too".into(),
        );
    }
    let mut armour_ids = BTreeSet::new();
    for (i, a) in rules.armours.iter().enumerate() {
        let p = root.field("armours").index(i);
        if !armour_ids.insert(a.id.as_str()) {
            at2(
                src,
                p.field("id"),
                format!("armour `{}` is defined twice", a.id),
            );
        }
        if !(0..=1000).contains(&a.base) || a.by_type.values().any(|v| !(0..=1000).contains(v)) {
            at2(src, p.clone(), "damage reduction is 0 to 1000".into());
        }
        for t in a.by_type.keys() {
            if !types.contains(t.as_str()) {
                at2(
                    src,
                    p.field("by_type"),
                    format!("unknown damage type `{t}` (see `damage_types`)"),
                );
            }
        }
    }
    let mut attack_ids = BTreeSet::new();
    for (i, a) in rules.attacks.iter().enumerate() {
        let p = root.field("attacks").index(i);
        if !attack_ids.insert(a.id.as_str()) {
            at2(
                src,
                p.field("id"),
                format!("attack `{}` is defined twice", a.id),
            );
        }
        if !weapon_ids.contains(a.weapon.as_str()) {
            at2(
                src,
                p.field("weapon"),
                format!("unknown weapon `{}` (see `weapons`)", a.weapon),
            );
        }
        if a.power_attack < 0 || a.power_attack > 100 {
            at2(
                src,
                p.field("power_attack"),
                "Power Attack is 0 to 100".into(),
            );
        }
        if a.rapid_shot && !a.full_round {
            at2(
                src,
                p.field("rapid_shot"),
                "Rapid Shot's extra attack comes with a full-round attack (`full_round: true`)"
                    .into(),
            );
        }
        let grenade = grenade_ids.contains(a.weapon.as_str());
        if a.throw_back && !grenade {
            at2(
                src,
                p.field("throw_back"),
                format!("only a grenade is thrown back; `{}` is not one", a.weapon),
            );
        }
        if grenade && (a.full_round || a.rapid_shot || a.power_attack > 0) {
            at2(
                src,
                p.clone(),
                "a grenade is thrown one at a time: no full round, Rapid Shot or Power Attack"
                    .into(),
            );
        }
    }
    let mut character_ids = BTreeSet::new();
    for (i, c) in roster.characters.iter().enumerate() {
        let p = root.field("characters").index(i);
        if !character_ids.insert(c.id.as_str()) {
            at2(
                roster_src,
                p.field("id"),
                format!("character `{}` is defined twice", c.id),
            );
        }
        for s in &stat_ids {
            if !c.stats.contains_key(s) {
                at2(
                    roster_src,
                    p.field("stats"),
                    format!("stat `{s}` is missing"),
                );
            }
        }
        for (s, v) in &c.stats {
            if !stat_ids.contains(s) {
                at2(
                    roster_src,
                    p.field("stats").field(s),
                    format!("unknown stat `{s}` (see d20.ron `stats`)"),
                );
            } else if !(-100..=1000).contains(v) {
                at2(
                    roster_src,
                    p.field("stats").field(s),
                    "a stat is -100 to 1000".into(),
                );
            }
        }
        if !(1..=shinobi::MAX_VALUE).contains(&c.hp) {
            at2(roster_src, p.field("hp"), "HP is at least 1".into());
        }
        if !weapon_ids.contains(c.weapon.as_str()) {
            at2(
                roster_src,
                p.field("weapon"),
                format!("unknown weapon `{}` (see d20.ron `weapons`)", c.weapon),
            );
        } else if grenade_ids.contains(c.weapon.as_str()) {
            at2(
                roster_src,
                p.field("weapon"),
                format!("`{}` is a grenade: it is carried in `grenades`", c.weapon),
            );
        }
        if let Some(a) = &c.armour
            && !rules.armours.iter().any(|x| &x.id == a)
        {
            at2(
                roster_src,
                p.field("armour"),
                format!("unknown armour `{a}` (see d20.ron `armours`)"),
            );
        }
        for (g, n) in &c.grenades {
            if !grenade_ids.contains(g.as_str()) {
                at2(
                    roster_src,
                    p.field("grenades").field(g),
                    format!("`{g}` is not a grenade (see d20.ron `weapons`, class `Grenade`)"),
                );
            } else if !(1..=100).contains(n) {
                at2(
                    roster_src,
                    p.field("grenades").field(g),
                    "a character carries 1 to 100 of a grenade".into(),
                );
            }
        }
        if c.attacks.is_empty() {
            at2(
                roster_src,
                p.field("attacks"),
                "a character needs an attack".into(),
            );
        }
        for (j, id) in c.attacks.iter().enumerate() {
            let Some(a) = rules.attacks.iter().find(|a| &a.id == id) else {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!("unknown attack `{id}` (see d20.ron `attacks`)"),
                );
                continue;
            };
            if a.throw_back {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!(
                        "`{id}` is every character's (throwing back a live grenade): leave it out"
                    ),
                );
            }
            if grenade_ids.contains(a.weapon.as_str()) {
                if !a.throw_back && c.grenades.get(&a.weapon).copied().unwrap_or(0) == 0 {
                    at2(
                        roster_src,
                        p.field("attacks").index(j),
                        format!(
                            "`{id}` throws `{}`, which this character does not carry (see `grenades`)",
                            a.weapon
                        ),
                    );
                }
            } else if a.weapon != c.weapon {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!(
                        "`{id}` is made with `{}`, not this character's weapon",
                        a.weapon
                    ),
                );
            }
            if a.rapid_shot && !c.feats.contains(&Feat::RapidShot) {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!("`{id}` needs the RapidShot feat"),
                );
            }
            if a.power_attack > 0 && !c.feats.contains(&Feat::PowerAttack) {
                at2(
                    roster_src,
                    p.field("attacks").index(j),
                    format!("`{id}` needs the PowerAttack feat"),
                );
            }
        }
    }
    errors.extend(errors2);
    errors
}

/// What a d20 `terrain.ron` may not say: the other families' cover, concealment, drops and roll
/// modifiers (d20 cover and concealment are `cover_bonus` and `concealment_bonus`), and a
/// Skill Check on a stat `d20.ron` does not define.
pub fn terrain_errors(
    combat: &D20Rules,
    terrain: &TerrainRules,
    src: &(PathBuf, String),
) -> Vec<RulesError> {
    let stats: Vec<&str> = combat.stats.iter().map(|s| s.id.as_str()).collect();
    let mut errors = neutral::skill_check_errors(terrain, src, &stats);
    errors.extend(neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| {
            vec![
                ("roll_modifier", t.roll_modifier.is_some()),
                ("cover_rank", t.cover_rank.is_some()),
                ("absorb", t.absorb.is_some()),
                ("concealment", t.concealment.is_some()),
                ("drop", t.drop.is_some()),
            ]
        },
        |field| format!("`{field}` is not a d20 rule (write `cover_bonus` or `concealment_bonus`)"),
    ));
    for (i, t) in terrain.types.iter().enumerate() {
        let p = FieldPath::root().field("types").index(i);
        for (field, v) in [
            ("cover_bonus", t.cover_bonus),
            ("concealment_bonus", t.concealment_bonus),
        ] {
            if v.is_some_and(|v| !(1..=100).contains(&v)) {
                errors.push(RulesError::at(
                    &src.0,
                    &src.1,
                    &p.field(field),
                    "a bonus is 1 to 100",
                ));
            }
        }
    }
    errors
}

/// What a `terrain.ron` of neither d20 nor Digimon may not say: d20 cover and concealment
/// bonuses and Skill Checks on the ground, which other families would silently ignore.
pub fn foreign_terrain_errors(terrain: &TerrainRules, src: &(PathBuf, String)) -> Vec<RulesError> {
    neutral::refuse_terrain_fields(
        terrain,
        src,
        |t| {
            vec![
                ("cover_bonus", t.cover_bonus.is_some()),
                ("concealment_bonus", t.concealment_bonus.is_some()),
                ("skill_check", t.skill_check.is_some()),
            ]
        },
        |field| {
            let whose = if field == "skill_check" {
                "a d20 and Digimon rule"
            } else {
                "a d20 rule"
            };
            format!("`{field}` is {whose}; this ruleset's family does not use it")
        },
    )
}
