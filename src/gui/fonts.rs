//! The game's typefaces, shipped in `assets/fonts/` with their licence and compiled in: DejaVu
//! Sans for all text (Bevy's built-in font has only the 95 ASCII glyphs, so names and rule text
//! with accents, dashes or symbols showed as boxes), its bold for headings, and DejaVu Sans Mono
//! where columns of figures must line up.

use bevy::prelude::*;

/// DejaVu Sans: the face every `TextFont` gets unless it asks for another.
const SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold, found by family name and weight (see [`heading`]).
const SANS_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");
/// DejaVu Sans Mono (see [`mono`]).
const MONO: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");

/// The family name inside the sans faces, which Bevy's text layout resolves by name.
const SANS_FAMILY: &str = "DejaVu Sans";
/// The family name inside the mono face.
const MONO_FAMILY: &str = "DejaVu Sans Mono";

/// Puts DejaVu Sans in the default font's place, so every text the game spawns (and Bevy's own)
/// uses it without naming it, and adds the bold and mono faces. Needs Bevy's text plugin.
pub fn plugin(app: &mut App) {
    let mut fonts = app.world_mut().resource_mut::<Assets<Font>>();
    if let Err(e) = fonts.insert(AssetId::default(), Font::from_bytes(SANS.to_vec())) {
        error!("DejaVu Sans could not replace the built-in font: {e}");
    }
    // Strong handles kept in a resource: a font whose last handle drops would be unloaded.
    let faces = Faces {
        _bold: fonts.add(Font::from_bytes(SANS_BOLD.to_vec())),
        _mono: fonts.add(Font::from_bytes(MONO.to_vec())),
    };
    app.insert_resource(faces);
}

/// Keeps the bold and mono faces loaded for the whole run.
#[derive(Resource)]
struct Faces {
    _bold: Handle<Font>,
    _mono: Handle<Font>,
}

/// A heading's font: DejaVu Sans Bold at `size`.
pub fn heading(size: f32) -> TextFont {
    TextFont::from_font_size(size)
        .with_family(SANS_FAMILY)
        .with_font_weight(FontWeight::BOLD)
}

/// A font whose every glyph has one width, for figures in columns: DejaVu Sans Mono at `size`.
pub fn mono(size: f32) -> TextFont {
    TextFont::from_font_size(size).with_family(MONO_FAMILY)
}
