mod token;
pub use token::Token;
