"""`sqsguard server`, the built binary, driven by a real LSP client (pytest-lsp).

The binary is $SQSGUARD_BIN (tests/ext/lsp.rs sets it to the one cargo built),
else target/debug/sqsguard. Each test gets a fresh server and a fresh
workspace folder (`make_workspace`); `Session` opens, edits and waits on its
documents. Every wait has a deadline, so a server that never answers fails
the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import os
import re
import pathlib
import time
import tomllib
from collections.abc import Callable, Iterable

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("SQSGUARD_BIN") or str(REPO / "target" / "debug" / "sqsguard")
# How long a check of a small workspace may take in a debug build, with
# other tests (cargo's, in parallel) competing for the CPU.
TIMEOUT = float(os.environ.get("SQSGUARD_LSP_TIMEOUT", "30"))

_cargo = tomllib.loads((REPO / "Cargo.toml").read_text())
REPOSITORY = _cargo["package"]["repository"]


def help_uri(code: str) -> str:
    """A rule's page, as diagnostics link it (codeDescription.href)."""
    return f"{REPOSITORY}/blob/main/rules/{code}.md"


def rule_doc(code: str) -> str:
    """The prose of rules/CODE.md."""
    return (REPO / "rules" / f"{code}.md").read_text()


def make_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics in order
    (with its version), not only the last one of each document."""
    client = LanguageClient(converter_factory=default_converter)

    def publish(ls: LanguageClient, params: types.PublishDiagnosticsParams):
        ls.diagnostics[params.uri] = params.diagnostics
        ls.published.append(params)

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    register_lsp_features(client, features)
    client.published = []  # type: ignore[attr-defined]
    return client


if not pathlib.Path(BIN).is_file():
    raise pytest.UsageError(f"no sqsguard binary at {BIN}: run `cargo build` or set SQSGUARD_BIN")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "server"], client_factory=make_client))
async def client(lsp_client: LanguageClient):
    """A running `sqsguard server`, not yet initialized (each test says how,
    through `Session.start`). At the end, shut down if the test did not,
    and killed if even that does not answer, so that no server outlives its
    test."""
    yield
    server = lsp_client._server
    if server is not None and server.returncode is None:
        try:
            if lsp_client.capabilities is not None and not getattr(lsp_client, "shut_down", False):
                await asyncio.wait_for(lsp_client.shutdown_session(), 10)
            await asyncio.wait_for(server.wait(), 10)
        except Exception:
            server.kill()
            await server.wait()


def read(path: pathlib.Path) -> str:
    """A file's text as it is, line breaks and all (not universal newlines)."""
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def make_workspace(root: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    """A workspace folder holding `files` (relative path: text)."""
    root = root.resolve()
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
    return root


def copy_fixture(folder: pathlib.Path, root: pathlib.Path) -> pathlib.Path:
    """A workspace folder holding a copy of the fixture `folder`."""
    files = {str(p.relative_to(folder)): read(p) for p in folder.rglob("*") if p.is_file()}
    return make_workspace(root, files)


# --- positions and edits ---------------------------------------------------


# A line and its break, as the LSP counts them: \n, \r\n or \r.
LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def offset_of(text: str, position: types.Position, encoding: str = "utf-16") -> int:
    """The index in `text` (a str, so code points) of an LSP position whose
    character counts UTF-16 code units, or UTF-8 bytes."""
    lines = LINES.findall(text)
    if position.line >= len(lines):
        return len(text)
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line].rstrip("\r\n")
    units = 0
    for i, ch in enumerate(line):
        if units >= position.character:
            return start + i
        units += len(ch.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(ch.encode("utf-8"))
    return start + len(line)


def character_of(line: str, index: int, encoding: str) -> int:
    """The LSP character of `line[index]` in the encoding's units."""
    prefix = line[:index]
    if encoding == "utf-8":
        return len(prefix.encode("utf-8"))
    return len(prefix.encode("utf-16-le")) // 2


def apply_edits(text: str, edits: Iterable[types.TextEdit], encoding: str = "utf-16") -> str:
    """`text` after a WorkspaceEdit's TextEdits, all of whose ranges refer to
    the text before any of them (the LSP's rule), applied last first."""
    spans = []
    for edit in edits:
        start = offset_of(text, edit.range.start, encoding)
        end = offset_of(text, edit.range.end, encoding)
        assert start <= end, f"edit with a backwards range: {edit}"
        spans.append((start, end, edit.new_text))
    spans.sort(key=lambda s: (s[0], s[1]), reverse=True)
    for (start, end, new), after in zip(spans, [None] + spans[:-1]):
        assert after is None or end <= after[0], f"overlapping edits: {spans}"
        text = text[:start] + new + text[end:]
    return text


# --- a session: one client and its workspace -------------------------------


class Session:
    """The client, the workspace folder, and the text and version of each
    document it has open (as the editor would keep them)."""

    def __init__(self, client: LanguageClient, root: pathlib.Path, encoding: str = "utf-16"):
        self.client = client
        self.root = root
        self.encoding = encoding
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.result: types.InitializeResult | None = None

    @classmethod
    async def start(
        cls,
        client: LanguageClient,
        root: pathlib.Path,
        *,
        options: object = None,
        encodings: list[str] | None = None,
    ) -> "Session":
        """Initialize the server on the workspace folder `root`, with these
        initializationOptions and these offered position encodings (none:
        the UTF-16 every client speaks)."""
        general = None
        if encodings is not None:
            general = types.GeneralClientCapabilities(
                position_encodings=[types.PositionEncodingKind(e) for e in encodings]
            )
        capabilities = types.ClientCapabilities(
            general=general,
            text_document=types.TextDocumentClientCapabilities(
                synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
                publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                    version_support=True, code_description_support=True, data_support=True
                ),
                code_action=types.CodeActionClientCapabilities(
                    code_action_literal_support=types.ClientCodeActionLiteralOptions(
                        code_action_kind=types.ClientCodeActionKindOptions(
                            value_set=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]
                        )
                    ),
                    is_preferred_support=True,
                ),
                hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            ),
            workspace=types.WorkspaceClientCapabilities(workspace_folders=True, configuration=False),
        )
        session = cls(client, root)
        session.result = await asyncio.wait_for(
            client.initialize_session(
                types.InitializeParams(
                    capabilities=capabilities,
                    root_uri=root.as_uri(),
                    workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
                    initialization_options=options,
                )
            ),
            TIMEOUT,
        )
        encoding = session.result.capabilities.position_encoding
        session.encoding = "utf-8" if encoding == types.PositionEncodingKind.Utf8 else "utf-16"
        return session

    def uri(self, name: str) -> str:
        return (self.root / name).as_uri()

    def language_of(self, name: str) -> str:
        suffix = pathlib.Path(name).suffix
        return {".py": "python", ".tf": "terraform", ".json": "json"}.get(suffix, "yaml")

    def open(self, name: str, text: str | None = None) -> None:
        """Open a document of the workspace, with the text on disk unless
        another is given (unsaved)."""
        if text is None:
            text = read(self.root / name)
        self.texts[name] = text
        self.versions[name] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=self.uri(name), language_id=self.language_of(name), version=1, text=text
                )
            )
        )

    def change(self, name: str, text: str) -> int:
        """Replace an open document's whole text (unsaved); its new version."""
        self.versions[name] += 1
        self.texts[name] = text
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri(name), version=self.versions[name]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[name]

    def edit(self, name: str, edits: list[types.TextEdit]) -> int:
        """Apply a WorkspaceEdit's edits of an open document here, and send
        them as incremental changes (last first, so each one's range is
        still right when the server applies it); the new version."""
        self.texts[name] = apply_edits(self.texts[name], edits, self.encoding)
        ordered = sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
        self.versions[name] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri(name), version=self.versions[name]),
                content_changes=[
                    types.TextDocumentContentChangePartial(range=e.range, text=e.new_text) for e in ordered
                ],
            )
        )
        return self.versions[name]

    def close(self, name: str) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=self.uri(name)))
        )
        del self.texts[name], self.versions[name]

    def configure(self, settings: object) -> None:
        self.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))

    async def until(self, what: str, done: Callable[[], object], timeout: float = TIMEOUT):
        """Wait until `done()` is truthy (checked every 20 ms); its value.
        Fails, saying `what`, at the deadline."""
        deadline = time.monotonic() + timeout
        while True:
            value = done()
            if value:
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                published = [
                    (p.uri.rsplit("/", 1)[-1], p.version, codes_of(p.diagnostics)) for p in self.client.published
                ]
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; published so far: {published}")
            if self.client._server is not None and self.client._server.returncode is not None:
                raise AssertionError(
                    f"the server exited ({self.client._server.returncode}) while waiting for {what}"
                )
            # Polled, not awaited with a timeout: pytest-lsp keeps the
            # future of a wait_for_notification that timed out (cancelled)
            # and sets its result when the notification comes, which raises
            # in its reader and loses the notification.
            await asyncio.sleep(min(left, 0.02))

    async def settle(self, quiet: float = 0.5, timeout: float = TIMEOUT) -> None:
        """Wait until no diagnostics have been published for `quiet` seconds
        (every check that was running has finished)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = len(self.client.published)
            await asyncio.sleep(quiet)
            if len(self.client.published) == seen:
                return
        raise AssertionError(f"diagnostics kept coming for {timeout} s")

    async def diagnostics(
        self,
        name: str,
        where: Callable[[list[types.Diagnostic]], object] = lambda _: True,
        *,
        version: int | None = None,
        timeout: float = TIMEOUT,
    ) -> list[types.Diagnostic]:
        """The diagnostics last published for `name` once they satisfy
        `where`; with `version`, once published for that version of the
        open document (or a later one)."""
        uri = self.uri(name)

        def ready():
            mine = [p for p in self.client.published if p.uri == uri]
            if not mine:
                return None
            last = mine[-1]
            if version is not None and (last.version is None or last.version < version):
                return None
            return [list(last.diagnostics)] if where(list(last.diagnostics)) else None

        label = f"diagnostics of {name}" + (f" at version {version}" if version is not None else "")
        return (await self.until(label, ready, timeout))[0]

    async def code_actions(
        self, name: str, range_: types.Range, diagnostics=(), only: list[str] | None = None
    ) -> list[types.CodeAction]:
        result = await asyncio.wait_for(
            self.client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=self.uri(name)),
                    range=range_,
                    context=types.CodeActionContext(
                        diagnostics=list(diagnostics),
                        only=only,
                    ),
                )
            ),
            TIMEOUT,
        )
        actions = list(result or [])
        assert all(isinstance(a, types.CodeAction) for a in actions), actions
        return actions

    async def hover(self, name: str, line: int, character: int) -> types.Hover | None:
        return await asyncio.wait_for(
            self.client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=self.uri(name)),
                    position=types.Position(line=line, character=character),
                )
            ),
            TIMEOUT,
        )

    async def shutdown(self) -> int:
        """shutdown, then exit; the server's exit code."""
        await asyncio.wait_for(self.client.shutdown_session(), TIMEOUT)
        self.client.shut_down = True  # type: ignore[attr-defined]
        server = self.client._server
        assert server is not None
        return await asyncio.wait_for(server.wait(), TIMEOUT)


def codes_of(diagnostics: Iterable[types.Diagnostic]) -> list[str]:
    """The codes of these diagnostics, sorted."""
    return sorted(str(d.code) for d in diagnostics)


def with_code(diagnostics: Iterable[types.Diagnostic], code: str) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.code == code]


def position(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def range_(start: tuple[int, int], end: tuple[int, int]) -> types.Range:
    return types.Range(start=position(*start), end=position(*end))
