//! The battle: combatant entities, the rule systems that resolve commands into events, and
//! [`Battle`], the headless harness that tests, the demo and the simulator drive.
//!
//! Rule systems run in their own schedule, [`RulesSchedule`], single-threaded and chained in the
//! chapter's order. [`Battle::submit`] validates a command, queues it and runs the schedule
//! until nothing more happens or a question needs an answer.

pub mod aim;
pub mod arrogance;
pub mod attack;
pub mod bar;
pub mod charge;
pub mod checks;
pub mod command;
pub use command::command_name;
pub mod components;
pub mod context;
pub mod cover;
pub mod effects;
pub mod empower;
pub mod event;
pub mod family;
pub mod fighter;
pub mod grapple;
mod hash;
pub mod hide;
pub mod look;
pub mod maneuvers;
pub mod menu;
pub mod movement;
pub use movement::MoveReach;
pub mod odds;
pub mod odds_text;
pub mod policy;
pub mod preview;

pub use odds::AttackPreview;
pub use preview::CounterPreview;
pub mod recovery;
pub mod reflect;
mod schedule;
pub mod setup;
pub mod sheet;
pub mod snapshot;
pub mod standing;
pub mod state;
pub mod stats;
pub mod threats;
pub mod turn;
pub mod united;

use std::sync::Arc;

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use serde::Serialize;

use crate::dice::DiceSource;
use crate::ruleset::{ConditionKind, ConditionRule, Rules};
use command::{AttackOrder, Command, Decision, RuleError};
use components::CombatantId;
use context::Declaration;
use event::{BattleEvent, EventLog, Names};
use fighter::Fighter;
use setup::{BattleSetup, SetupError};
use state::*;

pub use schedule::{RulesSchedule, plugin};

/// The most schedule runs one command may take; a guard so a rules bug can never hang a game.
const MAX_STEPS: usize = 10_000;

/// A battle with no window: build it, submit commands, read events and state. It owns a bare
/// `World` (the rule plugin's resources and schedules, taken out of the `App` that built them)
/// so a battle is `Send + Sync` and the game can keep it in a resource.
pub struct Battle {
    world: World,
    rules: Arc<Rules>,
    /// What the battle was built from, so it can be rebuilt and the commands replayed (undo).
    setup: BattleSetup,
    initial_dice: DiceSource,
    /// Every accepted command, in order, with the state hash after it.
    history: Vec<Played>,
    /// Commands taken back by [`Battle::undo`], newest last, for [`Battle::redo`].
    undone: Vec<Command>,
    /// The state hash once set up, before any command.
    start_hash: u64,
    /// The state hash's combatant JSON and hash states, carried from one hash to the next:
    /// most commands change one or two combatants.
    hasher: hash::StateHasher,
    /// The access [`Battle::fighters_shared`] reads through, made once.
    fighter_access: Option<SystemState<snapshot::Fighters<'static, 'static>>>,
    /// The attack order the last [`Battle::check`] accepted, with its targets.
    checked: Option<CheckedAttack>,
    /// The snapshots [`Battle::fighters_shared`] last gave, while nothing can have changed
    /// them: combatants change only while the rule systems run or through
    /// [`Battle::world_mut`], and both forget them.
    shared: Option<Arc<Vec<Fighter>>>,
    /// The world was handed out by [`Battle::world_mut`]: its holder may have written
    /// combatants behind the snapshot cache's back, even after a refresh of its own, so the
    /// cache must look at every change tick at its next refresh from here.
    handed_out: bool,
}

/// One accepted command in a battle's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub command: Command,
    /// [`Battle::state_hash`] right after the command.
    pub hash: u64,
    /// The round and the active combatant when it was given: undo stays inside one turn.
    pub round: u32,
    pub active: Option<CombatantId>,
    /// It drew no dice, asked nobody anything, ended no turn and changed nothing hidden, so
    /// taking it back tells the player nothing they could not know.
    pub undoable: bool,
}

/// Why a command cannot be taken back or given again.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    #[error("nothing to undo this turn")]
    NothingThisTurn,
    #[error("{0} rolled dice, asked a question or ended a turn: it cannot be undone")]
    Final(String),
    #[error("nothing to redo")]
    NothingToRedo,
    #[error("the battle could not be rebuilt: {0}")]
    Rebuild(String),
}

impl Battle {
    /// Sets up a battle and runs it to the first decision (initiative, round 1, first turn).
    pub fn new(
        rules: Arc<Rules>,
        setup: &BattleSetup,
        dice: DiceSource,
    ) -> Result<Self, SetupError> {
        let fighters = setup::build_all(&rules, setup)?;
        let mut app = App::new();
        app.add_plugins(plugin)
            .insert_resource(RulesRes(rules.clone()))
            .insert_resource(BattleDice(dice.clone()))
            .insert_resource(Battleground(setup.map.clone()))
            .insert_resource(setup.victory)
            .insert_resource(setup.opening.clone());
        for f in &fighters {
            let mut entity = app.world_mut().spawn(setup::components(f));
            if let Some(cards) = &f.cards {
                entity.insert(cards.clone());
            }
            if let Some(digi) = &f.digi {
                entity.insert(digi.clone());
            }
        }
        let world = std::mem::take(app.world_mut());
        let mut battle = Self {
            world,
            rules,
            setup: setup.clone(),
            initial_dice: dice,
            history: Vec::new(),
            undone: Vec::new(),
            start_hash: 0,
            hasher: hash::StateHasher::default(),
            fighter_access: None,
            checked: None,
            shared: None,
            handed_out: false,
        };
        battle.run();
        battle.start_hash = battle.state_hash();
        Ok(battle)
    }

    /// The state hash once the battle was set up, before any command.
    pub fn start_hash(&self) -> u64 {
        self.start_hash
    }

    /// The setup the battle was built from.
    pub fn setup(&self) -> &BattleSetup {
        &self.setup
    }

    /// Every accepted command so far, each with the state hash after it.
    pub fn history(&self) -> &[Played] {
        &self.history
    }

    /// The seed of the battle's dice, unless they are scripted (a test's).
    pub fn seed(&self) -> Option<u64> {
        self.initial_dice.seed()
    }

    /// The commands [`Battle::undo`] would take back right now, oldest first: the trailing
    /// undoable commands of the current turn.
    pub fn undoable(&self) -> &[Played] {
        let t = self.turn();
        let (round, active) = (t.round, t.active());
        let start = self
            .history
            .iter()
            .rposition(|p| !(p.undoable && p.round == round && p.active == active))
            .map_or(0, |i| i + 1);
        &self.history[start..]
    }

    /// Takes back the last command if it drew no dice, asked nobody anything and belongs to
    /// the current turn, by rebuilding the battle from its setup and replaying the others.
    /// Returns the command taken back; [`Battle::redo`] gives it again.
    pub fn undo(&mut self) -> Result<Command, UndoError> {
        let Some(last) = self.history.last() else {
            return Err(UndoError::NothingThisTurn);
        };
        let t = self.turn();
        if last.round != t.round || last.active != t.active() {
            return Err(UndoError::NothingThisTurn);
        }
        if !last.undoable {
            return Err(UndoError::Final(command_name(&last.command).to_string()));
        }
        let keep = self.history.len() - 1;
        let mut fresh = Battle::new(self.rules.clone(), &self.setup, self.initial_dice.clone())
            .map_err(|e| UndoError::Rebuild(e.to_string()))?;
        for p in &self.history[..keep] {
            fresh
                .submit_recorded(p.command.clone())
                .map_err(|e| UndoError::Rebuild(format!("{:?}: {e}", p.command)))?;
        }
        let undone_cmd = self.history[keep].command.clone();
        fresh.undone = std::mem::take(&mut self.undone);
        fresh.undone.push(undone_cmd.clone());
        *self = fresh;
        Ok(undone_cmd)
    }

    /// Gives the last undone command again (it drew no dice, so it does exactly what it did).
    pub fn redo(&mut self) -> Result<Command, UndoError> {
        let cmd = self
            .undone
            .last()
            .cloned()
            .ok_or(UndoError::NothingToRedo)?;
        self.check(&cmd)
            .map_err(|e| UndoError::Rebuild(e.to_string()))?;
        self.submit_recorded(cmd.clone())
            .map_err(|e| UndoError::Rebuild(e.to_string()))?;
        self.undone.pop();
        Ok(cmd)
    }

    /// The commands [`Battle::redo`] can give again, newest last.
    pub fn redoable(&self) -> &[Command] {
        &self.undone
    }

    /// Read access to the battle's world, for tests and tools that inspect it without
    /// writing (and so without making the snapshot cache look at every combatant again).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Direct access to the battle's world, for tests and tools that stage a situation (a
    /// condition from a given source, a wounded fighter). The game itself changes a battle only
    /// through [`Battle::submit`].
    pub fn world_mut(&mut self) -> &mut World {
        self.shared = None;
        self.handed_out = true;
        &mut self.world
    }

    /// The ruleset this battle plays.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    fn run(&mut self) {
        // Let go of the shared snapshots first, so the cache updates its own rather than a
        // copy of them.
        self.shared = None;
        self.take_back_world();
        for _ in 0..MAX_STEPS {
            self.world.resource_mut::<Progress>().0 = false;
            self.world.run_schedule(RulesSchedule);
            let w = &self.world;
            if !w.resource::<Progress>().0
                || w.resource::<AwaitingInput>().0.is_some()
                || w.resource::<TurnOrder>().phase == TurnPhase::Over
                || self.settled()
            {
                return;
            }
        }
    }

    /// Whether the rule systems have nothing left to do until the next command, without
    /// running them once more to find out: a turn is being acted with no command pending and
    /// no attack, move, recovery or queued attack under way. In that state the only systems
    /// that run are the victory check and the end of a turn without actions, which come last
    /// in the schedule and so have already seen it; had either acted, the phase would not be
    /// `Acting` any more.
    fn settled(&self) -> bool {
        let w = &self.world;
        w.resource::<TurnOrder>().phase == TurnPhase::Acting
            && w.resource::<PendingCommand>().0.is_none()
            && w.resource::<CurrentAttack>().0.is_none()
            && w.resource::<CurrentMove>().0.is_none()
            && w.resource::<CurrentRecovery>().0.is_none()
            && w.resource::<charge::CurrentCharge>().0.is_none()
            && w.resource::<arrogance::CurrentDeclaration>().0.is_none()
            && w.resource::<empower::CurrentEmpowerment>().0.is_none()
            && w.resource::<QueuedAttack>().0.is_none()
    }

    /// Validates and applies a command; on error the battle is unchanged. A new command
    /// forgets what was undone.
    pub fn submit(&mut self, cmd: Command) -> Result<(), RuleError> {
        self.submit_recorded(cmd)?;
        self.undone.clear();
        Ok(())
    }

    /// Validates, applies and records a command with the hash after it and whether it can be
    /// taken back.
    fn submit_recorded(&mut self, cmd: Command) -> Result<(), RuleError> {
        self.checked = None;
        self.check(&cmd)?;
        self.world.resource_mut::<CheckedOrder>().0 = self.checked.take();
        let t = self.turn();
        let (round, active, phase) = (t.round, t.active(), t.phase);
        let rolled = self.dice().rolled();
        let events = self.events().len();
        self.world.resource_mut::<PendingCommand>().0 = Some(cmd.clone());
        self.run();
        let t = self.turn();
        let same_turn = t.round == round && t.active() == active && t.phase == phase;
        let asked = self.awaiting().is_some()
            || self.events()[events..].iter().any(|e| {
                matches!(
                    e,
                    BattleEvent::ExploitProvoked { .. } | BattleEvent::ResponseWindow { .. }
                )
            });
        // An attack always stays done, even one that rolled nothing (power stages): the
        // defender's answer would otherwise be a free look.
        let own_turn_command = !matches!(
            cmd,
            Command::Defend { .. }
                | Command::Respond { .. }
                | Command::Exploit { .. }
                | Command::Intercede { .. }
                | Command::EndTurn { .. }
                | Command::Attack(_)
        );
        let undoable = own_turn_command
            && same_turn
            && !asked
            && self.dice().rolled() == rolled
            && self.outcome().is_none();
        let hash = self.state_hash();
        self.history.push(Played {
            command: cmd,
            hash,
            round,
            active,
            undoable,
        });
        Ok(())
    }

    /// Every event so far.
    pub fn events(&self) -> &[BattleEvent] {
        &self.world.resource::<EventLog>().events
    }

    /// The question the battle waits on, if any.
    pub fn awaiting(&self) -> Option<&Decision> {
        self.world.resource::<AwaitingInput>().0.as_ref()
    }

    /// Turn order, round and phase.
    pub fn turn(&self) -> &TurnOrder {
        self.world.resource::<TurnOrder>()
    }

    /// The combatant whose turn it is, unless the battle is over.
    pub fn active(&self) -> Option<CombatantId> {
        let t = self.turn();
        (t.phase != TurnPhase::Over).then(|| t.active()).flatten()
    }

    /// The result, once the battle is over.
    pub fn outcome(&self) -> Option<state::BattleResult> {
        self.world.resource::<Outcome>().0
    }

    /// The battlefield's terrain.
    pub fn map(&self) -> &crate::grid::Map {
        &self.world.resource::<Battleground>().0
    }

    /// The map with its terrain rules, for geometry questions (lines of sight, areas, paths).
    pub fn field(&self) -> crate::grid::Field<'_> {
        crate::grid::Field {
            map: self.map(),
            terrain: &self.rules.terrain.types,
            corners: self.rules.terrain.line_of_sight,
        }
    }

    /// The movement in progress, if any.
    pub fn moving(&self) -> Option<&MoveState> {
        self.world.resource::<CurrentMove>().0.as_ref()
    }

    /// Every square `who` could end a move on now, with its cost and the square it is reached
    /// from (follow `from` back for the path), at Normal or Boosted Speed.
    pub fn move_options(
        &mut self,
        who: CombatantId,
        boosted: bool,
    ) -> std::collections::BTreeMap<crate::grid::Square, crate::grid::path::Reach> {
        let Some(MoveReach { mut all, ends, .. }) = self.move_reach(who, boosted) else {
            return Default::default();
        };
        all.retain(|s, _| ends.contains(s));
        all
    }

    /// The cheapest path for `who` to end a move on `to`, if one exists this move.
    pub fn path_to(
        &mut self,
        who: CombatantId,
        to: crate::grid::Square,
        boosted: bool,
    ) -> Option<Vec<crate::grid::Square>> {
        self.move_reach(who, boosted)?.path_to(to)
    }

    /// The one search behind [`Battle::move_options`] and [`Battle::path_to`], for a caller
    /// that wants many paths of one move (the random player) without searching again for each.
    /// `None` when `who` is not on the map.
    pub fn move_reach(&mut self, who: CombatantId, boosted: bool) -> Option<MoveReach> {
        let fighters = self.fighters();
        let me = fighters.iter().find(|f| f.id == who)?;
        let start = me.position?;
        let rules = self.rules.clone();
        let field = self.field();
        let all = movement::reachable_squares(&rules, &field, &fighters, me, boosted);
        let ends = all
            .keys()
            .filter(|s| **s != start && crate::battle::fighter::can_end_on(&fighters, me, **s))
            .copied()
            .collect();
        Some(MoveReach { start, all, ends })
    }

    /// Per-combatant statistics of the battle so far, from its event log.
    pub fn stats(&self) -> stats::BattleStats {
        stats::BattleStats::from_events(self.events())
    }

    /// After [`Battle::world_mut`], tells the snapshot cache to look at every combatant again.
    fn take_back_world(&mut self) {
        if std::mem::take(&mut self.handed_out)
            && let Some(mut cache) = self.world.get_resource_mut::<snapshot::SnapshotCache>()
        {
            cache.mark_written();
        }
    }

    /// Snapshots of every combatant, in id order.
    pub fn fighters(&mut self) -> Vec<Fighter> {
        Arc::unwrap_or_clone(self.fighters_shared())
    }

    /// Snapshots of every combatant, in id order, shared with the battle's own snapshot
    /// cache: only the combatants that changed since the last call are copied, so a command
    /// check, the state hash or a computer player reads them all for the price of one or two.
    pub fn fighters_shared(&mut self) -> Arc<Vec<Fighter>> {
        if let Some(shared) = &self.shared {
            return shared.clone();
        }
        self.take_back_world();
        let world = &mut self.world;
        let state = self
            .fighter_access
            .get_or_insert_with(|| SystemState::new(world));
        // The rule plugin inserts the cache with the battle's other resources.
        let mut access = state
            .get_mut(world)
            .expect("a battle's world holds the snapshot cache");
        let fighters = access.snapshots();
        self.shared = Some(fighters.clone());
        fighters
    }

    /// One combatant's snapshot.
    pub fn fighter(&mut self, id: CombatantId) -> Option<Fighter> {
        self.fighters_shared().iter().find(|f| f.id == id).cloned()
    }

    /// Names by id, for describing events.
    pub fn names(&mut self) -> Names {
        // Only the two components it needs: the unit panel asks for names every redraw, and a
        // whole snapshot of every combatant would clone twenty components each.
        let world = &mut self.world;
        let mut q = world.query::<(&CombatantId, &components::Identity)>();
        q.iter(world)
            .map(|(id, identity)| (*id, identity.name.clone()))
            .collect()
    }

    /// Every event described in words, one line each.
    pub fn describe_events(&mut self) -> Vec<String> {
        let names = self.names();
        self.events().iter().map(|e| e.describe(&names)).collect()
    }

    /// The dice source (tests check a script was used up).
    pub fn dice(&self) -> &DiceSource {
        &self.world.resource::<BattleDice>().0
    }

    /// A hash of everything that decides the rest of the battle: every combatant, the turn
    /// order, the attack in progress, the dice stream position and the number of events.
    pub fn state_hash(&mut self) -> u64 {
        /// Everything besides the combatants, written after them.
        #[derive(Serialize)]
        struct Rest<'a> {
            turn: &'a TurnOrder,
            attack: &'a Option<AttackState>,
            moving: &'a Option<MoveState>,
            recovering: &'a Option<RecoveryState>,
            awaiting: &'a Option<Decision>,
            dice_words: u128,
            events: usize,
            /// Shinobi: a spotted sneak attack waiting for its opportunity attack.
            #[serde(skip_serializing_if = "Option::is_none")]
            queued: &'a Option<AttackOrder>,
            /// Shinobi cover damage, as pairs (JSON maps need string keys; absent when empty,
            /// so other rulesets hash as before).
            #[serde(skip_serializing_if = "Vec::is_empty")]
            wear: Vec<(crate::grid::Square, i64)>,
            /// d20 grenades lying live (absent when none, as above).
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            grenades: &'a [crate::grid::LiveGrenade],
            /// Squares whose terrain a Skill Check changed since set-up (absent when none).
            #[serde(skip_serializing_if = "Vec::is_empty")]
            ground: Vec<(crate::grid::Square, u16)>,
            /// An Energy Charge waiting on its Exploits (absent when none).
            #[serde(skip_serializing_if = "Option::is_none")]
            charging: &'a Option<charge::ChargeState>,
            /// An Arrogant Declaration waiting on its Exploits (absent when none).
            #[serde(skip_serializing_if = "Option::is_none")]
            declaring: &'a Option<arrogance::DeclarationState>,
            /// An Empower waiting on its Exploits (absent when none).
            #[serde(skip_serializing_if = "Option::is_none")]
            empowering: &'a Option<empower::EmpowerState>,
            /// A failed Grapple waiting on its Exploit (absent when none).
            #[serde(skip_serializing_if = "Option::is_none")]
            grappling: &'a Option<grapple::LostGrapple>,
        }
        let fighters = self.fighters_shared();
        let w = &self.world;
        let cache = w.resource::<snapshot::SnapshotCache>();
        const UNKNOWN: snapshot::PartVersions = [u64::MAX; snapshot::COMPONENTS];
        let rest = Rest {
            turn: w.resource::<TurnOrder>(),
            attack: &w.resource::<CurrentAttack>().0,
            moving: &w.resource::<CurrentMove>().0,
            recovering: &w.resource::<CurrentRecovery>().0,
            awaiting: &w.resource::<AwaitingInput>().0,
            dice_words: w.resource::<BattleDice>().0.word_pos(),
            events: w.resource::<EventLog>().events.len(),
            wear: w
                .resource::<Battleground>()
                .0
                .wear
                .iter()
                .map(|(s, n)| (*s, *n))
                .collect(),
            queued: &w.resource::<QueuedAttack>().0,
            grenades: &w.resource::<Battleground>().0.grenades,
            ground: changed_ground(&self.setup.map, &w.resource::<Battleground>().0),
            charging: &w.resource::<charge::CurrentCharge>().0,
            declaring: &w.resource::<arrogance::CurrentDeclaration>().0,
            empowering: &w.resource::<empower::CurrentEmpowerment>().0,
            grappling: &w.resource::<grapple::CurrentGrapple>().0,
        };
        self.hasher.hash(
            &fighters,
            |i| {
                (
                    cache.version(i).unwrap_or(u64::MAX),
                    cache.part_versions(i).unwrap_or(&UNKNOWN),
                )
            },
            &rest,
        )
    }

    /// Every rule that could refuse `cmd` now, checked without changing anything.
    pub fn check(&mut self, cmd: &Command) -> Result<(), RuleError> {
        let fighters = self.fighters_shared();
        self.check_among(&fighters, cmd)
    }

    /// [`Battle::check`] for each of `cmds`, snapshotting the combatants once: a player
    /// listing every legal command checks dozens at a time.
    pub fn check_each(&mut self, cmds: &[Command]) -> Vec<Result<(), RuleError>> {
        let fighters = self.fighters_shared();
        cmds.iter()
            .map(|cmd| self.check_among(&fighters, cmd))
            .collect()
    }

    /// [`Battle::check`] against `fighters`, this battle's snapshot taken since its last
    /// change.
    pub(super) fn check_among(
        &mut self,
        fighters: &[Fighter],
        cmd: &Command,
    ) -> Result<(), RuleError> {
        let turn = self.turn().clone();
        if turn.phase == TurnPhase::Over {
            return Err(RuleError::BattleOver);
        }
        let bounds = self.map().bounds();
        if let Some(s) = cmd.squares().into_iter().find(|s| !bounds.contains(*s)) {
            return Err(RuleError::OffMap(s));
        }
        let who = cmd.actor();
        let me = fighters
            .iter()
            .find(|f| f.id == who)
            .ok_or(RuleError::UnknownCombatant(who))?;
        let awaiting = self.awaiting().cloned();
        match (&awaiting, cmd) {
            (
                Some(
                    d @ Decision::Defense {
                        defender, attacker, ..
                    },
                ),
                Command::Defend {
                    choice, counter, ..
                },
            ) => {
                if *defender != who {
                    return Err(RuleError::AwaitingDecision(d.clone()));
                }
                if let Some(id) = counter {
                    if *choice == command::DefenseChoice::Resist {
                        return Err(RuleError::CannotCounter {
                            who,
                            counter: id.clone(),
                            why: "a Genjutsu is resisted, not evaded: a counter goes off only with a Dodge, Block or Deflect".into(),
                        });
                    }
                    let by = fighters.iter().find(|f| f.id == *attacker);
                    if let Err(why) = family::of(&self.rules).check_counter(me, by, id) {
                        return Err(RuleError::CannotCounter {
                            who,
                            counter: id.clone(),
                            why,
                        });
                    }
                }
                let offered = self
                    .defense_odds()
                    .is_some_and(|all| all.iter().any(|o| o.defense == *choice));
                if !offered {
                    return Err(RuleError::DefenseNotOffered {
                        who,
                        choice: choice.name(),
                    });
                }
                let profile = self
                    .world
                    .resource::<CurrentAttack>()
                    .0
                    .as_ref()
                    .map(|a| a.order.profile.as_str());
                return family::of(&self.rules).check_answer(&self.rules, me, *choice, profile);
            }
            (Some(Decision::Response { who: asked, .. }), Command::Respond { surge, .. }) => {
                if *asked != who {
                    return Err(RuleError::NothingToAnswer(who));
                }
                if surge.is_some() && me.encounter.surge_used {
                    return Err(RuleError::SurgeUsed(who));
                }
                return Ok(());
            }
            (Some(Decision::Exploit { who: asked, mover }), Command::Exploit { order, .. }) => {
                if *asked != who {
                    return Err(RuleError::NothingToAnswer(who));
                }
                if let Some(order) = order {
                    let rules = self.rules.clone();
                    let field = self.field();
                    movement::check_exploit(&rules, &field, fighters, me, order, *mover)?;
                }
                return Ok(());
            }
            (Some(Decision::Intercede { who: asked, .. }), Command::Intercede { .. }) => {
                if *asked != who {
                    return Err(RuleError::NothingToAnswer(who));
                }
                return Ok(());
            }
            (Some(d), _) => return Err(RuleError::AwaitingDecision(d.clone())),
            (
                None,
                Command::Defend { .. }
                | Command::Respond { .. }
                | Command::Exploit { .. }
                | Command::Intercede { .. },
            ) => {
                return Err(RuleError::NothingToAnswer(who));
            }
            (None, Command::ConvertAction { .. }) => {
                if let Some(what) = family::of(&self.rules).foreign_maneuver(cmd) {
                    return Err(RuleError::NotInRuleset {
                        what,
                        ruleset: self.rules.manifest.id.clone(),
                    });
                }
                if me.defeated() {
                    return Err(RuleError::Defeated(who));
                }
                if !self.rules.actions.conversion || me.actions.standard == 0 {
                    return Err(RuleError::NothingToConvert(who));
                }
                return Ok(());
            }
            (None, _) => {}
        }
        let active = turn.active().unwrap_or(who);
        if active != who || turn.phase != TurnPhase::Acting {
            return Err(RuleError::NotYourTurn { who, active });
        }
        if me.defeated() {
            return Err(RuleError::Defeated(who));
        }
        if me.conditions.has(ConditionKind::Absorbed) {
            return Err(RuleError::Absorbed(who));
        }
        let rules = self.rules.clone();
        let need_actions = |n: u32| {
            if me.actions.usable() < n {
                Err(RuleError::NoActions {
                    who,
                    what: "Standard Action",
                })
            } else {
                Ok(())
            }
        };
        // The default pipeline's maneuvers that this family does not have.
        if let Some(what) = family::of(&rules).foreign_maneuver(cmd) {
            return Err(RuleError::NotInRuleset {
                what,
                ruleset: rules.manifest.id.clone(),
            });
        }
        if let Some(held) = &me.encounter.charge {
            charge::check_while_charging(&self.rules, me, held, cmd)?;
        }
        let field = self.field();
        match cmd {
            Command::EnergyCharge {
                profile, technique, ..
            } => charge::check_energy_charge(&rules, me, profile, technique.as_deref()),
            Command::CancelCharge { .. } => match me.encounter.charge {
                Some(_) => Ok(()),
                None => Err(RuleError::NotCharging),
            },
            Command::Attack(order) => {
                let targets = attack::check_attack(&rules, &field, fighters, me, order, None)?;
                // Kept for Attack Declaration, so the order is validated once.
                self.checked = Some(CheckedAttack {
                    order: order.clone(),
                    targets,
                });
                Ok(())
            }
            Command::Move { path, boosted, .. } => {
                movement::check_move(&rules, &field, fighters, me, path, *boosted).map(|_| ())
            }
            Command::Jump { path, .. } => {
                movement::check_jump(&rules, &field, fighters, me, path).map(|_| ())
            }
            Command::PowerUp { .. } => recovery::check_power_up(&rules, me),
            Command::ArrogantDeclaration { .. } => {
                arrogance::check_arrogant_declaration(&rules, fighters, me)
            }
            Command::Empower {
                ally,
                actions,
                full,
                ..
            } => empower::check_empower(&rules, fighters, me, *ally, *actions, *full),
            Command::Grapple { target, act, .. } => {
                grapple::check_grapple(&rules, fighters, me, *target, *act)
            }
            Command::Hide { .. } => hide::check_hide(&rules, fighters, me),
            Command::Recover { actions, .. } => recovery::check_recovery(&rules, me, *actions),
            Command::Surge { .. } => {
                if me.encounter.surge_used {
                    Err(RuleError::SurgeUsed(who))
                } else {
                    Ok(())
                }
            }
            Command::EndCondition { condition, .. } => {
                if !me.conditions.has(*condition) {
                    return Err(RuleError::NoSuchCondition {
                        who,
                        condition: *condition,
                    });
                }
                need_actions(rules.conditions.end_condition.actions)
            }
            Command::StandUp { .. } => {
                if !me.conditions.has(ConditionKind::Prone) {
                    return Err(RuleError::NoSuchCondition {
                        who,
                        condition: ConditionKind::Prone,
                    });
                }
                if me.is(&rules, ConditionKind::Pinned) {
                    return Err(RuleError::PinnedCannotStand);
                }
                let n = match &rules.condition(ConditionKind::Prone).rule {
                    ConditionRule::Prone { stand_up_actions } => *stand_up_actions,
                    _ => 1,
                };
                need_actions(n)
            }
            Command::CurePoison { .. } => {
                if !me.conditions.has(ConditionKind::Poisoned) {
                    return Err(RuleError::NoSuchCondition {
                        who,
                        condition: ConditionKind::Poisoned,
                    });
                }
                let ConditionRule::Poisoned { cure, .. } =
                    &rules.condition(ConditionKind::Poisoned).rule
                else {
                    return Ok(());
                };
                if me.skill_bonus(&rules, &cure.check).is_none() {
                    return Err(RuleError::NeedsSkill {
                        who,
                        skill: cure.check.clone(),
                    });
                }
                need_actions(cure.actions)
            }
            Command::EndTurn { .. } => Ok(()),
            Command::HandOver { .. } => turn::check_hand_over(&rules, &turn, fighters, me),
            Command::UseSkill { at, way, .. } => {
                family::skill::check_use_skill(&rules, &field, turn.round, fighters, me, *at, *way)
                    .map(|_| ())
            }
            Command::DropProne { .. } => family::d20::swift::check_command(&rules, me),
            Command::DiveForCover { .. } => family::d20::dive::check_dive_now(&rules, me),
            Command::Delay { .. } => {
                family::d20::delay::check_delay(&rules, &turn, fighters, me).map(|_| ())
            }
            Command::Feint { target, .. } => {
                family::d20::feint::check_feint(&rules, &field, fighters, me, *target)
            }
            Command::Digivolve { into, .. } => {
                family::digimon::digivolve::check_digivolve(&rules, fighters, me, into).map(|_| ())
            }
            Command::Fly { up, .. } => {
                family::digimon::flight::check_fly(&rules, &field, me, *up).map(|_| ())
            }
            Command::Defend { .. }
            | Command::Respond { .. }
            | Command::Exploit { .. }
            | Command::Intercede { .. }
            | Command::ConvertAction { .. } => Ok(()),
        }
    }

    /// The declaration an order makes (for callers that build their own previews).
    pub fn with_declaration<T>(
        &mut self,
        order: &AttackOrder,
        f: impl FnOnce(&Rules, &crate::grid::Field, &Fighter, &Declaration) -> T,
    ) -> Result<T, RuleError> {
        let fighters = self.fighters();
        let attacker = fighters
            .iter()
            .find(|x| x.id == order.attacker)
            .ok_or(RuleError::UnknownCombatant(order.attacker))?;
        let field = self.field();
        let targets = attack::attack_targets(&self.rules, &field, &fighters, attacker, order)?;
        let decl =
            crate::battle::context::declaration(&self.rules, attacker, order, targets.len())?;
        Ok(f(&self.rules, &field, attacker, &decl))
    }
}

/// The squares of `now` whose terrain differs from `start`, with their terrain now.
fn changed_ground(
    start: &crate::grid::Map,
    now: &crate::grid::Map,
) -> Vec<(crate::grid::Square, u16)> {
    let mut out = Vec::new();
    for (i, (a, b)) in start.cells.iter().zip(&now.cells).enumerate() {
        if a != b && now.width > 0 {
            let i = i as u32;
            let s = crate::grid::Square::new((i % now.width) as i32, (i / now.width) as i32);
            out.push((s, *b));
        }
    }
    out
}
