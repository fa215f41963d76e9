mod support {
    pub(crate) mod io_uring;
}

#[test]
fn descriptors_are_closed() {
    let before = demo::open_count("Cargo.toml").unwrap();
    let after = demo::open_count("Cargo.toml").unwrap();
    assert_eq!(before, after);
}

#[test]
fn adds() {
    if cfg!(windows) {
        return;
    }
    assert_eq!(demo::add(2, 2), 4);
}
