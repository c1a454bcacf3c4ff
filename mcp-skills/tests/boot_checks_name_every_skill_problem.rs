//! The boot checks of a linked `mcp-skills`: each problem of a skill fails
//! boot with a rustc-shaped diagnostic naming the skill, where it was
//! declared and the fix; every problem is reported at once. A skill over
//! the limits is served with a warning.

use mcp_server::Server;
use mcp_server::seam::Origin;
use mcp_server::seam::contributor::{Contributions, contributor_fn};
use mcp_skills::{ContributeSkills, Skill};

const APP: Origin = Origin {
    crate_name: "shop",
    crate_version: "1.0.0",
    module: "shop::skills",
    file: "src/skills.rs",
    line: 9,
};

/// Boots a server with what `contribute` adds; the rendered boot errors.
fn boot_errors(contribute: fn(&mut Contributions<'_>)) -> String {
    Server::builder()
        .named("test", "1.0.0")
        .contributor(APP, "shop", contributor_fn(contribute))
        .try_build()
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

fn skill(path: &str, frontmatter: &str) -> Skill {
    Skill::new(path, format!("{frontmatter}\n# Body\n"))
}

#[test]
fn a_skill_md_without_frontmatter_is_told_how_to_begin() {
    let errors = boot_errors(|into| {
        into.skill(Skill::new("refunds", "# Refunds\nNo frontmatter here.\n"));
    });
    assert_eq!(
        errors,
        "error[mcp_skills::no_frontmatter]: skill `refunds`: its SKILL.md does not begin with frontmatter (a line `---`)
  = note: in the skill `refunds` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: begin SKILL.md with YAML between two `---` lines that gives `name` and `description`

error: boot failed because of the previous error"
    );
}

#[test]
fn frontmatter_that_is_not_a_mapping_is_named() {
    let errors = boot_errors(|into| {
        into.skill(skill("refunds", "---\n- refunds\n---"));
    });
    assert_eq!(
        errors,
        "error[mcp_skills::bad_frontmatter]: skill `refunds`: its SKILL.md frontmatter is not a mapping of fields
  = note: in the skill `refunds` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: write the frontmatter as a YAML mapping of field names to values

error: boot failed because of the previous error"
    );
}

#[test]
fn a_missing_name_and_a_missing_description_are_each_named() {
    let errors = boot_errors(|into| {
        into.skill(skill("refunds", "---\nlicense: MIT\n---"));
    });
    assert_eq!(
        errors,
        "error[mcp_skills::missing_field]: skill `refunds`: its frontmatter has no `name`
  = note: in the skill `refunds` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: every SKILL.md frontmatter gives a `name` and a `description`, as text

error[mcp_skills::missing_field]: skill `refunds`: its frontmatter has no `description`
  = note: in the skill `refunds` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: every SKILL.md frontmatter gives a `name` and a `description`, as text

error: boot failed because of 2 previous errors"
    );
}

#[test]
fn a_name_that_breaks_the_naming_rules_says_which_rule() {
    let errors = boot_errors(|into| {
        into.skill(skill(
            "Refunds",
            "---\nname: Refunds\ndescription: Refund orders\n---",
        ));
        into.skill(skill(
            "acme/refunds-",
            "---\nname: refunds-\ndescription: Refund orders\n---",
        ));
        into.skill(skill(
            "acme/two--hyphens",
            "---\nname: two--hyphens\ndescription: Refund orders\n---",
        ));
    });
    assert_eq!(
        errors,
        "error[mcp_skills::bad_name]: skill `Refunds`: its name `Refunds` holds a character other than a lowercase letter, a digit or a hyphen
  = note: in the skill `Refunds` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: a name is 1 to 64 lowercase letters, digits and single hyphens, not at either end

error[mcp_skills::bad_name]: skill `acme/refunds-`: its name `refunds-` starts or ends with a hyphen
  = note: in the skill `acme/refunds-` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: a name is 1 to 64 lowercase letters, digits and single hyphens, not at either end

error[mcp_skills::bad_name]: skill `acme/two--hyphens`: its name `two--hyphens` holds two hyphens in a row
  = note: in the skill `acme/two--hyphens` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: a name is 1 to 64 lowercase letters, digits and single hyphens, not at either end

error: boot failed because of 3 previous errors"
    );
}

#[test]
fn a_name_that_differs_from_its_directory_is_told_both() {
    let errors = boot_errors(|into| {
        into.skill(skill(
            "billing/refund",
            "---\nname: refunds\ndescription: Refund orders\n---",
        ));
    });
    assert_eq!(
        errors,
        "error[mcp_skills::name_mismatch]: skill `billing/refund`: its name `refunds` differs from its directory `refund`
  = note: in the skill `billing/refund` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: rename the directory to `refunds`, or the skill to `refund`

error: boot failed because of the previous error"
    );
}

#[test]
fn two_skills_with_one_uri_name_both_places() {
    let errors = boot_errors(|into| {
        into.skill(skill(
            "refunds",
            "---\nname: refunds\ndescription: Refund orders\n---",
        ));
        into.skill(skill(
            "refunds",
            "---\nname: refunds\ndescription: Refund orders again\n---",
        ));
    });
    assert_eq!(
        errors,
        "error[mcp_skills::duplicate_skill]: skill `skill://refunds/SKILL.md` is served twice
  = note: first in the skill `refunds` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = note: again in the skill `refunds` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: remove one of them, or move one under another directory

error: boot failed because of the previous error"
    );
}

#[test]
fn every_problem_of_every_skill_is_reported_at_once() {
    let errors = boot_errors(|into| {
        into.skill(Skill::new("one", "no frontmatter"));
        into.skill(skill("two", "---\nname: Two\ndescription: x\n---"));
        into.skill(skill("three", "---\nname: four\ndescription: x\n---"));
        into.skill(skill("fine", "---\nname: fine\ndescription: x\n---"));
    });
    let codes: Vec<&str> = errors
        .lines()
        .filter_map(|l| l.strip_prefix("error[")?.split(']').next())
        .collect();
    assert_eq!(
        codes,
        [
            "mcp_skills::no_frontmatter",
            "mcp_skills::bad_name",
            "mcp_skills::name_mismatch"
        ]
    );
    assert!(
        errors.ends_with("error: boot failed because of 3 previous errors"),
        "{errors}"
    );
}

#[test]
fn a_skill_over_the_limits_is_served_with_a_warning_in_the_boot_report() {
    let server = Server::builder()
        .named("test", "1.0.0")
        .contributor(
            APP,
            "shop",
            contributor_fn(|into| {
                let mut big = skill("big", "---\nname: big\ndescription: Too many files\n---");
                for n in 0..512 {
                    big = big.file(format!("pages/{n}.md"), "page");
                }
                into.skill(big);
            }),
        )
        .build();
    let report = server.report().to_string();
    assert!(
        report.contains(
            "skill `big` (the skill `big` made by code) has 513 files and 2101 bytes, beyond the 512 files and 16 MiB a client must accept; a client may refuse it"
        ),
        "{report}"
    );
}
