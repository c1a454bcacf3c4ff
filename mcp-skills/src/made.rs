//! Skills made by code, added by a contributor: a `SKILL.md` known at
//! boot, and files given as bytes or made per read.

use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_server::core::resources::ReadResource;
use mcp_server::handler::Handler;
use mcp_server::seam::contributor::Contributions;

use crate::skill::{Content, Place};
use crate::wire::SKILL_MD;

/// A skill made by code: its path below `skill://`, its `SKILL.md`, and
/// its other files. A skill with a file made per read is listed with
/// `"resources": "dynamic"`, as its content has no stable digest.
///
/// ```
/// use mcp_server::core::resources::ReadResource;
/// use mcp_server::handler::resource::read_handler;
/// use mcp_skills::Skill;
///
/// let daily = Skill::new(
///     "reports/daily",
///     "---\nname: daily\ndescription: Assemble today's report from live data\n---\nRead `today.md`.\n",
/// )
/// .made("today.md", "text/markdown", read_handler(None, |_, _| async {
///     Ok(String::from("# Today\nAll quiet."))
/// }));
/// assert_eq!(daily.path(), "reports/daily");
/// ```
#[derive(Clone)]
pub struct Skill {
    path: String,
    files: BTreeMap<String, Content>,
}

impl std::fmt::Debug for Skill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Skill")
            .field("path", &self.path)
            .field("files", &self.files.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Skill {
    /// A skill at `path` (`acme/billing/refunds`: its last segment is its
    /// name) whose `SKILL.md` holds `skill_md`.
    pub fn new(path: impl Into<String>, skill_md: impl Into<Vec<u8>>) -> Self {
        let path = path.into().trim_matches('/').to_owned();
        let mut files = BTreeMap::new();
        files.insert(
            SKILL_MD.to_owned(),
            Content::Bytes(Arc::from(skill_md.into())),
        );
        Self { path, files }
    }

    /// Adds the file at `path` below the skill's directory, holding `bytes`.
    #[must_use]
    pub fn file(mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        self.files
            .insert(path.into(), Content::Bytes(Arc::from(bytes.into())));
        self
    }

    /// Adds the file at `path`, of `mime_type`, whose content `handler`
    /// makes at each read.
    #[must_use]
    pub fn made(
        mut self,
        path: impl Into<String>,
        mime_type: impl Into<String>,
        handler: impl Handler<ReadResource>,
    ) -> Self {
        self.files.insert(
            path.into(),
            Content::Made {
                mime_type: mime_type.into(),
                handler: Arc::new(handler),
            },
        );
        self
    }

    /// Its path below `skill://`.
    pub fn path(&self) -> &str {
        &self.path
    }
}

/// Adds skills made by code from a contributor, checked at boot as every
/// skill is.
///
/// ```
/// use mcp_server::seam::contributor::contributor_fn;
/// use mcp_skills::{ContributeSkills, Skill};
///
/// let skills = contributor_fn(|into| {
///     into.skill(Skill::new("greeting", "---\nname: greeting\ndescription: Greet warmly\n---\nSay hello.\n"));
/// });
/// # let _ = skills;
/// ```
pub trait ContributeSkills {
    /// Serves `skill`: each of its files as a resource, and its entry in
    /// `skills/list` and `skills/get`.
    fn skill(&mut self, skill: Skill) -> &mut Self;
}

impl ContributeSkills for Contributions<'_> {
    fn skill(&mut self, skill: Skill) -> &mut Self {
        let origin = self.origin();
        let place = Place {
            origin,
            label: format!("the skill `{}` made by code", skill.path),
            files: skill
                .files
                .into_iter()
                .map(|(file, content)| (format!("{}/{file}", skill.path), content))
                .collect(),
        };
        crate::place::serve_at_boot(&format!("made {origin}"), place, self);
        self
    }
}
