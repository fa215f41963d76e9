use demo::add;

#[test]
fn adds() {
    assert_eq!(add(2, 2), 4);
}
