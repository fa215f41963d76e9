use serde_test::{assert_de_tokens, assert_tokens, Token};

mod newtype {
    use super::*;

    #[test]
    fn content_before_tag() {
        assert_de_tokens(
            &E::Newtype(GenericNewTypeStruct(5u32)),
            &[
                Token::Struct {
                    name: "E",
                    len: 2,
                },
                Token::Str("c"),
                Token::NewtypeStruct {
                    name: "GenericNewTypeStruct",
                },
                Token::U32(5),
                Token::Str("t"),
                Token::UnitVariant {
                    name: "E",
                    variant: "Newtype",
                },
                Token::StructEnd,
            ],
        );
    }
}

mod unit {
    use super::*;

    #[test]
    fn tag_only() {
        let _ = E::Null;
    }
}
