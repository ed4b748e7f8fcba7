//! Durations as players type and read them: `25h`, `7d`, `1d12h`, `90m`.

use crate::clock::Millis;

pub const SECOND: Millis = 1000;
pub const MINUTE: Millis = 60 * SECOND;
pub const HOUR: Millis = 60 * MINUTE;
pub const DAY: Millis = 24 * HOUR;

/// Reads `1d12h`, `25h`, `90m`, `30s`, `2w` (weeks); a bare number is hours.
pub fn parse(text: &str) -> Result<Millis, String> {
    let t = text.trim().to_ascii_lowercase();
    let quoted = crate::quote::excerpt(text);
    if t.is_empty() {
        return Err("Give a duration such as 24h, 3d or 1d12h.".into());
    }
    if t.chars().all(|c| c.is_ascii_digit()) {
        return t
            .parse::<Millis>()
            .ok()
            .and_then(|h| h.checked_mul(HOUR))
            .ok_or_else(|| format!("'{quoted}' is too long a duration."));
    }
    let mut total: Millis = 0;
    let mut number = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        if c == ' ' {
            continue;
        }
        let unit = match c {
            's' => SECOND,
            'm' => MINUTE,
            'h' => HOUR,
            'd' => DAY,
            'w' => 7 * DAY,
            _ => {
                return Err(format!(
                    "Cannot read '{quoted}' as a duration (use s, m, h, d, w: 1d12h)."
                ))
            }
        };
        let n: Millis = number.parse().map_err(|_| {
            format!("Cannot read '{quoted}' as a duration: a number must come before '{c}'.")
        })?;
        number.clear();
        total = n
            .checked_mul(unit)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(|| format!("'{quoted}' is too long a duration."))?;
    }
    if !number.is_empty() {
        return Err(format!(
            "Cannot read '{quoted}' as a duration: '{}' needs a unit (s, m, h, d, w).",
            crate::quote::excerpt(&number)
        ));
    }
    Ok(total)
}

/// "3d 4h", "25m", "40s": the two largest units.
pub fn format(ms: Millis) -> String {
    let parts = [(DAY, "d"), (HOUR, "h"), (MINUTE, "m"), (SECOND, "s")];
    let mut out = Vec::new();
    let mut rest = ms;
    for (unit, name) in parts {
        if rest >= unit {
            out.push(format!("{}{name}", rest / unit));
            rest %= unit;
        }
        if out.len() == 2 {
            break;
        }
    }
    if out.is_empty() {
        "0s".into()
    } else {
        out.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_prints() {
        assert_eq!(parse("25h"), Ok(25 * HOUR));
        assert_eq!(parse("1d12h"), Ok(36 * HOUR));
        assert_eq!(parse("7D"), Ok(7 * DAY));
        assert_eq!(parse("48"), Ok(48 * HOUR));
        assert!(parse("12x").is_err());
        assert!(parse("d").is_err());
        assert!(parse("5").is_ok());
        assert!(parse("3h5").is_err());
        assert!(parse("99999999999999999d").is_err());
        assert_eq!(format(36 * HOUR + 5 * MINUTE), "1d 12h");
        assert_eq!(format(0), "0s");
    }
}
