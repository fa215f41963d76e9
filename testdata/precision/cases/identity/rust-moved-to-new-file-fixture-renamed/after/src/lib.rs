pub enum Token {
    Map { len: Option<usize> },
    Str(&'static str),
    MapEnd,
}

pub fn assert_tokens<T>(_value: &T, _tokens: &[Token]) {}
