use serde_test::{assert_ser_tokens, assert_tokens, Token};

#[test]
fn test_unit() {
    assert_ser_tokens(&Unit, &[Token::UnitStruct { name: "Unit" }]);
}

mod flatten {
    use super::*;

    mod externally_tagged {
        use super::*;

        #[test]
        fn struct_from_map() {
            assert_tokens(
                &Flatten {
                    data: FlattenStructEnum::InsertInteger {
                        index: 0,
                        value: 42,
                    },
                },
                &[
                    Token::Map { len: None },
                    Token::Str("insert_integer"),
                    Token::Struct {
                        len: 2,
                        name: "insert_integer",
                    },
                    Token::Str("index"),
                    Token::U32(0),
                    Token::Str("value"),
                    Token::U32(42),
                    Token::StructEnd,
                    Token::MapEnd,
                ],
            );
        }
    }
}
