//! The map editor (skirmish builder, "Edit the field by hand"): the builder's field drawn
//! square by square in the ruleset's own terrain tiles, painted, its units placed and taken
//! away, resized, with undo and redo; every change checked by `gridclash validate`'s rules,
//! the problems marked on their squares, and the result saved as a scenario and played.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;

use super::input::{GameAction, PlayerInput};
use super::session::{BattleSpec, Session, SideControl};
use super::{Screen, Settings, palette};
use crate::grid::Square;
use crate::ruleset::Rules;
use crate::scenario::edit::{Brush, MapEdit};
use crate::scenario::{Scenario, write};

/// The largest the field is drawn: its squares shrink to fit.
const FIELD_PX: Vec2 = Vec2::new(660.0, 600.0);

/// Where the keys go: the field's cursor, or the menu beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Field,
    Menu,
}

/// What a menu row does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuRow {
    /// What painting does: a terrain, placing a unit, or taking one away.
    Brush,
    /// The unit a unit brush places.
    Unit,
    /// The side it places it for.
    Side,
    Width,
    Height,
    Undo,
    Redo,
    /// Writes the scenario into the player's folder and starts it.
    SaveAndPlay,
    /// Writes the scenario into the player's folder.
    Save,
    /// Back to the builder; what was not saved is dropped.
    Back,
}

/// The menu's rows in order.
pub const MENU: [MenuRow; 10] = [
    MenuRow::Brush,
    MenuRow::Unit,
    MenuRow::Side,
    MenuRow::Width,
    MenuRow::Height,
    MenuRow::Undo,
    MenuRow::Redo,
    MenuRow::SaveAndPlay,
    MenuRow::Save,
    MenuRow::Back,
];

/// The field being edited and the editor's choices.
#[derive(Resource, Debug, Clone)]
pub struct MapEditor {
    /// The ruleset, with the characters of the player's own the field fields.
    pub rules: Arc<Rules>,
    pub edit: MapEdit,
    pub cursor: Square,
    pub focus: Focus,
    pub row: usize,
    /// Index into [`MapEditor::brushes`].
    pub brush: usize,
    /// Index into the ruleset's roster, for a unit brush.
    pub unit: usize,
    pub side: u8,
    /// The last refusal or what was saved, shown under the menu.
    pub message: Option<String>,
    /// Who plays each side when it is saved and played.
    pub players: Vec<SideControl>,
    pub seed: u64,
    /// The player's scenarios folder, where it is saved.
    pub own_dir: PathBuf,
    /// When the ruleset's files last changed as last read.
    stamp: Option<std::time::SystemTime>,
}

impl MapEditor {
    /// An editor for `scenario`, played by `players` when started.
    pub fn new(
        scenario: Scenario,
        rules: Arc<Rules>,
        players: Vec<SideControl>,
        seed: u64,
        own_dir: PathBuf,
    ) -> Self {
        let cursor = Square::new(
            scenario.map.width as i32 / 2,
            scenario.map.height as i32 / 2,
        );
        Self {
            stamp: crate::paths::newest_change(&rules.dir),
            rules,
            edit: MapEdit::new(scenario),
            cursor,
            focus: Focus::Field,
            row: 0,
            brush: 0,
            unit: 0,
            side: 0,
            message: None,
            players,
            seed,
            own_dir,
        }
    }

    /// Every brush: the ruleset's terrains in order, then placing a unit, painting the side's
    /// start zone, and taking a unit away.
    pub fn brushes(&self) -> Vec<(String, Brush)> {
        let mut out: Vec<(String, Brush)> = self
            .rules
            .terrain
            .types
            .iter()
            .map(|t| {
                (
                    format!("{} '{}'", t.name, t.symbol),
                    Brush::Terrain(t.symbol),
                )
            })
            .collect();
        let archetype = self
            .rules
            .roster
            .archetypes
            .get(self.unit)
            .map_or_else(String::new, |a| a.id.clone());
        out.push((
            "place a unit".into(),
            Brush::Unit {
                side: self.side,
                archetype,
            },
        ));
        let side = self
            .edit
            .scenario
            .sides
            .get(usize::from(self.side))
            .map_or("a side", |d| d.name.as_str());
        out.push((
            format!("{side}'s start zone (again: clear)"),
            Brush::Zone { side: self.side },
        ));
        out.push(("take a unit away".into(), Brush::Erase));
        out
    }

    /// The place of the unit brush among [`Self::brushes`] (after the terrains).
    fn unit_brush(&self) -> usize {
        self.rules.terrain.types.len()
    }

    /// Reads the ruleset again when one of its files changed since it was read (its terrain
    /// edited in a text editor, say), the field's own characters added again, so the field is
    /// checked against the new rules at once; a ruleset that no longer loads is named in the
    /// message and the old one kept. True when the files changed.
    pub fn reload_changed_rules(&mut self) -> bool {
        let now = crate::paths::newest_change(&self.rules.dir);
        if now == self.stamp {
            return false;
        }
        self.stamp = now;
        let read = Rules::load(&self.rules.dir)
            .map_err(|e| e.0.first().map(ToString::to_string).unwrap_or_default())
            .and_then(|r| {
                crate::character::add_to(&r, &self.edit.scenario.characters)
                    .map_err(|p| p.first().map(|(_, p)| p.to_string()).unwrap_or_default())
            });
        self.message = Some(match read {
            Ok(rules) => {
                self.rules = Arc::new(rules);
                self.brush = self.brush.min(self.brushes().len() - 1);
                "The ruleset changed on disk and was read again.".into()
            }
            Err(e) => format!("The ruleset changed and does not load: {e}"),
        });
        true
    }

    /// Paints the cursor's square with the brush; a refusal is shown with its rule.
    pub fn paint(&mut self) {
        let Some((_, brush)) = self.brushes().into_iter().nth(self.brush) else {
            return;
        };
        let rules = Arc::clone(&self.rules);
        self.message = self
            .edit
            .apply(&brush, self.cursor, &rules)
            .err()
            .map(|e| format!("Refused: {e}"));
    }

    /// Moves the cursor, kept on the field.
    pub fn move_cursor(&mut self, dx: i32, dy: i32) {
        let m = &self.edit.scenario.map;
        self.cursor = Square::new(
            (self.cursor.x + dx).clamp(0, m.width as i32 - 1),
            (self.cursor.y + dy).clamp(0, m.height as i32 - 1),
        );
    }

    /// Left (-1) or Right (+1) on the highlighted menu row.
    pub fn change(&mut self, step: i32) {
        self.message = None;
        let turn = |at: usize, n: usize| (at as i32 + step).rem_euclid(n.max(1) as i32) as usize;
        let rules = Arc::clone(&self.rules);
        let (w, h) = (self.edit.scenario.map.width, self.edit.scenario.map.height);
        let fill = crate::scenario::generate::open_ground(&rules)
            .map_or('.', |i| rules.terrain.types[usize::from(i)].symbol);
        let resized = |e: &mut MapEdit, w: i64, h: i64| {
            let (Ok(w), Ok(h)) = (u32::try_from(w), u32::try_from(h)) else {
                return Err("a map is at least 1 square each way".to_string());
            };
            e.resize(w, h, fill, &rules)
        };
        let result = match MENU.get(self.row) {
            Some(MenuRow::Brush) => {
                self.brush = turn(self.brush, self.brushes().len());
                Ok(())
            }
            Some(MenuRow::Unit) => {
                self.unit = turn(self.unit, rules.roster.archetypes.len());
                self.brush = self.unit_brush();
                Ok(())
            }
            Some(MenuRow::Side) => {
                self.side = turn(usize::from(self.side), self.edit.scenario.sides.len()) as u8;
                // The side is the unit brush's and the zone brush's: a zone brush stays one.
                if self.brush != self.unit_brush() + 1 {
                    self.brush = self.unit_brush();
                }
                Ok(())
            }
            Some(MenuRow::Width) => {
                resized(&mut self.edit, i64::from(w) + i64::from(step), i64::from(h))
            }
            Some(MenuRow::Height) => {
                resized(&mut self.edit, i64::from(w), i64::from(h) + i64::from(step))
            }
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.message = Some(format!("Refused: {e}"));
        }
        self.move_cursor(0, 0);
    }

    /// Takes back the last change.
    pub fn undo(&mut self) {
        self.message = (!self.edit.undo()).then(|| "Nothing to undo.".into());
        self.move_cursor(0, 0);
    }

    /// Makes the last change taken back again.
    pub fn redo(&mut self) {
        self.message = (!self.edit.redo()).then(|| "Nothing to redo.".into());
        self.move_cursor(0, 0);
    }

    /// Writes the field into the player's folder under the first free
    /// `skirmish-RULESET-N.ron`, when `validate` finds nothing wrong; returns its path.
    pub fn save(&mut self) -> Result<PathBuf, String> {
        let rules = Arc::clone(&self.rules);
        if let Some(p) = self.edit.problems(&rules).first() {
            return Err(format!("Not saved: {}", p.message));
        }
        let id = rules.manifest.id.clone();
        let path = (1..)
            .map(|n| self.own_dir.join(format!("skirmish-{id}-{n}.ron")))
            .find(|p| !p.exists())
            .ok_or("no free file name")?;
        let mut s = self.edit.scenario.clone();
        if !s.name.ends_with("(edited)") {
            s.name = format!("{} (edited)", s.name);
        }
        let text = write::to_ron(&s, "Built in Gridclash's skirmish builder and map editor.")
            .map_err(|e| e.to_string())?;
        std::fs::create_dir_all(&self.own_dir)
            .map_err(|e| format!("cannot make {}: {e}", self.own_dir.display()))?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.message = Some(format!("Saved as {}", path.display()));
        Ok(path)
    }

    /// What each menu row says.
    pub fn labels(&self) -> Vec<String> {
        let brushes = self.brushes();
        let s = &self.edit.scenario;
        MENU.iter()
            .map(|row| match row {
                MenuRow::Brush => format!(
                    "Brush:  < {} >",
                    brushes.get(self.brush).map_or("", |b| b.0.as_str())
                ),
                MenuRow::Unit => format!(
                    "Unit:  < {} >",
                    self.rules
                        .roster
                        .archetypes
                        .get(self.unit)
                        .map_or("none", |a| a.name.as_str())
                ),
                MenuRow::Side => format!(
                    "For:  < {} >",
                    s.sides
                        .get(usize::from(self.side))
                        .map_or("", |d| d.name.as_str())
                ),
                MenuRow::Width => format!("Width:  < {} >", s.map.width),
                MenuRow::Height => format!("Height:  < {} >", s.map.height),
                MenuRow::Undo => "Undo (Z)".into(),
                MenuRow::Redo => "Redo (Y)".into(),
                MenuRow::SaveAndPlay => "Save and play".into(),
                MenuRow::Save => "Save".into(),
                MenuRow::Back => "Back to the builder (unsaved changes are dropped)".into(),
            })
            .collect()
    }

    /// Under the menu: the cursor's square, then every problem `validate` finds.
    pub fn report(&self) -> String {
        let s = &self.edit.scenario;
        let mut out = Vec::new();
        let terrain = self
            .edit
            .symbol_at(self.cursor)
            .and_then(|c| self.rules.terrain_by_symbol(c))
            .map(|i| self.rules.terrain.types[usize::from(i)].name.clone())
            .unwrap_or_default();
        let unit = self
            .edit
            .unit_at(self.cursor, &self.rules)
            .map(|i| {
                let u = &s.units[i];
                format!(
                    ", {} of {}",
                    u.archetype.as_deref().unwrap_or("a unit"),
                    s.sides
                        .get(usize::from(u.side))
                        .map_or("", |d| d.name.as_str())
                )
            })
            .unwrap_or_default();
        let zone = crate::scenario::zones::zone_at(s, self.cursor)
            .and_then(|side| s.sides.get(usize::from(side)))
            .map(|d| format!(", in {}'s start zone", d.name))
            .unwrap_or_default();
        out.push(format!("{}: {terrain}{unit}{zone}", self.cursor));
        if !s.start_zones.is_empty() {
            out.push("Tinted squares: each side's start zone, in its colour.".into());
        }
        let problems = self.edit.problems(&self.rules);
        if problems.is_empty() {
            out.push("No problems: it validates.".into());
        } else {
            out.push(format!(
                "{} problem(s), marked red on the field:",
                problems.len()
            ));
            out.extend(problems.iter().take(6).map(|p| format!("- {}", p.message)));
        }
        out.join("\n")
    }
}

/// One square of the drawn field.
#[derive(Component)]
struct FieldSquare(Square);

/// The drawn field's container, and the size it was drawn for.
#[derive(Component)]
struct FieldGrid(UVec2);

/// A menu row's text, by its place in [`MENU`].
#[derive(Component)]
struct MenuRowText(usize);

/// The text under the menu.
#[derive(Component)]
struct EditorReport;

/// The terrain tiles, drawn once per visit (none in a test app without images).
#[derive(Resource)]
struct Tiles(Vec<Handle<Image>>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::MapEditor), spawn_map_editor)
        .add_systems(
            Update,
            (
                reload_map_editor_rules,
                navigate_map_editor,
                click_field_squares,
                click_menu_rows,
                draw_field,
                draw_menu,
            )
                .chain()
                .run_if(in_state(Screen::MapEditor)),
        );
}

fn spawn_map_editor(
    mut commands: Commands,
    editor: Option<Res<MapEditor>>,
    images: Option<ResMut<Assets<Image>>>,
) {
    let Some(editor) = editor else {
        return;
    };
    if let Some(mut images) = images {
        let art = super::art::make_art(&mut images, &editor.rules.terrain.types);
        commands.insert_resource(Tiles(art.terrain));
    }
    super::spawn_menu_page(
        &mut commands,
        Screen::MapEditor,
        "Edit the field",
        460.0,
        |col| {
            for i in 0..MENU.len() {
                super::spawn_menu_row_padded(col, MenuRowText(i), 460.0, 15.0, 1.0);
            }
            col.spawn((
                EditorReport,
                Text::new(""),
                TextFont::from_font_size(14.0),
                TextColor(palette::TEXT),
            ));
            col.spawn((
                Text::new(
                    "Arrows: move   Enter/click: paint   Tab: field or menu\n\
                     1-9: brush   Z/Y: undo/redo   Esc: back",
                ),
                TextFont::from_font_size(13.0),
                TextColor(palette::TEXT_DIM),
            ));
        },
        |root| {
            root.spawn((
                FieldGrid(UVec2::ZERO),
                Node {
                    flex_direction: FlexDirection::Column,
                    margin: UiRect::top(px(44)),
                    ..default()
                },
            ));
        },
    );
}

/// Once a second: the ruleset read again if its files changed (hot reload in the editor).
fn reload_map_editor_rules(time: Res<Time>, mut since: Local<f32>, mut editor: ResMut<MapEditor>) {
    *since += time.delta_secs();
    if *since >= 1.0 {
        *since = 0.0;
        // Reading through the resource does not mark it changed; only a real change does.
        if editor.stamp != crate::paths::newest_change(&editor.rules.dir) {
            editor.reload_changed_rules();
        }
    }
}

/// Keys and gamepad: Tab moves between the field and the menu; on the field the arrows move
/// the cursor and Enter paints; in the menu they pick and change rows.
fn navigate_map_editor(input: PlayerInput, mut editor: ResMut<MapEditor>, mut fx: MapEffects) {
    let Some(actions) = input.any() else {
        return;
    };
    let pressed = |a: GameAction| actions.just_pressed(&a);
    if pressed(GameAction::NextSlot) || pressed(GameAction::PrevSlot) {
        editor.focus = match editor.focus {
            Focus::Field => Focus::Menu,
            Focus::Menu => Focus::Field,
        };
    }
    for (i, slot) in GameAction::SLOTS.iter().enumerate() {
        if pressed(*slot) && i < editor.brushes().len() {
            editor.brush = i;
        }
    }
    if pressed(GameAction::Undo) {
        editor.undo();
    }
    if pressed(GameAction::Redo) {
        editor.redo();
    }
    if pressed(GameAction::Cancel) {
        fx.next.set(Screen::Builder);
        return;
    }
    match editor.focus {
        Focus::Field => {
            let (dx, dy) = (
                i32::from(pressed(GameAction::Right)) - i32::from(pressed(GameAction::Left)),
                i32::from(pressed(GameAction::Down)) - i32::from(pressed(GameAction::Up)),
            );
            if dx != 0 || dy != 0 {
                editor.move_cursor(dx, dy);
            }
            if pressed(GameAction::Confirm) {
                editor.paint();
            }
        }
        Focus::Menu => {
            let n = MENU.len();
            if pressed(GameAction::Down) {
                editor.row = (editor.row + 1) % n;
            }
            if pressed(GameAction::Up) {
                editor.row = (editor.row + n - 1) % n;
            }
            if pressed(GameAction::Left) {
                editor.change(-1);
            }
            if pressed(GameAction::Right) {
                editor.change(1);
            }
            if pressed(GameAction::Confirm) {
                run_menu_row(&mut editor, &mut fx);
            }
        }
    }
}

/// What running a menu row may touch besides the editor.
#[derive(bevy::ecs::system::SystemParam)]
struct MapEffects<'w, 's> {
    settings: Res<'w, Settings>,
    commands: Commands<'w, 's>,
    next: ResMut<'w, NextState<Screen>>,
}

/// Enter or a click on a menu row.
fn run_menu_row(editor: &mut MapEditor, fx: &mut MapEffects) {
    match MENU.get(editor.row) {
        Some(MenuRow::Undo) => editor.undo(),
        Some(MenuRow::Redo) => editor.redo(),
        Some(MenuRow::Save) => {
            if let Err(e) = editor.save() {
                editor.message = Some(e);
            }
        }
        Some(MenuRow::SaveAndPlay) => {
            let started = editor.save().and_then(|path| {
                Session::start(BattleSpec {
                    scenario: path.to_string_lossy().into_owned(),
                    seed: editor.seed,
                    sides: editor.players.clone(),
                    auto_defense: fx.settings.auto_defense,
                })
                .map_err(|e| e.to_string())
            });
            match started {
                Ok(session) => {
                    fx.commands.insert_resource(session);
                    fx.commands.remove_resource::<super::title::TitleMenu>();
                    fx.next.set(Screen::Battle);
                }
                Err(e) => editor.message = Some(e),
            }
        }
        Some(MenuRow::Back) => fx.next.set(Screen::Builder),
        _ => editor.change(1),
    }
}

/// A click on a square moves the cursor there and paints it; hovering moves the cursor.
fn click_field_squares(
    squares: Query<(&Interaction, &FieldSquare), Changed<Interaction>>,
    motion: Res<crate::gui::pointer::PointerMotion>,
    mut editor: ResMut<MapEditor>,
) {
    let pointer_moved = motion.moved();
    for (interaction, square) in &squares {
        if let Some(pointer) = super::RowPointer::of(*interaction, pointer_moved) {
            editor.cursor = square.0;
            editor.focus = Focus::Field;
            if pointer == super::RowPointer::Press {
                editor.paint();
            }
        }
    }
}

fn click_menu_rows(
    rows: Query<(&Interaction, &MenuRowText), Changed<Interaction>>,
    motion: Res<crate::gui::pointer::PointerMotion>,
    mut editor: ResMut<MapEditor>,
    mut fx: MapEffects,
) {
    let pointer_moved = motion.moved();
    for (interaction, row) in &rows {
        if let Some(pointer) = super::RowPointer::of(*interaction, pointer_moved) {
            editor.row = row.0;
            editor.focus = Focus::Menu;
            if pointer == super::RowPointer::Press {
                run_menu_row(&mut editor, &mut fx);
            }
        }
    }
}

/// The side a unit's glyph is drawn in.
fn side_colour(s: &Scenario, side: u8) -> Color {
    s.sides
        .get(usize::from(side))
        .and_then(|d| palette::parse_hex(&d.color))
        .unwrap_or(palette::TEXT)
}

/// What [`draw_field`] changes on each drawn square.
type SquareParts = (
    Entity,
    &'static FieldSquare,
    &'static mut BackgroundColor,
    &'static mut BorderColor,
    &'static Children,
    Option<&'static mut ImageNode>,
);

/// Draws the field again when the editor changes: the grid is rebuilt when the size changed,
/// then each square gets its tile, its unit's glyph, and a frame for the cursor (yellow) or
/// a problem (red).
fn draw_field(
    mut commands: Commands,
    editor: Res<MapEditor>,
    tiles: Option<Res<Tiles>>,
    mut grids: Query<(Entity, &mut FieldGrid)>,
    mut squares: Query<SquareParts>,
    mut glyphs: Query<(&mut Text, &mut TextColor)>,
) {
    if !editor.is_changed() {
        return;
    }
    let s = &editor.edit.scenario;
    let size = UVec2::new(s.map.width, s.map.height);
    let px_per = (FIELD_PX.x / size.x as f32)
        .min(FIELD_PX.y / size.y as f32)
        .clamp(6.0, 44.0)
        .floor();
    for (grid, mut drawn) in &mut grids {
        if drawn.0 == size {
            continue;
        }
        drawn.0 = size;
        commands.entity(grid).despawn_related::<Children>();
        commands.entity(grid).with_children(|g| {
            for y in 0..size.y as i32 {
                g.spawn(Node {
                    flex_direction: FlexDirection::Row,
                    ..default()
                })
                .with_children(|row| {
                    for x in 0..size.x as i32 {
                        let mut square = row.spawn((
                            FieldSquare(Square::new(x, y)),
                            Button,
                            Node {
                                width: px(px_per),
                                height: px(px_per),
                                border: UiRect::all(px(1)),
                                justify_content: JustifyContent::Center,
                                align_items: AlignItems::Center,
                                ..default()
                            },
                            BackgroundColor(palette::PANEL),
                            BorderColor::all(Color::NONE),
                        ));
                        square.with_child((
                            Text::new(""),
                            TextFont::from_font_size((px_per * 0.55).max(6.0)),
                            TextColor(palette::TEXT),
                        ));
                    }
                });
            }
        });
        // The new squares are drawn next frame, when they exist.
        return;
    }
    let problems: Vec<Square> = editor
        .edit
        .problems(&editor.rules)
        .into_iter()
        .filter_map(|p| p.square)
        .collect();
    for (entity, square, mut background, mut border, children, image) in &mut squares {
        let at = square.0;
        let terrain = editor
            .edit
            .symbol_at(at)
            .and_then(|c| editor.rules.terrain_by_symbol(c));
        // Without tiles (a test app), the terrain's symbol stands in for its look.
        let tile = terrain.and_then(|t| tiles.as_ref().and_then(|ts| ts.0.get(usize::from(t))));
        // A start zone square is tinted its side's colour.
        let zone = crate::scenario::zones::zone_at(s, at).map(|side| side_colour(s, side));
        let tint = zone.map_or(Color::WHITE, |c| c.mix(&Color::WHITE, 0.45));
        match (tile, image) {
            (Some(t), Some(mut image)) => {
                if image.image != *t {
                    image.image = t.clone();
                }
                if image.color != tint {
                    image.color = tint;
                }
            }
            (Some(t), None) => {
                commands
                    .entity(entity)
                    .insert(ImageNode::new(t.clone()).with_color(tint));
            }
            _ => {}
        }
        *background = BackgroundColor(match (tile, zone) {
            (Some(_), _) => Color::NONE,
            (None, Some(c)) => c.darker(0.3),
            (None, None) => palette::PANEL,
        });
        let frame = if at == editor.cursor {
            palette::ACTIVE
        } else if problems.contains(&at) {
            palette::DANGER
        } else {
            Color::NONE
        };
        *border = BorderColor::all(frame);
        let unit = editor.edit.unit_at(at, &editor.rules);
        let (glyph, colour) = match unit.map(|i| &s.units[i]) {
            Some(u) => {
                let glyph = u
                    .archetype
                    .as_deref()
                    .and_then(|id| editor.rules.archetype(id))
                    .map_or("?", |a| a.glyph.as_str());
                (glyph.to_string(), side_colour(s, u.side))
            }
            None if tile.is_none() => (
                editor
                    .edit
                    .symbol_at(at)
                    .map(String::from)
                    .unwrap_or_default(),
                palette::TEXT_DIM,
            ),
            None => (String::new(), palette::TEXT),
        };
        if let Ok((mut text, mut tint)) = glyphs.get_mut(children[0]) {
            if text.0 != glyph {
                text.0 = glyph;
            }
            tint.0 = colour;
        }
    }
}

/// Writes the menu rows and the report under them.
fn draw_menu(
    editor: Res<MapEditor>,
    mut rows: Query<(&MenuRowText, &Children, &mut Node, &mut BorderColor), Without<FieldSquare>>,
    mut texts: Query<&mut Text, (Without<EditorReport>, Without<FieldSquare>)>,
    mut report: Query<&mut Text, With<EditorReport>>,
) {
    if !editor.is_changed() {
        return;
    }
    let labels = editor.labels();
    for (row, children, mut node, mut border) in &mut rows {
        super::show_menu_row(
            labels.get(row.0).map(String::as_str),
            editor.focus == Focus::Menu && row.0 == editor.row,
            (children, &mut node, &mut border),
            &mut texts,
        );
    }
    let mut words = editor.report();
    if let Some(m) = &editor.message {
        words = format!("{m}\n{words}");
    }
    for mut text in &mut report {
        if text.0 != words {
            text.0 = words.clone();
        }
    }
}
