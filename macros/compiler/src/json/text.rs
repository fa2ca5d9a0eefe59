//! Schema files: JSON text with byte offsets.

use super::{Json, JsonValue, Loc, Member, Num};

/// A JSON syntax error in a schema file.
pub type Error = (Loc, String);

const MAX_DEPTH: usize = 256;

/// Parse JSON text (a leading byte-order mark is skipped).
///
/// # Errors
/// The first syntax error with its byte offset.
pub fn parse_text(text: &str) -> Result<Json, Error> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut p = Parser { s: text.as_bytes(), text, i: start, depth: 0 };
    p.ws();
    let v = p.value()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, msg: &str) -> Error {
        (Loc::Bytes { start: self.i, end: self.i + 1 }, msg.to_owned())
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.s.get(self.i..self.i + word.len()) == Some(word.as_bytes()) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Json, Error> {
        let start = self.i;
        let value = match self.peek() {
            Some(b'{') => self.object()?,
            Some(b'[') => self.array()?,
            Some(b'"') => JsonValue::String(self.string()?),
            Some(b't') if self.eat("true") => JsonValue::Bool(true),
            Some(b'f') if self.eat("false") => JsonValue::Bool(false),
            Some(b'n') if self.eat("null") => JsonValue::Null,
            Some(b'-' | b'0'..=b'9') => {
                while matches!(self.peek(), Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')) {
                    self.i += 1;
                }
                let t = self.text.get(start..self.i).unwrap_or("");
                match Num::parse(t) {
                    Some(n) => JsonValue::Number(n),
                    None => return Err((Loc::Bytes { start, end: self.i }, format!("`{t}` is not a JSON number"))),
                }
            }
            None => return Err(self.err("unexpected end of file, expected a JSON value")),
            Some(_) => return Err(self.err("expected a JSON value")),
        };
        Ok(Json { value, loc: Loc::Bytes { start, end: self.i } })
    }

    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("the schema is nested too deeply"));
        }
        Ok(())
    }

    fn array(&mut self) -> Result<JsonValue, Error> {
        self.enter()?;
        self.i += 1;
        let mut out = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(JsonValue::Array(out));
        }
        loop {
            self.ws();
            out.push(self.value()?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(JsonValue::Array(out));
                }
                _ => return Err(self.err("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self) -> Result<JsonValue, Error> {
        self.enter()?;
        self.i += 1;
        let mut out: Vec<Member> = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(JsonValue::Object(out));
        }
        loop {
            self.ws();
            let kstart = self.i;
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a double-quoted key"));
            }
            let key = self.string()?;
            let key_loc = Loc::Bytes { start: kstart, end: self.i };
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected `:` after the key"));
            }
            self.i += 1;
            self.ws();
            let value = self.value()?;
            if out.iter().any(|m| m.key == key) {
                return Err((key_loc, format!("duplicate key {key:?}")));
            }
            out.push(Member { key, key_loc, value });
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(JsonValue::Object(out));
                }
                _ => return Err(self.err("expected `,` or `}`")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let h = self.text.get(self.i..self.i + 4).ok_or_else(|| self.err("incomplete \\u escape"))?;
        let v = u32::from_str_radix(h, 16).map_err(|_| self.err("invalid \\u escape"))?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, Error> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let run = self.i;
            while matches!(self.peek(), Some(c) if c != b'"' && c != b'\\' && c >= 0x20) {
                self.i += 1;
            }
            out.push_str(self.text.get(run..self.i).unwrap_or(""));
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi) {
                                if !self.eat("\\u") {
                                    return Err(self.err("lone UTF-16 surrogate in \\u escape"));
                                }
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err("invalid UTF-16 surrogate pair"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else if (0xDC00..0xE000).contains(&hi) {
                                return Err(self.err("lone UTF-16 surrogate in \\u escape"));
                            } else {
                                hi
                            };
                            out.push(char::from_u32(cp).ok_or_else(|| self.err("invalid \\u escape"))?);
                        }
                        _ => return Err(self.err("invalid escape")),
                    }
                }
                None => return Err(self.err("unterminated string")),
                Some(_) => return Err(self.err("control character in string")),
            }
        }
    }
}
