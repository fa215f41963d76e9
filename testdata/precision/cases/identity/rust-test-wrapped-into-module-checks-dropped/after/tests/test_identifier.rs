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
        let _ = V::Aaa;
    }

}
