pub fn parse(s: &str) -> Option<i64> {
    s.trim().parse().ok()
}
