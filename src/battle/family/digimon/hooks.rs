//! The Digimon RPG behind the family seam: played on the action-point tables, with exploding
//! 3d6 Accuracy against Dodge, damage minus Armor and attack effects.

use crate::battle::aim::{AimContext, AimOption, AimView};
use crate::battle::bar::Offers;
use crate::battle::command::DefenseChoice;
use crate::battle::command::SkillWay;
use crate::battle::command::{AttackOrder, RuleError};
use crate::battle::components::Square;
use crate::battle::context::{AttackContext, Declaration, TargetContext};
use crate::battle::event::EventLog;
use crate::battle::family::DamagePhase;
use crate::battle::family::Family;
use crate::battle::family::RollPhase;
use crate::battle::family::digimon;
use crate::battle::family::shinobi;
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::TargetOdds;
use crate::battle::sheet::{SheetContext, UnitSheet};
use crate::battle::snapshot::Fighters;
use crate::battle::state::AttackState;
use crate::battle::stats::CombatantStats;
use crate::dice::DiceSource;
use crate::grid::Field;
use crate::ruleset::Rules;
use crate::ruleset::digimon::DigimonData;

/// "A Surprise Round … add +5 to their Initiative Roll" (003:49).
pub const SURPRISE_INITIATIVE: i64 = 5;

impl Family for DigimonData {
    fn action_points(&self) -> Option<&crate::ruleset::shinobi::ShinobiData> {
        Some(&self.ap)
    }

    /// Moving provokes nothing: the Digimon chapter has no attacks of opportunity.
    fn move_provokes(&self, _visited: &[Square], _mover_size: u32, _o: &Fighter) -> bool {
        false
    }

    /// Tamers are marked; the rest of the Digimon state starts empty.
    fn prepare_fighter(&self, a: &crate::ruleset::ArchetypeDef, f: &mut Fighter) {
        f.digi = Some(crate::battle::components::DigiState {
            tamer: self.tamer(&a.id).is_some(),
            ..Default::default()
        });
    }

    fn link_fighters(&self, all: &mut [Fighter]) {
        digimon::link_partners(self, all);
    }

    fn odds_words(
        &self,
        ask: &crate::battle::odds_text::OddsAsk,
    ) -> crate::battle::odds_text::OddsWords {
        digimon::odds_text::odds_words(self, ask)
    }

    fn effect_worth(&self, profile: &str, me: &Fighter, t: &Fighter) -> f64 {
        digimon::effect_worth(self, profile, me, t)
    }

    fn refuses_whatever_the_target(
        &self,
        me: &Fighter,
        profile: &str,
    ) -> Option<crate::battle::command::RuleError> {
        let (a, _) = digimon::attack_of(self, profile)?;
        digimon::hold::check_attack(me, a, &[]).err()
    }

    fn aftermath_worth(
        &self,
        (field, all): (&crate::grid::Field, &[Fighter]),
        profile: &str,
        me: &Fighter,
        t: &Fighter,
    ) -> f64 {
        let throws = digimon::attack_of(self, profile)
            .is_some_and(|(a, _)| a.clash == Some(crate::ruleset::digimon::ClashMove::Throw));
        if throws {
            digimon::throw::crash_worth(self, field, all, me, t)
        } else {
            0.0
        }
    }

    fn helps_allies(&self, profile: &str) -> bool {
        digimon::attack_of(self, profile).is_some_and(|(a, _)| digimon::helps(a))
    }

    /// A Clash starts within the Reach Quality; in a Clash started at a range, the controller's
    /// attacks reach its opponent there.
    fn melee_reach(&self, attacker: &Fighter, profile: &str) -> u32 {
        let Some((a, _)) = digimon::attack_of(self, profile) else {
            return 0;
        };
        if a.clash == Some(crate::ruleset::digimon::ClashMove::Start) {
            return digimon::reach(self, attacker);
        }
        digimon::hold::hold(attacker).map_or(0, |h| h.reach)
    }

    /// Two Simple Actions a round (three elsewhere).
    fn attacks_in_round(&self, o: &Fighter, moves: u32) -> u32 {
        o.actions.standard.max(2).saturating_sub(moves)
    }

    /// A Complex Action (a Bolstered or Complex attack) leaves nothing after it.
    fn actions_after(&self, me: &Fighter, attack: Option<&str>) -> u32 {
        let spent = attack.map_or(1, |profile| {
            shinobi::attack_ap(&self.ap, Some(self), me, profile)
        });
        me.actions.usable().saturating_sub(spent)
    }

    fn hand_over_orders(
        &self,
        fighters: &[Fighter],
        me: &Fighter,
        fresh_turn: bool,
    ) -> Vec<AttackOrder> {
        let Some(state) = me.digi.as_ref() else {
            return Vec::new();
        };
        let fresh = fresh_turn && me.round.attacks == 0 && me.round.moves == 0;
        if state.tamer || state.directed.is_some() || !fresh {
            return Vec::new();
        }
        let Some(tamer) = fighters.iter().find(|f| Some(f.id) == state.partner) else {
            return Vec::new();
        };
        digimon::attacks_now(self, tamer)
            .into_iter()
            .filter(|id| {
                digimon::attack_of(self, id).is_some_and(|(a, bolstered)| {
                    !bolstered && a.effect == Some(crate::ruleset::digimon::EffectKind::Direct)
                })
            })
            .map(|id| AttackOrder {
                attacker: tamer.id,
                profile: id,
                technique: None,
                target: crate::battle::command::AttackTarget::Combatant(me.id),
                wager: 0,
                element: None,
                push: None,
                sneak: false,
                called_shot: None,
                united: None,
                discard: None,
                power_attack: 0,
                aimed: Default::default(),
            })
            .collect()
    }

    fn shares_turns(&self) -> bool {
        true
    }

    /// A helping effect or a Clash action rolls no Dodge.
    fn dodged(
        &self,
        profile: &str,
        attacker: crate::battle::components::CombatantId,
        targets: Vec<crate::battle::components::CombatantId>,
        items: &mut [FighterQueryItem],
    ) -> Vec<crate::battle::components::CombatantId> {
        super::end_attack(self, profile, attacker, &targets, items)
    }

    fn dodge_penalty_event(
        &self,
        who: crate::battle::components::CombatantId,
        added: i64,
        total: i64,
    ) -> crate::battle::event::BattleEvent {
        crate::battle::event::BattleEvent::DigiEffect {
            who,
            by: who,
            effect: "Dodge penalty".into(),
            text: format!(
                "grows to -{total} for the rest of the round (-{added} for every attack past the first)"
            ),
        }
    }

    /// A Clash ends when a hit knocks, stuns or paralyses a participant out of it.
    fn after_attack(&self, q: &mut Fighters, log: &mut EventLog) {
        super::grapple::break_loose(q, log);
        super::release_charms(q, log);
    }

    fn roll_damage(&self, p: &mut DamagePhase, state: &mut AttackState) {
        let ctx = crate::battle::family::assemble(p.rules, p.field, p.attacker, p.targets, p.decl);
        let hit = super::HitScene {
            rules: p.rules,
            d: self,
            field: p.field,
            attacker: p.attacker,
            targets: p.targets,
            all: p.all,
            ctx: &ctx,
            profile: &p.decl.profile.id,
            round: p.order.round,
        };
        super::resolve_hits(&hit, state, &mut p.res);
    }

    /// An ally may Intercede before the damage; an effect that only helps rolls nothing.
    fn roll_checks(&self, p: &mut RollPhase, state: &mut AttackState) {
        super::hits::roll_checks(self, p, state);
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
                (SkillWay::Action, "a Simple Action"),
                (
                    SkillWay::Interrupt,
                    "free, with the round's Interrupt Action",
                ),
            ],
        }
    }

    fn aim_view(&self, a: &AimContext) -> AimView {
        super::aim::aim_view(self, a)
    }

    fn aim_option(&self, _wager: i64, _max_wager: i64, _sneak: bool) -> AimOption {
        AimOption::None
    }

    fn initiative_spec(&self, _rules: &Rules, f: &Fighter) -> crate::dice::RollSpec {
        digimon::initiative_spec(self, f)
    }

    /// "Not only does it add +5 to their Initiative Roll" (003:49).
    fn surprise_initiative(&self) -> Option<i64> {
        Some(SURPRISE_INITIATIVE)
    }

    fn plans_ahead(&self) -> bool {
        true
    }

    /// "their Digimon add their Tamer's Intelligence Stat to their Initiative Roll" (003:47):
    /// a partnered Digimon adds its Tamer's Intelligence score (a Tamer rolls with its
    /// Digimon, and one without a partner has no Digimon to add it to).
    fn cautious_initiative(&self, f: &Fighter, all: &[Fighter]) -> Option<(String, i64)> {
        if digimon::is_tamer(f) {
            return None;
        }
        let tamer = all.iter().find(|t| {
            t.digi
                .as_ref()
                .is_some_and(|s| s.tamer && s.partner == Some(f.id))
        })?;
        let int = self
            .tamer(&tamer.identity.archetype)?
            .attributes
            .get("INT")
            .copied()?;
        Some((
            format!("{}'s Intelligence (a cautious Tamer)", tamer.identity.name),
            int,
        ))
    }

    /// The action-point check the ninja chapter defines, with this family's Complex Actions.
    fn check_order(
        &self,
        _field: &Field,
        attacker: &Fighter,
        order: &AttackOrder,
        opportunity: bool,
    ) -> Result<(), RuleError> {
        shinobi::check_attack(&self.ap, Some(self), attacker, &order.profile, opportunity)
    }

    fn check_targets(
        &self,
        _field: &Field,
        attacker: &Fighter,
        order: &AttackOrder,
        targets: &[&Fighter],
    ) -> Result<(), RuleError> {
        digimon::check_attack(self, attacker, &order.profile, targets)
    }

    fn pay_attack(
        &self,
        f: &mut FighterQueryItem,
        me: &Fighter,
        decl: &Declaration,
        opportunity: bool,
        log: &mut EventLog,
    ) {
        shinobi::pay_attack(&self.ap, Some(self), f, me, decl.profile, opportunity, log);
    }

    /// "The one defense is Dodge", rolled automatically (a helping effect's ally rolls none:
    /// the context marks it an automatic hit).
    fn forced_defense(
        &self,
        _attacker: &Fighter,
        _target: &Fighter,
        _profile: &str,
    ) -> Option<DefenseChoice> {
        Some(DefenseChoice::Dodge)
    }

    fn speed(&self, _rules: &Rules, f: &Fighter, _boosted: bool) -> u32 {
        if digimon::flight::airborne(f) > 0 {
            digimon::flight::fly_movement(self, f)
        } else {
            digimon::movement(self, f)
        }
    }

    /// Every Simple Action of the turn (a Complex Action) when the move enters Difficult
    /// Terrain, else the move cost.
    fn move_ap(&self, field: &Field, path: &[Square]) -> u32 {
        let difficult = path
            .iter()
            .any(|s| field.terrain(*s).is_some_and(|t| t.difficult == Some(true)));
        if difficult {
            self.ap.combat.action_points
        } else {
            self.ap.combat.move_cost
        }
    }

    fn assemble(
        &self,
        _rules: &Rules,
        _field: &Field,
        attacker: &Fighter,
        targets: &[&Fighter],
        decl: &Declaration,
    ) -> AttackContext {
        digimon::assemble(self, attacker, targets, decl)
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
        digimon::target_odds(self, ctx, t, &decl.profile.id, target, choice)
    }

    fn unit_sheet(&self, ctx: &SheetContext, f: &Fighter) -> UnitSheet {
        super::sheet::unit_sheet(ctx, f, self)
    }

    fn balance_figures(&self, s: &CombatantStats) -> Vec<(&'static str, i64)> {
        vec![
            ("damage rolled", s.wound_rolled),
            ("stopped by Armor", s.soaked),
            ("HP damage dealt", s.damage_dealt.total()),
            ("effects given", i64::from(s.effects_given)),
        ]
    }

    fn slot_cost(&self, me: &Fighter, profile: &str, ki_cost: i64) -> String {
        crate::battle::family::shinobi::slot_cost(&self.ap, Some(self), me, profile, ki_cost)
    }

    fn refresh_actions(
        &self,
        f: &mut FighterQueryItem,
        standard: &mut u32,
        notes: &mut Vec<String>,
        log: &mut EventLog,
    ) {
        digimon::refresh_round(self, f, standard, notes, log);
    }

    /// Every Clash rolls for control again "at the start of each round following".
    fn start_round(&self, round: u32, q: &mut Fighters, dice: &mut DiceSource, log: &mut EventLog) {
        if round > 1 {
            digimon::grapple::recheck(self, q, dice, log);
        }
    }

    /// A Clash whose participant fell since (Poison at its turn's start) is over; a Charm that
    /// wore off gives its target back.
    fn before_turn(&self, q: &mut Fighters, log: &mut EventLog) {
        digimon::grapple::break_loose(q, log);
        digimon::release_charms(q, log);
    }

    /// Poison, Regenerate and the other effects that act as its turn starts.
    fn effect_phase(
        &self,
        rules: &Rules,
        f: &mut FighterQueryItem,
        dice: &mut DiceSource,
        log: &mut EventLog,
    ) {
        digimon::begin_turn(rules, self, f, dice, log);
    }

    /// Its effects count down a turn.
    fn end_phase(&self, f: &mut FighterQueryItem, log: &mut EventLog) {
        digimon::tick_effects(self, f, log);
    }

    fn after_turn(&self, q: &mut Fighters, log: &mut EventLog) {
        digimon::release_charms(q, log);
    }
}
