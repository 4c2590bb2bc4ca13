//! The Digimon RPG behind the family seam: played on the action-point tables, with exploding
//! 3d6 Accuracy against Dodge, damage minus Armor and attack effects.

use super::Family;
use crate::battle::command::RuleError;
use crate::battle::context::{AttackContext, Declaration, DefenseChoice, TargetContext};
use crate::battle::digimon;
use crate::battle::event::Pool;
use crate::battle::fighter::Fighter;
use crate::battle::odds::TargetOdds;
use crate::battle::shinobi;
use crate::grid::Field;
use crate::ruleset::Rules;
use crate::ruleset::digimon::DigimonData;

impl Family for DigimonData {
    fn life_pool(&self) -> Pool {
        Pool::Hp
    }

    fn cost_pool(&self) -> Option<Pool> {
        Some(Pool::Chakra)
    }

    /// The action-point check the ninja chapter defines, with this family's Complex Actions.
    fn check_attack(
        &self,
        attacker: &Fighter,
        profile: &str,
        opportunity: bool,
    ) -> Result<(), RuleError> {
        shinobi::check_attack(&self.ap, Some(self), attacker, profile, opportunity)
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
}
