//! The asserted formats; every other format name is ignored.

/// A format the validator asserts on strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    DateTime,
    Date,
    Time,
    Duration,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Uuid,
    Regex,
    JsonPointer,
}

impl Format {
    /// The asserted format called `name`, if any.
    pub(crate) fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "date-time" => Format::DateTime,
            "date" => Format::Date,
            "time" => Format::Time,
            "duration" => Format::Duration,
            "email" => Format::Email,
            "hostname" => Format::Hostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "uri" => Format::Uri,
            "uri-reference" => Format::UriReference,
            "uuid" => Format::Uuid,
            "regex" => Format::Regex,
            "json-pointer" => Format::JsonPointer,
            _ => return None,
        })
    }

    /// The format's name, as used in messages.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Duration => "duration",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Uuid => "uuid",
            Format::Regex => "regex",
            Format::JsonPointer => "json-pointer",
        }
    }

    /// Whether `text` is valid in this format.
    pub(crate) fn is_valid(self, text: &str) -> bool {
        match self {
            Format::DateTime => is_date_time(text),
            Format::Date => is_date(text),
            Format::Time => is_time(text),
            Format::Duration => is_duration(text),
            Format::Email => is_email(text),
            Format::Hostname => is_hostname(text),
            Format::Ipv4 => is_ipv4(text),
            Format::Ipv6 => is_ipv6(text),
            Format::Uri => is_uri(text, true),
            Format::UriReference => is_uri(text, false),
            Format::Uuid => is_uuid(text),
            Format::Regex => crate::regex::translate(text)
                .ok()
                .is_some_and(|t| fancy_regex::Regex::new(&t).is_ok()),
            Format::JsonPointer => is_json_pointer(text),
        }
    }
}

/// Parses exactly `len` ASCII digits at the start of `text`.
fn digits(text: &str, len: usize) -> Option<u32> {
    let head = text.get(..len)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    head.parse().ok()
}

fn is_leap(year: u32) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

fn is_date(text: &str) -> bool {
    if text.len() != 10
        || text.as_bytes().get(4) != Some(&b'-')
        || text.as_bytes().get(7) != Some(&b'-')
    {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        digits(text, 4),
        text.get(5..).and_then(|t| digits(t, 2)),
        text.get(8..).and_then(|t| digits(t, 2)),
    ) else {
        return false;
    };
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn is_time(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() < 9 || b.get(2) != Some(&b':') || b.get(5) != Some(&b':') {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        digits(text, 2),
        text.get(3..).and_then(|t| digits(t, 2)),
        text.get(6..).and_then(|t| digits(t, 2)),
    ) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = &text[8..];
    if let Some(after) = rest.strip_prefix('.') {
        let frac = after.bytes().take_while(u8::is_ascii_digit).count();
        if frac == 0 {
            return false;
        }
        rest = &after[frac..];
    }
    match rest.as_bytes().first() {
        Some(b'Z' | b'z') => rest.len() == 1,
        Some(b'+' | b'-') => {
            let offset = &rest[1..];
            offset.len() == 5
                && offset.as_bytes().get(2) == Some(&b':')
                && digits(offset, 2).is_some_and(|h| h <= 23)
                && offset
                    .get(3..)
                    .and_then(|t| digits(t, 2))
                    .is_some_and(|m| m <= 59)
        }
        _ => false,
    }
}

fn is_date_time(text: &str) -> bool {
    match (text.get(..10), text.as_bytes().get(10), text.get(11..)) {
        (Some(date), Some(b'T' | b't'), Some(time)) => is_date(date) && is_time(time),
        _ => false,
    }
}

fn is_duration(text: &str) -> bool {
    let Some(body) = text.strip_prefix('P') else {
        return false;
    };
    if body.is_empty() {
        return false;
    }
    let (date, time) = match body.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (body, None),
    };
    let units = |part: &str, order: &[u8]| -> Option<usize> {
        let mut count = 0;
        let mut next = 0;
        let mut number = 0;
        for b in part.bytes() {
            if b.is_ascii_digit() {
                number += 1;
                continue;
            }
            if number == 0 {
                return None;
            }
            let at = order.iter().position(|&u| u == b)?;
            if at < next {
                return None;
            }
            next = at + 1;
            number = 0;
            count += 1;
        }
        (number == 0).then_some(count)
    };
    if date.ends_with('W') && time.is_none() {
        return units(date, b"W") == Some(1);
    }
    let Some(date_units) = units(date, b"YMD") else {
        return false;
    };
    match time {
        Some(time) => units(time, b"HMS").is_some_and(|n| n > 0),
        None => date_units > 0,
    }
}

fn is_hostname(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

fn is_ipv4(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

fn is_ipv6(text: &str) -> bool {
    let (head, tail) = match text.split_once("::") {
        Some((head, tail)) => (head, Some(tail)),
        None => (text, None),
    };
    if tail.is_some_and(|t| t.contains("::")) {
        return false;
    }
    let groups = |part: &str, last: bool| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let pieces: Vec<&str> = part.split(':').collect();
        let mut count = 0;
        for (i, piece) in pieces.iter().enumerate() {
            if last && i + 1 == pieces.len() && piece.contains('.') {
                if !is_ipv4(piece) {
                    return None;
                }
                count += 2;
            } else if !piece.is_empty()
                && piece.len() <= 4
                && piece.bytes().all(|b| b.is_ascii_hexdigit())
            {
                count += 1;
            } else {
                return None;
            }
        }
        Some(count)
    };
    match tail {
        None => groups(head, true) == Some(8),
        Some(tail) => match (groups(head, false), groups(tail, true)) {
            (Some(h), Some(t)) => h + t <= 7,
            _ => false,
        },
    }
}

fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    let local_ok = if let Some(quoted) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        !quoted.is_empty()
            && quoted
                .chars()
                .all(|c| c != '"' && c != '\\' && !c.is_control())
    } else {
        !local.is_empty()
            && local.len() <= 64
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && local
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~.".contains(&b))
    };
    let domain_ok =
        if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
            match literal.strip_prefix("IPv6:") {
                Some(v6) => is_ipv6(v6),
                None => is_ipv4(literal),
            }
        } else {
            is_hostname(domain)
        };
    local_ok && domain_ok
}

fn is_uuid(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn is_json_pointer(text: &str) -> bool {
    if text.is_empty() {
        return true;
    }
    if !text.starts_with('/') {
        return false;
    }
    let b = text.as_bytes();
    b.iter()
        .enumerate()
        .all(|(i, c)| *c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

/// Whether every character may appear in a URI (RFC 3986, section 2) and every `%` starts a valid escape.
fn uri_chars_ok(text: &str, extra: &[u8]) -> bool {
    let b = text.as_bytes();
    b.iter().enumerate().all(|(i, c)| match c {
        b'%' => {
            b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        }
        _ => c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(c) || extra.contains(c),
    })
}

fn is_uri(text: &str, absolute: bool) -> bool {
    let (rest, fragment) = match text.split_once('#') {
        Some((head, fragment)) => (head, Some(fragment)),
        None => (text, None),
    };
    if fragment.is_some_and(|f| !uri_chars_ok(f, b"")) {
        return false;
    }
    let (rest, query) = match rest.split_once('?') {
        Some((head, query)) => (head, Some(query)),
        None => (rest, None),
    };
    if query.is_some_and(|q| !uri_chars_ok(q, b"")) {
        return false;
    }
    let scheme_end = rest.find(':').filter(|&at| {
        let scheme = &rest[..at];
        scheme
            .bytes()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
    });
    let hier = match scheme_end {
        Some(at) => &rest[at + 1..],
        None if absolute => return false,
        None => {
            // A relative reference's first segment may not contain a colon.
            let first = rest.split('/').next().unwrap_or("");
            if first.contains(':') {
                return false;
            }
            rest
        }
    };
    let path = if let Some(after) = hier.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        if !is_authority(&after[..end]) {
            return false;
        }
        &after[end..]
    } else {
        hier
    };
    uri_chars_ok(path, b"") && !path.contains('?')
}

fn is_authority(authority: &str) -> bool {
    let host_port = match authority.rsplit_once('@') {
        Some((user, host)) => {
            if !uri_chars_ok(user, b"") || user.contains(['/', '?', '@']) {
                return false;
            }
            host
        }
        None => authority,
    };
    let (host, port) = if let Some(rest) = host_port.strip_prefix('[') {
        let Some((literal, after)) = rest.split_once(']') else {
            return false;
        };
        if !(is_ipv6(literal) || literal.starts_with(['v', 'V'])) {
            return false;
        }
        match after {
            "" => ("", None),
            _ => match after.strip_prefix(':') {
                Some(port) => ("", Some(port)),
                None => return false,
            },
        }
    } else {
        match host_port.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host_port, None),
        }
    };
    port.is_none_or(|p| p.bytes().all(|b| b.is_ascii_digit()))
        && uri_chars_ok(host, b"")
        && !host.contains([':', '/', '?', '@', '[', ']'])
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn formats_accept_and_reject() {
        let cases: &[(Format, &str, bool)] = &[
            (Format::DateTime, "1963-06-19T08:30:06.283185Z", true),
            (Format::DateTime, "1963-06-19t08:30:06z", true),
            (Format::DateTime, "1998-12-31T23:59:60Z", true),
            (Format::DateTime, "1963-06-19 08:30:06Z", false),
            (Format::Date, "2020-02-29", true),
            (Format::Date, "2021-02-29", false),
            (Format::Time, "08:30:06+01:00", true),
            (Format::Time, "08:30:06", false),
            (Format::Duration, "P4DT12H30M5S", true),
            (Format::Duration, "P2W", true),
            (Format::Duration, "PT", false),
            (Format::Duration, "P1D2Y", false),
            (Format::Email, "joe.bloggs@example.com", true),
            (Format::Email, "joe@[127.0.0.1]", true),
            (Format::Email, "2962", false),
            (Format::Email, "a..b@example.com", false),
            (Format::Hostname, "www.example.com", true),
            (Format::Hostname, "-a.example.com", false),
            (Format::Ipv4, "192.168.0.1", true),
            (Format::Ipv4, "087.10.0.1", false),
            (Format::Ipv6, "::1", true),
            (Format::Ipv6, "1:2:3:4:5:6:7:8", true),
            (Format::Ipv6, "::ffff:192.168.0.1", true),
            (Format::Ipv6, "1:2:3:4:5:6:7:8:9", false),
            (Format::Ipv6, "1::2::3", false),
            (Format::Uri, "http://foo.bar/?baz=qux#quux", true),
            (Format::Uri, "//foo.bar/?baz=qux#quux", false),
            (Format::Uri, "http:// shouldfail.com", false),
            (Format::UriReference, "/abc", true),
            (Format::UriReference, "\\\\WINDOWS\\fileshare", false),
            (Format::Uuid, "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true),
            (Format::Uuid, "2eb8aa08-aa98-11ea-b4aa-73b441d1638", false),
            (Format::Regex, "^a+$", true),
            (Format::Regex, "(", false),
            (Format::JsonPointer, "/foo/bar~0/baz~1", true),
            (Format::JsonPointer, "/foo~2", false),
        ];
        for (format, text, valid) in cases {
            assert_eq!(format.is_valid(text), *valid, "{} {text:?}", format.name());
        }
    }
}
