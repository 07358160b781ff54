; Values that differ on every call: a clock, a UUID, a random number.
; Captures: @source (the call, as written).
((method_invocation object: (identifier) @class name: (identifier) @m) @source
  (#any-of? @class "Instant" "LocalDateTime" "ZonedDateTime" "OffsetDateTime" "LocalDate" "LocalTime")
  (#eq? @m "now"))
((method_invocation object: (identifier) @class name: (identifier) @m) @source
  (#eq? @class "System") (#any-of? @m "currentTimeMillis" "nanoTime"))
((method_invocation object: (identifier) @class name: (identifier) @m) @source
  (#eq? @class "UUID") (#eq? @m "randomUUID"))
((method_invocation object: (identifier) @class name: (identifier) @m) @source
  (#eq? @class "Math") (#eq? @m "random"))
((method_invocation object: (method_invocation object: (identifier) @class)) @source
  (#eq? @class "ThreadLocalRandom"))
((object_creation_expression type: (type_identifier) @t arguments: (argument_list) @args) @source
  (#eq? @t "Date") (#eq? @args "()"))
