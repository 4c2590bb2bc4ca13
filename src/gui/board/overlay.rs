//! The board's overlays: the move range and path, the aimed area and its targets, and the squares
//! where a move would draw an attack of opportunity or an Exploit, and (switched on) the squares
//! the opponents threaten.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use crate::gui::control::BattleUi;
use crate::gui::input::CursorSquare;
use crate::gui::session::{Intent, Session};
use crate::gui::threat::ThreatCache;

use super::OverlayLayer;
use crate::grid::{Square, footprint};
use crate::gui::palette;
use crate::gui::view::BattleView;

/// Colours the overlay: reachable squares (Normal and Boosted apart), the path under the
/// cursor with a warning colour where it provokes an Exploit, and the area template.
pub(super) fn draw_overlay(
    mut session: ResMut<Session>,
    cursor: Res<CursorSquare>,
    layer: Query<&TileStorage, With<OverlayLayer>>,
    mut tiles: Query<(&mut TileVisible, &mut TileColor)>,
    view: Res<BattleView>,
    ui: Res<BattleUi>,
    mut threats: ResMut<ThreatCache>,
) {
    let Ok(storage) = layer.single() else {
        return;
    };
    let map_h = session.battle.map().height;
    let mut paint: Vec<(Square, Color)> = Vec::new();
    // Under everything else: the squares the opponents could attack next turn.
    if ui.threats && session.handoff.is_none() {
        let map = threats.get(&mut session);
        paint.extend(map.ranged.iter().map(|s| (*s, palette::THREAT_RANGED)));
        paint.extend(map.melee.iter().map(|s| (*s, palette::THREAT_MELEE)));
    }
    if let Some((who, None, _)) = session.human_to_act()
        && session.handoff.is_none()
    {
        match session.intent {
            Intent::Move { boosted } => {
                // One move search each for Normal and Boosted Speed, for the lit squares and
                // the path alike.
                let normal = session.battle.move_reach(who, false);
                let far = if boosted {
                    session.battle.move_reach(who, true)
                } else {
                    None
                };
                let normal_ends = normal.as_ref().map(|r| &r.ends);
                for s in far.iter().flat_map(|r| &r.ends) {
                    if !normal_ends.is_some_and(|e| e.contains(s)) {
                        paint.push((*s, palette::BOOSTED));
                    }
                }
                paint.extend(
                    normal_ends
                        .into_iter()
                        .flatten()
                        .map(|s| (*s, palette::REACH)),
                );
                let chosen = if boosted { &far } else { &normal };
                paint_path(&mut session, who, chosen.as_ref(), cursor.0, &mut paint);
            }
            Intent::Jump => {
                // Every square a jump lands on now, and the leap to the one under the cursor
                // with the squares where passing a foe's reach provokes it.
                let landings = session.battle.jump_options(who);
                paint.extend(landings.keys().map(|s| (*s, palette::REACH)));
                if let Some(path) = cursor.0.and_then(|c| landings.get(&c)) {
                    let danger = session.battle.path_danger(who, path);
                    for (s, d) in path.iter().zip(danger) {
                        paint.push((*s, if d { palette::DANGER } else { palette::PATH }));
                    }
                }
            }
            Intent::Attack { .. } => {
                // Every unit this maneuver could be aimed at from here.
                paint.extend(view.targetable.iter().map(|s| (*s, palette::TARGETABLE)));
                if let Some(aim) = &view.aim {
                    let colour = if aim.preview.is_ok() {
                        palette::AREA
                    } else {
                        palette::REFUSED
                    };
                    if let Some(squares) = &aim.template {
                        paint.extend(squares.iter().map(|s| (*s, colour)));
                    }
                    // Every unit the attack would hit, opponents and allies told apart.
                    if let Ok(p) = &aim.preview {
                        let my_side = session.battle.fighter(who).map(|f| f.side);
                        for t in &p.targets {
                            if let Some(f) = session.battle.fighter(*t)
                                && let Some(at) = f.position
                            {
                                let hit = if Some(f.side) == my_side {
                                    palette::HIT_FRIEND
                                } else {
                                    palette::HIT_FOE
                                };
                                paint.extend(
                                    footprint(at, f.size.squares).into_iter().map(|s| (s, hit)),
                                );
                            }
                        }
                    }
                }
            }
            Intent::Skill { way } => {
                // The squares beside the unit it may make this Skill Check on.
                paint.extend(
                    view.skills
                        .iter()
                        .filter(|o| o.way == way)
                        .map(|o| (o.at, palette::TARGETABLE)),
                );
                match (&view.skill_aim, cursor.0) {
                    (Some(Ok(o)), _) => paint.push((o.at, palette::AREA)),
                    (Some(Err(_)), Some(c)) => paint.push((c, palette::REFUSED)),
                    _ => {}
                }
            }
            Intent::Empower { actions, full } => {
                // Every ally it could hand Ki to, and the one under the cursor.
                let offers = session.battle.empower_offers(who, actions, full);
                let units = offers.iter().map(|o| (o.ally, o.at, o.refusal.is_some()));
                paint_units(&mut session, cursor.0, units, &mut paint);
            }
            Intent::Grapple { act } => {
                // Every opponent it could be made on (red when refused), the hovered one.
                let offers = session.battle.grapple_offers(who, act);
                let units = offers.iter().map(|o| (o.target, o.at, o.refusal.is_some()));
                paint_units(&mut session, cursor.0, units, &mut paint);
            }
            Intent::Feint => {
                // Every foe on the map (red where a feint is refused), the hovered one.
                let units = session.battle.feint_targets(who);
                paint_units(&mut session, cursor.0, units.into_iter(), &mut paint);
            }
            Intent::Idle => {
                // With nothing chosen a click moves at Normal Speed: its reach, faintly, and
                // the path to the square under the cursor.
                let normal = session.battle.move_reach(who, false);
                paint.extend(
                    normal
                        .iter()
                        .flat_map(|r| &r.ends)
                        .map(|s| (*s, palette::REACH_IDLE)),
                );
                paint_path(&mut session, who, normal.as_ref(), cursor.0, &mut paint);
            }
        }
    }
    // A question to a person: mark who attacks (or leaves reach) and who is asked.
    if let Some((who, Some(decision), _)) = session.human_to_act() {
        let other = match decision {
            crate::battle::command::Decision::Defense { attacker, .. }
            | crate::battle::command::Decision::Response { attacker, .. } => attacker,
            crate::battle::command::Decision::Exploit { mover, .. } => mover,
            crate::battle::command::Decision::Intercede { target, .. } => target,
        };
        for (id, colour) in [(other, palette::DANGER), (who, palette::ACTIVE)] {
            if let Some(f) = session.battle.fighter(id)
                && let Some(at) = f.position
            {
                paint.extend(
                    footprint(at, f.size.squares)
                        .into_iter()
                        .map(|s| (s, colour)),
                );
            }
        }
    }
    // A charge lying live (a d20 grenade) and every square its blast could reach.
    for (at, around) in session.battle.live_blasts() {
        for s in around {
            paint.push((
                s,
                if s == at {
                    palette::DANGER
                } else {
                    palette::HIT_FOE
                },
            ));
        }
    }
    if let Some(c) = cursor.0 {
        paint.push((c, palette::CURSOR));
    }
    for tile in storage.iter().flatten() {
        if let Ok((mut vis, _)) = tiles.get_mut(*tile)
            && vis.0
        {
            vis.0 = false;
        }
    }
    let map_w = session.battle.map().width;
    for (s, colour) in paint {
        // The cursor may be anywhere a script or an old map put it: only map squares light.
        if s.x < 0 || s.y < 0 || s.x as u32 >= map_w || s.y as u32 >= map_h {
            continue;
        }
        let pos = TilePos {
            x: s.x as u32,
            y: map_h - 1 - s.y as u32,
        };
        if let Some(tile) = storage.checked_get(&pos)
            && let Ok((mut vis, mut tc)) = tiles.get_mut(tile)
        {
            vis.0 = true;
            tc.0 = colour;
        }
    }
}

/// Paints the cheapest path of the move `reach` to the cursor's square, if it ends there,
/// with the steps that provoke an attack (by the family's own rule) in the warning colour.
fn paint_path(
    session: &mut Session,
    who: crate::battle::components::CombatantId,
    reach: Option<&crate::battle::movement::MoveReach>,
    cursor: Option<Square>,
    paint: &mut Vec<(Square, Color)>,
) {
    let Some(path) = cursor.zip(reach).and_then(|(c, r)| r.path_to(c)) else {
        return;
    };
    let danger = session.battle.path_danger(who, &path);
    for (s, d) in path.iter().zip(danger) {
        paint.push((*s, if d { palette::DANGER } else { palette::PATH }));
    }
}

/// Paints the footprint of each unit an offer names (id, square, refused): red when refused,
/// the area colour under the cursor, the targetable colour otherwise.
fn paint_units(
    session: &mut Session,
    cursor: Option<Square>,
    units: impl Iterator<Item = (crate::battle::components::CombatantId, Option<Square>, bool)>,
    paint: &mut Vec<(Square, Color)>,
) {
    for (id, at, refused) in units {
        let (Some(at), Some(f)) = (at, session.battle.fighter(id)) else {
            continue;
        };
        let squares = footprint(at, f.size.squares);
        let hovered = cursor.is_some_and(|c| squares.contains(&c));
        let colour = match (refused, hovered) {
            (true, _) => palette::REFUSED,
            (false, true) => palette::AREA,
            (false, false) => palette::TARGETABLE,
        };
        paint.extend(squares.into_iter().map(|s| (s, colour)));
    }
}
