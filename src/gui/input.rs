//! What a player can ask of the game, as `leafwing-input-manager` actions, with the default
//! keyboard-and-mouse and gamepad bindings; and the square under the cursor.

use std::collections::BTreeMap;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

use crate::grid::Square;

/// Every input the game reacts to. Systems read these, never raw keys, so bindings can change.
#[derive(
    Actionlike,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Clone,
    Copy,
    Hash,
    Debug,
    Reflect,
    Serialize,
    Deserialize,
)]
pub enum GameAction {
    /// Click a square: move there, attack it, or press the highlighted menu item.
    Select,
    /// Back out of moving or aiming; answer "no" to an Exploit prompt.
    Cancel,
    /// Confirm a hand-off screen, an end-of-battle screen or a menu choice.
    Confirm,
    /// Choose where to move at Normal Speed.
    Move,
    /// The second kind of move: at Boosted Speed (DBU, costs Ki) or a jump (the ninja
    /// chapter); no ruleset has both.
    BoostedMove,
    /// Aim the action bar's first … ninth attacking maneuver.
    Slot1,
    Slot2,
    Slot3,
    Slot4,
    Slot5,
    Slot6,
    Slot7,
    Slot8,
    Slot9,
    /// The next or previous maneuver in the action bar.
    NextSlot,
    PrevSlot,
    /// Wager one more or one less Ki on the Wound Roll.
    WagerUp,
    WagerDown,
    /// Turn a cone or line placed on a chosen square.
    Rotate,
    PowerUp,
    /// Combat Recovery with 2 actions.
    Recover,
    EndTurn,
    /// Digimon: let one's partner (Tamer or Digimon) act now in the turn they share; d20:
    /// delay one's turn behind the next combatant in the order.
    HandOver,
    /// Digimon: Digivolve to the higher stage the action bar names (a Simple Action).
    Digivolve,
    /// Digimon: take to the air, or land when in the air (a Move, a Simple Action).
    Fly,
    /// Digimon: Use a Skill on a square beside the unit (a Simple Action; pressed again, the
    /// free check of the round's Interrupt Action).
    UseSkill,
    /// d20: Drop prone where the unit stands, a swift action (against a shot on another's
    /// turn, the prompt's Deflect key answers with it instead).
    DropProne,
    /// d20: Dive for cover on the unit's own turn, a Move action (prone in the best cover
    /// within reach, a Dodge check kept for the first shot).
    DiveForCover,
    /// DBU: stand up from Prone (one Action).
    StandUp,
    /// DBU: try to end the condition the action bar names (one Action and a Morale Save).
    EndCondition,
    /// DBU: try to cure one's poison (one Action and a Medicine check).
    CurePoison,
    /// DBU: an Energy Charge for the attack being aimed, or once more for the charged one.
    EnergyCharge,
    /// DBU: cancel one's Energy Charge (No Effort, an Instant; the charges are lost).
    CancelCharge,
    /// DBU: the Arrogant Declaration (Superiority now, a penalty for the rest of the battle).
    ArrogantDeclaration,
    /// DBU: make the aimed attack a Called Shot at the next body part (none, head, eyes…);
    /// d20: the next aimed shot (at the armour's gaps, through the cover, both, none).
    CalledShot,
    /// DBU: the next adjacent ally to join the aimed attack with a United Attack, then none.
    UnitedAttack,
    /// DBU: choose an ally to Empower; pressed again, one Action more, then the Full
    /// Empowerment, then off.
    Empower,
    /// DBU: choose the grappling maneuver (Grapple; from a hold Pin, Absorb, Release; held, an
    /// escape with 1, 2, 3 Actions), pressed again the next, then off; then click the target.
    Grapple,
    /// DBU: Hide (a Stealth check against every opponent's Perception).
    Hide,
    /// Answer a defense prompt: Dodge (take it in power stages), Parry (DBU; Block in shinobi,
    /// block with a card in power stages), Deflect (shinobi) or Reflect (DBU, the third key).
    Dodge,
    Parry,
    Deflect,
    /// Shinobi: make the aimed attack a sneak attack (toggle); d20: choose a foe to feint at.
    Sneak,
    /// Shinobi: cast a counter jutsu with the next defense answer (toggle).
    Counter,
    /// Play the computer's turns without pauses until a person must act.
    SkipAi,
    /// Show every roll of the combat log with its dice and modifiers.
    ToggleLog,
    /// Scroll the combat log back to older lines, or forward to the newest.
    LogOlder,
    LogNewer,
    /// Open or close the pause menu.
    Pause,
    /// Save to the quick slot at once; on the end screen, keep the battle as a replay.
    QuickSave,
    /// Load the quick slot.
    QuickLoad,
    /// Take back the last command of this turn that rolled nothing; give it again.
    Undo,
    Redo,
    /// Menus: move the highlight.
    Up,
    Down,
    Left,
    Right,
    /// The board: move the cursor square one step (the gamepad's d-pad; the mouse points).
    CursorUp,
    CursorDown,
    CursorLeft,
    CursorRight,
    /// Camera.
    #[actionlike(DualAxis)]
    Pan,
    #[actionlike(Axis)]
    Zoom,
    /// Zoom while held (keys, the right stick).
    #[actionlike(Axis)]
    ZoomHold,
    /// Hold and move the mouse to drag the map.
    Drag,
    /// Bring the unit that acts back to the middle of the board, and follow the action again
    /// after panning by hand.
    CentreCamera,
    /// Switch between a window and borderless fullscreen.
    ToggleFullscreen,
    /// Show or hide every square the opponents could attack on their next turn.
    ThreatOverlay,
    /// Open or close the help screen: the controls and the ruleset's glossary.
    Help,
    /// Show only some lines of the combat log: attacks, health, moves, one unit's, all.
    LogFilter,
}

impl GameAction {
    /// The action's name as words, for the help screen and the settings: `EndTurn` → "End turn".
    pub fn words(self) -> String {
        // Keys that mean something else in another ruleset say both.
        match self {
            Self::BoostedMove => return "Boosted move or jump".into(),
            Self::Sneak => return "Sneak attack or feint".into(),
            Self::CalledShot => return "Called shot or aimed shot".into(),
            _ => {}
        }
        let name = format!("{self:?}");
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            if i > 0 && c.is_uppercase() {
                out.push(' ');
                out.extend(c.to_lowercase());
            } else if i > 0 && c.is_ascii_digit() && !out.ends_with(' ') {
                out.push(' ');
                out.push(c);
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The action bar slot this action aims, if it is one.
    pub fn slot(self) -> Option<usize> {
        match self {
            Self::Slot1 => Some(0),
            Self::Slot2 => Some(1),
            Self::Slot3 => Some(2),
            Self::Slot4 => Some(3),
            Self::Slot5 => Some(4),
            Self::Slot6 => Some(5),
            Self::Slot7 => Some(6),
            Self::Slot8 => Some(7),
            Self::Slot9 => Some(8),
            _ => None,
        }
    }

    /// The slot actions in order.
    pub const SLOTS: [GameAction; 9] = [
        Self::Slot1,
        Self::Slot2,
        Self::Slot3,
        Self::Slot4,
        Self::Slot5,
        Self::Slot6,
        Self::Slot7,
        Self::Slot8,
        Self::Slot9,
    ];
}

/// The digit keys 0 to 9, in order.
pub const DIGIT_KEYS: [KeyCode; 10] = [
    KeyCode::Digit0,
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

/// The default keyboard bindings, action by action (the part a player can rebind).
pub fn default_keys() -> BTreeMap<GameAction, Vec<KeyCode>> {
    use GameAction as A;
    use KeyCode as K;
    let mut keys: BTreeMap<GameAction, Vec<KeyCode>> = BTreeMap::from([
        (A::Cancel, vec![K::Escape]),
        (A::Confirm, vec![K::Enter, K::Space]),
        (A::Move, vec![K::KeyM]),
        (A::BoostedMove, vec![K::KeyB]),
        (A::NextSlot, vec![K::Tab]),
        (A::WagerUp, vec![K::Equal, K::NumpadAdd]),
        (A::WagerDown, vec![K::Minus, K::NumpadSubtract]),
        (A::Rotate, vec![K::KeyR]),
        (A::PowerUp, vec![K::KeyU]),
        (A::Recover, vec![K::KeyH]),
        (A::EndTurn, vec![K::KeyT]),
        (A::HandOver, vec![K::KeyG]),
        (A::Digivolve, vec![K::Quote]),
        (A::Fly, vec![K::Backslash]),
        (A::UseSkill, vec![K::KeyK]),
        (A::DropProne, vec![K::KeyO]),
        (A::DiveForCover, vec![K::Backquote]),
        (A::StandUp, vec![K::KeyN]),
        (A::EndCondition, vec![K::KeyX]),
        (A::CurePoison, vec![K::KeyQ]),
        (A::EnergyCharge, vec![K::KeyA]),
        (A::CancelCharge, vec![K::KeyV]),
        (A::ArrogantDeclaration, vec![K::KeyI]),
        (A::CalledShot, vec![K::KeyJ]),
        (A::UnitedAttack, vec![K::Comma]),
        (A::Empower, vec![K::KeyW]),
        (A::Grapple, vec![K::Semicolon]),
        (A::Hide, vec![K::Period]),
        (A::Dodge, vec![K::KeyD]),
        (A::Parry, vec![K::KeyP]),
        (A::Deflect, vec![K::KeyE]),
        (A::Sneak, vec![K::KeyS]),
        (A::Counter, vec![K::KeyC]),
        (A::SkipAi, vec![K::KeyF]),
        (A::ToggleLog, vec![K::KeyL]),
        (A::LogOlder, vec![K::BracketLeft]),
        (A::LogNewer, vec![K::BracketRight]),
        (A::Pause, vec![K::F10]),
        (A::CentreCamera, vec![K::Home]),
        (A::ToggleFullscreen, vec![K::F11]),
        (A::ThreatOverlay, vec![K::F2]),
        (A::Help, vec![K::F1]),
        (A::LogFilter, vec![K::Slash]),
        (A::QuickSave, vec![K::F5]),
        (A::QuickLoad, vec![K::F9]),
        (A::Undo, vec![K::KeyZ, K::Backspace]),
        (A::Redo, vec![K::KeyY]),
        (A::Up, vec![K::ArrowUp]),
        (A::Down, vec![K::ArrowDown]),
        (A::Left, vec![K::ArrowLeft]),
        (A::Right, vec![K::ArrowRight]),
    ]);
    for (slot, key) in GameAction::SLOTS.into_iter().zip(&DIGIT_KEYS[1..]) {
        keys.insert(slot, vec![*key]);
    }
    keys
}

/// The input map for a set of keyboard bindings and the mouse.
pub fn keyboard_mouse_map(keys: &BTreeMap<GameAction, Vec<KeyCode>>) -> InputMap<GameAction> {
    use GameAction as A;
    let mut map = InputMap::default()
        .with(A::Select, MouseButton::Left)
        .with(A::Cancel, MouseButton::Right)
        .with(A::Drag, MouseButton::Middle)
        .with_dual_axis(A::Pan, VirtualDPad::arrow_keys())
        .with_axis(A::Zoom, MouseScrollAxis::Y)
        .with_axis(
            A::ZoomHold,
            VirtualAxis::new(KeyCode::PageDown, KeyCode::PageUp),
        );
    for (action, codes) in keys {
        for key in codes {
            map.insert(*action, *key);
        }
    }
    map
}

/// The gamepad bindings (any gamepad until one is assigned with `set_gamepad`).
pub fn gamepad_map() -> InputMap<GameAction> {
    use GameAction as A;
    InputMap::default()
        .with(A::Select, GamepadButton::South)
        .with(A::Cancel, GamepadButton::East)
        .with(A::Confirm, GamepadButton::Start)
        .with(A::Move, GamepadButton::West)
        .with(A::NextSlot, GamepadButton::RightTrigger)
        .with(A::PrevSlot, GamepadButton::LeftTrigger)
        .with(A::WagerUp, GamepadButton::RightTrigger2)
        .with(A::WagerDown, GamepadButton::LeftTrigger2)
        .with(A::EndTurn, GamepadButton::North)
        .with(A::Dodge, GamepadButton::South)
        .with(A::Parry, GamepadButton::West)
        .with(A::Deflect, GamepadButton::North)
        .with(A::SkipAi, GamepadButton::Select)
        .with(
            A::Help,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::Select]),
        )
        .with(
            A::LogFilter,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::Select]),
        )
        .with(A::Pause, GamepadButton::Mode)
        .with(A::BoostedMove, GamepadButton::LeftThumb)
        .with(A::PowerUp, GamepadButton::RightThumb)
        // Chords with the left trigger (the longest chord wins over its single buttons).
        .with(
            A::Recover,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::North]),
        )
        .with(
            A::HandOver,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::RightTrigger]),
        )
        .with(
            A::UseSkill,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::LeftTrigger]),
        )
        .with(
            A::Rotate,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::East]),
        )
        // Every left-trigger chord is taken: Drop prone and the maneuvers against conditions
        // are right-trigger ones.
        .with(
            A::DropProne,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::North]),
        )
        .with(
            A::StandUp,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::West]),
        )
        .with(
            A::EndCondition,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::East]),
        )
        .with(
            A::CurePoison,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::South]),
        )
        .with(
            A::EnergyCharge,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::RightThumb]),
        )
        .with(
            A::CancelCharge,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::LeftThumb]),
        )
        .with(
            A::ArrogantDeclaration,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::RightTrigger]),
        )
        .with(
            A::CalledShot,
            ButtonlikeChord::new([GamepadButton::RightTrigger2, GamepadButton::LeftTrigger]),
        )
        .with(
            A::Empower,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::RightTrigger2]),
        )
        // Both triggers are Empower's chord; with A they are the grapple's (the longest chord
        // wins over the shorter).
        .with(
            A::Grapple,
            ButtonlikeChord::new([
                GamepadButton::LeftTrigger2,
                GamepadButton::RightTrigger2,
                GamepadButton::South,
            ]),
        )
        .with(
            A::Hide,
            ButtonlikeChord::new([
                GamepadButton::LeftTrigger2,
                GamepadButton::RightTrigger2,
                GamepadButton::North,
            ]),
        )
        .with(
            A::Digivolve,
            ButtonlikeChord::new([
                GamepadButton::LeftTrigger2,
                GamepadButton::RightTrigger2,
                GamepadButton::RightThumb,
            ]),
        )
        .with(
            A::UnitedAttack,
            ButtonlikeChord::new([
                GamepadButton::LeftTrigger2,
                GamepadButton::RightTrigger2,
                GamepadButton::East,
            ]),
        )
        // West with both triggers is the threat overlay's.
        .with(
            A::Fly,
            ButtonlikeChord::new([
                GamepadButton::LeftTrigger2,
                GamepadButton::RightTrigger2,
                GamepadButton::LeftThumb,
            ]),
        )
        .with(
            A::DiveForCover,
            ButtonlikeChord::new([
                GamepadButton::LeftTrigger2,
                GamepadButton::RightTrigger2,
                GamepadButton::LeftTrigger,
            ]),
        )
        .with(
            A::Undo,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::West]),
        )
        .with(
            A::Redo,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::South]),
        )
        .with(
            A::Sneak,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::RightThumb]),
        )
        .with(
            A::Counter,
            ButtonlikeChord::new([GamepadButton::LeftTrigger2, GamepadButton::LeftThumb]),
        )
        .with(A::Up, GamepadButton::DPadUp)
        .with(A::Down, GamepadButton::DPadDown)
        .with(A::Left, GamepadButton::DPadLeft)
        .with(A::Right, GamepadButton::DPadRight)
        .with(
            A::ThreatOverlay,
            ButtonlikeChord::new([
                GamepadButton::LeftTrigger2,
                GamepadButton::RightTrigger2,
                GamepadButton::West,
            ]),
        )
        .with(A::CursorUp, GamepadButton::DPadUp)
        .with(A::CursorDown, GamepadButton::DPadDown)
        .with(A::CursorLeft, GamepadButton::DPadLeft)
        .with(A::CursorRight, GamepadButton::DPadRight)
        .with_dual_axis(A::Pan, GamepadStick::LEFT)
        .with_axis(A::ZoomHold, GamepadControlAxis::RIGHT_Y)
}

/// The input map for a set of keyboard bindings, with the mouse and any gamepad bound to
/// their defaults.
pub fn input_map(keys: &BTreeMap<GameAction, Vec<KeyCode>>) -> InputMap<GameAction> {
    let mut map = keyboard_mouse_map(keys);
    map.merge(&gamepad_map());
    map
}

/// The map a profile listens to.
pub fn profile_map(
    profile: InputProfile,
    keys: &BTreeMap<GameAction, Vec<KeyCode>>,
) -> InputMap<GameAction> {
    match profile {
        InputProfile::Any => input_map(keys),
        InputProfile::KeyboardMouse => keyboard_mouse_map(keys),
        InputProfile::Gamepad(_) => gamepad_map(),
    }
}

/// The square under the mouse pointer, or the one the gamepad moved the cursor to.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CursorSquare(pub Option<Square>);

/// An entity that carries one input profile's map and action state: one listens to every
/// device (menus, a side that uses any device), one to the keyboard and mouse, one per
/// gamepad slot.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Controls(pub InputProfile);

/// The gamepad slots offered to hot-seat players.
pub const GAMEPAD_SLOTS: u8 = 4;

/// The action state of the player who may act now.
#[derive(SystemParam)]
pub struct PlayerInput<'w, 's> {
    controls: Query<'w, 's, (&'static Controls, &'static ActionState<GameAction>)>,
}

impl PlayerInput<'_, '_> {
    /// The actions of one profile's devices.
    pub fn of(&self, profile: InputProfile) -> Option<&ActionState<GameAction>> {
        self.controls
            .iter()
            .find(|(c, _)| c.0 == profile)
            .map(|(_, a)| a)
    }

    /// The actions of every device (menus): the keyboard, the mouse and the first gamepad.
    pub fn any(&self) -> Option<&ActionState<GameAction>> {
        self.of(InputProfile::Any)
    }
}

/// Adds the input maps, one `Controls` entity per profile, so every screen reads actions.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<GameAction>::default())
        .init_resource::<CursorSquare>()
        .add_systems(Startup, spawn_controls)
        .add_systems(PreUpdate, assign_gamepads);
}

/// Spawns one `Controls` entity per profile. A gamepad slot gets its input map only while a
/// gamepad is assigned to it (see [`assign_gamepads`]).
fn spawn_controls(mut commands: Commands) {
    let keys = default_keys();
    for p in [InputProfile::Any, InputProfile::KeyboardMouse] {
        commands.spawn((
            Name::new(format!("Controls: {p}")),
            Controls(p),
            profile_map(p, &keys),
        ));
    }
    for p in (1..=GAMEPAD_SLOTS).map(InputProfile::Gamepad) {
        commands.spawn((
            Name::new(format!("Controls: {p}")),
            Controls(p),
            ActionState::<GameAction>::default(),
        ));
    }
}

/// The gamepad slots: each profile's input map, if it has one, and its action state.
type SlotQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Controls,
        Option<&'static mut InputMap<GameAction>>,
        &'static mut ActionState<GameAction>,
    ),
>;

/// Gives gamepad slot n the n-th connected gamepad (by connection order), or none. A slot
/// without a gamepad has no input map at all: the input manager works out every map's
/// clashing bindings every frame, and four empty gamepad slots were two thirds of that work.
fn assign_gamepads(
    mut commands: Commands,
    gamepads: Query<Entity, With<Gamepad>>,
    mut slots: SlotQuery,
) {
    let mut pads: Vec<Entity> = gamepads.iter().collect();
    pads.sort();
    for (entity, controls, map, mut state) in &mut slots {
        let InputProfile::Gamepad(n) = controls.0 else {
            continue;
        };
        match (pads.get(usize::from(n) - 1).copied(), map) {
            (Some(pad), Some(mut map)) => {
                if map.gamepad() != Some(pad) {
                    map.set_gamepad(pad);
                }
            }
            (Some(pad), None) => {
                let mut map = gamepad_map();
                map.set_gamepad(pad);
                commands.entity(entity).insert(map);
            }
            (None, Some(_)) => {
                commands.entity(entity).remove::<InputMap<GameAction>>();
                state.reset_all();
            }
            (None, None) => {}
        }
    }
}

/// Which input devices a person's side listens to, so hot-seat players can each have their
/// own: every device, the keyboard and mouse only, or one gamepad (numbered from 1 in the
/// order they were connected).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum InputProfile {
    #[default]
    Any,
    KeyboardMouse,
    Gamepad(u8),
}

impl std::fmt::Display for InputProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Any => f.write_str("any device"),
            Self::KeyboardMouse => f.write_str("keyboard and mouse"),
            Self::Gamepad(n) => write!(f, "gamepad {n}"),
        }
    }
}
