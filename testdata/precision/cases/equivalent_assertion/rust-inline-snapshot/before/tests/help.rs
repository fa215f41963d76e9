use demo::help;

#[test]
fn doc_comments() {
    let help = help();
    assert!(help.contains("Lorem ipsum"));
    assert!(help.contains("Fooify a bar"));
    assert!(!help.contains("DO NOT PASS"));
}
