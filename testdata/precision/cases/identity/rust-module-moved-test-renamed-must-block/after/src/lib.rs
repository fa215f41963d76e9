mod hyperlink;
pub use hyperlink::find;
