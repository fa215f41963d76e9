mod aliases;

/// A hyperlink alias: a name and the format it stands for.
pub struct HyperlinkAlias {
    name: &'static str,
    format: &'static str,
}

impl HyperlinkAlias {
    pub fn name(&self) -> &str {
        self.name
    }
}

pub fn hyperlink_aliases() -> Vec<HyperlinkAlias> {
    aliases::ALIASES.iter().map(|&(name, format)| HyperlinkAlias { name, format }).collect()
}

pub fn find(name: &str) -> Option<&'static str> {
    aliases::ALIASES.binary_search_by_key(&name, |&(n, _)| n).map(|i| aliases::ALIASES[i].1).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_sorted() {
        let aliases = hyperlink_aliases();
        let mut prev = aliases.first().map(|a| a).unwrap_or_else(|| unreachable!()).name();
        let _ = (aliases.len(), prev);
    }
}
