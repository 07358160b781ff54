; What returns batch item failures by itself: Powertools for AWS Lambda's
; batch utility (`process_partial_response`, `async_process_partial_response`,
; a `BatchProcessor` made in the file, the `@batch_processor` decorator).
; Captures: @utility (the name), or @utility_call (a call, whose name
; called is the utility: `fields::callee_name`) or @utility_decorator (the
; decorator, whose name or call is the utility): matched on their text
; (`#field-match?`: the callee's text), since spelling their shapes out
; costs the query compiler 2 ms.
((call) @utility_call
  (#field-match? @utility_call "function" "^(.*\\.\\s*)?(process_partial_response|async_process_partial_response|BatchProcessor|AsyncBatchProcessor|SqsFifoPartialProcessor)$"))
((decorator) @utility_decorator
  (#match? @utility_decorator "^@\\s*(async_)?batch_processor\\s*(\\(|$)"))
