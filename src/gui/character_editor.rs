//! The character editor (skirmish builder, "Make a character of your own"): the ruleset's own
//! sheet for one character, started from a roster entry, every value checked by the ruleset's
//! roster rules as it changes, saved to the user folder and fielded by a side of the builder.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;

use super::input::{GameAction, PlayerInput};
use super::{Screen, palette};
use crate::character::{self, Character, Field, Value};
use crate::ruleset::Rules;

/// The longest name the editor takes.
const MAX_NAME: usize = 24;

/// What an editor row does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditRow {
    /// Which roster entry the character starts from (its values are taken over).
    Template,
    /// The character's name: Enter starts and ends typing it.
    Name,
    /// Which side of the skirmish it joins.
    Joins,
    /// Field `i` of the sheet ([`Character::fields`]).
    Field(usize),
    /// Writes it to the user folder and hands it to the builder.
    Save,
    /// Back to the builder, nothing saved.
    Back,
}

/// The character being made, and the highlighted row.
#[derive(Resource, Debug, Clone)]
pub struct CharacterEditor {
    pub rules: Arc<Rules>,
    /// The roster entries it can start from.
    pub templates: Vec<Character>,
    pub template: usize,
    pub character: Character,
    pub name: String,
    /// The side it joins, of `sides`.
    pub joins: usize,
    pub sides: usize,
    pub row: usize,
    /// Typed characters go to the name.
    pub typing: bool,
    /// The last refusal or failure, shown under the rows.
    pub message: Option<String>,
    /// The data directory, whose `characters/` folder it is saved in.
    pub data: PathBuf,
    /// Typing ended this frame: the Enter that ended it must not also run the row.
    just_named: bool,
    /// When the ruleset's files last changed as last read (see
    /// [`CharacterEditor::reload_changed_rules`]).
    stamp: Option<std::time::SystemTime>,
}

impl CharacterEditor {
    /// An editor for `rules`, starting from its first roster entry, for a skirmish of `sides`;
    /// none when the roster has no entry to start from.
    pub fn new(rules: Arc<Rules>, sides: usize, data: PathBuf) -> Option<Self> {
        let templates = Character::templates(&rules);
        let name = "New Hero".to_string();
        let mut character = templates.first()?.clone();
        character.rename(&name);
        Some(Self {
            templates,
            template: 0,
            character,
            name,
            joins: 0,
            sides,
            row: 0,
            typing: false,
            message: None,
            stamp: crate::paths::newest_change(&rules.dir),
            rules,
            data,
            just_named: false,
        })
    }

    /// Reads the ruleset again when one of its files changed since it was read, so an edit of
    /// its limits in a text editor holds at once: the sheet is checked against the new rules.
    /// A ruleset that no longer loads is named in the message, and the old one kept until it
    /// is mended. True when the files changed.
    pub fn reload_changed_rules(&mut self) -> bool {
        let now = crate::paths::newest_change(&self.rules.dir);
        if now == self.stamp {
            return false;
        }
        self.stamp = now;
        match Rules::load(&self.rules.dir) {
            Ok(rules) => {
                self.rules = Arc::new(rules);
                self.templates = Character::templates(&self.rules);
                self.template = self.template.min(self.templates.len().saturating_sub(1));
                self.message = Some("The ruleset changed on disk and was read again.".into());
            }
            Err(e) => {
                let first = e.0.first().map(ToString::to_string).unwrap_or_default();
                self.message = Some(format!("The ruleset changed and does not load: {first}"));
            }
        }
        true
    }

    /// The sheet's fields as they stand.
    pub fn fields(&self) -> Vec<Field> {
        self.character.fields(&self.rules)
    }

    /// The rows in order.
    pub fn rows(&self) -> Vec<EditRow> {
        let mut rows = vec![EditRow::Template, EditRow::Name, EditRow::Joins];
        rows.extend((0..self.fields().len()).map(EditRow::Field));
        rows.extend([EditRow::Save, EditRow::Back]);
        rows
    }

    /// Left (-1) or Right (+1) on the highlighted row. A value the ruleset forbids is
    /// refused: the message names the rule and the value stays.
    pub fn change(&mut self, step: i64) {
        self.message = None;
        match self.rows().get(self.row).copied() {
            Some(EditRow::Template) => {
                let n = self.templates.len().max(1) as i64;
                self.template = (self.template as i64 + step).rem_euclid(n) as usize;
                if let Some(t) = self.templates.get(self.template) {
                    self.character = t.clone();
                    self.character.rename(&self.name);
                }
            }
            Some(EditRow::Joins) => {
                let n = self.sides.max(1) as i64;
                self.joins = (self.joins as i64 + step).rem_euclid(n) as usize;
            }
            Some(EditRow::Field(i)) => {
                if let Some(f) = self.fields().get(i) {
                    let key = f.key.clone();
                    if let Err(refused) = self.character.step(&self.rules, &key, step) {
                        self.message = Some(format!("Refused: {}", refused.message));
                    }
                }
            }
            _ => {}
        }
    }

    /// Types `text` into the name (letters, digits, spaces, `-` and `'`), up to 24 characters.
    pub fn type_text(&mut self, text: &str) {
        for ch in text.chars() {
            let allowed = ch.is_alphanumeric() || [' ', '-', '\''].contains(&ch);
            if allowed && self.name.chars().count() < MAX_NAME {
                self.name.push(ch);
            }
        }
        self.character.rename(&self.name);
    }

    /// Deletes the name's last character.
    pub fn backspace(&mut self) {
        self.name.pop();
        self.character.rename(&self.name);
    }

    /// Every rule the character breaks now, one a line; empty when it is ready to save.
    pub fn problems(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .character
            .problems(&self.rules)
            .iter()
            .map(ToString::to_string)
            .collect();
        if self.name.trim().is_empty() {
            out.push("name: a character needs a name".into());
        }
        out
    }

    /// Saves the character to the user folder when no rule is broken, and returns its id.
    pub fn save(&mut self) -> Result<String, String> {
        let problems = self.problems();
        if let Some(first) = problems.first() {
            return Err(format!(
                "Not saved: {first}{}",
                if problems.len() > 1 {
                    format!(" (and {} more, on the right)", problems.len() - 1)
                } else {
                    String::new()
                }
            ));
        }
        character::save(&self.data, &self.rules.manifest.id, &self.character)
            .map(|_| self.character.id().to_string())
            .map_err(|e| format!("Not saved: {e}"))
    }

    /// What each row says.
    pub fn labels(&self) -> Vec<String> {
        let fields = self.fields();
        let side_names = crate::scenario::generate::side_names(self.sides.max(2));
        self.rows()
            .iter()
            .map(|row| match *row {
                EditRow::Template => format!(
                    "Start from:  < {} >",
                    self.templates
                        .get(self.template)
                        .map_or("nothing", |t| t.name())
                ),
                EditRow::Name if self.typing => {
                    format!("Name:  {}_   (type; Enter: done)", self.name)
                }
                EditRow::Name => format!("Name:  {}   (Enter: type a name)", self.name),
                EditRow::Joins => format!(
                    "Joins:  < {} >",
                    side_names.get(self.joins).map_or("side 1", String::as_str)
                ),
                EditRow::Field(i) => fields.get(i).map_or_else(String::new, field_label),
                EditRow::Save => "Save and add to the skirmish".into(),
                EditRow::Back => "Back to the builder".into(),
            })
            .collect()
    }

    /// The right-hand panel: what the character is and every rule it breaks.
    pub fn panel(&self) -> String {
        let mut out = vec![
            format!("{} ({})", self.character.name(), self.character.id()),
            format!(
                "{} character, kept in {}",
                self.rules.manifest.name,
                character::file_in(&self.data, &self.rules.manifest.id, self.character.id())
                    .display()
            ),
            String::new(),
        ];
        let problems = self.problems();
        if problems.is_empty() {
            out.push("Ready: it breaks no rule of the ruleset.".into());
        } else {
            out.push("Before it can be saved:".into());
            out.extend(problems.iter().map(|p| format!("- {p}")));
        }
        let cost = self.character.points(&self.rules);
        out.push(String::new());
        out.push(format!(
            "Costs {} points in a skirmish with a budget:",
            cost.total
        ));
        let lines: Vec<String> = cost
            .lines
            .iter()
            .map(|l| format!("{} {:+}", l.what, l.points))
            .collect();
        for chunk in lines.chunks(3) {
            out.push(format!("  {}", chunk.join(", ")));
        }
        out.join("\n")
    }
}

/// A field's row: its heading, name and value.
fn field_label(f: &Field) -> String {
    match &f.value {
        Value::Number(v) => format!("{}: {}:  < {v} >", f.group, f.label),
        Value::Choice { chosen, options } => format!(
            "{}: {}:  < {} >",
            f.group,
            f.label,
            options
                .iter()
                .find(|(id, _)| id == chosen)
                .map_or(chosen.as_str(), |(_, l)| l.as_str())
        ),
        Value::Toggle(on) => format!(
            "{}:  [{}] {}",
            f.group,
            if *on { "x" } else { " " },
            f.label
        ),
    }
}

/// Marks an editor row's text; `0` is its place on screen, not in [`CharacterEditor::rows`].
#[derive(Component)]
struct EditRowText(usize);

/// The editor's texts other than its rows.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum EditPart {
    /// The character and the rules it breaks.
    Panel,
    /// The refusal or help under the rows.
    Message,
}

/// The most rows shown at once; the list scrolls to keep the highlight in view.
const VISIBLE: usize = 24;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::CharacterEditor), spawn_editor)
        .add_systems(
            Update,
            (
                reload_editor_rules,
                type_character_name,
                navigate_editor,
                click_editor_rows,
                draw_editor,
            )
                .chain()
                .run_if(in_state(Screen::CharacterEditor)),
        );
}

fn spawn_editor(mut commands: Commands) {
    super::spawn_menu_page(
        &mut commands,
        Screen::CharacterEditor,
        "Make a character",
        600.0,
        |col| {
            for i in 0..VISIBLE {
                super::spawn_menu_row_padded(col, EditRowText(i), 600.0, 15.0, 1.0);
            }
            col.spawn((
                EditPart::Message,
                Text::new(""),
                TextFont::from_font_size(15.0),
                TextColor(palette::TEXT_DIM),
            ));
        },
        |root| {
            root.spawn((
                EditPart::Panel,
                Text::new(""),
                TextFont::from_font_size(15.0),
                TextColor(palette::TEXT),
                Node {
                    width: px(560),
                    margin: UiRect::top(px(48)),
                    ..default()
                },
            ));
        },
    );
}

/// Once a second: the ruleset read again if its files changed (hot reload in the editor).
fn reload_editor_rules(
    time: Res<Time>,
    mut since: Local<f32>,
    mut editor: ResMut<CharacterEditor>,
) {
    *since += time.delta_secs();
    if *since >= 1.0 {
        *since = 0.0;
        // Reading through the resource does not mark it changed; only a real change does.
        if editor.stamp != crate::paths::newest_change(&editor.rules.dir) {
            editor.reload_changed_rules();
        }
    }
}

/// While the name is being typed: letters go to it, Backspace deletes, Enter or Escape ends.
fn type_character_name(
    mut typed: MessageReader<bevy::input::keyboard::KeyboardInput>,
    keys: Res<ButtonInput<KeyCode>>,
    mut editor: ResMut<CharacterEditor>,
) {
    if !editor.typing {
        typed.clear();
        return;
    }
    if keys.just_pressed(KeyCode::Backspace) {
        editor.backspace();
    }
    for key in typed.read() {
        if key.state != bevy::input::ButtonState::Pressed {
            continue;
        }
        match &key.logical_key {
            bevy::input::keyboard::Key::Character(c) => editor.type_text(c),
            bevy::input::keyboard::Key::Space => editor.type_text(" "),
            _ => {}
        }
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::Escape) {
        editor.typing = false;
        editor.just_named = true;
    }
}

/// Keys and gamepad: move, change, act; Escape goes back to the builder.
fn navigate_editor(input: PlayerInput, mut editor: ResMut<CharacterEditor>, mut fx: EditEffects) {
    if editor.typing {
        return;
    }
    if editor.just_named {
        editor.just_named = false;
        return;
    }
    let Some(actions) = input.any() else {
        return;
    };
    let rows = editor.rows().len();
    if actions.just_pressed(&GameAction::Down) {
        editor.row = (editor.row + 1) % rows;
    }
    if actions.just_pressed(&GameAction::Up) {
        editor.row = (editor.row + rows - 1) % rows;
    }
    if actions.just_pressed(&GameAction::Left) {
        editor.change(-1);
    }
    if actions.just_pressed(&GameAction::Right) {
        editor.change(1);
    }
    if actions.just_pressed(&GameAction::Cancel) {
        fx.next.set(Screen::Builder);
    }
    if actions.just_pressed(&GameAction::Confirm) {
        run_edit_row(&mut editor, &mut fx);
    }
}

/// A character the editor saved, for the builder to field when it is shown again: its id
/// and the side it joins.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct SavedCharacter {
    pub id: String,
    pub side: usize,
}

/// What running an editor row may touch besides the editor.
#[derive(bevy::ecs::system::SystemParam)]
struct EditEffects<'w, 's> {
    commands: Commands<'w, 's>,
    next: ResMut<'w, NextState<Screen>>,
}

/// Enter or a click on a row: typing the name, saving, going back, or stepping the value.
fn run_edit_row(editor: &mut CharacterEditor, fx: &mut EditEffects) {
    match editor.rows().get(editor.row).copied() {
        Some(EditRow::Name) => {
            editor.typing = true;
            editor.message = None;
        }
        Some(EditRow::Save) => match editor.save() {
            Ok(id) => {
                fx.commands.insert_resource(SavedCharacter {
                    id,
                    side: editor.joins,
                });
                fx.next.set(Screen::Builder);
            }
            Err(e) => editor.message = Some(e),
        },
        Some(EditRow::Back) => fx.next.set(Screen::Builder),
        _ => editor.change(1),
    }
}

fn click_editor_rows(
    rows: Query<(&Interaction, &EditRowText), Changed<Interaction>>,
    motion: Res<crate::gui::pointer::PointerMotion>,
    mut editor: ResMut<CharacterEditor>,
    mut fx: EditEffects,
) {
    let pointer_moved = motion.moved();
    let first = super::first_shown(editor.row, editor.rows().len(), VISIBLE);
    for (interaction, row) in &rows {
        if let Some(pointer) = super::RowPointer::of(*interaction, pointer_moved) {
            editor.row = first + row.0;
            if pointer == super::RowPointer::Press {
                run_edit_row(&mut editor, &mut fx);
            }
        }
    }
}

/// Writes the rows in view, the message and the panel when the editor changes.
fn draw_editor(
    editor: Res<CharacterEditor>,
    mut rows: Query<(&EditRowText, &Children, &mut Node, &mut BorderColor)>,
    mut texts: Query<&mut Text, Without<EditPart>>,
    mut parts: Query<(&EditPart, &mut Text, &mut TextColor)>,
) {
    if !editor.is_changed() {
        return;
    }
    for (part, mut text, mut colour) in &mut parts {
        let (want, tint) = match part {
            EditPart::Panel => (editor.panel(), palette::TEXT),
            EditPart::Message => match &editor.message {
                Some(m) if m.starts_with("Refused") || m.starts_with("Not saved") => {
                    (m.clone(), palette::DANGER)
                }
                Some(m) => (m.clone(), palette::TEXT_DIM),
                None => (
                    "Up/Down: row   Left/Right: change   Enter: act   Esc: back".into(),
                    palette::TEXT_DIM,
                ),
            },
        };
        if text.0 != want {
            text.0 = want;
        }
        colour.0 = tint;
    }
    let labels = editor.labels();
    let first = super::first_shown(editor.row, labels.len(), VISIBLE);
    for (row, children, mut node, mut border) in &mut rows {
        let at = first + row.0;
        super::show_menu_row(
            labels.get(at).map(String::as_str),
            at == editor.row,
            (children, &mut node, &mut border),
            &mut texts,
        );
    }
}
