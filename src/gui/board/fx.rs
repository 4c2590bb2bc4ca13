//! The board's feel, read from the battle log: an animation per attack kind (a melee lunge, a
//! bolt, a beam, a cone of rays, an explosion, a burst around the attacker), a white flash on
//! the unit hit and a short shake of the view (each switchable in the settings), the defeated
//! unit fading out, and damage words that pop and ease upward. Everything runs on the
//! animation speed; words and flashes wait for the attack's animation to land.

use bevy::prelude::*;

use super::{TILE, Token};
use crate::battle::components::CombatantId;
use crate::battle::look::{AttackLook, AttackStyle, AttackTint};
use crate::gui::art::Art;
use crate::gui::{Screen, Settings};

/// The part of a token that moves for a lunge (its parent stays where the battle has it).
#[derive(Component)]
pub(super) struct Pose(pub CombatantId);

/// A token stepping toward its target and back.
#[derive(Component)]
pub(super) struct Lunge {
    /// The step at its farthest, in board units.
    toward: Vec2,
    age: f32,
}

/// The white copy of a token's shape that flashes when it is hit.
#[derive(Component)]
pub(super) struct FlashSprite(pub CombatantId);

/// A flash under way (age below zero: waiting for the attack to land).
#[derive(Component)]
pub(super) struct Flash {
    age: f32,
}

/// A defeated token fading to its dim look (age below zero: waiting for the blow to land).
#[derive(Component)]
pub(super) struct Fading {
    age: f32,
}

/// One sprite of an attack's animation.
#[derive(Component)]
pub(super) struct AttackFx {
    look: AttackLook,
    from: Vec2,
    to: Vec2,
    /// The area's radius or the band's length, in board units.
    reach: f32,
    /// Seconds; below zero the sprite waits, hidden.
    age: f32,
    seconds: f32,
    /// A bolt's or a burst's size, in squares.
    size: f32,
}

/// The view's shake: what is left of it and the offset the camera carries now.
#[derive(Resource, Default)]
pub(super) struct Shake {
    left: f32,
    strength: f32,
    wait: f32,
    applied: Vec2,
}

/// Seconds a flash lasts.
const FLASH_SECONDS: f32 = 0.22;
/// Seconds a defeated token takes to fade.
const FADE_SECONDS: f32 = 0.7;
/// Seconds a shake lasts.
const SHAKE_SECONDS: f32 = 0.25;
/// Seconds a lunge takes, there and back.
const LUNGE_SECONDS: f32 = 0.3;
/// Board units a bolt flies per second.
const BOLT_SPEED: f32 = 14.0 * TILE;
/// How many rays draw a cone.
const CONE_RAYS: usize = 7;
/// The cone's half-angle in radians (a Blast 3 long and 5 wide opens about 40 degrees).
const CONE_HALF_ANGLE: f32 = 0.7;

/// The colour an attack's animation is drawn in.
pub(super) fn tint_colour(tint: AttackTint, element: Option<&str>) -> Color {
    let by_element = element.map(str::to_ascii_lowercase).and_then(|e| {
        Some(match e.as_str() {
            "fire" => Color::srgb(1.0, 0.55, 0.2),
            "ice" => Color::srgb(0.6, 0.9, 1.0),
            "lightning" => Color::srgb(1.0, 0.95, 0.4),
            "earth" => Color::srgb(0.75, 0.6, 0.4),
            "venom" => Color::srgb(0.55, 0.95, 0.35),
            "wind" => Color::srgb(0.8, 1.0, 0.85),
            "light" => Color::srgb(1.0, 1.0, 0.85),
            _ => return None,
        })
    });
    by_element.unwrap_or(match tint {
        AttackTint::Physical => Color::srgb(1.0, 0.95, 0.85),
        AttackTint::Energy => Color::srgb(0.55, 0.85, 1.0),
        AttackTint::Magical => Color::srgb(0.8, 0.5, 1.0),
    })
}

/// Starts an attack's animation from `from` at `targets` (their centres); returns the seconds
/// until it lands, which the words and flashes it causes wait for.
pub(super) fn start_attack(
    commands: &mut Commands,
    art: &Art,
    attacker: (Entity, Vec2),
    targets: &[Vec2],
    style: AttackStyle,
    colour: Color,
) -> f32 {
    let (pose, from) = attacker;
    let aim = if targets.is_empty() {
        None
    } else {
        Some(targets.iter().copied().sum::<Vec2>() / targets.len() as f32)
    };
    let reach = (style.squares as f32 + 0.5) * TILE;
    let mut spawn = |look: AttackLook,
                     to: Vec2,
                     (wait, seconds): (f32, f32),
                     (image, size, colour): (Handle<Image>, f32, Color)| {
        commands.spawn((
            Name::new("Attack animation"),
            AttackFx {
                look,
                from,
                to,
                reach,
                age: -wait,
                seconds,
                size,
            },
            DespawnOnExit(Screen::Battle),
            Sprite {
                image,
                color: colour.with_alpha(0.0),
                custom_size: Some(Vec2::splat(1.0)),
                ..default()
            },
            Transform::from_translation(from.extend(25.0 + size)),
        ));
    };
    let glow = |size: f32| (art.glow.clone(), size, colour);
    let ring = |size: f32| (art.ring.clone(), size, colour);
    let core = |size: f32| (art.glow.clone(), size, Color::WHITE);
    let band = |size: f32| (art.band.clone(), size, colour);
    let white = |size: f32| (art.band.clone(), size, Color::WHITE);
    match style.look {
        AttackLook::Lunge => {
            let Some(to) = aim else { return 0.0 };
            let step = (to - from).normalize_or_zero() * TILE * 0.45;
            commands.entity(pose).insert(Lunge {
                toward: step,
                age: 0.0,
            });
            LUNGE_SECONDS * 0.45
        }
        AttackLook::Projectile => {
            let mut longest: f32 = 0.0;
            for to in targets {
                let flight = (from.distance(*to) / BOLT_SPEED).clamp(0.12, 0.5);
                longest = longest.max(flight);
                // A trail, the bolt's glow and its white-hot core, then a ring where it lands.
                spawn(AttackLook::Projectile, *to, (0.05, flight), glow(0.55));
                spawn(AttackLook::Projectile, *to, (0.0, flight), glow(1.0));
                spawn(AttackLook::Projectile, *to, (0.0, flight), core(0.45));
                spawn(AttackLook::Burst, *to, (flight, 0.3), ring(1.0));
            }
            longest
        }
        AttackLook::Beam | AttackLook::Cone => {
            let Some(to) = aim else { return 0.0 };
            let dir = (to - from).normalize_or_zero();
            if style.look == AttackLook::Beam {
                // An area's band runs its whole length; a single target's ends on each target.
                let ends: Vec<Vec2> = if style.squares == 0 {
                    targets.to_vec()
                } else {
                    vec![from + dir * reach]
                };
                for end in ends {
                    spawn(AttackLook::Beam, end, (0.0, 0.55), band(1.0));
                    spawn(AttackLook::Beam, end, (0.0, 0.55), white(0.4));
                    spawn(AttackLook::Burst, end, (0.15, 0.3), ring(1.0));
                }
            } else {
                for i in 0..CONE_RAYS {
                    let share = i as f32 / (CONE_RAYS - 1) as f32 * 2.0 - 1.0;
                    let ray = Vec2::from_angle(share * CONE_HALF_ANGLE).rotate(dir);
                    spawn(AttackLook::Cone, from + ray * reach, (0.0, 0.45), band(1.0));
                }
            }
            spawn(AttackLook::Burst, from, (0.0, 0.3), glow(1.2));
            0.15
        }
        AttackLook::Explosion => {
            let at = aim.unwrap_or(from);
            let flight = (from.distance(at) / BOLT_SPEED).clamp(0.12, 0.5);
            spawn(AttackLook::Projectile, at, (0.0, flight), glow(1.0));
            spawn(AttackLook::Projectile, at, (0.0, flight), core(0.45));
            spawn(AttackLook::Explosion, at, (flight, 0.6), glow(1.0));
            spawn(AttackLook::Explosion, at, (flight, 0.45), core(0.5));
            flight + 0.1
        }
        AttackLook::Burst => {
            spawn(AttackLook::Explosion, from, (0.0, 0.45), ring(1.0));
            spawn(AttackLook::Explosion, from, (0.0, 0.3), glow(0.8));
            0.15
        }
    }
}

/// Flashes `who` white after `wait` seconds, if flashes are on.
pub(super) fn flash(
    commands: &mut Commands,
    flashes: &Query<(Entity, &FlashSprite)>,
    who: CombatantId,
    wait: f32,
) {
    for (e, f) in flashes {
        if f.0 == who {
            commands.entity(e).insert(Flash { age: -wait });
        }
    }
}

/// Fades `token` (a defeated unit's) after `wait` seconds.
pub(super) fn fade(commands: &mut Commands, token: Entity, wait: f32) {
    commands.entity(token).insert(Fading { age: -wait });
}

/// Shakes the view after `wait` seconds, harder for a heavier blow.
pub(super) fn shake(shake: &mut Shake, strength: f32, wait: f32) {
    if shake.left <= 0.0 || strength > shake.strength {
        shake.strength = strength;
        shake.wait = wait;
    }
    shake.left = SHAKE_SECONDS;
}

/// Moves each sprite of an attack's animation on, and removes it when it is done.
pub(super) fn play_attack_animations(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    mut q: Query<(Entity, &mut AttackFx, &mut Transform, &mut Sprite)>,
) {
    let dt = time.delta_secs() * settings.animation_speed;
    for (e, mut fx, mut t, mut sprite) in &mut q {
        fx.age += dt;
        if fx.age < 0.0 {
            continue;
        }
        let k = (fx.age / fx.seconds).clamp(0.0, 1.0);
        if fx.age >= fx.seconds {
            commands.entity(e).despawn();
            continue;
        }
        let out = EaseFunction::CubicOut.sample_clamped(k);
        let (at, size, angle, alpha) = match fx.look {
            AttackLook::Projectile => (
                fx.from
                    .lerp(fx.to, EaseFunction::QuadraticIn.sample_clamped(k)),
                Vec2::splat(TILE * 0.5),
                0.0,
                1.0,
            ),
            AttackLook::Beam | AttackLook::Cone => {
                let d = fx.to - fx.from;
                let grow = if fx.look == AttackLook::Beam {
                    EaseFunction::QuadraticOut.sample_clamped((k * 3.0).min(1.0))
                } else {
                    out
                };
                let width = if fx.look == AttackLook::Beam {
                    TILE * 0.6 * fx.size * (std::f32::consts::PI * k).sin().max(0.15)
                } else {
                    TILE * 0.2 * fx.size
                };
                let length = d.length() * grow;
                (
                    fx.from + d.normalize_or_zero() * length / 2.0,
                    Vec2::new(length, width),
                    d.to_angle(),
                    1.0 - k * k,
                )
            }
            AttackLook::Explosion => (
                fx.to,
                Vec2::splat(fx.reach * 2.0 * fx.size * out),
                0.0,
                1.0 - k * k,
            ),
            AttackLook::Burst => (
                fx.to,
                Vec2::splat(TILE * fx.size * (0.5 + out)),
                0.0,
                1.0 - k,
            ),
            AttackLook::Lunge => (fx.from, Vec2::ZERO, 0.0, 0.0),
        };
        t.translation = at.extend(t.translation.z);
        t.rotation = Quat::from_rotation_z(angle);
        sprite.custom_size = Some(size);
        sprite.color.set_alpha(alpha.clamp(0.0, 1.0));
    }
}

/// Steps lunging tokens toward their target and back.
pub(super) fn lunge_tokens(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    mut q: Query<(Entity, &mut Lunge, &mut Transform)>,
) {
    let dt = time.delta_secs() * settings.animation_speed;
    for (e, mut lunge, mut t) in &mut q {
        lunge.age += dt;
        let k = (lunge.age / LUNGE_SECONDS).clamp(0.0, 1.0);
        // Out quickly, back slowly: the blow lands at 45 % of the way.
        let reach = if k < 0.45 {
            EaseFunction::QuadraticOut.sample_clamped(k / 0.45)
        } else {
            1.0 - EaseFunction::QuadraticInOut.sample_clamped((k - 0.45) / 0.55)
        };
        t.translation = (lunge.toward * reach).extend(t.translation.z);
        if k >= 1.0 {
            t.translation = Vec3::new(0.0, 0.0, t.translation.z);
            commands.entity(e).remove::<Lunge>();
        }
    }
}

/// Shows and fades the white flash on a unit hit.
pub(super) fn flash_hit_tokens(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    mut q: Query<(Entity, &mut Flash, &mut Sprite)>,
) {
    let dt = time.delta_secs() * settings.animation_speed;
    for (e, mut f, mut sprite) in &mut q {
        f.age += dt;
        let alpha = if !settings.hit_flash || f.age < 0.0 {
            0.0
        } else {
            0.85 * (1.0 - f.age / FLASH_SECONDS).max(0.0)
        };
        sprite.color.set_alpha(alpha);
        if f.age >= FLASH_SECONDS {
            commands.entity(e).remove::<Flash>();
        }
    }
}

/// Fades a defeated unit's token from its full colour to its dim look; runs after the tokens
/// are drawn, whose dim look it holds back until the blow lands.
pub(super) fn fade_defeated_tokens(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    mut tokens: Query<(Entity, &Token, &mut Fading)>,
    mut bodies: Query<(&super::Body, &mut Sprite)>,
) {
    let dt = time.delta_secs() * settings.animation_speed;
    for (e, token, mut fading) in &mut tokens {
        fading.age += dt;
        let k = EaseFunction::CubicIn.sample_clamped((fading.age / FADE_SECONDS).max(0.0));
        for (body, mut sprite) in &mut bodies {
            if body.0 == token.0 {
                sprite.color.set_alpha(1.0 - 0.65 * k);
            }
        }
        if fading.age >= FADE_SECONDS {
            commands.entity(e).remove::<Fading>();
        }
    }
}

/// Takes last frame's shake off the camera, so every other system sees where it stands.
pub(super) fn steady_camera(
    mut shake: ResMut<Shake>,
    mut camera: Query<&mut Transform, With<super::BoardCamera>>,
) {
    if shake.applied == Vec2::ZERO {
        return;
    }
    if let Ok(mut t) = camera.single_mut() {
        t.translation -= shake.applied.extend(0.0);
    }
    shake.applied = Vec2::ZERO;
}

/// Puts this frame's shake on the camera (after everything else has moved it).
pub(super) fn shake_camera(
    time: Res<Time>,
    settings: Res<Settings>,
    mut shake: ResMut<Shake>,
    mut camera: Query<(&mut Transform, &Projection), With<super::BoardCamera>>,
) {
    if shake.left <= 0.0 {
        return;
    }
    let dt = time.delta_secs() * settings.animation_speed;
    if shake.wait > 0.0 {
        shake.wait -= dt;
        return;
    }
    shake.left -= dt;
    if !settings.screen_shake || shake.left <= 0.0 {
        shake.left = 0.0;
        return;
    }
    let Ok((mut t, projection)) = camera.single_mut() else {
        return;
    };
    let scale = super::camera::zoom_of(projection);
    // A decaying wobble on both axes, in screen pixels (the same on any zoom).
    let k = shake.left / SHAKE_SECONDS;
    let phase = shake.left * 70.0;
    let offset = Vec2::new(phase.sin(), (phase * 1.3).cos()) * shake.strength * k * scale;
    t.translation += offset.extend(0.0);
    shake.applied = offset;
}
