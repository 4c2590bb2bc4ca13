//! Every event in words, as the combat log, the terminal demo and replays print it: each roll
//! with its dice and modifiers, each change with its cause.

use bevy::prelude::*;

use crate::battle::command::DefenseChoice;
use crate::battle::components::{CombatantId, Expiry};
use crate::battle::event::EndReason;

use super::{ActionKind, BattleEvent, Names, Pool};

fn n(names: &Names, id: CombatantId) -> String {
    names.get(&id).cloned().unwrap_or_else(|| id.to_string())
}

fn expiry_text(names: &Names, e: &Expiry) -> String {
    match e {
        Expiry::UntilEnded => "until ended".into(),
        Expiry::EndOfTurn { round, of } => {
            format!("until the end of {}'s turn in round {round}", n(names, *of))
        }
        Expiry::EndOfRound(r) => format!("until the end of round {r}"),
    }
}

impl BattleEvent {
    /// One line of plain words, with the full breakdown of any roll.
    pub fn describe(&self, names: &Names) -> String {
        use BattleEvent as E;
        match self {
            E::BattleStarted { seed } => match seed {
                Some(s) => format!("Battle starts (seed {s})."),
                None => "Battle starts (scripted dice).".into(),
            },
            E::InitiativeRolled { who, roll } => format!("{} rolls {roll}", n(names, *who)),
            E::InitiativeRollOff { who, roll } => {
                format!("{} breaks the initiative tie: {roll}", n(names, *who))
            }
            E::TurnOrder { order } => format!(
                "Turn order: {}.",
                order
                    .iter()
                    .map(|i| n(names, *i))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            E::RoundStarted { round } => format!("=== Round {round} ==="),
            E::ActionsRefreshed {
                who,
                standard,
                counter,
                notes,
                ap,
            } => {
                let mut s = if *ap {
                    format!("{} has {standard} AP", n(names, *who))
                } else {
                    format!(
                        "{} has {standard} Standard and {counter} Counter Actions",
                        n(names, *who)
                    )
                };
                if !notes.is_empty() {
                    s.push_str(&format!(" ({})", notes.join("; ")));
                }
                s + "."
            }
            E::TurnStarted { who, round } => {
                format!("-- {}'s turn (round {round}) --", n(names, *who))
            }
            E::TurnSkipped { who, reason } => {
                format!("{}'s turn is skipped: {reason}.", n(names, *who))
            }
            E::TurnEnded { who } => format!("{} ends the turn.", n(names, *who)),
            E::InterruptSpent { who, what } => format!(
                "{} uses its Interrupt Action for a free Skill Check ({what}): no Intercede this round.",
                n(names, *who)
            ),
            E::GroundChanged { who, at, from, to } => format!(
                "{} clears {at}: the {} is now {}.",
                n(names, *who),
                from.to_lowercase(),
                to.to_lowercase()
            ),
            E::HandedOver { who, to, kept } => format!(
                "{} hands the turn to {} and keeps {kept} action{} for when {} is done.",
                n(names, *who),
                n(names, *to),
                if *kept == 1 { "" } else { "s" },
                n(names, *to)
            ),
            E::Delayed { who, after } => format!(
                "{0} delays its turn: {1} acts first, then {0}, who keeps that later slot in the rounds to come.",
                n(names, *who),
                n(names, *after)
            ),
            E::TurnResumed { who, actions } => format!(
                "-- {} takes the turn back ({actions} action{} left) --",
                n(names, *who),
                if *actions == 1 { "" } else { "s" }
            ),
            E::ActionSpent {
                who,
                kind: ActionKind::ActionPoint,
                what,
            } => format!("{} spends 1 AP on {what}.", n(names, *who)),
            E::ActionSpent {
                who,
                kind: ActionKind::Swift,
                what,
            } => format!("{} spends its Swift action on {what}.", n(names, *who)),
            E::ActionSpent { who, kind, what } => {
                format!("{} spends a {kind:?} Action on {what}.", n(names, *who))
            }
            E::FreeAction { who, what } => {
                format!("{} takes a free action: {what}.", n(names, *who))
            }
            E::ActionConverted { who } => format!(
                "{} converts a Standard Action into a Counter Action.",
                n(names, *who)
            ),
            E::ActionGained { who, kind, reason } => {
                format!("{} gains a {kind:?} Action: {reason}.", n(names, *who))
            }
            E::ActionWithheld { who, reason } => format!(
                "{} gains no Action from {reason}: after Rage, one Action this round.",
                n(names, *who)
            ),
            E::PoolChanged {
                who,
                pool,
                from,
                to,
                reason,
            } => format!("{} {pool} {from} -> {to} ({reason}).", n(names, *who)),
            E::KiSpent {
                who,
                from,
                to,
                what,
                ..
            } => format!("{} Ki {from} -> {to} ({what}).", n(names, *who)),
            E::CardDrawn {
                who,
                card,
                roll,
                of,
            } => format!(
                "{} draws {card} (d{of} over its deck: {roll}).",
                n(names, *who)
            ),
            E::CardPlayed { who, card, why } => {
                format!("{} plays {card}: {why}.", n(names, *who))
            }
            E::StageHit {
                target,
                stages,
                life_cards,
                what,
                ..
            } => format!(
                "{} loses {stages} power stage(s) and {life_cards} life card(s) to {what}.",
                n(names, *target)
            ),
            E::MissChanceRolled {
                target,
                chance,
                source,
                roll,
                missed,
            } => format!(
                "Concealment ({source}, {chance}% miss chance): d100 {roll}, {}.",
                if *missed {
                    format!("the attack misses {}", n(names, *target))
                } else {
                    "the hit stands".to_string()
                }
            ),
            E::CoverRolled {
                target,
                cover,
                at,
                chance,
                roll,
                absorbed,
                left,
                person,
                full,
            } => {
                if *full {
                    format!(
                        "Full cover: the attack strikes the {cover} at {at}, which absorbs {absorbed}{}.",
                        if *left <= 0 {
                            " and breaks: it no longer blocks sight".to_string()
                        } else {
                            format!(" ({left} left)")
                        }
                    )
                } else if person.is_some() && *roll <= i64::from(*chance) {
                    format!(
                        "Partial cover ({chance}%): d100 {roll}, the attack hits {cover} at {at}, standing in the way, who takes {absorbed} ({left} HP left).",
                    )
                } else if person.is_some() {
                    format!(
                        "Partial cover ({chance}%): d100 {roll}, the attack passes {cover} and hits {}.",
                        n(names, *target)
                    )
                } else if *roll <= i64::from(*chance) {
                    format!(
                        "Partial cover ({chance}%): d100 {roll}, the attack hits the {cover} at {at}, which absorbs {absorbed}{}.",
                        if *left <= 0 {
                            " and breaks".to_string()
                        } else {
                            format!(" ({left} left)")
                        }
                    )
                } else {
                    format!(
                        "Partial cover ({chance}%): d100 {roll}, the attack passes the {cover} and hits {}.",
                        n(names, *target)
                    )
                }
            }
            E::CounterCast { who, counter } => {
                format!("{} casts {counter} with the defense.", n(names, *who))
            }
            E::CounterStruck {
                by,
                on,
                counter,
                kept,
                defense,
                hit,
                damage,
            } => {
                if *hit {
                    format!(
                        "{counter}: {} keeps {kept} against {}'s {} {}: hits for {damage}.",
                        n(names, *by),
                        n(names, *on),
                        defense.kind,
                        defense.total
                    )
                } else {
                    format!(
                        "{counter}: {} keeps {kept} against {}'s {} {}: misses.",
                        n(names, *by),
                        n(names, *on),
                        defense.kind,
                        defense.total
                    )
                }
            }
            E::CounterWasted { who, counter } => format!(
                "{} is hit: {counter} is spent with no effect.",
                n(names, *who)
            ),
            E::Fell {
                who,
                at,
                feet,
                roll,
                negate_dc,
                halve_dc,
                damage,
            } => match roll {
                Some(r) => format!(
                    "{} falls {feet} ft at {at}: {} {} (DC {negate_dc} negates, DC {halve_dc} halves): {damage} falling damage.",
                    n(names, *who),
                    r.kind,
                    r.total
                ),
                None => format!(
                    "{} drops {feet} ft at {at}: too short a fall to hurt.",
                    n(names, *who)
                ),
            },
            E::D20Fell {
                who,
                at,
                feet,
                yards,
                impact,
                dr,
                damage,
            } => format!(
                "{} falls {feet} ft ({yards} yards) at {at}: an impact of {impact}, less {dr} armour DR: {damage} falling damage.",
                n(names, *who)
            ),
            E::SneakContest {
                attacker,
                defender,
                attack,
                defense,
                won,
            } => format!(
                "{} tries a sneak attack: {} {} against {}'s {} {}: {}",
                n(names, *attacker),
                attack.kind,
                attack.total,
                n(names, *defender),
                defense.kind,
                defense.total,
                if *won {
                    "unseen: every defense against it takes the sneak penalty.".to_string()
                } else {
                    format!(
                        "spotted: it provokes an opportunity attack from {} (if one can reach) and is made as an ordinary attack.",
                        n(names, *defender)
                    )
                }
            ),
            E::Slammed {
                who,
                at,
                damage,
                what,
            } => format!(
                "{} is slammed against an obstruction at {at}: {damage} slam damage ({what}).",
                n(names, *who)
            ),
            E::StoppedAtReach { who, by, at } => format!(
                "{} is stopped at {at}, where it entered {}'s reach.",
                n(names, *who),
                n(names, *by)
            ),
            E::StoppedShort { who, at } => format!(
                "{} cannot stop on an ally's square and stops at {at}, the last square it may \
                 stand on.",
                n(names, *who)
            ),
            E::DeckReshuffled { who, cards } => format!(
                "{}'s deck is empty: its {cards} discarded cards become the deck.",
                n(names, *who)
            ),
            E::EnergyCharged {
                who,
                attack,
                charges,
            } => format!(
                "{} charges {attack}: {charges} Energy Charge(s) held, Guard Down until it is made.",
                n(names, *who)
            ),
            E::ArrogantDeclaration { who } => format!(
                "{} makes an Arrogant Declaration: Superiority until the end of its next turn, then a lasting penalty.",
                n(names, *who)
            ),
            E::Empowering { who, ally, full } => format!(
                "{} begins {} {}.",
                n(names, *who),
                if *full {
                    "a Full Empowerment of"
                } else {
                    "to Empower"
                },
                n(names, *ally)
            ),
            E::Empowered {
                who,
                ally,
                amount,
                full,
            } => {
                let mut s = format!(
                    "{} Empowers {} with {amount} Ki",
                    n(names, *who),
                    n(names, *ally)
                );
                if *full {
                    s.push_str(" (Full Empowerment: Capacity 0, Fatigued and Impediment)");
                }
                s + "."
            }
            E::GrappleRoll {
                who,
                target,
                act,
                check,
                roll,
                against,
                won,
            } => format!(
                "{} ({}): {check} {roll} against {}'s {against} -> {}.",
                n(names, *who),
                act.name(),
                n(names, *target),
                if *won { "won" } else { "lost" }
            ),
            E::HideRoll {
                who,
                against,
                roll,
                against_roll,
                won,
            } => format!(
                "{} tries to Hide: {roll} against {}'s {against_roll} -> {}.",
                n(names, *who),
                n(names, *against),
                if *won { "unseen" } else { "seen" }
            ),
            E::GrappleStarted { who, target } => format!(
                "{} grapples {}: both have Guard Down while the hold lasts.",
                n(names, *who),
                n(names, *target)
            ),
            E::GrappleEnded { who, target, why } => format!(
                "{}'s Grapple on {} ends ({why}).",
                n(names, *who),
                n(names, *target)
            ),
            E::UnitedAttack {
                ally,
                attacker,
                attack,
            } => format!(
                "{} joins {}'s {attack} with a United Attack.",
                n(names, *ally),
                n(names, *attacker)
            ),
            E::Reflected {
                by,
                attacker,
                attack,
            } => format!(
                "{} reflects the {attack} back at {}!",
                n(names, *by),
                n(names, *attacker)
            ),
            E::ArroganceAftermath { who, penalty } => format!(
                "{}'s Arrogant Declaration is spent: -{penalty} to Combat Rolls, Surgency and Soak for the rest of the encounter.",
                n(names, *who)
            ),
            E::ChargeReleased { who, charges } => format!(
                "{} releases {charges} Energy Charge(s) into the attack.",
                n(names, *who)
            ),
            E::ChargeLost {
                who,
                charges,
                reason,
            } => format!(
                "{} loses {charges} Energy Charge(s) ({reason}).",
                n(names, *who)
            ),
            E::PoweredUp {
                who,
                stacks,
                roll_bonus,
                capacity,
            } => format!(
                "{} powers up: {stacks} stack(s), +{roll_bonus} to Combat Rolls, +{capacity} Capacity, until the end of its next turn.",
                n(names, *who)
            ),
            E::PowerFaded { who } => format!("{}'s Power Up fades.", n(names, *who)),
            E::RecoveryStarted { who, actions } => format!(
                "{} begins a Combat Recovery with {actions} Actions: opponents not at Long Range may Exploit.",
                n(names, *who)
            ),
            E::Recovered {
                who,
                roll,
                life,
                ki,
                life_lost_to_exploit,
            } => {
                if *life_lost_to_exploit {
                    format!(
                        "{} recovers: {roll}; regains {ki} Ki, but no Life (an Exploit hit).",
                        n(names, *who)
                    )
                } else {
                    format!(
                        "{} recovers: {roll}; regains {life} Life and {ki} Ki.",
                        n(names, *who)
                    )
                }
            }
            E::Moved {
                who,
                path,
                cost,
                boosted,
                stopped,
                by_ap,
                jump,
            } => {
                if *jump {
                    return describe_jump(&n(names, *who), path, *stopped);
                }
                let speed = if *by_ap {
                    String::new()
                } else if *boosted {
                    " at Boosted Speed".to_string()
                } else {
                    " at Normal Speed".to_string()
                };
                let steps: Vec<String> = path.iter().map(|s| s.to_string()).collect();
                let mut s = format!(
                    "{} moves{speed}, cost {cost}: {}",
                    n(names, *who),
                    if steps.is_empty() {
                        "stays put".to_string()
                    } else {
                        steps.join(" -> ")
                    }
                );
                if *stopped && *by_ap {
                    s.push_str(" (stopped by an opportunity attack)");
                } else if *stopped {
                    s.push_str(" (stopped by an Exploit)");
                }
                s + "."
            }
            E::ExploitProvoked {
                attacker,
                mover,
                at,
                recovering,
                sneak,
                opportunity,
                shooting,
                charging,
                declaring,
                empowering,
                grappling,
            } => {
                if *grappling {
                    format!(
                        "{}'s Grapple on {} fails: Exploit!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *empowering {
                    format!(
                        "{} Empowers an ally at {at} beside {}: Exploit!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *declaring {
                    format!(
                        "{} makes an Arrogant Declaration at {at} beside {}: Exploit!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *charging {
                    format!(
                        "{} charges at {at} beside {}: Exploit!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *shooting {
                    format!(
                        "{} shoots at {at} within {}'s reach: attack of opportunity first!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *sneak {
                    format!(
                        "{} was spotted sneaking at {at}: {} may make an opportunity attack first!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *recovering {
                    format!(
                        "{} recovers at {at} within {}'s reach: Exploit!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else if *opportunity {
                    format!(
                        "{} leaves {}'s reach at {at}, a reach it entered: opportunity attack!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                } else {
                    format!(
                        "{} leaves {}'s reach at {at}: Exploit!",
                        n(names, *mover),
                        n(names, *attacker)
                    )
                }
            }
            E::AttackDeclared {
                attacker,
                profile,
                technique,
                element,
                targets,
                ki_cost,
                wager,
                cost_pool,
                called_shot,
            } => {
                let mut what = profile.clone();
                if let Some(t) = technique {
                    what = format!("{t} ({what})");
                }
                if let Some(e) = element {
                    what.push_str(&format!(" [{e}]"));
                }
                if let Some(part) = called_shot {
                    what.push_str(&format!(", a Called Shot at the {part}"));
                }
                let tgt = if targets.is_empty() {
                    "no one".to_string()
                } else {
                    targets
                        .iter()
                        .map(|i| n(names, *i))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                match cost_pool {
                    Some(_) if *ki_cost == 0 => {
                        format!("{} attacks {tgt} with {what}.", n(names, *attacker))
                    }
                    Some(Pool::Chakra) => format!(
                        "{} attacks {tgt} with {what}: costs {ki_cost} chakra.",
                        n(names, *attacker)
                    ),
                    Some(pool) => format!(
                        "{} attacks {tgt} with {what}: costs {ki_cost} {pool}(s).",
                        n(names, *attacker)
                    ),
                    None => format!(
                        "{} attacks {tgt} with {what}: Ki cost {ki_cost}, wager {wager}.",
                        n(names, *attacker)
                    ),
                }
            }
            E::ResponseWindow { attacker } => format!(
                "Instant actions may answer {}'s attack.",
                n(names, *attacker)
            ),
            E::SurgeUsed {
                who,
                healing,
                amount,
                roll,
            } => {
                let kind = if *healing {
                    "Healing Surge"
                } else {
                    "Ki Surge"
                };
                match roll {
                    Some(r) => format!("{} uses a {kind}: {r}; regains {amount}.", n(names, *who)),
                    None => format!("{} uses a {kind}: regains {amount}.", n(names, *who)),
                }
            }
            E::DefenseDeclared { defender, choice } => match choice {
                DefenseChoice::Take => format!("{} takes the shot.", n(names, *defender)),
                DefenseChoice::Dive => format!("{} will dive for cover.", n(names, *defender)),
                DefenseChoice::DropProne => format!("{} will drop prone.", n(names, *defender)),
                DefenseChoice::Resist => {
                    format!("{} will resist (Gen Resist).", n(names, *defender))
                }
                _ => format!("{} will {choice:?}.", n(names, *defender)),
            },
            E::StrikeRolled { attacker, roll } => format!("{}: {roll}", n(names, *attacker)),
            E::DefenseRolled { defender, roll } => format!("{}: {roll}", n(names, *defender)),
            E::Clash {
                attacker,
                defender,
                strike,
                defense,
                hit,
                automatic,
                attacker_wins_ties,
            } => match automatic {
                None if *attacker_wins_ties && *hit && strike == defense => format!(
                    "Strike {strike} ties {defense}: the attacker wins ties, {} hits {}.",
                    n(names, *attacker),
                    n(names, *defender)
                ),
                None if *attacker_wins_ties && !*hit => format!(
                    "Strike {strike} against {defense}: {} misses {}.",
                    n(names, *attacker),
                    n(names, *defender)
                ),
                Some(why) if !*hit => format!(
                    "{} stops {}'s attack ({why}).",
                    n(names, *defender),
                    n(names, *attacker)
                ),
                Some(why) => format!(
                    "{} hits {} automatically ({why}).",
                    n(names, *attacker),
                    n(names, *defender)
                ),
                None if *hit => format!(
                    "Strike {strike} beats {defense}: {} hits {}.",
                    n(names, *attacker),
                    n(names, *defender)
                ),
                None => format!(
                    "Strike {strike} against {defense}: {} misses {} (the defender wins ties).",
                    n(names, *attacker),
                    n(names, *defender)
                ),
            },
            E::D20Check {
                attacker,
                defender,
                strike,
                difficulty,
                difficulty_why,
                defense,
                attack_natural_one,
                defense_natural_one,
                hit,
                success,
            } => {
                let against = match defense {
                    Some(d) if *defense_natural_one => {
                        format!(
                            "DC {difficulty} ({difficulty_why}); the defense {d} rolled a natural 1 and fails"
                        )
                    }
                    Some(d) => format!("DC {difficulty} ({difficulty_why}) and the defense {d}"),
                    None => format!("DC {difficulty} ({difficulty_why}), no defense roll"),
                };
                let (a, t) = (n(names, *attacker), n(names, *defender));
                if *attack_natural_one {
                    format!(
                        "Attack {strike} against {against}: a natural 1 always fails, {a} misses {t}."
                    )
                } else if *hit {
                    format!(
                        "Attack {strike} against {against}: {a} hits {t} by {} (ties go to the attacker).",
                        success.unwrap_or(0)
                    )
                } else {
                    format!("Attack {strike} against {against}: {a} misses {t}.")
                }
            }
            E::ArmourWorn { who, armour, wear } => format!(
                "{}'s {armour} is bypassed and wears: every DR value is now {wear} lower.",
                n(names, *who)
            ),
            E::DigiEffect {
                who,
                by,
                effect,
                text,
            } => {
                if who == by {
                    format!("{}'s {effect} {text}.", n(names, *who))
                } else {
                    format!(
                        "{effect} from {} on {}: {text}.",
                        n(names, *by),
                        n(names, *who)
                    )
                }
            }
            E::DigiFall { text, .. }
            | E::Digivolved { text, .. }
            | E::Flew { text, .. }
            | E::DigiNote { text, .. }
            | E::Blast { text, .. }
            | E::Dive { text, .. }
            | E::DroppedProne { text, .. } => text.clone(),
            E::PowerAttack { who, amount } => format!(
                "{} Power Attacks at {amount}: -{amount} to hit and more Effect Points on every melee attack until its next turn starts.",
                n(names, *who)
            ),
            E::WoundRolled { attacker, roll } => format!("{}: {roll}", n(names, *attacker)),
            E::Damage {
                target,
                wound,
                category,
                soak,
                soak_used,
                damage,
                notes,
                flat,
                ..
            } => {
                let mut s = if *flat {
                    if damage == wound {
                        format!("{} takes {damage} damage", n(names, *target))
                    } else {
                        format!("{} takes {damage} of the {wound} damage", n(names, *target))
                    }
                } else {
                    format!(
                        "{} takes {damage} {category:?} damage (Wound {wound} - Soak {soak_used} of {soak})",
                        n(names, *target)
                    )
                };
                if !notes.is_empty() {
                    s.push_str(&format!(" [{}]", notes.join("; ")));
                }
                s + "."
            }
            E::Pushed { who, from, to } => {
                format!("{} is pushed from {from} to {to}.", n(names, *who))
            }
            E::DefenseLowered {
                who,
                amount,
                until_turn_of,
                reason,
            } => format!(
                "{} has {amount} Defense Value until the start of {}'s next turn ({reason}).",
                n(names, *who),
                n(names, *until_turn_of)
            ),
            E::DiminishingDefense { who, added, total } => format!(
                "{}'s Diminishing Defense: -{added} (now -{total}).",
                n(names, *who)
            ),
            E::ThresholdReached {
                who,
                threshold,
                by_damage,
            } => {
                if *by_damage {
                    format!("{} reaches the {threshold} threshold.", n(names, *who))
                } else {
                    format!(
                        "{} reaches the {threshold} threshold without damage (penalty, no triggers).",
                        n(names, *who)
                    )
                }
            }
            E::SteadfastRolled {
                who,
                threshold,
                roll,
                passed,
            } => format!(
                "{} makes a Steadfast Save for {threshold}: {roll} -> {}.",
                n(names, *who),
                if *passed { "passed" } else { "failed" }
            ),
            E::ThresholdPenalty {
                who,
                threshold,
                penalty,
            } => match threshold {
                Some(t) => format!(
                    "{} suffers the {t} penalty: -{penalty} to Combat Rolls.",
                    n(names, *who)
                ),
                None => format!("{} has no threshold penalty.", n(names, *who)),
            },
            E::ReducedMomentum {
                who,
                threshold,
                actions,
            } => format!(
                "{} will have {actions} fewer Standard Action next round (Reduced Momentum: its own effect took it through {threshold}).",
                n(names, *who)
            ),
            E::CheckRolled {
                who,
                purpose,
                roll,
                target,
                passed,
            } => format!(
                "{} {purpose}: {roll} against TN {target} -> {}.",
                n(names, *who),
                if *passed { "success" } else { "failure" }
            ),
            E::Feint {
                who,
                target,
                roll,
                against_roll,
                caught,
            } => {
                let (w, t) = (n(names, *who), n(names, *target));
                if *caught {
                    format!(
                        "{w} feints at {t}: {roll} against {against_roll}: {t} is caught off guard; {w}'s next attack on {t} is off guard."
                    )
                } else {
                    format!(
                        "{w} feints at {t}: {roll} against {against_roll}: {t} sees through it."
                    )
                }
            }
            E::OpposedSave {
                who,
                against,
                roll,
                against_roll,
                passed,
            } => format!(
                "{} tries to escape {}: {roll} against {against_roll} -> {}.",
                n(names, *who),
                n(names, *against),
                if *passed { "free" } else { "still held" }
            ),
            E::ConditionApplied {
                who,
                kind,
                source,
                stacks,
                amount,
                expires,
            } => {
                let mut s = format!("{} gains {kind:?}", n(names, *who));
                if *stacks > 1 {
                    s.push_str(&format!(" x{stacks}"));
                }
                if *amount > 0 {
                    s.push_str(&format!(" ({amount} per turn)"));
                }
                if let Some(src) = source {
                    s.push_str(&format!(" from {}", n(names, *src)));
                }
                format!("{s}, {}.", expiry_text(names, expires))
            }
            E::ConditionEnded { who, kind, reason } => {
                format!("{}'s {kind:?} ends ({reason}).", n(names, *who))
            }
            E::Defeated { who, by } => match by {
                Some(b) => format!("{} is Defeated by {}!", n(names, *who), n(names, *b)),
                None => format!("{} is Defeated!", n(names, *who)),
            },
            E::AttackEnded { attacker } => format!("{}'s attack ends.", n(names, *attacker)),
            E::BattleEnded {
                winner,
                round,
                reason,
            } => match (winner, reason) {
                (Some(s), EndReason::LastSideStanding) => {
                    format!("Battle over in round {round}: side {} wins.", s.0)
                }
                (Some(s), EndReason::RoundLimit) => format!(
                    "Battle over after round {round}, the round limit: side {} wins.",
                    s.0
                ),
                (None, EndReason::LastSideStanding) => {
                    format!("Battle over in round {round}: no one is left standing.")
                }
                (None, EndReason::RoundLimit) => {
                    format!("Battle over after round {round}, the round limit: a draw.")
                }
            },
        }
    }
}

/// A jump in words: how far, where it landed and what it passed over.
fn describe_jump(who: &str, path: &[crate::grid::Square], stopped: bool) -> String {
    let Some((last, over)) = path.split_last() else {
        return format!("{who} jumps and lands where it stood.");
    };
    let mut s = format!(
        "{who} jumps {} square{} to {last}",
        path.len(),
        if path.len() == 1 { "" } else { "s" }
    );
    if !over.is_empty() {
        let over: Vec<String> = over.iter().map(|s| s.to_string()).collect();
        s.push_str(&format!(", over {}", over.join(", ")));
    }
    if stopped {
        s.push_str(" (stopped by an opportunity attack)");
    }
    s + "."
}
