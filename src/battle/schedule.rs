//! The rule systems' schedule: which system runs in which phase of a turn, an attack and a
//! move, in what order, and the resources they share. The headless core the game, the
//! simulator and the tests share.

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};

use super::*;

/// The schedule the rule systems run in.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct RulesSchedule;

/// Adds the rule systems to an app: the headless core the game, the simulator and the tests
/// share.
pub fn plugin(app: &mut App) {
    let mut schedule = Schedule::new(RulesSchedule);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.add_systems(
        (
            turn::announce_battle.run_if(turn::in_phase(TurnPhase::Setup)),
            family::stages::deal_starting_hands.run_if(turn::in_phase(TurnPhase::Setup)),
            turn::roll_initiative.run_if(turn::in_phase(TurnPhase::Setup)),
            turn::start_round.run_if(turn::in_phase(TurnPhase::RoundStart)),
            turn::start_turn.run_if(turn::in_phase(TurnPhase::TurnStart)),
            (
                maneuvers::apply_end_turn,
                turn::apply_hand_over,
                (
                    family::skill::apply_use_skill,
                    family::d20::swift::apply_drop_prone,
                    family::d20::dive_now::apply_dive_for_cover,
                    family::d20::delay::apply_delay,
                    family::d20::feint::apply_feint,
                    family::digimon::digivolve::apply_digivolve,
                    family::digimon::flight::apply_fly,
                )
                    .chain(),
                maneuvers::apply_convert_action,
                maneuvers::apply_surge,
                maneuvers::apply_stand_up,
                maneuvers::apply_end_condition,
                maneuvers::apply_cure_poison,
                maneuvers::apply_defense_answer,
                maneuvers::apply_response,
                movement::apply_exploit_answer,
                family::digimon::intercede::apply_intercede_answer,
                attack::declare_attack,
                movement::declare_move,
                recovery::apply_power_up,
                recovery::declare_recovery,
                charge::apply_cancel_charge,
                (
                    charge::declare_charge,
                    arrogance::declare_arrogance,
                    empower::declare_empowerment,
                    grapple::resolve_grapple,
                    hide::resolve_hide,
                )
                    .chain(),
            )
                .chain(),
            movement::advance_move.run_if(movement::move_ready),
            standing::ask_exploits_then_finish::<CurrentRecovery>
                .run_if(standing::exploits_ready::<CurrentRecovery>),
            standing::ask_exploits_then_finish::<charge::CurrentCharge>
                .run_if(standing::exploits_ready::<charge::CurrentCharge>),
            standing::ask_exploits_then_finish::<arrogance::CurrentDeclaration>
                .run_if(standing::exploits_ready::<arrogance::CurrentDeclaration>),
            standing::ask_exploits_then_finish::<empower::CurrentEmpowerment>
                .run_if(standing::exploits_ready::<empower::CurrentEmpowerment>),
            standing::ask_exploits_then_finish::<grapple::CurrentGrapple>
                .run_if(standing::exploits_ready::<grapple::CurrentGrapple>),
            attack::begin_queued_attack.run_if(attack::queued_ready),
            (
                attack::open_response_window.run_if(attack::attack_in(AttackPhase::Responses)),
                attack::collect_defenses.run_if(attack::attack_in(AttackPhase::DefenseDeclaration)),
                attack::roll_opposed_checks.run_if(attack::attack_in(AttackPhase::OpposedRolls)),
                family::digimon::intercede::offer_intercede
                    .run_if(attack::attack_in(AttackPhase::Intercede)),
                attack::roll_damage.run_if(attack::attack_in(AttackPhase::Damage)),
                attack::roll_threshold_saves.run_if(attack::attack_in(AttackPhase::ThresholdSaves)),
                attack::end_attack.run_if(attack::attack_in(AttackPhase::End)),
            )
                .chain(),
            grapple::end_broken_grapples.run_if(grapple::any_grapple),
            turn::check_victory.run_if(turn::nothing_awaited),
            turn::end_turn_without_actions
                .run_if(turn::in_phase(TurnPhase::Acting).and_then(turn::nothing_awaited)),
            hide::reveal_at_turn_end.run_if(turn::in_phase(TurnPhase::TurnEnd)),
            turn::end_turn.run_if(turn::in_phase(TurnPhase::TurnEnd)),
        )
            .chain(),
    );
    app.add_schedule(schedule)
        .init_resource::<EventLog>()
        .init_resource::<snapshot::SnapshotCache>()
        .init_resource::<CurrentAttack>()
        .init_resource::<CurrentMove>()
        .init_resource::<CurrentRecovery>()
        .init_resource::<charge::CurrentCharge>()
        .init_resource::<arrogance::CurrentDeclaration>()
        .init_resource::<empower::CurrentEmpowerment>()
        .init_resource::<grapple::CurrentGrapple>()
        .init_resource::<QueuedAttack>()
        .init_resource::<PendingCommand>()
        .init_resource::<CheckedOrder>()
        .init_resource::<AwaitingInput>()
        .init_resource::<Progress>()
        .init_resource::<Outcome>()
        .insert_resource(TurnOrder::new());
}
