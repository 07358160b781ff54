; Values that differ on every call: a clock, a UUID, a random number.
; Captures: @source (the call, as written).
((call_expression function: (member_expression object: (identifier) @o property: (property_identifier) @p)) @source
  (#any-of? @o "Date" "performance") (#eq? @p "now"))
((new_expression constructor: (identifier) @c arguments: (arguments) @args) @source
  (#eq? @c "Date") (#eq? @args "()"))
((new_expression constructor: (identifier) @c !arguments) @source
  (#eq? @c "Date"))
((call_expression function: (member_expression object: (identifier) @o property: (property_identifier) @p)) @source
  (#eq? @o "crypto") (#any-of? @p "randomUUID" "randomBytes" "getRandomValues" "randomInt"))
((call_expression function: (identifier) @f) @source
  (#any-of? @f "randomUUID" "uuidv1" "uuidv4" "uuidv7" "v1" "v4" "v7" "nanoid" "ulid" "cuid" "randomBytes"))
((call_expression function: (member_expression object: (identifier) @o property: (property_identifier) @p)) @source
  (#eq? @o "uuid") (#any-of? @p "v1" "v4" "v7"))
((call_expression function: (member_expression object: (identifier) @o property: (property_identifier) @p)) @source
  (#eq? @o "Math") (#eq? @p "random"))
