; Keys the code writes into a response: object keys and subscripts.
; Captures: @key (a shorthand key: `{ batchItemFailures }`); @written, an
; object's pair or an assignment: the key it writes (`{ batchItemFailures:
; ... }`, `{ "batchItemFailures": ... }`, `response.batchItemFailures =
; ...`, `response["batchItemFailures"] = ...`) and its value are read from
; its own fields (`fields::written_keys`): spelt out here, the shapes cost
; the query compiler 6 ms (TypeScript: 17).
(pair) @written
(shorthand_property_identifier) @key
(assignment_expression) @written
