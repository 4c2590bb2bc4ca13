//! The d20 skill system behind the family seam: played on the action-point tables, with its
//! own checks against range difficulties, Effect Points and armour DR.

use crate::battle::aim::{AimContext, AimOption, AimView, MoveHelp};
use crate::battle::bar::{BarView, ExploitPrompt, Offers};
use crate::battle::command::DefenseChoice;
use crate::battle::command::SkillWay;
use crate::battle::command::{AttackOrder, RuleError};
use crate::battle::components::Square;
use crate::battle::context::{AttackContext, Declaration, TargetContext};
use crate::battle::event::EventLog;
use crate::battle::family::DamagePhase;
use crate::battle::family::Family;
use crate::battle::family::RollPhase;
use crate::battle::family::d20::{self, grenade};
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::TargetOdds;
use crate::battle::sheet::{SheetContext, UnitSheet};
use crate::battle::state::AttackState;
use crate::battle::stats::CombatantStats;
use crate::grid::Field;
use crate::ruleset::Rules;
use crate::ruleset::d20::D20Data;

impl Family for D20Data {
    fn action_points(&self) -> Option<&crate::ruleset::shinobi::ShinobiData> {
        Some(&self.ap)
    }

    /// "The impact after a fall does 3 CD for every yard fallen": a drop entered from above.
    fn stepped(
        &self,
        s: &crate::battle::family::Step,
        f: &mut FighterQueryItem,
        _dice: &mut crate::dice::DiceSource,
        log: &mut EventLog,
    ) {
        if let Some(feet) = crate::battle::family::shinobi::drop_between(s.field, s.from, s.to) {
            d20::fall::land(s.rules, self, s.mover, s.to, feet, f, log);
        }
    }

    /// A fall's damage is certain: the impact less the armour's DR.
    fn fall_risk(&self, me: &Fighter, feet: u32) -> f64 {
        d20::fall::fall(self, me, feet).damage as f64
    }

    /// Moving provokes nothing: d20's attacks of opportunity come from shooting or reloading
    /// in a threatened square.
    fn move_provokes(&self, _visited: &[Square], _mover_size: u32, _o: &Fighter) -> bool {
        false
    }

    fn defense_word(&self, word: &str) -> Option<DefenseChoice> {
        super::odds_text::defense_word(word)
    }

    fn odds_words(
        &self,
        ask: &crate::battle::odds_text::OddsAsk,
    ) -> crate::battle::odds_text::OddsWords {
        super::odds_text::odds_words(self, ask)
    }

    fn set_off_due(
        &self,
        rules: &Rules,
        active: crate::battle::components::CombatantId,
        ground: &mut crate::battle::state::Battleground,
        res: &mut crate::battle::state::Resolve,
    ) -> Vec<crate::battle::components::CombatantId> {
        grenade::set_off_due(rules, self, active, ground, res)
    }

    /// Throw it back is offered only while a grenade lies live on the map (it comes last in
    /// every loadout, so the other keys stay put).
    fn offered_now(&self, profile: &str, map: &crate::grid::Map) -> bool {
        !map.grenades.is_empty() || !self.attack(profile).is_some_and(|a| a.throw_back)
    }

    fn ground_risk(&self, field: &Field, me: &Fighter, at: Square) -> f64 {
        super::grenade::live_risk(self, field, me, at)
    }

    /// The round's free single step keeps the turn open until it is taken or passed up, and
    /// so does a Drop prone the round's own Swift action could still pay for.
    fn keeps_turn_open(&self, round: &crate::battle::components::RoundLog, prone: bool) -> bool {
        (!round.stepped && self.combat.single_step > 0)
            || super::swift::own_swift_left(self, prone, round)
    }

    /// "Adam's next ranged attack provokes an attack of opportunity from Betty because she
    /// threatens his space."
    fn provoked_by_attack(
        &self,
        me: &Fighter,
        order: &AttackOrder,
        all: &[Fighter],
    ) -> Vec<crate::battle::components::CombatantId> {
        let Some(a) = self.attack(&order.profile) else {
            return Vec::new();
        };
        let mut enemies: Vec<_> = all
            .iter()
            .filter(|e| super::provokes(self, me, a, e))
            .map(|e| e.id)
            .collect();
        enemies.sort();
        enemies
    }

    /// A full attack's swing is counted (not an attack of opportunity's).
    fn attack_ended(&self, f: &mut FighterQueryItem, profile: &str, exploit: bool) {
        if !exploit {
            super::count_swing(f, profile);
        }
    }

    fn roll_damage(&self, p: &mut DamagePhase, state: &mut AttackState) {
        super::attack::roll_damage(self, p, state);
    }

    fn roll_checks(&self, p: &mut RollPhase, state: &mut AttackState) {
        super::attack::roll_phase(self, p, state);
    }

    fn offers(&self) -> Offers {
        Offers {
            boosted_move: false,
            power_up: false,
            sneak: false,
            jump: false,
            deflect: false,
            parry_is_block: true,
            skill_ways: &[
                (SkillWay::Action, "a Standard action, rolled"),
                (SkillWay::TakeTen, "Take 10 where no foe sees you"),
            ],
        }
    }

    fn live_blasts(&self, map: &crate::grid::Map) -> Vec<(Square, Vec<Square>)> {
        super::aim::live_blasts(self, map)
    }

    fn bar_view(&self, _rules: &Rules, me: &Fighter) -> BarView {
        super::aim::bar_view(self, me)
    }

    fn exploit_prompt(&self, mover: &str, name: &str) -> ExploitPrompt {
        ExploitPrompt {
            question: format!(
                "{mover} shoots within your reach: {name} may make the round's one attack of opportunity first."
            ),
            accept: "strike (best melee attack)",
            decline: "let it go",
        }
    }

    fn aim_view(&self, a: &AimContext) -> AimView {
        super::aim::aim_view(self, a)
    }

    /// The wager keys choose a Power Attack where one may be declared.
    fn aim_option(&self, wager: i64, max_wager: i64, _sneak: bool) -> AimOption {
        if max_wager > 0 {
            AimOption::PowerAttack {
                amount: wager,
                max: max_wager,
            }
        } else {
            AimOption::None
        }
    }

    fn move_help(&self, _rules: &Rules, _boosted: bool) -> MoveHelp {
        super::aim::move_help()
    }

    fn answer_name(&self, _rules: &Rules, choice: DefenseChoice) -> String {
        super::aim::answer_name(self, choice)
    }

    fn answer_label(&self, _rules: &Rules, o: &TargetOdds) -> String {
        super::aim::answer_label(self, o)
    }

    fn field_notes(
        &self,
        map: &crate::grid::Map,
        names: &crate::battle::event::Names,
    ) -> Vec<String> {
        super::aim::field_notes(self, map, names)
    }

    /// "A natural roll of 20 adds an addition 1d20 to the check roll."
    fn initiative_spec(&self, rules: &Rules, f: &Fighter) -> crate::dice::RollSpec {
        use crate::battle::checks::{initiative_label, initiative_roll};
        let mut s = initiative_roll(rules, f, initiative_label(rules));
        if let Some(b) = s.base.as_mut() {
            b.critical_target = Some(b.sides);
            b.exploding = true;
        }
        s
    }

    /// "Her power attack remains in effect until her turn next round": it ends as the turn
    /// starts, and so does the Dodge check a Dive for cover on the last turn kept.
    fn turn_started(
        &self,
        f: &mut FighterQueryItem,
        _dice: &mut crate::dice::DiceSource,
        _log: &mut EventLog,
    ) {
        f.encounter.power_attack = None;
        // A dive's Dodge check kept from its last turn lapses (ours: the text gives no end).
        f.encounter.dive_ready = false;
    }

    /// Its own check, then a grenade's range and landing square.
    fn check_order(
        &self,
        field: &Field,
        attacker: &Fighter,
        order: &AttackOrder,
        opportunity: bool,
    ) -> Result<(), RuleError> {
        d20::check_attack(self, attacker, &order.profile, opportunity)?;
        d20::check_power_attack(self, attacker, &order.profile, order.power_attack)?;
        if let Some(g) = grenade::of(self, &order.profile) {
            grenade::check(self, &g, field, attacker, order.target.square())?;
        }
        Ok(())
    }

    /// An aimed shot needs armour with gaps, or cover with a DR, to aim past.
    fn check_targets(
        &self,
        field: &Field,
        attacker: &Fighter,
        order: &AttackOrder,
        targets: &[&Fighter],
    ) -> Result<(), RuleError> {
        d20::aimed::check_aimed(self, field, attacker, order, targets)
    }

    fn pay_attack(
        &self,
        f: &mut FighterQueryItem,
        _me: &Fighter,
        decl: &Declaration,
        opportunity: bool,
        log: &mut EventLog,
    ) {
        d20::pay_attack(self, f, decl, opportunity, log);
    }

    /// "Normally ranged attacks cannot be dodged": with no defense offered there is nothing
    /// to declare.
    fn forced_defense(
        &self,
        attacker: &Fighter,
        target: &Fighter,
        profile: &str,
    ) -> Option<DefenseChoice> {
        let a = self.attack(profile)?;
        d20::offered(self, target, a, attacker.distance_to(target).unwrap_or(1))
            .is_empty()
            .then_some(DefenseChoice::Dodge)
    }

    /// With no action left, the round's free single step is the only move there is.
    fn speed(&self, rules: &Rules, f: &Fighter, boosted: bool) -> u32 {
        if f.actions.usable() == 0 {
            d20::step_left(self, f)
        } else {
            crate::battle::family::dbu::default_speed(rules, f, boosted)
        }
    }

    fn free_step_left(&self, f: &Fighter) -> Option<u32> {
        Some(d20::step_left(self, f))
    }

    fn assemble(
        &self,
        _rules: &Rules,
        field: &Field,
        attacker: &Fighter,
        targets: &[&Fighter],
        decl: &Declaration,
    ) -> AttackContext {
        d20::assemble(self, field, attacker, targets, decl)
    }

    fn target_odds(
        &self,
        _rules: &Rules,
        ctx: &AttackContext,
        t: &TargetContext,
        decl: &Declaration,
        target: &Fighter,
        choice: DefenseChoice,
    ) -> TargetOdds {
        d20::target_odds(self, ctx, t, &decl.profile.id, target, choice)
    }

    fn unit_sheet(&self, ctx: &SheetContext, f: &Fighter) -> UnitSheet {
        super::sheet::unit_sheet(ctx, f, self)
    }

    fn balance_figures(&self, s: &CombatantStats) -> Vec<(&'static str, i64)> {
        vec![
            ("Success Value on hits", s.success_on_hits),
            ("damage rolled", s.wound_rolled),
            (
                "stopped by armour DR",
                s.wound_rolled - s.damage_dealt.total(),
            ),
            ("damage dealt", s.damage_dealt.total()),
            ("own armour worn down", i64::from(s.armour_worn)),
        ]
    }

    /// Its actions now, or "next swing" for a later swing of a full-round attack.
    fn slot_cost(&self, me: &Fighter, profile: &str, _ki_cost: i64) -> String {
        match d20::cost_now(self, me, profile) {
            0 => " next swing".to_string(),
            cost => format!(" {cost}AP"),
        }
    }
}
