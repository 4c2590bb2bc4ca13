//! The title screen: choose a scenario and who plays each side (a person, or the computer at a
//! level; two or more people is hot-seat), then start the battle or quit.

use bevy::prelude::*;

use super::balance_meter::{BalanceKey, BalanceMeter};
use super::input::{GameAction, PlayerInput};
use super::session::{BattleSpec, Session, SideControl};
use super::{PlayOptions, Screen, Settings, palette};
use crate::ai::Policy;
use crate::gui::input::InputProfile;
use crate::scenario;

/// One scenario as the menu lists it: shipped, or the player's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioChoice {
    /// What a battle spec names it by: a shipped scenario's file stem (`duel`), the full path
    /// of one of the player's own (so it never stands for a shipped one of the same name).
    pub id: String,
    pub name: String,
    /// The ruleset's name, as shown.
    pub ruleset: String,
    /// The ruleset's id (its directory), for a new random field of the same ruleset.
    pub ruleset_id: String,
    /// From the player's own scenarios folder (see [`scenario::user_dir`]).
    pub yours: bool,
    pub description: String,
    pub sides: Vec<String>,
    /// A guided first battle: listed first among its ruleset's, against the easy computer.
    pub guided: bool,
}

/// The title menu's choices and highlight.
#[derive(Resource, Debug, Clone)]
pub struct TitleMenu {
    pub scenarios: Vec<ScenarioChoice>,
    /// The rulesets the shipped scenarios use, by name, in the order first met.
    pub rulesets: Vec<String>,
    /// The chosen ruleset: the scenario row offers only its scenarios.
    pub ruleset: usize,
    /// The chosen scenario, an index into `scenarios`.
    pub scenario: usize,
    pub sides: Vec<SideControl>,
    /// The highlighted row: see [`TitleMenu::rows`].
    pub row: usize,
    pub seed: u64,
    /// Why the last start failed, if it did.
    pub error: Option<String>,
    /// Scenario files that did not load, each with its file, line and message: shown under
    /// the menu, never silently left out.
    pub broken: Vec<String>,
    /// The player's own scenarios folder: listed, and where a new random field is written.
    pub own_dir: std::path::PathBuf,
}

/// What a row of the title menu does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Ruleset,
    Scenario,
    Side(usize),
    Start,
    /// Quick headless battles of the chosen sides: each one's chance of winning.
    Balance,
    /// A new random field of the chosen ruleset, written into the player's own scenarios.
    Generate,
    /// The skirmish builder.
    Build,
    Load,
    Settings,
    Credits,
    Quit,
}

/// The controllers a side cycles through on the title screen.
const CHOICES: [SideControl; 9] = [
    SideControl::Human(InputProfile::Any),
    SideControl::Human(InputProfile::KeyboardMouse),
    SideControl::Human(InputProfile::Gamepad(1)),
    SideControl::Human(InputProfile::Gamepad(2)),
    SideControl::Human(InputProfile::Gamepad(3)),
    SideControl::Human(InputProfile::Gamepad(4)),
    SideControl::Ai(Policy::Easy),
    SideControl::Ai(Policy::Normal),
    SideControl::Ai(Policy::Hard),
];

impl TitleMenu {
    /// Lists the shipped scenarios and the player's own; the first side is a person, the
    /// others the normal AI.
    pub fn new(seed: u64) -> Self {
        Self::in_folder(seed, scenario::user_dir())
    }

    /// Lists the shipped scenarios and those in `own_dir`, the player's own folder (another
    /// one with `play --data-dir`).
    pub fn in_folder(seed: u64, own_dir: std::path::PathBuf) -> Self {
        let mut menu =
            Self::from_folders(&scenario::shipped(), &scenario::ron_files(&own_dir), seed);
        menu.own_dir = own_dir;
        menu
    }

    /// Lists the shipped scenarios in `files` that load, and why each of the others does not.
    pub fn from_files(files: &[std::path::PathBuf], seed: u64) -> Self {
        Self::from_folders(files, &[], seed)
    }

    /// Lists the scenarios in `shipped` and the player's own in `yours` that load (the
    /// player's after the shipped ones of their ruleset), and why each of the others does not.
    pub fn from_folders(
        shipped: &[std::path::PathBuf],
        yours: &[std::path::PathBuf],
        seed: u64,
    ) -> Self {
        let mut scenarios: Vec<ScenarioChoice> = Vec::new();
        let mut broken = Vec::new();
        let listed = shipped.iter().map(|p| (p, false));
        for (path, own) in listed.chain(yours.iter().map(|p| (p, true))) {
            match scenario::load(path) {
                Ok(l) => scenarios.push(ScenarioChoice {
                    id: if own {
                        path.to_string_lossy().into_owned()
                    } else {
                        l.id()
                    },
                    name: l.scenario.name.clone(),
                    ruleset: l.rules.manifest.name.clone(),
                    ruleset_id: l.scenario.ruleset.clone(),
                    yours: own,
                    description: l.scenario.description.clone(),
                    sides: l.scenario.sides.iter().map(|s| s.name.clone()).collect(),
                    guided: !l.scenario.guide.is_empty(),
                }),
                // The first problem says where; the count says whether there are more.
                Err(e) => broken.push(match e.0.as_slice() {
                    [] => format!("{}: does not load", path.display()),
                    [one] => one.to_string(),
                    [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
                }),
            }
        }
        let mut rulesets: Vec<String> = Vec::new();
        for s in &scenarios {
            if !rulesets.contains(&s.ruleset) {
                rulesets.push(s.ruleset.clone());
            }
        }
        // A ruleset's guided first battle comes first, where choosing the ruleset lands.
        scenarios.sort_by_key(|s| (!s.guided, s.yours));
        let scenario = scenarios
            .iter()
            .position(|s| s.id == "skirmish")
            .unwrap_or(0);
        let ruleset = scenarios
            .get(scenario)
            .and_then(|s| rulesets.iter().position(|r| *r == s.ruleset))
            .unwrap_or(0);
        let mut menu = Self {
            scenarios,
            rulesets,
            ruleset,
            scenario,
            sides: Vec::new(),
            row: 0,
            seed,
            error: None,
            broken,
            own_dir: scenario::user_dir(),
        };
        menu.reset_sides();
        menu
    }

    fn reset_sides(&mut self) {
        let (n, guided) = self
            .scenarios
            .get(self.scenario)
            .map_or((0, false), |s| (s.sides.len(), s.guided));
        // A first battle is for learning: the computer plays it at its easiest.
        let ai = if guided { Policy::Easy } else { Policy::Normal };
        self.sides = (0..n)
            .map(|i| {
                if i == 0 {
                    SideControl::Human(InputProfile::Any)
                } else {
                    SideControl::Ai(ai)
                }
            })
            .collect();
    }

    /// The scenarios of the chosen ruleset, as indexes into `scenarios`.
    pub fn offered(&self) -> Vec<usize> {
        let Some(ruleset) = self.rulesets.get(self.ruleset) else {
            return Vec::new();
        };
        (0..self.scenarios.len())
            .filter(|i| self.scenarios[*i].ruleset == *ruleset)
            .collect()
    }

    /// The rows in order.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = vec![Row::Ruleset, Row::Scenario];
        rows.extend((0..self.sides.len()).map(Row::Side));
        rows.extend([
            Row::Start,
            Row::Balance,
            Row::Generate,
            Row::Build,
            Row::Load,
            Row::Settings,
            Row::Credits,
            Row::Quit,
        ]);
        rows
    }

    /// Changes the highlighted row's value by one step (left: -1, right: +1).
    pub fn change(&mut self, step: isize) {
        match self.rows().get(self.row) {
            Some(Row::Ruleset) if !self.rulesets.is_empty() => {
                let n = self.rulesets.len() as isize;
                self.ruleset = ((self.ruleset as isize + step).rem_euclid(n)) as usize;
                self.scenario = self.offered().first().copied().unwrap_or(0);
                self.reset_sides();
            }
            Some(Row::Scenario) => {
                let offered = self.offered();
                if offered.is_empty() {
                    return;
                }
                let at = offered
                    .iter()
                    .position(|i| *i == self.scenario)
                    .unwrap_or(0) as isize;
                let n = offered.len() as isize;
                self.scenario = offered[(at + step).rem_euclid(n) as usize];
                self.reset_sides();
            }
            Some(Row::Side(i)) => {
                let i = *i;
                let at = CHOICES
                    .iter()
                    .position(|c| *c == self.sides[i])
                    .unwrap_or(0) as isize;
                self.sides[i] = CHOICES[(at + step).rem_euclid(CHOICES.len() as isize) as usize];
            }
            _ => {}
        }
    }

    /// Generates a random field of the chosen ruleset (16x12, mirrored, three units a side
    /// drawn from the roster) under the first seed from the menu's on whose file name nothing
    /// is written yet, writes it into the player's own scenarios, lists it and chooses it.
    pub fn new_field(&mut self) -> Result<std::path::PathBuf, String> {
        use crate::scenario::generate::{Recipe, file_text};
        let ruleset = self.rulesets.get(self.ruleset).cloned().unwrap_or_default();
        let id = self
            .scenarios
            .iter()
            .find(|s| s.ruleset == ruleset)
            .map(|s| s.ruleset_id.clone())
            .ok_or("no ruleset is installed")?;
        let dir = self.own_dir.clone();
        let seed = (self.seed..)
            .find(|s| !dir.join(format!("field-{id}-{s}.ron")).exists())
            .unwrap_or(self.seed);
        let path = dir.join(format!("field-{id}-{seed}.ron"));
        let rules = crate::ruleset::Rules::load(&crate::ruleset::ruleset_dir(&id))
            .map_err(|e| e.to_string())?;
        let mut recipe = Recipe::new(&id, seed);
        recipe.mirror = true;
        let text = file_text(&recipe, &rules).map_err(|e| e.to_string())?;
        std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&path, text))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let row = self.row;
        *self = Self::in_folder(self.seed, dir);
        self.row = row;
        self.choose(&path.to_string_lossy());
        Ok(path)
    }

    /// Chooses the scenario whose id is `id`, with its ruleset and its sides' default
    /// players; false when no listed scenario has that id.
    fn choose(&mut self, id: &str) -> bool {
        let Some(i) = self.scenarios.iter().position(|s| s.id == id) else {
            return false;
        };
        self.scenario = i;
        self.ruleset = self
            .rulesets
            .iter()
            .position(|r| *r == self.scenarios[i].ruleset)
            .unwrap_or(0);
        self.reset_sides();
        true
    }

    /// The same menu with its folders read again: the chosen scenario (by file), its sides'
    /// players and the highlighted row kept where they still exist.
    pub fn reread(&self, own_dir: std::path::PathBuf) -> Self {
        let mut fresh = Self::in_folder(self.seed, own_dir);
        let kept = self
            .scenarios
            .get(self.scenario)
            .is_some_and(|s| fresh.choose(&s.id));
        if kept && fresh.sides.len() == self.sides.len() {
            fresh.sides.clone_from(&self.sides);
        }
        fresh.row = self.row.min(fresh.rows().len().saturating_sub(1));
        fresh
    }

    /// The balance check the menu's choices ask for, if a scenario is chosen. A person's side
    /// is played by the normal computer player, the nearest thing to a person the game has.
    pub fn balance_key(&self) -> Option<BalanceKey> {
        let scenario = self.scenarios.get(self.scenario)?.id.clone();
        let policies = self
            .sides
            .iter()
            .map(|s| match s {
                SideControl::Ai(p) => *p,
                SideControl::Human(_) => Policy::Normal,
            })
            .collect();
        Some(BalanceKey { scenario, policies })
    }

    /// The balance row's words.
    pub fn balance_label(&self, meter: &BalanceMeter) -> String {
        let names = self
            .scenarios
            .get(self.scenario)
            .map(|s| s.sides.clone())
            .unwrap_or_default();
        meter.label(self.balance_key().as_ref(), &names)
    }

    /// The battle the menu would start; `auto_defense` comes from the settings.
    pub fn spec(&self, auto_defense: bool) -> Option<BattleSpec> {
        Some(BattleSpec {
            scenario: self.scenarios.get(self.scenario)?.id.clone(),
            seed: self.seed,
            sides: self.sides.clone(),
            auto_defense,
        })
    }
}

/// Marks the title screen's text for each row, to redraw it.
#[derive(Component)]
struct RowText(usize);

/// The text under the menu: the scenario's description, or the error of a failed start.
#[derive(Component)]
struct InfoText;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Title), spawn_title)
        .add_systems(
            Update,
            (
                navigate_title,
                click_title_rows,
                stop_stale_balance_check,
                draw_title,
            )
                .chain()
                .run_if(in_state(Screen::Title)),
        );
}

fn spawn_title(
    mut commands: Commands,
    options: Res<PlayOptions>,
    data: Res<super::DataDir>,
    menu: Option<Res<TitleMenu>>,
) {
    let own = scenario::user_dir_in(&data.0);
    match menu {
        None => commands.insert_resource(TitleMenu::in_folder(options.seed, own)),
        // Back from a battle or another screen: the folders are read again, so a scenario
        // file edited, added or broken meanwhile shows as it is now, the choices kept.
        Some(old) => commands.insert_resource(old.reread(own)),
    }
    commands
        .spawn(super::screen_root("Title screen", Screen::Title, 8.0))
        .with_children(|root| {
            root.spawn((
                Text::new("GRIDCLASH"),
                crate::gui::fonts::heading(48.0),
                TextColor(palette::ACCENT),
            ));
            root.spawn((
                Text::new("Tabletop combat on a grid, every roll shown"),
                TextFont::from_font_size(18.0),
                TextColor(palette::TEXT_DIM),
                Node {
                    margin: UiRect::bottom(px(10)),
                    ..default()
                },
            ));
            // The rows closer together than the screen's other parts, so a four-side
            // scenario's twelve rows and the text under them fit a 720-line window.
            root.spawn(Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                row_gap: px(4),
                width: percent(100),
                ..default()
            })
            .with_children(|rows| {
                for i in 0..14 {
                    super::spawn_menu_row_padded(rows, RowText(i), 700.0, 18.0, 2.0);
                }
            });
            root.spawn((
                InfoText,
                Text::new(""),
                TextFont::from_font_size(16.0),
                TextColor(palette::TEXT_DIM),
                Node {
                    width: px(700),
                    max_width: percent(94),
                    margin: UiRect::top(px(10)),
                    ..default()
                },
            ));
            root.spawn((
                Text::new(
                    "Up/Down: choose a row   Left/Right: change it   Enter: run it   Mouse: click a row",
                ),
                TextFont::from_font_size(14.0),
                TextColor(palette::TEXT_DIM),
            ));
        });
}

/// Keys and gamepad: move the highlight, change values, start or quit.
fn navigate_title(input: PlayerInput, mut menu: ResMut<TitleMenu>, mut fx: RowEffects) {
    let Some(actions) = input.any() else {
        return;
    };
    let rows = menu.rows().len();
    if actions.just_pressed(&GameAction::Down) {
        menu.row = (menu.row + 1) % rows;
    }
    if actions.just_pressed(&GameAction::Up) {
        menu.row = (menu.row + rows - 1) % rows;
    }
    if actions.just_pressed(&GameAction::Left) {
        menu.change(-1);
    }
    if actions.just_pressed(&GameAction::Right) {
        menu.change(1);
    }
    if actions.just_pressed(&GameAction::Confirm) {
        activate(&mut menu, &mut fx);
    }
}

/// Runs the highlighted row: Start begins the battle, Quit leaves, others step their value.
/// What running a title row may touch besides the menu.
#[derive(bevy::ecs::system::SystemParam)]
struct RowEffects<'w, 's> {
    meter: ResMut<'w, BalanceMeter>,
    settings: Res<'w, Settings>,
    commands: Commands<'w, 's>,
    next: ResMut<'w, NextState<Screen>>,
    exit: MessageWriter<'w, AppExit>,
}

fn activate(menu: &mut TitleMenu, fx: &mut RowEffects) {
    let RowEffects {
        meter,
        settings,
        commands,
        next,
        exit,
    } = fx;
    match menu.rows().get(menu.row) {
        Some(Row::Start) => match menu.spec(settings.auto_defense).map(Session::start) {
            Some(Ok(session)) => {
                menu.error = None;
                commands.insert_resource(session);
                next.set(Screen::Battle);
            }
            Some(Err(e)) => menu.error = Some(format!("Could not start: {e}")),
            None => {
                menu.error =
                    Some("Could not start: no scenario is installed under assets/scenarios".into())
            }
        },
        Some(Row::Balance) => {
            if let Some(key) = menu.balance_key() {
                meter.start(key, menu.seed);
            }
        }
        Some(Row::Generate) => match menu.new_field() {
            Ok(_) => menu.error = None,
            Err(e) => menu.error = Some(format!("Could not make a random field: {e}")),
        },
        Some(Row::Build) => next.set(Screen::Builder),
        Some(Row::Load) => next.set(Screen::Load),
        Some(Row::Settings) => {
            commands.insert_resource(super::settings_screen::SettingsMenu::default());
            next.set(Screen::Settings);
        }
        Some(Row::Credits) => next.set(Screen::Credits),
        Some(Row::Quit) => {
            exit.write(AppExit::Success);
        }
        _ => menu.change(1),
    }
}

/// A balance check of choices no longer on the menu (another scenario or player) stops: its
/// figures would answer a question nobody is asking.
fn stop_stale_balance_check(menu: Res<TitleMenu>, mut meter: ResMut<BalanceMeter>) {
    if meter.is_stale(menu.balance_key().as_ref()) {
        meter.stop();
    }
}

fn click_title_rows(
    rows: Query<(&Interaction, &RowText), Changed<Interaction>>,
    motion: Res<crate::gui::pointer::PointerMotion>,
    mut menu: ResMut<TitleMenu>,
    mut fx: RowEffects,
) {
    let pointer_moved = motion.moved();
    for (interaction, row) in &rows {
        if let Some(pointer) = super::RowPointer::of(*interaction, pointer_moved) {
            menu.row = row.0;
            if pointer == super::RowPointer::Press {
                activate(&mut menu, &mut fx);
            }
        }
    }
}

fn draw_title(
    menu: Res<TitleMenu>,
    meter: Res<BalanceMeter>,
    mut rows: Query<(&RowText, &Children, &mut Node, &mut BorderColor)>,
    mut texts: Query<&mut Text, Without<InfoText>>,
    mut info: Query<&mut Text, With<InfoText>>,
) {
    let labels: Vec<String> = menu
        .rows()
        .iter()
        .map(|row| match row {
            Row::Ruleset => match menu.rulesets.get(menu.ruleset) {
                Some(r) => format!("Ruleset:  < {r} >   ({} installed)", menu.rulesets.len()),
                None => "Ruleset: none installed".into(),
            },
            Row::Scenario => match menu.scenarios.get(menu.scenario) {
                Some(s) => format!(
                    "Scenario:  < {}{} >   ({} of {})",
                    s.name,
                    if s.yours { " (yours)" } else { "" },
                    menu.offered()
                        .iter()
                        .position(|i| *i == menu.scenario)
                        .map_or(0, |p| p + 1),
                    menu.offered().len()
                ),
                None => "Scenario: none installed".into(),
            },
            Row::Side(i) => {
                let name = menu
                    .scenarios
                    .get(menu.scenario)
                    .and_then(|s| s.sides.get(*i))
                    .cloned()
                    .unwrap_or_default();
                format!("{name}:  < {} >", menu.sides[*i])
            }
            Row::Start => {
                let humans = menu.sides.iter().filter(|s| s.is_human()).count();
                match humans {
                    0 => "Start battle (computer against computer)".into(),
                    1 => "Start battle".into(),
                    _ => format!("Start battle (hot-seat, {humans} players)"),
                }
            }
            Row::Balance => menu.balance_label(&meter),
            Row::Generate => format!(
                "New random field ({})",
                menu.rulesets.get(menu.ruleset).map_or("", String::as_str)
            ),
            Row::Build => "Build a skirmish (sides, units, field)".into(),
            Row::Load => "Load a battle / watch a replay".into(),
            Row::Settings => "Settings".into(),
            Row::Credits => "Credits and licences".into(),
            Row::Quit => "Quit".into(),
        })
        .collect();
    for (row, children, mut node, mut border) in &mut rows {
        super::show_menu_row(
            labels.get(row.0).map(String::as_str),
            row.0 == menu.row,
            (children, &mut node, &mut border),
            &mut texts,
        );
    }
    if let Ok(mut text) = info.single_mut() {
        let mut want = match &menu.error {
            Some(e) => e.clone(),
            None => menu
                .scenarios
                .get(menu.scenario)
                .map(|s| {
                    if s.yours {
                        let file = std::path::Path::new(&s.id)
                            .file_name()
                            .map_or_else(|| s.id.clone(), |f| f.to_string_lossy().into_owned());
                        format!(
                            "Yours ({file}, in your scenarios folder): {}",
                            s.description
                        )
                    } else {
                        s.description.clone()
                    }
                })
                .unwrap_or_default(),
        };
        if !menu.broken.is_empty() {
            // Two in full, the rest counted: more would push the menu off a 720-line window.
            const SHOWN: usize = 2;
            want.push_str(&format!(
                "\n\nNot listed: {} scenario file(s) did not load\n",
                menu.broken.len()
            ));
            want.push_str(&menu.broken[..menu.broken.len().min(SHOWN)].join("\n"));
            if menu.broken.len() > SHOWN {
                want.push_str(&format!(
                    "\n... and {} more: `gridclash validate` lists them all",
                    menu.broken.len() - SHOWN
                ));
            }
        }
        if text.0 != want {
            text.0 = want;
        }
    }
}
