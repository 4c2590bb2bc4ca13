//! The character editor's sheet: each family's fields as numbers, choices and toggles, and the
//! one edit step that refuses a value the ruleset does not allow, naming the rule.

use std::collections::BTreeSet;

use super::{Character, Problem};
use crate::ruleset::{FamilyData, Rules};

/// What a field holds, and so how the editor changes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A number, stepped up and down.
    Number(i64),
    /// One of `options` (`(id, label)`), stepped through in order.
    Choice {
        chosen: String,
        options: Vec<(String, String)>,
    },
    /// In the character's list or not (an attack, a feat, a profile).
    Toggle(bool),
}

/// One line of the sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field's roster path (`stats.STR`, `hp`); a list member is `attacks:bow_shot`.
    pub key: String,
    /// What the sheet calls it (`Strength`, `Bow shot`).
    pub label: String,
    /// The heading it is listed under (`Abilities`, `Attacks`).
    pub group: &'static str,
    pub value: Value,
}

/// An edit the ruleset forbids: the field and the rule, in the ruleset's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct Refusal {
    pub field: String,
    pub message: String,
}

impl Character {
    /// The sheet of this character under `rules`: every field the editor can change, in the
    /// order it lists them.
    pub fn fields(&self, rules: &Rules) -> Vec<Field> {
        let mut out = Vec::new();
        let mut num = |group, key: String, label: String, v: i64| {
            out.push(Field {
                key,
                label,
                group,
                value: Value::Number(v),
            })
        };
        match (self, &rules.family) {
            (Self::Dbu(a), _) => {
                num(
                    "Sheet",
                    "power_level".into(),
                    "Power Level".into(),
                    i64::from(a.power_level),
                );
                for at in &rules.characters.attributes {
                    let v = a.attributes.get(&at.id).copied().unwrap_or(0);
                    num(
                        "Attributes",
                        format!("attributes.{}", at.id),
                        at.name.clone(),
                        v,
                    );
                }
            }
            (Self::D20(c), FamilyData::D20(d)) => {
                num("Sheet", "hp".into(), d.combat.pool_name.clone(), c.hp);
                for s in &d.combat.stats {
                    let group = match s.kind {
                        crate::ruleset::shinobi::StatKind::Ability => "Abilities",
                        _ => "Skills",
                    };
                    let v = c.stats.get(&s.id).copied().unwrap_or(0);
                    num(group, format!("stats.{}", s.id), s.name.clone(), v);
                }
            }
            (Self::Shinobi(n), FamilyData::Shinobi(d)) => {
                num("Sheet", "hp".into(), d.combat.pool_names.life.clone(), n.hp);
                num(
                    "Sheet",
                    "chakra".into(),
                    d.combat.pool_names.chakra.clone(),
                    n.chakra,
                );
                for s in &d.combat.stats {
                    let v = n.stats.get(&s.id).copied().unwrap_or(0);
                    num("Stats", format!("stats.{}", s.id), s.name.clone(), v);
                }
            }
            (Self::Digimon(g), FamilyData::Digimon(d)) => {
                num("Sheet", "hp".into(), d.combat.pool_name.clone(), g.hp);
                num("Sheet", "movement".into(), "Movement".into(), g.movement);
                for k in crate::ruleset::digimon::COMBAT_STATS {
                    if k != crate::ruleset::digimon::CHA {
                        let v = g.stats.get(k).copied().unwrap_or(0);
                        num("Stats", format!("stats.{k}"), k.to_string(), v);
                    }
                }
            }
            (Self::Stages(p), FamilyData::PowerStages(d)) => {
                num(
                    "Sheet",
                    "start_stage".into(),
                    "Start stage".into(),
                    i64::from(p.start_stage),
                );
                num(
                    "Sheet",
                    "power_up".into(),
                    "Power Up".into(),
                    i64::from(p.power_up),
                );
                num(
                    "Sheet",
                    "life_cards".into(),
                    "Life cards".into(),
                    i64::from(p.life_cards),
                );
                num("Sheet", "speed".into(), "Speed".into(), i64::from(p.speed));
                for (k, power) in p.power_stages.iter().enumerate() {
                    num(
                        "Power stages",
                        format!("power_stages[{k}]"),
                        format!("Stage {k}"),
                        *power,
                    );
                }
                // A personality card power is chosen on its own, never dealt into a deck.
                for card in d.combat.cards.iter().filter(|c| !c.personality) {
                    let v = p.deck.get(&card.id).copied().unwrap_or(0);
                    num(
                        "Deck",
                        format!("deck.{}", card.id),
                        card.name.clone(),
                        i64::from(v),
                    );
                }
            }
            _ => {}
        }
        out.extend(self.choices(rules));
        out.extend(self.toggles(rules));
        // The sheet's head (pools, weapon, size, stage…) first; the rest in the rules' order.
        out.sort_by_key(|f| f.group != "Sheet");
        out
    }

    /// The sheet's choices: size, race, weapon, armour, stage…
    fn choices(&self, rules: &Rules) -> Vec<Field> {
        let choice = |key: &str, label: &str, chosen: &str, options: Vec<(String, String)>| Field {
            key: key.into(),
            label: label.into(),
            group: "Sheet",
            value: Value::Choice {
                chosen: chosen.into(),
                options,
            },
        };
        let none = || ("".to_string(), "none".to_string());
        match (self, &rules.family) {
            (Self::Dbu(a), _) => {
                let sizes = rules
                    .characters
                    .sizes
                    .iter()
                    .map(|s| (s.id.clone(), s.id.clone()));
                let mut races: Vec<(String, String)> = Vec::new();
                for r in rules.roster.archetypes.iter().map(|x| &x.race) {
                    if !races.iter().any(|(id, _)| id == &r.name) {
                        races.push((r.name.clone(), r.name.clone()));
                    }
                }
                vec![
                    choice("size", "Size", &a.size, sizes.collect()),
                    choice("race", "Race", &a.race.name, races),
                ]
            }
            (Self::D20(c), FamilyData::D20(d)) => {
                let weapons = d
                    .combat
                    .weapons
                    .iter()
                    .filter(|w| w.class != crate::ruleset::d20::WeaponClass::Grenade)
                    .map(|w| (w.id.clone(), w.name.clone()));
                let armours = std::iter::once(none()).chain(
                    d.combat
                        .armours
                        .iter()
                        .map(|a| (a.id.clone(), a.name.clone())),
                );
                vec![
                    choice("weapon", "Weapon", &c.weapon, weapons.collect()),
                    choice(
                        "armour",
                        "Armour",
                        c.armour.as_deref().unwrap_or(""),
                        armours.collect(),
                    ),
                ]
            }
            (Self::Shinobi(n), FamilyData::Shinobi(d)) => {
                // Each weapon of shinobi.ron's list, with its hands: both hands leave none
                // free to Deflect.
                let mut weapons = vec![none()];
                weapons.extend(d.combat.weapons.iter().map(|w| {
                    let label = if w.hands >= 2 {
                        format!("{} (both hands: no Deflect)", w.name)
                    } else {
                        w.name.clone()
                    };
                    (w.name.clone(), label)
                }));
                vec![choice(
                    "weapon",
                    "Weapon",
                    n.weapon.as_deref().unwrap_or(""),
                    weapons,
                )]
            }
            (Self::Digimon(g), FamilyData::Digimon(d)) => {
                let stages = d.combat.stages.iter().map(|s| (s.clone(), s.clone()));
                let sizes = d.combat.clash.sizes.keys().map(|s| (s.clone(), s.clone()));
                let defaults = std::iter::once(none()).chain(
                    d.roster
                        .digimon
                        .iter()
                        .filter(|x| x.default_stage.is_none() && x.id != g.id)
                        .map(|x| (x.id.clone(), x.name.clone())),
                );
                vec![
                    choice("stage", "Stage", &g.stage, stages.collect()),
                    choice("size", "Size", &g.size, sizes.collect()),
                    choice(
                        "default_stage",
                        "Default Stage",
                        g.default_stage.as_deref().unwrap_or(""),
                        defaults.collect(),
                    ),
                ]
            }
            (Self::Stages(p), FamilyData::PowerStages(d)) => {
                let powers = std::iter::once(none()).chain(
                    d.combat
                        .cards
                        .iter()
                        .filter(|c| c.personality)
                        .map(|c| (c.id.clone(), c.name.clone())),
                );
                vec![choice(
                    "power",
                    "Personality card power",
                    p.power.as_deref().unwrap_or(""),
                    powers.collect(),
                )]
            }
            _ => Vec::new(),
        }
    }

    /// The sheet's lists as toggles: profiles and techniques, feats, attacks, counters.
    fn toggles(&self, rules: &Rules) -> Vec<Field> {
        let mut out = Vec::new();
        let mut toggle = |group, list: &str, id: &str, label: &str, on: bool| {
            out.push(Field {
                key: format!("{list}:{id}"),
                label: label.into(),
                group,
                value: Value::Toggle(on),
            })
        };
        match (self, &rules.family) {
            (Self::Dbu(a), _) => {
                for p in &rules.attacks.profiles {
                    toggle(
                        "Profiles",
                        "profiles",
                        &p.id,
                        &p.name,
                        a.profiles.contains(&p.id),
                    );
                }
                let mut seen = BTreeSet::new();
                for t in rules.roster.archetypes.iter().flat_map(|x| &x.techniques) {
                    if seen.insert(t.id.clone()) {
                        let on = a.techniques.iter().any(|x| x.id == t.id);
                        toggle("Techniques", "techniques", &t.id, &t.name, on);
                    }
                }
            }
            (Self::D20(c), FamilyData::D20(d)) => {
                use crate::ruleset::d20::Feat;
                for f in [
                    Feat::BlockingParry,
                    Feat::DeflectingParry,
                    Feat::RapidShot,
                    Feat::PowerAttack,
                ] {
                    let name = format!("{f:?}");
                    toggle("Feats", "feats", &name, &name, c.feats.contains(&f));
                }
                for a in d.combat.attacks.iter().filter(|a| !a.throw_back) {
                    let usable = a.weapon == c.weapon || c.grenades.contains_key(&a.weapon);
                    if usable {
                        toggle(
                            "Attacks",
                            "attacks",
                            &a.id,
                            &a.name,
                            c.attacks.contains(&a.id),
                        );
                    }
                }
            }
            (Self::Shinobi(n), FamilyData::Shinobi(d)) => {
                for a in &d.combat.attacks {
                    toggle(
                        "Attacks",
                        "attacks",
                        &a.id,
                        &a.name,
                        n.attacks.contains(&a.id),
                    );
                }
                for k in &d.combat.counters {
                    toggle(
                        "Counters",
                        "counters",
                        &k.id,
                        &k.name,
                        n.counters.contains(&k.id),
                    );
                }
            }
            (Self::Digimon(g), FamilyData::Digimon(d)) => {
                for a in &d.combat.attacks {
                    toggle(
                        "Attacks",
                        "attacks",
                        &a.id,
                        &a.name,
                        g.attacks.contains(&a.id),
                    );
                }
            }
            _ => {}
        }
        out
    }

    /// Steps the field `key` by `delta`: a number by that much, a choice that many options on
    /// (wrapping), a toggle flipped. The edit is refused, and the character left as it was,
    /// when it gives that field a problem it did not have, or breaks a build limit of the
    /// whole the field is part of: the refusal names the rule. A problem it gives another
    /// field (points left over, an attack the new weapon cannot make) is allowed and listed by
    /// [`Character::problems`] until it is mended.
    pub fn step(&mut self, rules: &Rules, key: &str, delta: i64) -> Result<(), Refusal> {
        let refuse = |message: String| Refusal {
            field: key.to_string(),
            message,
        };
        let field = self
            .fields(rules)
            .into_iter()
            .find(|f| f.key == key)
            .ok_or_else(|| refuse("this character has no such field".into()))?;
        let value = match field.value {
            Value::Number(v) => Value::Number(v.saturating_add(delta)),
            Value::Toggle(on) => Value::Toggle(!on),
            Value::Choice { chosen, options } => {
                let n = options.len().max(1) as i64;
                let at = options
                    .iter()
                    .position(|(id, _)| *id == chosen)
                    .unwrap_or(0) as i64;
                let next = (at + delta).rem_euclid(n) as usize;
                Value::Choice {
                    chosen: options.get(next).map(|o| o.0.clone()).unwrap_or_default(),
                    options,
                }
            }
        };
        let mut edited = self.clone();
        edited.set(rules, key, &value).map_err(refuse)?;
        let before: BTreeSet<(String, String)> =
            self.problems(rules).iter().map(unindexed).collect();
        let base = key.split(':').next().unwrap_or(key);
        let new = edited.problems(rules).into_iter().find(|p| {
            // The field itself, a part of it, or a whole it belongs to when a build limit
            // holds that whole (the deck's size); a whole's other rules (the DBU attribute
            // budget, met by moving points one at a time) are listed, not refused.
            let belongs = p.field == base
                || p.field.starts_with(&format!("{base}."))
                || p.field.starts_with(&format!("{base}["))
                || (base.starts_with(&format!("{}.", p.field))
                    && crate::ruleset::build::BuildLimits::is_limit_message(&p.message));
            belongs && !before.contains(&unindexed(p))
        });
        match new {
            Some(p) => Err(Refusal {
                field: key.to_string(),
                message: p.message,
            }),
            None => {
                *self = edited;
                Ok(())
            }
        }
    }

    /// Writes `value` into the field `key`; a number a field cannot hold at all is refused.
    fn set(&mut self, rules: &Rules, key: &str, value: &Value) -> Result<(), String> {
        let unsigned = |v: i64| u32::try_from(v).map_err(|_| format!("{key} cannot be {v}"));
        let (list, member) = key.split_once(':').unwrap_or((key, ""));
        let toggle = |items: &mut Vec<String>| {
            if let Value::Toggle(on) = value {
                items.retain(|x| x != member);
                if *on {
                    items.push(member.to_string());
                }
            }
        };
        match (self, value) {
            (Self::Dbu(a), Value::Number(v)) if key == "power_level" => {
                a.power_level = unsigned(*v)?
            }
            (Self::Dbu(a), Value::Number(v)) => {
                let id = key.strip_prefix("attributes.").unwrap_or(key);
                a.attributes.insert(id.to_string(), *v);
            }
            (Self::Dbu(a), Value::Choice { chosen, .. }) if key == "size" => {
                a.size = chosen.clone()
            }
            (Self::Dbu(a), Value::Choice { chosen, .. }) => {
                if let Some(r) = rules
                    .roster
                    .archetypes
                    .iter()
                    .find(|x| &x.race.name == chosen)
                {
                    a.race = r.race.clone();
                }
            }
            (Self::Dbu(a), Value::Toggle(on)) if list == "techniques" => {
                a.techniques.retain(|t| t.id != member);
                let def = rules.roster.archetypes.iter().flat_map(|x| &x.techniques);
                if let (true, Some(t)) = (*on, def.clone().find(|t| t.id == member)) {
                    a.techniques.push(t.clone());
                }
            }
            (Self::Dbu(a), Value::Toggle(_)) => toggle(&mut a.profiles),
            (Self::D20(c), Value::Number(v)) if key == "hp" => c.hp = *v,
            (Self::D20(c), Value::Number(v)) => {
                let id = key.strip_prefix("stats.").unwrap_or(key);
                c.stats.insert(id.to_string(), *v);
            }
            (Self::D20(c), Value::Choice { chosen, .. }) if key == "armour" => {
                c.armour = (!chosen.is_empty()).then(|| chosen.clone())
            }
            (Self::D20(c), Value::Choice { chosen, .. }) => {
                c.weapon = chosen.clone();
                rearm(c, rules);
            }
            (Self::D20(c), Value::Toggle(on)) if list == "feats" => {
                use crate::ruleset::d20::Feat;
                let feat = [
                    Feat::BlockingParry,
                    Feat::DeflectingParry,
                    Feat::RapidShot,
                    Feat::PowerAttack,
                ]
                .into_iter()
                .find(|f| format!("{f:?}") == member)
                .ok_or_else(|| format!("no feat `{member}`"))?;
                c.feats.retain(|f| *f != feat);
                if *on {
                    c.feats.push(feat);
                }
            }
            (Self::D20(c), Value::Toggle(_)) => toggle(&mut c.attacks),
            (Self::Shinobi(n), Value::Number(v)) if key == "hp" => n.hp = *v,
            (Self::Shinobi(n), Value::Number(v)) if key == "chakra" => n.chakra = *v,
            (Self::Shinobi(n), Value::Number(v)) => {
                let id = key.strip_prefix("stats.").unwrap_or(key);
                n.stats.insert(id.to_string(), *v);
            }
            (Self::Shinobi(n), Value::Choice { chosen, .. }) => {
                n.weapon = (!chosen.is_empty()).then(|| chosen.clone())
            }
            (Self::Shinobi(n), Value::Toggle(_)) if list == "counters" => toggle(&mut n.counters),
            (Self::Shinobi(n), Value::Toggle(_)) => toggle(&mut n.attacks),
            (Self::Digimon(g), Value::Number(v)) if key == "hp" => g.hp = *v,
            (Self::Digimon(g), Value::Number(v)) if key == "movement" => g.movement = *v,
            (Self::Digimon(g), Value::Number(v)) => {
                let id = key.strip_prefix("stats.").unwrap_or(key);
                g.stats.insert(id.to_string(), *v);
            }
            (Self::Digimon(g), Value::Choice { chosen, .. }) => match key {
                "stage" => g.stage = chosen.clone(),
                "size" => g.size = chosen.clone(),
                _ => g.default_stage = (!chosen.is_empty()).then(|| chosen.clone()),
            },
            (Self::Digimon(g), Value::Toggle(_)) => toggle(&mut g.attacks),
            (Self::Stages(p), Value::Choice { chosen, .. }) => {
                p.power = (!chosen.is_empty()).then(|| chosen.clone());
            }
            (Self::Stages(p), Value::Number(v)) => match key {
                "start_stage" => p.start_stage = unsigned(*v)?,
                "power_up" => p.power_up = unsigned(*v)?,
                "life_cards" => p.life_cards = unsigned(*v)?,
                "speed" => p.speed = unsigned(*v)?,
                _ if key.starts_with("deck.") => {
                    let card = key.trim_start_matches("deck.").to_string();
                    match unsigned(*v)? {
                        0 => p.deck.remove(&card),
                        n => p.deck.insert(card, n),
                    };
                }
                _ => {
                    let k: usize = key
                        .trim_start_matches("power_stages[")
                        .trim_end_matches(']')
                        .parse()
                        .map_err(|_| format!("no field `{key}`"))?;
                    let slot = p.power_stages.get_mut(k).ok_or("no such stage")?;
                    *slot = *v;
                }
            },
            _ => return Err(format!("`{key}` cannot take that value")),
        }
        Ok(())
    }
}

/// After a d20 character changes weapon: the attacks made with another weapon are dropped,
/// and the first attack of the new weapon that needs no feat is given when none is left.
fn rearm(c: &mut crate::ruleset::d20::CharacterDef, rules: &Rules) {
    let Some(d) = rules.d20() else { return };
    let weapon_of = |id: &String| d.attack(id).map(|a| a.weapon.clone());
    c.attacks
        .retain(|id| weapon_of(id).is_some_and(|w| w == c.weapon || c.grenades.contains_key(&w)));
    let own = |id: &String| weapon_of(id).as_deref() == Some(c.weapon.as_str());
    if !c.attacks.iter().any(own) {
        let first = d
            .combat
            .attacks
            .iter()
            .find(|a| a.weapon == c.weapon && !a.throw_back && !a.rapid_shot);
        if let Some(a) = first {
            c.attacks.insert(0, a.id.clone());
        }
    }
}

/// A problem with its list indices taken out, so one that only moved within its list (a
/// toggled attack shifts the others) is not taken for a new one.
fn unindexed(p: &Problem) -> (String, String) {
    let mut field = String::new();
    let mut skip = false;
    for ch in p.field.chars() {
        match ch {
            '[' => skip = true,
            ']' => skip = false,
            _ if !skip => field.push(ch),
            _ => {}
        }
    }
    (field, p.message.clone())
}
