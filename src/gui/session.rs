//! The battle being played in the window: the rules' [`Battle`], who plays each side, what the
//! player is about to do, and the computer players' pacing. Nothing here draws, so headless app
//! tests drive it exactly as the window does.

use std::str::FromStr;

use bevy::prelude::*;

use super::input::InputProfile;
use crate::ai::{Agent, Policy};
use crate::battle::command::{AttackOrder, AttackTarget, Command, Decision, RuleError};
use crate::battle::components::{
    CombatantId, Controller, DefensePolicy, ExploitPolicy, ResponsePolicy,
};
use crate::battle::event::Names;
use crate::battle::fighter::Fighter;
use crate::battle::{AttackPreview, Battle};
use crate::dice::DiceSource;
use crate::grid::{Dir8, Square, footprint};
use crate::scenario::{self, ControllerDef, Loaded};
use crate::sim::battle_seed;

/// Who plays a side: a person at this machine with their input devices, or the computer at a
/// level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideControl {
    Human(InputProfile),
    Ai(Policy),
}

impl SideControl {
    /// True for a person's side.
    pub fn is_human(self) -> bool {
        matches!(self, Self::Human(_))
    }
}

/// A `--sides` entry that names no known player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown side `{0}` (use human, human:keyboard, human:pad1 to human:pad4, ai, or ai:easy|normal|hard)"
)]
pub struct ParseSideError(pub String);

impl FromStr for SideControl {
    type Err = ParseSideError;
    /// `human` (any device), `human:keyboard`, `human:pad1`…, `ai` (the normal planner) or
    /// `ai:LEVEL` (easy, normal, hard, greedy, random).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseSideError(s.to_string());
        match s {
            "human" => Ok(Self::Human(InputProfile::Any)),
            "human:keyboard" => Ok(Self::Human(InputProfile::KeyboardMouse)),
            "ai" => Ok(Self::Ai(Policy::Normal)),
            other => {
                if let Some(n) = other.strip_prefix("human:pad") {
                    return match n.parse::<u8>() {
                        Ok(n) if (1..=super::input::GAMEPAD_SLOTS).contains(&n) => {
                            Ok(Self::Human(InputProfile::Gamepad(n)))
                        }
                        _ => Err(bad()),
                    };
                }
                match other.strip_prefix("ai:") {
                    Some(level) => level.parse().map(Self::Ai).map_err(|_| bad()),
                    None => Err(bad()),
                }
            }
        }
    }
}

impl SideControl {
    /// The `--sides` form, which saves record and [`FromStr`] reads back.
    pub fn to_arg(self) -> String {
        match self {
            Self::Human(InputProfile::Any) => "human".into(),
            Self::Human(InputProfile::KeyboardMouse) => "human:keyboard".into(),
            Self::Human(InputProfile::Gamepad(n)) => format!("human:pad{n}"),
            Self::Ai(p) => format!("ai:{p}"),
        }
    }
}

impl std::fmt::Display for SideControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Human(InputProfile::Any) => f.write_str("Human"),
            Self::Human(p) => write!(f, "Human, {p}"),
            Self::Ai(p) => write!(f, "AI {p}"),
        }
    }
}

/// What a battle is started from: the title screen's choices or `gridclash play`'s flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleSpec {
    /// A shipped scenario's name or a scenario file.
    pub scenario: String,
    pub seed: u64,
    /// Per side; missing sides take the scenario's default (human → Human, else AI normal).
    pub sides: Vec<SideControl>,
    /// Let the game answer human units' Dodge-or-Parry questions with the best odds.
    pub auto_defense: bool,
}

/// What the player at the controls is about to do with the active unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Intent {
    /// Looking: hovering shows a unit's panel.
    #[default]
    Idle,
    /// Choosing where to move, at Normal or Boosted Speed.
    Move { boosted: bool },
    /// The ninja chapter: choosing where to land a jump.
    Jump,
    /// Aiming the maneuver in the action bar's slot.
    Attack { slot: usize },
    /// Digimon and d20: choosing the square beside the unit for a Skill Check made the way
    /// `way` says (for an action, with the Interrupt, or Taking 10).
    Skill {
        way: crate::battle::command::SkillWay,
    },
    /// DBU: choosing the ally to Empower with `actions` Actions (or a Full Empowerment).
    Empower { actions: u32, full: bool },
    /// d20: choosing the foe to feint at.
    Feint,
    /// DBU: choosing whom to make the grappling maneuver `act` on.
    Grapple {
        act: crate::battle::command::GrappleAct,
    },
}

/// One attacking maneuver in the action bar: the core's action menu entry as it is.
pub use crate::battle::menu::MenuSlot as Slot;

/// The battle on screen and everything the window needs to play it.
#[derive(Resource)]
pub struct Session {
    /// The rules' battle: the only place the game's state changes (through commands).
    pub battle: Battle,
    /// The scenario it was set up from (side names and colours).
    pub loaded: Loaded,
    /// What started it, to play again with the next seed.
    pub spec: BattleSpec,
    /// Who plays each side.
    pub controls: Vec<SideControl>,
    agents: Vec<Agent>,
    /// Names for people, distinct even where units share a name.
    pub names: Names,
    /// What the person at the controls is about to do.
    pub intent: Intent,
    /// The unit the intent, wager and facing belong to: they reset when another unit acts.
    pub intent_of: Option<CombatantId>,
    /// The aimed maneuver was chosen by clicking an opponent with nothing chosen: once it is
    /// made, nothing is chosen again (a key chooses a maneuver that stays chosen).
    pub aimed_by_click: bool,
    /// Ki wagered on the next attack's Wound Roll.
    pub wager: i64,
    /// Facing of cones and lines placed on a chosen square.
    pub facing: Dir8,
    /// Shinobi: the next single-target attack is a sneak attack.
    pub sneak: bool,
    /// DBU: the body part the next attack is a Called Shot at (its id), if any.
    pub called_shot: Option<String>,
    /// DBU: the ally chosen to join the next attack with a United Attack.
    pub united: Option<CombatantId>,
    /// Power stages: which held card (by its place in the hand) the next Final Physical Attack
    /// discards.
    pub discard: usize,
    /// Shinobi: the next defense answer casts the counter jutsu offered with it.
    pub counter: bool,
    /// The human side that must confirm the hand-off screen before it sees the board.
    pub handoff: Option<u8>,
    /// The human side that last had the board (hot-seat hand-offs happen on a change).
    pub seen_side: Option<u8>,
    /// The last refusal or hint, shown until the next command.
    pub notice: Option<String>,
    /// Seconds until the computer's next command.
    pub ai_wait: f32,
    /// A replay being watched: the battle plays the file's commands and nobody acts.
    pub replay: Option<ReplayPlayer>,
    /// The round last written to the autosave slot.
    pub autosaved_round: u32,
}

/// A replay's commands and how far the viewer is.
#[derive(Debug, Clone)]
pub struct ReplayPlayer {
    /// The file, for the banner and for watching again.
    pub path: std::path::PathBuf,
    pub commands: Vec<Command>,
    /// The next command to play.
    pub next: usize,
    pub paused: bool,
    /// Commands per second.
    pub speed: f32,
}

impl ReplayPlayer {
    /// The speeds the viewer steps through, in commands per second.
    pub const SPEEDS: [f32; 6] = [0.5, 1.0, 2.0, 4.0, 8.0, 32.0];
}

/// Why a battle could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("the scenario has errors:\n{0}")]
    Scenario(#[from] crate::ruleset::RulesErrors),
    #[error("{path}: {message}")]
    Setup { path: String, message: String },
    #[error("the scenario has {sides} sides but {given} were given with --sides")]
    TooManySides { sides: usize, given: usize },
    #[error("{0}")]
    Load(#[from] crate::save::LoadError),
    #[error("{0}")]
    Save(#[from] crate::save::SaveError),
    #[error("side {side} of the save is played by `{player}`, which this game does not know")]
    Player { side: usize, player: String },
}

impl Session {
    /// Loads the scenario and sets the battle up, each human unit asking its player.
    pub fn start(spec: BattleSpec) -> Result<Self, StartError> {
        let path = scenario::find(&spec.scenario);
        let loaded = scenario::load(&path)?;
        let sides = loaded.scenario.sides.len();
        if spec.sides.len() > sides {
            return Err(StartError::TooManySides {
                sides,
                given: spec.sides.len(),
            });
        }
        let controls: Vec<SideControl> = (0..sides)
            .map(|s| {
                spec.sides
                    .get(s)
                    .copied()
                    .unwrap_or(match loaded.scenario.sides[s].controller {
                        ControllerDef::Human => SideControl::Human(InputProfile::Any),
                        ControllerDef::Computer => SideControl::Ai(Policy::Normal),
                    })
            })
            .collect();
        let mut setup = loaded.setup(Controller::default());
        for unit in &mut setup.units {
            if controls
                .get(usize::from(unit.side))
                .is_some_and(|c| c.is_human())
            {
                unit.controller = Controller {
                    defense: if spec.auto_defense {
                        DefensePolicy::Best
                    } else {
                        DefensePolicy::Prompt
                    },
                    responses: ResponsePolicy::SurgeWhenLow,
                    exploits: ExploitPolicy::Prompt,
                };
            }
        }
        let battle = Battle::new(loaded.rules.clone(), &setup, DiceSource::seeded(spec.seed))
            .map_err(|e| StartError::Setup {
                path: loaded.path.display().to_string(),
                message: e.to_string(),
            })?;
        let agents = controls
            .iter()
            .enumerate()
            .map(|(s, c)| {
                let policy = match c {
                    SideControl::Ai(p) => *p,
                    SideControl::Human(_) => Policy::Normal,
                };
                Agent::new(policy, battle_seed(spec.seed, 1000 + s as u64))
            })
            .collect();
        Ok(Self::assemble(battle, loaded, spec, controls, agents))
    }

    /// The session around a battle that is set up.
    fn assemble(
        mut battle: Battle,
        loaded: Loaded,
        spec: BattleSpec,
        controls: Vec<SideControl>,
        agents: Vec<Agent>,
    ) -> Self {
        let names = distinct_names(&mut battle, &loaded);
        let mut session = Self {
            battle,
            loaded,
            spec,
            controls,
            agents,
            names,
            intent: Intent::Idle,
            intent_of: None,
            aimed_by_click: false,
            wager: 0,
            facing: Dir8::N,
            sneak: false,
            called_shot: None,
            united: None,
            discard: 0,
            counter: false,
            handoff: None,
            seen_side: None,
            notice: None,
            ai_wait: 0.0,
            replay: None,
            autosaved_round: 0,
        };
        session.update_handoff();
        session
    }

    /// Continues a loaded save: the same sides, controllers and computer players' streams.
    pub fn from_restored(restored: crate::save::Restored) -> Result<Self, StartError> {
        let crate::save::Restored {
            loaded,
            battle,
            sides,
            agents,
            ..
        } = restored;
        let controls = sides
            .iter()
            .enumerate()
            .map(|(side, s)| {
                s.player
                    .parse::<SideControl>()
                    .map_err(|_| StartError::Player {
                        side,
                        player: s.player.clone(),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let auto_defense = sides
            .iter()
            .zip(&controls)
            .any(|(s, c)| c.is_human() && s.controller.defense == DefensePolicy::Best);
        let spec = BattleSpec {
            scenario: crate::save::scenario_ref(&loaded),
            seed: battle.seed().unwrap_or(0),
            sides: controls.clone(),
            auto_defense,
        };
        let mut session = Self::assemble(battle, loaded, spec, controls, agents);
        // Loading mid-round does not write the autosave over again at once.
        session.autosaved_round = session.battle.turn().round;
        Ok(session)
    }

    /// Loads a save file into a session (see [`crate::save::load`]).
    pub fn load(path: &std::path::Path, accept_changed_data: bool) -> Result<Self, StartError> {
        let (_, restored) = crate::save::load(
            path,
            crate::save::Restore {
                accept_changed_data,
            },
        )?;
        Self::from_restored(restored)
    }

    /// Opens a replay to watch from its first command; the file is verified first, so the
    /// viewer never shows a battle that goes astray.
    pub fn watch(path: &std::path::Path) -> Result<Self, StartError> {
        crate::save::verify(path)?;
        let (save, text) = crate::save::SaveFile::read(path)?;
        let commands: Vec<Command> = save.commands.iter().map(|e| e.command.clone()).collect();
        let start = crate::save::SaveFile {
            commands: Vec::new(),
            ..save
        };
        let restored = crate::save::restore(&start, path, &text, crate::save::Restore::default())?;
        let mut session = Self::from_restored(restored)?;
        session.handoff = None;
        session.replay = Some(ReplayPlayer {
            path: path.to_path_buf(),
            commands,
            next: 0,
            paused: false,
            speed: 2.0,
        });
        Ok(session)
    }

    /// Writes the battle down: a save to continue, or a replay to watch.
    pub fn capture(
        &self,
        kind: crate::save::SaveKind,
    ) -> Result<crate::save::SaveFile, StartError> {
        let setup = self.battle.setup();
        let sides = self
            .loaded
            .scenario
            .sides
            .iter()
            .enumerate()
            .map(|(s, def)| crate::save::SideSave {
                name: def.name.clone(),
                player: self
                    .controls
                    .get(s)
                    .map_or_else(|| "ai".into(), |c| c.to_arg()),
                controller: setup
                    .units
                    .iter()
                    .find(|u| usize::from(u.side) == s)
                    .map_or_else(Controller::default, |u| u.controller),
                ai_stream: self.agents.get(s).map_or(0, Agent::stream_pos),
            })
            .collect();
        Ok(crate::save::SaveFile::capture(
            kind,
            &self.battle,
            &self.loaded,
            sides,
        )?)
    }

    /// Takes back the active person's last command if the rules allow (see
    /// [`Battle::undo`]); the notice says what happened.
    pub fn undo(&mut self) {
        match self.battle.undo() {
            Ok(cmd) => {
                self.notice = Some(format!(
                    "undid {} ({} to redo)",
                    crate::battle::command_name(&cmd),
                    self.battle.redoable().len()
                ));
                self.clamp_wager();
            }
            Err(e) => self.notice = Some(e.to_string()),
        }
    }

    /// Gives the last undone command again.
    pub fn redo(&mut self) {
        match self.battle.redo() {
            Ok(cmd) => {
                self.notice = Some(format!("redid {}", crate::battle::command_name(&cmd)));
                self.after_command();
            }
            Err(e) => self.notice = Some(e.to_string()),
        }
    }

    /// How many sides a person plays.
    pub fn human_sides(&self) -> usize {
        self.controls.iter().filter(|c| c.is_human()).count()
    }

    /// The combatant who must act or answer now, and whether the battle waits on a question.
    pub fn actor(&self) -> Option<(CombatantId, Option<Decision>)> {
        if let Some(d) = self.battle.awaiting() {
            let who = match d {
                Decision::Defense { defender, .. } => *defender,
                Decision::Response { who, .. }
                | Decision::Exploit { who, .. }
                | Decision::Intercede { who, .. } => *who,
            };
            return Some((who, Some(d.clone())));
        }
        self.battle.active().map(|a| (a, None))
    }

    /// The side of a combatant.
    pub fn side_of(&mut self, id: CombatantId) -> Option<u8> {
        self.battle.fighter(id).map(|f| f.side.0)
    }

    /// True when the actor now belongs to a person (the game waits for input). Never while
    /// a replay is watched: nobody plays then.
    pub fn human_to_act(&mut self) -> Option<(CombatantId, Option<Decision>, u8)> {
        if self.replay.is_some() {
            return None;
        }
        let (who, decision) = self.actor()?;
        let side = self.side_of(who)?;
        self.controls
            .get(usize::from(side))
            .is_some_and(|c| c.is_human())
            .then_some((who, decision, side))
    }

    /// Raises the hand-off screen when play passes to another human side in hot-seat.
    pub fn update_handoff(&mut self) {
        if self.human_sides() < 2 || self.battle.outcome().is_some() || self.replay.is_some() {
            return;
        }
        if let Some((_, _, side)) = self.human_to_act()
            && self.seen_side != Some(side)
            && self.handoff.is_none()
        {
            self.handoff = Some(side);
            self.intent = Intent::Idle;
        }
    }

    /// The input devices that may act now: the profile of the human side that must act or
    /// confirm the hand-off, or every device when the computer plays.
    pub fn input_profile(&mut self) -> InputProfile {
        let side = match self.handoff {
            Some(side) => Some(side),
            None => self.human_to_act().map(|(_, _, side)| side),
        };
        match side.and_then(|s| self.controls.get(usize::from(s))) {
            Some(SideControl::Human(p)) => *p,
            _ => InputProfile::Any,
        }
    }

    /// The hand-off screen's player confirms: the board is theirs.
    pub fn confirm_handoff(&mut self) {
        if let Some(side) = self.handoff.take() {
            self.seen_side = Some(side);
        }
    }

    /// Submits a command from the person at the controls; a refusal is kept as the notice and
    /// the battle is unchanged.
    pub fn submit(&mut self, cmd: Command) -> Result<(), RuleError> {
        match self.battle.submit(cmd) {
            Ok(()) => {
                self.notice = None;
                self.after_command();
                Ok(())
            }
            Err(e) => {
                self.notice = Some(self.describe_error(&e));
                Err(e)
            }
        }
    }

    fn after_command(&mut self) {
        // One Called Shot a round: it is chosen for one attack, not kept for the next; so is
        // the ally of a United Attack.
        self.called_shot = None;
        self.united = None;
        let acting = self.human_to_act().map(|(who, _, _)| who);
        if acting.is_none() || acting != self.intent_of {
            // Another unit's turn: nothing chosen for the last one carries over.
            self.intent = Intent::Idle;
            self.wager = 0;
            self.facing = Dir8::N;
            self.sneak = false;
            self.discard = 0;
            self.counter = false;
            self.intent_of = acting;
            self.aimed_by_click = false;
        }
        self.clamp_wager();
        self.update_handoff();
    }

    /// The next Empower choice after `now`: one Action, two, three (while the unit has them),
    /// the Full Empowerment, then nothing.
    pub fn next_empower(&self, now: Intent, usable: u32) -> Intent {
        match now {
            Intent::Empower { full: true, .. } => Intent::Idle,
            Intent::Empower { actions, .. } if actions < usable.min(3) => Intent::Empower {
                actions: actions + 1,
                full: false,
            },
            Intent::Empower { .. } => Intent::Empower {
                actions: 1,
                full: true,
            },
            _ => Intent::Empower {
                actions: 1,
                full: false,
            },
        }
    }

    /// The next grappling choice after `now` among `acts` (those the unit may make now, in
    /// order), then nothing.
    pub fn next_grapple(now: Intent, acts: &[crate::battle::command::GrappleAct]) -> Intent {
        let next = match now {
            Intent::Grapple { act } => acts
                .iter()
                .position(|a| *a == act)
                .and_then(|i| acts.get(i + 1)),
            _ => acts.first(),
        };
        next.map_or(Intent::Idle, |&act| Intent::Grapple { act })
    }

    /// The allies that could join the acting unit's attack with a United Attack: living allies
    /// beside it (the preview refuses, with the rule, one that cannot this time).
    pub fn united_allies(&mut self) -> Vec<CombatantId> {
        let Some((who, _, _)) = self.human_to_act() else {
            return Vec::new();
        };
        if self.battle.rules().actions.united_attack.is_none() {
            return Vec::new();
        }
        let fighters = self.fighters();
        let Some(me) = fighters.iter().find(|f| f.id == who) else {
            return Vec::new();
        };
        fighters
            .iter()
            .filter(|f| f.side == me.side && f.id != me.id && !f.defeated())
            .filter(|f| f.distance_to(me).is_some_and(|d| d <= 1))
            .map(|f| f.id)
            .collect()
    }

    /// Names the next ally for the United Attack: none, then each ally beside the unit, then
    /// none again.
    pub fn cycle_united(&mut self) {
        let allies = self.united_allies();
        let at = self
            .united
            .and_then(|a| allies.iter().position(|id| *id == a));
        self.united = match at {
            None => allies.first().copied(),
            Some(i) => allies.get(i + 1).copied(),
        };
    }

    /// The United Attack's words for the bar and the aim panel: the ally's name or "off".
    pub fn united_name(&mut self) -> String {
        let Some(id) = self.united else {
            return "off".to_string();
        };
        self.fighters()
            .into_iter()
            .find(|f| f.id == id)
            .map_or_else(|| "off".to_string(), |f| f.identity.name.clone())
    }

    /// An error with combatant ids replaced by names, for people.
    pub fn describe_error(&self, e: &RuleError) -> String {
        crate::battle::event::with_names(&e.to_string(), &self.names)
    }

    /// Plays the replay's next command; false at its end.
    pub fn play_replay_command(&mut self) -> bool {
        let Some(cmd) = self
            .replay
            .as_ref()
            .and_then(|r| r.commands.get(r.next).cloned())
        else {
            return false;
        };
        if let Err(e) = self.battle.submit(cmd) {
            // Verified before opening, so only a bug gets here: stop rather than go astray.
            self.notice = Some(format!("the replay stops: {}", self.describe_error(&e)));
            if let Some(r) = &mut self.replay {
                r.next = r.commands.len();
            }
            return false;
        }
        if let Some(r) = &mut self.replay {
            r.next += 1;
        }
        true
    }

    /// The computer plays one command for the actor if it is one of its units (or a question
    /// to a computer unit). Returns whether it did.
    pub fn play_ai_command(&mut self) -> bool {
        if self.replay.is_some() {
            return false;
        }
        let Some((who, _)) = self.actor() else {
            return false;
        };
        let Some(side) = self.side_of(who) else {
            return false;
        };
        if self
            .controls
            .get(usize::from(side))
            .is_some_and(|c| c.is_human())
        {
            return false;
        }
        let s = usize::from(side) % self.agents.len().max(1);
        let cmd = self.agents[s].command(&mut self.battle, who);
        if let Err(e) = self.battle.submit(cmd.clone()) {
            // The planner never gives an illegal command (tested); if it ever did, give the
            // plainest legal answer rather than hang the game, and say so.
            self.notice = Some(format!(
                "the computer's command was refused ({}); it passes instead",
                self.describe_error(&e)
            ));
            let fallback = match self.battle.awaiting() {
                Some(Decision::Defense { defender, .. }) => Command::Defend {
                    defender: *defender,
                    choice: crate::battle::command::DefenseChoice::Dodge,
                    counter: None,
                },
                Some(Decision::Response { who, .. }) => Command::Respond {
                    who: *who,
                    surge: None,
                },
                Some(Decision::Exploit { who, .. }) => Command::Exploit {
                    who: *who,
                    order: None,
                },
                Some(Decision::Intercede { who, .. }) => Command::Intercede {
                    who: *who,
                    accept: false,
                },
                None => Command::EndTurn { who },
            };
            if self.battle.submit(fallback).is_err() {
                return false;
            }
        }
        self.after_command();
        true
    }

    /// The active unit's attacking maneuvers (the core's action menu), each with its cost
    /// and, if it cannot be used now, the rule that refuses it.
    pub fn slots(&mut self) -> Vec<Slot> {
        let Some(who) = self.battle.active() else {
            return Vec::new();
        };
        crate::battle::menu::attack_slots(&mut self.battle, who)
    }

    /// The attack order the active unit would give with `slot` aimed at `cursor`.
    pub fn aimed_order(&mut self, slot: &Slot, cursor: Square) -> Option<AttackOrder> {
        let who = self.battle.active()?;
        let target = self
            .battle
            .aim_target(who, &slot.profile, cursor, Some(self.facing))?;
        // d20: the wager keys choose the Power Attack instead of a Ki wager.
        let power = self.battle.power_attack_cap(who, &slot.profile) > 0;
        let d20 = self.battle.rules().d20().is_some();
        Some(AttackOrder {
            attacker: who,
            profile: slot.profile.clone(),
            technique: slot.technique.clone(),
            target,
            wager: if power { 0 } else { self.wager },
            power_attack: if power { self.wager } else { 0 },
            element: slot.element.clone(),
            push: None,
            sneak: self.sneak
                && self.battle.offers().sneak
                && matches!(target, AttackTarget::Combatant(_)),
            // d20: the Called Shot key chooses an aimed shot.
            called_shot: self.called_shot.clone().filter(|_| !d20),
            aimed: match d20 {
                true => crate::battle::family::d20::aimed::chosen(self.called_shot.as_deref()),
                false => Default::default(),
            },
            united: self
                .united
                .map(|ally| crate::battle::command::United { ally, wager: 0 }),
            discard: self.discard_of(who, &slot.profile).map(|(id, _)| id),
        })
    }

    /// The maneuver the intent aims, if it aims one.
    pub fn chosen_slot(&mut self) -> Option<Slot> {
        let Intent::Attack { slot } = self.intent else {
            return None;
        };
        self.slots().get(slot).cloned()
    }

    /// The preview of the chosen maneuver aimed at the cursor, or why it cannot be given.
    pub fn aim(&mut self, cursor: Option<Square>) -> Option<Aim> {
        let slot = self.chosen_slot()?;
        self.aim_with(&slot, cursor?)
    }

    /// The preview of `slot` aimed at `cursor`: its order, the squares its area covers and
    /// its exact odds, or the rule that forbids it.
    pub fn aim_with(&mut self, slot: &Slot, cursor: Square) -> Option<Aim> {
        let order = self.aimed_order(slot, cursor)?;
        self.battle.fighter(order.attacker)?;
        let template = self.battle.template(&order).ok().flatten();
        let preview = self
            .battle
            .preview(&order)
            .map_err(|e| self.describe_error(&e));
        Some(Aim {
            order,
            template,
            preview,
        })
    }

    /// The squares of every unit `slot` may target now, checked by the rules (single-target
    /// maneuvers; an area's template shows its own reach).
    pub fn targetable(&mut self, slot: &Slot) -> Vec<Square> {
        if slot.refusal.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for f in self.fighters() {
            let Some(at) = f.position.filter(|_| !f.defeated()) else {
                continue;
            };
            let Some(order) = self.aimed_order(slot, at) else {
                continue;
            };
            if !matches!(order.target, AttackTarget::Combatant(_)) {
                return Vec::new();
            }
            if self.battle.check(&Command::Attack(order)).is_ok() {
                out.extend(footprint(at, f.size.squares));
            }
        }
        out
    }

    /// The most Ki the active unit can wager with the chosen maneuver.
    pub fn max_wager(&mut self) -> i64 {
        self.chosen_slot()
            .map_or(0, |slot| self.max_wager_with(&slot))
    }

    /// The most Ki the active unit can wager with `slot`: what its Capacity and Ki leave
    /// after the maneuver's cost, nothing on attacks that take no wager (d20: the most Power
    /// Attack it may declare).
    pub fn max_wager_with(&mut self, slot: &Slot) -> i64 {
        let Some(me) = self
            .battle
            .active()
            .and_then(|who| self.battle.fighter(who))
        else {
            return 0;
        };
        let power = self.battle.power_attack_cap(me.id, &slot.profile);
        if power > 0 {
            return power;
        }
        let rules = self.battle.rules().clone();
        let wagerable = rules
            .profile(&slot.profile)
            .and_then(|p| rules.attack_type(&p.attack_type))
            .is_some_and(|t| t.wager);
        if !wagerable {
            return 0;
        }
        (me.capacity.current - slot.ki_cost)
            .min(me.ki.current - slot.ki_cost)
            .max(0)
    }

    /// True when a question to a person is on screen (not hidden by the hand-off cover).
    pub fn prompt_pending(&mut self) -> bool {
        self.handoff.is_none() && matches!(self.human_to_act(), Some((_, Some(_), _)))
    }

    /// Keeps the wager within what the current maneuver allows.
    pub fn clamp_wager(&mut self) {
        let max = self.max_wager();
        self.wager = self.wager.clamp(0, max);
    }

    /// The card (id and name) the chosen Final Physical Attack would discard (power stages),
    /// if the chosen maneuver discards one.
    pub fn discard_card(&mut self) -> Option<(String, String)> {
        let who = self.battle.active()?;
        let slot = self.chosen_slot()?;
        self.discard_of(who, &slot.profile)
    }

    /// The card (id and name) `who`'s attack with `profile` would discard: the one the player
    /// stepped to, kept within the cards held; none for an attack that discards nothing.
    fn discard_of(&mut self, who: CombatantId, profile: &str) -> Option<(String, String)> {
        let choices = self.battle.discard_choices(who, profile);
        let last = choices.len().checked_sub(1)?;
        choices.into_iter().nth(self.discard.min(last))
    }

    /// Steps the card the chosen Final Physical Attack discards (power stages) by `step`
    /// through the cards held, round and round; false when the chosen maneuver discards none.
    pub fn step_discard(&mut self, step: isize) -> bool {
        let (Some(who), Some(slot)) = (self.battle.active(), self.chosen_slot()) else {
            return false;
        };
        let n = self.battle.discard_choices(who, &slot.profile).len();
        if n == 0 {
            return false;
        }
        self.discard = (self.discard.min(n - 1) as isize + step).rem_euclid(n as isize) as usize;
        true
    }

    /// The side whose player looks at the board: the only human side, or in hot-seat the one
    /// whose player last took the board; none when only computers play or a replay is watched
    /// (then everything is shown).
    pub fn viewer(&self) -> Option<crate::battle::components::Side> {
        if self.replay.is_some() {
            return None;
        }
        let humans: Vec<usize> = (0..self.controls.len())
            .filter(|&i| self.controls[i].is_human())
            .collect();
        match humans.as_slice() {
            [one] => u8::try_from(*one).ok(),
            [] => None,
            _ => self.seen_side,
        }
        .map(crate::battle::components::Side)
    }

    /// Every combatant as the viewer knows it, for drawing: an opponent that is Hidden is off
    /// the board (its square unknown to the viewer).
    pub fn fighters(&mut self) -> Vec<Fighter> {
        let all = self.battle.fighters();
        match self.viewer() {
            Some(side) => crate::battle::hide::as_known_to(all, side),
            None => all,
        }
    }

    /// The combatant standing on a square, if any, as far as the viewer knows.
    pub fn fighter_at(&mut self, square: Square) -> Option<Fighter> {
        self.fighters().into_iter().find(|f| {
            !f.defeated()
                && f.position
                    .is_some_and(|p| footprint(p, f.size.squares).contains(&square))
        })
    }
}

/// Names for people: a name two units share gets its side's name, and then its number, so
/// the log and the prompts never leave a player guessing which Gunner is meant.
fn distinct_names(battle: &mut Battle, loaded: &Loaded) -> Names {
    let fighters = battle.fighters();
    let count = |pred: &dyn Fn(&Fighter) -> bool| fighters.iter().filter(|f| pred(f)).count();
    fighters
        .iter()
        .map(|f| {
            let name = &f.identity.name;
            let side = loaded
                .scenario
                .sides
                .get(usize::from(f.side.0))
                .map_or_else(|| format!("side {}", f.side.0), |s| s.name.clone());
            let label = if count(&|g| g.identity.name == *name) == 1 {
                name.clone()
            } else if count(&|g| g.identity.name == *name && g.side == f.side) == 1 {
                format!("{name} ({side})")
            } else {
                format!("{name} {} ({side})", f.id)
            };
            (f.id, label)
        })
        .collect()
}

/// An attack aimed at the cursor: the order, the squares its area covers and its exact odds
/// (or the rule that forbids it).
#[derive(Debug, Clone)]
pub struct Aim {
    pub order: AttackOrder,
    pub template: Option<Vec<Square>>,
    pub preview: Result<AttackPreview, String>,
}
