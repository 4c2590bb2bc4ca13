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
use crate::ruleset::stages::{CardKind, FINAL_PHYSICAL, StageData};
use crate::ruleset::{ArchetypeDef, Category, Rules};

/// What a power stage taken from an opponent is worth in life cards to the computer players: it
/// lowers the opponent's row on the Physical Attack Table and delays its energy attacks.
pub const STAGE_WORTH: f64 = 0.5;

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

/// The kind of attack a profile is: its card's kind, physical for the Final Physical Attack.
pub fn attack_kind(data: &StageData, profile: &str) -> Option<CardKind> {
    if profile == FINAL_PHYSICAL {
        return Some(CardKind::PhysicalAttack);
    }
    data.card(profile).map(|c| c.kind).filter(|k| k.attacks())
}

/// The power stages an attack card costs (only energy attacks cost any).
pub fn stage_cost(data: &StageData, profile: &str) -> i64 {
    match data.card(profile) {
        Some(c) if c.kind == CardKind::EnergyAttack => {
            i64::from(c.cost.unwrap_or(data.combat.energy.cost))
        }
        _ => 0,
    }
}

/// The card-game rules that could forbid `attacker` from playing `profile` now: it passed
/// after a Final Physical Attack, its attacks this turn, the card held, the Final Physical
/// Attack's conditions, and the stages an energy attack needs.
pub fn check_attack(data: &StageData, attacker: &Fighter, profile: &str) -> Result<(), RuleError> {
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
        let usable_attack = cards.hand.keys().any(|c| {
            data.card(c)
                .is_some_and(|d| d.kind.attacks() && stage_cost(data, c) <= attacker.ki.current)
        });
        if usable_attack {
            return Err(RuleError::FinalAttackNotAllowed(
                "no attack card it can use in hand (play that one instead)",
            ));
        }
        return Ok(());
    }
    if cards.count(profile) == 0 {
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

/// The defense card `defender` would block an attack of `kind` with, if it holds one and has
/// not passed this round.
pub fn block_card(data: &StageData, defender: &Fighter, kind: CardKind) -> Option<String> {
    let cards = defender.cards.as_ref()?;
    if cards.passed {
        return None;
    }
    let needed = kind.blocked_by()?;
    cards
        .hand
        .iter()
        .find(|(id, n)| **n > 0 && data.card(id).is_some_and(|c| c.kind == needed))
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
                id: t.id,
                distance: attacker.distance_to(t),
                strike: RollSpec::new(RollKind::Strike),
                defenses: vec![
                    (DefenseChoice::Dodge, RollSpec::new(RollKind::Dodge)),
                    (DefenseChoice::Parry, RollSpec::new(RollKind::Parry)),
                ],
                automatic_hit: Some(NO_ROLL),
                cover: None,
                miss_chance: None,
                absorb: None,
                sneak: None,
                knockback: None,
                difficulty: None,
                damage_less: None,
                blast: None,
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
        (Some(c), DefenseChoice::Parry) => format!("blocked with {}", card_name(data, c)),
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

/// Whether the computer blocks an attack whose outcome, taken, is `taken`: when it would cost
/// life cards or at least two stages (a block spends the card, so small losses are taken).
/// The `Best` defense policy and the planner's guess about its targets share it.
pub fn worth_blocking(expected_damage: f64, stage_loss: Option<i64>) -> bool {
    expected_damage > 0.0 || stage_loss.unwrap_or(0) >= 2
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
/// power-up rating (to the top of its track), then it draws.
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
    let from = f.ki.current;
    let to = (from + i64::from(p.power_up)).min(f.ki.max);
    if to != from {
        f.ki.current = to;
        log.push(BattleEvent::PoolChanged {
            who,
            pool: Pool::PowerStage,
            from,
            to,
            reason: format!("Power Up step, +{}", p.power_up),
        });
    }
    if let Some(cards) = f.cards.as_deref_mut() {
        cards.attacks_this_turn = 0;
        draw(data, dice, who, cards, data.combat.hand.draw_per_turn, log);
    }
}

/// A new round: whoever passed after a Final Physical Attack may act again.
pub fn clear_passes(f: &mut FighterQueryItem) {
    if let Some(cards) = f.cards.as_deref_mut() {
        cards.passed = false;
    }
}

/// Attack declaration: the attack card is played (or, for the Final Physical Attack, any card
/// is discarded and the attacker passes for the rest of the round).
pub fn play_attack(data: &StageData, f: &mut FighterQueryItem, profile: &str, log: &mut EventLog) {
    let who = *f.id;
    let Some(cards) = f.cards.as_deref_mut() else {
        return;
    };
    cards.attacks_this_turn += 1;
    if profile == FINAL_PHYSICAL {
        if let Some(card) = final_discard(cards) {
            let why = format!(
                "discarded for the {}; it passes for the rest of the round",
                data.combat.final_physical.name
            );
            play_logged(data, who, cards, &card, why, log);
        }
        cards.passed = true;
    } else {
        play_logged(data, who, cards, profile, "the attack".into(), log);
    }
}

/// A block: the defender plays its matching defense card. False if it holds none.
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
    let who = *f.id;
    if let Some(cards) = f.cards.as_deref_mut() {
        play_logged(data, who, cards, &card, "blocks the attack".into(), log);
    }
    true
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
    if stages > 0 {
        let from = f.ki.current;
        f.ki.current -= stages;
        log.push(BattleEvent::PoolChanged {
            who: *f.id,
            pool: Pool::PowerStage,
            from,
            to: f.ki.current,
            reason: reason.to_string(),
        });
    }
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
            if crate::battle::family::stages::worth_blocking(
                taken.expected_damage,
                taken.stage_loss,
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
