; Values that differ on every call: a clock, a UUID, a random number.
; Captures: @source (the call, as written).
; `time.time()`, `time.time_ns()`, `time.monotonic()`, `time.perf_counter()`,
; `uuid.uuid4()` (1, 4, 7), `datetime.now()` / `datetime.datetime.utcnow()` /
; `date.today()` (and pendulum's, arrow's), any `random.x()` or `secrets.x()`,
; and `uuid4()`, `time_ns()`, `token_hex()` imported by name: one flat
; pattern on the callee's text (`#field-match?`; a nested shape costs the
; query compiler a millisecond a pattern: docs/speed.md).
((call) @source
  (#field-match? @source "function" "^(time\\s*\\.\\s*(time|time_ns|monotonic|perf_counter)|uuid\\s*\\.\\s*(uuid1|uuid4|uuid7)|(.*\\.\\s*)?(datetime|date|pendulum|arrow)\\s*\\.\\s*(now|utcnow|today)|(random|secrets)\\s*\\.\\s*[A-Za-z_][A-Za-z0-9_]*|uuid1|uuid4|uuid7|time_ns|token_hex|token_urlsafe)$"))
