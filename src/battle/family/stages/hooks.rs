//! The card game's power stages behind the family seam: cards instead of Ki, life cards
//! instead of Life, the Physical Attack Table instead of opposed rolls.

use crate::battle::aim::{AimContext, AimOption, AimView, MoveHelp};
use crate::battle::bar::Offers;
use crate::battle::command::DefenseChoice;
use crate::battle::command::{AttackOrder, RuleError};
use crate::battle::components::CombatantId;
use crate::battle::components::Square;
use crate::battle::context::DamageResult;
use crate::battle::context::{AttackContext, Declaration, TargetContext};
use crate::battle::event::{EventLog, Pool};
use crate::battle::family::DefenseAsk;
use crate::battle::family::Family;
use crate::battle::family::HitOn;
use crate::battle::family::RollPhase;
use crate::battle::family::stages;
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::{TargetNumbers, TargetOdds};
use crate::battle::sheet::{SheetContext, UnitSheet};
use crate::battle::snapshot::Fighters;
use crate::battle::state::AttackState;
use crate::battle::stats::CombatantStats;
use crate::dice::DiceSource;
use crate::grid::Field;
use crate::ruleset::Rules;
use crate::ruleset::stages::StageData;

impl Family for StageData {
    /// No lapses: see [`Family::lapses`].
    fn lapses(&self) -> bool {
        false
    }

    /// Every unit is a personality of the roster.
    fn written_stats(&self) -> bool {
        false
    }

    /// Life cards, power stages and power level.
    fn unit_line(&self, rules: &Rules, f: &Fighter) -> String {
        format!(
            "{} {}, {} {} of {} (power {}), Speed {}",
            self.combat.pool_names.life,
            f.life.max,
            self.combat.pool_names.stages,
            f.ki.current,
            f.ki.max,
            stages::power(self, f),
            f.derived(rules).normal_speed
        )
    }

    /// The personality's hand, deck and stages.
    fn prepare_fighter(&self, a: &crate::ruleset::ArchetypeDef, f: &mut Fighter) {
        stages::prepare(self, a, f);
    }

    /// A block needs a card that blocks the attack's kind.
    fn check_answer(
        &self,
        _rules: &Rules,
        me: &Fighter,
        choice: DefenseChoice,
        profile: Option<&str>,
    ) -> Result<(), RuleError> {
        let kind = profile.and_then(|p| stages::attack_kind(self, p));
        if choice == DefenseChoice::Parry
            && let Some(kind) = kind
            && stages::block_card(self, me, kind).is_none()
        {
            return Err(RuleError::CannotBlock {
                who: me.id,
                kind: format!("{:?}", kind.blocked_by().unwrap_or(kind)),
            });
        }
        Ok(())
    }

    /// The default pipeline's maneuvers are not played (the Power Up step is automatic).
    fn foreign_maneuver(&self, cmd: &crate::battle::command::Command) -> Option<&'static str> {
        match cmd {
            crate::battle::command::Command::PowerUp { .. } => {
                Some("Power Up (the Power Up step is automatic)")
            }
            other => crate::battle::family::ap::default_pipeline_only(other),
        }
    }

    /// The card game's two answers: take it (`dodge`, the default, or `take`) or block it
    /// with a card (`block` or `parry`).
    fn defense_word(&self, word: &str) -> Option<DefenseChoice> {
        match word {
            "dodge" | "take" => Some(DefenseChoice::Dodge),
            "block" | "parry" => Some(DefenseChoice::Parry),
            _ => None,
        }
    }

    fn odds_what_if(
        &self,
        world: &mut bevy::prelude::World,
        q: &crate::battle::family::OddsWhatIf,
    ) -> Result<Vec<String>, String> {
        stages::odds_text::what_if(self, world, q)
    }

    fn odds_lines(&self, ask: &crate::battle::odds_text::OddsAsk) -> Vec<String> {
        stages::odds_text::lines(ask)
    }

    fn odds_json(&self, ask: &crate::battle::odds_text::OddsAsk) -> serde_json::Value {
        stages::odds_text::json(ask)
    }

    /// One attack a turn, whatever the actions.
    fn attacks_in_round(&self, _o: &Fighter, _moves: u32) -> u32 {
        self.combat.turn.attacks
    }

    /// Hands are open, so only the cards it holds and its personality card power threaten
    /// (the Final Physical Attack only while it holds some card to discard).
    fn threatens_with(&self, f: &Fighter, profile: &str) -> bool {
        let Some(cards) = &f.cards else {
            return true;
        };
        if stages::power_card(self, &f.identity.archetype).is_some_and(|c| c.id == profile) {
            true
        } else if self.card(profile).is_some() {
            cards.count(profile) > 0
        } else {
            cards.held() > 0
        }
    }

    /// The parts of a two-part card besides its attack: a stage raised now is worth a stage
    /// taken from an opponent; a point of anger, its share of the level it fills (a stage more
    /// on each of the next `ANGER_ATTACKS` physical attacks).
    fn effect_worth(&self, profile: &str, _me: &Fighter, _t: &Fighter) -> f64 {
        let Some(card) = self.card(profile) else {
            return 0.0;
        };
        let anger = &self.combat.anger;
        card.also
            .iter()
            .map(|part| match *part {
                crate::ruleset::stages::CardPart::RaiseStages(n) => {
                    stages::STAGE_WORTH * f64::from(n)
                }
                crate::ruleset::stages::CardPart::RaiseAnger(n) => {
                    stages::STAGE_WORTH
                        * f64::from(n)
                        * f64::from(anger.level_bonus)
                        * stages::ANGER_ATTACKS
                        / f64::from(anger.limit.max(1))
                }
            })
            .sum()
    }

    /// What is left after an attack can only be a move once the turn's attacks are spent.
    fn actions_after(&self, me: &Fighter, _attack: Option<&str>) -> u32 {
        let left = me.actions.usable().saturating_sub(1);
        match &me.cards {
            Some(c) => left.min(
                self.combat
                    .turn
                    .attacks
                    .saturating_sub(c.attacks_this_turn + 1),
            ),
            None => left,
        }
    }

    /// The attack card leaves the hand.
    fn attack_declared(&self, f: &mut FighterQueryItem, order: &AttackOrder, log: &mut EventLog) {
        stages::play_attack(self, f, order, log);
    }

    fn has_instants(&self) -> bool {
        false
    }

    /// A hit takes power stages first, then life cards.
    fn apply_damage(
        &self,
        on: &HitOn,
        target: CombatantId,
        r: &DamageResult,
        q: &mut Fighters,
        log: &mut EventLog,
    ) {
        if let Some(mut f) = q.one_mut(target) {
            let kind = stages::attack_kind(self, &on.decl.profile.id)
                .unwrap_or(crate::ruleset::stages::CardKind::PhysicalAttack);
            let why = format!("{}'s {}", on.attacker.identity.name, on.decl.profile.name);
            stages::apply_hit(on.rules, kind, r.damage, on.attacker.id, &why, &mut f, log);
        }
    }

    /// No rolls: a target that chose to block plays its card and is not hit.
    fn roll_checks(&self, p: &mut RollPhase, state: &mut AttackState) {
        let profile = state.order.profile.clone();
        stages::resolve_blocks(self, p.attacker.id, &profile, state, p.res.q, p.res.log);
    }

    fn offers(&self) -> Offers {
        Offers {
            boosted_move: false,
            power_up: false,
            ..Offers::default()
        }
    }

    /// The card game has no attacks on a passing unit.
    fn path_danger(&self, _fighters: &[Fighter], _me: &Fighter, path: &[Square]) -> Vec<bool> {
        vec![false; path.len()]
    }

    fn aim_view(&self, a: &AimContext) -> AimView {
        super::aim::aim_view(a)
    }

    /// The Final Physical Attack discards a card of the player's choice.
    fn discard_choices(&self, me: &Fighter, profile: &str) -> Vec<(String, String)> {
        if profile == crate::ruleset::stages::FINAL_PHYSICAL {
            stages::discard_choices(self, me)
        } else {
            Vec::new()
        }
    }

    fn aim_option(&self, _wager: i64, _max_wager: i64, _sneak: bool) -> AimOption {
        AimOption::None
    }

    fn move_help(&self, _rules: &Rules, _boosted: bool) -> MoveHelp {
        MoveHelp {
            text: "Moving: click a lit square.".into(),
            boost: false,
        }
    }

    fn answer_name(&self, _rules: &Rules, choice: DefenseChoice) -> String {
        super::aim::answer_name(choice)
    }

    fn defense_lines(
        &self,
        _rules: &Rules,
        name: &str,
        answers: &[TargetOdds],
    ) -> Vec<(DefenseChoice, String)> {
        super::aim::defense_lines(name, answers)
    }

    fn life_pool(&self) -> Pool {
        Pool::LifeCards
    }

    fn cost_pool(&self) -> Option<Pool> {
        Some(Pool::PowerStage)
    }

    fn check_order(
        &self,
        _field: &Field,
        attacker: &Fighter,
        order: &AttackOrder,
        _opportunity: bool,
    ) -> Result<(), RuleError> {
        stages::check_attack(self, attacker, order)
    }

    fn policy_defense(&self, ask: &DefenseAsk) -> Option<DefenseChoice> {
        crate::battle::family::stages::stage_defense(self, ask)
    }

    fn assemble(
        &self,
        _rules: &Rules,
        _field: &Field,
        attacker: &Fighter,
        targets: &[&Fighter],
        decl: &Declaration,
    ) -> AttackContext {
        stages::assemble(self, attacker, targets, decl)
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
        stages::target_odds(self, ctx, t, decl, target, choice)
    }

    fn unit_sheet(&self, ctx: &SheetContext, f: &Fighter) -> UnitSheet {
        super::sheet::unit_sheet(ctx, f, self)
    }

    fn balance_figures(&self, s: &CombatantStats) -> Vec<(&'static str, i64)> {
        vec![
            ("stages taken from targets", s.stages_dealt),
            ("life cards taken", s.damage_dealt.total()),
            ("stages spent on attacks", s.ki_spent),
        ]
    }

    /// The cards of it held, and the stages it costs.
    fn slot_cost(&self, me: &Fighter, profile: &str, ki_cost: i64) -> String {
        let Some(hand) = &me.cards else {
            return format!(" {ki_cost}Ki");
        };
        let power = stages::power_card(self, &me.identity.archetype).filter(|c| c.id == profile);
        let held = if power.is_some() {
            let per = self.combat.personality_powers.per_round;
            let left = per.saturating_sub(hand.power_uses);
            format!(" power {left}/{per}")
        } else if self.card(profile).is_some() {
            format!(" x{}", hand.count(profile))
        } else {
            String::new()
        };
        let cost = if ki_cost > 0 {
            format!(" {ki_cost} stages")
        } else {
            String::new()
        };
        format!("{held}{cost}")
    }

    /// Cards are drawn as its turn starts.
    fn turn_started(&self, f: &mut FighterQueryItem, dice: &mut DiceSource, log: &mut EventLog) {
        stages::begin_turn(self, dice, f, log);
    }

    /// A block when the target holds a matching card and the hit would cost life cards or two
    /// stages, as the Best policy does.
    fn expected_answer(
        &self,
        rules: &Rules,
        ctx: &AttackContext,
        t: &TargetContext,
        decl: &Declaration,
        target: &Fighter,
    ) -> TargetNumbers {
        let kind = stages::attack_kind(self, &decl.profile.id);
        let may_block = kind
            .and_then(|k| stages::block_card(self, target, k))
            .is_some();
        let price = kind.map_or(0, |k| stages::block_price(self, target, k));
        crate::battle::family::dbu::better_answer(rules, ctx, t, decl, target, may_block, |d, p| {
            if d.stage_loss.is_some() {
                stages::worth_blocking(d.expected_damage, d.stage_loss, price)
            } else {
                p.expected_damage < d.expected_damage
            }
        })
    }
}
