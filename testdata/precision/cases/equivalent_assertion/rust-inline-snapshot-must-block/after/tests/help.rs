use demo::help;
use snapbox::assert_data_eq;
use snapbox::prelude::*;
use snapbox::str;

#[test]
fn doc_comments() {
    let help = help();
    assert_data_eq!(help, str![[r#"
...
"#]].raw());
}
