; Keys the code writes into a response: object keys and subscripts.
; Captures: @key (the key's text, without quotes), @value (its value);
; @written, an assignment: the key it writes (`response.batchItemFailures =
; ...`, `response["batchItemFailures"] = ...`) and its value are read from
; its own fields (`fields::written_keys`): spelt out here, the two shapes
; cost the query compiler 3.5 ms (TypeScript: 12).
(pair key: (property_identifier) @key value: (_) @value)
(pair key: (string (string_fragment) @key) value: (_) @value)
(shorthand_property_identifier) @key
(assignment_expression) @written
