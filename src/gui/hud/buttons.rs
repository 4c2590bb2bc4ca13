//! The action bar as buttons: one per entry of [`super::bar::action_bar_items`], rebuilt only
//! when the entries change; a click gives the entry's action to the controls as its key would,
//! and hovering shows what the entry costs or the rule that refuses it.

use bevy::prelude::*;

use super::bar::BarItem;
use crate::gui::control::BattleControls;
use crate::gui::icons::Icons;
use crate::gui::input::{Controls, GameAction, InputProfile};
use crate::gui::session::Session;
use crate::gui::{Screen, palette};
use leafwing_input_manager::prelude::ActionState;

/// The action bar's entries as last worked out, and the line under them.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct BarItems {
    /// The entries, in the bar's order.
    pub items: Vec<BarItem>,
    /// The line under the bar when no button is hovered: a notice, the greyed reasons.
    pub below: String,
}

/// The node the bar's buttons are children of.
#[derive(Component)]
pub(super) struct ActionBarRow;

/// A button of the action bar: the index of its entry.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarButton(pub usize);

/// The line under the bar that shows a hovered button's tip in place of the greyed reasons.
#[derive(Component)]
pub(super) struct BarTip;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BarItems>().add_systems(
        Update,
        (
            press_clicked_bar_buttons.before(BattleControls),
            show_bar_tip,
        )
            .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
    );
}

/// The look of an entry: a chosen one (`[..]`) has the accent border, a refused one (`(..)`)
/// is dim, a plain line of text has no box.
fn style(item: &BarItem) -> (Color, Color, Color) {
    let chosen = item.text.starts_with('[');
    let refused = item.text.starts_with('(');
    match (item.action, chosen, refused) {
        (None, _, _) => (Color::NONE, Color::NONE, palette::ACCENT),
        (Some(_), true, _) => (palette::ACCENT, palette::PANEL_LIGHT, palette::ACCENT),
        (Some(_), _, true) => (Color::NONE, palette::PANEL, palette::TEXT_DIM),
        _ => (
            palette::TEXT_DIM.with_alpha(0.4),
            palette::PANEL_LIGHT,
            palette::TEXT,
        ),
    }
}

/// Builds the bar's buttons again when its entries changed (run with the panels' redraw).
pub(super) fn draw_action_bar(
    mut commands: Commands,
    bar: Res<BarItems>,
    row: Query<(Entity, Option<&Children>), With<ActionBarRow>>,
    mut shown: Local<Vec<BarItem>>,
    icons: Option<Res<Icons>>,
    session: Res<Session>,
) {
    let ruleset = session.battle.rules().manifest.id.clone();
    let Ok((row, children)) = row.single() else {
        return;
    };
    if *shown == bar.items && children.is_some_and(|c| c.len() == bar.items.len()) {
        return;
    }
    shown.clone_from(&bar.items);
    commands.entity(row).despawn_related::<Children>();
    commands.entity(row).with_children(|row| {
        for (i, item) in bar.items.iter().enumerate() {
            let (border, background, text) = style(item);
            let mut b = row.spawn((
                Node {
                    padding: UiRect::axes(px(4), px(1)),
                    border: UiRect::all(px(1)),
                    align_items: AlignItems::Center,
                    column_gap: px(4),
                    ..default()
                },
                BorderColor::all(border),
                BackgroundColor(background),
            ));
            if item.action.is_some() {
                b.insert((Button, BarButton(i)));
            }
            let icon = item
                .icon
                .as_ref()
                .zip(icons.as_deref())
                .and_then(|(key, icons)| icons.of_bar(&ruleset, key));
            if let Some(image) = icon {
                // The icon in the words' colour, so a refused entry's is dim too.
                b.with_child((
                    ImageNode::new(image).with_color(text),
                    Node {
                        width: px(14),
                        height: px(14),
                        ..default()
                    },
                ));
            }
            b.with_child((
                Text::new(item.text.clone()),
                TextFont::from_font_size(12.5),
                TextColor(text),
            ));
        }
    });
}

/// A click on a button presses its action for one frame on the controls the battle listens
/// to now, before the battle's controls read them: the same path as its key.
fn press_clicked_bar_buttons(
    buttons: Query<(&Interaction, &BarButton), Changed<Interaction>>,
    bar: Res<BarItems>,
    mut session: ResMut<Session>,
    mut controls: Query<(&Controls, &mut ActionState<GameAction>)>,
) {
    let Some(action) = buttons
        .iter()
        .find(|(i, _)| **i == Interaction::Pressed)
        .and_then(|(_, b)| bar.items.get(b.0))
        .and_then(|item| item.action)
    else {
        return;
    };
    let profile = session.input_profile();
    for (c, mut state) in &mut controls {
        if c.0 == profile || c.0 == InputProfile::Any {
            state.press(&action);
        }
    }
}

/// Hovering a button shows its tip under the bar; otherwise the line shows the reasons the
/// greyed maneuvers cannot be used.
fn show_bar_tip(
    buttons: Query<(&Interaction, &BarButton)>,
    changed: Query<(), (Changed<Interaction>, With<BarButton>)>,
    bar: Res<BarItems>,
    mut tip: Query<&mut Text, With<BarTip>>,
) {
    if changed.is_empty() && !bar.is_changed() {
        return;
    }
    let Ok(mut text) = tip.single_mut() else {
        return;
    };
    let hovered = buttons
        .iter()
        .find(|(i, _)| **i != Interaction::None)
        .and_then(|(_, b)| bar.items.get(b.0));
    let want = hovered.map_or_else(|| bar.below.clone(), |item| item.tip.clone());
    if text.0 != want {
        text.0 = want;
    }
}
