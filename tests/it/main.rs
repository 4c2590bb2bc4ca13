//! Integration tests: one test crate so cargo links one binary. Each rule test builds a tiny
//! battle, fixes the dice, runs one command and asserts the exact events it produced.

mod common;

mod ai;
mod arrogance;
mod balance;
mod called_shot;
mod characters;
mod charge;
mod conditions;
mod corpus;
mod d20;
mod d20_aimed;
mod d20_delay;
mod d20_feint;
mod damage;
mod defense;
mod determinism;
mod digimon;
mod digimon_opening;
mod economy;
mod empower;
mod generated;
mod glossary;
mod grapple;
mod grid;
#[cfg(feature = "gui")]
mod gui_app;
#[cfg(feature = "gui")]
mod gui_builder;
#[cfg(feature = "gui")]
mod gui_e2e;
#[cfg(feature = "gui")]
mod gui_view;
mod guide;
mod hide;
mod icons;
mod invariants;
mod licences;
mod map_edit;
mod movement;
mod numbers;
mod odds;
mod points;
mod profiles;
mod reflect;
mod restage;
mod rules_data;
mod saves;
mod scenarios;
mod shinobi;
mod shinobi_jump;
mod snapshots;
mod stages;
mod strike;
mod techniques;
mod threats;
mod thresholds;
mod tiled;
mod united;
