//! Previews of what a command would do, from the same assembly that resolves it: the exact
//! odds of an attack, of the defenses a target may choose and of a counter.

use super::aim::{AimContext, AimOption, AimView, MoveHelp};
use super::command::DefenseChoice;
use super::command::{AttackOrder, Command, Decision, RuleError};
use super::context::AttackContext;
use super::context::Declaration;
use super::family::target_odds;
use super::fighter::Fighter;
use super::odds::{AttackOdds, AttackPreview, RollSummary};
use super::state::CurrentAttack;
use super::{Battle, attack, family, odds};
use crate::ruleset::Rules;
use bevy::prelude::*;

pub use super::odds::CounterPreview;

impl Battle {
    /// The aim panel of `order`, from its `preview`, in the family's terms: what the window's
    /// odds panel shows (it adds only key hints). `max_wager` is the most Ki the attacker may
    /// wager on it now.
    pub fn aim_view(
        &mut self,
        order: &AttackOrder,
        preview: &AttackPreview,
        max_wager: i64,
    ) -> AimView {
        let fighters = self.fighters();
        let names = self.names();
        let field = self.field();
        let a = AimContext {
            rules: &self.rules,
            order,
            preview,
            fighters: &fighters,
            field: &field,
            names: &names,
            max_wager,
        };
        family::of(&self.rules).aim_view(&a)
    }

    /// The cards `who` may discard with an attack of `profile`, each with its shown name (power
    /// stages: the Final Physical Attack's card of the player's choice); empty elsewhere.
    pub fn discard_choices(
        &mut self,
        who: super::components::CombatantId,
        profile: &str,
    ) -> Vec<(String, String)> {
        let Some(me) = self.fighter(who) else {
            return Vec::new();
        };
        family::of(&self.rules).discard_choices(&me, profile)
    }

    /// The choice besides a target that aiming an attack offers in this ruleset, as it stands
    /// (the pending Ki `wager` of at most `max_wager`, the `sneak` attack switch).
    pub fn aim_option(&self, wager: i64, max_wager: i64, sneak: bool) -> AimOption {
        family::of(&self.rules).aim_option(wager, max_wager, sneak)
    }

    /// The most Power Attack `who` may declare with `profile` now (d20: a melee attack by a
    /// character with the feat, whose turn has set none yet); 0 where there is nothing to
    /// choose, which orders that carry 0 take as whatever is in effect.
    pub fn power_attack_cap(&mut self, who: super::components::CombatantId, profile: &str) -> i64 {
        let rules = self.rules.clone();
        let (Some(d), Some(me)) = (rules.d20(), self.fighter(who)) else {
            return 0;
        };
        if me.encounter.power_attack.is_some() {
            return 0;
        }
        d.attack(profile)
            .and_then(|a| family::d20::power_attack_cap(d, &me, a))
            .unwrap_or(0)
    }

    /// d20: the panel while choosing whom to feint at: the rule, then each foe `who` may feint
    /// at now with its exact chance; empty where the ruleset has no feints.
    pub fn feint_panel(&mut self, who: super::components::CombatantId) -> Vec<String> {
        let fighters = self.fighters();
        let field = self.field();
        fighters
            .iter()
            .find(|f| f.id == who)
            .map_or(Vec::new(), |me| {
                family::d20::feint::panel(&self.rules, &field, &fighters, me)
            })
    }

    /// d20: every foe of `who` on the map and whether a feint at it is refused now, for the
    /// board to light while one is chosen.
    pub fn feint_targets(
        &mut self,
        who: super::components::CombatantId,
    ) -> Vec<(
        super::components::CombatantId,
        Option<crate::grid::Square>,
        bool,
    )> {
        let Some(me) = self.fighter(who) else {
            return Vec::new();
        };
        let foes: Vec<_> = self
            .fighters()
            .into_iter()
            .filter(|f| f.side != me.side && !f.defeated())
            .collect();
        foes.into_iter()
            .map(|f| {
                let refused = self.check(&Command::Feint { who, target: f.id }).is_err();
                (f.id, f.position, refused)
            })
            .collect()
    }

    /// What a move means in this ruleset, for the panel while one is chosen.
    pub fn move_help(&self, boosted: bool) -> MoveHelp {
        family::of(&self.rules).move_help(&self.rules, boosted)
    }

    /// Where `who` could land with a jump now, each with its path (the squares passed over,
    /// the landing last); empty where the ruleset has no jumps or `who` is not on the map.
    pub fn jump_options(
        &mut self,
        who: super::components::CombatantId,
    ) -> std::collections::BTreeMap<crate::grid::Square, Vec<crate::grid::Square>> {
        let fighters = self.fighters_shared();
        let Some(me) = fighters.iter().find(|f| f.id == who) else {
            return Default::default();
        };
        let rules = self.rules.clone();
        super::movement::jump_landings(&rules, &self.field(), &fighters, me)
    }

    /// What a jump of `who` means now, for the panel while one is chosen; `None` where the
    /// ruleset has no jumps.
    pub fn jump_help(&mut self, who: super::components::CombatantId) -> Option<String> {
        let me = self.fighter(who)?;
        let (_, reach) = super::movement::jump_reach(&self.rules, &me)?;
        Some(format!(
            "Jumping ({} AP, a move): click a lit square.\nA jump goes in a straight line: {reach}.\nIt clears people, crates, water and drops, never what blocks sight.\nRed path squares leave a reach the jump entered: an opportunity attack (a hit brings you down where you entered, with a fall from a roof).",
            super::movement::move_ap(&self.rules, &self.field(), &[])
        ))
    }

    /// A defense's name as this ruleset's prompts offer it.
    pub fn answer_name(&self, choice: DefenseChoice) -> String {
        family::of(&self.rules).answer_name(&self.rules, choice)
    }

    /// The defense prompt of the target named `name`: each of its `answers` with its odds.
    pub fn defense_lines(
        &self,
        name: &str,
        answers: &[odds::TargetOdds],
    ) -> Vec<(DefenseChoice, String)> {
        family::of(&self.rules).defense_lines(&self.rules, name, answers)
    }

    /// Lines about the battlefield every player should see (d20's live grenades).
    pub fn field_notes(&mut self) -> Vec<String> {
        let names = self.names();
        family::of(&self.rules).field_notes(self.map(), &names)
    }

    /// Why `who` lacks an answer it would otherwise have, for its defense prompt (a swimming
    /// ninja cannot Dodge).
    pub fn answers_note(&mut self, who: crate::battle::components::CombatantId) -> Option<String> {
        let f = self.fighter(who)?;
        family::of(&self.rules).answers_note(&self.field(), &f)
    }

    /// What the ground at `s` is and does, for the player pointing at it: its name and
    /// description, and for cover that wears down what it still absorbs ("28 of 40 left").
    /// `None` off the map.
    pub fn square_note(&self, s: crate::grid::Square) -> Option<String> {
        let field = self.field();
        let t = field.terrain(s)?;
        let mut note = format!("{} at {s}: {}", t.name, t.description);
        if let Some(full) = t.absorb {
            match field.absorb_left(s) {
                Some(left) if left < full => {
                    note.push_str(&format!(" Worn: {left} of {full} left."));
                }
                Some(_) => {}
                None => note.push_str(" Broken: it absorbs nothing more."),
            }
        }
        Some(note)
    }

    /// The exact odds of an attack order against each target, from the attack-context
    /// assembly that resolution uses. Refused like the order itself would be.
    pub fn preview(&mut self, order: &AttackOrder) -> Result<AttackPreview, RuleError> {
        let fighters = self.fighters();
        let attacker = fighters
            .iter()
            .find(|f| f.id == order.attacker)
            .ok_or(RuleError::UnknownCombatant(order.attacker))?;
        let field = self.field();
        let targets = attack::check_attack(&self.rules, &field, &fighters, attacker, order, None)?;
        let mut decl =
            crate::battle::context::declaration(&self.rules, attacker, order, targets.len())?;
        decl.bystanders = &fighters;
        let target_refs: Vec<&Fighter> = targets
            .iter()
            .filter_map(|id| fighters.iter().find(|f| f.id == *id))
            .collect();
        let ctx =
            crate::battle::family::assemble(&self.rules, &field, attacker, &target_refs, &decl);
        let odds = attack_odds(&self.rules, &ctx, &decl, attacker, &target_refs);
        Ok(AttackPreview {
            targets,
            ki_cost: ctx.ki_cost,
            context: ctx,
            odds,
        })
    }

    /// The exact odds of every defense the defender the battle is asking now may answer with
    /// (Dodge first), from the same context assembly the `Best` defense policy and resolution
    /// use: what a person sees before choosing.
    pub fn defense_odds(&mut self) -> Option<Vec<odds::TargetOdds>> {
        let Some(Decision::Defense { defender, attacker }) = self.awaiting().cloned() else {
            return None;
        };
        let attack = self.world.resource::<CurrentAttack>().0.clone()?;
        let fighters = self.fighters();
        let a = fighters.iter().find(|f| f.id == attacker)?;
        let t = fighters.iter().find(|f| f.id == defender)?;
        let all: Vec<&Fighter> = attack
            .targets
            .iter()
            .filter_map(|ts| fighters.iter().find(|f| f.id == ts.id))
            .collect();
        let rules = self.rules.clone();
        let mut decl =
            crate::battle::context::declaration(&rules, a, &attack.order, all.len()).ok()?;
        decl.sneak_won = &attack.sneak_won;
        decl.bystanders = &fighters;
        let field = self.field();
        let ctx = crate::battle::family::assemble(&rules, &field, a, &all, &decl);
        let tc = ctx.targets.iter().find(|x| x.id == defender)?;
        Some(
            tc.defenses
                .iter()
                .map(|(c, _)| crate::battle::family::target_odds(&rules, &ctx, tc, &decl, t, *c))
                .collect(),
        )
    }

    /// Shinobi: the counter the defender the battle is asking now could cast with its answer,
    /// and for each answer the exact chance that it evades and the counter then hits, from the
    /// same context assembly resolution uses.
    pub fn counter_preview(&mut self) -> Option<CounterPreview> {
        let Some(Decision::Defense { defender, attacker }) = self.awaiting().cloned() else {
            return None;
        };
        let rules = self.rules.clone();
        let fam = family::of(&rules);
        let attack = self.world.resource::<CurrentAttack>().0.clone()?;
        let fighters = self.fighters();
        let a = fighters.iter().find(|f| f.id == attacker)?;
        let me = fighters.iter().find(|f| f.id == defender)?;
        let counter = fam.counter_now(me, a)?;
        let all: Vec<&Fighter> = attack
            .targets
            .iter()
            .filter_map(|ts| fighters.iter().find(|f| f.id == ts.id))
            .collect();
        let mut decl =
            crate::battle::context::declaration(&rules, a, &attack.order, all.len()).ok()?;
        decl.sneak_won = &attack.sneak_won;
        let field = self.field();
        let ctx = crate::battle::family::assemble(&rules, &field, a, &all, &decl);
        let tc = ctx.targets.iter().find(|x| x.id == defender)?;
        // A Genjutsu is answered with Gen Resist alone, which casts no counter.
        if tc.defenses.iter().all(|(c, _)| *c == DefenseChoice::Resist) {
            return None;
        }
        Some(fam.counter_preview(&field, me, a, tc, counter))
    }
}

/// The odds of the attack in `ctx` against every target, every defense it has.
pub fn attack_odds(
    rules: &Rules,
    ctx: &AttackContext,
    decl: &Declaration,
    attacker: &Fighter,
    targets: &[&Fighter],
) -> AttackOdds {
    AttackOdds {
        attacker: attacker.id,
        maneuver: decl.technique.map_or_else(
            || decl.profile.name.clone(),
            |t| format!("{} ({})", t.name, decl.profile.name),
        ),
        ki_cost: ctx.ki_cost,
        wager: ctx.wager,
        wound: RollSummary::of(&ctx.wound),
        targets: ctx
            .targets
            .iter()
            .zip(targets)
            .map(|(tc, t)| {
                if tc.defenses.is_empty() {
                    // d20: a target that cannot defend (a shot beyond melee range) has one
                    // outcome, listed under the default answer.
                    return vec![target_odds(rules, ctx, tc, decl, t, DefenseChoice::Dodge)];
                }
                tc.defenses
                    .iter()
                    .map(|(c, _)| target_odds(rules, ctx, tc, decl, t, *c))
                    .collect()
            })
            .collect(),
    }
}
