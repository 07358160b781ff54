"""`sqsguard server` end to end: the built binary over stdio, a real LSP
client (pytest-lsp), a fresh workspace folder per test."""

from __future__ import annotations

import asyncio
import pathlib
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import (
    REPO,
    Session,
    apply_edits,
    character_of,
    codes_of,
    copy_fixture,
    help_uri,
    make_workspace,
    range_,
    rule_doc,
    with_code,
)

FIX_ALL = "source.fixAll.sqsguard"

# A queue at the default 30 s read by a 60 s function: SQS002 (Lambda
# rejects the mapping) at the 30, with a safe fix to 360; SQS004 (no DLQ)
# on the queue's key, whose fix is unsafe.
TEMPLATE = (REPO / "tests/fixtures/server/worker.yaml").read_text()
SQS002_RANGE = range_((4, 25), (4, 27))  # the `30`
SQS004_RANGE = range_((1, 2), (1, 7))  # the `Queue` key


def only(diagnostics, code):
    found = with_code(diagnostics, code)
    assert len(found) == 1, f"expected one {code}, got {codes_of(diagnostics)}"
    return found[0]


class ServerBug(AssertionError):
    """The server did what the protocol's clients cannot rely on."""


# --- 1. CloudFormation: diagnostic, quick fix, suppression, fix all --------


async def test_cloudformation_diagnostic_and_its_quick_fix(client: LanguageClient, tmp_path: pathlib.Path):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE})
    s = await Session.start(client, root)
    assert s.result.server_info.name == "sqsguard"
    s.open("template.yaml")

    diagnostics = await s.diagnostics("template.yaml", version=1)
    assert codes_of(diagnostics) == ["SQS002", "SQS004"]
    d = only(diagnostics, "SQS002")
    assert d.range == SQS002_RANGE
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.source == "sqsguard"
    assert d.code_description is not None and d.code_description.href == help_uri("SQS002")
    assert d.message.startswith("VisibilityTimeout 30 s < 60 s timeout of function Fn"), d.message
    dlq = only(diagnostics, "SQS004")
    assert (dlq.range, dlq.severity, dlq.code_description.href) == (
        SQS004_RANGE,
        types.DiagnosticSeverity.Warning,
        help_uri("SQS004"),
    )

    actions = await s.code_actions("template.yaml", d.range, [d])
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    titles = [a.title for a in quick]
    # At the 30 only SQS002's actions: its fix (preferred: it is safe) and
    # its suppression. Not SQS004's, whose place is elsewhere.
    assert len(quick) == 2, titles
    fix, suppress = quick
    assert fix.title.startswith("Fix SQS002: set VisibilityTimeout to at least 360"), fix.title
    assert fix.is_preferred is True
    assert [x.code for x in fix.diagnostics] == ["SQS002"]
    assert list(fix.edit.changes) == [s.uri("template.yaml")]
    [edit] = fix.edit.changes[s.uri("template.yaml")]
    assert (edit.range, edit.new_text) == (range_((4, 25), (4, 27)), "360")
    assert suppress.title == "Suppress SQS002 with a comment"
    assert suppress.is_preferred is False
    [comment] = suppress.edit.changes[s.uri("template.yaml")]
    assert (comment.range, comment.new_text) == (range_((4, 0), (4, 0)), "      # sqsguard:ignore SQS002 <reason>\n")

    # The quick fix, applied as an editor does (an incremental change).
    version = s.edit("template.yaml", fix.edit.changes[s.uri("template.yaml")])
    assert s.texts["template.yaml"] == TEMPLATE.replace("VisibilityTimeout: 30", "VisibilityTimeout: 360")
    after = await s.diagnostics("template.yaml", version=version)
    assert codes_of(after) == ["SQS004"], "the fix should clear SQS002 and only it"
    assert only(after, "SQS004").range == SQS004_RANGE
    # Nothing to fix at the 360 now; the suppression of SQS004 is still
    # offered at its own place.
    assert [a for a in await s.code_actions("template.yaml", SQS002_RANGE) if a.kind == "quickfix"] == []
    at_queue = await s.code_actions("template.yaml", SQS004_RANGE, only=["quickfix"])
    assert [a.title.split(":")[0] for a in at_queue] == ["(unsafe) Fix SQS004", "Suppress SQS004 with a comment"]
    assert at_queue[0].is_preferred is False


@pytest.mark.parametrize("eol", ["\n", "\r\n"], ids=["lf", "crlf"])
async def test_the_suppression_action_silences_the_finding(client: LanguageClient, tmp_path: pathlib.Path, eol):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE.replace("\n", eol)})
    s = await Session.start(client, root)
    s.open("template.yaml")
    d = only(await s.diagnostics("template.yaml", version=1), "SQS002")
    actions = await s.code_actions("template.yaml", d.range, [d], only=["quickfix"])
    [suppress] = [a for a in actions if a.title.startswith("Suppress")]
    [comment] = suppress.edit.changes[s.uri("template.yaml")]
    assert comment.new_text == f"      # sqsguard:ignore SQS002 <reason>{eol}", "in the file's own line breaks"
    version = s.edit("template.yaml", [comment])
    assert f"      # sqsguard:ignore SQS002 <reason>{eol}      VisibilityTimeout: 30{eol}" in s.texts["template.yaml"]
    assert codes_of(await s.diagnostics("template.yaml", version=version)) == ["SQS004"]


async def test_fix_all_applies_the_safe_fixes_and_unsafe_ones_when_set(
    client: LanguageClient, tmp_path: pathlib.Path
):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE})
    s = await Session.start(client, root)
    s.open("template.yaml")
    await s.diagnostics("template.yaml", version=1)

    actions = await s.code_actions("template.yaml", range_((0, 0), (0, 0)), only=[FIX_ALL])
    assert [a.kind for a in actions] == [FIX_ALL], [a.title for a in actions]
    [fix_all] = actions
    assert "(1 fixable)" in fix_all.title, fix_all.title
    fixed = apply_edits(s.texts["template.yaml"], fix_all.edit.changes[s.uri("template.yaml")])
    # Only the safe fix: SQS004's DLQ is an unsafe fix.
    assert fixed == TEMPLATE.replace("VisibilityTimeout: 30", "VisibilityTimeout: 360")
    version = s.change("template.yaml", fixed)
    assert codes_of(await s.diagnostics("template.yaml", version=version)) == ["SQS004"]

    # With unsafeFixes set, "fix all" adds the DLQ and nothing is left.
    # (The server reads messages in order: the setting holds for the request.)
    s.configure({"sqsguard": {"unsafeFixes": True}})
    [fix_all] = await s.code_actions("template.yaml", range_((0, 0), (0, 0)), only=[FIX_ALL])
    fixed = apply_edits(s.texts["template.yaml"], fix_all.edit.changes[s.uri("template.yaml")])
    assert "RedrivePolicy:" in fixed and "deadLetterTargetArn: !GetAtt QueueDLQ.Arn" in fixed, fixed
    version = s.change("template.yaml", fixed)
    # What `lint --fix --unsafe-fixes` leaves: the new DLQ has no alarm
    # (SQS015), which has no fix.
    left = await s.diagnostics("template.yaml", version=version)
    assert codes_of(left) == ["SQS015"]
    assert left[0].range.start.line == fixed.splitlines().index("  QueueDLQ:")
    # Nothing fixable: no "fix all" at all.
    assert await s.code_actions("template.yaml", range_((0, 0), (0, 0)), only=[FIX_ALL]) == []


async def test_closing_a_document_withdraws_its_diagnostics(client: LanguageClient, tmp_path: pathlib.Path):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE})
    s = await Session.start(client, root)
    s.open("template.yaml")
    assert codes_of(await s.diagnostics("template.yaml", version=1)) == ["SQS002", "SQS004"]
    s.close("template.yaml")
    assert await s.diagnostics("template.yaml", lambda ds: not ds) == []
    # Reopened (as saved: still 30 s), checked again.
    s.open("template.yaml")
    assert codes_of(await s.diagnostics("template.yaml", lambda ds: ds, version=1)) == ["SQS002", "SQS004"]


async def test_diagnostics_name_a_document_by_the_uri_it_was_opened_with(
    client: LanguageClient, tmp_path: pathlib.Path
):
    """A folder whose name the client percent-encodes (`+`, `@`, `(`,
    `)`, as VS Code and Python's pathlib do): the server works on the path
    but must publish under the URI the client sent, or a client that keys
    documents by that string (pytest-lsp, pygls) never sees them."""
    root = make_workspace(tmp_path / "stacks+prod@eu (1)", {"template.yaml": TEMPLATE})
    s = await Session.start(client, root)
    s.open("template.yaml")
    sent = s.uri("template.yaml")
    assert "%2B" in sent and "%40" in sent
    published = await s.until("any publishDiagnostics", lambda: list(client.published))
    # The same file, however spelled.
    assert [pathlib.Path(url2pathname(urlparse(p.uri).path)) for p in published] == [root / "template.yaml"]
    if published[0].uri != sent:
        raise ServerBug(f"opened as {sent}, published as {published[0].uri}")


# --- 2. Serverless -------------------------------------------------------


async def test_serverless_finding(client: LanguageClient, tmp_path: pathlib.Path):
    bad = (REPO / "tests/rules/SQS002/serverless/bad.yml").read_text()
    root = make_workspace(tmp_path, {"serverless.yml": bad})
    s = await Session.start(client, root)
    s.open("serverless.yml")
    hint, d = await s.diagnostics("serverless.yml", version=1)
    # The worker's handler (handler.process_orders) is not in the
    # workspace: said as a hint, at the `handler:` value, without a code.
    assert hint.severity == types.DiagnosticSeverity.Hint and hint.code is None
    assert hint.range == range_((11, 13), (11, 35))
    assert hint.message.endswith(f"{root / 'handler.py'} was not found"), hint.message
    assert d.code == "SQS002"
    # At the queue's key (it sets no VisibilityTimeout).
    assert bad.splitlines()[21] == "    OrdersQueue:"
    assert d.range == range_((21, 4), (21, 15))
    assert d.severity == types.DiagnosticSeverity.Error
    assert "60 s timeout of function worker" in d.message, d.message
    assert d.code_description.href == help_uri("SQS002")

    # The function's timeout down to the queue's 30 s: nothing left.
    version = s.change("serverless.yml", bad.replace("    timeout: 60\n", "    timeout: 5\n"))
    assert await s.diagnostics("serverless.yml", version=version) == [hint]


# --- 3. Terraform: a module's unsaved sibling -----------------------------

QUEUE_TF = 'resource "aws_sqs_queue" "q" {\n  visibility_timeout_seconds = 180\n}\n'
LAMBDA_TF = """\
resource "aws_lambda_function" "f" {
  function_name = "f"
  timeout = 30
}
resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name = aws_lambda_function.f.arn
}
"""


async def test_terraform_finding_follows_the_unsaved_sibling(client: LanguageClient, tmp_path: pathlib.Path):
    root = make_workspace(tmp_path, {"queue.tf": QUEUE_TF, "lambda.tf": LAMBDA_TF})
    s = await Session.start(client, root)
    s.open("queue.tf")
    s.open("lambda.tf")
    timeouts = {"SQS001", "SQS002"}
    first = await s.diagnostics("queue.tf", version=1)
    assert codes_of(first) == ["SQS004"], "180 s is enough for a 30 s function"
    assert codes_of(await s.diagnostics("lambda.tf", version=1)) == ["SQS005"]

    # 60 s in the unsaved lambda.tf: 180 < 6 x 60, on queue.tf's 180.
    s.change("lambda.tf", LAMBDA_TF.replace("timeout = 30", "timeout = 60"))
    moved = await s.diagnostics("queue.tf", lambda ds: timeouts & set(codes_of(ds)))
    assert codes_of(moved) == ["SQS001", "SQS004"]
    d = only(moved, "SQS001")
    assert d.range == range_((1, 31), (1, 34))
    assert d.severity == types.DiagnosticSeverity.Warning
    assert "6 x 60 s function timeout" in d.message, d.message
    assert (root / "lambda.tf").read_text() == LAMBDA_TF, "the change is unsaved"

    # 200 s: now below the function timeout itself, SQS002 instead.
    s.change("lambda.tf", LAMBDA_TF.replace("timeout = 30", "timeout = 200"))
    moved = await s.diagnostics("queue.tf", lambda ds: "SQS002" in codes_of(ds))
    assert codes_of(moved) == ["SQS002", "SQS004"]
    assert only(moved, "SQS002").range == range_((1, 31), (1, 34))

    # Back to 30 s: gone again.
    s.change("lambda.tf", LAMBDA_TF)
    back = await s.diagnostics("queue.tf", lambda ds: not timeouts & set(codes_of(ds)))
    assert codes_of(back) == ["SQS004"]


# --- 4. Handler code ------------------------------------------------------

RETURNS_FAILURES = """\
import json


def handler(event, context):
    failures = []
    for record in event["Records"]:
        process(json.loads(record["body"]))
    return {"batchItemFailures": failures}


def process(order):
    print(order["id"])
"""


async def test_handler_code_rules_follow_the_handler_and_the_template(
    client: LanguageClient, tmp_path: pathlib.Path
):
    # ReportBatchItemFailures on the event; the handler never reports.
    root = copy_fixture(REPO / "tests/rules/SQS202/python/bad_sam", tmp_path)
    template = (root / "template.yaml").read_text()
    s = await Session.start(client, root)
    s.open("src/app.py")
    [d] = await s.diagnostics("src/app.py", version=1)
    assert d.code == "SQS202"
    assert d.range == range_((3, 4), (3, 11)), "at the handler's name in `def handler`"
    assert d.severity == types.DiagnosticSeverity.Warning
    assert "OrdersFunction" in d.message and "never returns batchItemFailures" in d.message, d.message

    # The handler now returns batchItemFailures: clean.
    version = s.change("src/app.py", RETURNS_FAILURES)
    assert await s.diagnostics("src/app.py", version=version) == []

    # The template (unsaved) drops FunctionResponseTypes: Lambda would
    # ignore the response the handler returns; SQS201, in the handler, at
    # its batchItemFailures key, and SQS005 on the template's event.
    s.open("template.yaml")
    assert await s.diagnostics("template.yaml", version=1) == []
    dropped = template.replace("            FunctionResponseTypes:\n              - ReportBatchItemFailures\n", "")
    assert dropped != template
    t_version = s.change("template.yaml", dropped)
    [d] = await s.diagnostics("src/app.py", lambda ds: ds)
    assert d.code == "SQS201"
    assert d.range == range_((7, 13), (7, 30)), "at `batchItemFailures` in the return"
    assert d.severity == types.DiagnosticSeverity.Error
    [event] = await s.diagnostics("template.yaml", version=t_version)
    assert event.code == "SQS005"
    assert event.range == range_((36, 8), (36, 14)), "at the `Orders` event"

    # SQS201's quick fix, asked in the handler, edits the template.
    actions = await s.code_actions("src/app.py", d.range, [d], only=["quickfix"])
    [fix] = [a for a in actions if a.title.startswith("Fix SQS201")]
    assert fix.is_preferred is True
    assert list(fix.edit.changes) == [s.uri("template.yaml")]
    version = s.edit("template.yaml", fix.edit.changes[s.uri("template.yaml")])
    assert '            FunctionResponseTypes: ["ReportBatchItemFailures"]\n' in s.texts["template.yaml"]
    assert await s.diagnostics("template.yaml", lambda ds: not ds, version=version) == []
    assert await s.diagnostics("src/app.py", lambda ds: not ds) == []


async def test_each_publication_at_a_version_holds_for_that_version(
    client: LanguageClient, tmp_path: pathlib.Path
):
    """The template's diagnostics come from two checks: the template's own,
    and the handler's (which reads the template that names it). When the
    template changes, both run again; whichever finishes first must not
    publish the template's diagnostics as the new version's while they
    still hold the other check's findings of the old version (here SQS005,
    gone from version 2)."""
    # The handler returns batchItemFailures; the event (batches of 10)
    # lacks FunctionResponseTypes: SQS201 in the handler, SQS005 on the
    # event.
    root = copy_fixture(REPO / "tests/rules/SQS202/python/bad_sam", tmp_path)
    template = (root / "template.yaml").read_text()
    frt = "            FunctionResponseTypes:\n              - ReportBatchItemFailures\n"
    assert frt in template
    make_workspace(root, {"template.yaml": template.replace(frt, ""), "src/app.py": RETURNS_FAILURES})
    s = await Session.start(client, root)
    s.open("src/app.py")
    assert codes_of(await s.diagnostics("src/app.py", version=1)) == ["SQS201"]
    s.open("template.yaml")
    assert codes_of(await s.diagnostics("template.yaml", version=1)) == ["SQS005"]
    await s.settle()

    version = s.change("template.yaml", template)
    assert await s.diagnostics("template.yaml", lambda ds: not ds, version=version) == []
    assert await s.diagnostics("src/app.py", lambda ds: not ds) == []
    await s.settle()
    at_version = [
        codes_of(p.diagnostics)
        for p in client.published
        if p.uri == s.uri("template.yaml") and p.version == version
    ]
    assert at_version, "published at the new version"
    if at_version != [[]] * len(at_version):
        raise ServerBug(f"published as version {version} of template.yaml: {at_version}")


# --- 5. Hover on a rule code ----------------------------------------------


async def test_hover_on_a_rule_code_shows_its_page(client: LanguageClient, tmp_path: pathlib.Path):
    suppressed = TEMPLATE.replace("  Queue:\n", "  # sqsguard:ignore SQS004 the DLQ is elsewhere\n  Queue:\n", 1)
    root = make_workspace(tmp_path, {"template.yaml": suppressed, ".sqsguard.yaml": "ignore: [SQS001]\n"})
    s = await Session.start(client, root)
    s.open("template.yaml")
    s.open(".sqsguard.yaml")
    assert codes_of(await s.diagnostics("template.yaml", version=1)) == ["SQS002"], "SQS004 is suppressed"

    # In the suppression comment (line 1, `SQS004` at 20..26).
    shown = await s.hover("template.yaml", 1, 22)
    assert shown is not None
    assert shown.contents.kind == types.MarkupKind.Markdown
    page = shown.contents.value
    assert page.startswith("# SQS004 missing-dlq\n\nSeverity: warning\n\n"), page[:80]
    assert page.endswith(rule_doc("SQS004"))
    assert shown.range == range_((1, 20), (1, 26))

    # In .sqsguard.yaml.
    shown = await s.hover(".sqsguard.yaml", 0, 10)
    assert shown.contents.value.startswith("# SQS001 ") and shown.contents.value.endswith(rule_doc("SQS001"))
    assert shown.range == range_((0, 9), (0, 15))

    # On a finding's place: the page of its rule.
    shown = await s.hover("template.yaml", 5, 26)
    assert shown.contents.value.startswith("# SQS002 ") and shown.range is None

    # Anywhere else: nothing.
    assert await s.hover("template.yaml", 0, 3) is None
    assert await s.hover("template.yaml", 1, 8) is None


# --- 6. Settings ------------------------------------------------------------


async def test_settings_select_the_rules(client: LanguageClient, tmp_path: pathlib.Path):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE})
    s = await Session.start(client, root, options={"select": ["SQS004"]})
    s.open("template.yaml")
    assert codes_of(await s.diagnostics("template.yaml", version=1)) == ["SQS004"]

    s.configure({"sqsguard": {"select": ["SQS002"]}})
    assert codes_of(await s.diagnostics("template.yaml", lambda ds: codes_of(ds) != ["SQS004"])) == ["SQS002"]

    # A code that names no rule: said, and the settings before stay.
    s.configure({"sqsguard": {"select": ["SQS999"]}})
    said = await s.until("a message naming SQS999", lambda: [m for m in client.messages if "SQS999" in m.message])
    assert said[0].type == types.MessageType.Warning
    version = s.change("template.yaml", TEMPLATE + "# edited\n")
    assert codes_of(await s.diagnostics("template.yaml", version=version)) == ["SQS002"]

    # No select: every rule; an ignore on top.
    s.configure({"sqsguard": {}})
    assert codes_of(await s.diagnostics("template.yaml", lambda ds: len(ds) == 2)) == ["SQS002", "SQS004"]
    s.configure({"sqsguard": {"ignore": ["SQS002"]}})
    assert codes_of(await s.diagnostics("template.yaml", lambda ds: len(ds) == 1)) == ["SQS004"]


async def test_invalid_initialization_options_are_said_and_the_defaults_govern(
    client: LanguageClient, tmp_path: pathlib.Path
):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE})
    s = await Session.start(client, root, options={"select": "SQS004"})
    said = await s.until("a warning about the settings", lambda: list(client.messages))
    assert said[0].type == types.MessageType.Warning and "settings are not valid" in said[0].message, said
    s.open("template.yaml")
    assert codes_of(await s.diagnostics("template.yaml", version=1)) == ["SQS002", "SQS004"]


# --- 7. A document that does not parse --------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "at", "message"),
    [
        (
            "template.yaml",
            "Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties: {VisibilityTimeout: 30\n",
            (4, 0),
            "YAML syntax error",
        ),
        ("main.tf", 'resource "aws_sqs_queue" "q" {\n  visibility_timeout_seconds = \n}\n', (1, 31), "HCL syntax error"),
    ],
)
async def test_a_document_that_does_not_parse(client: LanguageClient, tmp_path: pathlib.Path, name, text, at, message):
    root = make_workspace(tmp_path, {name: text, "other.yaml": "# sqsguard:ignore SQS003 why\nAWSTemplateFormatVersion: x\n"})
    s = await Session.start(client, root)
    s.open(name)
    [d] = await s.diagnostics(name, version=1)
    assert d.code == "SQS000"
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.range.start == range_(at, at).start
    assert d.message.startswith(message), d.message

    # The server still answers: a hover elsewhere, and on the problem.
    s.open("other.yaml")
    shown = await s.hover("other.yaml", 0, 20)
    assert shown is not None and shown.contents.value.startswith("# SQS003 ")
    shown = await s.hover(name, *at)
    assert shown is not None and shown.contents.value.startswith("# SQS000 ")

    # Mended, it is checked as usual.
    mended = text.replace("VisibilityTimeout: 30\n", "VisibilityTimeout: 30}\n").replace("= \n", "= 30\n")
    version = s.change(name, mended)
    # (What `lint` says of it: no DLQ, short polling.)
    assert codes_of(await s.diagnostics(name, version=version)) == ["SQS004", "SQS006"]


# --- 8. Shutdown --------------------------------------------------------------


async def test_shutdown_then_exit_ends_the_server_with_0(client: LanguageClient, tmp_path: pathlib.Path):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE})
    s = await Session.start(client, root)
    s.open("template.yaml")
    await s.diagnostics("template.yaml", version=1)
    assert await s.shutdown() == 0


async def test_exit_without_shutdown_ends_the_server_with_1(client: LanguageClient, tmp_path: pathlib.Path):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE})
    await Session.start(client, root)
    client.exit(None)
    client.shut_down = True
    assert await asyncio.wait_for(client._server.wait(), 30) == 1


async def test_an_unknown_request_is_refused_and_the_server_goes_on(client: LanguageClient, tmp_path: pathlib.Path):
    root = make_workspace(tmp_path, {"template.yaml": TEMPLATE})
    s = await Session.start(client, root)
    s.open("template.yaml")
    with pytest.raises(Exception, match="does not answer textDocument/completion"):
        await asyncio.wait_for(
            client.text_document_completion_async(
                types.CompletionParams(
                    text_document=types.TextDocumentIdentifier(uri=s.uri("template.yaml")),
                    position=types.Position(line=0, character=0),
                )
            ),
            30,
        )
    assert codes_of(await s.diagnostics("template.yaml", version=1)) == ["SQS002", "SQS004"]
    assert await s.shutdown() == 0


# --- 9. Position encodings -----------------------------------------------------

# Multibyte characters before the finding on its line: é is 2 UTF-8 bytes
# and 1 UTF-16 unit, 😀 4 bytes and 2 units (a surrogate pair).
WIDE = TEMPLATE.replace(
    "    Properties:\n      VisibilityTimeout: 30\n",
    '    Properties: {QueueName: "café😀-orders", VisibilityTimeout: 30}\n',
)
WIDE_LINE = WIDE.splitlines()[3]


@pytest.mark.parametrize(
    ("offered", "negotiated"),
    [(["utf-8"], "utf-8"), (["utf-8", "utf-16"], "utf-8"), (None, "utf-16"), (["utf-16"], "utf-16")],
)
async def test_position_encoding(client: LanguageClient, tmp_path: pathlib.Path, offered, negotiated):
    root = make_workspace(tmp_path, {"template.yaml": WIDE})
    s = await Session.start(client, root, encodings=offered)
    assert s.result.capabilities.position_encoding == negotiated
    s.open("template.yaml")
    d = only(await s.diagnostics("template.yaml", version=1), "SQS002")
    at = WIDE_LINE.index("30}")
    start, end = character_of(WIDE_LINE, at, negotiated), character_of(WIDE_LINE, at + 2, negotiated)
    assert (start, end) == ((67, 69) if negotiated == "utf-8" else (64, 66)), (start, end)
    assert d.range == range_((3, start), (3, end))
    # A hover inside the finding's range shows its rule, one unit before
    # it nothing: positions are read in the same units.
    shown = await s.hover("template.yaml", 3, start + 1)
    assert shown is not None and shown.contents.value.startswith("# SQS002 ")
    assert await s.hover("template.yaml", 3, start - 1) is None

    # The fix's range counts the same units; applied here in them, and sent
    # back to the server as an incremental change in them.
    [fix] = [a for a in await s.code_actions("template.yaml", d.range, [d]) if a.title.startswith("Fix SQS002")]
    [edit] = fix.edit.changes[s.uri("template.yaml")]
    assert edit.range == d.range and edit.new_text == "360"
    version = s.edit("template.yaml", [edit])
    assert s.texts["template.yaml"] == WIDE.replace("VisibilityTimeout: 30}", "VisibilityTimeout: 360}")
    assert codes_of(await s.diagnostics("template.yaml", version=version)) == ["SQS004"]
