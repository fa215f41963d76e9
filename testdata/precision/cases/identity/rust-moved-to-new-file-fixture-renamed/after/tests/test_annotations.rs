use demo::{assert_tokens, Token};

#[test]
fn test_rename_all() {
    assert_tokens(&1, &[Token::Map { len: Some(0) }, Token::MapEnd]);
}
