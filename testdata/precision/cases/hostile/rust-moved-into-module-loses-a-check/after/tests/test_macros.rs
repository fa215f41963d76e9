use serde_test::{assert_de_tokens, assert_tokens, Token};

#[test]
fn test_unit() {
    assert_tokens(&Unit, &[Token::UnitStruct { name: "Unit" }]);
}
