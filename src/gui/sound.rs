//! Sound effects synthesised by our own code at start-up (dice, hit, miss, critical, threshold,
//! defeat) as small WAV files, played for battle events at the settings' volume unless muted.

use std::sync::Arc;

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;

use super::Screen;
use super::session::Session;
use super::settings::Settings;
use crate::battle::event::BattleEvent;

/// Samples per second of the generated sounds.
pub const SAMPLE_RATE: u32 = 22_050;

/// The game's sound effects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Dice,
    Hit,
    Miss,
    Critical,
    Threshold,
    Defeat,
}

impl Effect {
    /// Every effect, to synthesise them all at start-up.
    pub const ALL: [Effect; 6] = [
        Self::Dice,
        Self::Hit,
        Self::Miss,
        Self::Critical,
        Self::Threshold,
        Self::Defeat,
    ];
}

/// A fixed pseudo-random stream for noise (the sounds are the same on every run).
fn noise(i: usize) -> f32 {
    let mut h = (i as u32).wrapping_mul(2_654_435_761) ^ 0x9e37_79b9;
    h ^= h >> 15;
    h = h.wrapping_mul(2_246_822_519);
    h ^= h >> 13;
    (h as f32 / u32::MAX as f32) * 2.0 - 1.0
}

/// The samples of an effect, from -1 to 1.
pub fn samples(effect: Effect) -> Vec<f32> {
    let sr = SAMPLE_RATE as f32;
    let secs = |s: f32| (s * sr) as usize;
    let tone = |f: f32, i: usize| (std::f32::consts::TAU * f * i as f32 / sr).sin();
    match effect {
        Effect::Dice => (0..secs(0.16))
            .map(|i| {
                // Three short clicks, 50 ms apart.
                let t = i as f32 / sr;
                let local = t % 0.05;
                let env = (-local * 220.0).exp();
                noise(i) * env * 0.7
            })
            .collect(),
        Effect::Hit => (0..secs(0.22))
            .map(|i| {
                let t = i as f32 / sr;
                let env = (-t * 18.0).exp();
                (tone(90.0 - 40.0 * t, i) * 0.8 + noise(i) * 0.25) * env
            })
            .collect(),
        Effect::Miss => (0..secs(0.25))
            .map(|i| {
                let t = i as f32 / 0.25 / sr;
                let env = (std::f32::consts::PI * t).sin();
                noise(i) * env * 0.35
            })
            .collect(),
        Effect::Critical => [660.0, 880.0, 1320.0]
            .iter()
            .flat_map(|f| {
                (0..secs(0.08)).map(move |i| {
                    let env = 1.0 - i as f32 / (0.08 * sr);
                    tone(*f, i) * env * 0.5
                })
            })
            .collect(),
        Effect::Threshold => [440.0, 330.0]
            .iter()
            .flat_map(|f| {
                (0..secs(0.12)).map(move |i| {
                    let s = tone(*f, i);
                    s.signum() * 0.25 + s * 0.2
                })
            })
            .collect(),
        Effect::Defeat => (0..secs(0.6))
            .map(|i| {
                // A sweep from 400 Hz down to 100 Hz: the phase integrates 400 - 500 t.
                let t = i as f32 / sr;
                let phase = std::f32::consts::TAU * (400.0 * t - 250.0 * t * t);
                phase.sin() * (1.0 - t / 0.6) * 0.5
            })
            .collect(),
    }
}

/// A mono 16-bit PCM WAV file of `samples`.
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    out.extend_from_slice(&(SAMPLE_RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        let v = (s.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16;
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// The generated sounds, one per [`Effect`].
#[derive(Resource)]
struct Sounds(Vec<(Effect, Handle<AudioSource>)>);

/// How far the sound system has read the event log.
#[derive(Resource, Default)]
struct Heard(usize);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Heard>()
        .add_systems(Startup, make_sounds)
        .add_systems(OnEnter(Screen::Battle), skip_old_events)
        .add_systems(
            Update,
            play_event_sounds.run_if(in_state(Screen::Battle).and_then(resource_exists::<Session>)),
        );
}

fn make_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    let sounds = Effect::ALL
        .iter()
        .map(|e| {
            let bytes: Arc<[u8]> = wav(&samples(*e)).into();
            (*e, sources.add(AudioSource { bytes }))
        })
        .collect();
    commands.insert_resource(Sounds(sounds));
}

fn skip_old_events(session: Res<Session>, mut heard: ResMut<Heard>) {
    heard.0 = session.battle.events().len();
}

/// The effect an event makes, if any.
pub fn effect_of(e: &BattleEvent) -> Option<Effect> {
    match e {
        BattleEvent::StrikeRolled { roll, .. } if roll.critical => Some(Effect::Critical),
        BattleEvent::StrikeRolled { .. } => Some(Effect::Dice),
        BattleEvent::Clash { hit: true, .. } => Some(Effect::Hit),
        BattleEvent::Clash { hit: false, .. } => Some(Effect::Miss),
        BattleEvent::ThresholdReached { .. } => Some(Effect::Threshold),
        BattleEvent::Defeated { .. } => Some(Effect::Defeat),
        _ => None,
    }
}

fn play_event_sounds(
    mut commands: Commands,
    session: Res<Session>,
    settings: Res<Settings>,
    sounds: Option<Res<Sounds>>,
    mut heard: ResMut<Heard>,
) {
    let events = session.battle.events();
    let new = &events[heard.0.min(events.len())..];
    heard.0 = events.len();
    let Some(sounds) = sounds else { return };
    if settings.muted || settings.volume <= 0.0 {
        return;
    }
    // One sound of each kind per frame, so a burst of events does not deafen anyone.
    let mut played: Vec<Effect> = Vec::new();
    for effect in new.iter().filter_map(effect_of) {
        if played.contains(&effect) {
            continue;
        }
        played.push(effect);
        if let Some((_, h)) = sounds.0.iter().find(|(e, _)| *e == effect) {
            commands.spawn((
                Name::new("Sound"),
                AudioPlayer::new(h.clone()),
                PlaybackSettings::DESPAWN.with_volume(Volume::Linear(settings.volume)),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_effect_is_a_short_audible_wav() {
        for e in Effect::ALL {
            let s = samples(e);
            let secs = s.len() as f32 / SAMPLE_RATE as f32;
            assert!((0.1..=1.0).contains(&secs), "{e:?} lasts {secs} s");
            let peak = s.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            assert!(peak > 0.2 && peak <= 1.0, "{e:?} peak {peak}");
            let bytes = wav(&s);
            assert_eq!(&bytes[0..4], b"RIFF");
            assert_eq!(&bytes[8..16], b"WAVEfmt ");
            assert_eq!(bytes.len(), 44 + s.len() * 2);
        }
    }
}
