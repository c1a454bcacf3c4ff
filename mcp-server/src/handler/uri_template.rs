//! Matching URIs against RFC 6570 URI templates, to route `resources/read`.
//!
//! Supports the expressions resource templates use: `{var}` (one segment:
//! no `/`, `?`, `#`), `{+var}` and `{#var}` (anything), and several
//! variables in one expression split on `,`.
//!
//! ```
//! use mcp_server::handler::resource::UriTemplate;
//!
//! let template = UriTemplate::parse("weather://{city}/forecast/{+days}").unwrap();
//! let vars = template.matches("weather://paris/forecast/3/hourly").unwrap();
//! assert_eq!(vars["city"], "paris");
//! assert_eq!(vars["days"], "3/hourly");
//! assert!(template.matches("weather://paris/now").is_none());
//! // URIs longer than `MAX_URI_LEN` never match, bounding the matching work.
//! let long = format!("weather://{}/forecast/1", "x".repeat(20_000));
//! assert!(template.matches(&long).is_none());
//! ```

use std::collections::BTreeMap;

/// The longest URI matched against templates: matching backtracks, so a
/// client's URI length must not set the server's work.
pub const MAX_URI_LEN: usize = 8 * 1024;

/// The variables a URI bound, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateVariables(pub BTreeMap<String, String>);

impl std::ops::Index<&str> for TemplateVariables {
    type Output = String;
    fn index(&self, name: &str) -> &String {
        &self.0[name]
    }
}

/// A parsed URI template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable { names: Vec<String>, reserved: bool },
}

impl UriTemplate {
    /// Parses a template.
    ///
    /// # Errors
    ///
    /// An unclosed `{` or an empty expression.
    pub fn parse(source: &str) -> Result<Self, String> {
        let mut parts = Vec::new();
        let mut rest = source;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let close = rest[open..]
                .find('}')
                .ok_or_else(|| format!("unclosed `{{` in `{source}`"))?
                + open;
            let expression = &rest[open + 1..close];
            let (reserved, names) = match expression.chars().next() {
                Some('+' | '#') => (true, &expression[1..]),
                _ => (false, expression),
            };
            let names: Vec<String> = names
                .split(',')
                .map(|n| n.trim_end_matches('*').to_owned())
                .filter(|n| !n.is_empty())
                .collect();
            if names.is_empty() {
                return Err(format!("empty expression in `{source}`"));
            }
            parts.push(Part::Variable { names, reserved });
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(Self {
            source: source.to_owned(),
            parts,
        })
    }

    /// The template as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The names of its variables, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().flat_map(|p| match p {
            Part::Variable { names, .. } => names.iter().map(String::as_str).collect::<Vec<_>>(),
            Part::Literal(_) => Vec::new(),
        })
    }

    /// The variables `uri` binds, if it matches; URIs longer than
    /// [`MAX_URI_LEN`] never match.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        if uri.len() > MAX_URI_LEN {
            return None;
        }
        let mut variables = BTreeMap::new();
        self.match_from(0, uri, &mut variables).then_some(variables)
    }

    fn match_from(
        &self,
        index: usize,
        rest: &str,
        variables: &mut BTreeMap<String, String>,
    ) -> bool {
        match self.parts.get(index) {
            None => rest.is_empty(),
            Some(Part::Literal(literal)) => rest
                .strip_prefix(literal.as_str())
                .is_some_and(|r| self.match_from(index + 1, r, variables)),
            Some(Part::Variable { names, reserved }) => {
                let stops = |c: char| !reserved && matches!(c, '/' | '?' | '#');
                let limit = rest.find(stops).unwrap_or(rest.len());
                // Try the longest value first, backing off until the rest matches.
                let mut ends: Vec<usize> = rest[..limit]
                    .char_indices()
                    .map(|(i, _)| i)
                    .skip(1)
                    .collect();
                ends.push(limit);
                for &end in ends.iter().rev() {
                    let value = &rest[..end];
                    let values: Vec<&str> = if names.len() == 1 {
                        vec![value]
                    } else {
                        value.split(',').collect()
                    };
                    if values.len() != names.len() || values.iter().any(|v| v.is_empty()) {
                        continue;
                    }
                    let saved = variables.clone();
                    for (name, value) in names.iter().zip(&values) {
                        variables.insert(name.clone(), (*value).to_owned());
                    }
                    if self.match_from(index + 1, &rest[end..], variables) {
                        return true;
                    }
                    *variables = saved;
                }
                false
            }
        }
    }
}
