//! Power-stages combat inside the shared battle: dealing and drawing cards, the Power Up step,
//! which attack cards may be played, blocks with held defense cards, the Physical Attack Table
//! and stage losses that spill into life cards, and the exact outcome of an attack.
//!
//! The card game rolls no dice on an attack: an attack lands unless the defender plays the
//! matching defense card. So the preview is exact by construction: for each answer (take it,
//! or block when a card allows) it shows the one outcome that will happen. The only chance is
//! in the draws, which use the battle's seeded dice and are logged like any roll.

pub mod aim;
mod hooks;
pub mod odds_text;
pub mod sheet;

use bevy::prelude::*;

use crate::battle::command::AttackOrder;
use crate::battle::command::DefenseChoice;
use crate::battle::command::RuleError;
use crate::battle::components::DefensePolicy;
use crate::battle::components::{Cards, CombatantId};
use crate::battle::context::declaration;
use crate::battle::context::{AttackContext, Declaration, TargetContext};
use crate::battle::effects::{LifeCause, set_life};
use crate::battle::event::{BattleEvent, EventLog, Pool};
use crate::battle::family::DefenseAsk;
use crate::battle::fighter::{Fighter, FighterQueryItem};
use crate::battle::odds::{RollSummary, TargetOdds};
use crate::battle::snapshot::Fighters;
use crate::battle::state::{AttackPhase, AttackState, BattleDice, RulesRes};
use crate::dice::{DiceSource, RollKind, RollSpec};
use crate::ruleset::stages::{CardDef, CardKind, CardPart, FINAL_PHYSICAL, StageData};
use crate::ruleset::{ArchetypeDef, Category, Rules};

/// What a power stage taken from an opponent is worth in life cards to the computer players: it
/// lowers the opponent's row on the Physical Attack Table and delays its energy attacks.
pub const STAGE_WORTH: f64 = 0.5;

/// Physical attacks a level from anger is expected to serve in a battle, as the computer
/// players weigh a point of anger (about the attacks a personality makes after filling it).
pub const ANGER_ATTACKS: f64 = 5.0;

/// Why a power-stages attack needs no roll; shown in the log and the preview.
pub const NO_ROLL: &str = "power stages: no roll, the attack lands unless blocked with a card";

/// Gives a power-stages fighter its starting stage and its deck (cards are dealt when the
/// battle starts, from the seeded dice).
pub fn prepare(data: &StageData, a: &ArchetypeDef, f: &mut Fighter) {
    let Some(p) = data.personality(&a.id) else {
        return;
    };
    f.ki.current = i64::from(p.start_stage).min(f.ki.max);
    f.cards = Some(Cards {
        deck: p.deck.clone(),
        ..Cards::default()
    });
}

/// The power a fighter has at its current stage (0 if its personality is unknown).
pub fn power(data: &StageData, f: &Fighter) -> i64 {
    data.personality(&f.identity.archetype)
        .and_then(|p| {
            let stage = usize::try_from(f.ki.current.max(0)).ok()?;
            p.power_stages.get(stage).copied()
        })
        .unwrap_or_default()
}

/// The kind of attack a profile is: its card's attack (of either power of a card that reads
/// "or"), physical for the Final Physical Attack.
pub fn attack_kind(data: &StageData, profile: &str) -> Option<CardKind> {
    if profile == FINAL_PHYSICAL {
        return Some(CardKind::PhysicalAttack);
    }
    data.card(profile).and_then(CardDef::attack_kind)
}

/// The power stages an attack card costs (only energy attacks cost any).
pub fn stage_cost(data: &StageData, profile: &str) -> i64 {
    match data.card(profile) {
        Some(c) if c.attack_kind() == Some(CardKind::EnergyAttack) => {
            i64::from(c.cost.unwrap_or(data.combat.energy.cost))
        }
        _ => 0,
    }
}

/// The personality card power the personality `archetype` names, if any.
pub fn power_card<'a>(data: &'a StageData, archetype: &str) -> Option<&'a CardDef> {
    let id = data.personality(archetype)?.power.as_deref()?;
    data.card(id).filter(|c| c.personality)
}

/// The personality card power `f` may still use this round.
pub fn power_left<'a>(data: &'a StageData, f: &Fighter) -> Option<&'a CardDef> {
    let used = f.cards.as_ref()?.power_uses;
    power_card(data, &f.identity.archetype)
        .filter(|_| used < data.combat.personality_powers.per_round)
}

/// The power stages a block with `card` costs: a personality card power's noted cost (cards
/// in hand block for free).
pub fn block_cost(card: &CardDef) -> i64 {
    if card.personality && card.attack_kind().is_none() {
        i64::from(card.cost.unwrap_or(0))
    } else {
        0
    }
}

/// Whether `card` is an attack `f` can pay for now.
fn usable_attack(data: &StageData, f: &Fighter, card: &CardDef) -> bool {
    card.attack_kind().is_some() && stage_cost(data, &card.id) <= f.ki.current
}

/// The card-game rules that could forbid `attacker` from making `order` now: it passed
/// after a Final Physical Attack, its attacks this turn, the card held (or its personality
/// card power unused this round), the Final Physical Attack's conditions and the card it
/// discards, and the stages an energy attack needs.
pub fn check_attack(
    data: &StageData,
    attacker: &Fighter,
    order: &AttackOrder,
) -> Result<(), RuleError> {
    let profile = order.profile.as_str();
    let Some(cards) = &attacker.cards else {
        return Ok(());
    };
    if cards.passed {
        return Err(RuleError::PassedThisRound(attacker.id));
    }
    let limit = data.combat.turn.attacks;
    if cards.attacks_this_turn >= limit {
        return Err(RuleError::AttacksPerTurn { limit });
    }
    if profile == FINAL_PHYSICAL {
        if cards.held() == 0 {
            return Err(RuleError::FinalAttackNotAllowed(
                "a card in hand to discard",
            ));
        }
        // "no attack cards or card powers to use": an energy card it lacks the stages for does
        // not count.
        let held_attack = cards
            .hand
            .keys()
            .filter_map(|c| data.card(c))
            .any(|c| usable_attack(data, attacker, c));
        let power_attack =
            power_left(data, attacker).is_some_and(|c| usable_attack(data, attacker, c));
        if held_attack || power_attack {
            return Err(RuleError::FinalAttackNotAllowed(
                "no attack card or card power it can use (play that one instead)",
            ));
        }
        if let Some(card) = &order.discard
            && cards.count(card) == 0
        {
            return Err(RuleError::CardNotHeld {
                card: card_name(data, card),
            });
        }
        return Ok(());
    }
    if order.discard.is_some() {
        return Err(RuleError::DiscardNotFinal);
    }
    if let Some(power) = power_card(data, &attacker.identity.archetype).filter(|c| c.id == profile)
    {
        if power_left(data, attacker).is_none() {
            return Err(RuleError::PowerUsed {
                card: power.name.clone(),
                per_round: data.combat.personality_powers.per_round,
            });
        }
    } else if cards.count(profile) == 0 {
        let card = data.card(profile).map_or(profile, |c| c.name.as_str());
        return Err(RuleError::CardNotHeld {
            card: card.to_string(),
        });
    }
    let need = stage_cost(data, profile);
    if attacker.ki.current < need {
        return Err(RuleError::TooFewStages {
            need,
            have: attacker.ki.current,
        });
    }
    Ok(())
}

/// The card a Final Physical Attack discards: the one held in most copies, ties going to the
/// first by id (our default; the text lets the player discard "any one card").
pub fn final_discard(cards: &Cards) -> Option<String> {
    cards
        .hand
        .iter()
        .filter(|(_, n)| **n > 0)
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(id, _)| id.clone())
}

/// The cards a Final Physical Attack by `f` may discard ("any one card from your hand"), in
/// hand order, each with its shown name.
pub fn discard_choices(data: &StageData, f: &Fighter) -> Vec<(String, String)> {
    f.cards.as_ref().map_or_else(Vec::new, |c| {
        c.hand
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(id, _)| (id.clone(), card_name(data, id)))
            .collect()
    })
}

/// The card a Final Physical Attack `order` discards from `cards`: its chosen card if held,
/// else the one held in most copies.
pub fn discarded(cards: &Cards, order: &AttackOrder) -> Option<String> {
    order
        .discard
        .clone()
        .filter(|c| cards.count(c) > 0)
        .or_else(|| final_discard(cards))
}

/// The card `defender` would block an attack of `kind` with: its personality card power when
/// that blocks it and is unused this round (it is not discarded), else a held card with a
/// matching defense power. Passing after a Final Physical Attack stops attacks, not blocks:
/// the text's passing is in the attacking phases.
pub fn block_card(data: &StageData, defender: &Fighter, kind: CardKind) -> Option<String> {
    let cards = defender.cards.as_ref()?;
    let needed = kind.blocked_by()?;
    if let Some(power) = power_left(data, defender)
        .filter(|c| c.serves(needed) && block_cost(c) <= defender.ki.current)
    {
        return Some(power.id.clone());
    }
    cards
        .hand
        .iter()
        .find(|(id, n)| **n > 0 && data.card(id).is_some_and(|c| c.serves(needed)))
        .map(|(id, _)| id.clone())
}

/// What the attack takes: the life cards of an energy attack, or the stages of a physical one
/// (its card's stated number, else the Physical Attack Table against `target`), labelled.
pub fn wound_spec(
    data: &StageData,
    attacker: &Fighter,
    decl: &Declaration,
    target: Option<&Fighter>,
) -> RollSpec {
    let mut s = RollSpec::new(RollKind::Amount(format!("{} takes", decl.profile.name)));
    let profile = &decl.profile.id;
    let card = data.card(profile);
    match attack_kind(data, profile) {
        Some(CardKind::EnergyAttack) => {
            let n = card
                .and_then(|c| c.life_cards)
                .unwrap_or(data.combat.energy.life_cards);
            s.add(
                format!("{}: life cards taken", decl.profile.name),
                i64::from(n),
            );
        }
        Some(_) => {
            if let Some(n) = card.and_then(|c| c.stages) {
                s.add(
                    format!("{} states its damage: power stages", decl.profile.name),
                    i64::from(n),
                );
            } else if let Some(t) = target {
                let table = &data.combat.physical_table;
                let (a, d) = (power(data, attacker), power(data, t));
                s.add(
                    format!(
                        "Physical Attack Table: attacker {a} (row {}) vs defender {d} (column {})",
                        table.band(a) + 1,
                        table.band(d) + 1
                    ),
                    i64::from(table.loss(a, d)),
                );
                if let Some(cards) = attacker.cards.as_ref().filter(|c| c.level > 0) {
                    s.add(
                        format!("level {} from anger", cards.level),
                        level_bonus(data, cards),
                    );
                }
            }
        }
        None => {}
    }
    s
}

/// The context of a power-stages attack: no Strike or defense rolls, every target hit unless it
/// blocks, and the fixed amount the attack takes.
pub fn assemble(
    data: &StageData,
    attacker: &Fighter,
    targets: &[&Fighter],
    decl: &Declaration,
) -> AttackContext {
    let single = (targets.len() == 1).then(|| targets[0]);
    AttackContext {
        ki_cost: stage_cost(data, &decl.profile.id),
        wager: 0,
        strike: RollSpec::new(RollKind::Strike),
        targets: targets
            .iter()
            .map(|t| TargetContext {
                automatic_hit: Some(NO_ROLL),
                ..TargetContext::new(
                    t.id,
                    attacker.distance_to(t),
                    RollSpec::new(RollKind::Strike),
                    vec![
                        (DefenseChoice::Dodge, RollSpec::new(RollKind::Dodge)),
                        (DefenseChoice::Parry, RollSpec::new(RollKind::Parry)),
                    ],
                )
            })
            .collect(),
        wound: wound_spec(data, attacker, decl, single),
        reflected: None,
    }
}

/// How an attack that lands splits into stages and life cards for `target`: energy takes life
/// cards; physical takes stages, and those past stage 0 come out of life cards.
pub fn split(kind: CardKind, amount: i64, target: &Fighter) -> (i64, i64) {
    match kind {
        CardKind::EnergyAttack => (0, amount.max(0)),
        _ => {
            let stages = amount.clamp(0, target.ki.current.max(0));
            (stages, amount.max(0) - stages)
        }
    }
}

/// The exact outcome of a power-stages attack on one target answering `choice` (Dodge: take
/// it; Parry: block with a card, which lands anyway when no card allows).
pub fn target_odds(
    data: &StageData,
    ctx: &AttackContext,
    t: &TargetContext,
    decl: &Declaration,
    target: &Fighter,
    choice: DefenseChoice,
) -> TargetOdds {
    let kind = attack_kind(data, &decl.profile.id).unwrap_or(CardKind::PhysicalAttack);
    let card = block_card(data, target, kind);
    let blocked = choice == DefenseChoice::Parry && card.is_some();
    let amount = ctx.wound.flat_total();
    let (stages, life) = if blocked {
        (0, 0)
    } else {
        split(kind, amount, target)
    };
    let why = match (&card, choice) {
        (Some(c), DefenseChoice::Parry) => match data.card(c).map_or(0, block_cost) {
            0 => format!("blocked with {}", card_name(data, c)),
            n => format!("blocked with {} for {n} power stage(s)", card_name(data, c)),
        },
        (None, DefenseChoice::Parry) => "no card to block with: the attack lands".to_string(),
        _ => NO_ROLL.to_string(),
    };
    TargetOdds {
        target: t.id,
        defense: choice,
        automatic_hit: Some(why),
        hit_chance: if blocked { 0.0 } else { 1.0 },
        critical_hit_chance: 0.0,
        expected_damage: life as f64,
        damage_distribution: [(life, 1.0)].into_iter().collect(),
        threshold_chances: Vec::new(),
        defeat_chance: if life > 0 && life >= target.life.current {
            1.0
        } else {
            0.0
        },
        category: Category::Lethal,
        critical_category: Category::Lethal,
        soak_used: 0,
        cover: 0,
        stage_loss: Some(stages),
        strike: RollSummary::of(&t.strike),
        defense_roll: RollSummary::of(t.defense(DefenseChoice::Dodge)),
        difficulty: None,
        reflected: None,
    }
}

/// Whether the computer blocks an attack whose outcome, taken, is `taken`, with a block that
/// costs `cost` power stages: when it would cost life cards, or at least two stages and more
/// than the block costs (a block spends the card, so small losses are taken).
/// The `Best` defense policy and the planner's guess about its targets share it.
pub fn worth_blocking(expected_damage: f64, stage_loss: Option<i64>, cost: i64) -> bool {
    expected_damage > 0.0 || stage_loss.unwrap_or(0) >= 2.max(cost + 1)
}

/// The power stages the block `target` would make against `kind` costs (0 when it has none).
pub fn block_price(data: &StageData, target: &Fighter, kind: CardKind) -> i64 {
    block_card(data, target, kind)
        .and_then(|c| data.card(&c))
        .map_or(0, block_cost)
}

/// A card's shown name.
pub fn card_name(data: &StageData, id: &str) -> String {
    data.card(id)
        .map_or_else(|| id.to_string(), |c| c.name.clone())
}

/// Draws `n` cards into `cards`, then discards down to the hand limit (the card held in most
/// copies first, so a hand never locks up full of one kind); an empty deck takes its discard
/// pile back first. Each draw is one roll over the cards left, logged.
pub fn draw(
    data: &StageData,
    dice: &mut DiceSource,
    who: CombatantId,
    cards: &mut Cards,
    n: u32,
    log: &mut EventLog,
) {
    draw_cards(data, dice, who, cards, n, log);
    while cards.held() > data.combat.hand.limit {
        let Some(card) = final_discard(cards) else {
            break;
        };
        let why = format!(
            "discarded down to the hand limit of {}",
            data.combat.hand.limit
        );
        play_logged(data, who, cards, &card, why, log);
    }
}

/// The draws themselves, one roll each.
fn draw_cards(
    data: &StageData,
    dice: &mut DiceSource,
    who: CombatantId,
    cards: &mut Cards,
    n: u32,
    log: &mut EventLog,
) {
    for _ in 0..n {
        if cards.deck.values().sum::<u32>() == 0 {
            let back: u32 = cards.discard.values().sum();
            if back == 0 {
                return;
            }
            cards.deck = std::mem::take(&mut cards.discard);
            log.push(BattleEvent::DeckReshuffled { who, cards: back });
        }
        let of: u32 = cards.deck.values().sum();
        let roll = dice.roll(of);
        let mut left = roll;
        let mut picked = None;
        for (id, count) in cards.deck.iter() {
            if left <= *count {
                picked = Some(id.clone());
                break;
            }
            left -= count;
        }
        let Some(card) = picked else {
            return;
        };
        if let Some(c) = cards.deck.get_mut(&card) {
            *c -= 1;
            if *c == 0 {
                cards.deck.remove(&card);
            }
        }
        *cards.hand.entry(card.clone()).or_default() += 1;
        log.push(BattleEvent::CardDrawn {
            who,
            card: card_name(data, &card),
            roll,
            of,
        });
    }
}

/// Setup: every power-stages combatant draws its starting hand, in id order.
pub fn deal_starting_hands(
    rules: Res<RulesRes>,
    mut dice: ResMut<BattleDice>,
    mut log: ResMut<EventLog>,
    mut q: Fighters,
) {
    let Some(data) = rules.0.stages() else {
        return;
    };
    let mut items: Vec<_> = q.iter_mut().collect();
    items.sort_by_key(|f| *f.id);
    for f in items.iter_mut() {
        let who = *f.id;
        if let Some(cards) = f.cards.as_deref_mut() {
            draw(
                data,
                &mut dice.0,
                who,
                cards,
                data.combat.hand.starting,
                &mut log,
            );
        }
    }
}

/// The start of a power-stages combatant's turn: the Power Up step raises its stage by its
/// power-up rating (to the top of its track), a full anger raises its level, then it draws.
pub fn begin_turn(
    data: &StageData,
    dice: &mut DiceSource,
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) {
    let who = *f.id;
    let Some(p) = data.personality(&f.identity.archetype) else {
        return;
    };
    let to = (f.ki.current + i64::from(p.power_up)).min(f.ki.max);
    set_stage(f, to, format!("Power Up step, +{}", p.power_up), log);
    if let Some(cards) = f.cards.as_deref_mut() {
        cards.attacks_this_turn = 0;
        level_up(data, who, cards, log);
        draw(data, dice, who, cards, data.combat.hand.draw_per_turn, log);
    }
}

/// A new round: whoever passed after a Final Physical Attack may act again, and every
/// personality card power may be used again.
pub fn clear_passes(f: &mut FighterQueryItem) {
    if let Some(cards) = f.cards.as_deref_mut() {
        cards.passed = false;
        cards.power_uses = 0;
    }
}

/// Attack declaration: the attack card is played, or the personality card power used (it
/// stays), or for the Final Physical Attack the chosen card (else the one held in most copies)
/// is discarded and the attacker passes for the rest of the round; then the card's other
/// parts occur, before the defender acts.
pub fn play_attack(
    data: &StageData,
    f: &mut FighterQueryItem,
    order: &AttackOrder,
    log: &mut EventLog,
) {
    let who = *f.id;
    let profile = order.profile.as_str();
    let power = power_card(data, &f.identity.archetype).is_some_and(|c| c.id == profile);
    let Some(cards) = f.cards.as_deref_mut() else {
        return;
    };
    cards.attacks_this_turn += 1;
    if profile == FINAL_PHYSICAL {
        if let Some(card) = discarded(cards, order) {
            let why = format!(
                "discarded for the {}; it passes for the rest of the round",
                data.combat.final_physical.name
            );
            play_logged(data, who, cards, &card, why, log);
        }
        cards.passed = true;
        return;
    }
    if power {
        use_power(data, who, cards, profile, "attacks", log);
    } else {
        play_logged(data, who, cards, profile, "the attack".into(), log);
    }
    card_parts(data, f, profile, log);
}

/// A block: the defender uses its personality card power or plays its matching defense card,
/// then the card's other parts occur. False if it has neither.
pub fn play_block(
    data: &StageData,
    f: &mut FighterQueryItem,
    kind: CardKind,
    log: &mut EventLog,
) -> bool {
    let snapshot = f.snapshot();
    let Some(card) = block_card(data, &snapshot, kind) else {
        return false;
    };
    let power = power_card(data, &snapshot.identity.archetype).is_some_and(|c| c.id == card);
    let who = *f.id;
    if let Some(cards) = f.cards.as_deref_mut() {
        if power {
            use_power(data, who, cards, &card, "blocks the attack", log);
        } else {
            play_logged(data, who, cards, &card, "blocks the attack".into(), log);
        }
    }
    let cost = data.card(&card).map_or(0, block_cost);
    let to = f.ki.current - cost;
    set_stage(
        f,
        to,
        format!("{} costs {cost}", card_name(data, &card)),
        log,
    );
    card_parts(data, f, &card, log);
    true
}

/// Moves `f`'s power stage to `to` and logs why; nothing when it does not change.
fn set_stage(f: &mut FighterQueryItem, to: i64, reason: String, log: &mut EventLog) {
    let from = f.ki.current;
    if to == from {
        return;
    }
    f.ki.current = to;
    log.push(BattleEvent::PoolChanged {
        who: *f.id,
        pool: Pool::PowerStage,
        from,
        to,
        reason,
    });
}

/// One use of a personality card power, logged; the card stays ("other than Personality
/// cards, are discarded").
fn use_power(
    data: &StageData,
    who: CombatantId,
    cards: &mut Cards,
    card: &str,
    what: &str,
    log: &mut EventLog,
) {
    cards.power_uses += 1;
    log.push(BattleEvent::CardPlayed {
        who,
        card: card_name(data, card),
        why: format!(
            "personality card power: {what} (use {} of {} this round; personality cards are not discarded)",
            cards.power_uses, data.combat.personality_powers.per_round
        ),
    });
}

/// The parts of `card`'s power besides its attack or block, each at once and in order.
fn card_parts(data: &StageData, f: &mut FighterQueryItem, card: &str, log: &mut EventLog) {
    let Some(def) = data.card(card) else {
        return;
    };
    for part in &def.also {
        match *part {
            CardPart::RaiseAnger(n) => raise_anger(data, f, n, &def.name, log),
            CardPart::RaiseStages(n) => {
                let to = (f.ki.current + i64::from(n)).min(f.ki.max);
                set_stage(f, to, format!("{}: {}", def.name, part.words()), log);
            }
        }
    }
}

/// Raises `f`'s anger by `n`, up to full: a full anger raises the personality a level at the
/// start of its next turn ([`level_up`]).
fn raise_anger(data: &StageData, f: &mut FighterQueryItem, n: u32, card: &str, log: &mut EventLog) {
    let who = *f.id;
    let limit = data.combat.anger.limit;
    let Some(cards) = f.cards.as_deref_mut() else {
        return;
    };
    let from = cards.anger;
    let raised = from.saturating_add(n).min(limit);
    if raised == from {
        return;
    }
    cards.anger = raised;
    let full = if raised == limit {
        ": full, up a level at the start of its next turn"
    } else {
        ""
    };
    log.push(BattleEvent::PoolChanged {
        who,
        pool: Pool::Anger,
        from: i64::from(from),
        to: i64::from(raised),
        reason: format!("{card}: raise the card user's anger by {n}{full}"),
    });
}

/// The start of a turn with a full anger: anger starts again from 0 and the personality goes
/// up a level, which adds to the stages its physical attacks take on the Physical Attack Table
/// (our default, standing in for the card game's stronger level of a personality card). At the
/// start of a turn, not mid-attack, so no attack's preview is changed by its own card.
fn level_up(data: &StageData, who: CombatantId, cards: &mut Cards, log: &mut EventLog) {
    let rules = &data.combat.anger;
    if cards.anger < rules.limit {
        return;
    }
    cards.anger = 0;
    cards.level = cards.level.saturating_add(1);
    log.push(BattleEvent::PoolChanged {
        who,
        pool: Pool::Anger,
        from: i64::from(rules.limit),
        to: 0,
        reason: format!(
            "anger full: up a level (level {}, +{} stage(s) on the Physical Attack Table)",
            cards.level,
            level_bonus(data, cards)
        ),
    });
}

/// The stages a personality's levels from anger add to its physical attacks on the table.
pub fn level_bonus(data: &StageData, cards: &Cards) -> i64 {
    i64::from(cards.level) * i64::from(data.combat.anger.level_bonus)
}

/// Moves one held `card` to the discard pile and logs why; nothing if it was not held.
fn play_logged(
    data: &StageData,
    who: CombatantId,
    cards: &mut Cards,
    card: &str,
    why: String,
    log: &mut EventLog,
) {
    if cards.play(card) {
        log.push(BattleEvent::CardPlayed {
            who,
            card: card_name(data, card),
            why,
        });
    }
}

/// A landed attack's effect on `f`: life cards for energy; stages for physical, with the
/// stages past 0 taken from life cards.
pub fn apply_hit(
    rules: &Rules,
    kind: CardKind,
    amount: i64,
    by: CombatantId,
    reason: &str,
    f: &mut FighterQueryItem,
    log: &mut EventLog,
) {
    let snapshot = f.snapshot();
    let (stages, life) = split(kind, amount, &snapshot);
    log.push(BattleEvent::StageHit {
        attacker: by,
        target: *f.id,
        stages,
        life_cards: life,
        what: reason.to_string(),
    });
    let to = f.ki.current - stages;
    set_stage(f, to, reason.to_string(), log);
    if life > 0 {
        let to = f.life.current - life;
        let why = if kind == CardKind::EnergyAttack {
            reason.to_string()
        } else {
            format!("{reason}: {life} stage(s) past 0")
        };
        set_life(
            rules,
            f,
            Pool::LifeCards,
            to,
            LifeCause::Damage {
                by: Some(by),
                attack: true,
            },
            &why,
            log,
        );
    }
}

/// A power-stages target's answer: nothing to decide without a matching card; otherwise its
/// policy, where `Best` blocks whatever would cost life cards or at least two stages.
pub fn stage_defense(
    data: &crate::ruleset::stages::StageData,
    ask: &DefenseAsk,
) -> Option<DefenseChoice> {
    let DefenseAsk {
        rules,
        field,
        attacker,
        target,
        all,
        order,
        ..
    } = *ask;
    // An order that is no card (validated data never makes one) cannot be blocked.
    let Some(kind) = crate::battle::family::stages::attack_kind(data, &order.profile) else {
        return Some(DefenseChoice::Dodge);
    };
    if crate::battle::family::stages::block_card(data, target, kind).is_none() {
        return Some(DefenseChoice::Dodge);
    }
    match target.controller.defense {
        DefensePolicy::Prompt => None,
        DefensePolicy::AlwaysDodge => Some(DefenseChoice::Dodge),
        DefensePolicy::AlwaysParry => Some(DefenseChoice::Parry),
        DefensePolicy::Best => {
            let Ok(decl) = declaration(rules, attacker, order, all.len()) else {
                return Some(DefenseChoice::Parry);
            };
            let ctx = crate::battle::family::assemble(rules, field, attacker, all, &decl);
            let Some(t) = ctx.targets.iter().find(|t| t.id == target.id) else {
                return Some(DefenseChoice::Parry);
            };
            let taken = crate::battle::family::target_odds(
                rules,
                &ctx,
                t,
                &decl,
                target,
                DefenseChoice::Dodge,
            );
            if worth_blocking(
                taken.expected_damage,
                taken.stage_loss,
                block_price(data, target, kind),
            ) {
                Some(DefenseChoice::Parry)
            } else {
                Some(DefenseChoice::Dodge)
            }
        }
    }
}

/// The power-stages Clash: no rolls; a target that chose to block plays its matching defense
/// card and is not hit, every other target is.
pub fn resolve_blocks(
    data: &crate::ruleset::stages::StageData,
    attacker: CombatantId,
    profile: &str,
    state: &mut AttackState,
    q: &mut Fighters,
    log: &mut EventLog,
) {
    let kind =
        attack_kind(data, profile).unwrap_or(crate::ruleset::stages::CardKind::PhysicalAttack);
    for t in state.targets.iter_mut() {
        let blocked = t.defense == Some(DefenseChoice::Parry)
            && q.iter_mut()
                .find(|f| *f.id == t.id)
                .is_some_and(|mut f| play_block(data, &mut f, kind, log));
        t.hit = Some(!blocked);
        log.push(BattleEvent::Clash {
            attacker,
            defender: t.id,
            strike: 0,
            defense: 0,
            hit: !blocked,
            automatic: Some(if blocked {
                "blocked with a defense card".to_string()
            } else {
                NO_ROLL.to_string()
            }),
            attacker_wins_ties: false,
        });
    }
    state.phase = AttackPhase::Damage;
}
