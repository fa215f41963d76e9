use demo::{assert_tokens, Token};

enum InternallyTagged {
    Unit,
    NewtypeUnit(()),
}

#[test]
fn unit() {
    assert_tokens(&InternallyTagged::Unit, &[Token::Map { len: Some(1) }, Token::Str("tag"), Token::Str("Unit"), Token::MapEnd]);
}

#[test]
fn newtype_unit() {
    let value = InternallyTagged::NewtypeUnit(());

    assert_tokens(
        &value,
        &[
            Token::Map { len: Some(1) },
            Token::Str("tag"),
            Token::Str("NewtypeUnit"),
            Token::MapEnd,
        ],
    );
}
