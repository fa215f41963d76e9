use demo::add;

#[test]
#[should_panic]
fn adds() {
    assert_eq!(add(2, 2), 4);
}
