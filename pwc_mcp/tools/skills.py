"""The `pwc` agent skill as a resource (skills over MCP, SEP-2640): `skill://pwc/SKILL.md`, the
same text `pwc skills add` installs, generated from the command declarations
(pwc_core.skill). Served as a plain listed resource; the `skills/list` and `skills/get`
methods of the extension are not implemented (docs/decisions.md)."""

from __future__ import annotations

from fastmcp.server.providers import LocalProvider

from pwc_core import skill


def build() -> LocalProvider:
    provider = LocalProvider(on_duplicate="error")

    @provider.resource(
        skill.URI,
        name=skill.NAME,
        title="Agent skill: the pwc CLI",
        mime_type=skill.MIME_TYPE,
        description=skill.SUMMARY,
    )
    def pwc_skill() -> str:
        return skill.markdown()

    return provider
