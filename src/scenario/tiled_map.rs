//! Tiled maps (`.tmx`) made into scenarios, by a documented convention: a tile layer named
//! `terrain` whose tiles name the ruleset's terrain, an object layer named `units` whose
//! objects name a roster entry and a side, an optional object layer `start zones` whose
//! rectangles mark where each side starts, and the map's own properties for the rest.
//!
//! Every problem names the file, the layer and the square or object, so a map maker can go
//! straight to it in the editor.

use std::path::Path;

use tiled::{Layer, LayerType, Loader, Map, PropertyValue, TileLayer};

use super::generate::{open_ground, side_defs};
use super::{MapDef, RoundLimitDef, Scenario, UnitDef, VictoryCondition, VictoryDef};
use crate::battle::state::LimitOutcome;
use crate::ruleset::Rules;

/// The tile layer read for terrain.
pub const TERRAIN_LAYER: &str = "terrain";
/// The object layer read for units.
pub const UNITS_LAYER: &str = "units";
/// The object layer read for start zones (optional).
pub const ZONES_LAYER: &str = "start zones";

/// Why a Tiled map could not be imported: every problem found, each naming where it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct ImportErrors(pub Vec<String>);

/// A Tiled map as a scenario, and what was read past (layers the convention does not use).
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The scenario, ready to be written out.
    pub scenario: Scenario,
    /// What was read past (layers outside the convention), each naming its layer.
    pub notes: Vec<String>,
}

/// Reads `path` (a `.tmx`, with its `.tsx` tilesets) without its ruleset: the ruleset id it
/// names in its `ruleset` property, if any, so the caller can load that ruleset.
pub fn ruleset_of(path: &Path) -> Result<Option<String>, ImportErrors> {
    let map = read(path)?;
    Ok(string(&map.properties, "ruleset"))
}

/// Reads the Tiled map at `path` as a scenario of `rules`.
pub fn import(path: &Path, rules: &Rules) -> Result<Imported, ImportErrors> {
    let map = read(path)?;
    let file = path.display().to_string();
    let mut errs: Vec<String> = Vec::new();
    let mut notes = Vec::new();
    let mut err = |what: String| errs.push(format!("{file}: {what}"));
    if map.orientation != tiled::Orientation::Orthogonal {
        err(format!(
            "the map is {:?}; only orthogonal (square) maps can be imported",
            map.orientation
        ));
    }
    if map.infinite() {
        err(
            "the map is infinite; give it a fixed size (Map > Map Properties > Infinite off)"
                .into(),
        );
    }
    let (w, h) = (map.width, map.height);
    if w == 0 || h == 0 || w > super::MAX_MAP_SIDE || h > super::MAX_MAP_SIDE {
        err(format!(
            "the map is {w}x{h} tiles; a scenario's map is 1 to 256 each way"
        ));
    }
    let mut terrain: Option<Layer> = None;
    let mut units: Option<Layer> = None;
    let mut zones: Option<Layer> = None;
    for layer in map.layers() {
        match (layer.name.as_str(), layer.layer_type()) {
            (TERRAIN_LAYER, LayerType::Tiles(_)) if terrain.is_none() => terrain = Some(layer),
            (UNITS_LAYER, LayerType::Objects(_)) if units.is_none() => units = Some(layer),
            (ZONES_LAYER, LayerType::Objects(_)) if zones.is_none() => zones = Some(layer),
            (name, kind) => notes.push(format!(
                "{file}: layer `{name}` ({}) is not read: only the tile layer `{TERRAIN_LAYER}` and the object layers `{UNITS_LAYER}` and `{ZONES_LAYER}` are",
                kind_name(&kind)
            )),
        }
    }
    let rows = match terrain {
        Some(layer) => terrain_rows(&layer, rules, w.min(256), h.min(256), &mut err),
        None => {
            err(format!("there is no tile layer named `{TERRAIN_LAYER}`"));
            Vec::new()
        }
    };
    let unit_defs = match units {
        Some(layer) => read_units(&layer, &map, rules, &rows, &mut err),
        None => {
            err(format!("there is no object layer named `{UNITS_LAYER}`"));
            Vec::new()
        }
    };
    let zone_rows = zones.map_or_else(Vec::new, |layer| {
        read_zones(&layer, &map, w.min(256), h.min(256), &mut err)
    });
    let zone_sides = zone_rows
        .iter()
        .flat_map(|r| r.chars())
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as usize);
    let sides_n = unit_defs
        .iter()
        .map(|u| usize::from(u.side) + 1)
        .chain(zone_sides)
        .max()
        .unwrap_or(2)
        .max(2);
    let mut sides = side_defs(sides_n);
    if let Some(spec) = string(&map.properties, "sides") {
        for (i, part) in spec.split(';').enumerate() {
            let part = part.trim();
            let Some(side) = sides.get_mut(i) else {
                err(format!(
                    "map property `sides` names {} sides, but the units use {sides_n}",
                    spec.split(';').count()
                ));
                break;
            };
            match part.rsplit_once(' ') {
                Some((name, colour)) if colour.starts_with('#') => {
                    side.name = name.trim().to_string();
                    side.color = colour.to_string();
                }
                _ => err(format!(
                    "map property `sides`: `{part}` is not `NAME #rrggbb` (sides are separated by `;`)"
                )),
            }
        }
    }
    let rounds = match map.properties.get("rounds") {
        None => 30,
        Some(PropertyValue::IntValue(n)) if *n >= 1 => *n as u32,
        Some(other) => {
            err(format!(
                "map property `rounds` is {other:?}; it is an int property of at least 1"
            ));
            30
        }
    };
    let stem = path
        .file_stem()
        .map_or_else(|| "Tiled map".into(), |s| s.to_string_lossy().into_owned());
    let file_name = path
        .file_name()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    if !errs.is_empty() {
        return Err(ImportErrors(errs));
    }
    Ok(Imported {
        scenario: Scenario {
            name: string(&map.properties, "name").unwrap_or(stem),
            description: string(&map.properties, "description")
                .unwrap_or_else(|| format!("Imported from the Tiled map {file_name}.")),
            ruleset: rules.manifest.id.clone(),
            map: MapDef {
                width: w,
                height: h,
                rows,
            },
            sides,
            units: unit_defs,
            victory: VictoryDef {
                condition: VictoryCondition::DefeatAllOpponents,
                round_limit: Some(RoundLimitDef {
                    rounds,
                    outcome: LimitOutcome::Draw,
                }),
            },
            guide: Vec::new(),
            characters: Vec::new(),
            budget: None,
            start_zones: zone_rows,
        },
        notes,
    })
}

/// The `start zones` layer as the scenario's zone rows: each rectangle object's `side` (int,
/// 0 for the first side) covers the squares whose centres lie inside it. A later rectangle
/// over an earlier one's squares takes them.
fn read_zones(
    layer: &Layer,
    map: &Map,
    w: u32,
    h: u32,
    err: &mut impl FnMut(String),
) -> Vec<String> {
    let LayerType::Objects(objects) = layer.layer_type() else {
        return Vec::new();
    };
    let (tw, th) = (map.tile_width.max(1) as f32, map.tile_height.max(1) as f32);
    let mut grid = vec![vec!['.'; w as usize]; h as usize];
    for o in objects.objects() {
        let label = object_label(&o);
        let mut problem = |what: &str| err(format!("layer `{ZONES_LAYER}`, {label}: {what}"));
        let side = object_side(&o, &mut problem);
        let tiled::ObjectShape::Rect { width, height } = o.shape else {
            problem("a start zone is a rectangle (draw it with the Rectangle tool)");
            continue;
        };
        let Some(side) = side else { continue };
        let mut covered = 0;
        for (y, row) in grid.iter_mut().enumerate() {
            for (x, square) in row.iter_mut().enumerate() {
                let (cx, cy) = ((x as f32 + 0.5) * tw, (y as f32 + 0.5) * th);
                if (o.x..o.x + width).contains(&cx) && (o.y..o.y + height).contains(&cy) {
                    *square = char::from(b'1' + side);
                    covered += 1;
                }
            }
        }
        if covered == 0 {
            problem(&format!(
                "the rectangle at pixel ({}, {}) covers the centre of no square of the map",
                o.x, o.y
            ));
        }
    }
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// How a problem names an object: by its name and id, or its id alone.
fn object_label(o: &tiled::Object) -> String {
    if o.name.is_empty() {
        format!("object {}", o.id())
    } else {
        format!("object `{}` (id {})", o.name, o.id())
    }
}

/// An object's `side` property (an int, 0 for the first side, at most 7), or the problem with
/// it given to `problem`.
fn object_side(o: &tiled::Object, problem: &mut impl FnMut(&str)) -> Option<u8> {
    match o.properties.get("side") {
        Some(PropertyValue::IntValue(n)) if (0..=7).contains(n) => Some(*n as u8),
        Some(other) => {
            problem(&format!(
                "`side` is {other:?}; it is an int property, 0 to 7"
            ));
            None
        }
        None => {
            problem("no `side` int property (0 for the first side)");
            None
        }
    }
}

/// Loads the map and its tilesets, a reading error named with the file.
fn read(path: &Path) -> Result<Map, ImportErrors> {
    Loader::new()
        .load_tmx_map(path)
        .map_err(|e| ImportErrors(vec![format!("{}: {e}", path.display())]))
}

/// A string property, if the map has it as a string.
fn string(props: &tiled::Properties, key: &str) -> Option<String> {
    match props.get(key) {
        Some(PropertyValue::StringValue(s)) if !s.trim().is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// What kind of layer a layer is, in Tiled's words.
fn kind_name(kind: &LayerType) -> &'static str {
    match kind {
        LayerType::Tiles(_) => "tiles",
        LayerType::Objects(_) => "objects",
        LayerType::Image(_) => "image",
        LayerType::Group(_) => "group",
    }
}

/// The `terrain` layer as map rows: an empty square is the ruleset's open ground; a tile
/// names its terrain by a string property `terrain` or, failing that, by its class.
fn terrain_rows(
    layer: &Layer,
    rules: &Rules,
    w: u32,
    h: u32,
    err: &mut impl FnMut(String),
) -> Vec<String> {
    let LayerType::Tiles(tiles) = layer.layer_type() else {
        return Vec::new();
    };
    let open = open_ground(rules)
        .map(|i| rules.terrain.types[usize::from(i)].symbol)
        .unwrap_or('.');
    let known = || {
        rules
            .terrain
            .types
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut reported = 0;
    let mut rows = Vec::new();
    for y in 0..h as i32 {
        let mut row = String::new();
        for x in 0..w as i32 {
            let symbol = match tile_at(&tiles, x, y) {
                None => Some(open),
                Some((id, tileset, tile)) => {
                    let named = tile.as_ref().and_then(|t| {
                        string(&t.properties, "terrain")
                            .or_else(|| (!t.user_type.is_empty()).then(|| t.user_type.clone()))
                    });
                    let found = named
                        .as_deref()
                        .and_then(|n| rules.terrain.types.iter().find(|t| t.id == n));
                    if found.is_none() && reported < 10 {
                        reported += 1;
                        let why = match &named {
                            None => "has no `terrain` property and no class".to_string(),
                            Some(n) => format!(
                                "names `{n}`, which is no terrain of the {} ruleset (it has: {})",
                                rules.manifest.id,
                                known()
                            ),
                        };
                        err(format!(
                            "layer `{TERRAIN_LAYER}`, square ({x}, {y}): tile {id} of tileset `{tileset}` {why}"
                        ));
                    }
                    found.map(|t| t.symbol)
                }
            };
            row.push(symbol.unwrap_or(open));
        }
        rows.push(row);
    }
    rows
}

/// The tile at (x, y) of a tile layer: its id in its tileset, the tileset's name, and the
/// tile's own data when it has any.
fn tile_at<'m>(
    tiles: &TileLayer<'m>,
    x: i32,
    y: i32,
) -> Option<(u32, String, Option<tiled::Tile<'m>>)> {
    let t = tiles.get_tile(x, y)?;
    Some((t.id(), t.get_tileset().name.clone(), t.get_tile()))
}

/// The `units` layer as scenario units: each object's `archetype` (string) and `side` (int)
/// properties, its name, and the square under its centre, which must be on the map and on
/// ground a unit can stand on.
fn read_units(
    layer: &Layer,
    map: &Map,
    rules: &Rules,
    rows: &[String],
    err: &mut impl FnMut(String),
) -> Vec<UnitDef> {
    let LayerType::Objects(objects) = layer.layer_type() else {
        return Vec::new();
    };
    let (tw, th) = (map.tile_width.max(1) as f32, map.tile_height.max(1) as f32);
    let mut out = Vec::new();
    for o in objects.objects() {
        let label = object_label(&o);
        let mut problem = |what: &str| err(format!("layer `{UNITS_LAYER}`, {label}: {what}"));
        let archetype = string(&o.properties, "archetype");
        if archetype.is_none() {
            problem("no `archetype` string property naming a roster entry");
        }
        let side = object_side(&o, &mut problem);
        // The centre of the object: a tile object hangs up from its (x, y), a rectangle
        // down from it, a point is where it is.
        let (cx, cy) = match (&o.shape, o.tile_data().is_some()) {
            (tiled::ObjectShape::Rect { width, height }, true) => {
                (o.x + width / 2.0, o.y - height / 2.0)
            }
            (tiled::ObjectShape::Rect { width, height }, false)
            | (tiled::ObjectShape::Ellipse { width, height }, _) => {
                (o.x + width / 2.0, o.y + height / 2.0)
            }
            _ => (o.x, o.y),
        };
        let at = ((cx / tw).floor() as i32, (cy / th).floor() as i32);
        if let Some(id) = &archetype
            && rules.archetype(id).is_none()
        {
            problem(&format!(
                "`archetype` is `{id}`, which the {} roster does not have (it has: {})",
                rules.manifest.id,
                rules.roster_ids()
            ));
        }
        let ground = usize::try_from(at.1)
            .ok()
            .and_then(|y| rows.get(y))
            .and_then(|row| usize::try_from(at.0).ok().and_then(|x| row.chars().nth(x)));
        match ground.and_then(|c| rules.terrain.types.iter().find(|t| t.symbol == c)) {
            None if !rows.is_empty() => problem(&format!(
                "it stands at ({}, {}) (pixel {cx}, {cy}), off the map",
                at.0, at.1
            )),
            Some(t) if t.move_cost.is_none() => problem(&format!(
                "it stands at ({}, {}) on {} ({}), where no one can stand",
                at.0, at.1, t.name, t.id
            )),
            _ => {}
        }
        if let (Some(archetype), Some(side)) = (archetype, side) {
            out.push(UnitDef {
                archetype: Some(archetype),
                stats: None,
                name: (!o.name.is_empty()).then(|| o.name.clone()),
                side,
                at,
                conditions: Vec::new(),
            });
        }
    }
    out
}
