"""A CDK app in the editor: the findings of its synthesized templates are
published on the app's source files, whether open or not, with their quick
fixes, marked stale once the source is edited after the synth, and checked
again when a synth writes the templates.

The app must be synthesized by the real CDK: tests/ext/cdk.rs synthesizes
tests/fixtures/cdk/typescript and runs this file with SQSGUARD_CDK_APP naming
it. Without it (`pytest tests/lsp` alone, as tests/ext/lsp.rs runs it) the
test is skipped.
"""

from __future__ import annotations

import os
import pathlib
import shutil

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import Session, apply_edits, codes_of, with_code

APP = os.environ.get("SQSGUARD_CDK_APP")
pytestmark = pytest.mark.skipif(not APP, reason="SQSGUARD_CDK_APP names no synthesized app (tests/ext/cdk.rs sets it)")

PIPELINE = "lib/pipeline.ts"


async def test_a_synthesized_apps_findings_are_on_its_source_with_their_fixes(
    client: LanguageClient, tmp_path: pathlib.Path
):
    root = tmp_path / "app"
    # copy2 keeps each file's time: the assembly stays newer than the source.
    shutil.copytree(APP, root, symlinks=True)
    s = await Session.start(client, root)

    # Nothing is open: the assembly is checked from the start, and its
    # findings are published on the source, at the construct's property.
    # The construct is used twice (Orders, Payments): one finding each,
    # both on its one line.
    diagnostics = await s.diagnostics(PIPELINE, lambda d: len(with_code(d, "SQS002")) == 2)
    found = with_code(diagnostics, "SQS002")
    assert [d.range.start.line for d in found] == [14, 14], found  # `visibilityTimeout: Duration.seconds(30)`
    assert not [d for d in found if "stale" in d.message]
    assert {"OrdersJobs" in d.message for d in found} == {True, False}
    assert "SQS004" in codes_of(diagnostics) and "SQS005" in codes_of(diagnostics)
    assert not [p for p in client.published if "cdk.out" in p.uri and p.diagnostics]

    # Open it: the quick fix rewrites the property in the source.
    s.open(PIPELINE)
    diagnostics = await s.diagnostics(PIPELINE, lambda d: len(with_code(d, "SQS002")) == 2, version=1)
    sqs002 = with_code(diagnostics, "SQS002")[0]
    actions = await s.code_actions(PIPELINE, sqs002.range, [sqs002])
    fixes = [a for a in actions if a.title.startswith("Fix SQS002")]
    assert fixes, f"no fix of SQS002 among {[a.title for a in actions]}"
    edits = [e for uri, es in (fixes[0].edit.changes or {}).items() for e in es if uri == s.uri(PIPELINE)]
    fixed = apply_edits(s.texts[PIPELINE], edits, s.encoding)
    assert "visibilityTimeout: Duration.seconds(720)" in fixed, fixed

    # Edited after the synth: the findings are marked stale.
    version = s.change(PIPELINE, fixed)
    diagnostics = await s.diagnostics(
        PIPELINE, lambda d: any("stale" in x.message for x in with_code(d, "SQS002")), version=version
    )

    # A new synth writes the templates: checked again (here the same
    # template, touched, as `cdk watch` rewrites it).
    template = root / "cdk.out" / "Workers.template.json"
    template.write_text(template.read_text())
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=template.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await s.settle()
    assert with_code(await s.diagnostics(PIPELINE), "SQS002")
