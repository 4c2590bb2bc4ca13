//! Commands a computer player gives before or instead of its plan: handing a shared turn to
//! the partner first (Digimon), dropping prone rather than ending a turn in the open and
//! delaying a turn with nothing to strike (d20).

use crate::battle::Battle;
use crate::battle::attack::check_attack;
use crate::battle::command::Command;
use crate::battle::fighter::Fighter;
use crate::ruleset::Rules;

/// What the planner works out once a decision for each opponent: its melee and ranged threat
/// to the unit, and its walk and run with melee reach.
type Foes<'a> = (
    &'a std::collections::BTreeMap<crate::battle::components::CombatantId, (f64, f64)>,
    &'a std::collections::BTreeMap<crate::battle::components::CombatantId, (u32, u32)>,
);

/// Hands the shared turn to the partner first when one of its attacks makes that pay (Digimon:
/// a Digimon whose Tamer has not acted yet lets the Tamer go first when it can Direct it now,
/// so the Direct's bonus lands on this turn's attack: "Tamers and their partner Digimon act on
/// the same turn"). The partner's own plan decides whether it makes that attack.
pub(super) fn hand_over_first(
    battle: &mut Battle,
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
) -> Option<Command> {
    let turn = battle.turn();
    let fresh = turn.hand_overs == 0 && turn.paused.is_none();
    let orders = crate::battle::family::of(rules).hand_over_orders(fighters, me, fresh);
    if orders.is_empty() {
        return None;
    }
    let field = battle.field();
    let pays = orders.iter().any(|order| {
        fighters
            .iter()
            .find(|f| f.id == order.attacker)
            .is_some_and(|partner| {
                check_attack(rules, &field, fighters, partner, order, None).is_ok()
            })
    });
    let cmd = Command::HandOver { who: me.id };
    (pays && battle.check(&cmd).is_ok()).then_some(cmd)
}

/// d20: before ending its turn, a `normal` or `hard` computer player (`careful`: not `easy`)
/// that shooters but no foe with a hand weapon can get at dives for cover with an action it
/// has left (prone in the best cover within reach, a Dodge check kept for the first shot),
/// or else drops prone with the round's Swift action.
pub(super) fn lie_down_first(
    battle: &mut Battle,
    rules: &Rules,
    fighters: &[Fighter],
    me: &Fighter,
    careful: bool,
    chosen: Command,
) -> Command {
    if !matches!(chosen, Command::EndTurn { .. }) || !careful {
        return chosen;
    }
    let dive = Command::DiveForCover { who: me.id };
    if crate::battle::family::d20::exposed_to_shots(rules, me, fighters)
        && battle.check(&dive).is_ok()
    {
        return dive;
    }
    let drop = Command::DropProne { who: me.id };
    if crate::battle::family::d20::worth_lying_down(rules, me, fighters)
        && battle.check(&drop).is_ok()
    {
        drop
    } else {
        chosen
    }
}

/// d20: a computer player with nothing to strike this turn (no attack from where it stands
/// is worth anything, `best_here`, and no foe within a walk and its melee reach) delays its
/// turn when the next to act is a foe that cannot hurt it this turn either: no shot at it
/// and too far to walk up and strike (`foes`, as the planner worked them out). The foe comes
/// closer, and it strikes first ("A character can delay his turn until later in the
/// initiative"). Only `normal` and `hard` call it.
pub(super) fn delay_first(
    turn: &crate::battle::state::TurnOrder,
    rules: &Rules,
    (fighters, me): (&[Fighter], &Fighter),
    best_here: f64,
    (threat, pace): Foes,
) -> Option<Command> {
    if best_here > 0.0 {
        return None;
    }
    let here = me.position?;
    let after = crate::battle::family::d20::delay::check_delay(rules, turn, fighters, me).ok()?;
    let (walk, _) = super::threat::pace_of(rules, me);
    let distance = |f: &Fighter| {
        f.position.map_or(u32::MAX, |p| {
            crate::grid::footprint_distance(here, me.size.squares, p, f.size.squares)
        })
    };
    let foe_next = fighters.iter().any(|f| {
        f.id == after
            && f.side != me.side
            && threat.get(&f.id).is_none_or(|t| t.1 <= 0.0)
            && pace.get(&f.id).is_some_and(|p| distance(f) > p.0)
    });
    let within_reach = fighters
        .iter()
        .filter(|f| f.side != me.side && !f.defeated())
        .any(|f| distance(f) <= walk);
    (foe_next && !within_reach).then_some(Command::Delay { who: me.id })
}
