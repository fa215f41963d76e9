use serde_test::{assert_de_tokens, assert_ser_tokens, Token};

#[test]
fn test_flatten_struct_enum() {
    let change_request = Wrapper {
        data: FlattenStructEnum::InsertInteger { index: 0, value: 42 },
    };
    assert_de_tokens(
        &change_request,
        &[
            Token::Map { len: None },
            Token::Str("insert_integer"),
            Token::Map { len: None },
            Token::Str("index"),
            Token::U32(0),
            Token::Str("value"),
            Token::U32(42),
            Token::MapEnd,
            Token::MapEnd,
        ],
    );
    assert_ser_tokens(
        &change_request,
        &[
            Token::Map { len: None },
            Token::Str("insert_integer"),
            Token::Struct { len: 2, name: "insert_integer" },
            Token::Str("index"),
            Token::U32(0),
            Token::Str("value"),
            Token::U32(42),
            Token::StructEnd,
            Token::MapEnd,
        ],
    );
}

#[test]
fn test_unit() {
    assert_ser_tokens(&Unit, &[Token::UnitStruct { name: "Unit" }]);
}
