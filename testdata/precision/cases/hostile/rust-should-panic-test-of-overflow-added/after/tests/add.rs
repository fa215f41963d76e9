use demo::add;

#[test]
fn adds() {
    assert_eq!(add(2, 2), 4);
}

#[test]
#[should_panic(expected = "attempt to add with overflow")]
fn overflows() {
    add(i32::MAX, 1);
}
