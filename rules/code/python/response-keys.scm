; Keys the code writes into a response: dictionary keys and subscripts.
; Captures: @key (the key's text, without quotes), @value (its value).
(pair key: (string (string_content) @key) value: (_) @value)
(assignment
  left: (subscript subscript: (string (string_content) @key))
  right: (_) @value)
(subscript subscript: (string (string_content) @key))
; `dict(batchItemFailures=...)`
(call
  function: (identifier) @dict (#eq? @dict "dict")
  arguments: (argument_list (keyword_argument name: (identifier) @key value: (_) @value)))
