use serde_derive::Deserialize;
use serde_test::{assert_de_tokens, Token};

#[test]
fn test_variant_identifier() {
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(variant_identifier)]
    enum V {
        Aaa,
        Bbb,
    }

    assert_de_tokens(&V::Aaa, &[Token::U8(0)]);
    assert_de_tokens(&V::Aaa, &[Token::U16(0)]);
    assert_de_tokens(&V::Aaa, &[Token::Str("Aaa")]);
}
