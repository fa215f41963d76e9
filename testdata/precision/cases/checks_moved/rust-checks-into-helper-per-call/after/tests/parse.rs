use calc::parse;

fn check(input: &str, expected: Option<i64>) {
    assert_eq!(parse(input), expected, "parse({:?})", input);
}

#[test]
fn parses_numbers() {
    check("1", Some(1));
    check(" 42 ", Some(42));
    check("-7", Some(-7));
}

#[test]
fn rejects_words() {
    check("x", None);
    check("", None);
}
