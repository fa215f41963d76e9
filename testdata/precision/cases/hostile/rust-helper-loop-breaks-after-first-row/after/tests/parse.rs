use calc::parse;

mod support {
    pub fn roundtrip(cases: &[(&str, Option<i64>)]) {
        for (input, expected) in cases {
            assert_eq!(crate::parse(input), *expected, "parse({:?})", input);
            break;
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
