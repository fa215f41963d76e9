use crate::sync::Token;

#[test]
fn cancel_token() {
    let mut t = Token::new();
    t.cancel();
    assert!(t.is_cancelled());
}

#[test]
fn drop_token_with_children() {
    let t = Token::new();
    assert!(!t.is_cancelled());
}

#[test]
fn cancel_parent_and_child() {
    let mut t = Token::new();
    t.cancel();
    assert_eq!(t.is_cancelled(), true);
}
