// The extension's decisions, without VS Code: src/server.ts built to
// out/server.js (`npm test` builds it first).

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const server = require("../out/server.js");
const manifest = require("../package.json");

const getter = (values) => (key) => values[key];

test("settings: the five the server reads, defaults for the unset and the wrongly typed", () => {
  assert.deepEqual(server.serverSettings(getter({})), {
    select: [],
    ignore: [],
    unsafeFixes: false,
    varFiles: [],
    stage: null,
  });
  const set = server.serverSettings(
    getter({
      path: "/opt/sqsguard",
      select: ["SQS001", "SQS01"],
      ignore: ["SQS004", 7, ""],
      unsafeFixes: true,
      varFiles: ["prod.tfvars"],
      stage: " prod ",
      "trace.server": "verbose",
    }),
  );
  assert.deepEqual(set, {
    select: ["SQS001", "SQS01"],
    ignore: ["SQS004"],
    unsafeFixes: true,
    varFiles: ["prod.tfvars"],
    stage: "prod",
  });
  // path and trace are the client's own: never sent.
  assert.deepEqual(Object.keys(set).sort(), ["ignore", "select", "stage", "unsafeFixes", "varFiles"]);
  assert.deepEqual(server.serverSettings(getter({ select: "SQS001", unsafeFixes: "yes", stage: "" })), {
    select: [],
    ignore: [],
    unsafeFixes: false,
    varFiles: [],
    stage: null,
  });
});

test("settings: a change is sent as the same settings under the sqsguard key", () => {
  const values = { path: "/opt/sqsguard", ignore: ["SQS004"], stage: "", "trace.server": "verbose" };
  assert.deepEqual(server.configurationChange(getter(values)), {
    settings: { sqsguard: { select: [], ignore: ["SQS004"], unsafeFixes: false, varFiles: [], stage: null } },
  });
});

test("settings: package.json contributes each one the server reads, with the default serverSettings gives", () => {
  const props = manifest.contributes.configuration.properties;
  const defaults = server.serverSettings(getter({}));
  for (const [key, value] of Object.entries(defaults)) {
    assert.ok(props[`sqsguard.${key}`], `sqsguard.${key} is not contributed`);
    assert.deepEqual(props[`sqsguard.${key}`].default, value, `sqsguard.${key}`);
  }
  for (const key of ["sqsguard.path", "sqsguard.trace.server"]) {
    assert.ok(props[key], `${key} is not contributed`);
  }
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ["sqsguard.path"]);
});

test("document selector: files on disk of every language sqsguard lints, and the Terraform patterns", () => {
  const selector = server.documentSelector();
  assert.ok(selector.every((f) => f.scheme === "file"));
  const languages = selector.filter((f) => f.language).map((f) => f.language);
  for (const l of ["yaml", "json", "terraform", "terraform-vars", "python", "javascript", "typescript"]) {
    assert.ok(languages.includes(l), l);
  }
  for (const l of ["javascriptreact", "typescriptreact", "go", "java"]) {
    assert.ok(languages.includes(l), l);
  }
  const patterns = selector.filter((f) => f.pattern).map((f) => f.pattern);
  assert.deepEqual(patterns, ["**/*.tf", "**/*.tf.json", "**/*.tfvars", "**/.sqsguard.yaml"]);
  // Each language activates the extension.
  for (const l of languages) {
    assert.ok(manifest.activationEvents.includes(`onLanguage:${l}`), `onLanguage:${l}`);
  }
});

test("binary: the setting alone when set, else the bundled one if there, then PATH", () => {
  const ext = path.join(path.sep, "ext");
  const none = () => false;
  const all = () => true;
  assert.deepEqual(server.candidates({ extensionPath: ext, platform: "linux", exists: none }), [
    { command: "sqsguard", origin: "PATH" },
  ]);
  assert.deepEqual(server.candidates({ extensionPath: ext, platform: "linux", exists: all, configuredPath: "" }), [
    { command: path.join(ext, "bin", "sqsguard"), origin: "bundled" },
    { command: "sqsguard", origin: "PATH" },
  ]);
  assert.deepEqual(server.candidates({ extensionPath: ext, platform: "win32", exists: all }), [
    { command: path.join(ext, "bin", "sqsguard.exe"), origin: "bundled" },
    { command: "sqsguard.exe", origin: "PATH" },
  ]);
  // Only the bundled file is asked about.
  const asked = [];
  server.candidates({ extensionPath: ext, platform: "linux", exists: (f) => (asked.push(f), false) });
  assert.deepEqual(asked, [path.join(ext, "bin", "sqsguard")]);
  assert.deepEqual(
    server.candidates({ extensionPath: ext, platform: "linux", exists: all, configuredPath: "/opt/sqsguard" }),
    [{ command: "/opt/sqsguard", origin: "setting" }],
  );
});

test("binary: ~, ${workspaceFolder} and relative paths in sqsguard.path", () => {
  const ws = path.join(path.sep, "work", "repo");
  const home = path.join(path.sep, "home", "me");
  assert.equal(server.expandPath("~/bin/sqsguard", ws, home), path.join(home, "bin", "sqsguard"));
  assert.equal(server.expandPath("${workspaceFolder}/target/debug/sqsguard", ws, home), `${ws}/target/debug/sqsguard`);
  assert.equal(server.expandPath("target/debug/sqsguard", ws, home), path.join(ws, "target", "debug", "sqsguard"));
  assert.equal(server.expandPath("sqsguard-dev", ws, home), "sqsguard-dev");
  assert.equal(server.expandPath("/abs/sqsguard", ws, home), "/abs/sqsguard");
});

test("binary: the first that serves; else one message naming each tried and why", async () => {
  const list = [
    { command: "/ext/bin/sqsguard", origin: "bundled" },
    { command: "sqsguard", origin: "PATH" },
  ];
  const probed = [];
  const ok = await server.resolveServer(list, async (c) => (probed.push(c), c === "sqsguard" ? undefined : "broken"));
  assert.deepEqual(probed, ["/ext/bin/sqsguard", "sqsguard"]);
  assert.equal(ok.command, "sqsguard");
  assert.equal(ok.origin, "PATH");
  assert.deepEqual(ok.tried, ["the bundled binary (/ext/bin/sqsguard): broken"]);

  const failed = await server.resolveServer(list, async () => "not found");
  assert.equal(failed.command, undefined);
  assert.match(failed.error, /could not start the language server/);
  assert.match(failed.error, /the bundled binary \(\/ext\/bin\/sqsguard\): not found; sqsguard on PATH: not found/);
  assert.match(failed.error, /sqsguard\.path/);
});

test("binary: the real probe tells a missing file, a non-executable one, and a program without `server`", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqsguard-vscode-"));
  try {
    assert.equal(await server.probe(path.join(dir, "absent")), "not found");
    if (process.platform !== "win32") {
      const plain = path.join(dir, "plain");
      fs.writeFileSync(plain, "#!/bin/sh\nexit 0\n", { mode: 0o644 });
      assert.equal(await server.probe(plain), "not executable");
      const old = path.join(dir, "old");
      fs.writeFileSync(old, "#!/bin/sh\necho \"error: unrecognized subcommand '$1'\" >&2\nexit 2\n", { mode: 0o755 });
      assert.match(await server.probe(old), /failed .*unrecognized subcommand 'server'/);
      const good = path.join(dir, "good");
      fs.writeFileSync(good, '#!/bin/sh\n[ "$1 $2" = "server --help" ]\n', { mode: 0o755 });
      assert.equal(await server.probe(good), undefined);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("restarts: at most three crashes in three minutes, a manual restart forgets them", () => {
  const budget = new server.RestartBudget();
  const minute = 60_000;
  assert.equal(budget.crashed(0), true);
  assert.equal(budget.crashed(minute), true);
  assert.equal(budget.crashed(2 * minute), true);
  assert.equal(budget.crashed(2 * minute + 1), false);
  // The first two are older than three minutes by then.
  assert.equal(budget.crashed(10 * minute), true);
  budget.reset();
  assert.equal(budget.crashed(10 * minute), true);
  assert.match(budget.message(), /4 times in 3 minutes.*Restart server/);
});
