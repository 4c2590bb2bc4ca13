//! A token's condition badges: a disc per condition in its polarity colour (green helps, red
//! hurts) with the condition's icon or letters, "+n" when more are in force, and the badge
//! under the mouse for the rules tooltip.

use bevy::prelude::*;

use super::{BoardCamera, Session, TILE};
use crate::battle::components::CombatantId;
use crate::gui::art::Art;
use crate::gui::input::CursorSquare;
use crate::gui::palette;

/// One of a token's condition icons: the `index`-th condition of `id`, and the condition's
/// name while it shows one (not the "+n" icon), for its tooltip.
#[derive(Component)]
pub(super) struct Badge {
    id: CombatantId,
    index: usize,
    term: Option<String>,
}

/// The glossary entry of the condition icon under the mouse, if any: the rules tooltip shows
/// it when no word of a panel is hovered.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HoveredBadge(pub Option<usize>);

/// The letters on a condition icon.
#[derive(Component)]
pub(super) struct BadgeLetters {
    id: CombatantId,
    index: usize,
}

/// Condition icons shown on a token; a fourth icon says how many more there are.
const BADGE_SLOTS: usize = 4;

/// The icon drawn on a condition badge, when the condition has one (else its letters show).
#[derive(Component)]
pub(super) struct BadgeIcon {
    id: CombatantId,
    index: usize,
}

/// Spawns a token's badge slots (hidden until a condition fills them) as children of `t`.
pub(super) fn spawn_badges(
    t: &mut bevy::ecs::hierarchy::ChildSpawnerCommands,
    id: CombatantId,
    squares: f32,
    art: &Art,
) {
    // Condition icons along the top edge: a disc in the condition's polarity colour
    // (green helps, red hurts) with its letters.
    let edge_y = TILE * squares / 2.0 - 4.0;
    for index in 0..BADGE_SLOTS {
        let x = -TILE * squares / 2.0 + 7.0 + index as f32 * 13.0;
        t.spawn((
            Badge {
                id,
                index,
                term: None,
            },
            Sprite {
                image: art.badge.clone(),
                custom_size: Some(Vec2::splat(13.0)),
                ..default()
            },
            Transform::from_xyz(x, edge_y, 0.6),
            Visibility::Hidden,
        ))
        .with_child((
            BadgeLetters { id, index },
            Text2d::new(""),
            TextFont::from_font_size(8.0),
            TextColor(Color::BLACK),
            Transform::from_xyz(0.0, 0.0, 0.1),
        ))
        .with_child((
            BadgeIcon { id, index },
            Sprite {
                custom_size: Some(Vec2::splat(10.0)),
                color: Color::srgba(0.0, 0.0, 0.0, 0.9),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, 0.1),
            Visibility::Hidden,
        ));
    }
}

/// Redraws each token's condition icons from its conditions.
pub(super) fn draw_condition_icons(
    mut session: ResMut<Session>,
    icons: Res<crate::gui::icons::Icons>,
    mut badges: Query<(&mut Badge, &mut Sprite, &mut Visibility)>,
    mut letters: Query<(&BadgeLetters, &mut Text2d)>,
    mut pictures: Query<(&BadgeIcon, &mut Sprite, &mut Visibility), Without<Badge>>,
) {
    let fighters = session.fighters();
    let rules = session.battle.rules().clone();
    let ruleset = rules.manifest.id.as_str();
    // Every badge a unit would show, worked out once per unit for all its slots' sprites,
    // letters and icons.
    let mut by_unit: std::collections::BTreeMap<CombatantId, Vec<BadgeShown>> = Default::default();
    for f in fighters.iter().filter(|f| !f.defeated()) {
        let mut all: Vec<BadgeShown> = f
            .conditions
            .0
            .iter()
            .map(|c| {
                let def = rules.condition(c.kind);
                let colour = match def.polarity {
                    crate::ruleset::Polarity::Positive => palette::LIFE,
                    crate::ruleset::Polarity::Negative => palette::DANGER,
                };
                BadgeShown {
                    letters: palette::badge(&def.name),
                    colour,
                    term: Some(def.name.clone()),
                    picture: icons.condition(ruleset, &def.name),
                }
            })
            .collect();
        // d20: lying prone after a Dive for cover (harder to shoot until it moves).
        if f.encounter.prone {
            all.push(BadgeShown {
                letters: palette::badge("Prone"),
                colour: palette::LIFE,
                term: Some("prone".into()),
                picture: icons.condition(ruleset, "prone"),
            });
        }
        // d20: a Power Attack in effect until its next turn (every melee attack takes it).
        if let Some(n) = f.encounter.power_attack.filter(|n| *n > 0) {
            all.push(BadgeShown {
                letters: format!("PA{n}"),
                colour: palette::DANGER,
                term: Some("PowerAttack".into()),
                picture: icons.condition(ruleset, "power_attack"),
            });
        }
        // Digimon: up in the air (only a flyer reaches it in melee).
        if crate::battle::family::digimon::flight::airborne(f) > 0 {
            all.push(BadgeShown {
                letters: palette::badge("In the air"),
                colour: palette::LIFE,
                term: Some("In the air".into()),
                picture: icons.condition(ruleset, "In the air"),
            });
        }
        by_unit.insert(f.id, all);
    }
    // What each icon slot shows: its letters and colour, the rule it links, its icon; the last
    // slot counts the rest when there are more than fit.
    let icon = |id: CombatantId, index: usize| -> Option<BadgeShown> {
        let all = by_unit.get(&id)?;
        if index == BADGE_SLOTS - 1 && all.len() > BADGE_SLOTS {
            return Some(BadgeShown {
                letters: format!("+{}", all.len() - index),
                colour: palette::TEXT,
                term: None,
                picture: None,
            });
        }
        all.get(index).cloned()
    };
    for (mut b, mut sprite, mut vis) in &mut badges {
        match icon(b.id, b.index) {
            Some(shown) => {
                *vis = Visibility::Inherited;
                sprite.color = shown.colour;
                if b.term != shown.term {
                    b.term = shown.term;
                }
            }
            None => {
                *vis = Visibility::Hidden;
                if b.term.is_some() {
                    b.term = None;
                }
            }
        }
    }
    for (l, mut text) in &mut letters {
        let want = icon(l.id, l.index)
            .filter(|s| s.picture.is_none())
            .map(|s| s.letters)
            .unwrap_or_default();
        if text.0 != want {
            text.0 = want;
        }
    }
    for (p, mut sprite, mut vis) in &mut pictures {
        match icon(p.id, p.index).and_then(|s| s.picture) {
            Some(image) => {
                sprite.image = image;
                *vis = Visibility::Inherited;
            }
            None => *vis = Visibility::Hidden,
        }
    }
}

/// What one condition badge shows.
#[derive(Clone)]
struct BadgeShown {
    /// Its letters, drawn when it has no icon.
    letters: String,
    /// The disc's colour: green helps, red hurts.
    colour: Color,
    /// The glossary term its tooltip quotes.
    term: Option<String>,
    picture: Option<Handle<Image>>,
}

/// The condition icon under the mouse, for the rules tooltip: tested in the board's world
/// against each shown icon's disc, a little enlarged so a small one is easy to hit.
pub(super) fn find_hovered_badge(
    windows: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    badges: Query<(&Badge, &GlobalTransform, &InheritedVisibility)>,
    cursor: Res<CursorSquare>,
    session: Res<Session>,
    mut hovered: ResMut<HoveredBadge>,
) {
    let world_at = cursor
        .0
        .and_then(|_| windows.single().ok()?.cursor_position())
        .and_then(|p| {
            let (cam, t) = camera.single().ok()?;
            cam.viewport_to_world_2d(t, p).ok()
        });
    let found = world_at.and_then(|at| {
        badges
            .iter()
            .filter(|(b, _, seen)| seen.get() && b.term.is_some())
            .find(|(_, t, _)| t.translation().truncate().distance(at) <= BADGE_HIT_RADIUS)
            .and_then(|(b, ..)| {
                let glossary = &session.battle.rules().glossary;
                let term = b.term.as_deref()?;
                glossary
                    .entries()
                    .iter()
                    .position(|e| e.term == term || e.short.iter().any(|s| s == term))
            })
    });
    if hovered.0 != found {
        hovered.0 = found;
    }
}

/// Where each shown condition icon is drawn in the window (logical pixels) and the condition
/// it shows, for scripts that hover them.
pub fn badge_spots(world: &mut World) -> Vec<(Vec2, String)> {
    let mut badges = world.query::<(&Badge, &GlobalTransform, &InheritedVisibility)>();
    let shown: Vec<(Vec3, String)> = badges
        .iter(world)
        .filter(|(_, _, seen)| seen.get())
        .filter_map(|(b, t, _)| Some((t.translation(), b.term.clone()?)))
        .collect();
    let mut camera = world.query_filtered::<(&Camera, &GlobalTransform), With<BoardCamera>>();
    let Ok((cam, t)) = camera.single(world) else {
        return Vec::new();
    };
    shown
        .into_iter()
        .filter_map(|(at, term)| Some((cam.world_to_viewport(t, at).ok()?, term)))
        .collect()
}

/// How near (in board units) the mouse must be to a condition icon's centre to hover it: the
/// icon's radius and a little more.
const BADGE_HIT_RADIUS: f32 = 8.5;
