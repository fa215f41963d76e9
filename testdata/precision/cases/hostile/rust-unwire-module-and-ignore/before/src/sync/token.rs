pub struct Token {
    cancelled: bool,
}

impl Token {
    pub fn new() -> Self {
        Token { cancelled: false }
    }
    pub fn cancel(&mut self) {
        self.cancelled = true;
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancelled
    }
}
