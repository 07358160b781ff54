; Values that differ on every call: a clock, a UUID, a random number.
; Captures: @source (the call, as written).
; `Date.now()`, `performance.now()`, `crypto.randomUUID()` (and
; randomBytes, getRandomValues, randomInt), `uuid.v4()` (v1, v7),
; `Math.random()`, and `v4()`, `nanoid()`, `randomUUID()` imported by name:
; one flat pattern on the callee's text (`#field-match?`; a nested shape
; costs the query compiler a millisecond a pattern: docs/speed.md).
((call_expression) @source
  (#field-match? @source "function" "^((Date|performance)\\s*\\??\\.\\s*now|crypto\\s*\\??\\.\\s*(randomUUID|randomBytes|getRandomValues|randomInt)|uuid\\s*\\??\\.\\s*(v1|v4|v7)|Math\\s*\\??\\.\\s*random|randomUUID|uuidv1|uuidv4|uuidv7|v1|v4|v7|nanoid|ulid|cuid|randomBytes)$"))
; `new Date()` and `new Date`
((new_expression) @source
  (#field-match? @source "constructor" "^Date$")
  (#field-match? @source "arguments" "^\\(\\)$"))
((new_expression !arguments) @source
  (#field-match? @source "constructor" "^Date$"))
