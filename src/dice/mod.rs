//! Dice: formulas in the books' notation, the battle's seeded source, labelled rolls and their
//! exact distributions. Plain functions and structs; nothing here knows about Bevy.

pub mod dist;
pub mod formula;
pub mod rng;
pub mod roll;

pub use dist::{Dist, distribution, distribution_split};
pub use formula::{DiceFormula, DiceGroup, DicePool, Formula, FormulaError, Vars};
pub use rng::DiceSource;
pub use roll::{BaseDie, DiceTerm, DieResult, Modifier, RollBreakdown, RollKind, RollSpec, roll};
