mod token;
pub use token::Token;

#[cfg(test)]
mod tests;
