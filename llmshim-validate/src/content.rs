//! Draft-07 content assertions: `contentEncoding: base64` and `contentMediaType: application/json`.

/// Decodes strict RFC 4648 base64 (standard alphabet, `=` padding); `None` when malformed.
pub(crate) fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let padding = bytes.iter().rev().take_while(|b| **b == b'=').count();
    if padding > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let mut buffer = 0u32;
    let mut bits = 0u32;
    for &b in &bytes[..bytes.len() - padding] {
        let value = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        buffer = (buffer << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Whether `text`, decoded from base64 first when `base64`, is valid for the content keywords.
pub(crate) fn is_valid(text: &str, base64: bool, json: bool) -> bool {
    let decoded;
    let bytes = if base64 {
        match decode_base64(text) {
            Some(bytes) => {
                decoded = bytes;
                decoded.as_slice()
            }
            None => return false,
        }
    } else {
        text.as_bytes()
    };
    !json || serde_json::from_slice::<serde_json::Value>(bytes).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_strict() {
        assert_eq!(
            decode_base64("eyJmb28iOiAiYmFyIn0K").as_deref(),
            Some(&b"{\"foo\": \"bar\"}\n"[..])
        );
        assert_eq!(decode_base64("ezp9Cg==").as_deref(), Some(&b"{:}\n"[..]));
        assert!(decode_base64("eyJmb28iOi%iYmFyIn0K").is_none());
        assert!(decode_base64("abc").is_none());
        assert!(is_valid("eyJmb28iOiAiYmFyIn0K", true, true));
        assert!(!is_valid("ezp9Cg==", true, true));
        assert!(!is_valid("{}", true, true));
        assert!(!is_valid("{:}", false, true));
    }
}
