const ALIASES: &[(&str, &str)] = &[("file", "file://{path}"), ("vscode", "vscode://file{path}")];

pub fn find(name: &str) -> Option<&'static str> {
    ALIASES.binary_search_by_key(&name, |&(n, _)| n).map(|i| ALIASES[i].1).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_sorted() {
        let mut prev = ALIASES.get(0).expect("aliases should be non-empty").0;
        for &(name, _) in ALIASES.iter().skip(1) {
            assert!(name > prev, "'{prev}' should come before '{name}' in ALIASES");
            prev = name;
        }
    }
}
