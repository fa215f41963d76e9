use demo::tag;

#[test]
fn newtype() {
    let _ = tag(5);
}

mod garbage {
    #[test]
    fn no_prefix() {
        assert!(true);
    }
}
