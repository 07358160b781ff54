; Values that differ on every call: a clock, a UUID, a random number.
; Captures: @source (the call, as written).
((call_expression function: (selector_expression operand: (identifier) @p field: (field_identifier) @f)) @source
  (#eq? @p "time") (#eq? @f "Now"))
((call_expression function: (selector_expression operand: (identifier) @p field: (field_identifier) @f)) @source
  (#any-of? @p "uuid" "ulid" "ksuid") (#any-of? @f "New" "NewString" "NewRandom" "NewV7" "Make"))
((call_expression function: (selector_expression operand: (identifier) @p)) @source
  (#eq? @p "rand"))
