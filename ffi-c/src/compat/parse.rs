//! libketama's server file format: `fgets`-sized lines, `strtok` tokens, `strtol` numbers
//! and its dropped last character of the memory token (see the module docs of `compat`).

use super::ADDR_LEN;

/// `strtol(s, &end, 10)` as an `Option` (None: no digits, or out of `long` range).
fn strtol(s: &[u8]) -> Option<i64> {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let neg = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let start = i;
    let mut v: i128 = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        v = (v * 10 + i128::from(s[i] - b'0')).min(i128::from(i64::MAX) + 2);
        i += 1;
    }
    if i == start {
        return None;
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

/// Splits `s` like `strtok(s, "\t ")`: the next token and the rest.
fn strtok(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let start = s.iter().position(|&b| b != b' ' && b != b'\t')?;
    let s = &s[start..];
    let end = s
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

/// Parses a server file the way libketama's `read_server_definitions` does.
pub(super) fn read_servers(data: &[u8], file: &str) -> Result<Vec<(Vec<u8>, u32)>, String> {
    let mut servers = Vec::new();
    let mut rest = data;
    let mut lineno = 0u32;
    while !rest.is_empty() {
        // fgets(sline, 127, fi): up to 126 bytes, through the newline.
        let mut n = rest.len().min(126);
        if let Some(nl) = rest[..n].iter().position(|&b| b == b'\n') {
            n = nl + 1;
        }
        let chunk = &rest[..n];
        rest = &rest[n..];
        lineno += 1;
        // C string semantics: a NUL byte ends the line.
        let line = &chunk[..chunk.iter().position(|&b| b == 0).unwrap_or(chunk.len())];
        if line.len() < 2 || line[0] == b'#' {
            continue;
        }
        let fail = |reason: &str| format!("{reason} (line {lineno} in {file})");
        let (addr, after) = strtok(line).ok_or_else(|| fail("Unable to find delimiter"))?;
        if addr.len() > ADDR_LEN {
            return Err(fail("Address longer than 22 characters"));
        }
        let (mem, _) = strtok(after).ok_or_else(|| fail("Unable to find delimiter"))?;
        // libketama drops the token's last character, assuming it is the newline.
        let mem = &mem[..mem.len() - 1];
        let memory = match strtol(mem) {
            Some(m) if m > 0 => m,
            _ => return Err(fail("Invalid memory value")),
        };
        let memory = u32::try_from(memory).map_err(|_| fail("Memory value above 4294967295"))?;
        servers.push((addr.to_vec(), memory));
    }
    Ok(servers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Vec<(String, u32)>, String> {
        read_servers(s.as_bytes(), "f").map(|v| {
            v.into_iter()
                .map(|(a, m)| (String::from_utf8(a).unwrap(), m))
                .collect()
        })
    }

    #[test]
    fn quirks() {
        assert_eq!(parse("a:1\t100\n").unwrap(), [("a:1".into(), 100)]);
        assert_eq!(parse("a:1\t100").unwrap(), [("a:1".into(), 10)]);
        assert_eq!(parse("a:1\t100 \n").unwrap(), [("a:1".into(), 10)]);
        assert_eq!(parse("a:1\t100\r\n").unwrap(), [("a:1".into(), 100)]);
        assert_eq!(parse("# c\n\n a:1 7x\n").unwrap(), [("a:1".into(), 7)]);
        assert_eq!(
            parse("a:1\t5").unwrap_err(),
            "Invalid memory value (line 1 in f)"
        );
        assert_eq!(
            parse("\na:1\t0\n").unwrap_err(),
            "Invalid memory value (line 2 in f)"
        );
        assert_eq!(
            parse("a:1\t-5\n").unwrap_err(),
            "Invalid memory value (line 1 in f)"
        );
        assert_eq!(
            parse("a:1\n").unwrap_err(),
            "Unable to find delimiter (line 1 in f)"
        );
        assert_eq!(
            parse("   ").unwrap_err(),
            "Unable to find delimiter (line 1 in f)"
        );
        assert!(parse("aaaaaaaaaaaaaaaaaaaaaa 10\n").is_ok());
        assert!(parse("aaaaaaaaaaaaaaaaaaaaaaa 10\n").is_err());
        assert!(parse("a 99999999999\n").is_err());
        // fgets pieces of 126 bytes: a long comment line continues as a second "line".
        let long = format!("#{}x 10\n", " ".repeat(125));
        assert_eq!(parse(&long).unwrap(), [("x".into(), 10)]);
    }
}
