//! The battle screen's choice of how the next attack is aimed: a DBU Called Shot's body part,
//! or a d20 aimed shot (at the armour's gaps, through the cover), cycled by one key.

use super::session::Session;

impl Session {
    /// What the Called Shot key chooses in this ruleset, for the bar and the aim panel.
    pub fn called_shot_title(&self) -> &'static str {
        if self.battle.rules().d20().is_some() {
            "Aimed shot"
        } else {
            "Called Shot"
        }
    }

    /// The body parts a Called Shot may name in this ruleset, as (id, name), or d20's aimed
    /// shots; empty without either.
    pub fn called_shot_parts(&self) -> Vec<(String, String)> {
        if self.battle.rules().d20().is_some() {
            let c = crate::battle::family::d20::aimed::CHOICES;
            return c.iter().map(|c| (c.0.into(), c.1.into())).collect();
        }
        self.battle
            .rules()
            .attacks
            .called_shot
            .as_ref()
            .map_or(Vec::new(), |cs| {
                cs.targets
                    .iter()
                    .map(|t| (t.id.clone(), t.name.clone()))
                    .collect()
            })
    }

    /// Names the next body part for the Called Shot: none, then each in the ruleset's order,
    /// then none again.
    pub fn cycle_called_shot(&mut self) {
        let parts = self.called_shot_parts();
        let at = self
            .called_shot
            .as_ref()
            .and_then(|c| parts.iter().position(|(id, _)| id == c));
        self.called_shot = match at {
            None => parts.first().map(|(id, _)| id.clone()),
            Some(i) => parts.get(i + 1).map(|(id, _)| id.clone()),
        };
    }

    /// The name of the body part chosen for the Called Shot, if any.
    pub fn called_shot_name(&self) -> Option<String> {
        let id = self.called_shot.as_ref()?;
        self.called_shot_parts()
            .into_iter()
            .find(|(i, _)| i == id)
            .map(|(_, n)| n)
    }
}
