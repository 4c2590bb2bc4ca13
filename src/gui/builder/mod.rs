//! The skirmish builder (title screen, "Build a skirmish"): a ruleset, a generated field (size,
//! rough ground, seed, mirrored), 2 to 4 sides each played by a person or the computer with
//! its units picked from the ruleset's roster, the field previewed as it will be, a balance
//! check of the sides, then saved as a plain scenario in the player's own folder and played.
//! Characters of the player's own (made in the character editor, kept in the user folder) are
//! picked like roster entries and written into the scenario that fields them.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;

mod budget;
mod screen;

pub(super) use screen::plugin;

use super::balance_meter::{BATTLES, BalanceKey, BalanceMeter};
use super::input::InputProfile;
use super::session::SideControl;
use crate::ai::Policy;
use crate::character::team::{self, Team};
use crate::character::{self, Character};
use crate::ruleset::{Rules, ruleset_dir};
use crate::scenario::generate::{MAX_TEAM, Recipe, generate};
use crate::scenario::{self, Scenario, write};

/// The field sizes offered, in squares.
const SIZES: [(u32, u32); 6] = [(12, 10), (16, 12), (20, 14), (24, 18), (32, 24), (40, 30)];

/// The point budgets a side may be given: none, then rising amounts (a ruleset's units cost
/// from about 10 (a DBU minion) to 110 points each under its `points.ron`).
const BUDGETS: [Option<i64>; 13] = [
    None,
    Some(50),
    Some(100),
    Some(150),
    Some(200),
    Some(250),
    Some(300),
    Some(350),
    Some(400),
    Some(500),
    Some(600),
    Some(800),
    Some(1000),
];

/// Who may play a side, in the order Left/Right steps through them.
const PLAYERS: [SideControl; 4] = [
    SideControl::Human(InputProfile::Any),
    SideControl::Ai(Policy::Easy),
    SideControl::Ai(Policy::Normal),
    SideControl::Ai(Policy::Hard),
];

/// A scenario whose map a skirmish can be fought on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapChoice {
    pub name: String,
    pub path: PathBuf,
    pub width: u32,
    pub height: u32,
    /// The most sides it has start places for.
    pub sides: usize,
    /// In the player's own scenarios folder.
    pub yours: bool,
}

/// What the Teams row does when Enter is pressed on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamAction {
    /// Saves side `i`'s units as a team.
    Save(usize),
    /// Puts saved team `t` in side `i`'s place.
    Load(usize, usize),
}

/// One side being built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SidePlan {
    /// Who plays it: a person, or the computer at a level.
    pub control: SideControl,
    /// Roster ids or the player's own characters' ids, in order.
    pub units: Vec<String>,
}

/// What a builder row does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildRow {
    /// Which ruleset the skirmish plays.
    Ruleset,
    /// A generated field, or the map of a shipped scenario or one of the player's own.
    Map,
    /// The field's size.
    Size,
    /// How much of the field is rough or blocked.
    Rough,
    /// The field's seed.
    Seed,
    /// The same field from either side, or not.
    Mirror,
    /// How many sides (2 to 4).
    Sides,
    /// The most points each side may field, or no limit.
    Budget,
    /// Saves a side's team, or loads a saved team into a side (Left/Right: which).
    Teams,
    /// Who plays side `i`.
    Player(usize),
    /// Unit `k` of side `i`: Left/Right picks another roster entry, Enter removes it.
    Unit(usize, usize),
    /// Adds a unit to side `i`.
    AddUnit(usize),
    /// Opens the map editor on the field as built.
    EditField,
    /// Opens the character editor: the character made joins a side.
    NewCharacter,
    /// The balance check of the skirmish as built.
    Balance,
    /// Writes the scenario into the player's folder and starts it.
    SaveAndPlay,
    /// Back to the title screen, the choices kept.
    Back,
}

/// The skirmish being built, and the highlighted row.
#[derive(Resource, Debug, Clone)]
pub struct Builder {
    /// (id, name) of every installed ruleset.
    pub rulesets: Vec<(String, String)>,
    pub ruleset: usize,
    /// The chosen ruleset's roster ids and names, then the player's own characters'.
    pub roster: Vec<(String, String)>,
    /// The player's own characters of the chosen ruleset that its rules accept.
    pub own: Vec<Character>,
    /// The teams saved for the chosen ruleset.
    pub teams: Vec<Team>,
    /// Which of [`Builder::team_actions`] the Teams row offers.
    pub team_action: usize,
    /// The maps of the chosen ruleset's scenarios, shipped then the player's own.
    pub maps: Vec<MapChoice>,
    /// 0 for a generated field, else `maps[map - 1]`.
    pub map: usize,
    pub size: usize,
    /// Percent of rough or blocked ground.
    pub rough: u32,
    pub seed: u64,
    pub mirror: bool,
    /// Which of [`BUDGETS`] each side is held to.
    pub budget: usize,
    pub sides: Vec<SidePlan>,
    pub row: usize,
    /// The last refusal or failure, shown under the rows.
    pub message: Option<String>,
    /// The player's own scenarios folder, where the skirmish is saved.
    pub own_dir: PathBuf,
    /// The chosen ruleset, loaded once when chosen: every change previews the field again.
    loaded: Option<Arc<Rules>>,
}

impl Builder {
    /// A builder for the first installed ruleset (DBU when present), two sides of three.
    pub fn new(seed: u64, own_dir: PathBuf) -> Self {
        let mut rulesets: Vec<(String, String)> = scenario::known_rulesets()
            .into_iter()
            .filter_map(|id| {
                let rules = Rules::load(&ruleset_dir(&id)).ok()?;
                Some((id, rules.manifest.name.clone()))
            })
            .collect();
        rulesets.sort_by_key(|(id, _)| id != "dbu");
        let mut b = Self {
            rulesets,
            ruleset: 0,
            roster: Vec::new(),
            own: Vec::new(),
            teams: Vec::new(),
            team_action: 0,
            maps: Vec::new(),
            map: 0,
            size: 1,
            rough: 20,
            seed,
            mirror: true,
            budget: 0,
            sides: Vec::new(),
            row: 0,
            message: None,
            own_dir,
            loaded: None,
        };
        b.choose_ruleset(0);
        b
    }

    /// Chooses ruleset `i`: its roster, and two sides of its first three entries.
    fn choose_ruleset(&mut self, i: usize) {
        self.ruleset = i;
        self.loaded = self
            .rulesets
            .get(i)
            .and_then(|(id, _)| Rules::load(&ruleset_dir(id)).ok())
            .map(Arc::new);
        self.read_own_characters();
        self.read_maps();
        let team: Vec<String> = self
            .roster
            .iter()
            .take(3)
            .map(|(id, _)| id.clone())
            .collect();
        self.sides = (0..2)
            .map(|s| SidePlan {
                control: if s == 0 {
                    PLAYERS[0]
                } else {
                    SideControl::Ai(Policy::Normal)
                },
                units: team.clone(),
            })
            .collect();
    }

    /// The data directory: the scenarios folder's parent.
    pub fn data_dir(&self) -> PathBuf {
        self.own_dir
            .parent()
            .map_or_else(|| self.own_dir.clone(), PathBuf::from)
    }

    /// The chosen ruleset's id.
    pub fn ruleset_id(&self) -> &str {
        self.rulesets.get(self.ruleset).map_or("dbu", |(id, _)| id)
    }

    /// Reads the player's own characters and teams of the chosen ruleset again (after the
    /// editor saved one): the characters the ruleset accepts are offered after the roster,
    /// marked "(yours)", and the teams on the Teams row; a file that cannot be read or breaks
    /// a rule is named in the message, never dropped silently.
    pub fn read_own_characters(&mut self) {
        let Some(rules) = self.rules() else {
            self.roster.clear();
            self.own.clear();
            return;
        };
        self.roster = rules
            .roster
            .archetypes
            .iter()
            .map(|a| (a.id.clone(), a.name.clone()))
            .collect();
        self.own.clear();
        let mut broken = Vec::new();
        for (file, read) in character::read_all(&self.data_dir(), self.ruleset_id()) {
            let c = match read {
                Ok(c) => c,
                Err(e) => {
                    broken.push(e.to_string());
                    continue;
                }
            };
            match c.problems(&rules).first() {
                Some(p) => broken.push(format!("{}: {p}", file.display())),
                None if self.own.iter().any(|o| o.id() == c.id()) => {}
                None => {
                    self.roster
                        .push((c.id().to_string(), format!("{} (yours)", c.name())));
                    self.own.push(c);
                }
            }
        }
        self.teams.clear();
        for (_, read) in team::read_all(&self.data_dir(), self.ruleset_id()) {
            match read {
                Ok(t) => self.teams.push(t),
                Err(e) => broken.push(e.to_string()),
            }
        }
        if !broken.is_empty() {
            self.message = Some(format!("Not offered: {}", broken.join("; ")));
        }
    }

    /// Reads the chosen ruleset's scenarios again for their maps: the shipped ones, then the
    /// player's own (an edited, imported or generated field among them). The chosen map is
    /// kept when it is still there.
    pub fn read_maps(&mut self) {
        let chosen = self.base_map().map(|m| m.path.clone());
        self.maps.clear();
        let Some(rules) = self.rules() else {
            self.map = 0;
            return;
        };
        let id = self.ruleset_id().to_string();
        let own = scenario::ron_files(&self.own_dir);
        let files = scenario::shipped().into_iter().map(|p| (p, false));
        for (path, yours) in files.chain(own.into_iter().map(|p| (p, true))) {
            let read = scenario::load_with(&path, |r| {
                if r == id {
                    Ok(Arc::clone(&rules))
                } else {
                    Err(crate::ruleset::RulesErrors(Vec::new()))
                }
            });
            if let Ok(l) = read {
                self.maps.push(MapChoice {
                    name: l.scenario.name.clone(),
                    path,
                    width: l.scenario.map.width,
                    height: l.scenario.map.height,
                    sides: l.scenario.sides.len(),
                    yours,
                });
            }
        }
        self.map = chosen
            .and_then(|p| self.maps.iter().position(|m| m.path == p))
            .map_or(0, |i| i + 1);
    }

    /// The scenario whose map the skirmish is fought on, or none for a generated field.
    pub fn base_map(&self) -> Option<&MapChoice> {
        self.map.checked_sub(1).and_then(|i| self.maps.get(i))
    }

    /// The most sides the chosen map has room for.
    fn max_sides(&self) -> usize {
        self.base_map().map_or(4, |m| m.sides.clamp(2, 4))
    }

    /// What the Teams row can do: save each side's team, then load each saved team into each
    /// side.
    pub fn team_actions(&self) -> Vec<TeamAction> {
        let sides = 0..self.sides.len();
        sides
            .clone()
            .map(TeamAction::Save)
            .chain(
                (0..self.teams.len())
                    .flat_map(|t| sides.clone().map(move |s| TeamAction::Load(t, s))),
            )
            .collect()
    }

    /// Runs the Teams row's action: a side's team saved to the teams folder (named by its
    /// units), or a saved team put in a side's place (refused, naming them, when a unit is
    /// neither in the roster nor one of the player's characters any more).
    pub fn run_team_action(&mut self) {
        let names = crate::scenario::generate::side_names(self.sides.len());
        match self.team_actions().get(self.team_action).copied() {
            Some(TeamAction::Save(i)) => {
                let team = Team {
                    ruleset: self.ruleset_id().to_string(),
                    name: self.names(&self.sides[i].units),
                    units: self.sides[i].units.clone(),
                };
                let saved = team::save(&self.data_dir(), &team);
                self.read_own_characters();
                self.message = Some(match saved {
                    Ok(path) => format!("{}'s team saved as {}", names[i], path.display()),
                    Err(e) => format!("Not saved: {e}"),
                });
            }
            Some(TeamAction::Load(t, i)) => {
                let team = self.teams[t].clone();
                let known = self
                    .rules()
                    .map(|r| character::add_to(&r, &self.own).unwrap_or_else(|_| (*r).clone()));
                let unknown = known.map_or_else(Vec::new, |r| {
                    team.unknown_units(&r)
                        .into_iter()
                        .map(String::from)
                        .collect()
                });
                if !unknown.is_empty() {
                    self.message = Some(format!(
                        "Not loaded: {} is in neither the roster nor your characters",
                        unknown.join(", ")
                    ));
                } else {
                    self.sides[i].units = team.units.into_iter().take(MAX_TEAM).collect();
                    // The side's rows grew or shrank: the highlight stays on this row.
                    self.row = self
                        .rows()
                        .iter()
                        .position(|r| *r == BuildRow::Teams)
                        .unwrap_or(0);
                }
            }
            None => {}
        }
    }

    /// A character the editor saved: offered from now on, and fielded by side `side` (when
    /// the side has room).
    pub fn take_character(&mut self, id: &str, side: usize) {
        self.read_own_characters();
        let Some(plan) = self.sides.get_mut(side) else {
            return;
        };
        if plan.units.len() >= MAX_TEAM {
            self.message = Some(format!(
                "Saved; side {} already has {MAX_TEAM} units, so pick it on a unit row.",
                side + 1
            ));
        } else {
            plan.units.push(id.to_string());
            let row = BuildRow::Unit(side, plan.units.len() - 1);
            self.row = self
                .rows()
                .iter()
                .position(|r| *r == row)
                .unwrap_or(self.row);
        }
    }

    /// The player's own characters some side fields: the scenario carries them.
    pub fn used_characters(&self) -> Vec<Character> {
        self.own
            .iter()
            .filter(|c| {
                self.sides
                    .iter()
                    .any(|s| s.units.iter().any(|u| u == c.id()))
            })
            .cloned()
            .collect()
    }

    /// The chosen ruleset, as loaded when it was chosen.
    pub fn rules(&self) -> Option<Arc<Rules>> {
        self.loaded.clone()
    }

    /// The rows in order.
    pub fn rows(&self) -> Vec<BuildRow> {
        let mut rows = vec![BuildRow::Ruleset, BuildRow::Map];
        if self.base_map().is_none() {
            rows.extend([
                BuildRow::Size,
                BuildRow::Rough,
                BuildRow::Seed,
                BuildRow::Mirror,
            ]);
        }
        rows.extend([BuildRow::Sides, BuildRow::Budget]);
        for (i, side) in self.sides.iter().enumerate() {
            rows.push(BuildRow::Player(i));
            rows.extend((0..side.units.len()).map(|k| BuildRow::Unit(i, k)));
            rows.push(BuildRow::AddUnit(i));
        }
        rows.extend([
            BuildRow::Teams,
            BuildRow::EditField,
            BuildRow::NewCharacter,
            BuildRow::Balance,
            BuildRow::SaveAndPlay,
            BuildRow::Back,
        ]);
        rows
    }

    /// The recipe the choices make: the generator places the chosen teams.
    pub fn recipe(&self) -> Recipe {
        let (width, height) = SIZES[self.size];
        let mut recipe = Recipe::new(
            self.rulesets.get(self.ruleset).map_or("dbu", |(id, _)| id),
            self.seed,
        );
        recipe.width = width;
        recipe.height = height;
        recipe.density = self.rough;
        recipe.mirror = self.mirror;
        recipe.sides = self.sides.len() as u8;
        recipe.teams = self.sides.iter().map(|s| s.units.clone()).collect();
        recipe
    }

    /// The scenario the choices make, or why they cannot make one.
    pub fn scenario(&self) -> Result<Scenario, String> {
        let rules = self.rules_with_own()?;
        let mut s = match self.base_map() {
            None => generate(&self.recipe(), &rules).map_err(|e| e.to_string())?,
            Some(m) => {
                let plain = self.rules().ok_or("the ruleset does not load")?;
                let base = scenario::load_with(&m.path, |_| Ok(plain))
                    .map_err(|e| e.to_string())?
                    .scenario;
                let teams: Vec<Vec<String>> = self.sides.iter().map(|p| p.units.clone()).collect();
                crate::scenario::restage::restage(&base, &teams, &rules)
                    .map_err(|e| e.to_string())?
            }
        };
        s.characters = self.used_characters();
        s.budget = self.budget();
        s.name = format!(
            "Skirmish: {}",
            self.sides
                .iter()
                .map(|p| p.units.len().to_string())
                .collect::<Vec<_>>()
                .join(" v ")
        );
        s.description = format!(
            "Built in the skirmish builder: {}. {}",
            self.sides
                .iter()
                .zip(&s.sides)
                .map(|(p, d)| format!("{} ({})", d.name, self.names(&p.units)))
                .collect::<Vec<_>>()
                .join(" against "),
            s.description
        );
        Ok(s)
    }

    /// The chosen ruleset with the player's own characters that the sides field added to its
    /// roster: the rules the skirmish is made and edited with.
    pub fn rules_with_own(&self) -> Result<Arc<Rules>, String> {
        let rules = self.rules().ok_or("the ruleset does not load")?;
        let used = self.used_characters();
        if used.is_empty() {
            return Ok(rules);
        }
        character::add_to(&rules, &used)
            .map(Arc::new)
            .map_err(|problems| {
                let (i, p) = &problems[0];
                format!("{}: {p}", used[*i].name())
            })
    }

    /// Roster ids as names, joined.
    fn names(&self, ids: &[String]) -> String {
        ids.iter()
            .map(|id| self.name_of(id))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn name_of(&self, id: &str) -> String {
        self.roster
            .iter()
            .find(|(i, _)| i == id)
            .map_or_else(|| id.to_string(), |(_, n)| n.clone())
    }

    /// Left (-1) or Right (+1) on the highlighted row.
    pub fn change(&mut self, step: isize) {
        self.message = None;
        let turn =
            |at: usize, n: usize| (at as isize + step).rem_euclid(n.max(1) as isize) as usize;
        match self.rows().get(self.row).copied() {
            Some(BuildRow::Ruleset) => {
                let i = turn(self.ruleset, self.rulesets.len());
                self.choose_ruleset(i);
            }
            Some(BuildRow::Map) => {
                self.map = turn(self.map, self.maps.len() + 1);
                let most = self.max_sides();
                self.sides.truncate(most);
            }
            Some(BuildRow::Size) => self.size = turn(self.size, SIZES.len()),
            Some(BuildRow::Rough) => {
                self.rough = (self.rough as isize + step * 10).clamp(0, 60) as u32;
            }
            Some(BuildRow::Seed) => self.seed = self.seed.saturating_add_signed(step as i64),
            Some(BuildRow::Mirror) => self.mirror = !self.mirror,
            Some(BuildRow::Sides) => {
                let n =
                    (self.sides.len() as isize + step).clamp(2, self.max_sides() as isize) as usize;
                while self.sides.len() < n {
                    let team = self.sides[0].units.clone();
                    self.sides.push(SidePlan {
                        control: SideControl::Ai(Policy::Normal),
                        units: team,
                    });
                }
                self.sides.truncate(n);
            }
            Some(BuildRow::Budget) => self.budget = turn(self.budget, BUDGETS.len()),
            Some(BuildRow::Teams) => {
                self.team_action = turn(self.team_action, self.team_actions().len());
            }
            Some(BuildRow::Player(i)) => {
                let at = PLAYERS.iter().position(|p| *p == self.sides[i].control);
                self.sides[i].control = PLAYERS[turn(at.unwrap_or(0), PLAYERS.len())];
            }
            Some(BuildRow::Unit(i, k)) => self.swap_unit(i, k, step),
            _ => {}
        }
    }

    /// Enter on the highlighted row, for rows that act rather than choose: adds or removes a
    /// unit (never past 1 to 12 a side); the rest step their value.
    pub fn act(&mut self) {
        self.message = None;
        match self.rows().get(self.row).copied() {
            Some(BuildRow::AddUnit(i)) => {
                if self.sides[i].units.len() >= MAX_TEAM {
                    self.message = Some(format!("A side has at most {MAX_TEAM} units."));
                } else {
                    self.add_unit(i);
                }
            }
            Some(BuildRow::Teams) => self.run_team_action(),
            Some(BuildRow::Unit(i, k)) => {
                if self.sides[i].units.len() <= 1 {
                    self.message = Some("A side needs at least one unit.".into());
                } else {
                    self.sides[i].units.remove(k);
                }
            }
            _ => self.change(1),
        }
    }

    /// What each row says.
    pub fn labels(&self, meter: &BalanceMeter) -> Vec<String> {
        let side_names = crate::scenario::generate::side_names(self.sides.len());
        self.rows()
            .iter()
            .map(|row| match *row {
                BuildRow::Ruleset => format!(
                    "Ruleset:  < {} >",
                    self.rulesets.get(self.ruleset).map_or("none", |(_, n)| n)
                ),
                BuildRow::Map => match self.base_map() {
                    None => "Map:  < a generated field >".into(),
                    Some(m) => format!(
                        "Map:  < {}{} ({} x {}, {} sides) >",
                        m.name,
                        if m.yours { " (yours)" } else { "" },
                        m.width,
                        m.height,
                        m.sides
                    ),
                },
                BuildRow::Size => {
                    let (w, h) = SIZES[self.size];
                    format!("Field:  < {w} x {h} squares >")
                }
                BuildRow::Rough => format!("Rough or blocked ground:  < {} % >", self.rough),
                BuildRow::Seed => format!("Field seed:  < {} >", self.seed),
                BuildRow::Mirror => format!(
                    "Same field from either side:  < {} >",
                    if self.mirror { "yes" } else { "no" }
                ),
                BuildRow::Sides => format!("Sides:  < {} >", self.sides.len()),
                BuildRow::Budget => match self.budget() {
                    None => "Points a side:  < no limit >".into(),
                    Some(b) => format!("Points a side:  < {b} >"),
                },
                BuildRow::Player(i) => format!(
                    "{}:  < {} >   {}",
                    side_names[i],
                    self.sides[i].control,
                    self.side_cost_label(i)
                ),
                BuildRow::Unit(i, k) => format!(
                    "      {} {}:  < {} >  {} pts   (Enter: remove)",
                    side_names[i],
                    k + 1,
                    self.name_of(&self.sides[i].units[k]),
                    self.cost_of(&self.sides[i].units[k])
                ),
                BuildRow::AddUnit(i) => format!("      + add a unit to {}", side_names[i]),
                BuildRow::Teams => {
                    let what = match self.team_actions().get(self.team_action) {
                        Some(TeamAction::Save(i)) => format!("save {}'s team", side_names[*i]),
                        Some(TeamAction::Load(t, i)) => {
                            format!("load {} into {}", self.teams[*t].name, side_names[*i])
                        }
                        None => "none".into(),
                    };
                    format!("Teams:  < {what} >   (Enter)")
                }
                BuildRow::EditField => "Edit the field by hand…".into(),
                BuildRow::NewCharacter => "Make a character of your own…".into(),
                BuildRow::Balance => self.balance_row(meter),
                BuildRow::SaveAndPlay => "Save and play".into(),
                BuildRow::Back => "Back to the title".into(),
            })
            .collect()
    }

    /// The balance row's words: how to start a check, or how far it got (the figures are
    /// beside the field, where four sides have room).
    fn balance_row(&self, meter: &BalanceMeter) -> String {
        let Some(key) = self.balance_key() else {
            return "Balance check: no skirmish".into();
        };
        if let Some(e) = meter.error(&key) {
            return format!("Balance check failed: {e}");
        }
        match meter.tally(&key) {
            None => format!("Balance check: {BATTLES} quick battles of these sides"),
            Some(t) if t.battles < BATTLES => {
                format!("Balance check: {} of {BATTLES} battles played…", t.battles)
            }
            Some(t) => format!(
                "Balance check: done, {} battles (figures on the right)",
                t.battles
            ),
        }
    }

    /// Each side's chance of winning so far, one line a side, for beside the field.
    pub fn balance_lines(&self, meter: &BalanceMeter) -> String {
        let Some(t) = self.balance_key().and_then(|k| meter.tally(&k)) else {
            return String::new();
        };
        if t.battles == 0 {
            return "Balance: the first battles are being played…".into();
        }
        let names = crate::scenario::generate::side_defs(self.sides.len());
        let pct = |c: crate::balance::Chance| {
            format!(
                "{:>3.0} %  ({:.0}-{:.0} %)",
                c.estimate * 100.0,
                c.low * 100.0,
                c.high * 100.0
            )
        };
        let mut out = vec![format!(
            "Chance of winning after {} battles (95 % interval):",
            t.battles
        )];
        for (i, d) in names.iter().enumerate() {
            out.push(format!("{:<6} {}", d.name, pct(t.chance(i))));
        }
        out.push(format!("{:<6} {}", "Draw", pct(t.draw_chance())));
        out.join("\n")
    }

    /// Where the builder keeps the skirmish it checks the balance of: named by the choices,
    /// so a check of other choices is another file, and outside the scenarios folder, so the
    /// title screen does not list it.
    fn preview_path(&self) -> PathBuf {
        let choices = format!(
            "{} {:?} {:?} {:?}",
            self.recipe().command_line(),
            self.budget(),
            self.base_map().map(|m| &m.path),
            self.sides.iter().map(|s| s.control).collect::<Vec<_>>()
        );
        self.data_dir().join("builder").join(format!(
            "check-{:016x}.ron",
            xxhash_rust::xxh3::xxh3_64(choices.as_bytes())
        ))
    }

    /// The balance check of the skirmish as built: the preview file, played by the sides'
    /// computer players (the normal one for a person).
    pub fn balance_key(&self) -> Option<BalanceKey> {
        Some(BalanceKey {
            scenario: self.preview_path().to_string_lossy().into_owned(),
            policies: self
                .sides
                .iter()
                .map(|s| match s.control {
                    SideControl::Ai(p) => p,
                    SideControl::Human(_) => Policy::Normal,
                })
                .collect(),
        })
    }

    /// Writes the skirmish to `path`.
    fn write_to(&self, path: &std::path::Path) -> Result<(), String> {
        if let Some(why) = self.over_budget() {
            return Err(why);
        }
        let s = self.scenario()?;
        let text = write::to_ron(
            &s,
            &format!(
                "Built in Gridclash's skirmish builder.\n{}",
                self.recipe().command_line()
            ),
        )
        .map_err(|e| e.to_string())?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Saves the skirmish into the player's own folder under the first free
    /// `skirmish-RULESET-N.ron` and returns its path.
    pub fn save(&self) -> Result<PathBuf, String> {
        let id = self.ruleset_id();
        let path = (1..)
            .map(|n| self.own_dir.join(format!("skirmish-{id}-{n}.ron")))
            .find(|p| !p.exists())
            .ok_or("no free file name")?;
        self.write_to(&path)?;
        Ok(path)
    }

    /// The field as text, one character a square, each unit as its side's number: the
    /// preview beside the rows.
    pub fn preview(&self) -> String {
        match self.scenario() {
            Ok(s) => {
                let mut rows: Vec<Vec<char>> =
                    s.map.rows.iter().map(|r| r.chars().collect()).collect();
                for u in &s.units {
                    if let Some(c) = rows
                        .get_mut(u.at.1 as usize)
                        .and_then(|r| r.get_mut(u.at.0 as usize))
                    {
                        *c = char::from_digit(u32::from(u.side) + 1, 10).unwrap_or('?');
                    }
                }
                let mut out: Vec<String> =
                    rows.into_iter().map(|r| r.into_iter().collect()).collect();
                out.push(String::new());
                out.push("1-4: each side's units".into());
                if let Some(rules) = self.rules() {
                    let symbols: Vec<String> = rules
                        .terrain
                        .types
                        .iter()
                        .map(|t| format!("{} {}", t.symbol, t.id))
                        .collect();
                    for line in symbols.chunks(4) {
                        out.push(line.join("  "));
                    }
                }
                out.join("\n")
            }
            Err(e) => format!("No field: {e}"),
        }
    }
}
