use demo::{tag, untag};

#[test]
fn test_roundtrip() {
    assert_eq!(untag(&tag(1)), Some(1));
}
