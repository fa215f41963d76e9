pub fn tag(v: u32) -> String {
    format!("n:{}", v)
}

pub fn untag(s: &str) -> Option<u32> {
    s.strip_prefix("n:")?.parse().ok()
}

#[cfg(test)]
mod test_enum_untagged;
