pub fn id() {}
