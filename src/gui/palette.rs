//! The game's one palette: panel and text colours, overlay colours, and side colours (the
//! scenario's, or the Okabe-Ito colour-blind safe set), plus the marks and badges that tell
//! sides and conditions apart without colour.

use bevy::prelude::*;

use super::session::Session;

/// Behind everything: screens and the space around the map.
pub const BACKDROP: Color = Color::srgb(0.07, 0.08, 0.10);
/// Panels and bars.
pub const PANEL: Color = Color::srgb(0.12, 0.13, 0.16);
/// Cards on a panel (the turn order).
pub const PANEL_LIGHT: Color = Color::srgb(0.19, 0.20, 0.24);
/// Body text.
pub const TEXT: Color = Color::srgb(0.92, 0.92, 0.90);
/// Hints and greyed-out text.
pub const TEXT_DIM: Color = Color::srgb(0.62, 0.63, 0.66);
/// A word of the rules that shows its glossary entry when the mouse is over it: a light blue
/// that reads on the panels and is told from the text by lightness too (colour-blind safe).
pub const TERM: Color = Color::srgb(0.55, 0.78, 1.0);
/// Titles, highlights and the action bar.
pub const ACCENT: Color = Color::srgb(1.0, 0.80, 0.30);
/// A chance in the odds panel or a prompt: bright and warm, told from the rule words' blue.
pub const FIGURE: Color = Color::srgb(1.0, 0.88, 0.55);
/// A panel section's heading: quieter than the accent, so the figures under it lead.
pub const HEADING: Color = Color::srgb(0.80, 0.70, 0.48);
/// A figure an effect or condition changed from its base value: a violet told from the pool
/// colours by hue and from the text by lightness.
pub const CHANGED: Color = Color::srgb(0.85, 0.62, 1.0);
/// The active unit's ring and card.
pub const ACTIVE: Color = Color::srgb(1.0, 0.90, 0.35);
/// Life bars.
pub const LIFE: Color = Color::srgb(0.35, 0.85, 0.40);
/// Ki bars.
pub const KI: Color = Color::srgb(0.35, 0.65, 1.0);
/// Damage, defeat, Exploit warnings, an attacker in a prompt.
pub const DANGER: Color = Color::srgb(1.0, 0.35, 0.30);

// Overlay tints (the overlay tile carries its own alpha).
/// Squares a Normal Speed move reaches.
pub const REACH: Color = Color::srgba(0.35, 0.75, 1.0, 0.55);
/// Squares a click moves to at Normal Speed with nothing chosen (the move range, fainter).
pub const REACH_IDLE: Color = Color::srgba(0.35, 0.75, 1.0, 0.28);
/// Squares only a Boosted Speed move reaches.
pub const BOOSTED: Color = Color::srgba(0.75, 0.55, 1.0, 0.40);
/// The path under the cursor.
pub const PATH: Color = Color::srgba(1.0, 1.0, 1.0, 0.85);
/// A unit the chosen maneuver may target.
pub const TARGETABLE: Color = Color::srgba(1.0, 0.85, 0.30, 0.45);
/// The squares an area template covers.
pub const AREA: Color = Color::srgba(1.0, 0.70, 0.25, 0.55);
/// An opponent the aimed attack would hit.
pub const HIT_FOE: Color = Color::srgba(1.0, 0.35, 0.10, 0.90);
/// An ally the aimed attack would hit too.
pub const HIT_FRIEND: Color = Color::srgba(0.95, 0.20, 0.85, 0.90);
/// An aim the rules refuse.
pub const REFUSED: Color = Color::srgba(0.6, 0.6, 0.6, 0.5);
/// A square an opponent could attack in melee next turn (Okabe-Ito vermillion: apart from
/// the reach blue and the ranged yellow in lightness as well as hue).
pub const THREAT_MELEE: Color = Color::srgba(0.84, 0.37, 0.0, 0.42);
/// A square only an opponent's ranged or area attack could reach next turn (Okabe-Ito
/// yellow, fainter).
pub const THREAT_RANGED: Color = Color::srgba(0.94, 0.89, 0.26, 0.22);
/// The square under the cursor.
pub const CURSOR: Color = Color::srgba(1.0, 1.0, 0.4, 0.9);

/// Okabe-Ito colours, distinguishable with the common colour-vision deficiencies.
const OKABE_ITO: [Color; 4] = [
    Color::srgb(0.90, 0.62, 0.0),
    Color::srgb(0.34, 0.71, 0.91),
    Color::srgb(0.0, 0.62, 0.45),
    Color::srgb(0.80, 0.47, 0.65),
];

/// Parses `#rrggbb`; `None` for anything else.
pub fn parse_hex(s: &str) -> Option<Color> {
    let h = s.strip_prefix('#')?;
    if h.len() != 6 {
        return None;
    }
    let v = u32::from_str_radix(h, 16).ok()?;
    Some(Color::srgb_u8((v >> 16) as u8, (v >> 8) as u8, v as u8))
}

/// The colour side `i` is drawn in.
pub fn side_colour(session: &Session, i: usize, colour_blind: bool) -> Color {
    if colour_blind {
        return OKABE_ITO[i % OKABE_ITO.len()];
    }
    session
        .loaded
        .scenario
        .sides
        .get(i)
        .and_then(|s| parse_hex(&s.color))
        .unwrap_or(OKABE_ITO[i % OKABE_ITO.len()])
}

/// A text mark per side matching its token shape (circle, square, triangle, diamond).
pub fn side_mark(i: usize) -> &'static str {
    ["o ", "# ", "^ ", "<> "][i % 4]
}

/// A short badge for a condition (the sheet's own, so the board and the panel agree).
pub use crate::battle::sheet::badge;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_parse_and_bad_ones_do_not() {
        assert_eq!(parse_hex("#ff0000"), Some(Color::srgb_u8(255, 0, 0)));
        assert_eq!(parse_hex("ff0000"), None);
        assert_eq!(parse_hex("#ff00"), None);
        assert_eq!(parse_hex("#gg0000"), None);
    }

    #[test]
    fn badges_are_short_and_distinct_for_multi_word_names() {
        assert_eq!(badge("Damage Over Time"), "DOT");
        assert_eq!(badge("Shaken"), "Sh");
    }
}
