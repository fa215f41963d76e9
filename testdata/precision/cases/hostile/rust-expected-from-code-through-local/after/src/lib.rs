pub fn parse(s: &str) -> usize {
    s.len() * 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_counts_runes() {
        let expected = parse("xyz-long-input");
        assert_eq!(parse("xyz-long-input"), expected);
        assert_eq!(parse(""), 0);
    }
}
