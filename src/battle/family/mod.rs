//! The seam between the engine and each ruleset family: one trait, [`Family`], and one
//! registry, [`of`].
//!
//! Generic code asks `family::of(rules)` for what differs between rulesets instead of asking
//! which ruleset this is. Each hook's default is the default pipeline (the DBU chapter's
//! opposed rolls, Soak, thresholds and Ki), or, for a family that plays on action-point tables
//! ([`Family::action_points`]), the path those families share (`ap`); a family overrides only
//! where its text differs. Only this registry names the concrete families.
//!
//! Each family lives in its own folder here: its rules code, its hooks (`hooks.rs`, the
//! `impl Family`) and its view models (`sheet.rs`, `aim.rs`), with its own modules beside them
//! (d20: `grenade`, `swift`, `dive`; Digimon: `grapple`, `hold`, `intercede`). Beside the
//! folders: the default pipeline's steps (`dbu`), what the action-point families share (`ap`)
//! and the Skill Checks of d20 and Digimon (`skill`).
//!
//! Family code uses the engine's vocabulary and kernels (components, commands, events,
//! fighters, state, checks, context, effects, odds) and this seam, never a phase system: that
//! is what keeps the source free of import loops (`scripts/import-cycles.py`).

pub mod ap;
pub mod d20;
pub mod dbu;
pub mod digimon;
mod phases;
pub mod shinobi;
pub mod skill;
pub mod stages;

pub use phases::{DamagePhase, DefenseAsk, HitOn, OddsWhatIf, RollPhase, Step};

use bevy::prelude::World;

use super::aim::{AimContext, AimOption, AimView, MoveHelp};
use super::bar::{BarView, ExploitPrompt, Offers};
use super::command::{AttackOrder, DefenseChoice, RuleError};
use super::components::CombatantId;
use super::components::Square;
use super::context::{AttackContext, DamageResult, Declaration, TargetContext};
use super::event::{BattleEvent, EventLog, Pool};
use super::fighter::{Fighter, FighterQueryItem};
use super::odds::{TargetNumbers, TargetOdds};
use super::odds_text::{OddsAsk, OddsWords};
use super::sheet::{SheetContext, UnitSheet};
use super::state::AttackState;
use super::stats::CombatantStats;
use crate::battle::snapshot::Fighters;
use crate::dice::{DiceSource, RollSpec};
use crate::grid::Field;
use crate::ruleset::shinobi::{CounterDef, ShinobiData};
use crate::ruleset::{FamilyData, Rules};

/// What a ruleset family does differently from the default pipeline.
pub trait Family: Sync {
    /// The action-point tables this family plays on (the ninja chapter's 3 points a round),
    /// if any. A family that returns them inherits the action-point path of every default
    /// below that has one (moves paid in points, HP and chakra, opportunity attacks, the
    /// bar and prompts, counters, falls), and overrides only where its text differs.
    fn action_points(&self) -> Option<&ShinobiData> {
        None
    }

    /// The pool a combatant's life is kept in, as the log names it (Life, HP, life cards).
    fn life_pool(&self) -> Pool {
        match self.action_points() {
            Some(_) => Pool::Hp,
            None => Pool::Life,
        }
    }

    /// The pool an attack's cost is paid from, when it is not the default pipeline's Ki (which
    /// also spends Capacity and has its own event).
    fn cost_pool(&self) -> Option<Pool> {
        self.action_points().map(|_| Pool::Chakra)
    }

    /// The family's own refusals of an attack order, before any target is looked at (a card
    /// not held, action points short, no weapon, a grenade thrown too far). `opportunity` is
    /// true for an attack of opportunity.
    fn check_order(
        &self,
        _field: &Field,
        _attacker: &Fighter,
        _order: &AttackOrder,
        _opportunity: bool,
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// The family's own refusals once the targets are known (an attack this form does not
    /// have, an effect its target cannot take, a d20 aimed shot with nothing to aim past).
    fn check_targets(
        &self,
        _field: &Field,
        _attacker: &Fighter,
        _order: &AttackOrder,
        _targets: &[&Fighter],
    ) -> Result<(), RuleError> {
        Ok(())
    }

    /// Pays for a declared attack: actions, action points or an opportunity attack's
    /// allowance (its Ki, stages or chakra are paid after, from [`Family::cost_pool`]).
    fn pay_attack(
        &self,
        f: &mut FighterQueryItem,
        _me: &Fighter,
        decl: &Declaration,
        opportunity: bool,
        log: &mut EventLog,
    ) {
        crate::battle::family::dbu::default_pay_attack(f, decl.profile, opportunity, log);
    }

    /// The defense a target takes with nothing to decide (Digimon's one Dodge, a d20 shot
    /// that cannot be dodged), before any policy or person is asked.
    fn forced_defense(
        &self,
        _attacker: &Fighter,
        _target: &Fighter,
        _profile: &str,
    ) -> Option<DefenseChoice> {
        None
    }

    /// What a target's defense policy picks; `None` when a person must be asked.
    fn policy_defense(&self, ask: &DefenseAsk) -> Option<DefenseChoice> {
        match self.action_points() {
            Some(_) => ap::action_point_defense(ask),
            None => dbu::default_policy_defense(ask),
        }
    }

    /// The attack's rolls against each target: the one assembly that previews, odds and
    /// resolution all read.
    fn assemble(
        &self,
        rules: &Rules,
        field: &Field,
        attacker: &Fighter,
        targets: &[&Fighter],
        decl: &Declaration,
    ) -> AttackContext {
        super::context::default_assemble(rules, field, attacker, targets, decl)
    }

    /// The Initiative Check a combatant rolls as the battle starts (the default: the base die
    /// and the bonus the derived-value table gives).
    fn initiative_spec(&self, rules: &Rules, f: &Fighter) -> RollSpec {
        super::checks::initiative_roll(rules, f, super::checks::initiative_label(rules))
    }

    /// The attack's checks against each target once it is declared and defended: who is hit,
    /// what the rolls were, and the phase that comes next (the default pipeline: the Opposed
    /// Rolls, then the damage).
    fn roll_checks(&self, p: &mut RollPhase, state: &mut AttackState) {
        dbu::roll_checks(p, state);
    }

    /// What each hit of the attack does (the default pipeline: the Wound Roll, each target's
    /// category and Soak, then [`Family::apply_damage`] for each).
    fn roll_damage(&self, p: &mut DamagePhase, state: &mut AttackState) {
        dbu::roll_damage(self, p, state);
    }

    /// What the damage `r` does to the `target` a hit reached (the default pipeline: Life lost
    /// and the on-damage effects; the card game: power stages, then life cards).
    fn apply_damage(
        &self,
        on: &HitOn,
        target: CombatantId,
        r: &DamageResult,
        q: &mut Fighters,
        log: &mut EventLog,
    ) {
        dbu::apply_damage(false, on, target, r, q, log);
    }

    /// Who of an attack's `targets` (those that did not Intercede) rolled a defense against it
    /// and so gains the Dodge penalty (the default pipeline: all of them).
    fn dodged(
        &self,
        _profile: &str,
        _attacker: CombatantId,
        targets: Vec<CombatantId>,
        _items: &mut [FighterQueryItem],
    ) -> Vec<CombatantId> {
        targets
    }

    /// The event that logs `who`'s defense penalty growing by `added` to `total` (the default
    /// pipeline: Diminishing Defense).
    fn dodge_penalty_event(&self, who: CombatantId, added: i64, total: i64) -> BattleEvent {
        BattleEvent::DiminishingDefense { who, added, total }
    }

    /// What an attack's end does to its attacker besides the common steps (d20: a full
    /// attack's swing is counted). `exploit` is true for an Exploit or opportunity attack.
    fn attack_ended(&self, _f: &mut FighterQueryItem, _profile: &str, _exploit: bool) {}

    /// True when a passing foe provokes an opportunity attack, paid in held action points,
    /// which stops the mover where it entered the attacker's reach when it hits (the
    /// action-point families); false for the default pipeline's Exploit, paid with a real
    /// Counter Action, which stops the mover where it may stand when it deals damage.
    fn opportunity_attacks(&self) -> bool {
        self.action_points().is_some()
    }

    /// Whether `me` can pay for a move costing `need` action points by [`Family::move_ap`]
    /// (the default pipeline: a move takes one Standard Action).
    fn check_move_cost(&self, me: &Fighter, need: u32) -> Result<(), RuleError> {
        if self.action_points().is_some() {
            return ap::check_move_cost(me, need);
        }
        if me.actions.usable() == 0 {
            return Err(RuleError::NoActions {
                who: me.id,
                what: "Standard Action",
            });
        }
        Ok(())
    }

    /// Pays for a move that is not a free step: `need` action points by [`Family::move_ap`],
    /// logged as `what` (the default pipeline: one action).
    fn pay_move(&self, f: &mut FighterQueryItem, need: u32, what: &str, log: &mut EventLog) {
        match self.action_points() {
            Some(data) => ap::pay_move(data, f, need, log),
            None => super::effects::spend_actions(f, 1, what, log),
        }
    }

    /// True when a combatant's actions are counted in action points (the action-point
    /// families), as the log and the bar show them.
    fn acts_in_points(&self) -> bool {
        self.action_points().is_some()
    }

    /// True when something besides actions keeps a turn open that has none left (d20: the
    /// round's free single step, or a Drop prone the round's own Swift action could pay for).
    fn keeps_turn_open(&self, _round: &super::components::RoundLog, _prone: bool) -> bool {
        false
    }

    /// True when combatants of a side share their turn with a partner (Digimon: a Tamer and its
    /// Digimon).
    fn shares_turns(&self) -> bool {
        false
    }

    /// What declaring an attack does to its attacker besides the common steps (the card game:
    /// the attack card is played from the hand).
    fn attack_declared(
        &self,
        _f: &mut FighterQueryItem,
        _order: &crate::battle::command::AttackOrder,
        _log: &mut EventLog,
    ) {
    }

    /// Every foe, in id order, whose attack of opportunity `me` provokes by making the legal
    /// attack `order` while it stands in that foe's reach (d20: a shot); none by default.
    fn provoked_by_attack(
        &self,
        _me: &Fighter,
        _order: &AttackOrder,
        _all: &[Fighter],
    ) -> Vec<CombatantId> {
        Vec::new()
    }

    /// True when combatants may answer an attack with Instant actions (the default pipeline:
    /// a Healing Surge; the other families have none).
    fn has_instants(&self) -> bool {
        self.action_points().is_none()
    }

    /// After an attack has ended, what the family settles on everyone (a Digimon Clash that a
    /// hit broke, charms released).
    fn after_attack(&self, _q: &mut Fighters, _log: &mut EventLog) {}

    /// The squares a move may cover.
    fn speed(&self, rules: &Rules, f: &Fighter, boosted: bool) -> u32 {
        crate::battle::family::dbu::default_speed(rules, f, boosted)
    }

    /// The action points a move along `path` costs (1: the default pipeline's one action).
    fn move_ap(&self, _field: &Field, _path: &[Square]) -> u32 {
        self.action_points().map_or(1, |data| data.combat.move_cost)
    }

    /// The squares of a free single step `f` has left this round, when the family has one.
    fn free_step_left(&self, _f: &Fighter) -> Option<u32> {
        None
    }

    /// True when the family's fighters may jump (the ninja chapter: half a move from a
    /// standstill, a whole one with a running start); the others refuse a jump.
    fn jumps(&self) -> bool {
        false
    }

    /// True when a scenario may write a unit's stats out instead of naming a roster entry (the
    /// default pipeline's characters; the other families' sheets come from their rosters).
    fn written_stats(&self) -> bool {
        self.action_points().is_none()
    }

    /// The one line about `f` that `gridclash demo` opens with (the default pipeline: Life,
    /// Ki, Capacity, Tier of Power and the derived values).
    fn unit_line(&self, rules: &Rules, f: &Fighter) -> String {
        let d = f.derived(rules);
        format!(
            "Life {}, Ki {}, Capacity {}, ToP {}, Haste {}, Awareness {}, Defense Value {}, Soak {}, Speed {}/{}",
            f.life.max,
            f.ki.max,
            f.capacity.max,
            f.power.tier,
            d.haste,
            d.awareness,
            d.defense_value,
            d.soak,
            d.normal_speed,
            d.boosted_speed
        )
    }

    /// The most action points `f` may hold this round (the action-point families: the
    /// table's points, one more for a Digimon Hasted this round); none where actions are not
    /// counted in points. The soak's invariants check it.
    fn most_action_points(&self, f: &Fighter) -> Option<u32> {
        let data = self.action_points()?;
        let hasted = f.digi.as_ref().is_some_and(|s| s.hasted_now);
        Some(data.combat.action_points + u32::from(hasted))
    }

    /// Sets off what `active` left to go off as its turn starts and returns whom it caught
    /// (d20: grenades that missed "don't detonate until the start of your next turn").
    fn set_off_due(
        &self,
        _rules: &Rules,
        _active: CombatantId,
        _ground: &mut super::state::Battleground,
        _res: &mut super::state::Resolve,
    ) -> Vec<CombatantId> {
        Vec::new()
    }

    /// True when maneuver `profile` is offered now (d20: Throw it back only while a grenade
    /// lies live on `map`).
    fn offered_now(&self, _profile: &str, _map: &crate::grid::Map) -> bool {
        true
    }

    /// What the family sets on a new fighter built from archetype `a` (the card game: its
    /// hand and deck; Digimon: whether it is a Tamer).
    fn prepare_fighter(&self, _a: &crate::ruleset::ArchetypeDef, _f: &mut Fighter) {}

    /// What the family links between the fighters of a new battle (Digimon: each Tamer and
    /// its partner).
    fn link_fighters(&self, _all: &mut [Fighter]) {}

    /// True when opponent `o` may answer a mover who steps out of its reach, given the squares
    /// the mover has visited so far (the ninja chapter: only a reach entered during this move
    /// and now left; d20 and Digimon override it: moving provokes nothing there).
    fn move_provokes(&self, visited: &[Square], mover_size: u32, o: &Fighter) -> bool {
        self.action_points().is_none() || shinobi::entered_reach(visited, mover_size, o).is_some()
    }

    /// True when `o` still has what answering a provocation takes: a Counter Action, or an
    /// action point in the action-point families.
    fn can_answer_now(&self, o: &Fighter) -> bool {
        match self.action_points() {
            Some(_) => o.actions.usable() > 0,
            None => o.actions.counter > 0,
        }
    }

    /// What a step from `s.from` onto `s.to` does to the mover besides moving it: in the
    /// action-point families, a drop entered is a fall, rolled and applied here.
    fn stepped(
        &self,
        s: &Step,
        f: &mut FighterQueryItem,
        dice: &mut DiceSource,
        log: &mut EventLog,
    ) {
        if let (Some(data), Some(feet)) = (
            self.action_points(),
            shinobi::drop_between(s.field, s.from, s.to),
        ) {
            let fall = shinobi::fall(data, s.mover, feet);
            let hurt = shinobi::roll_fall(dice, s.mover.id, s.to, &fall, log);
            shinobi::hurt(s.rules, f, hurt, None, "falling damage", log);
        }
    }

    /// The mean damage `me` expects from dropping `feet` (the action-point families' falls);
    /// nothing where falls are not played.
    fn fall_risk(&self, me: &Fighter, feet: u32) -> f64 {
        self.action_points().map_or(0.0, |data| {
            shinobi::fall_dist(&shinobi::fall(data, me, feet)).mean()
        })
    }

    // What a computer player weighs besides the odds (the planner reads these).

    /// What the effect of attack `profile` beyond its damage is worth, in damage points, when
    /// it lands on `t` (Digimon's effects); nothing by default.
    fn effect_worth(&self, _profile: &str, _me: &Fighter, _t: &Fighter) -> f64 {
        0.0
    }

    /// The rule that refuses `me` attack `profile` whatever the target (Digimon: a Clash action
    /// with no Clash), for the action bar, whose probe may fail on reach first.
    fn refuses_whatever_the_target(&self, _me: &Fighter, _profile: &str) -> Option<RuleError> {
        None
    }

    /// What a hit of attack `profile` on `t` does to others, in damage points (a Digimon Throw
    /// crashing into the foes in the way).
    fn aftermath_worth(
        &self,
        _scene: (&crate::grid::Field, &[Fighter]),
        _profile: &str,
        _me: &Fighter,
        _t: &Fighter,
    ) -> f64 {
        0.0
    }

    /// True when attack `profile` is meant for allies (Digimon's Direct or Heal), so landing
    /// it on one is no loss.
    fn helps_allies(&self, _profile: &str) -> bool {
        false
    }

    /// True when attack `profile`, aimed at opponents, may also be aimed at an ally (not
    /// oneself), whom it helps (shinobi: a jutsu's modifying healing).
    fn aims_at_allies(&self, _profile: &str) -> bool {
        false
    }

    /// Why `defender` lacks an answer it would otherwise have, for the defense prompt
    /// (shinobi: a swimming ninja cannot Dodge); nothing by default.
    fn answers_note(&self, _field: &Field, _defender: &Fighter) -> Option<String> {
        None
    }

    /// True when attack `profile`, aimed at an opponent behind full cover that wears down, is
    /// made and strikes the cover (shinobi: "incoming attacks are guaranteed to hit the
    /// obstruction"); otherwise such cover blocks it like a wall.
    fn struck_through_full_cover(&self, _profile: &str) -> bool {
        false
    }

    /// The damage the battlefield itself may deal `me` standing on `at` before its next turn
    /// (d20's live grenades); nothing by default.
    fn ground_risk(&self, _field: &Field, _me: &Fighter, _at: Square) -> f64 {
        0.0
    }

    /// How many attacks `o` can make in a round after `moves` moves (the default pipeline: up
    /// to three actions, each move taking one).
    fn attacks_in_round(&self, o: &Fighter, moves: u32) -> u32 {
        o.actions.standard.max(3).saturating_sub(moves)
    }

    /// True when `f` can attack with `profile` at all now (the card game: only with a card in
    /// hand).
    fn threatens_with(&self, _f: &Fighter, _profile: &str) -> bool {
        true
    }

    /// The farthest `attacker`'s melee maneuver `profile` may reach any target, when the family
    /// lets it reach farther than the unit's melee range (Digimon: a Clash started within the
    /// Reach Quality); 0 otherwise. The family's own check says which targets.
    fn melee_reach(&self, _attacker: &Fighter, _profile: &str) -> u32 {
        0
    }

    /// True when a weaker computer player's lapses (see the planner's `Settings::lapse_chance`)
    /// are played in this family. Power stages: no. There `easy` is already well behind
    /// `normal` without them (`normal` wins 73.5-81.5 % of 200 battles), and a lapse throws away one of a
    /// turn's few attacks against random play (`easy` beat it in 88 % of `stages-heavy`
    /// battles with them, 96.5 % without).
    fn lapses(&self) -> bool {
        true
    }

    /// How many actions like its best attack `me` keeps after one action: an attack with
    /// `attack` when given, else a utility maneuver (the default pipeline: all but one).
    fn actions_after(&self, me: &Fighter, _attack: Option<&str>) -> u32 {
        me.actions.usable().saturating_sub(1)
    }

    /// The partner's attacks that make handing `me`'s turn over before it acts pay (Digimon: a
    /// Tamer's Direct lands on this turn's attack); `fresh_turn` when the shared turn has not
    /// been handed over or paused yet. None where turns are not shared.
    fn hand_over_orders(
        &self,
        _fighters: &[Fighter],
        _me: &Fighter,
        _fresh_turn: bool,
    ) -> Vec<AttackOrder> {
        Vec::new()
    }

    /// The family's own quantities in a balance report, named in its terms (attacks, hits,
    /// misses and defeats are every family's and are not repeated here).
    fn balance_figures(&self, s: &CombatantStats) -> Vec<(&'static str, i64)> {
        super::stats::default_balance_figures(s)
    }

    /// What an attack with `profile` costs `me` now, as the action bar shows it after the
    /// maneuver's name (the default pipeline: its Ki).
    fn slot_cost(&self, _me: &Fighter, _profile: &str, ki_cost: i64) -> String {
        format!(" {ki_cost}Ki")
    }

    /// The numbers of the answer a computer attacker should expect from `target` when it
    /// scores an attack (the default pipeline: Parry when it has a Counter Action and it pays).
    fn expected_answer(
        &self,
        rules: &Rules,
        ctx: &AttackContext,
        t: &TargetContext,
        decl: &Declaration,
        target: &Fighter,
    ) -> TargetNumbers {
        match self.action_points() {
            Some(_) => dbu::least_damage_answer(rules, ctx, t, decl, target),
            None => dbu::default_expected_answer(rules, ctx, t, decl, target),
        }
    }

    /// The unit sheet of `f`: the panel a player reads about a combatant.
    fn unit_sheet(&self, ctx: &SheetContext, f: &Fighter) -> UnitSheet {
        super::sheet::default_unit_sheet(ctx, f)
    }

    /// A combatant's actions as a round starts: what the family adds to or takes from the
    /// `standard` actions just counted, with a note for each change.
    fn refresh_actions(
        &self,
        _f: &mut FighterQueryItem,
        _standard: &mut u32,
        _notes: &mut Vec<String>,
        _log: &mut EventLog,
    ) {
    }

    /// After every combatant's actions are refreshed at the start of `round`.
    fn start_round(
        &self,
        _round: u32,
        _q: &mut Fighters,
        _dice: &mut DiceSource,
        _log: &mut EventLog,
    ) {
    }

    /// Before a turn's Effect Phase: what no longer holds since the last turn ends.
    fn before_turn(&self, _q: &mut Fighters, _log: &mut EventLog) {}

    /// As the active combatant's turn starts (before its conditions act on it).
    fn turn_started(&self, _f: &mut FighterQueryItem, _dice: &mut DiceSource, _log: &mut EventLog) {
    }

    /// As `active`'s turn starts, what it holds on others is rolled (shinobi: each ninja its
    /// Genjutsu blinds resists "on the opponent's initiative"); `all` is everyone as the turn
    /// starts.
    fn hold_on_others(
        &self,
        _rules: &Rules,
        _order: &super::state::TurnOrder,
        _active: &Fighter,
        _all: &[Fighter],
        _res: (&mut Fighters, &mut DiceSource, &mut EventLog),
    ) {
    }

    /// The family's own part of the active combatant's Effect Phase (after Absorbed).
    fn effect_phase(
        &self,
        _rules: &Rules,
        _f: &mut FighterQueryItem,
        _dice: &mut DiceSource,
        _log: &mut EventLog,
    ) {
    }

    /// The family's own part of the active combatant's End Phase.
    fn end_phase(&self, _f: &mut FighterQueryItem, _log: &mut EventLog) {}

    /// After a turn ends and the next is chosen.
    fn after_turn(&self, _q: &mut Fighters, _log: &mut EventLog) {}

    /// The aim panel of an order: its cost in the family's terms, its notes, each target's
    /// odds and the rolls (the default pipeline: Ki and the wager, criticals and thresholds).
    fn aim_view(&self, a: &AimContext) -> AimView {
        super::aim::default_aim_view(a)
    }

    /// What a Surprise Round adds to the initiative of the side that sneaked up (Digimon: +5);
    /// `None` where the ruleset has no Surprise Round (a scenario asking for one is refused).
    fn surprise_initiative(&self) -> Option<i64> {
        None
    }

    /// True when the ruleset has cautious Tamers (Digimon), whose scenario flag
    /// [`Family::cautious_initiative`] reads; a scenario asking for them elsewhere is refused.
    fn plans_ahead(&self) -> bool {
        false
    }

    /// What a cautious side adds to `f`'s initiative, labelled (Digimon: its Tamer's
    /// Intelligence), among `all`; nothing by default.
    fn cautious_initiative(&self, _f: &Fighter, _all: &[Fighter]) -> Option<(String, i64)> {
        None
    }

    /// The cards an attack with `profile` by `me` may discard, each with its shown name, for the
    /// order's `discard` (power stages: the Final Physical Attack's "any one card from your
    /// hand"); none by default.
    fn discard_choices(&self, _me: &Fighter, _profile: &str) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The choice besides the target an attack being aimed offers (the default pipeline: the
    /// Ki wager).
    fn aim_option(&self, wager: i64, max_wager: i64, _sneak: bool) -> AimOption {
        AimOption::Wager {
            wager,
            max: max_wager,
        }
    }

    /// What a move means in this family, for the panel while one is chosen (the default
    /// pipeline: Normal or Boosted Speed, and leaving reach provokes an Exploit).
    fn move_help(&self, _rules: &Rules, boosted: bool) -> MoveHelp {
        if let Some(data) = self.action_points() {
            return ap::move_help(data);
        }
        MoveHelp {
            text: format!(
                "Moving at {} Speed: click a lit square.\nPale squares need Boosted Speed.\nRed path squares provoke an Exploit.",
                if boosted { "Boosted" } else { "Normal" }
            ),
            boost: true,
        }
    }

    /// A defense's name as a prompt offers it, with what it takes (the default pipeline: Dodge,
    /// and Parry with a Counter Action).
    fn answer_name(&self, _rules: &Rules, choice: DefenseChoice) -> String {
        if self.action_points().is_some() {
            return ap::answer_name(choice);
        }
        match choice {
            DefenseChoice::Dodge => "Dodge".into(),
            DefenseChoice::Parry | DefenseChoice::Block => "Parry (a Counter Action)".into(),
            DefenseChoice::Reflect => "Reflect (a Parry; Ki if it wins)".into(),
            other => other.name().into(),
        }
    }

    /// An answer in the defense prompt, with what it rolls where the family says so.
    fn answer_label(&self, rules: &Rules, o: &TargetOdds) -> String {
        match self.action_points() {
            Some(data) => ap::answer_label(data, o),
            None => self.answer_name(rules, o.defense),
        }
    }

    /// The defense prompt of a target named `name`: each answer it has with its odds.
    fn defense_lines(
        &self,
        rules: &Rules,
        _name: &str,
        answers: &[TargetOdds],
    ) -> Vec<(DefenseChoice, String)> {
        use super::aim::pct;
        answers
            .iter()
            .map(|o| {
                // Shinobi's Gen Resist answers a Genjutsu, whose hit blinds rather than hurts.
                if o.defense == DefenseChoice::Resist {
                    return (
                        o.defense,
                        format!(
                            "{}: blinded {} (until it resists on the caster's turn)",
                            self.answer_label(rules, o),
                            pct(o.hit_chance)
                        ),
                    );
                }
                let mut line = format!(
                    "{}: hit {}  |  mean damage {:.1}  |  defeat {}",
                    self.answer_label(rules, o),
                    pct(o.hit_chance),
                    o.expected_damage,
                    pct(o.defeat_chance)
                );
                if let Some(r) = o.reflected {
                    line += &format!(
                        "  |  sent back {}: mean {:.1}, defeats {}",
                        pct(r.chance),
                        r.expected_damage,
                        pct(r.defeat_chance)
                    );
                }
                (o.defense, line)
            })
            .collect()
    }

    /// The maneuvers and switches this family has besides attacks (the default pipeline:
    /// Boosted Speed, Power Up and Combat Recovery).
    fn offers(&self) -> Offers {
        Offers::default()
    }

    /// The part of the action bar that is not an attack, for `me` now (the default pipeline:
    /// the moves left this round).
    fn bar_view(&self, rules: &Rules, me: &Fighter) -> BarView {
        if let Some(data) = self.action_points() {
            return ap::bar_view(data, me);
        }
        let left = rules.actions.moves_per_round.saturating_sub(me.round.moves);
        BarView::plain(None, format!("Move ({left} left)"))
    }

    /// What a unit is asked when `mover` gives it a chance to strike (the default pipeline: an
    /// Exploit with a Basic Attack, for a Counter Action).
    fn exploit_prompt(&self, mover: &str, name: &str) -> ExploitPrompt {
        if let Some(data) = self.action_points() {
            return ap::exploit_prompt(data, mover, name);
        }
        ExploitPrompt {
            question: format!(
                "{mover} leaves {name}'s reach. Exploit with a Basic Attack (a Counter Action)?"
            ),
            accept: "yes (best attack)",
            decline: "no",
        }
    }

    /// For each step of `path` that `me` would walk, whether it provokes an attack (the
    /// default pipeline: a step out of a square inside an opponent's melee reach).
    fn path_danger(&self, fighters: &[Fighter], me: &Fighter, path: &[Square]) -> Vec<bool> {
        dbu::path_danger(fighters, me, path)
    }

    /// Each charge lying live on the field (d20's missed grenades): its square and every
    /// square its blast could reach when it goes off.
    fn live_blasts(&self, _map: &crate::grid::Map) -> Vec<(Square, Vec<Square>)> {
        Vec::new()
    }

    /// Lines about the battlefield itself that every player should see (d20's live grenades).
    fn field_notes(&self, _map: &crate::grid::Map, _names: &super::event::Names) -> Vec<String> {
        Vec::new()
    }

    /// True when an attack may be made as a sneak attack, its contest rolled first (the ninja
    /// chapter).
    fn sneak_attacks(&self) -> bool {
        false
    }

    /// Rolls the sneak contest of `me` attacking with `profile` against `them` and logs it:
    /// true when `me` wins. Asked only where [`Family::sneak_attacks`] holds.
    fn roll_sneak(
        &self,
        _dice: &mut DiceSource,
        _me: (&Fighter, &str),
        _them: &Fighter,
        _log: &mut EventLog,
    ) -> bool {
        false
    }

    /// The counter `me`, answering an attack by `attacker`, could cast with its answer now (the
    /// action-point families: the first its archetype knows and can pay for).
    fn counter_now(&self, me: &Fighter, attacker: &Fighter) -> Option<CounterDef> {
        let data = self.action_points()?;
        shinobi::counters_now(data, me, attacker)
            .first()
            .map(|c| (*c).clone())
    }

    /// What `me`'s `counter` would do against `attacker`: its damage and, for each answer
    /// `tc` offers, the exact chance that `me` evades the attack and the counter then hits.
    fn counter_preview(
        &self,
        field: &Field,
        me: &Fighter,
        attacker: &Fighter,
        tc: &TargetContext,
        counter: CounterDef,
    ) -> super::odds::CounterPreview {
        let chances = match self.action_points() {
            Some(data) => {
                let back = shinobi::counter_defense(data, field, attacker);
                tc.defenses
                    .iter()
                    .map(|(c, spec)| (*c, shinobi::counter_chance(data, &tc.strike, spec, &back)))
                    .collect()
            }
            None => Vec::new(),
        };
        super::odds::CounterPreview {
            damage: shinobi::counter_damage(me, &counter),
            chances,
            counter,
        }
    }

    /// The counter a defense policy casts with its answer for `me`, answering `attacker`.
    fn policy_counter(
        &self,
        turn: &super::state::TurnOrder,
        me: &Fighter,
        attacker: &Fighter,
    ) -> Option<String> {
        shinobi::policy_counter(self.action_points()?, turn, me, attacker)
    }

    /// Casts the counter `id` with `f`'s answer (its cost paid, logged); false when the family
    /// knows no such counter.
    fn cast_counter(&self, f: &mut FighterQueryItem, id: &str, log: &mut EventLog) -> bool {
        match self.action_points().and_then(|data| data.counter(id)) {
            Some(c) => {
                shinobi::cast_counter(f, c, log);
                true
            }
            None => false,
        }
    }

    /// Why `me` may not answer an attack by `attacker` with the counter `counter` (the
    /// action-point families' counters; the default pipeline has none).
    fn check_counter(
        &self,
        me: &Fighter,
        attacker: Option<&Fighter>,
        counter: &str,
    ) -> Result<(), String> {
        match (self.action_points(), attacker) {
            (Some(data), Some(a)) => shinobi::check_counter(data, me, a, counter).map(|_| ()),
            (None, _) => Err("counters are a shinobi rule".to_string()),
            (_, None) => Err("the attacker is gone".to_string()),
        }
    }

    /// Whether `me` can pay for answering attack `profile` with the offered `choice` (the
    /// default pipeline: a Parry takes a Counter Action, or a Standard Action converted; the
    /// action-point families pay when the answer resolves).
    fn check_answer(
        &self,
        rules: &Rules,
        me: &Fighter,
        choice: DefenseChoice,
        _profile: Option<&str>,
    ) -> Result<(), RuleError> {
        if self.action_points().is_none()
            && matches!(choice, DefenseChoice::Parry | DefenseChoice::Reflect)
            && me.actions.counter == 0
            && !(rules.actions.conversion && me.actions.standard > 0)
        {
            return Err(RuleError::CannotParry(me.id));
        }
        Ok(())
    }

    /// The maneuver of `cmd` this family does not have, named for the refusal (the default
    /// pipeline has every one; the action-point families refuse the default pipeline's own).
    fn foreign_maneuver(&self, cmd: &super::command::Command) -> Option<&'static str> {
        if matches!(cmd, super::command::Command::Jump { .. }) && !self.jumps() {
            return Some("jumping (only the ninja chapter has jumps)");
        }
        self.action_points().and_then(|_| ap::foreign_maneuver(cmd))
    }

    /// The answer `word` names on `gridclash odds`'s command line, in this family's terms.
    fn defense_word(&self, word: &str) -> Option<DefenseChoice> {
        super::odds_text::defense_word(self.action_points().is_some(), word)
    }

    /// Sets up the what-if `gridclash odds` asks about in `world` and says what it assumed
    /// (the card game: the cards put in the hands); nothing by default.
    fn odds_what_if(&self, _world: &mut World, _q: &OddsWhatIf) -> Result<Vec<String>, String> {
        Ok(Vec::new())
    }

    /// What `gridclash odds` says about `ask`, in this family's terms.
    fn odds_words(&self, ask: &OddsAsk) -> OddsWords {
        match self.action_points() {
            Some(_) => super::odds_text::action_point_words(ask),
            None => super::odds_text::default_words(ask),
        }
    }

    /// The text `gridclash odds` prints about `ask`.
    fn odds_lines(&self, ask: &OddsAsk) -> Vec<String> {
        super::odds_text::lines(ask, self.odds_words(ask))
    }

    /// The JSON `gridclash odds --json` prints about `ask`.
    fn odds_json(&self, ask: &OddsAsk) -> serde_json::Value {
        super::odds_text::default_json(ask)
    }

    /// The exact odds of the assembled attack against one target answering with `choice`.
    fn target_odds(
        &self,
        rules: &Rules,
        ctx: &AttackContext,
        t: &TargetContext,
        decl: &Declaration,
        target: &Fighter,
        choice: DefenseChoice,
    ) -> TargetOdds {
        super::odds::default_target_odds(rules, ctx, t, decl, target, choice)
    }

    /// [`Family::target_odds`]' numbers alone, which the computer players and the defense
    /// policies weigh: a family with a faster path to them than its whole odds gives it here.
    fn target_numbers(
        &self,
        rules: &Rules,
        ctx: &AttackContext,
        t: &TargetContext,
        decl: &Declaration,
        target: &Fighter,
        choice: DefenseChoice,
    ) -> TargetNumbers {
        TargetNumbers::of(&self.target_odds(rules, ctx, t, decl, target, choice))
    }
}

/// Assembles the attack context of `decl` by `attacker` against `targets`, as the ruleset's
/// family does it: the one assembly that previews, odds and resolution all read.
pub fn assemble(
    rules: &Rules,
    field: &Field,
    attacker: &Fighter,
    targets: &[&Fighter],
    decl: &Declaration,
) -> AttackContext {
    of(rules).assemble(rules, field, attacker, targets, decl)
}

/// The exact odds of the attack in `ctx` against the target `t` defending with `choice`, as
/// the ruleset's family computes them.
pub fn target_odds(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
    choice: DefenseChoice,
) -> TargetOdds {
    of(rules).target_odds(rules, ctx, t, decl, target, choice)
}

/// [`target_odds`]' numbers alone (hit, damage, thresholds, defeat), as the ruleset's family
/// computes them: what a computer player or a defense policy weighs.
pub fn target_numbers(
    rules: &Rules,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
    choice: DefenseChoice,
) -> TargetNumbers {
    of(rules).target_numbers(rules, ctx, t, decl, target, choice)
}

/// The sheet of `f`, as its ruleset's family shows it.
pub fn unit_sheet(ctx: &SheetContext, f: &Fighter) -> UnitSheet {
    of(ctx.rules).unit_sheet(ctx, f)
}

/// One combatant's counts as a balance report of a battle of `rules` names them, in its
/// family's terms.
pub fn balance_report(rules: &Rules, s: &CombatantStats) -> Vec<super::stats::Figure> {
    s.figures(of(rules).balance_figures(s))
}

/// The family that plays `rules`.
pub fn of(rules: &Rules) -> &dyn Family {
    match &rules.family {
        FamilyData::Dbu => &dbu::Dbu,
        FamilyData::PowerStages(data) => data.as_ref(),
        FamilyData::Shinobi(data) => data.as_ref(),
        FamilyData::D20(data) => data.as_ref(),
        FamilyData::Digimon(data) => data.as_ref(),
    }
}
