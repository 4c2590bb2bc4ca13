//! The combatants' snapshots kept between rule systems and commands, copied again only for
//! the combatants whose components changed since (Bevy's change ticks say which), so a rule
//! system or a command check reads every combatant without cloning twenty components each.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use bevy::ecs::change_detection::Tick;
use bevy::ecs::system::{SystemChangeTick, SystemParam};
use bevy::prelude::*;

use super::components::CombatantId;
use super::fighter::{Fighter, FighterQuery, FighterQueryItem};

/// How many components a combatant's snapshot is copied from: [`FighterQuery`]'s, less its
/// entity and id. Every per-component array here and in the state hash has this length.
pub const COMPONENTS: usize = 19;

/// Per component of a snapshot, in [`FighterQuery`]'s order: a number that changes whenever
/// that component of the snapshot changes.
pub type PartVersions = [u64; COMPONENTS];

/// The snapshots of every combatant in id order, as of the last refresh.
///
/// A refresh copies only the components written since the last one, and only where they now
/// differ. A component's change tick is the tick of the system run (or the world access) that
/// wrote it, so a component written in the tick of the last refresh may have been written
/// after it: such a component is compared again at the next refresh, once.
#[derive(Resource, Default)]
pub struct SnapshotCache {
    fighters: Arc<Vec<Fighter>>,
    slots: Vec<Slot>,
    /// Bumped whenever a snapshot changes, so a reader (the state hash) knows which changed
    /// without comparing whole snapshots.
    copies: u64,
    /// Which combatants may have been written since the last refresh (see
    /// [`SnapshotCache::mark_written`]): most rule systems read the combatants and write
    /// nothing or one, so most refreshes look at no change tick or at one combatant's.
    written: Written,
}

/// Which combatants may have been written since the last refresh.
#[derive(Default)]
enum Written {
    /// Any of them, or one was added or removed: look at every change tick.
    #[default]
    Any,
    /// Only these slots (each written through [`Fighters::one_mut`]).
    Slots(Vec<usize>),
}

impl SnapshotCache {
    /// Every combatant's snapshot as of `now`, copying only those that changed.
    pub fn refresh(&mut self, q: &mut Query<FighterQuery>, now: Tick) -> Arc<Vec<Fighter>> {
        if let Written::Slots(slots) = &mut self.written {
            for at in std::mem::take(slots) {
                match q.get_mut(self.slots[at].entity) {
                    Ok(item) => self.update(at, &item, now),
                    // Not where the cache left it: look at everyone.
                    Err(_) => return self.refresh_all(q, now),
                }
            }
            return self.fighters.clone();
        }
        self.refresh_all(q, now)
    }

    /// [`SnapshotCache::refresh`] looking at every combatant's change ticks.
    fn refresh_all(&mut self, q: &mut Query<FighterQuery>, now: Tick) -> Arc<Vec<Fighter>> {
        let mut count = 0;
        let mut rebuild = false;
        for (i, item) in q.iter_mut().enumerate() {
            count += 1;
            // The query usually iterates in the cache's order; search only when it does not.
            let at = match self.slots.get(i) {
                Some(s) if s.entity == item.entity => Some(i),
                _ => self.slots.iter().position(|s| s.entity == item.entity),
            };
            let Some(at) = at else {
                rebuild = true;
                break;
            };
            self.update(at, &item, now);
        }
        if rebuild || count != self.slots.len() {
            self.rebuild(q, now);
        }
        self.written = Written::Slots(Vec::new());
        self.fighters.clone()
    }

    /// Tells the cache that any combatant may be written from now on (the query was taken
    /// mutably, or the world handed out), so the next refresh looks at every change tick.
    pub fn mark_written(&mut self) {
        self.written = Written::Any;
    }

    /// Tells the cache that the combatant of `entity` may be written from now on.
    fn mark_entity_written(&mut self, entity: Entity) {
        let at = self.slots.iter().position(|s| s.entity == entity);
        match (&mut self.written, at) {
            (Written::Slots(slots), Some(at)) => {
                if !slots.contains(&at) {
                    slots.push(at);
                }
            }
            (Written::Slots(_), None) => self.written = Written::Any,
            (Written::Any, _) => {}
        }
    }

    /// The snapshots with combatant `id`'s alone brought up to date: a rule system that
    /// changed only that one (a step of a move) need not look at the others.
    pub fn refresh_one(
        &mut self,
        q: &mut Query<FighterQuery>,
        id: CombatantId,
        now: Tick,
    ) -> Arc<Vec<Fighter>> {
        if let Written::Slots(_) = self.written {
            return self.refresh(q, now);
        }
        let found = self.fighters.iter().position(|f| f.id == id);
        match found.and_then(|at| Some((at, q.get_mut(self.slots[at].entity).ok()?))) {
            Some((at, item)) => {
                self.update(at, &item, now);
                self.fighters.clone()
            }
            None => self.refresh(q, now),
        }
    }

    /// Brings slot `at` up to date with its combatant `item`.
    fn update(&mut self, at: usize, item: &FighterQueryItem, now: Tick) {
        let ticks = change_ticks(item);
        let slot = self.slots[at];
        let copied_at = u64::from(slot.copied_at.get());
        if slot.ticks == ticks && !ticks.contains(&copied_at) {
            return;
        }
        let bits = changed(&self.fighters[at], item, |c| slot.stale(&ticks, c));
        if bits != 0 {
            // Shared with a reader still holding the last refresh: it keeps its copy.
            sync(&mut Arc::make_mut(&mut self.fighters)[at], item, bits);
            self.copies += 1;
            let s = &mut self.slots[at];
            s.version = self.copies;
            for (c, part) in s.parts.iter_mut().enumerate() {
                if bits & (1 << c) != 0 {
                    *part = self.copies;
                }
            }
        }
        self.slots[at].ticks = ticks;
        self.slots[at].copied_at = now;
    }

    /// Copies every combatant afresh (one was added or removed).
    fn rebuild(&mut self, q: &mut Query<FighterQuery>, now: Tick) {
        let mut all: Vec<(Fighter, Slot)> = q
            .iter_mut()
            .map(|item| {
                self.copies += 1;
                let slot = Slot {
                    entity: item.entity,
                    ticks: change_ticks(&item),
                    copied_at: now,
                    version: self.copies,
                    parts: [self.copies; COMPONENTS],
                };
                (item.snapshot(), slot)
            })
            .collect();
        all.sort_by_key(|(f, _)| f.id);
        let (fighters, slots) = all.into_iter().unzip();
        self.fighters = Arc::new(fighters);
        self.slots = slots;
    }

    /// The entity of combatant `id`, as of the last refresh.
    pub fn entity_of(&self, id: CombatantId) -> Option<Entity> {
        let at = self.fighters.binary_search_by_key(&id, |f| f.id).ok()?;
        self.slots.get(at).map(|s| s.entity)
    }

    /// A number that changes whenever the `i`-th snapshot (in id order) changes.
    pub fn version(&self, i: usize) -> Option<u64> {
        self.slots.get(i).map(|s| s.version)
    }

    /// Per component of the `i`-th snapshot, in [`FighterQuery`]'s order: a number that
    /// changes whenever that component of the snapshot changes.
    pub fn part_versions(&self, i: usize) -> Option<&PartVersions> {
        self.slots.get(i).map(|s| &s.parts)
    }
}

/// What the cache knows of one combatant's copy.
#[derive(Clone, Copy)]
struct Slot {
    entity: Entity,
    /// Each component's change tick when it was copied ([`ABSENT`]: an optional component it
    /// did not have; removing one leaves no tick, so its absence is compared too).
    ticks: ChangeTicks,
    /// The tick the copy was made at.
    copied_at: Tick,
    /// Which copy this is (see [`SnapshotCache::version`]).
    version: u64,
    /// Per component, the copy that last changed it (see [`SnapshotCache::part_versions`]).
    parts: PartVersions,
}

/// The change ticks of a combatant's components, in [`FighterQuery`]'s order, widened so an
/// absent optional component ([`ABSENT`]) differs from every tick and the whole array compares
/// at once.
type ChangeTicks = [u64; COMPONENTS];

/// An optional component the combatant does not have.
const ABSENT: u64 = u64::MAX;

impl Slot {
    /// Whether component `c` (in [`FighterQuery`]'s order) may differ from the copy, its
    /// change ticks being `ticks` now: it was written since, or in the tick the copy was made
    /// at (perhaps after it).
    fn stale(&self, ticks: &ChangeTicks, c: usize) -> bool {
        self.ticks[c] != ticks[c] || self.ticks[c] == u64::from(self.copied_at.get())
    }
}

/// The components `stale` allows that differ between the copy `f` and the combatant, as bits
/// in [`FighterQuery`]'s order. A rule system that takes a component mutably writes it as far
/// as Bevy can tell, even when it changes nothing (a `retain` that keeps all): comparing keeps
/// such a copy and its version.
fn changed(f: &Fighter, item: &FighterQueryItem, stale: impl Fn(usize) -> bool) -> u32 {
    let mut bits = 0;
    macro_rules! each {
        ($($c:literal $field:ident),*) => {
            $(if stale($c) && f.$field != *item.$field { bits |= 1 << $c; })*
        };
    }
    each!(0 identity, 1 side, 2 attributes, 3 power, 4 size, 5 life, 6 ki, 7 capacity,
        9 conditions, 10 thresholds, 11 defense, 12 actions, 13 round, 14 encounter,
        15 loadout, 16 controller);
    if stale(8) && f.position != item.position.0 {
        bits |= 1 << 8;
    }
    if stale(17) && f.cards.as_ref() != item.cards.as_deref() {
        bits |= 1 << 17;
    }
    if stale(18) && f.digi.as_ref() != item.digi.as_deref() {
        bits |= 1 << 18;
    }
    bits
}

/// Copies into `f` the components whose bits are in `bits`; the others are as they were.
fn sync(f: &mut Fighter, item: &FighterQueryItem, bits: u32) {
    let has = |c: u32| bits & (1 << c) != 0;
    macro_rules! each {
        ($($c:literal $field:ident),*) => {
            $(if has($c) { f.$field = (*item.$field).clone(); })*
        };
    }
    each!(0 identity, 1 side, 2 attributes, 3 power, 4 size, 5 life, 6 ki, 7 capacity,
        9 conditions, 10 thresholds, 11 defense, 12 actions, 13 round, 14 encounter,
        15 loadout, 16 controller);
    if has(8) {
        f.position = item.position.0;
    }
    if has(17) {
        f.cards = item.cards.as_deref().cloned();
    }
    if has(18) {
        f.digi = item.digi.as_deref().cloned();
    }
}

/// The change ticks of one combatant's components.
fn change_ticks(item: &FighterQueryItem) -> ChangeTicks {
    let t = |tick: Tick| u64::from(tick.get());
    [
        t(item.identity.last_changed()),
        t(item.side.last_changed()),
        t(item.attributes.last_changed()),
        t(item.power.last_changed()),
        t(item.size.last_changed()),
        t(item.life.last_changed()),
        t(item.ki.last_changed()),
        t(item.capacity.last_changed()),
        t(item.position.last_changed()),
        t(item.conditions.last_changed()),
        t(item.thresholds.last_changed()),
        t(item.defense.last_changed()),
        t(item.actions.last_changed()),
        t(item.round.last_changed()),
        t(item.encounter.last_changed()),
        t(item.loadout.last_changed()),
        t(item.controller.last_changed()),
        item.cards.as_ref().map_or(ABSENT, |c| t(c.last_changed())),
        item.digi.as_ref().map_or(ABSENT, |c| t(c.last_changed())),
    ]
}

/// A rule system's access to the combatants: the query it writes through, and snapshots of
/// all of them that are copied only where something changed. It derefs to the query, so a
/// system writes exactly as it would with a plain `Query<FighterQuery>`.
#[derive(SystemParam)]
pub struct Fighters<'w, 's> {
    q: Query<'w, 's, FighterQuery>,
    cache: ResMut<'w, SnapshotCache>,
    ticks: SystemChangeTick,
}

impl<'s> Fighters<'_, 's> {
    /// Snapshots of every combatant, in id order (the stable order rules iterate in).
    pub fn snapshots(&mut self) -> Arc<Vec<Fighter>> {
        let now = self.ticks.this_run();
        self.cache.refresh(&mut self.q, now)
    }

    /// Combatant `id`'s components, to write: found through the snapshot cache's entity for
    /// it (a search of every combatant only when the cache does not know it yet), so a write
    /// does not walk the whole query.
    pub fn one_mut(&mut self, id: CombatantId) -> Option<FighterQueryItem<'_, 's>> {
        let known = self
            .cache
            .entity_of(id)
            .filter(|e| self.q.get(*e).is_ok_and(|f| *f.id == id));
        let entity = match known {
            Some(e) => e,
            None => self.q.iter().find(|f| *f.id == id)?.entity,
        };
        self.cache.mark_entity_written(entity);
        self.q.get_mut(entity).ok()
    }

    /// [`Fighters::snapshots`] after a change to combatant `id` alone.
    pub fn snapshots_after(&mut self, id: CombatantId) -> Arc<Vec<Fighter>> {
        let now = self.ticks.this_run();
        self.cache.refresh_one(&mut self.q, id, now)
    }
}

impl<'w, 's> Deref for Fighters<'w, 's> {
    type Target = Query<'w, 's, FighterQuery>;

    fn deref(&self) -> &Self::Target {
        &self.q
    }
}

impl DerefMut for Fighters<'_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        // Every write goes through here or `one_mut`: the cache must look again.
        self.cache.mark_written();
        &mut self.q
    }
}
