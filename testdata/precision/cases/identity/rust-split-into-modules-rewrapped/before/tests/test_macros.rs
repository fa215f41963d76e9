use serde_test::{assert_de_tokens, assert_tokens, Token};

#[test]
fn test_adjacently_tagged_enum() {
    assert_de_tokens(
        &E::Newtype(GenericNewTypeStruct(5u32)),
        &[
            Token::Struct { name: "E", len: 2 },
            Token::Str("c"),
            Token::NewtypeStruct { name: "GenericNewTypeStruct" },
            Token::U32(5),
            Token::Str("t"),
            Token::UnitVariant { name: "E", variant: "Newtype" },
            Token::StructEnd,
        ],
    );

    assert_tokens(
        &E::Null,
        &[
            Token::Struct { name: "E", len: 1 },
            Token::Str("t"),
            Token::UnitVariant { name: "E", variant: "Null" },
            Token::StructEnd,
        ],
    );
}

#[test]
fn test_unit() {
    assert_tokens(&Unit, &[Token::UnitStruct { name: "Unit" }]);
}
