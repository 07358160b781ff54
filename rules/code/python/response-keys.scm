; Keys the code writes into a response: dictionary keys and subscripts.
; Captures: @key (the key's text, without quotes), @value (its value);
; @written, a subscript: its string keys (`response["batchItemFailures"]`),
; and the value when it is assigned to, are read from its own fields
; (`fields::written_keys`): spelt out here, the two shapes cost the query
; compiler 3 ms.
(pair key: (string (string_content) @key) value: (_) @value)
(subscript) @written
; `dict(batchItemFailures=...)`
(call
  function: (identifier) @dict (#eq? @dict "dict")
  arguments: (argument_list (keyword_argument name: (identifier) @key value: (_) @value)))
