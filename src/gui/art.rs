//! The game's art, drawn by our own code at start-up in one palette: a tile per terrain type,
//! the overlay tile, token shapes (one per side, so sides differ by shape as well as colour)
//! and the condition badge. No downloaded packs.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use crate::ruleset::TerrainDef;

/// Pixels per tile edge in the generated textures.
pub const TILE_PX: u32 = 32;
/// Pixels per token edge.
pub const TOKEN_PX: u32 = 64;

/// The silhouette that tells a side apart without relying on colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenShape {
    Circle,
    Square,
    Triangle,
    Diamond,
}

impl TokenShape {
    /// Every shape, in the order sides take them (and `Art::tokens` holds them).
    pub const ALL: [TokenShape; 4] = [Self::Circle, Self::Square, Self::Triangle, Self::Diamond];

    /// The shape of side `i`.
    pub fn of_side(i: usize) -> Self {
        Self::ALL[i % Self::ALL.len()]
    }

    /// Whether a point (from -1 to 1 on both axes) is inside the shape, and its distance to
    /// the edge in the same units (for the outline).
    fn inside(self, x: f32, y: f32) -> Option<f32> {
        let d = match self {
            Self::Circle => 0.92 - (x * x + y * y).sqrt(),
            Self::Square => 0.82 - x.abs().max(y.abs()),
            Self::Diamond => 0.98 - (x.abs() + y.abs()),
            Self::Triangle => {
                // Pointing up: apex at y = -0.95, base at y = 0.8.
                let base = 0.8 - y;
                let half = (y + 0.95) / 1.75 * 0.95;
                base.min(half - x.abs()).min(y + 0.95)
            }
        };
        (d >= 0.0).then_some(d)
    }
}

/// Handles to every generated image.
#[derive(Resource, Clone)]
pub struct Art {
    /// One tile per terrain type, in the ruleset's terrain order.
    pub terrain: Vec<Handle<Image>>,
    /// A white tile with a soft edge, tinted for move and area overlays.
    pub overlay: Handle<Image>,
    /// One white token per shape, tinted with the side's colour.
    pub tokens: Vec<Handle<Image>>,
    /// A ring drawn around the active unit.
    pub ring: Handle<Image>,
    /// A condition icon's disc, tinted by the condition's polarity.
    pub badge: Handle<Image>,
    /// A soft white disc, bright in the middle, for bolts and explosions.
    pub glow: Handle<Image>,
    /// A white band whose long edges fade out, for beams and cones: the camera draws without
    /// multisampling, so a turned plain quad would show stair-stepped edges.
    pub band: Handle<Image>,
}

fn rgba_image(size: u32, pixels: Vec<u8>) -> Image {
    Image::new(
        Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        pixels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

/// The RGBA pixels of a `size` x `size` image, row by row, from a colour per pixel: the one
/// loop every generated image shares.
fn paint(size: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let mut px = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            px.extend_from_slice(&pixel(x, y));
        }
    }
    px
}

/// A pixel's centre in the unit square from -1 to 1, for shapes drawn by distance.
fn unit_xy(x: u32, y: u32, size: u32) -> (f32, f32) {
    let f = |v: u32| (v as f32 + 0.5) / size as f32 * 2.0 - 1.0;
    (f(x), f(y))
}

/// A cheap, fixed hash for texture noise (the art is the same on every run).
fn noise(x: u32, y: u32, salt: u32) -> f32 {
    let mut h = x.wrapping_mul(374_761_393)
        ^ y.wrapping_mul(668_265_263)
        ^ salt.wrapping_mul(2_246_822_519);
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    (h ^ (h >> 16)) as f32 / u32::MAX as f32
}

/// The look of a terrain type: its base colour and pattern, by id, falling back on its rules
/// (blocking, water, difficult, cover) for terrains other rulesets add.
fn terrain_pixels(t: &TerrainDef, salt: u32) -> Vec<u8> {
    #[derive(Clone, Copy)]
    enum Pattern {
        Grass,
        Speckle,
        Waves,
        Bricks,
        Boulder,
        Crate,
        LowWall,
    }
    let (base, pattern): ([u8; 3], Pattern) = match t.id.as_str() {
        "open" => ([92, 122, 72], Pattern::Grass),
        "rubble" => ([128, 116, 98], Pattern::Speckle),
        "bog" => ([84, 92, 58], Pattern::Speckle),
        "water" => ([52, 96, 150], Pattern::Waves),
        "river" => ([70, 128, 170], Pattern::Waves),
        "wall" => ([70, 66, 72], Pattern::Bricks),
        "rock" => ([96, 90, 84], Pattern::Boulder),
        "crates" => ([92, 122, 72], Pattern::Crate),
        "low_wall" => ([92, 122, 72], Pattern::LowWall),
        "tree" => ([46, 96, 42], Pattern::Boulder),
        "mist" => ([176, 182, 190], Pattern::Speckle),
        "dusk" => ([56, 70, 58], Pattern::Grass),
        "ledge" => ([132, 96, 64], Pattern::Speckle),
        "foliage" => ([58, 112, 48], Pattern::Speckle),
        "smoke" => ([150, 150, 156], Pattern::Speckle),
        "sand" => ([198, 172, 112], Pattern::Speckle),
        "steel_door" => ([128, 134, 142], Pattern::LowWall),
        "hill" => ([118, 100, 66], Pattern::Boulder),
        _ if t.blocks_sight => ([70, 66, 72], Pattern::Bricks),
        _ if t.move_cost.is_none() => ([52, 96, 150], Pattern::Waves),
        _ if t.cover_rank.is_some() || t.absorb.is_some() || t.cover_bonus.is_some() => {
            ([92, 122, 72], Pattern::Crate)
        }
        // A drop another ruleset or a modder adds (the d20 pit): the ground below, as the ledge.
        _ if t.drop.is_some() => ([132, 96, 64], Pattern::Speckle),
        _ if t.move_cost.unwrap_or(1) > 1 => ([128, 116, 98], Pattern::Speckle),
        // Concealment a modder adds: a haze, like smoke.
        _ if t.concealment.is_some_and(|c| c > 0) => ([150, 150, 156], Pattern::Speckle),
        _ => ([92, 122, 72], Pattern::Grass),
    };
    paint(TILE_PX, |x, y| {
        let r = noise(x, y, salt);
        let shade: f32 = match pattern {
            Pattern::Grass => 0.92 + 0.12 * r,
            Pattern::Speckle => {
                if r > 0.82 {
                    0.7
                } else {
                    0.95 + 0.08 * r
                }
            }
            Pattern::Waves => {
                let w = ((x as f32 * 0.45 + (y as f32 * 0.9).sin() * 2.0).sin() + 1.0) / 2.0;
                0.85 + 0.25 * w
            }
            Pattern::Bricks => {
                let row = y / 8;
                let offset = if row % 2 == 0 { 0 } else { 8 };
                if y % 8 == 0 || (x + offset) % 16 == 0 {
                    0.6
                } else {
                    0.95 + 0.1 * r
                }
            }
            Pattern::Boulder => {
                let (dx, dy) = (x as f32 - 15.5, y as f32 - 15.5);
                let d = (dx * dx + dy * dy).sqrt();
                if d < 12.0 { 1.15 - d / 40.0 } else { 0.7 }
            }
            Pattern::Crate | Pattern::LowWall => 0.92 + 0.12 * r,
        };
        let mut c = [
            (f32::from(base[0]) * shade).min(255.0),
            (f32::from(base[1]) * shade).min(255.0),
            (f32::from(base[2]) * shade).min(255.0),
        ];
        let feature = match pattern {
            Pattern::Crate => (8..24).contains(&x) && (8..24).contains(&y),
            Pattern::LowWall => (12..20).contains(&y),
            _ => false,
        };
        if feature {
            let edge = x == 8 || x == 23 || y == 8 || y == 23 || x == y || x + y == 31;
            c = match pattern {
                Pattern::Crate if edge => [92.0, 60.0, 30.0],
                Pattern::Crate => [170.0, 120.0, 64.0],
                _ if y == 12 || y == 19 || x % 8 == 0 => [90.0, 86.0, 92.0],
                _ => [150.0, 146.0, 150.0],
            };
        }
        // A darker line on two edges draws the grid without a separate layer.
        if x == 0 || y == 0 {
            c = [c[0] * 0.7, c[1] * 0.7, c[2] * 0.7];
        }
        [c[0] as u8, c[1] as u8, c[2] as u8, 255]
    })
}

fn overlay_pixels() -> Vec<u8> {
    let n = TILE_PX;
    paint(n, |x, y| {
        let edge = x < 2 || y < 2 || x >= n - 2 || y >= n - 2;
        [255, 255, 255, if edge { 255 } else { 150 }]
    })
}

fn token_pixels(shape: TokenShape) -> Vec<u8> {
    paint(TOKEN_PX, |x, y| {
        let (fx, fy) = unit_xy(x, y, TOKEN_PX);
        match shape.inside(fx, fy) {
            // A dark outline, then a lighter rim, then the fill (tinted by the sprite).
            Some(d) if d < 0.07 => [20, 20, 24, 255],
            Some(d) if d < 0.14 => [255, 255, 255, 255],
            Some(_) => [210, 210, 210, 255],
            None => [0, 0, 0, 0],
        }
    })
}

fn ring_pixels() -> Vec<u8> {
    paint(TOKEN_PX, |x, y| {
        let (fx, fy) = unit_xy(x, y, TOKEN_PX);
        let d = (fx * fx + fy * fy).sqrt();
        [
            255,
            255,
            255,
            if (0.86..0.99).contains(&d) { 255 } else { 0 },
        ]
    })
}

fn glow_pixels() -> Vec<u8> {
    paint(TOKEN_PX, |x, y| {
        let (fx, fy) = unit_xy(x, y, TOKEN_PX);
        let d = (fx * fx + fy * fy).sqrt();
        let a = (1.0 - d).max(0.0);
        [255, 255, 255, (a * a * 255.0) as u8]
    })
}

fn band_pixels() -> Vec<u8> {
    paint(TOKEN_PX, |x, y| {
        let (fx, fy) = unit_xy(x, y, TOKEN_PX);
        // Full across the middle, fading over the outer fifth of each side.
        let fade = |v: f32| ((1.0 - v.abs()) / 0.2).clamp(0.0, 1.0);
        [255, 255, 255, (fade(fy) * fade(fx).max(0.5) * 255.0) as u8]
    })
}

/// Draws every image for a ruleset's terrain types.
pub fn make_art(images: &mut Assets<Image>, terrain: &[TerrainDef]) -> Art {
    Art {
        terrain: terrain
            .iter()
            .enumerate()
            .map(|(i, t)| images.add(rgba_image(TILE_PX, terrain_pixels(t, i as u32 + 1))))
            .collect(),
        overlay: images.add(rgba_image(TILE_PX, overlay_pixels())),
        tokens: TokenShape::ALL
            .into_iter()
            .map(|s| images.add(rgba_image(TOKEN_PX, token_pixels(s))))
            .collect(),
        ring: images.add(rgba_image(TOKEN_PX, ring_pixels())),
        badge: images.add(rgba_image(TOKEN_PX, token_pixels(TokenShape::Circle))),
        glow: images.add(rgba_image(TOKEN_PX, glow_pixels())),
        band: images.add(rgba_image(TOKEN_PX, band_pixels())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_shape_has_a_filled_centre_and_transparent_corners() {
        for shape in TokenShape::ALL {
            let px = token_pixels(shape);
            let at = |x: u32, y: u32| px[((y * TOKEN_PX + x) * 4 + 3) as usize];
            assert_eq!(at(32, 36), 255, "{shape:?} centre");
            assert_eq!(at(0, 0), 0, "{shape:?} corner");
        }
    }

    #[test]
    fn side_shapes_differ_for_four_sides() {
        let shapes: Vec<TokenShape> = (0..4).map(TokenShape::of_side).collect();
        for i in 0..4 {
            for j in 0..i {
                assert_ne!(shapes[i], shapes[j]);
            }
        }
    }
}
