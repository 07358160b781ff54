; Names bound to a value: `const QUEUE_URL = process.env.QUEUE_URL`,
; `let params = {...}`, `params = {...}`, and names taken out of an object
; (`const { QUEUE_URL } = process.env`).
; Captures: @assignment (the binding), @name (the name), @value (its value),
; @destructure (the name is a property of the value).
(variable_declarator name: (identifier) @name value: (_) @value) @assignment
(assignment_expression left: (identifier) @name right: (_) @value) @assignment
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @name)
  value: (_) @value) @assignment @destructure
