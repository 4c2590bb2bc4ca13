//! United Attack (DBU, digest §3.4, an Instant, 1/Round): an ally adjacent to the attacker
//! spends 1 Action and the profile's Ki; the Wound Roll gains half the ally's damage attribute
//! and the ally's wager, up to a quarter of its Max Capacity. The dice are scripted: a ToP 2
//! Strike, Dodge or Wound rolls a d10 and a d4.

use gridclash::battle::Battle;
use gridclash::battle::command::{AttackOrder, AttackTarget, Command, RuleError, United};
use gridclash::battle::components::CombatantId;

use crate::common::*;

/// A Ki Blaster (0) with a Brawler (1) beside it, a Tank (2) of the other side beside the
/// Ki Blaster; the Ki Blaster acts first.
fn trio(faces: &[u32]) -> Battle {
    let mut all = vec![10, 1, 1];
    all.extend_from_slice(faces);
    battle(
        vec![
            unit("ki_blaster", 0, 5, 5),
            unit("brawler", 0, 5, 6),
            unit("tank", 1, 6, 4),
        ],
        &all,
    )
}

/// The Ki Blaster's `profile` at the Tank, the Brawler joining with `wager`.
fn joined(profile: &str, wager: i64) -> AttackOrder {
    AttackOrder {
        united: Some(United {
            ally: CombatantId(1),
            wager,
        }),
        ..attack(0, profile, AttackTarget::Combatant(CombatantId(2)))
    }
}

#[test]
fn dbu_united_attack_adds_half_the_allys_force_and_its_wager_to_the_wound() {
    let mut b = trio(&[9, 4, 1, 1, 5, 2]);
    let before = b.fighter(CombatantId(1)).unwrap();
    let got = run(&mut b, Command::Attack(joined("sphere", 3)));
    assert_contains(
        &got,
        &["Brawler joins Ki Blaster's Sphere with a United Attack."],
    );
    assert!(
        got.iter().any(|l| l.starts_with("Ki Blaster: Wound ")
            && l.contains(
                "+ United Attack (Brawler, 1/2 FO 8) 4 + United Attack wager (Brawler) 3"
            )),
        "{got:#?}"
    );
    // The ally paid one Action and the Sphere's 2(T) Ki plus its wager, once this round.
    let after = b.fighter(CombatantId(1)).unwrap();
    assert_eq!(after.actions.usable(), before.actions.usable() - 1);
    assert_eq!(after.ki.current, before.ki.current - 4 - 3);
    assert!(after.round.united);
}

#[test]
fn dbu_united_attack_preview_counts_the_allys_terms() {
    let mut b = trio(&[]);
    let alone = b
        .preview(&attack(
            0,
            "sphere",
            AttackTarget::Combatant(CombatantId(2)),
        ))
        .expect("legal");
    let together = b.preview(&joined("sphere", 0)).expect("legal");
    assert!(
        together.odds.wound.mean > alone.odds.wound.mean + 3.9,
        "{} against {}",
        together.odds.wound.mean,
        alone.odds.wound.mean
    );
    assert!(together.odds.targets[0][0].expected_damage > alone.odds.targets[0][0].expected_damage);
}

#[test]
fn dbu_united_attack_refuses_what_the_rule_does_not_allow() {
    let united = |b: &mut Battle, order: AttackOrder| b.check(&Command::Attack(order));
    // An ally not beside the attacker.
    let mut far = battle(
        vec![
            unit("ki_blaster", 0, 5, 5),
            unit("brawler", 0, 5, 8),
            unit("tank", 1, 6, 4),
        ],
        &[10, 1, 1],
    );
    assert!(matches!(
        united(&mut far, joined("sphere", 0)),
        Err(RuleError::United { why, .. }) if why.contains("adjacent")
    ));
    let mut b = trio(&[]);
    // An opponent is no ally.
    let foe = AttackOrder {
        united: Some(United {
            ally: CombatantId(2),
            wager: 0,
        }),
        ..attack(0, "sphere", AttackTarget::Combatant(CombatantId(2)))
    };
    assert!(matches!(united(&mut b, foe), Err(RuleError::United { .. })));
    // A wager above a quarter of the ally's Max Capacity.
    assert!(matches!(
        united(&mut b, joined("sphere", 1000)),
        Err(RuleError::United { why, .. }) if why.contains("quarter")
    ));
    // Once a round.
    stage(&mut b, 1, |f| f.round.united = true);
    assert!(matches!(
        united(&mut b, joined("sphere", 0)),
        Err(RuleError::United { why, .. }) if why.contains("once a round")
    ));
}

#[test]
fn dbu_united_attack_needs_an_action_left() {
    let mut b = trio(&[]);
    stage(&mut b, 1, |f| {
        f.actions.standard = 0;
        f.actions.counter = 0;
    });
    assert!(matches!(
        b.check(&Command::Attack(joined("sphere", 0))),
        Err(RuleError::NoActions { .. })
    ));
}
