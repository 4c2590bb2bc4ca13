//! The icons the window draws (game-icons.net, CC BY 3.0, see `assets/icons/game-icons/`):
//! read once at start-up from the map in `assets/icons/icons.ron`, each PNG decoded into an
//! image the tokens, condition badges and action-bar buttons tint. A missing or broken file is
//! logged with its path and that icon falls back on letters; the game still starts.

use std::collections::BTreeMap;

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;

use crate::icons::IconMap;

/// The icon map and an image per icon it names.
#[derive(Resource, Default)]
pub struct Icons {
    pub map: IconMap,
    images: BTreeMap<String, Handle<Image>>,
}

impl Icons {
    /// The image of icon `stem`, if it was read.
    pub fn image(&self, stem: Option<&str>) -> Option<Handle<Image>> {
        self.images.get(stem?).cloned()
    }

    /// A condition's icon in `ruleset`, by the condition's name.
    pub fn condition(&self, ruleset: &str, name: &str) -> Option<Handle<Image>> {
        self.image(self.map.condition(ruleset, name))
    }

    /// An archetype's icon.
    pub fn archetype(&self, ruleset: &str, id: &str) -> Option<Handle<Image>> {
        self.image(self.map.archetype(ruleset, id))
    }

    /// A bar entry's icon.
    pub fn of_bar(&self, ruleset: &str, key: &BarIcon) -> Option<Handle<Image>> {
        match key {
            BarIcon::Action(name) => self.image(self.map.action(ruleset, name)),
            BarIcon::Profile(id) => self.image(self.map.profile(ruleset, id)),
        }
    }
}

/// What an action-bar entry shows an icon for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BarIcon {
    /// An action by its key-binding name (`EndTurn`) or a defense answer (`Dodge`).
    Action(String),
    /// An attack by its technique's or profile's id.
    Profile(String),
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Icons>()
        .add_systems(PreStartup, load_icons);
}

/// Reads the icon map and decodes every icon it names.
fn load_icons(mut icons: ResMut<Icons>, mut images: ResMut<Assets<Image>>) {
    let file = IconMap::shipped_path();
    let map = match IconMap::load(&file) {
        Ok(map) => map,
        Err(e) => {
            error!("no icons (letters instead): {e}");
            return;
        }
    };
    let mut loaded = BTreeMap::new();
    for stem in map.stems() {
        let path = IconMap::file_of(stem);
        let image = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                Image::from_buffer(
                    &bytes,
                    ImageType::Extension("png"),
                    CompressedImageFormats::NONE,
                    true,
                    ImageSampler::linear(),
                    RenderAssetUsages::default(),
                )
                .map_err(|e| e.to_string())
            });
        match image {
            Ok(image) => {
                loaded.insert(stem.to_string(), images.add(image));
            }
            Err(e) => error!("icon {} not read (letters instead): {e}", path.display()),
        }
    }
    *icons = Icons {
        map,
        images: loaded,
    };
}
