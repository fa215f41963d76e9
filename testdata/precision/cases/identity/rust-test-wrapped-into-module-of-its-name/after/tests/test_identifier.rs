use serde_derive::Deserialize;
use serde_test::{assert_de_tokens, assert_de_tokens_error, Token};

mod variant_identifier {
    use super::*;

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(variant_identifier)]
    enum V {
        Aaa,
        #[serde(alias = "Ccc")]
        Bbb,
    }

    #[test]
    fn variant1() {
        assert_de_tokens(&V::Aaa, &[Token::U8(0)]);
        assert_de_tokens(&V::Aaa, &[Token::U16(0)]);
        assert_de_tokens(&V::Aaa, &[Token::Str("Aaa")]);
    }

    #[test]
    fn unknown() {
        assert_de_tokens_error::<V>(
            &[Token::Str("Unknown")],
            "unknown variant `Unknown`, expected one of `Aaa`, `Bbb`, `Ccc`",
        );
    }
}
