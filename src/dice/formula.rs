//! Formulas as the rules texts write them: `2(T)`, `1d8 + 1d4(T)`, `AG / 2`, `max(FO, MA)`.
//!
//! Rules data keeps every number in the book's own notation so a modder can compare a file with
//! the text line by line. A formula is parsed once at load time (so a typo is reported with its
//! file, line and column) and evaluated against a [`Vars`] lookup many times during a battle.
//!
//! Grammar (integers only; `/` rounds down, as DBU's Core Rules say every division does):
//!
//! ```text
//! sum     := product (('+' | '-') product)*
//! product := unary (('*' | '/') unary)*
//! unary   := '-' unary | atom
//! atom    := NUMBER scale? | NUMBER 'd' NUMBER scale? | IDENT | IDENT '(' sum (',' sum)* ')' | '(' sum ')'
//! scale   := '(T)' | '(bT)'          // x(T) is x times the current Tier of Power, x(bT) the base one
//! ```
//!
//! Dice (`NdM`) may only appear as whole terms of the top-level sum of a dice formula; the scale
//! applies to the number of dice (`1d6(T)` at ToP 3 is 3d6).

use std::fmt;

/// A parse or evaluation problem, with the byte offset inside the formula text so the loader can
/// turn it into a file position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at character {offset} of \"{text}\")")]
pub struct FormulaError {
    pub message: String,
    pub offset: usize,
    pub text: String,
}

/// The variables a formula may read. Implemented by the battle's views of a combatant.
pub trait Vars {
    /// The value of `name`, or `None` when the name is unknown in this context.
    fn get(&self, name: &str) -> Option<i64>;
}

/// Variables given as a slice of pairs: handy for validation and tests.
impl Vars for [(&str, i64)] {
    fn get(&self, name: &str) -> Option<i64> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Num(i64),
    Var(String, usize),
    Dice { count: Box<Node>, sides: u32 },
    Neg(Box<Node>),
    Add(Box<Node>, Box<Node>),
    Sub(Box<Node>, Box<Node>),
    Mul(Box<Node>, Box<Node>),
    Div(Box<Node>, Box<Node>, usize),
    Call(String, Vec<Node>, usize),
}

/// A whole-number formula such as `6(T)`, `AG / 2` or `60 + 12 * (PL - 1)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formula {
    text: String,
    root: Node,
}

/// One group of dice of a [`DiceFormula`], already scaled: `count` dice with `sides` faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DiceGroup {
    pub count: u32,
    pub sides: u32,
}

impl fmt::Display for DiceGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}

/// A formula that may roll dice: `1d8 + 1d4(T)`, `1d6(T)`, `1d10 + 1d4`, or an empty string for
/// "no dice" (ToP 1 has no Extra Dice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceFormula {
    text: String,
    terms: Vec<(bool, Node)>,
}

/// A dice formula evaluated for one roller: the dice to roll and the flat part.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DicePool {
    pub dice: Vec<DiceGroup>,
    pub flat: i64,
}

impl Formula {
    /// Parses `text`; an empty text is refused (use `0`).
    pub fn parse(text: &str) -> Result<Self, FormulaError> {
        let mut p = Parser::new(text)?;
        if p.tokens.is_empty() {
            return Err(p.error("empty formula (write 0 for nothing)", 0));
        }
        let root = p.sum()?;
        p.expect_end()?;
        if contains_dice(&root) {
            return Err(p.error("dice are not allowed here: this value is a plain number", 0));
        }
        Ok(Self {
            text: text.to_string(),
            root,
        })
    }

    /// The constant formula `n`; used for defaults written in code.
    pub fn constant(n: i64) -> Self {
        Self {
            text: n.to_string(),
            root: Node::Num(n),
        }
    }

    /// The text as written in the rules file.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Evaluates the formula; unknown variables and division by zero are errors.
    pub fn eval(&self, vars: &(impl Vars + ?Sized)) -> Result<i64, FormulaError> {
        eval(&self.root, vars, &self.text)
    }

    /// Every variable name the formula reads, with its offset, for load-time validation.
    pub fn variables(&self) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        collect_vars(&self.root, &mut out);
        out
    }

    /// True when the formula reads no variable at all.
    pub fn is_constant(&self) -> bool {
        self.variables().is_empty()
    }
}

impl DiceFormula {
    /// Parses a dice formula; an empty or blank text means no dice and no bonus.
    pub fn parse(text: &str) -> Result<Self, FormulaError> {
        let mut p = Parser::new(text)?;
        if p.tokens.is_empty() {
            return Ok(Self {
                text: text.to_string(),
                terms: Vec::new(),
            });
        }
        let mut terms = Vec::new();
        let mut negative = false;
        if p.peek_sym('-') {
            p.pos += 1;
            negative = true;
        }
        loop {
            let term = p.product()?;
            if let Node::Mul(_, _) | Node::Div(..) = &term
                && contains_dice(&term)
            {
                return Err(p.error(
                    "dice must be a whole term: write 2d6, not 2 * 1d6",
                    p.offset(),
                ));
            }
            terms.push((negative, term));
            if p.peek_sym('+') {
                negative = false;
            } else if p.peek_sym('-') {
                negative = true;
            } else {
                break;
            }
            p.pos += 1;
        }
        p.expect_end()?;
        Ok(Self {
            text: text.to_string(),
            terms,
        })
    }

    /// No dice and no bonus (the empty formula); for tables built in code.
    pub fn none() -> Self {
        Self {
            text: String::new(),
            terms: Vec::new(),
        }
    }

    /// The text as written in the rules file.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// True when there is nothing to roll and nothing to add.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Evaluates the formula into dice groups and a flat bonus for one roller.
    /// Negative dice terms are refused: rules subtract flat amounts, never dice.
    pub fn eval(&self, vars: &(impl Vars + ?Sized)) -> Result<DicePool, FormulaError> {
        let mut pool = DicePool::default();
        for (negative, term) in &self.terms {
            match term {
                Node::Dice { count, sides } => {
                    if *negative {
                        return Err(FormulaError {
                            message: "dice cannot be subtracted".into(),
                            offset: 0,
                            text: self.text.clone(),
                        });
                    }
                    let n = eval(count, vars, &self.text)?;
                    if n > 0 {
                        pool.dice.push(DiceGroup {
                            count: u32::try_from(n).unwrap_or(u32::MAX),
                            sides: *sides,
                        });
                    }
                }
                other => {
                    let v = eval(other, vars, &self.text)?;
                    pool.flat += if *negative { -v } else { v };
                }
            }
        }
        Ok(pool)
    }

    /// Every variable name the formula reads, with its offset.
    pub fn variables(&self) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        for (_, t) in &self.terms {
            collect_vars(t, &mut out);
        }
        out
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Display for DiceFormula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

macro_rules! serde_via_text {
    ($t:ty, $what:literal) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.text)
            }
        }
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                <$t>::parse(&text).map_err(|e| {
                    serde::de::Error::custom(format!(concat!("bad ", $what, ": {}"), e))
                })
            }
        }
    };
}
serde_via_text!(Formula, "formula");
serde_via_text!(DiceFormula, "dice formula");

fn contains_dice(n: &Node) -> bool {
    match n {
        Node::Dice { .. } => true,
        Node::Num(_) | Node::Var(..) => false,
        Node::Neg(a) => contains_dice(a),
        Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) | Node::Div(a, b, _) => {
            contains_dice(a) || contains_dice(b)
        }
        Node::Call(_, args, _) => args.iter().any(contains_dice),
    }
}

fn collect_vars(n: &Node, out: &mut Vec<(String, usize)>) {
    match n {
        Node::Var(name, at) => out.push((name.clone(), *at)),
        Node::Num(_) => {}
        Node::Dice { count, .. } => collect_vars(count, out),
        Node::Neg(a) => collect_vars(a, out),
        Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) | Node::Div(a, b, _) => {
            collect_vars(a, out);
            collect_vars(b, out);
        }
        Node::Call(_, args, _) => args.iter().for_each(|a| collect_vars(a, out)),
    }
}

fn eval(n: &Node, vars: &(impl Vars + ?Sized), text: &str) -> Result<i64, FormulaError> {
    let err = |message: String, offset: usize| FormulaError {
        message,
        offset,
        text: text.to_string(),
    };
    Ok(match n {
        Node::Num(v) => *v,
        Node::Var(name, at) => vars
            .get(name)
            .ok_or_else(|| err(format!("unknown name `{name}`"), *at))?,
        Node::Dice { .. } => return Err(err("dice cannot be used as a number".into(), 0)),
        Node::Neg(a) => -eval(a, vars, text)?,
        Node::Add(a, b) => eval(a, vars, text)?.saturating_add(eval(b, vars, text)?),
        Node::Sub(a, b) => eval(a, vars, text)?.saturating_sub(eval(b, vars, text)?),
        Node::Mul(a, b) => eval(a, vars, text)?.saturating_mul(eval(b, vars, text)?),
        Node::Div(a, b, at) => {
            let d = eval(b, vars, text)?;
            if d == 0 {
                return Err(err("division by zero".into(), *at));
            }
            eval(a, vars, text)?.div_euclid(d)
        }
        Node::Call(name, args, at) => {
            let vals = args
                .iter()
                .map(|a| eval(a, vars, text))
                .collect::<Result<Vec<_>, _>>()?;
            match name.as_str() {
                "max" => vals.into_iter().max().unwrap_or(0),
                "min" => vals.into_iter().min().unwrap_or(0),
                _ => return Err(err(format!("unknown function `{name}`"), *at)),
            }
        }
    })
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Dice(i64, u32),
    Ident(String),
    Scale(&'static str),
    Sym(char),
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<(Tok, usize)>,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Result<Self, FormulaError> {
        let bytes = text.as_bytes();
        let mut tokens = Vec::new();
        let mut i = 0;
        let mk = |message: &str, offset: usize| FormulaError {
            message: message.into(),
            offset,
            text: text.to_string(),
        };
        while i < bytes.len() {
            let c = bytes[i] as char;
            let start = i;
            if c.is_ascii_whitespace() {
                i += 1;
            } else if c.is_ascii_digit() {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let n: i64 = text[start..i]
                    .parse()
                    .map_err(|_| mk("number too large", start))?;
                if i + 1 < bytes.len() && bytes[i] == b'd' && bytes[i + 1].is_ascii_digit() {
                    let s = i + 1;
                    i += 1;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    let sides: u32 = text[s..i]
                        .parse()
                        .map_err(|_| mk("die size too large", s))?;
                    if !(2..=100).contains(&sides) {
                        return Err(mk("a die has between 2 and 100 sides", s));
                    }
                    if n > 100 {
                        return Err(mk("at most 100 dice in one group", start));
                    }
                    tokens.push((Tok::Dice(n, sides), start));
                } else {
                    tokens.push((Tok::Num(n), start));
                }
            } else if text[i..].starts_with("(T)") {
                tokens.push((Tok::Scale("T"), start));
                i += 3;
            } else if text[i..].starts_with("(bT)") {
                tokens.push((Tok::Scale("bT"), start));
                i += 4;
            } else if c.is_ascii_alphabetic() || c == '_' {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                tokens.push((Tok::Ident(text[start..i].to_string()), start));
            } else if "+-*/(),".contains(c) {
                tokens.push((Tok::Sym(c), start));
                i += 1;
            } else {
                return Err(mk(&format!("unexpected character `{c}`"), start));
            }
        }
        Ok(Self {
            text,
            tokens,
            pos: 0,
        })
    }

    fn error(&self, message: &str, offset: usize) -> FormulaError {
        FormulaError {
            message: message.into(),
            offset,
            text: self.text.to_string(),
        }
    }

    fn offset(&self) -> usize {
        self.tokens
            .get(self.pos)
            .map(|(_, o)| *o)
            .unwrap_or(self.text.len())
    }

    fn peek_sym(&self, c: char) -> bool {
        matches!(self.tokens.get(self.pos), Some((Tok::Sym(s), _)) if *s == c)
    }

    fn expect_sym(&mut self, c: char) -> Result<(), FormulaError> {
        if self.peek_sym(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{c}`"), self.offset()))
        }
    }

    fn expect_end(&self) -> Result<(), FormulaError> {
        if self.pos == self.tokens.len() {
            Ok(())
        } else {
            Err(self.error("unexpected text after the formula", self.offset()))
        }
    }

    fn sum(&mut self) -> Result<Node, FormulaError> {
        let mut left = self.product()?;
        loop {
            if self.peek_sym('+') {
                self.pos += 1;
                left = Node::Add(Box::new(left), Box::new(self.product()?));
            } else if self.peek_sym('-') {
                self.pos += 1;
                left = Node::Sub(Box::new(left), Box::new(self.product()?));
            } else {
                return Ok(left);
            }
        }
    }

    fn product(&mut self) -> Result<Node, FormulaError> {
        let mut left = self.unary()?;
        loop {
            if self.peek_sym('*') {
                self.pos += 1;
                left = Node::Mul(Box::new(left), Box::new(self.unary()?));
            } else if self.peek_sym('/') {
                let at = self.offset();
                self.pos += 1;
                left = Node::Div(Box::new(left), Box::new(self.unary()?), at);
            } else {
                return Ok(left);
            }
        }
    }

    fn unary(&mut self) -> Result<Node, FormulaError> {
        if self.peek_sym('-') {
            self.pos += 1;
            return Ok(Node::Neg(Box::new(self.unary()?)));
        }
        self.atom()
    }

    fn scaled(&mut self, node: Node) -> Node {
        if let Some((Tok::Scale(s), at)) = self.tokens.get(self.pos).cloned() {
            self.pos += 1;
            return Node::Mul(Box::new(node), Box::new(Node::Var(s.to_string(), at)));
        }
        node
    }

    fn atom(&mut self) -> Result<Node, FormulaError> {
        let Some((tok, at)) = self.tokens.get(self.pos).cloned() else {
            return Err(self.error("the formula ends too early", self.text.len()));
        };
        self.pos += 1;
        match tok {
            Tok::Num(n) => Ok(self.scaled(Node::Num(n))),
            Tok::Dice(n, sides) => {
                let count = self.scaled(Node::Num(n));
                Ok(Node::Dice {
                    count: Box::new(count),
                    sides,
                })
            }
            Tok::Ident(name) => {
                if self.peek_sym('(') {
                    self.pos += 1;
                    let mut args = vec![self.sum()?];
                    while self.peek_sym(',') {
                        self.pos += 1;
                        args.push(self.sum()?);
                    }
                    self.expect_sym(')')?;
                    if name != "max" && name != "min" {
                        return Err(
                            self.error(&format!("unknown function `{name}` (known: max, min)"), at)
                        );
                    }
                    Ok(Node::Call(name, args, at))
                } else {
                    Ok(Node::Var(name, at))
                }
            }
            Tok::Sym('(') => {
                let inner = self.sum()?;
                self.expect_sym(')')?;
                Ok(self.scaled(inner))
            }
            Tok::Scale(_) => Err(self.error("a scale such as (T) must follow a number", at)),
            Tok::Sym(c) => Err(self.error(&format!("unexpected `{c}`"), at)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VARS: &[(&str, i64)] = &[("T", 3), ("bT", 2), ("AG", 7), ("FO", 8), ("MA", 2)];

    #[test]
    fn scaling_notation_multiplies_by_tier() {
        assert_eq!(Formula::parse("2(T)").unwrap().eval(VARS).unwrap(), 6);
        assert_eq!(Formula::parse("2(bT)").unwrap().eval(VARS).unwrap(), 4);
        assert_eq!(Formula::parse("1(T)+1").unwrap().eval(VARS).unwrap(), 4);
    }

    #[test]
    fn division_rounds_down() {
        assert_eq!(Formula::parse("AG / 2").unwrap().eval(VARS).unwrap(), 3);
        assert_eq!(Formula::parse("-7 / 2").unwrap().eval(VARS).unwrap(), -4);
    }

    #[test]
    fn functions_and_precedence() {
        assert_eq!(
            Formula::parse("max(FO, MA) + 2 * 3")
                .unwrap()
                .eval(VARS)
                .unwrap(),
            14
        );
        assert_eq!(Formula::parse("(1 + 1)(T)").unwrap().eval(VARS).unwrap(), 6);
    }

    #[test]
    fn dice_scale_multiplies_the_number_of_dice() {
        let f = DiceFormula::parse("1d8 + 1d4(T) + 2").unwrap();
        let pool = f.eval(VARS).unwrap();
        assert_eq!(
            pool.dice,
            vec![
                DiceGroup { count: 1, sides: 8 },
                DiceGroup { count: 3, sides: 4 }
            ]
        );
        assert_eq!(pool.flat, 2);
        assert!(DiceFormula::parse("").unwrap().is_empty());
    }

    #[test]
    fn bad_formulas_name_the_offset() {
        let e = Formula::parse("AG / ").unwrap_err();
        assert_eq!(e.offset, 5);
        let e = Formula::parse("1d6").unwrap_err();
        assert!(e.message.contains("dice"));
        let e = DiceFormula::parse("2 * 1d6").unwrap_err();
        assert!(e.message.contains("whole term"));
        let e = Formula::parse("AG $ 2").unwrap_err();
        assert_eq!(e.offset, 3);
        let e = Formula::parse("XX + 1").unwrap().eval(VARS).unwrap_err();
        assert!(e.message.contains("XX"));
        assert!(DiceFormula::parse("1d1").is_err());
    }
}
