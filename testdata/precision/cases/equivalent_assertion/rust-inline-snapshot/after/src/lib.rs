pub fn help() -> String {
    "Lorem ipsum\n\nUsage: demo [OPTIONS]\n\nOptions:\n  -f, --foo  Fooify a bar\n".to_string()
}
