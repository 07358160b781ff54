; Keys the code writes into a response: dictionary keys and subscripts.
; Captures: @key (the key's text, without quotes), @value (its value);
; @written, a subscript or a `dict(...)` call: its string keys
; (`response["batchItemFailures"]`), and the value when it is assigned to,
; or its keyword arguments (`dict(batchItemFailures=...)`), are read from
; its own fields (`fields::written_keys`): spelt out here, the shapes cost
; the query compiler 4 ms.
(pair key: (string (string_content) @key) value: (_) @value)
(subscript) @written
((call) @written
  (#field-match? @written "function" "^dict$"))
