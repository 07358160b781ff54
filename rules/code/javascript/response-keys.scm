; Keys the code writes into a response: object keys and subscripts.
; Captures: @key (the key's text, without quotes), @value (its value).
(pair key: (property_identifier) @key value: (_) @value)
(pair key: (string (string_fragment) @key) value: (_) @value)
(shorthand_property_identifier) @key
(assignment_expression
  left: (member_expression property: (property_identifier) @key)
  right: (_) @value)
(assignment_expression
  left: (subscript_expression index: (string (string_fragment) @key))
  right: (_) @value)
