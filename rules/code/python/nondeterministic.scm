; Values that differ on every call: a clock, a UUID, a random number.
; Captures: @source (the call, as written).
((call function: (attribute object: (identifier) @module attribute: (identifier) @f)) @source
  (#eq? @module "time") (#any-of? @f "time" "time_ns" "monotonic" "perf_counter"))
((call function: (attribute object: (_) @class attribute: (identifier) @f)) @source
  (#match? @class "(^|[.])(datetime|date|pendulum|arrow)$") (#any-of? @f "now" "utcnow" "today"))
((call function: (attribute object: (identifier) @module attribute: (identifier) @f)) @source
  (#eq? @module "uuid") (#any-of? @f "uuid1" "uuid4" "uuid7"))
((call function: (identifier) @f) @source
  (#any-of? @f "uuid1" "uuid4" "uuid7" "time_ns" "token_hex" "token_urlsafe"))
((call function: (attribute object: (identifier) @module)) @source
  (#any-of? @module "random" "secrets"))
