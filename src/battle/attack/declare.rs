//! Attack Declaration: paying for the attack and announcing it, queued attacks, and the window
//! for Instants before the defense is declared.

use bevy::prelude::*;

use super::check::check_attack;
use crate::battle::command::{AttackOrder, AttackTarget, Command, Decision};
use crate::battle::components::*;
use crate::battle::context::declaration;
use crate::battle::event::{BattleEvent, EventLog, Pool};
use crate::battle::fighter::Fighter;
use crate::battle::maneuvers::use_surge;
use crate::battle::policy::best_attack;
use crate::battle::snapshot::Fighters;
use crate::battle::state::*;
use crate::grid::Field;
use crate::ruleset::Rules;

/// Attack Declaration for a checked order: spend the action (a Counter Action for an Exploit),
/// pay the Ki cost and the wager from Ki and Capacity, and start the attack. `None` (nothing
/// changed) if the order is not legal any more. `checked` is the command check's own result
/// for this order against this state (a command's plain attack), which is used instead of
/// validating it again.
pub fn begin_attack(
    rules: &Rules,
    field: &Field,
    q: &mut Fighters,
    log: &mut EventLog,
    order: AttackOrder,
    exploit: Option<CombatantId>,
    checked: Option<CheckedAttack>,
) -> Option<AttackState> {
    let all = q.snapshots();
    let me = all.iter().find(|f| f.id == order.attacker)?;
    let targets = match checked {
        // Checked by the command check against this same state.
        Some(c) if c.order == order && exploit.is_none() => c.targets,
        _ => check_attack(rules, field, &all, me, &order, exploit).ok()?,
    };
    let decl = declaration(rules, me, &order, targets.len()).ok()?;
    let cost = crate::battle::context::ki_cost(me, &decl);
    let pay = cost.saturating_add(decl.wager);
    let profile_id = decl.profile.id.clone();
    let name = decl.profile.name.clone();
    let technique = decl.technique.map(|t| t.name.clone());
    let element = decl.element.map(|e| e.name.clone());
    let called_shot = decl.called_shot;
    let mut f = q.one_mut(order.attacker)?;
    crate::battle::family::of(rules).pay_attack(&mut f, me, &decl, exploit.is_some(), log);
    if let Some((cs, part)) = called_shot {
        let what = format!("a Called Shot at the {}", part.name);
        crate::battle::effects::spend_actions(&mut f, cs.actions, &what, log);
        f.round.called_shot = true;
    }
    let cost_pool = crate::battle::family::of(rules).cost_pool();
    log.push(BattleEvent::AttackDeclared {
        attacker: order.attacker,
        profile: name.clone(),
        technique: technique.clone(),
        element,
        targets: targets.clone(),
        ki_cost: cost,
        wager: order.wager,
        cost_pool,
        called_shot: called_shot.map(|(_, part)| part.name.clone()),
    });
    if pay > 0
        && let Some(pool) = cost_pool
    {
        let from = f.ki.current;
        f.ki.current -= pay;
        log.push(BattleEvent::PoolChanged {
            who: order.attacker,
            pool,
            from,
            to: f.ki.current,
            reason: format!("{name} costs {pay}"),
        });
    } else if pay > 0 {
        let (k0, c0) = (f.ki.current, f.capacity.current);
        f.ki.current -= pay;
        f.capacity.current -= pay;
        log.push(BattleEvent::KiSpent {
            who: order.attacker,
            amount: pay,
            from: k0,
            to: f.ki.current,
            what: format!("Ki cost {cost} + wager {}", order.wager),
        });
        log.push(BattleEvent::PoolChanged {
            who: order.attacker,
            pool: Pool::Capacity,
            from: c0,
            to: f.capacity.current,
            reason: "Ki spent this round".into(),
        });
    }
    f.round.attacks += 1;
    crate::battle::family::of(rules).attack_declared(&mut f, &order, log);
    if technique.is_some() {
        f.round.technique_used = true;
    } else {
        f.round.profiles_used.insert(profile_id);
    }
    if let Some(u) = &order.united
        && let Ok(h) =
            crate::battle::united::help(rules, &all, me, decl.profile, decl.attack_type, u)
        && let Some(mut a) = q.one_mut(u.ally)
    {
        log.push(BattleEvent::UnitedAttack {
            ally: u.ally,
            attacker: order.attacker,
            attack: name.clone(),
        });
        crate::battle::effects::spend_actions(&mut a, h.actions, "a United Attack", log);
        if h.ki_cost + h.wager > 0 {
            let what = format!("United Attack: Ki cost {} + wager {}", h.ki_cost, h.wager);
            crate::battle::effects::spend_ki(&mut a, h.ki_cost + h.wager, &what, log);
        }
        a.round.united = true;
    }
    Some(AttackState {
        order,
        phase: AttackPhase::Responses,
        targets: targets
            .into_iter()
            .map(|id| TargetState {
                id,
                defense: None,
                hit: None,
                damage: 0,
                counter: None,
                success: None,
                half: false,
                interceded: false,
            })
            .collect(),
        strike: None,
        exploit,
        responders: Vec::new(),
        window_opened: false,
        sneak_won: Vec::new(),
        intercede_opened: false,
        interceders: Vec::new(),
    })
}

/// `Attack`: the active combatant declares an Attacking Maneuver. A shinobi sneak attack first
/// rolls its contest: won, every defense of the target takes the penalty; lost, the target may
/// make an opportunity attack first and the attack waits in [`QueuedAttack`].
pub fn declare_attack(
    sys: RuleSys,
    ground: Res<Battleground>,
    mut pending: ResMut<PendingCommand>,
    mut attack: ResMut<CurrentAttack>,
    mut queued: ResMut<QueuedAttack>,
    mut awaiting: ResMut<AwaitingInput>,
    mut checked: ResMut<CheckedOrder>,
) {
    let RuleSys {
        rules,
        mut dice,
        mut log,
        mut progress,
        mut q,
    } = sys;
    let Some(Command::Attack(mut order)) = pending.0.clone() else {
        return;
    };
    pending.0 = None;
    let checked = checked.0.take();
    progress.0 = true;
    let rules = &rules.0;
    let field = ground.field(rules);
    let sneak = match order.target {
        AttackTarget::Combatant(target) if order.sneak => Some(target),
        _ => None,
    };
    let Some(target) = sneak else {
        if d20_provoked(rules, &field, &mut q, &order, &[]).is_some() {
            // d20: "Adam's next ranged attack provokes an attack of opportunity from Betty
            // because she threatens his space"; the shot waits for each foe's.
            queued.0 = Some(order);
            queued.1.clear();
            shoot_after_opportunities(
                rules,
                &field,
                &mut q,
                &mut queued,
                (&mut awaiting, &mut attack),
                &mut log,
            );
            return;
        }
        attack.0 = begin_attack(rules, &field, &mut q, &mut log, order, None, checked);
        return;
    };
    let all = q.snapshots();
    let (Some(me), Some(them)) = (
        all.iter().find(|f| f.id == order.attacker),
        all.iter().find(|f| f.id == target),
    ) else {
        return;
    };
    // The contest is rolled once; what follows is an ordinary attack order.
    order.sneak = false;
    if crate::battle::family::of(rules).roll_sneak(
        &mut dice.0,
        (me, &order.profile),
        them,
        &mut log,
    ) {
        attack.0 = begin_attack(rules, &field, &mut q, &mut log, order, None, None);
        if let Some(s) = attack.0.as_mut() {
            s.sneak_won = vec![target];
        }
        return;
    }
    // Spotted: "provokes an opportunity attack then follows the normal rules for attacking".
    let can_strike =
        crate::battle::policy::best_attack(rules, &field, &all, them, Some(me.id)).is_some();
    let at = me.position.unwrap_or_default();
    queued.0 = Some(order);
    queued.1 = vec![them.id];
    let asked = can_strike
        && offer_exploit(
            rules,
            &field,
            &all,
            them,
            Provocation {
                mover: me.id,
                at,
                standing: None,
                sneak: true,
                shooting: false,
            },
            &mut q,
            &mut log,
        )
        .start(&mut awaiting, &mut attack);
    if !asked && let Some(order) = queued.0.take() {
        attack.0 = begin_attack(rules, &field, &mut q, &mut log, order, None, None);
    }
}

/// The enemy (lowest id first, none of `asked`) whose attack of opportunity a legal attack in
/// `order` provokes, if any (d20: a shot fired in a threatened square).
fn d20_provoked(
    rules: &Rules,
    field: &Field,
    q: &mut Fighters,
    order: &AttackOrder,
    asked: &[CombatantId],
) -> Option<CombatantId> {
    let family = crate::battle::family::of(rules);
    let all = q.snapshots();
    let me = all.iter().find(|f| f.id == order.attacker)?;
    // Who would strike first (cheap, and none in most rulesets), then whether the attack is legal.
    let foe = family
        .provoked_by_attack(me, order, &all)
        .into_iter()
        .find(|id| !asked.contains(id))?;
    check_attack(rules, field, &all, me, order, None).ok()?;
    Some(foe)
}

/// d20: offers the queued shot's next attack of opportunity, by the first foe not asked yet
/// that still threatens the shooter ("Each round a character may take one Attack of
/// Opportunity if provoked": every foe beside a shooter may take its own). True when one is
/// under way or a person is asked (the shot waits); false when no foe is left to ask.
fn offer_next_opportunity(
    rules: &Rules,
    field: &Field,
    q: &mut Fighters,
    queued: &mut QueuedAttack,
    (awaiting, attack): (&mut AwaitingInput, &mut CurrentAttack),
    log: &mut EventLog,
) -> bool {
    loop {
        let Some(order) = queued.0.clone() else {
            return false;
        };
        let Some(enemy) = d20_provoked(rules, field, q, &order, &queued.1) else {
            return false;
        };
        queued.1.push(enemy);
        let all = q.snapshots();
        let (Some(me), Some(them)) = (
            all.iter().find(|f| f.id == order.attacker),
            all.iter().find(|f| f.id == enemy),
        ) else {
            return false;
        };
        let by = Provocation {
            mover: me.id,
            at: me.position.unwrap_or_default(),
            standing: None,
            sneak: false,
            shooting: true,
        };
        if offer_exploit(rules, field, &all, them, by, q, log).start(awaiting, attack) {
            return true;
        }
    }
}

/// Run condition: a sneak attack waits and nothing else is going on.
pub fn queued_ready(
    queued: Res<QueuedAttack>,
    attack: Res<CurrentAttack>,
    awaiting: Res<AwaitingInput>,
) -> bool {
    queued.0.is_some() && attack.0.is_none() && awaiting.0.is_none()
}

/// Makes a waiting attack once the opportunity attack it provoked is over: a d20 shot first
/// offers the next foe threatening the shooter its own; then the attack is made (a spotted
/// sneak attack as an ordinary one), or nothing if the attacker can no longer make it.
pub fn begin_queued_attack(
    sys: RuleSys,
    ground: Res<Battleground>,
    mut queued: ResMut<QueuedAttack>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
) {
    let RuleSys {
        rules,
        mut log,
        mut progress,
        mut q,
        ..
    } = sys;
    if queued.0.is_none() {
        return;
    }
    progress.0 = true;
    let rules = &rules.0;
    let field = ground.field(rules);
    shoot_after_opportunities(
        rules,
        &field,
        &mut q,
        &mut queued,
        (&mut awaiting, &mut attack),
        &mut log,
    );
}

/// Offers the next foe threatening a queued d20 shot its attack of opportunity; when none is
/// left to ask, the shot is made. Shared by the shot's declaration and by the system that
/// takes it up again after each opportunity attack.
fn shoot_after_opportunities(
    rules: &Rules,
    field: &Field,
    q: &mut Fighters,
    queued: &mut QueuedAttack,
    (awaiting, attack): (&mut AwaitingInput, &mut CurrentAttack),
    log: &mut EventLog,
) {
    if offer_next_opportunity(rules, field, q, queued, (awaiting, &mut *attack), log) {
        return;
    }
    if let Some(order) = queued.0.take() {
        queued.1.clear();
        attack.0 = begin_attack(rules, field, q, log, order, None, None);
    }
}

/// The window for Instant actions: automatic policies act (a Healing Surge when low), and
/// combatants whose controller prompts are asked one by one.
pub fn open_response_window(
    rules: Res<RulesRes>,
    mut dice: ResMut<BattleDice>,
    mut attack: ResMut<CurrentAttack>,
    mut awaiting: ResMut<AwaitingInput>,
    mut log: ResMut<EventLog>,
    mut progress: ResMut<Progress>,
    mut q: Fighters,
) {
    let rules = &rules.0;
    let Some(state) = attack.0.as_mut() else {
        return;
    };
    progress.0 = true;
    if !crate::battle::family::of(rules).has_instants() {
        // The card game and the ninja chapter have no Instants to answer an attack with.
        state.phase = AttackPhase::DefenseDeclaration;
        return;
    }
    let attacker = state.order.attacker;
    if !state.window_opened {
        // First visit: decide who gets asked, and let automatic policies act.
        let mut asked = Vec::new();
        let mut items: Vec<_> = q.iter_mut().collect();
        items.sort_by_key(|f| *f.id);
        let injured = rules.damage.thresholds.len().min(2).saturating_sub(1);
        for f in items.iter_mut() {
            if *f.id == attacker || f.life.current <= 0 || f.encounter.surge_used {
                continue;
            }
            match f.controller.responses {
                ResponsePolicy::Prompt => asked.push(*f.id),
                ResponsePolicy::SurgeWhenLow => {
                    let targeted = state.targets.iter().any(|t| t.id == *f.id);
                    if targeted && f.thresholds.reached.contains(&injured) {
                        use_surge(
                            rules,
                            &mut dice.0,
                            f,
                            crate::battle::command::SurgeKind::Healing,
                            &mut log,
                        );
                    }
                }
                ResponsePolicy::Never => {}
            }
        }
        if !asked.is_empty() {
            log.push(BattleEvent::ResponseWindow { attacker });
        }
        state.responders = asked;
        state.window_opened = true;
    }
    if let Some(&who) = state.responders.first() {
        awaiting.0 = Some(Decision::Response { who, attacker });
        return;
    }
    state.phase = AttackPhase::DefenseDeclaration;
}

/// What provoked an Exploit: who did, where it stood, and what it was doing (the log says
/// which).
pub struct Provocation {
    pub mover: CombatantId,
    pub at: Square,
    /// A maneuver made standing still provoked it (not a step out of reach).
    pub standing: Option<StandingStill>,
    /// Shinobi: a spotted sneak attack provoked it.
    pub sneak: bool,
    /// d20: a shot fired in a threatened square provoked it.
    pub shooting: bool,
}

/// What offering an Exploit started: nothing, a question for a person, or the Exploit itself
/// (`None` when the attack could not begin after all).
pub enum Offered {
    Nothing,
    Asked(Decision),
    Strike(Option<Box<AttackState>>),
}

impl Offered {
    /// Puts what was started where the battle waits for it. True when the calling system must
    /// stop so the question or the Exploit can play out first.
    pub fn start(self, awaiting: &mut AwaitingInput, attack: &mut CurrentAttack) -> bool {
        match self {
            Self::Nothing => false,
            Self::Asked(d) => {
                awaiting.0 = Some(d);
                true
            }
            Self::Strike(state) => {
                attack.0 = state.map(|s| *s);
                attack.0.is_some()
            }
        }
    }
}

/// What a unit that provoked Exploits while standing still was doing (the log and the prompt
/// say which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StandingStill {
    /// A Combat Recovery.
    Recovering,
    /// An Energy Charge.
    Charging,
    /// An Arrogant Declaration.
    Declaring,
    /// An Empower.
    Empowering,
    /// A Grapple that failed (the target's Exploit).
    Grappling,
}

/// A unit that provoked Exploits standing still, and the opponents not asked yet.
pub struct Standing<'a> {
    /// The unit that provoked them.
    pub who: CombatantId,
    /// What it was doing.
    pub why: StandingStill,
    /// In the order they are asked; each is taken off as it is.
    pub provokers: &'a mut Vec<CombatantId>,
}

/// Offers each provoker of `standing` in turn its Exploit. True when one started and the
/// calling system must wait for it to play out; false when all were offered or the unit is
/// down.
pub fn offer_standing_exploits(
    rules: &Rules,
    field: &Field,
    all: &[Fighter],
    standing: Standing,
    q: &mut Fighters,
    log: &mut EventLog,
    waits: (&mut AwaitingInput, &mut CurrentAttack),
) -> bool {
    let Standing {
        who,
        why,
        provokers,
    } = standing;
    let Some(me) = all.iter().find(|f| f.id == who && !f.defeated()) else {
        return false;
    };
    let at = me.position.unwrap_or_default();
    let (awaiting, attack) = waits;
    while !provokers.is_empty() {
        let p = provokers.remove(0);
        let Some(provoker) = all.iter().find(|f| f.id == p) else {
            continue;
        };
        let by = Provocation {
            mover: who,
            at,
            standing: Some(why),
            sneak: false,
            shooting: false,
        };
        if offer_exploit(rules, field, all, provoker, by, q, log).start(awaiting, attack) {
            return true;
        }
    }
    false
}

/// Offers `provoker` its Exploit: a player is asked (and the battle waits for the answer), a
/// policy makes its best Basic Attack, but only with a real Counter Action.
pub fn offer_exploit(
    rules: &Rules,
    field: &Field,
    all: &[Fighter],
    provoker: &Fighter,
    by: Provocation,
    q: &mut Fighters,
    log: &mut EventLog,
) -> Offered {
    let actions = &provoker.actions;
    let can_pay = actions.counter > 0 || (rules.actions.conversion && actions.standard > 0);
    // A charging unit may make no other Attacking Maneuver than the one it charges.
    if provoker.defeated() || !can_pay || provoker.encounter.charge.is_some() {
        return Offered::Nothing;
    }
    let provoked = BattleEvent::ExploitProvoked {
        attacker: provoker.id,
        mover: by.mover,
        at: by.at,
        recovering: by.standing == Some(StandingStill::Recovering),
        sneak: by.sneak,
        opportunity: crate::battle::family::of(rules).opportunity_attacks(),
        shooting: by.shooting,
        charging: by.standing == Some(StandingStill::Charging),
        declaring: by.standing == Some(StandingStill::Declaring),
        empowering: by.standing == Some(StandingStill::Empowering),
        grappling: by.standing == Some(StandingStill::Grappling),
    };
    match provoker.controller.exploits {
        ExploitPolicy::Never => Offered::Nothing,
        ExploitPolicy::Prompt => {
            log.push(provoked);
            Offered::Asked(Decision::Exploit {
                who: provoker.id,
                mover: by.mover,
            })
        }
        ExploitPolicy::Always => {
            // DBU spends only a real Counter Action; a shinobi spends held AP (any it has).
            if actions.counter == 0 && !crate::battle::family::of(rules).opportunity_attacks() {
                return Offered::Nothing;
            }
            let Some((_, order)) = best_attack(rules, field, all, provoker, Some(by.mover)) else {
                return Offered::Nothing;
            };
            log.push(provoked);
            Offered::Strike(
                begin_attack(rules, field, q, log, order, Some(by.mover), None).map(Box::new),
            )
        }
    }
}
