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

#[test]
fn a_description_over_1024_characters_is_refused() {
    let errors = boot_errors(|into| {
        let long = "word ".repeat(206);
        into.skill(skill(
            "wordy",
            &format!("---\nname: wordy\ndescription: {long}\n---"),
        ));
    });
    assert_eq!(
        errors,
        "error[mcp_skills::long_description]: skill `wordy`: its description is longer than 1024 characters
  = note: in the skill `wordy` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: shorten the description; the body of SKILL.md holds the rest

error: boot failed because of the previous error"
    );
}

#[test]
fn a_skill_md_at_the_root_or_made_per_read_names_no_skill_that_can_be_checked() {
    let errors = boot_errors(|into| {
        into.skill(skill("", "---\nname: root\ndescription: At the root\n---"));
        into.skill(
            skill("live", "---\nname: live\ndescription: Made per read\n---").made(
                "SKILL.md",
                "text/markdown",
                mcp_server::handler::resource::read_handler(None, |_, _| async {
                    Ok(String::new())
                }),
            ),
        );
    });
    assert_eq!(
        errors,
        "error[mcp_skills::skill_at_root]: a SKILL.md at the root of the directory names no skill
  = note: in the skill `` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: move it into a directory named as the skill (`<name>/SKILL.md`)

error[mcp_skills::made_skill_md]: skill `live`: its SKILL.md is made per read, so its frontmatter cannot be checked
  = note: in the skill `live` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: give SKILL.md as bytes; the skill's other files may be made per read

error: boot failed because of 2 previous errors"
    );
}

#[test]
fn a_path_that_cannot_be_part_of_a_uri_is_named() {
    let errors = boot_errors(|into| {
        into.skill(
            skill(
                "refunds",
                "---\nname: refunds\ndescription: Refund orders\n---",
            )
            .file("../escape.md", "out")
            .file("my notes.md", "spaces"),
        );
        into.skill(
            skill(
                "returns",
                "---\nname: returns\ndescription: Take goods back\n---",
            )
            .file("forms", "a file")
            .file("forms/a.md", "and a directory"),
        );
    });
    assert_eq!(
        errors,
        "error[mcp_skills::bad_path]: skill `refunds`: the path of its file `refunds/../escape.md` has an empty, `.` or `..` segment (and 1 more)
  = note: in the skill `refunds` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: name files and directories with letters, digits and `-._~`, so each path is part of a URI

error[mcp_skills::bad_path]: skill `returns`: the path of its file `returns/forms` names a file and a directory at once
  = note: in the skill `returns` made by code, declared at shop 1.0.0 (shop::skills, src/skills.rs:9)
  = help: name files and directories with letters, digits and `-._~`, so each path is part of a URI

error: boot failed because of 2 previous errors"
    );
}

#[test]
fn skills_of_two_places_may_share_no_file_and_may_not_nest() {
    let errors = boot_errors(|into| {
        into.skill(
            skill("sales", "---\nname: sales\ndescription: Sell\n---").file("report/notes.md", "a"),
        );
        into.skill(
            skill(
                "sales/report",
                "---\nname: report\ndescription: Report\n---",
            )
            .file("notes.md", "b"),
        );
        into.skill(skill("ops", "---\nname: ops\ndescription: Operate\n---"));
        into.skill(skill(
            "ops/daily",
            "---\nname: daily\ndescription: Daily\n---",
        ));
    });
    let codes: Vec<&str> = errors
        .lines()
        .filter_map(|l| l.strip_prefix("error[")?.split(']').next())
        .collect();
    assert_eq!(
        codes,
        [
            "mcp_skills::duplicate_file",
            "mcp_skills::nested_across_places"
        ],
        "{errors}"
    );
    assert!(errors.contains(
        "error[mcp_skills::nested_across_places]: skill `ops/daily` and skill `ops` nest, but come from two places"
    ), "{errors}");
}

#[test]
fn two_skills_of_one_name_are_served_with_a_warning() {
    let server = Server::builder()
        .named("test", "1.0.0")
        .contributor(
            APP,
            "shop",
            contributor_fn(|into| {
                into.skill(skill(
                    "north/report",
                    "---\nname: report\ndescription: North\n---",
                ));
                into.skill(skill(
                    "south/report",
                    "---\nname: report\ndescription: South\n---",
                ));
            }),
        )
        .build();
    let report = server.report().to_string();
    assert!(
        report.contains("skills `north/report` and `south/report` (the skill `south/report` made by code) are both named `report`"),
        "{report}"
    );
}
