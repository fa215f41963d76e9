use crate::{tag, untag};

#[test]
fn newtype() {
    let value = 5;
    assert_eq!(tag(value), "n:5");
    assert_eq!(untag("n:5"), Some(value));
}

mod garbage {
    use super::*;

    #[test]
    fn no_prefix() {
        assert_eq!(untag("x"), None);
    }

    #[test]
    fn not_a_number() {
        assert_eq!(untag("n:x"), None);
    }
}
