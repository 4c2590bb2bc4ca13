//! The d20 skill system behind the family seam: played on the action-point tables, with its
//! own checks against range difficulties, Effect Points and armour DR.

use super::Family;
use crate::battle::command::RuleError;
use crate::battle::context::{AttackContext, Declaration, DefenseChoice, TargetContext};
use crate::battle::d20;
use crate::battle::event::Pool;
use crate::battle::fighter::Fighter;
use crate::battle::odds::TargetOdds;
use crate::grid::Field;
use crate::ruleset::Rules;
use crate::ruleset::d20::D20Data;

impl Family for D20Data {
    fn life_pool(&self) -> Pool {
        Pool::Hp
    }

    fn cost_pool(&self) -> Option<Pool> {
        Some(Pool::Chakra)
    }

    fn check_attack(
        &self,
        attacker: &Fighter,
        profile: &str,
        opportunity: bool,
    ) -> Result<(), RuleError> {
        d20::check_attack(self, attacker, profile, opportunity)
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
}
