//! Input number `i` of a run, made from the run's seed alone: a seed
//! message mutated, damaged, given a hostile value or written with quirks;
//! a random message; or random bytes.

use serde_json::{Map, Value};

use crate::damage::{self, damage};
use crate::dice::Dice;
use crate::guard;
use crate::hostile;
use crate::mutate::mutate;
use crate::random;
use crate::seeds::Seeds;
use crate::target::PeerKind;
use crate::text;

/// How an input was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recipe {
    /// A seed with structural mutations, sometimes damaged after.
    Mutated,
    /// A seed's text with bytes damaged.
    Damaged,
    /// A seed with a hostile value in one of its members.
    Hostile,
    /// A seed written with textual quirks.
    Quirky,
    /// A random object of message members, or a random value.
    RandomJson,
    /// Random bytes.
    RandomBytes,
}

/// One input.
#[derive(Debug, Clone)]
pub struct Input {
    /// What is sent.
    pub bytes: Vec<u8>,
    /// Who sends it.
    pub caller: PeerKind,
    /// How it was made.
    pub recipe: Recipe,
    /// How many inputs were drawn before it and dropped for naming a slow tool.
    pub redrawn: u64,
}

/// How many times an input is drawn again before it is given up.
const MAX_REDRAWS: u64 = 1_000;

/// Makes the inputs of a run.
#[derive(Debug, Clone)]
pub struct Generator {
    seeds: Seeds,
    /// The seeds' texts, for byte damage and splicing.
    texts: Vec<Vec<u8>>,
    seed: u64,
}

impl Generator {
    /// The generator of the run with `seed`, from `seeds`.
    ///
    /// # Panics
    ///
    /// When `seeds` holds no message.
    pub fn new(seeds: Seeds, seed: u64) -> Self {
        assert!(
            !seeds.messages.is_empty(),
            "inputs are made from at least one seed"
        );
        let texts = seeds
            .messages
            .iter()
            .map(|s| serde_json::to_vec(&s.message).unwrap_or_default())
            .collect();
        Self { seeds, texts, seed }
    }

    /// The seeds' messages as text.
    pub fn texts(&self) -> &[Vec<u8>] {
        &self.texts
    }

    /// The seed of the run.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Input number `index`: the same for the same seed, whatever ran before.
    pub fn input(&self, index: u64) -> Input {
        let mut redrawn = 0;
        loop {
            let mut dice = Dice::new(self.seed, index, redrawn);
            let (mut bytes, caller, recipe) = self.draw(&mut dice);
            if redrawn == MAX_REDRAWS {
                // Seeds that only ever name slow tools: an empty object then.
                bytes = b"{}".to_vec();
            }
            if !guard::names_a_slow_tool(&bytes) {
                return Input {
                    bytes,
                    caller,
                    recipe,
                    redrawn,
                };
            }
            redrawn += 1;
        }
    }

    fn draw(&self, dice: &mut Dice) -> (Vec<u8>, PeerKind, Recipe) {
        let i = dice.below(self.seeds.messages.len());
        let seed = &self.seeds.messages[i];
        let caller = match seed.caller {
            _ if dice.chance(0.15) => *dice.pick(&PeerKind::ALL),
            PeerKind::Session if dice.chance(0.3) => PeerKind::SharedSession,
            natural => natural,
        };
        let recipe = match dice.weighted(&[45, 15, 14, 10, 9, 7]) {
            0 => Recipe::Mutated,
            1 => Recipe::Damaged,
            2 => Recipe::Hostile,
            3 => Recipe::Quirky,
            4 => Recipe::RandomJson,
            _ => Recipe::RandomBytes,
        };
        let bytes = match recipe {
            Recipe::Mutated => {
                let mut message = seed.message.clone();
                for _ in 0..dice.between(1, 3) {
                    mutate(&mut message, dice, &self.seeds);
                }
                let quirks = if dice.chance(0.2) { 0.02 } else { 0.0 };
                let mut bytes = text::write(&message, dice, quirks);
                if dice.chance(0.2) {
                    damage(&mut bytes, dice, &self.texts);
                }
                bytes
            }
            Recipe::Damaged => {
                let mut bytes = self.texts[i].clone();
                for _ in 0..dice.between(1, 4) {
                    damage(&mut bytes, dice, &self.texts);
                }
                bytes
            }
            Recipe::Hostile => {
                let mut message = seed.message.clone();
                let spots: &[&str] = if seed.message.get("method").is_some() {
                    &[
                        "/id",
                        "/method",
                        "/jsonrpc",
                        "/params",
                        "/params/_meta",
                        "/params/name",
                        "/params/arguments",
                        "/params/uri",
                        "/params/cursor",
                        "/params/_meta/progressToken",
                    ]
                } else {
                    &[
                        "/id",
                        "/jsonrpc",
                        "/result",
                        "/result/_meta",
                        "/error",
                        "/error/code",
                    ]
                };
                let spot = *dice.pick(spots);
                let value = if spot == "/id" {
                    hostile::id(dice)
                } else {
                    hostile::value(dice)
                };
                place(&mut message, spot, value);
                text::write(&message, dice, 0.0)
            }
            Recipe::Quirky => {
                let quirks = *dice.pick(&[0.01, 0.05, 0.2]);
                text::write(&seed.message, dice, quirks)
            }
            Recipe::RandomJson => {
                let value = if dice.chance(0.7) {
                    random::envelope(dice, &self.seeds)
                } else {
                    random::value(dice, 4)
                };
                text::write(&value, dice, 0.0)
            }
            Recipe::RandomBytes => random::bytes(dice),
        };
        let mut bytes = bytes;
        bytes.truncate(damage::MAX_LEN);
        (bytes, caller, recipe)
    }
}

/// Puts `value` at `spot` (a JSON pointer), making the objects on the way;
/// a spot under something other than an object is left alone.
fn place(message: &mut Value, spot: &str, value: Value) {
    let segments: Vec<&str> = spot.split('/').skip(1).collect();
    let mut node = message;
    for (k, segment) in segments.iter().enumerate() {
        let Value::Object(members) = node else {
            return;
        };
        if k + 1 == segments.len() {
            members.insert((*segment).to_owned(), value);
            return;
        }
        node = members
            .entry(*segment)
            .or_insert_with(|| Value::Object(Map::new()));
    }
}
