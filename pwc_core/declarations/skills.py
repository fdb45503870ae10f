"""`pwc skills add`: the CLI's own command that installs its agent skill (pwc_core.skill). It
runs without the catalog and is no research command, so no MCP tool."""

from __future__ import annotations

from pwc_core.declare import CLI, Command, Group, Param

DECLARED = (
    Group(
        "skills",
        "Agent skills: install the SKILL.md that teaches coding agents to use pwc.",
        "skills_command",
        ("pwc skills add", "pwc skills add --claude --force"),
    ),
    Command(
        "skills add",
        "Write the pwc skill (SKILL.md, generated from these commands) for coding agents.",
        (
            Param(
                "dest",
                "install into DIR/pwc/SKILL.md instead (not with --global or --claude)",
                ("--dest",),
                metavar="DIR",
                where=CLI,
            ),
            Param(
                "global_",
                "install under the home directory (~/.agents/skills) for every project",
                ("--global", "-g"),
                switch=True,
                where=CLI,
            ),
            Param(
                "claude",
                "also link it into .claude/skills, where Claude Code looks",
                ("--claude",),
                switch=True,
                where=CLI,
            ),
            Param("force", "overwrite an installed skill", ("--force",), switch=True, where=CLI),
        ),
        (
            "pwc skills add",
            "pwc skills add --claude --force",
            "pwc skills add --dest agent-skills",
        ),
    ),
)
