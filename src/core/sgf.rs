//! A small SGF (FF[4]) reader and writer shared by the games: game trees of nodes of
//! properties with raw text values, every error naming its line.
//!
//! Hand-written rather than taken from `sgf-parse` because that crate's errors carry no
//! position and its `Display` of unknown properties panics; this one never panics.

use super::RuleError;

/// One property: its identifier, its values (escapes removed) and the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub ident: String,
    pub values: Vec<String>,
    pub line: usize,
}

/// A node: the properties between one `;` and the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub props: Vec<Property>,
}

impl Node {
    /// The first value of property `ident`, if present.
    pub fn get(&self, ident: &str) -> Option<&Property> {
        self.props.iter().find(|p| p.ident == ident)
    }
}

/// A game tree: a sequence of nodes, then its variations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTree {
    pub nodes: Vec<Node>,
    pub children: Vec<GameTree>,
}

impl GameTree {
    /// The nodes of the main line: this sequence, then always the first variation.
    pub fn main_line(&self) -> Vec<&Node> {
        let mut out: Vec<&Node> = self.nodes.iter().collect();
        let mut t = self;
        while let Some(c) = t.children.first() {
            out.extend(c.nodes.iter());
            t = c;
        }
        out
    }
}

/// Variations nested deeper than this are refused rather than risking the stack.
const MAX_DEPTH: usize = 500;

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    line: usize,
}

fn err(line: usize, problem: impl Into<String>) -> RuleError {
    RuleError::Record {
        line,
        problem: problem.into(),
    }
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while let Some(&c) = self.s.get(self.pos) {
            if !c.is_ascii_whitespace() {
                break;
            }
            if c == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    fn tree(&mut self, depth: usize) -> Result<GameTree, RuleError> {
        if depth > MAX_DEPTH {
            return Err(err(self.line, "variations nested too deeply"));
        }
        // The caller has seen '('.
        self.pos += 1;
        let mut tree = GameTree::default();
        loop {
            match self.peek() {
                Some(b';') => {
                    self.pos += 1;
                    tree.nodes.push(self.node()?);
                }
                Some(b'(') => {
                    if tree.nodes.is_empty() {
                        return Err(err(self.line, "a game tree must start with a node ';'"));
                    }
                    tree.children.push(self.tree(depth + 1)?);
                }
                Some(b')') => {
                    self.pos += 1;
                    if tree.nodes.is_empty() {
                        return Err(err(self.line, "empty game tree '()'"));
                    }
                    return Ok(tree);
                }
                Some(c) => return Err(err(self.line, format!("unexpected '{}'", c as char))),
                None => {
                    return Err(err(
                        self.line,
                        "the record ends inside a game tree (missing ')')",
                    ));
                }
            }
        }
    }

    fn node(&mut self) -> Result<Node, RuleError> {
        let mut node = Node::default();
        while let Some(c) = self.peek() {
            if !c.is_ascii_alphabetic() {
                break;
            }
            let line = self.line;
            let start = self.pos;
            while self
                .s
                .get(self.pos)
                .is_some_and(|c| c.is_ascii_alphabetic())
            {
                self.pos += 1;
            }
            // FF[3] allowed lower-case letters inside identifiers; only capitals count.
            let ident: String = self.s[start..self.pos]
                .iter()
                .filter(|c| c.is_ascii_uppercase())
                .map(|&c| c as char)
                .collect();
            if ident.is_empty() {
                return Err(err(line, "a property identifier needs capital letters"));
            }
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                self.pos += 1;
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(err(line, format!("property {ident} has no value")));
            }
            node.props.push(Property {
                ident,
                values,
                line,
            });
        }
        Ok(node)
    }

    fn value(&mut self) -> Result<String, RuleError> {
        let start_line = self.line;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.pos) else {
                return Err(err(start_line, "a property value is not closed with ']'"));
            };
            self.pos += 1;
            match c {
                b']' => break,
                b'\\' => {
                    if let Some(&n) = self.s.get(self.pos) {
                        self.pos += 1;
                        if n == b'\n' {
                            self.line += 1;
                        } else {
                            out.push(n);
                        }
                    }
                }
                b'\n' => {
                    self.line += 1;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}

/// Parses an SGF collection. Text before the first `(` is ignored, as readers do.
pub fn parse(text: &str) -> Result<Vec<GameTree>, RuleError> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
        line: 1,
    };
    while let Some(&c) = p.s.get(p.pos) {
        if c == b'(' {
            break;
        }
        if c == b'\n' {
            p.line += 1;
        }
        p.pos += 1;
    }
    let mut trees = Vec::new();
    while p.peek() == Some(b'(') {
        trees.push(p.tree(0)?);
    }
    if trees.is_empty() {
        return Err(err(p.line, "no SGF game tree (a record starts with '(;')"));
    }
    Ok(trees)
}

/// A property value with `]` and `\` escaped.
pub fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nodes_values_and_variations() {
        let t = parse("(;GM[4]SZ[15]C[a \\] b]\n;B[hh](;W[ii])(;W[gg]))").unwrap();
        let main = t[0].main_line();
        assert_eq!(main.len(), 3);
        assert_eq!(main[0].get("C").unwrap().values, vec!["a ] b"]);
        assert_eq!(main[2].get("W").unwrap().values, vec!["ii"]);
        assert_eq!(main[2].get("W").unwrap().line, 2);
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            parse("(;GM[4]\n;B[hh]\n;W[ii").unwrap_err(),
            RuleError::Record {
                line: 3,
                problem: "a property value is not closed with ']'".into()
            }
        );
        assert!(matches!(
            parse("(;GM[4]\n\n;B[hh]"),
            Err(RuleError::Record { line: 3, .. })
        ));
        assert!(matches!(
            parse("hello"),
            Err(RuleError::Record { line: 1, .. })
        ));
        assert!(matches!(parse("(;B)"), Err(RuleError::Record { .. })));
    }
}
