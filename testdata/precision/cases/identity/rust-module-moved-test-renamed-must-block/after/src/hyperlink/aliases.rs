pub(super) const ALIASES: &[(&str, &str)] = &[("file", "file://{path}"), ("vscode", "vscode://file{path}")];
