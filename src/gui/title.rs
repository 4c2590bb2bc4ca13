//! The title screen: choose a scenario and who plays each side (a person, or the computer at a
//! level; two or more people is hot-seat), then start the battle or quit.

use bevy::prelude::*;

use super::input::{GameAction, PlayerInput};
use super::session::{BattleSpec, Session, SideControl};
use super::{PlayOptions, Screen, Settings, palette};
use crate::ai::Policy;
use crate::gui::input::InputProfile;
use crate::scenario;

/// One shipped scenario as the menu lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioChoice {
    pub id: String,
    pub name: String,
    pub ruleset: String,
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
}

/// What a row of the title menu does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Ruleset,
    Scenario,
    Side(usize),
    Start,
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
    /// Lists the shipped scenarios; the first side is a person, the others the normal AI.
    pub fn new(seed: u64) -> Self {
        Self::from_files(&scenario::shipped(), seed)
    }

    /// Lists the scenarios in `files` that load, and why each of the others does not.
    pub fn from_files(files: &[std::path::PathBuf], seed: u64) -> Self {
        let mut scenarios: Vec<ScenarioChoice> = Vec::new();
        let mut broken = Vec::new();
        for path in files {
            match scenario::load(path) {
                Ok(l) => scenarios.push(ScenarioChoice {
                    id: l.id(),
                    name: l.scenario.name.clone(),
                    ruleset: l.rules.manifest.name.clone(),
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
        scenarios.sort_by_key(|s| !s.guided);
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
    // The window plugin registers it too; headless tests have no window plugin.
    app.add_message::<bevy::window::CursorMoved>()
        .add_systems(OnEnter(Screen::Title), spawn_title)
        .add_systems(
            Update,
            (navigate_title, click_title_rows, draw_title)
                .chain()
                .run_if(in_state(Screen::Title)),
        );
}

fn spawn_title(mut commands: Commands, options: Res<PlayOptions>, menu: Option<Res<TitleMenu>>) {
    if menu.is_none() {
        commands.insert_resource(TitleMenu::new(options.seed));
    }
    commands
        .spawn(super::screen_root("Title screen", Screen::Title, 8.0))
        .with_children(|root| {
            root.spawn((
                Text::new("GRIDCLASH"),
                crate::gui::fonts::heading(56.0),
                TextColor(palette::ACCENT),
            ));
            root.spawn((
                Text::new("Tabletop combat on a grid, every roll shown"),
                TextFont::from_font_size(18.0),
                TextColor(palette::TEXT_DIM),
                Node {
                    margin: UiRect::bottom(px(24)),
                    ..default()
                },
            ));
            for i in 0..14 {
                super::spawn_menu_row(root, RowText(i), 700.0, 20.0);
            }
            root.spawn((
                InfoText,
                Text::new(""),
                TextFont::from_font_size(16.0),
                TextColor(palette::TEXT_DIM),
                Node {
                    width: px(700),
                    max_width: percent(94),
                    margin: UiRect::top(px(16)),
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
fn navigate_title(
    input: PlayerInput,
    mut menu: ResMut<TitleMenu>,
    settings: Res<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) {
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
        activate(&mut menu, &settings, &mut commands, &mut next, &mut exit);
    }
}

/// Runs the highlighted row: Start begins the battle, Quit leaves, others step their value.
fn activate(
    menu: &mut TitleMenu,
    settings: &Settings,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    exit: &mut MessageWriter<AppExit>,
) {
    match menu.rows().get(menu.row) {
        Some(Row::Start) => match menu.spec(settings.auto_defense).map(Session::start) {
            Some(Ok(session)) => {
                menu.error = None;
                commands.insert_resource(session);
                next.set(Screen::Battle);
            }
            Some(Err(e)) => menu.error = Some(e.to_string()),
            None => menu.error = Some("no scenario is installed under assets/scenarios".into()),
        },
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

fn click_title_rows(
    rows: Query<(&Interaction, &RowText), Changed<Interaction>>,
    mut moved: MessageReader<bevy::window::CursorMoved>,
    mut menu: ResMut<TitleMenu>,
    settings: Res<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) {
    // Hovering moves the highlight only when the pointer really moved: a pointer resting
    // where a row appears must not steal the keyboard's highlight.
    let pointer_moved = moved.read().count() > 0;
    for (interaction, row) in &rows {
        match interaction {
            Interaction::Hovered if pointer_moved => menu.row = row.0,
            Interaction::Pressed => {
                menu.row = row.0;
                activate(&mut menu, &settings, &mut commands, &mut next, &mut exit);
            }
            Interaction::Hovered | Interaction::None => {}
        }
    }
}

fn draw_title(
    menu: Res<TitleMenu>,
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
                    "Scenario:  < {} >   ({} of {})",
                    s.name,
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
            Row::Load => "Load a battle / watch a replay".into(),
            Row::Settings => "Settings".into(),
            Row::Credits => "Credits and licences".into(),
            Row::Quit => "Quit".into(),
        })
        .collect();
    for (row, children, mut node, mut border) in &mut rows {
        let display = if row.0 < labels.len() {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
        *border = BorderColor::all(if row.0 == menu.row {
            palette::ACCENT
        } else {
            Color::NONE
        });
        if let Some(label) = labels.get(row.0)
            && let Some(child) = children.first()
            && let Ok(mut text) = texts.get_mut(*child)
            && text.0 != *label
        {
            text.0.clone_from(label);
        }
    }
    if let Ok(mut text) = info.single_mut() {
        let mut want = match &menu.error {
            Some(e) => format!("Could not start: {e}"),
            None => menu
                .scenarios
                .get(menu.scenario)
                .map(|s| s.description.clone())
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
