; Fields the code sets in a response: `events.SQSBatchItemFailure{ItemIdentifier: ...}`.
; Captures: @key (the field's name), @value (its value).
(keyed_element
  key: (literal_element (identifier) @key)
  value: (literal_element) @value)
; Keys of a map the handler returns: `map[string]interface{}{"batchItemFailures": f}`.
(keyed_element
  key: (literal_element (interpreted_string_literal) @key)
  value: (literal_element) @value)
