//! Which lines of the combat log are shown (the filter key steps through them): a kind of
//! event, or the lines naming one unit. Kept apart from the log panel so the battle screen's
//! state can hold it without the two importing each other.

use crate::battle::event::BattleEvent;

/// Which lines of the log are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFilter {
    #[default]
    All,
    /// Declarations, rolls, damage and what answers an attack.
    Attacks,
    /// Conditions, Health Thresholds, saves, recovery and defeat.
    Health,
    /// Moves, falls, pushes and stops.
    Moves,
    /// Every line that names the unit the right-hand panel shows.
    Unit,
}

impl LogFilter {
    /// The next filter, as the filter key steps through them.
    pub fn next(self) -> Self {
        match self {
            Self::All => Self::Attacks,
            Self::Attacks => Self::Health,
            Self::Health => Self::Moves,
            Self::Moves => Self::Unit,
            Self::Unit => Self::All,
        }
    }

    /// Whether the line of `event` (its words `line`) passes, `unit` being the shown unit's
    /// name.
    pub fn keeps(self, event: &BattleEvent, line: &str, unit: &str) -> bool {
        use BattleEvent as E;
        match self {
            Self::All => true,
            Self::Unit => !unit.is_empty() && line.contains(unit),
            Self::Moves => matches!(
                event,
                E::Moved { .. }
                    | E::Flew { .. }
                    | E::Fell { .. }
                    | E::Dive { .. }
                    | E::DroppedProne { .. }
                    | E::Pushed { .. }
                    | E::StoppedAtReach { .. }
                    | E::StoppedShort { .. }
                    | E::DigiFall { .. }
            ),
            Self::Health => matches!(
                event,
                E::ConditionApplied { .. }
                    | E::ConditionEnded { .. }
                    | E::ThresholdReached { .. }
                    | E::SteadfastRolled { .. }
                    | E::ThresholdPenalty { .. }
                    | E::Defeated { .. }
                    | E::Digivolved { .. }
                    | E::DigiEffect { .. }
                    | E::Recovered { .. }
                    | E::RecoveryStarted { .. }
                    | E::SurgeUsed { .. }
                    | E::OpposedSave { .. }
                    | E::CheckRolled { .. }
            ),
            Self::Attacks => matches!(
                event,
                E::AttackDeclared { .. }
                    | E::ExploitProvoked { .. }
                    | E::DefenseDeclared { .. }
                    | E::StrikeRolled { .. }
                    | E::DefenseRolled { .. }
                    | E::Clash { .. }
                    | E::D20Check { .. }
                    | E::WoundRolled { .. }
                    | E::Damage { .. }
                    | E::Reflected { .. }
                    | E::UnitedAttack { .. }
                    | E::CounterStruck { .. }
                    | E::MissChanceRolled { .. }
                    | E::CoverRolled { .. }
                    | E::StageHit { .. }
                    | E::Blast { .. }
                    | E::SneakContest { .. }
                    | E::Slammed { .. }
                    | E::GrappleRoll { .. }
                    | E::AttackEnded { .. }
            ),
        }
    }

    /// How the log's first line names the filter.
    pub(super) fn words(self, unit: &str) -> String {
        match self {
            Self::All => String::new(),
            Self::Attacks => "attacks".into(),
            Self::Health => "health and conditions".into(),
            Self::Moves => "moves".into(),
            Self::Unit => format!("lines naming {unit}"),
        }
    }
}
