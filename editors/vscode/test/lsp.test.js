// The messages the extension makes, sent to a real `sqsguard server`: the
// binary is found as the extension finds it (sqsguard.path set to
// $SQSGUARD_BIN), started with `server` over stdio as
// vscode-languageclient starts it, given serverSettings() as
// initializationOptions, then configurationChange() as each
// workspace/didChangeConfiguration. tests/ext/vscode.rs sets SQSGUARD_BIN to
// the binary cargo built; without it the test is skipped.

const test = require("node:test");
const assert = require("node:assert/strict");
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const server = require("../out/server.js");

// The worker of tests/fixtures/server, its function at 30 s.
const TEMPLATE = fs
  .readFileSync(path.join(__dirname, "../../../tests/fixtures/server/worker.yaml"), "utf8")
  .replace("      Timeout: 60\n", "      Timeout: 30\n");

/** A JSON-RPC client over a child's stdio, framed as LSP frames it. */
class Client {
  constructor(child) {
    this.child = child;
    this.buffer = Buffer.alloc(0);
    this.next = 0;
    this.pending = new Map();
    this.seen = [];
    this.waiters = [];
    this.stderr = "";
    child.stderr.on("data", (d) => (this.stderr += d));
    child.stdout.on("data", (d) => this.data(d));
  }

  data(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, end).toString())[1]);
      if (this.buffer.length < end + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString("utf8"));
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.received(message);
    }
  }

  received(message) {
    if (message.id !== undefined && message.method === undefined) {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
    } else if (message.id !== undefined) {
      // A request of the server's (client/registerCapability): accepted.
      this.send({ jsonrpc: "2.0", id: message.id, result: null });
    } else {
      this.seen.push(message);
      for (const w of [...this.waiters]) w();
    }
  }

  send(message) {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  request(method, params) {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (m) => (m.error ? reject(new Error(`${method}: ${JSON.stringify(m.error)}`)) : resolve(m.result)));
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method, params) {
    this.send({ jsonrpc: "2.0", method, params });
  }

  /** The first notification seen from index `from` on that `match`es, within 30 s. */
  wait(from, match, what) {
    return new Promise((resolve, reject) => {
      const look = () => {
        const found = this.seen.slice(from).find(match);
        if (found) {
          this.waiters = this.waiters.filter((w) => w !== look);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== look);
        reject(new Error(`no ${what} in 30 s; seen: ${JSON.stringify(this.seen)}; stderr: ${this.stderr}`));
      }, 30_000);
      this.waiters.push(look);
      look();
    });
  }
}

const codes = (published) => published.params.diagnostics.map((d) => d.code);

test("a real sqsguard server takes the settings the extension sends", async (t) => {
  const bin = process.env.SQSGUARD_BIN;
  if (!bin) {
    t.skip("SQSGUARD_BIN is not set (tests/ext/vscode.rs sets it)");
    return;
  }
  const found = await server.resolveServer(server.candidates({ configuredPath: bin, extensionPath: __dirname }));
  assert.equal(found.error, undefined, found.error);
  assert.equal(found.origin, "setting");

  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sqsguard-vscode-lsp-")));
  const file = path.join(root, "template.yaml");
  fs.writeFileSync(file, TEMPLATE);
  const uri = pathToFileURL(file).href;
  const child = spawn(found.command, ["server"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const client = new Client(child);
  try {
    // The section as VS Code holds it, with sqsguard.select set.
    const section = {
      path: bin,
      select: ["SQS001"],
      ignore: [],
      unsafeFixes: false,
      varFiles: [],
      stage: null,
      trace: { server: "off" },
    };
    const get = (key) => key.split(".").reduce((v, k) => v?.[k], section);
    const init = await client.request("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: "root" }],
      capabilities: {},
      initializationOptions: server.serverSettings(get),
    });
    assert.equal(init.serverInfo.name, "sqsguard");
    const kinds = init.capabilities.codeActionProvider.codeActionKinds;
    assert.ok(kinds.includes(server.FIX_ALL_KIND), JSON.stringify(kinds));
    client.notify("initialized", {});
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text: TEMPLATE } });
    const isDiagnostics = (m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri;
    const first = await client.wait(0, isDiagnostics, "diagnostics");
    assert.deepEqual(codes(first), ["SQS001"]);

    // A change of the settings: ignoring SQS001 leaves nothing.
    let from = client.seen.length;
    section.ignore = ["SQS001"];
    client.notify("workspace/didChangeConfiguration", server.configurationChange(get));
    const after = await client.wait(from, isDiagnostics, "diagnostics after the change");
    assert.deepEqual(codes(after), []);

    // A code no rule has is refused with a warning the user sees.
    from = client.seen.length;
    section.select = ["SQS999"];
    client.notify("workspace/didChangeConfiguration", server.configurationChange(get));
    const warning = await client.wait(from, (m) => m.method === "window/showMessage", "warning");
    assert.match(warning.params.message, /SQS999/);

    // Nothing the extension sent was refused before that.
    const refused = client.seen.filter((m) => m.method === "window/showMessage" && m !== warning);
    assert.deepEqual(refused, []);

    await client.request("shutdown", null);
    client.notify("exit", null);
    const code = await exited;
    assert.equal(code, 0, client.stderr);
  } finally {
    child.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
