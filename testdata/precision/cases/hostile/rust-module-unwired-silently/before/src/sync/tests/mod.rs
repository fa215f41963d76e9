#[cfg(loom)]
mod loom_token;
