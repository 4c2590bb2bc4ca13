//! The action menu as a view model of the core: the maneuvers a unit may use now, each with
//! its cost in the ruleset's own terms and the rule that refuses it, for the window's action
//! bar, the computer players and tests alike.

use super::Battle;
use super::bar::{BarView, ChargeBar, EmpowerOffer, ExploitPrompt, Offers};
use super::command::{AttackOrder, AttackTarget, Command, RuleError};
use super::components::{CombatantId, Square};
use super::family;
use super::fighter::Fighter;
use crate::grid::Dir8;
use crate::ruleset::{AreaOrigin, AreaShape, Rules, Targeting};

/// One attacking maneuver of the menu.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuSlot {
    /// A Basic Attack profile id, or the technique's profile.
    pub profile: String,
    pub technique: Option<String>,
    /// The technique's or the profile's name.
    pub name: String,
    pub element: Option<String>,
    /// Its Ki (stages, chakra) cost.
    pub ki_cost: i64,
    /// What it costs now as the bar shows it after the name (" 2AP 3ch", " next swing").
    pub cost: String,
    /// The rule that refuses it now, if one does.
    pub refusal: Option<RuleError>,
}

/// The attacking maneuvers of `who`, in its loadout's order (the keys 1-9 of the window), each
/// with its cost now and the rule refusing it, if one does. Aiming errors (out of range, no
/// line of sight) do not refuse a maneuver: it is usable, aimed elsewhere.
pub fn attack_slots(battle: &mut Battle, who: CombatantId) -> Vec<MenuSlot> {
    let Some(me) = battle.fighter(who) else {
        return Vec::new();
    };
    let rules = battle.rules().clone();
    // Only what the family offers now (d20: "Throw it back" while a grenade lies live).
    let family = super::family::of(&rules);
    let mut uses: Vec<(String, Option<String>, String)> = me
        .loadout
        .profiles
        .iter()
        .filter(|p| family.offered_now(p, battle.map()))
        .filter_map(|p| rules.profile(p).map(|d| (p.clone(), None, d.name.clone())))
        .collect();
    uses.extend(
        me.loadout
            .techniques
            .iter()
            .map(|t| (t.profile.clone(), Some(t.id.clone()), t.name.clone())),
    );
    let fighters = battle.fighters();
    uses.into_iter()
        .map(|(profile, technique, name)| {
            let element = me.loadout.elements.first().cloned().filter(|_| {
                rules.profile(&profile).is_some_and(|p| {
                    p.effects
                        .iter()
                        .any(|e| matches!(e, crate::ruleset::ProfileEffect::ElementChoice))
                })
            });
            let probe = AttackOrder {
                attacker: who,
                profile: profile.clone(),
                technique: technique.clone(),
                target: probe_target(&rules, &fighters, &me, &profile),
                wager: 0,
                element: element.clone(),
                push: None,
                sneak: false,
                called_shot: None,
                united: None,
                discard: None,
                power_attack: 0,
                aimed: Default::default(),
            };
            let ki_cost = crate::battle::context::declaration(&rules, &me, &probe, 1)
                .map(|d| crate::battle::context::ki_cost(&me, &d))
                .unwrap_or(0);
            let refusal = match battle.check(&Command::Attack(probe)) {
                Err(e) if !is_aiming_error(&e) => Some(e),
                _ => family::of(&rules).refuses_whatever_the_target(&me, &profile),
            };
            let cost = family::of(&rules).slot_cost(&me, &profile, ki_cost);
            MenuSlot {
                profile,
                technique,
                name,
                element,
                ki_cost,
                cost,
                refusal,
            }
        })
        .collect()
}

/// A target that lets `check` get past targeting, to find out whether a maneuver can be used
/// at all this turn (actions, Ki, once per round…).
fn probe_target(rules: &Rules, fighters: &[Fighter], me: &Fighter, profile: &str) -> AttackTarget {
    let foe = fighters
        .iter()
        .filter(|f| f.side != me.side && !f.defeated())
        .find_map(|f| f.position.map(|p| (f.id, p)));
    match rules.profile(profile).map(|p| p.targeting) {
        Some(Targeting::Area {
            origin: AreaOrigin::Attacker,
            shape: AreaShape::Cone { .. } | AreaShape::Line { .. },
            ..
        }) => AttackTarget::Direction(Dir8::N),
        Some(Targeting::Area {
            origin: AreaOrigin::Attacker,
            ..
        }) => AttackTarget::InReach,
        Some(Targeting::Area {
            origin: AreaOrigin::ChosenSquare,
            shape: AreaShape::Cone { .. } | AreaShape::Line { .. },
            ..
        }) => AttackTarget::SquareToward(foe.map_or(Square::new(0, 0), |f| f.1), Dir8::N),
        Some(Targeting::Area { .. }) => {
            AttackTarget::Square(foe.map_or(Square::new(0, 0), |f| f.1))
        }
        _ => {
            // Digimon: a helping effect is given to an ally (Direct to the partner).
            let helping = crate::battle::family::of(rules).helps_allies(profile);
            if helping {
                let partner = me.digi.as_ref().and_then(|s| s.partner);
                return AttackTarget::Combatant(partner.unwrap_or(me.id));
            }
            AttackTarget::Combatant(foe.map_or(me.id, |f| f.0))
        }
    }
}

/// Errors about where an attack is aimed (the maneuver itself is usable; aim elsewhere).
fn is_aiming_error(e: &RuleError) -> bool {
    matches!(
        e,
        RuleError::OutOfRange { .. }
            | RuleError::NoTargets { .. }
            | RuleError::NoLineOfSight(_)
            | RuleError::FromFullCover(_)
            | RuleError::SquareNotVisible(_)
            | RuleError::OffMap(_)
            | RuleError::SelfTarget(_)
            | RuleError::NotAnOpponent(_)
            | RuleError::DigimonTarget(_)
            | RuleError::TargetHidden(_)
            | RuleError::TargetDefeated(_)
            | RuleError::TargetAbsent(_)
            | RuleError::WrongTarget { .. }
    )
}

impl Battle {
    /// The maneuvers and switches this ruleset has besides attacks: what the controls listen
    /// for and the bar lists.
    pub fn offers(&self) -> Offers {
        super::family::of(&self.rules).offers()
    }

    /// The part of `who`'s action bar that is not an attack, in its ruleset's terms: its points,
    /// what a move costs, and how it would pay to drop prone (only when the rules allow it now).
    pub fn bar_view(&mut self, who: CombatantId) -> Option<BarView> {
        let me = self.fighter(who)?;
        let mut view = super::family::of(&self.rules).bar_view(&self.rules, &me);
        if view.drop_prone.is_some() && self.check(&Command::DropProne { who }).is_err() {
            view.drop_prone = None;
        }
        view.dive = view.dive && self.check(&Command::DiveForCover { who }).is_ok();
        // d20: who a delay would let act first (refused outside d20 like any maneuver).
        if self.check(&Command::Delay { who }).is_ok() {
            let fighters = self.fighters();
            view.delay =
                family::d20::delay::check_delay(&self.rules, self.turn(), &fighters, &me).ok();
        }
        // d20: a feint at some foe, where the ruleset has them (checked per foe).
        let feints = self
            .rules
            .d20()
            .and_then(family::d20::feint::rule)
            .is_some();
        view.feint = feints
            && self.fighters().iter().any(|t| {
                t.side != me.side && self.check(&Command::Feint { who, target: t.id }).is_ok()
            });
        // The maneuvers against conditions, where the ruleset has them and they are legal now
        // (the check refuses them in rulesets without them).
        view.stand_up = me.conditions.has(crate::ruleset::ConditionKind::Prone)
            && self.check(&Command::StandUp { who }).is_ok();
        view.cure_poison = me.conditions.has(crate::ruleset::ConditionKind::Poisoned)
            && self.check(&Command::CurePoison { who }).is_ok();
        let rules = self.rules.clone();
        let mut candidates: Vec<_> = me
            .conditions
            .0
            .iter()
            .map(|c| c.kind)
            .filter(|k| *k != crate::ruleset::ConditionKind::Prone)
            .collect();
        // Negative conditions first, each group in the order gained.
        candidates
            .sort_by_key(|k| rules.condition(*k).polarity != crate::ruleset::Polarity::Negative);
        view.end_condition = candidates
            .into_iter()
            .find(|k| {
                self.check(&Command::EndCondition { who, condition: *k })
                    .is_ok()
            })
            .map(|k| (k, rules.condition(k).name.clone()));
        view.arrogant_declaration = rules
            .actions
            .arrogant_declaration
            .as_ref()
            .filter(|_| self.check(&Command::ArrogantDeclaration { who }).is_ok())
            .map(|a| super::fighter::at_tier(&a.penalty, me.power.tier, me.power.base_tier));
        view.empower = rules.actions.empower.is_some()
            && !self
                .empower_offers(who, 1, false)
                .iter()
                .all(|o| o.refusal.is_some());
        view.grapple = self.grapple_acts(who);
        if let Some(d) = rules.digimon() {
            view.digivolve = family::digimon::digivolve::higher_stages(d, &me)
                .into_iter()
                .filter(|x| {
                    self.check(&Command::Digivolve {
                        who,
                        into: x.id.clone(),
                    })
                    .is_ok()
                })
                .map(|x| super::bar::DigivolveOffer {
                    into: x.id.clone(),
                    name: x.name.clone(),
                    stage: x.stage.clone(),
                    hp: x.hp,
                })
                .collect();
            let up = family::digimon::flight::airborne(&me) == 0;
            if self.check(&Command::Fly { who, up }).is_ok() {
                view.fly = Some(super::bar::FlyOffer {
                    up,
                    height: if up {
                        d.combat.flight.map_or(0, |f| f.height)
                    } else {
                        0
                    },
                    fly: family::digimon::flight::fly_score(d, &me),
                });
            }
        }
        if self.check(&Command::Hide { who }).is_ok() {
            let all = self.fighters_shared();
            let p = super::hide::hide_chance(&rules, &all, &me);
            view.hide = Some((p * 1000.0).round() as u32);
        }
        view.charge = rules.attacks.energy_charge.maneuver.as_ref().map(|_| {
            let held = me
                .encounter
                .charge
                .as_ref()
                .map(|h| (me.charged_name(&rules, h), h.charges));
            let again = me.encounter.charge.as_ref().is_some_and(|h| {
                self.check(&Command::EnergyCharge {
                    who,
                    profile: h.profile.clone(),
                    technique: h.technique.clone(),
                })
                .is_ok()
            });
            ChargeBar {
                ki: super::charge::charge_cost(&rules, &me),
                held,
                again,
            }
        });
        Some(view)
    }

    /// Every ally of `who` on the battlefield with the Ki an Empower of `actions` Actions (or a
    /// Full Empowerment) would hand it now, or the rule refusing it.
    pub fn empower_offers(
        &mut self,
        who: CombatantId,
        actions: u32,
        full: bool,
    ) -> Vec<EmpowerOffer> {
        let fighters = self.fighters_shared();
        let Some(me) = fighters.iter().find(|f| f.id == who) else {
            return Vec::new();
        };
        let rules = self.rules.clone();
        let names = self.names();
        let mut out = Vec::new();
        for a in fighters
            .iter()
            .filter(|f| f.side == me.side && f.id != who && !f.defeated() && f.position.is_some())
        {
            let cmd = Command::Empower {
                who,
                ally: a.id,
                actions,
                full,
            };
            let refusal = self
                .check_among(&fighters, &cmd)
                .err()
                .map(|e| e.to_string());
            out.push(EmpowerOffer {
                ally: a.id,
                name: names.get(&a.id).cloned().unwrap_or_default(),
                at: a.position,
                amount: super::empower::empower_amount(&rules, me, a, actions, full),
                ki: (a.ki.current, a.derived(&rules).max_ki),
                refusal,
            });
        }
        out
    }

    /// What `who` is asked when `mover` gives it a chance to strike.
    pub fn exploit_prompt(&mut self, mover: CombatantId, who: CombatantId) -> ExploitPrompt {
        let names = self.names();
        let name = |id| names.get(&id).cloned().unwrap_or_default();
        let mut prompt = super::family::of(&self.rules).exploit_prompt(&name(mover), &name(who));
        // A maneuver made beside `who` provoked it, not a step out of its reach.
        let charging = self
            .world
            .resource::<super::charge::CurrentCharge>()
            .0
            .as_ref()
            .is_some_and(|c| c.who == mover);
        let declaring = self
            .world
            .resource::<super::arrogance::CurrentDeclaration>()
            .0
            .as_ref()
            .is_some_and(|c| c.who == mover);
        let empowering = self
            .world
            .resource::<super::empower::CurrentEmpowerment>()
            .0
            .as_ref()
            .is_some_and(|c| c.who == mover);
        let doing = if charging {
            Some("charges an attack")
        } else if declaring {
            Some("makes an Arrogant Declaration")
        } else if empowering {
            Some("Empowers an ally")
        } else {
            None
        };
        if let Some(doing) = doing {
            prompt.question = format!(
                "{} {doing} beside {}. Exploit with a Basic Attack (a Counter Action)?",
                name(mover),
                name(who)
            );
        }
        prompt
    }

    /// Each charge lying live on the field (d20's missed grenades): its square and every square
    /// its blast could reach.
    pub fn live_blasts(&self) -> Vec<(Square, Vec<Square>)> {
        super::family::of(&self.rules).live_blasts(self.map())
    }

    /// For each step of `path` that `who` would walk, whether it provokes an attack: the
    /// danger squares of the move overlay.
    pub fn path_danger(&mut self, who: CombatantId, path: &[Square]) -> Vec<bool> {
        let fighters = self.fighters();
        let Some(me) = fighters.iter().find(|f| f.id == who) else {
            return vec![false; path.len()];
        };
        super::family::of(&self.rules).path_danger(&fighters, me, path)
    }
}

impl Battle {
    /// The unit sheet of `who` as its ruleset's family shows it: the panel a player reads.
    pub fn unit_sheet(&mut self, who: CombatantId) -> Option<super::sheet::UnitSheet> {
        let f = self.fighter(who)?;
        let names = self.names();
        let ctx = super::sheet::SheetContext {
            rules: &self.rules,
            names: &names,
            active: self.active(),
            paused: self.turn().paused,
            field: self.field(),
        };
        Some(family::unit_sheet(&ctx, &f))
    }

    /// The Skill Checks `who` may make on the squares beside it now, each way it may be paid.
    pub fn skill_options(&mut self, who: CombatantId) -> Vec<super::family::skill::SkillOption> {
        let Some(me) = self.fighter(who) else {
            return Vec::new();
        };
        let all = self.fighters();
        let round = self.turn().round;
        super::family::skill::options(&self.rules, &self.field(), round, &all, &me)
    }

    /// The squares an area `order` would cover (`None` for a single target), or the rule that
    /// refuses its aim.
    pub fn template(&mut self, order: &AttackOrder) -> Result<Option<Vec<Square>>, RuleError> {
        let me = self
            .fighter(order.attacker)
            .ok_or(RuleError::UnknownCombatant(order.attacker))?;
        super::attack::template(&self.rules, &self.field(), &me, order)
    }

    /// The best attack `who` could make on `mover` now (an Exploit or an opportunity attack
    /// it is offered), or `None` when none can hit it.
    pub fn best_attack_on(&mut self, who: CombatantId, mover: CombatantId) -> Option<AttackOrder> {
        let fighters = self.fighters();
        let me = fighters.iter().find(|f| f.id == who)?;
        super::policy::best_attack(&self.rules, &self.field(), &fighters, me, Some(mover))
            .map(|(_, o)| o)
    }
}

/// Where an order of `profile` by `me` is aimed when a player points at `cursor`: the unit
/// standing there for a single target, else the area's own aim (a direction, the square, or
/// everyone in reach). `facing` turns a cone or line laid on a chosen square; without it, the
/// cone points away from `me`. `None` when nobody stands on `cursor` for a single target.
pub fn aim_target(
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
    profile: &str,
    cursor: Square,
    facing: Option<Dir8>,
) -> Option<AttackTarget> {
    let at = me.position?;
    let toward = Dir8::toward(cursor.x - at.x, cursor.y - at.y);
    Some(match rules.profile(profile)?.targeting {
        Targeting::Single => {
            let hit = fighters.iter().find(|f| {
                !f.defeated()
                    && f.position.is_some_and(|p| {
                        crate::grid::footprint(p, f.size.squares).contains(&cursor)
                    })
            })?;
            AttackTarget::Combatant(hit.id)
        }
        Targeting::Area {
            origin: AreaOrigin::Attacker,
            shape: AreaShape::Cone { .. } | AreaShape::Line { .. },
            ..
        } => AttackTarget::Direction(toward),
        Targeting::Area {
            origin: AreaOrigin::Attacker,
            ..
        } => AttackTarget::InReach,
        Targeting::Area {
            origin: AreaOrigin::ChosenSquare,
            shape: AreaShape::Cone { .. } | AreaShape::Line { .. },
            ..
        } => AttackTarget::SquareToward(cursor, facing.unwrap_or(toward)),
        Targeting::Area {
            origin: AreaOrigin::ChosenSquare,
            ..
        } => AttackTarget::Square(cursor),
    })
}

impl Battle {
    /// Where `who`'s order of `profile` is aimed when a player points at `cursor` (see
    /// [`aim_target`]).
    pub fn aim_target(
        &mut self,
        who: CombatantId,
        profile: &str,
        cursor: Square,
        facing: Option<Dir8>,
    ) -> Option<AttackTarget> {
        let fighters = self.fighters();
        let me = fighters.iter().find(|f| f.id == who)?;
        aim_target(&self.rules, &fighters, me, profile, cursor, facing)
    }
}
