mod aliases;
pub use aliases::find;
