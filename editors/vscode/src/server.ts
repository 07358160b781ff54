// What the extension decides without VS Code: which binary runs the
// server, which documents it checks, what settings it is sent, and when
// a crashed server is restarted. This module imports only Node's own
// modules, so test/ loads it (built to out/server.js) under `node --test`;
// extension.ts is the thin part that needs `vscode`.

import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The configuration section: `sqsguard.*` in settings.json. */
export const SECTION = "sqsguard";

/** The kind of the server's "fix all" code action. */
export const FIX_ALL_KIND = "source.fixAll.sqsguard";

/**
 * The settings `sqsguard server` reads (src/server/settings.rs), as
 * `lint`'s flags of the same names. `path` and `trace.server` are the
 * client's own and are not sent.
 */
export interface ServerSettings {
  select: string[];
  ignore: string[];
  unsafeFixes: boolean;
  varFiles: string[];
  stage: string | null;
}

/** Reads one key of the `sqsguard` section (`config.get`). */
export type Getter = (key: string) => unknown;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : [];
}

/**
 * The server's settings from the `sqsguard` section: what is sent as
 * `initializationOptions` (bare, as the server accepts them). Values of
 * the wrong type fall back to the defaults rather than make the server
 * refuse every setting; an empty stage is no stage.
 */
export function serverSettings(get: Getter): ServerSettings {
  const stage = get("stage");
  return {
    select: strings(get("select")),
    ignore: strings(get("ignore")),
    unsafeFixes: get("unsafeFixes") === true,
    varFiles: strings(get("varFiles")),
    stage: typeof stage === "string" && stage.trim() !== "" ? stage.trim() : null,
  };
}

/**
 * The `workspace/didChangeConfiguration` params for the settings now:
 * the same settings as `initializationOptions`, under the section's key
 * (where the server looks for them). Sent in place of the raw section
 * that `synchronize.configurationSection` would send, so the server never
 * sees a value the initialization options would not carry (an empty
 * stage, a setting of the wrong type), nor `path` and `trace`.
 */
export function configurationChange(get: Getter): { settings: { [SECTION]: ServerSettings } } {
  return { settings: { [SECTION]: serverSettings(get) } };
}

/** A filter of the documents sent to the server (an LSP DocumentFilter). */
export interface DocumentFilter {
  scheme: "file";
  language?: string;
  pattern?: string;
}

/** The language ids of the files sqsguard lints. */
export const LANGUAGES = [
  "yaml",
  "json",
  "terraform",
  "terraform-vars",
  // Handler code (the SQS consumers the templates name).
  "python",
  "javascript",
  "typescript",
  "javascriptreact",
  "typescriptreact",
  "go",
  "java",
] as const;

/**
 * Patterns for the files whose language id varies with the extensions
 * installed (Terraform's, most of all) and the config file.
 */
export const PATTERNS = ["**/*.tf", "**/*.tf.json", "**/*.tfvars", "**/.sqsguard.yaml"] as const;

/** The documents the server checks: files on disk only. */
export function documentSelector(): DocumentFilter[] {
  return [
    ...LANGUAGES.map((language): DocumentFilter => ({ scheme: "file", language })),
    ...PATTERNS.map((pattern): DocumentFilter => ({ scheme: "file", pattern })),
  ];
}

/** Where a candidate binary comes from. */
export type Origin = "setting" | "bundled" | "PATH";

export interface Candidate {
  command: string;
  origin: Origin;
}

export interface Place {
  /** `sqsguard.path`, as set (null or empty when unset). */
  configuredPath?: string | null;
  /** The extension's folder (`context.extensionPath`). */
  extensionPath: string;
  /** The first workspace folder, for `${workspaceFolder}` and relative paths. */
  workspaceFolder?: string;
  platform?: NodeJS.Platform;
  home?: string;
  exists?: (file: string) => boolean;
}

/** The binary the extension bundles (`bin/sqsguard`), when it has one. */
export function bundledPath(extensionPath: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(extensionPath, "bin", platform === "win32" ? "sqsguard.exe" : "sqsguard");
}

/** `sqsguard.path` made absolute: `~` and `${workspaceFolder}` expanded, a relative path taken from the workspace. */
export function expandPath(configured: string, workspaceFolder?: string, home: string = os.homedir()): string {
  let p = configured.trim();
  if (p === "~" || p.startsWith("~/") || p.startsWith("~\\")) {
    p = path.join(home, p.slice(1));
  }
  if (workspaceFolder !== undefined) {
    p = p.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  }
  // A bare name (`sqsguard-dev`) is looked for on PATH, as a shell would.
  const bare = !p.includes("/") && !p.includes("\\");
  if (!bare && !path.isAbsolute(p) && workspaceFolder !== undefined) {
    p = path.join(workspaceFolder, p);
  }
  return p;
}

/**
 * The binaries to try, in order: `sqsguard.path` alone when it is set (a
 * binary the user named is never silently replaced by another); else the
 * bundled one when it is there, then `sqsguard` on PATH.
 */
export function candidates(place: Place): Candidate[] {
  const platform = place.platform ?? process.platform;
  const exists = place.exists ?? fs.existsSync;
  const configured = place.configuredPath?.trim();
  if (configured) {
    return [{ command: expandPath(configured, place.workspaceFolder, place.home), origin: "setting" }];
  }
  const out: Candidate[] = [];
  const bundled = bundledPath(place.extensionPath, platform);
  if (exists(bundled)) {
    out.push({ command: bundled, origin: "bundled" });
  }
  out.push({ command: platform === "win32" ? "sqsguard.exe" : "sqsguard", origin: "PATH" });
  return out;
}

/** Why a candidate cannot serve (undefined: it can). */
export type Probe = (command: string) => Promise<string | undefined>;

/**
 * Runs `COMMAND server --help`: it exits 0 only for a sqsguard that has
 * the `server` subcommand, so an old sqsguard on PATH is refused with a
 * reason rather than started and lost.
 */
export const probe: Probe = (command) =>
  new Promise((resolve) => {
    execFile(command, ["server", "--help"], { timeout: 15_000, windowsHide: true }, (error, _stdout, stderr) => {
      if (!error) {
        resolve(undefined);
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        resolve("not found");
      } else if (code === "EACCES") {
        resolve("not executable");
      } else if (error.killed) {
        resolve("did not answer `server --help` within 15 s");
      } else {
        const first = String(stderr).split(/\r?\n/).find((l) => l.trim() !== "") ?? error.message;
        resolve(`\`server --help\` failed (an sqsguard without the server?): ${first.trim()}`);
      }
    });
  });

function describe(c: Candidate): string {
  switch (c.origin) {
    case "setting":
      return `the sqsguard.path setting (${c.command})`;
    case "bundled":
      return `the bundled binary (${c.command})`;
    case "PATH":
      return `${c.command} on PATH`;
  }
}

export type Resolution = { command: string; origin: Origin; tried: string[] } | { error: string; tried: string[] };

/**
 * The first candidate that can serve, or one message naming every one
 * tried and why it could not.
 */
export async function resolveServer(list: Candidate[], check: Probe = probe): Promise<Resolution> {
  const tried: string[] = [];
  for (const c of list) {
    const why = await check(c.command);
    if (why === undefined) {
      return { command: c.command, origin: c.origin, tried };
    }
    tried.push(`${describe(c)}: ${why}`);
  }
  const error =
    `sqsguard: could not start the language server. Tried ${tried.join("; ")}. ` +
    "Install sqsguard (`pip install sqsguard`, or `cargo install --locked --path . --features audit` in a checkout) " +
    "or set sqsguard.path to its binary, then run `sqsguard: Restart server`.";
  return { error, tried };
}

/**
 * When a server that exits by itself is started again: at most `max`
 * times in `windowMs`, so a server that crashes on start is not restarted
 * forever.
 */
export class RestartBudget {
  private crashes: number[] = [];

  constructor(
    readonly max = 3,
    readonly windowMs = 3 * 60_000,
  ) {}

  /** Records a crash at `now`; whether the server may be restarted. */
  crashed(now: number): boolean {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    return this.crashes.length <= this.max;
  }

  /** Forgets the crashes (a restart the user asked for). */
  reset(): void {
    this.crashes = [];
  }

  message(): string {
    const minutes = Math.round(this.windowMs / 60_000);
    return (
      `sqsguard: the server stopped ${this.max + 1} times in ${minutes} minutes and will not be restarted. ` +
      'See the "sqsguard" output, then run `sqsguard: Restart server`.'
    );
  }
}
