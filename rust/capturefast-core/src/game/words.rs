//! The values of the options spelled as words (`void`, `clockwise`, ...), each enum with its
//! words in one place, and [`OptionValue`], a value given to an option by name.

use std::fmt;

/// Declares an option whose value is one of a few words, with the words in one place.
macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $word:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var),+
        }

        impl Word for $name {
            const ALL: &'static [$name] = &[$($name::$var),+];
            fn word(self) -> &'static str {
                match self {
                    $($name::$var => $word),+
                }
            }
        }
    };
}

/// An option value spelled as a word (`void`, `clockwise`, ...).
pub trait Word: Copy + 'static {
    /// Every value, in the order the documentation lists them.
    const ALL: &'static [Self];
    /// The value's word.
    fn word(self) -> &'static str;
}

word_enum! {
    /// How a played card captures (`capture`; S7, K9, E7, V-S11, V-S12).
    CaptureMode {
        /// An equal-value table card if there is one (S7, K9a), otherwise a set summing to the
        /// value.
        EqualThenSum = "match",
        /// The played card plus table cards totalling 15 (E7).
        Fifteen = "fifteen",
        /// Either of the above, the player's choice (Cirulla, Scopa a 15 with matching).
        MatchOrFifteen = "match_or_fifteen",
    }
}

word_enum! {
    /// Whether a sweep made by the final play of the hand scores (S-A4, K11, V-S5, V-K7).
    LastPlaySweep {
        /// The final play never scores a sweep (default).
        Void = "void",
        /// It scores like any other sweep.
        Counts = "counts",
    }
}

word_enum! {
    /// A side lacking a suit in the primiera / setenta (S-A2, V-S4).
    MissingSuit {
        /// No valid primiera; valid beats invalid, both invalid: nobody.
        Invalid = "invalid",
        /// The missing suit counts 0 and sums are compared.
        Zero = "zero",
    }
}

word_enum! {
    /// When the opening table is redealt (S5, K6, V-K4, V-S8, V-S12).
    Redeal {
        /// Never.
        Off = "off",
        /// Three or more kings.
        ThreeKings = "three_kings",
        /// Three or more cards of one rank.
        ThreeOfARank = "three_of_a_rank",
        /// Two or more aces (Cirulla).
        TwoAces = "two_aces",
        /// Any ace (scopa d'assi).
        AnyAce = "any_ace",
    }
}

word_enum! {
    /// Chkobba's face values (V-K1).
    FaceValues {
        /// Q=8, J=9, K=10.
        Tunisian = "tunisian",
        /// J=8, Q=9, K=10.
        Italian = "italian",
    }
}

word_enum! {
    /// The direction of play, dealing and the passing of the deal (V-K6).
    Direction {
        /// Seat `s + 1` follows seat `s` (the seeds' direction).
        Counterclockwise = "counterclockwise",
        /// Seat `s - 1` follows seat `s`.
        Clockwise = "clockwise",
    }
}

word_enum! {
    /// How the cards are dealt (G3, V-S9, V-S10).
    Deal {
        /// 3 each per round, 4 on the opening table, later rounds from the stock.
        Standard = "standard",
        /// Scopone: 9 each and 4 on the table, one round (4 players).
        Scopone = "scopone",
        /// Scopone scientifico: 10 each, no table, one round (4 players).
        Scientifico = "scientifico",
    }
}

word_enum! {
    /// The dealer's sweeps from the opening table (E5, V-E4, V-S12).
    OpeningSweeps {
        /// None.
        Off = "off",
        /// Total 15: 1 sweep; total 30: 2 sweeps.
        Sum = "sum",
        /// As `sum`, but 30 counts only if it splits into two groups of 15 (E-A1 variant).
        Partition = "partition",
    }
}

word_enum! {
    /// How the primiera / setenta category is decided (V-S3, V-E1, V-E2).
    PrimieraMode {
        /// The higher primiera total.
        Table = "table",
        /// More sevens, then sixes, aces, fives, fours, threes, twos.
        MostSevens = "most_sevens",
        /// A side with 3 or more sevens wins outright; otherwise the table.
        ThreeSevens = "three_sevens",
    }
}

word_enum! {
    /// Primiera points of the figures J, Q, K (V-S2).
    PrimieraFigures {
        /// 10 each.
        Flat = "flat",
        /// J 8, Q 9, K 10.
        Graded = "graded",
        /// 0 each.
        Zero = "zero",
    }
}

word_enum! {
    /// How Chkobba's bermila is decided (K14, V-K2).
    Bermila {
        /// More sevens, then more sixes (the seed).
        SevensThenSixes = "sevens_then_sixes",
        /// More sevens, then sixes, aces, fives, fours, threes, twos.
        Cascade = "cascade",
        /// The standard primiera table.
        Primiera = "primiera",
    }
}

word_enum! {
    /// How the J, Q, K cards are written (V-S14).
    Deck {
        /// J, Q, K.
        Standard = "standard",
        /// The numerals-only deck: 8, 9, 10.
        Numerals = "numerals",
    }
}

/// The fourth category of a hand's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimeCategory {
    /// Best card per suit on the 7=21 ... chart (Scopa primiera, Escoba setenta).
    Primiera,
    /// More sevens, then more sixes (Chkobba bermila).
    Bermila,
}

impl PrimeCategory {
    /// The option that says how the category is decided: `primiera_mode` or `bermila`.
    pub fn option(self) -> &'static str {
        match self {
            PrimeCategory::Primiera => "primiera_mode",
            PrimeCategory::Bermila => "bermila",
        }
    }

    /// The values of that option, in the order the documentation lists them.
    pub fn modes(self) -> Vec<&'static str> {
        match self {
            PrimeCategory::Primiera => PrimieraMode::ALL.iter().map(|m| m.word()).collect(),
            PrimeCategory::Bermila => Bermila::ALL.iter().map(|m| m.word()).collect(),
        }
    }
}

/// A value given to an option by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A word such as `void`.
    Str(String),
    /// A number such as a target.
    Int(i64),
    /// A switch.
    Bool(bool),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Str(s) => f.write_str(s),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Bool(b) => write!(f, "{b}"),
        }
    }
}
