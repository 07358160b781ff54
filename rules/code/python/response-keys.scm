; Keys the code writes into a response: dictionary keys and subscripts.
; Captures: @written, a dictionary's pair, a subscript or a `dict(...)`
; call: the pair's string key (`{"batchItemFailures": ...}`), the
; subscript's string keys (`response["batchItemFailures"]`, and the value
; when it is assigned to) or the call's keyword arguments
; (`dict(batchItemFailures=...)`), with their values, are read from its
; own fields (`fields::written_keys`): spelt out here, the shapes cost the
; query compiler 4.5 ms.
(pair) @written
(subscript) @written
((call) @written
  (#field-match? @written "function" "^dict$"))
