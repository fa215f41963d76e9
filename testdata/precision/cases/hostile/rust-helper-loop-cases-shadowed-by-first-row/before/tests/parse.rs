use calc::parse;

#[test]
fn parses_numbers() {
    assert_eq!(parse("1"), Some(1));
    assert_eq!(parse(" 42 "), Some(42));
    assert_eq!(parse("-7"), Some(-7));
}

#[test]
fn rejects_words() {
    assert_eq!(parse("x"), None);
    assert!(parse("").is_none());
}
