//! The rules' words in the panels as links: the unit, odds, log and prompt texts are cut by the
//! ruleset's glossary ([`crate::ruleset::glossary`]) into spans, its words drawn in the link
//! colour, and the mouse over one shows a tooltip with the rule's own text and where it comes
//! from. Scripts walk every linked word to check each tooltip (see [`term_spots`]).

use bevy::prelude::*;
use bevy::text::{ComputedTextBlock, TextLayoutInfo};
use bevy::ui::{ComputedNode, UiGlobalTransform};
use bevy::window::PrimaryWindow;

use crate::gui::session::Session;
use crate::gui::{Screen, fonts, palette};
use crate::ruleset::glossary::GlossaryEntry;

/// A panel text whose rule words link to the glossary: the whole text it shows. Systems that
/// work out a panel's words write them here; [`respell_linked_texts`] turns them into spans.
#[derive(Component, Debug, Default, Clone, PartialEq, Eq)]
pub struct LinkedText(pub String);

/// A linked text whose chances (`60.3%`) are drawn in the figure colour, so a panel of odds
/// reads at a glance.
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct HighlightChances;

/// A span of a linked text that is a glossary word: the index of its entry.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermSpan(pub usize);

/// The glossary entry the mouse is over, if any.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HoveredTerm(pub Option<usize>);

/// The tooltip box, and its heading and body texts.
#[derive(Component)]
struct TermTip;
#[derive(Component)]
struct TermTipHeading;
#[derive(Component)]
struct TermTipBody;

/// The tooltip's width in logical pixels.
const TIP_W: f32 = 380.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HoveredTerm>()
        .add_systems(OnEnter(Screen::Battle), spawn_term_tip)
        .add_systems(
            Update,
            (respell_linked_texts, find_hovered_term, show_term_tip)
                .chain()
                .after(super::super::redraw::ReadScreen)
                .run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        );
}

fn spawn_term_tip(mut commands: Commands) {
    commands
        .spawn((
            TermTip,
            DespawnOnExit(Screen::Battle),
            Node {
                position_type: PositionType::Absolute,
                width: px(TIP_W),
                padding: UiRect::all(px(8)),
                border: UiRect::all(px(1)),
                flex_direction: FlexDirection::Column,
                row_gap: px(4),
                ..default()
            },
            BorderColor::all(palette::TERM),
            BackgroundColor(palette::PANEL),
            GlobalZIndex(20),
            Visibility::Hidden,
        ))
        .with_children(|tip| {
            tip.spawn((
                TermTipHeading,
                Text::new(""),
                fonts::heading(14.0),
                TextColor(palette::TERM),
            ));
            tip.spawn((
                TermTipBody,
                Text::new(""),
                TextFont::from_font_size(13.0),
                TextColor(palette::TEXT),
            ));
        });
}

/// What [`respell_linked_texts`] reads and writes of a linked text.
type Respelt = (
    Entity,
    &'static LinkedText,
    &'static TextFont,
    &'static TextColor,
    Has<HighlightChances>,
    &'static mut Text,
);

/// Rebuilds a linked text's spans when its words change: a plain span for ordinary text, a
/// link-coloured [`TermSpan`] for each glossary word. Combatants' names are never cut up
/// ("Ki Blaster" is a name, not Ki).
fn respell_linked_texts(
    mut commands: Commands,
    session: Res<Session>,
    mut texts: Query<Respelt, Changed<LinkedText>>,
) {
    if texts.is_empty() {
        return;
    }
    let rules = session.battle.rules().clone();
    let names: Vec<&str> = session.names.values().map(String::as_str).collect();
    for (entity, linked, font, colour, chances, mut root) in &mut texts {
        // The root's words never change (its spans carry them), and taking every span away
        // does not by itself lay the text out again: without this a text that became empty
        // kept showing its old words.
        root.set_changed();
        commands.entity(entity).despawn_related::<Children>();
        let segments = rules.glossary.segments(&linked.0, &names);
        commands.entity(entity).with_children(|t| {
            for s in segments {
                match s.entry {
                    Some(i) => t.spawn((
                        TextSpan::new(s.text),
                        font.clone(),
                        TextColor(palette::TERM),
                        TermSpan(i),
                    )),
                    None if chances => {
                        for (piece, is_chance) in split_chances(s.text) {
                            let c = if is_chance { palette::FIGURE } else { colour.0 };
                            t.spawn((TextSpan::new(piece), font.clone(), TextColor(c)));
                        }
                        continue;
                    }
                    None => t.spawn((TextSpan::new(s.text), font.clone(), *colour)),
                };
            }
        });
    }
}

/// `text` cut into pieces, each a chance (digits, an optional decimal part, then `%`) or not.
fn split_chances(text: &str) -> Vec<(&str, bool)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut plain = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() || (i > 0 && bytes[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'.') {
            j += 1;
        }
        if j < bytes.len() && bytes[j] == b'%' {
            if plain < i {
                out.push((&text[plain..i], false));
            }
            out.push((&text[i..=j], true));
            plain = j + 1;
            i = j + 1;
        } else {
            i = j;
        }
    }
    if plain < text.len() {
        out.push((&text[plain..], false));
    }
    out
}

/// The text runs of a laid-out text node, each as its rectangle in physical window pixels and
/// the entity of the span it belongs to: where the mouse is tested and where scripts point.
fn runs_on_screen<'a>(
    node: &ComputedNode,
    transform: &UiGlobalTransform,
    layout: &'a TextLayoutInfo,
    block: &'a ComputedTextBlock,
) -> impl Iterator<Item = (Rect, Entity)> + 'a {
    let top_left = transform.translation - node.size / 2.0;
    layout.run_geometry.iter().filter_map(move |run| {
        let e = block.entities().get(run.section_index)?;
        let r = run.bounds;
        Some((
            Rect::from_corners(r.min + top_left, r.max + top_left),
            e.entity,
        ))
    })
}

/// A linked text's layout as [`runs_on_screen`] reads it, with its visibility.
type LinkedLayout = (
    &'static ComputedNode,
    &'static UiGlobalTransform,
    &'static TextLayoutInfo,
    &'static ComputedTextBlock,
    &'static InheritedVisibility,
);

/// Where each linked word is on screen: its middle in physical window pixels, its entry and
/// its words, the right-hand panel first. Hidden panels are left out.
pub fn term_spots(world: &mut World) -> Vec<(Vec2, usize, String)> {
    let mut texts = world.query_filtered::<LinkedLayout, With<LinkedText>>();
    let mut runs: Vec<(f32, Rect, Entity)> = texts
        .iter(world)
        .filter(|(.., seen)| seen.get())
        .flat_map(|(node, transform, layout, block, _)| {
            let panel_x = transform.translation.x - node.size.x / 2.0;
            runs_on_screen(node, transform, layout, block)
                .map(move |(r, e)| (panel_x, r, e))
                .collect::<Vec<_>>()
        })
        .collect();
    // The right-hand panel first: hovering the log below the board lets go of the square
    // pointed at, which changes what the right-hand panel says. The sort is stable, so each
    // panel's words stay in their order.
    runs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut spans = world.query::<(&TermSpan, &TextSpan)>();
    runs.into_iter()
        .filter_map(|(_, r, e)| {
            let (t, s) = spans.get(world, e).ok()?;
            Some((r.center(), t.0, s.0.clone()))
        })
        .collect()
}

/// Finds the glossary word under the mouse in any visible linked text.
fn find_hovered_term(
    windows: Query<&Window, With<PrimaryWindow>>,
    texts: Query<LinkedLayout, With<LinkedText>>,
    spans: Query<&TermSpan>,
    buttons: Query<(&Interaction, &super::buttons::BarButton)>,
    bar: Res<super::buttons::BarItems>,
    (session, badge): (Res<Session>, Res<crate::gui::board::HoveredBadge>),
    mut hovered: ResMut<HoveredTerm>,
) {
    // A hovered action bar button explains the first word of the rules on it (its maneuver),
    // while the line under the bar says what it costs or what refuses it.
    let on_button = buttons
        .iter()
        .find(|(i, _)| **i != Interaction::None)
        .and_then(|(_, b)| bar.items.get(b.0))
        .and_then(|item| {
            let names: Vec<&str> = session.names.values().map(String::as_str).collect();
            session
                .battle
                .rules()
                .glossary
                .segments(&item.text, &names)
                .into_iter()
                .find_map(|s| s.entry)
        });
    if on_button.is_some() {
        if hovered.0 != on_button {
            hovered.0 = on_button;
        }
        return;
    }
    let cursor = windows
        .single()
        .ok()
        .and_then(Window::physical_cursor_position);
    let found = cursor.and_then(|c| {
        texts.iter().filter(|(.., seen)| seen.get()).find_map(
            |(node, transform, layout, block, _)| {
                runs_on_screen(node, transform, layout, block)
                    .find(|(r, _)| r.contains(c))
                    .and_then(|(_, e)| spans.get(e).ok())
                    .map(|t| t.0)
            },
        )
    });
    // No word of a panel: a condition icon on the board, if the mouse is on one.
    let found = found.or(badge.0);
    if hovered.0 != found {
        hovered.0 = found;
    }
}

/// Shows the hovered word's entry beside the mouse, kept inside the window.
fn show_term_tip(
    session: Res<Session>,
    hovered: Res<HoveredTerm>,
    windows: Query<&Window, With<PrimaryWindow>>,
    ui_scale: Res<UiScale>,
    mut tip: Query<(&mut Node, &mut Visibility), With<TermTip>>,
    mut heading: Query<&mut Text, (With<TermTipHeading>, Without<TermTipBody>)>,
    mut body: Query<&mut Text, (With<TermTipBody>, Without<TermTipHeading>)>,
) {
    let Ok((mut node, mut shown)) = tip.single_mut() else {
        return;
    };
    let entry = hovered
        .0
        .and_then(|i| session.battle.rules().glossary.entries().get(i).cloned());
    let (Some(entry), Ok(window)) = (entry, windows.single()) else {
        if *shown != Visibility::Hidden {
            *shown = Visibility::Hidden;
        }
        return;
    };
    // A node's place is in UI pixels: the window's logical pixels over the UI scale.
    let scale = ui_scale.0.max(0.01);
    let Some(cursor) = window.cursor_position().map(|c| c / scale) else {
        return;
    };
    let (h, b) = tip_words(&entry);
    if let Ok(mut t) = heading.single_mut()
        && t.0 != h
    {
        t.0 = h;
    }
    if let Ok(mut t) = body.single_mut()
        && t.0 != b
    {
        t.0 = b;
    }
    let (w, hgt) = (window.width() / scale, window.height() / scale);
    let left = if cursor.x + 16.0 + TIP_W > w {
        (cursor.x - 16.0 - TIP_W).max(0.0)
    } else {
        cursor.x + 16.0
    };
    node.left = px(left);
    // Below the mouse in the top half of the window, above it in the bottom half.
    if cursor.y < hgt / 2.0 {
        node.top = px(cursor.y + 18.0);
        node.bottom = Val::Auto;
    } else {
        node.top = Val::Auto;
        node.bottom = px(hgt - cursor.y + 12.0);
    }
    *shown = Visibility::Inherited;
}

/// The tooltip's heading (the word, its short forms and kind) and body (the rule's text and
/// its source).
fn tip_words(e: &GlossaryEntry) -> (String, String) {
    let short = if e.short.is_empty() {
        String::new()
    } else {
        format!(" ({})", e.short.join(", "))
    };
    (
        format!("{}{short} · {}", e.term, e.kind.noun()),
        format!("{}\n— {}", e.text, e.source),
    )
}

/// The tooltip's words as shown now (heading and body), or `None` while it is hidden.
pub fn tooltip_text(world: &mut World) -> Option<String> {
    let mut tip = world.query_filtered::<&Visibility, With<TermTip>>();
    if tip.iter(world).next() != Some(&Visibility::Inherited) {
        return None;
    }
    let mut body = world.query_filtered::<&Text, With<TermTipBody>>();
    let mut heading = world.query_filtered::<&Text, With<TermTipHeading>>();
    let h = heading.iter(world).next().map(|t| t.0.clone())?;
    let b = body.iter(world).next().map(|t| t.0.clone())?;
    Some(format!("{h}\n{b}"))
}

#[cfg(test)]
mod tests {
    use super::split_chances;

    #[test]
    fn odds_panel_chances_are_cut_out_for_their_colour() {
        assert_eq!(
            split_chances("hit 60.3% (crit 9.7%) mean 6.1"),
            vec![
                ("hit ", false),
                ("60.3%", true),
                (" (crit ", false),
                ("9.7%", true),
                (") mean 6.1", false)
            ]
        );
        assert_eq!(
            split_chances("no chance here"),
            vec![("no chance here", false)]
        );
        assert_eq!(split_chances("100%"), vec![("100%", true)]);
    }
}
