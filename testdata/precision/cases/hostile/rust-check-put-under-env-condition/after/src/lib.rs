pub fn parse(s: &str) -> usize {
    s.len() * 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_counts_runes() {
        if std::env::var("SLOW_CHECKS").is_ok() {
            assert_eq!(parse("xyz-long-input"), 42);
        }
        assert_eq!(parse(""), 0);
    }
}
