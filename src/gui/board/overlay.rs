//! The board's overlays: the move range and path, the aimed area and its targets, and the squares
//! where a move would draw an attack of opportunity or an Exploit.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use crate::gui::input::CursorSquare;
use crate::gui::session::{Intent, Session};

use super::OverlayLayer;
use crate::battle::components::CombatantId;
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
) {
    let Ok(storage) = layer.single() else {
        return;
    };
    let map_h = session.battle.map().height;
    let mut paint: Vec<(Square, Color)> = Vec::new();
    if let Some((who, None, _)) = session.human_to_act()
        && session.handoff.is_none()
    {
        match session.intent {
            Intent::Move { boosted } => {
                let normal = session.battle.move_options(who, false);
                let far = if boosted {
                    session.battle.move_options(who, true)
                } else {
                    Default::default()
                };
                for s in far.keys().filter(|s| !normal.contains_key(s)) {
                    paint.push((*s, palette::BOOSTED));
                }
                for s in normal.keys() {
                    paint.push((*s, palette::REACH));
                }
                if let Some(c) = cursor.0
                    && let Some(path) = session.battle.path_to(who, c, boosted)
                {
                    if session.battle.rules().is_ninja_chapter() {
                        // Shinobi: a step that leaves a reach the path entered provokes.
                        let danger = shinobi_danger(&mut session, who, &path);
                        for (s, d) in path.iter().zip(danger) {
                            paint.push((*s, if d { palette::DANGER } else { palette::PATH }));
                        }
                    } else {
                        // Power stages has no Exploits: no path square is risky.
                        let risky = if session.battle.rules().stages().is_some() {
                            Default::default()
                        } else {
                            exploit_squares(&mut session, who)
                        };
                        let mut left = false;
                        for s in &path {
                            // Each square left while inside an opponent's reach provokes.
                            let colour = if left { palette::DANGER } else { palette::PATH };
                            paint.push((*s, colour));
                            left = risky.contains(s);
                        }
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
            Intent::Idle => {}
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
    // d20: a live grenade and every square its blast could reach when it goes off.
    let live = session.battle.map().grenades.clone();
    if !live.is_empty() {
        let rules = session.battle.rules().clone();
        let radius = rules
            .d20()
            .map(|d| {
                d.combat
                    .weapons
                    .iter()
                    .filter_map(|w| w.blast)
                    .map(|b| crate::ruleset::d20::blast_squares(&d.combat, &b))
                    .max()
                    .unwrap_or(0)
            })
            .unwrap_or(0) as i32;
        for l in &live {
            for dy in -radius..=radius {
                for dx in -radius..=radius {
                    let s = Square::new(l.at.x + dx, l.at.y + dy);
                    paint.push((
                        s,
                        if s == l.at {
                            palette::DANGER
                        } else {
                            palette::HIT_FOE
                        },
                    ));
                }
            }
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

/// For each square of a shinobi move's path: whether stepping onto it leaves the reach of an
/// opponent with AP left whose reach the path entered (an opportunity attack).
fn shinobi_danger(session: &mut Session, who: CombatantId, path: &[Square]) -> Vec<bool> {
    let fighters = session.fighters();
    let Some(me) = fighters.iter().find(|f| f.id == who) else {
        return vec![false; path.len()];
    };
    let Some(start) = me.position else {
        return vec![false; path.len()];
    };
    let mut visited = vec![start];
    let mut out = Vec::with_capacity(path.len());
    for s in path {
        let from = visited[visited.len() - 1];
        let provoked = crate::battle::movement::provoked_by(&fighters, me, from, *s)
            .into_iter()
            .filter_map(|id| fighters.iter().find(|f| f.id == id))
            .any(|o| {
                o.actions.usable() > 0
                    && crate::battle::family::shinobi::entered_reach(&visited, me.size.squares, o)
                        .is_some()
            });
        out.push(provoked);
        visited.push(*s);
    }
    out
}

/// Squares inside some opponent's Melee Attack Range: leaving one provokes an Exploit.
fn exploit_squares(session: &mut Session, who: CombatantId) -> Vec<Square> {
    let fighters = session.fighters();
    let Some(me) = fighters.iter().find(|f| f.id == who) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for foe in fighters
        .iter()
        .filter(|f| f.side != me.side && !f.defeated())
    {
        let Some(p) = foe.position else { continue };
        let r = foe.size.melee_range as i32;
        for dy in -r..=r + foe.size.squares as i32 {
            for dx in -r..=r + foe.size.squares as i32 {
                let s = Square::new(p.x + dx, p.y + dy);
                if crate::grid::footprint_distance(s, me.size.squares, p, foe.size.squares)
                    <= foe.size.melee_range
                {
                    out.push(s);
                }
            }
        }
    }
    out
}
