pub fn spawn_local() {
    panic!("`spawn_local` called from outside of a `LocalSet`");
}
