//! The ninja d20 chapter behind the family seam: action points, HP and chakra, d20 attacks
//! against Dodge, Block or Deflect.

use crate::battle::aim::{AimContext, AimOption, AimView};
use crate::battle::bar::Offers;
use crate::battle::command::DefenseChoice;
use crate::battle::command::{AttackOrder, RuleError};
use crate::battle::components::CombatantId;
use crate::battle::components::Square;
use crate::battle::context::DamageResult;
use crate::battle::context::{AttackContext, Declaration, TargetContext};
use crate::battle::event::EventLog;
use crate::battle::family::Family;
use crate::battle::family::HitOn;
use crate::battle::family::RollPhase;
use crate::battle::family::shinobi;
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::TargetOdds;
use crate::battle::sheet::{SheetContext, UnitSheet};
use crate::battle::snapshot::Fighters;
use crate::battle::state::{AttackPhase, AttackState};
use crate::battle::stats::CombatantStats;
use crate::grid::Field;
use crate::ruleset::Rules;
use crate::ruleset::shinobi::ShinobiData;

impl Family for ShinobiData {
    fn action_points(&self) -> Option<&ShinobiData> {
        Some(self)
    }

    fn sneak_attacks(&self) -> bool {
        true
    }

    fn roll_sneak(
        &self,
        dice: &mut crate::dice::DiceSource,
        me: (&Fighter, &str),
        them: &Fighter,
        log: &mut crate::battle::event::EventLog,
    ) -> bool {
        super::roll_sneak(self, dice, me, them, log)
    }

    /// Damage is flat hit points (no category or Soak to show); a Genjutsu that deals damage
    /// blinds too.
    fn apply_damage(
        &self,
        on: &HitOn,
        target: CombatantId,
        r: &DamageResult,
        q: &mut Fighters,
        log: &mut EventLog,
    ) {
        match self.attack(&on.decl.profile.id) {
            Some(a) if a.genjutsu => {
                crate::battle::family::dbu::apply_damage(true, on, target, r, q, log);
                super::genjutsu::blind(on.rules, on.attacker, target, q, log);
            }
            _ => crate::battle::family::dbu::apply_damage(true, on, target, r, q, log),
        }
    }

    fn hold_on_others(
        &self,
        rules: &Rules,
        order: &crate::battle::state::TurnOrder,
        active: &Fighter,
        all: &[Fighter],
        res: (&mut Fighters, &mut crate::dice::DiceSource, &mut EventLog),
    ) {
        super::genjutsu::hold(self, rules, order, active, all, res);
    }

    /// Blinding an opponent (a Genjutsu); healing an ally (a jutsu's modifying healing), the
    /// HP it gives back.
    fn effect_worth(&self, profile: &str, me: &Fighter, t: &Fighter) -> f64 {
        match self.attack(profile) {
            Some(a) if a.genjutsu => super::genjutsu::blind_worth(self, t),
            Some(a) if t.side == me.side && self.heals_allies(a) => {
                let gain = super::healing(self, me, a).min(t.life.max - t.life.current);
                gain.max(0) as f64
            }
            _ => 0.0,
        }
    }

    /// "One cannot Dodge in mid air or while swimming" (the glossary's Dodge quotes it).
    fn answers_note(&self, field: &Field, defender: &Fighter) -> Option<String> {
        if defender.round.airborne {
            return Some("In mid air on a jump: no Dodge.".into());
        }
        super::swimming(field, defender).then(|| {
            let water = defender
                .position
                .and_then(|s| field.terrain(s))
                .map_or("the water", |t| t.name.as_str());
            format!("Swimming in the {}: no Dodge.", water.to_lowercase())
        })
    }

    fn jumps(&self) -> bool {
        true
    }

    /// Full cover takes every attack but a Genjutsu, which works on the mind and needs sight.
    fn struck_through_full_cover(&self, profile: &str) -> bool {
        self.attack(profile).is_some_and(|a| !a.genjutsu)
    }

    fn aims_at_allies(&self, profile: &str) -> bool {
        self.attack(profile).is_some_and(|a| self.heals_allies(a))
    }

    /// A jutsu aimed at an ally asks it nothing: it heals.
    fn forced_defense(
        &self,
        attacker: &Fighter,
        target: &Fighter,
        profile: &str,
    ) -> Option<DefenseChoice> {
        (target.side == attacker.side && self.attack(profile).is_some_and(|a| self.heals_allies(a)))
            .then_some(DefenseChoice::Dodge)
    }

    /// A Genjutsu with no damage of its own rolls no Wound: each target it reached is blinded.
    /// A jutsu aimed at an ally rolls none either: it heals.
    fn roll_damage(&self, p: &mut crate::battle::family::DamagePhase, state: &mut AttackState) {
        let a = self.attack(&p.decl.profile.id);
        if let Some(a) = a
            && self.heals_allies(a)
            && p.targets.iter().all(|t| t.side == p.attacker.side)
        {
            for t in state.targets.iter().filter(|t| t.hit == Some(true)) {
                if let Some(mut f) = p.res.q.one_mut(t.id) {
                    super::heal_ally(p.rules, self, (p.attacker, a), &mut f, p.res.log);
                }
            }
            return;
        }
        match a {
            Some(a) if a.genjutsu && a.damage.is_empty() && a.damage_bonus == 0 => {
                for t in state.targets.iter().filter(|t| t.hit == Some(true)) {
                    super::genjutsu::blind(p.rules, p.attacker, t.id, p.res.q, p.res.log);
                }
            }
            _ => crate::battle::family::dbu::roll_damage(self, p, state),
        }
    }

    fn roll_checks(&self, p: &mut RollPhase, state: &mut AttackState) {
        crate::battle::family::ap::roll_checks(self, p, state, AttackPhase::Damage);
    }

    fn offers(&self) -> Offers {
        Offers {
            boosted_move: false,
            power_up: false,
            sneak: true,
            jump: true,
            deflect: true,
            parry_is_block: true,
            skill_ways: &[],
        }
    }

    fn path_danger(&self, fighters: &[Fighter], me: &Fighter, path: &[Square]) -> Vec<bool> {
        super::aim::path_danger(fighters, me, path)
    }

    fn aim_view(&self, a: &AimContext) -> AimView {
        super::aim::aim_view(self, a)
    }

    fn aim_option(&self, _wager: i64, _max_wager: i64, sneak: bool) -> AimOption {
        AimOption::Sneak { on: sneak }
    }

    fn check_order(
        &self,
        _field: &Field,
        attacker: &Fighter,
        order: &AttackOrder,
        opportunity: bool,
    ) -> Result<(), RuleError> {
        shinobi::check_attack(self, None, attacker, &order.profile, opportunity)
    }

    fn pay_attack(
        &self,
        f: &mut FighterQueryItem,
        me: &Fighter,
        decl: &Declaration,
        opportunity: bool,
        log: &mut EventLog,
    ) {
        shinobi::pay_attack(self, None, f, me, decl.profile, opportunity, log);
    }

    fn assemble(
        &self,
        _rules: &Rules,
        field: &Field,
        attacker: &Fighter,
        targets: &[&Fighter],
        decl: &Declaration,
    ) -> AttackContext {
        shinobi::assemble(self, field, attacker, targets, decl)
    }

    fn target_odds(
        &self,
        _rules: &Rules,
        ctx: &AttackContext,
        t: &TargetContext,
        _decl: &Declaration,
        target: &Fighter,
        choice: DefenseChoice,
    ) -> TargetOdds {
        shinobi::target_odds(self, ctx, t, target, choice)
    }

    fn unit_sheet(&self, ctx: &SheetContext, f: &Fighter) -> UnitSheet {
        super::sheet::unit_sheet(ctx, f, self)
    }

    fn balance_figures(&self, s: &CombatantStats) -> Vec<(&'static str, i64)> {
        vec![
            ("HP damage dealt", s.damage_dealt.total()),
            ("chakra spent", s.ki_spent),
            ("conditions applied", i64::from(s.conditions_applied)),
        ]
    }

    fn slot_cost(&self, me: &Fighter, profile: &str, ki_cost: i64) -> String {
        crate::battle::family::shinobi::slot_cost(self, None, me, profile, ki_cost)
    }
}
