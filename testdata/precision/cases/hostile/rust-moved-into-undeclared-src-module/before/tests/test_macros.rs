use demo::{tag, untag};

#[test]
fn test_roundtrip() {
    assert_eq!(untag(&tag(1)), Some(1));
}

#[test]
fn test_untagged_newtype() {
    assert_eq!(tag(5), "n:5");
    assert_eq!(untag("n:5"), Some(5));
}

#[test]
fn test_untagged_rejects_garbage() {
    assert_eq!(untag("x"), None);
    assert_eq!(untag("n:x"), None);
}
