use demo::{assert_tokens, Token};

#[test]
fn test_rename_all() {
    assert_tokens(&1, &[Token::Map { len: Some(0) }, Token::MapEnd]);
}

#[test]
fn test_internally_tagged_enum_new_type_with_unit() {
    enum Data {
        A(()),
    }

    assert_tokens(
        &Data::A(()),
        &[
            Token::Map { len: Some(1) },
            Token::Str("t"),
            Token::Str("A"),
            Token::MapEnd,
        ],
    );
}
