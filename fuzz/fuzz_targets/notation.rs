//! Any text given to the position notation's readers: a state line, a view line or a move is
//! read or refused with an error, never a panic; a line that is read writes back to a line
//! that reads to the same position (docs/notation.md).
#![no_main]

use capturefast_core::{Move, State, View};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok((rules, state)) = State::from_notation(text) {
        let line = state.to_notation(&rules);
        let (again_rules, again) = State::from_notation(&line)
            .unwrap_or_else(|e| panic!("a written line is refused: {e}: {line}"));
        assert_eq!(again_rules, rules, "{line}");
        assert_eq!(again, state, "{line}");
        let mut moves = Vec::new();
        if !state.hand_over() {
            state.legal_moves(&rules, &mut moves);
            assert!(
                !moves.is_empty(),
                "no legal move in a position read: {line}"
            );
        }
    }
    if let Ok((rules, view)) = View::from_notation(text) {
        let line = view.to_notation(&rules);
        let (_, again) = View::from_notation(&line)
            .unwrap_or_else(|e| panic!("a written view line is refused: {e}: {line}"));
        assert_eq!(again, view, "{line}");
    }
    if let Ok(mv) = text.parse::<Move>() {
        let written = mv.to_string();
        assert_eq!(written.parse::<Move>().ok(), Some(mv), "{written}");
    }
});
