//! The ninja d20 chapter behind the family seam: action points, HP and chakra, d20 attacks
//! against Dodge, Block or Deflect.

use super::Family;
use crate::battle::command::RuleError;
use crate::battle::context::{AttackContext, Declaration, DefenseChoice, TargetContext};
use crate::battle::event::Pool;
use crate::battle::fighter::Fighter;
use crate::battle::odds::TargetOdds;
use crate::battle::shinobi;
use crate::grid::Field;
use crate::ruleset::Rules;
use crate::ruleset::shinobi::ShinobiData;

impl Family for ShinobiData {
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
        shinobi::check_attack(self, None, attacker, profile, opportunity)
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
}
